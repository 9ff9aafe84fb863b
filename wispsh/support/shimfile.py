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


# gc off first, as cli/sh.py main turns it off, but before the imports it would otherwise walk (~0.4 ms of a start).
_SHELL_BODY = "import gc\ngc.disable()\nfrom wispsh.cli.sh import main\nsys.exit(main())\n"


_PROGRAM_BODY = "from wispsh.cli.shim import run_program\nsys.exit(run_program())\n"


def import_paths() -> list[str]:
    """What a shim puts on sys.path: where this wispsh is imported from (an editable checkout too),
    then this interpreter's site-packages (its dependencies). -S skips the .pth files that would say so."""
    import sys
    import sysconfig

    import wispsh

    here = str(Path(wispsh.__file__).resolve().parent.parent)
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    return [here] + [p for p in site if p != here]


class ShimError(Exception):
    """A shim cannot be laid or removed; the message says what and why."""


@dataclass(frozen=True)
class Shim:
    path: Path
    kind: str            # "shell" or "program"
    python: str          # the interpreter of its #! line
    stale: bool          # that interpreter is gone (the venv was removed or moved)
    compiled: bool = False   # the compiled client is in front (its `#!` line), the Python launcher behind it


def launcher_text(kind: str, python: str, paths: list[str], client: str | None = None) -> str:
    """`client`: the compiled client (native/) for a shell shim: its `#!` line names it instead, and it runs
    this same file with `python -IS` when it has no warm judge to ask (the rest is the Python launcher)."""
    if " " in python or "\t" in python or len(python) + 6 > MAX_SHEBANG:
        raise ShimError(f"{python} cannot be named on a #! line (spaces or over {MAX_SHEBANG} characters)")
    what, body = (_PROGRAM_WHAT, _PROGRAM_BODY) if kind == "program" else (_SHELL_WHAT, _SHELL_BODY)
    marker = (PROGRAM_MARKER if kind == "program" else MARKER).decode()
    text = _HEADER.format(python=python, marker=marker, what=what, paths=list(paths)) + body
    if client and kind == "shell" and not any(c in client for c in " \t\n") and len(client) + 3 <= MAX_SHEBANG:
        text = f"#!{client}\n# python: {python}\n" + text.split("\n", 1)[1]
    return text


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
    named = head.split(b"\n", 2)[1] if head.count(b"\n") >= 2 else b""
    if named.startswith(b"# python: "):         # the compiled client in front: its Python is named here
        python = named[10:].decode("utf-8", "replace").strip()
    kind = "program" if PROGRAM_MARKER in head else "shell"
    compiled = head.split(b"\n", 2)[1:2] == [b"# python: " + python.encode()]
    interpreter = words[0].decode("utf-8", "replace") if words else ""
    return Shim(Path(path), kind, python, compiled=compiled,
                stale=not (python and os.access(python, os.X_OK) and os.access(interpreter, os.X_OK)))


def shims_in(directory: Path) -> list[Shim]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [s for s in (read_shim(Path(directory) / n) for n in names) if s]
