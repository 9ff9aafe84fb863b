"""The user's own rule tables (placeholder while the loader is written)."""
from __future__ import annotations


class UserRules:
    __slots__ = ("overrides", "programs")

    def __init__(self, overrides=None, programs=None):
        self.overrides = overrides or {}
        self.programs = programs or {}


def load(config) -> UserRules:
    return UserRules()
