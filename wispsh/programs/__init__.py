"""What programs do with their words: option grammars, wrappers, and which words are code. No levels."""
