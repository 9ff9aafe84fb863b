"""Text to Parts: every simple command of a line, with spans, words and origins. Knows bash, not programs."""
