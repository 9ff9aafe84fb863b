"""Entry points: `wispsh` (the sh stand-in), `wisp` (management), and what they print."""
