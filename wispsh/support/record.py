"""Immutable records for the data that crosses stages, without the dataclasses module.

Every agent command imports the records (model.py, config.py, ...); `dataclasses` brings inspect, ast, dis
and tokenize, and each @dataclass writes and compiles its methods at import: together more start-up time
than judging a line. A Record subclass lists its FIELDS and writes its own __init__ (setting them with
object.__setattr__, as a frozen dataclass's does); the base gives what the stages rely on: equality and a
hash over the compared fields (COMPARED, default FIELDS), the dataclass-style repr (SHOWN, default
FIELDS), no assignment or deletion after construction, and `replace(record, **changes)` (which, like
dataclasses.replace, builds the new record through __init__).
"""
from __future__ import annotations

from _operator import attrgetter     # the C module operator.py wraps (no import of operator.py)


class Frozen(AttributeError):
    """A field of a record was assigned or deleted (records are immutable, as frozen dataclasses are)."""


def _getter(names: tuple[str, ...]):
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return attrgetter(*names)


class Record:
    __slots__ = ()
    FIELDS: tuple[str, ...] = ()        # in the order of __init__'s parameters
    _compared = staticmethod(lambda record: ())
    _shown_names: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._compared = staticmethod(_getter(cls.__dict__.get("COMPARED", cls.FIELDS)))
        cls._shown_names = cls.__dict__.get("SHOWN", cls.FIELDS)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._compared(self) == self._compared(other)
        return NotImplemented

    def __ne__(self, other):
        if other.__class__ is self.__class__:
            return self._compared(self) != self._compared(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown_names)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name, value) -> None:
        raise Frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name) -> None:
        raise Frozen(f"cannot delete field {name!r}")

    def __reduce__(self):
        return self.__class__, tuple(getattr(self, name) for name in self.FIELDS)


def replace(record, /, **changes):
    """A copy of `record` with some fields changed: dataclasses.replace for Records (and, off the hot path,
    for a dataclass too: one helper for both)."""
    cls = record.__class__
    if not isinstance(record, Record) and hasattr(cls, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.replace(record, **changes)
    for name in changes:
        if name not in cls.FIELDS:
            raise TypeError(f"{cls.__qualname__} has no field {name!r}")
    return cls(*[changes[name] if name in changes else getattr(record, name) for name in cls.FIELDS])
