"""Asking a person: the terminal dialog, the `wisp watch` broker, and the refusal line."""
