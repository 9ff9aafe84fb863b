"""Finding the data files of Resources/, installed (wispsh/Resources in the wheel) or in a checkout.
Paths are str (no pathlib: the hot path reads resources)."""
from __future__ import annotations

import os

from wispsh.support.memo import cache

_HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))   # the wispsh package


@cache
def resources_dir() -> str:
    for candidate in (os.path.join(_HERE, "Resources"), os.path.join(os.path.dirname(_HERE), "Resources")):
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(f"wispsh: Resources not found beside {_HERE}")


def resource_path(name: str) -> str:
    return os.path.join(resources_dir(), name)


def read_lines(name: str) -> tuple[str, ...]:
    """A one-item-a-line resource: blank lines and `#` comments dropped, items stripped."""
    items = []
    with open(resource_path(name), encoding="utf-8") as fh:
        text = fh.read()
    for raw in text.splitlines():
        item = raw.split("#", 1)[0].strip()
        if item:
            items.append(item)
    return tuple(items)
