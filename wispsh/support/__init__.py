"""Small helpers every stage may use: regexes compiled on first use, finding the shipped Resources."""
