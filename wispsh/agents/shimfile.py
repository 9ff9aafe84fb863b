"""The shim file format: a tiny `#!<venv python> -IS` launcher marked `wispsh-shim` in its head, so that
realshell.py never takes it for a real shell and `wisp shims remove` never touches anything else. Reading
and writing the format only: a leaf that harness.py and shims.py both use."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


MARKER = b"wispsh-shim"


PROGRAM_MARKER = b"wispsh-shim program"


HEAD_BYTES = 4096


MAX_SHEBANG = 255                            # Linux reads at most this much of a `#!` line


_HEADER = """#!{python} -IS
# {marker}: laid by `wisp shims install`. {what}
# -I -S: no PYTHON* variables, no user or site .pth files, no script directory on sys.path: faster
# to start, and nothing an agent sets in the environment can change the gate's code.
import sys
sys.path[:0] = {paths!r}
"""


_SHELL_WHAT = ("The file's name picks the real shell\n"
               "# (bash, sh, zsh, dash, ksh; any other name, e.g. wispsh: the configured default).")


_PROGRAM_WHAT = ("Gates this program's argv as one line (shlex.join),\n"
                 "# then execs the real program of this file's name found on PATH past the shims.")


_SHELL_BODY = "from wispsh.cli.sh import main\nsys.exit(main())\n"


_PROGRAM_BODY = "from wispsh.cli.shim import run_program\nsys.exit(run_program())\n"


class ShimError(Exception):
    """A shim cannot be laid or removed; the message says what and why."""


@dataclass(frozen=True)
class Shim:
    path: Path
    kind: str            # "shell" or "program"
    python: str          # the interpreter of its #! line
    stale: bool          # that interpreter is gone (the venv was removed or moved)


def launcher_text(kind: str, python: str, paths: list[str]) -> str:
    if " " in python or "\t" in python or len(python) + 6 > MAX_SHEBANG:
        raise ShimError(f"{python} cannot be named on a #! line (spaces or over {MAX_SHEBANG} characters)")
    what, body = (_PROGRAM_WHAT, _PROGRAM_BODY) if kind == "program" else (_SHELL_WHAT, _SHELL_BODY)
    marker = (PROGRAM_MARKER if kind == "program" else MARKER).decode()
    return _HEADER.format(python=python, marker=marker, what=what, paths=list(paths)) + body


def read_shim(path: Path) -> Shim | None:
    """The shim at `path`, or None when it is not a regular file marked as ours (links are not ours)."""
    try:
        if not os.path.isfile(path) or os.path.islink(path):
            return None
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError:
        return None
    if not head.startswith(b"#!") or MARKER not in head:
        return None
    words = head[2:].split(b"\n", 1)[0].split()
    python = words[0].decode("utf-8", "replace") if words else ""
    kind = "program" if PROGRAM_MARKER in head else "shell"
    return Shim(Path(path), kind, python, stale=not (python and os.access(python, os.X_OK)))


def shims_in(directory: Path) -> list[Shim]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [s for s in (read_shim(Path(directory) / n) for n in names) if s]
