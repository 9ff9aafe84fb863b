"""The compiled client of the hot path (client.c) and its build (build.py)."""
