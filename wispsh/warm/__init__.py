"""The plain mode's warm per-user judge (server.py: the process and its socket; judge.py: one request)."""
