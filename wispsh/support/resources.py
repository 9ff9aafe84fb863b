"""Finding the data files of Resources/, installed (wispsh/Resources in the wheel) or in a checkout."""
from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent   # the wispsh package


@cache
def resources_dir() -> Path:
    for candidate in (_HERE / "Resources", _HERE.parent / "Resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"wispsh: Resources not found beside {_HERE}")


def resource_path(name: str) -> Path:
    return resources_dir() / name


def read_lines(name: str) -> tuple[str, ...]:
    """A one-item-a-line resource: blank lines and `#` comments dropped, items stripped."""
    items = []
    for raw in resource_path(name).read_text(encoding="utf-8").splitlines():
        item = raw.split("#", 1)[0].strip()
        if item:
            items.append(item)
    return tuple(items)
