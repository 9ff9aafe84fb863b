"""Shims: launcher files named bash/sh/zsh (or a program such as git) that run wispsh instead.

A shim is a tiny Python script, `#!<venv python> -IS` with an explicit sys.path, marked `wispsh-shim` in
its head so that run.py never takes it for a real shell and `wisp shims remove` never touches anything
else. A shell shim runs wispsh.main (the file's name picks the real shell). A program shim
(`wispsh-shim program`) gates its argv as the line `shlex.join(argv)` through the same gate as
`wispsh -c`, then execs the real program of its name found on PATH without the shims.

`run_program` is on the hot path of every program shim: nothing heavy is imported at module level.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

SHELL_SHIMS = ("bash", "sh", "zsh")           # laid by default
LAUNCHER_NAME = "wispsh"                     # a shell shim under this name runs the configured default
MARKER = b"wispsh-shim"
PROGRAM_MARKER = b"wispsh-shim program"
HEAD_BYTES = 4096
MAX_SHEBANG = 255                            # Linux reads at most this much of a `#!` line
NOT_FOUND = 127                              # as a shell says for a command it cannot find

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
_SHELL_BODY = "from wispsh.main import main\nsys.exit(main())\n"
_PROGRAM_BODY = "from wispsh.shims import run_program\nsys.exit(run_program())\n"


class ShimError(Exception):
    """A shim cannot be laid or removed; the message says what and why."""


@dataclass(frozen=True)
class Shim:
    path: Path
    kind: str            # "shell" or "program"
    python: str          # the interpreter of its #! line
    stale: bool          # that interpreter is gone (the venv was removed or moved)


# ---------------------------------------------------------------- where and what


def default_dir(env=None) -> Path:
    """`${XDG_DATA_HOME:-~/.local/share}/wispsh/shims`, as install.sh lays them."""
    env = os.environ if env is None else env
    data = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return Path(data) / "wispsh" / "shims"


def import_paths() -> list[str]:
    """What a shim puts on sys.path: where this wispsh is imported from (an editable checkout too),
    then this interpreter's site-packages (its dependencies). -S skips the .pth files that would say so."""
    import sysconfig

    import wispsh

    here = str(Path(wispsh.__file__).resolve().parent.parent)
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    return [here] + [p for p in site if p != here]


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


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\0" in name or name.startswith("-"):
        raise ShimError(f"{name!r} is not a program name")


# ---------------------------------------------------------------- install, remove


def install(directory: Path, *, shells=SHELL_SHIMS, programs=(), python: str | None = None,
            paths: list[str] | None = None) -> list[tuple[Path, str]]:
    """Lay the shims; returns (path, "laid" | "updated" | "unchanged") for each. Idempotent.

    Never writes over a file that is not a wispsh shim, and never into a directory others can write.
    """
    from .config import untrusted_reason
    from .shell import SHELL_NAMES

    python = python or sys.executable
    paths = import_paths() if paths is None else paths
    wanted: dict[str, str] = {}
    for name in shells:
        _check_name(name)
        if name not in SHELL_NAMES and name != LAUNCHER_NAME:
            raise ShimError(f"{name} is not a shell wispsh stands in for ({', '.join(SHELL_NAMES)}, {LAUNCHER_NAME})")
        wanted[name] = "shell"
    for name in programs:
        _check_name(name)
        wanted.setdefault(name, "shell" if name in SHELL_NAMES else "program")
    directory = Path(directory).absolute()
    directory.mkdir(parents=True, exist_ok=True, mode=0o755)
    reason = untrusted_reason(directory)
    if reason:
        raise ShimError(f"not laying shims in {directory}: {reason}")
    done = []
    for name, kind in wanted.items():
        path = directory / name
        text = launcher_text(kind, python, paths)
        if os.path.lexists(path):
            if read_shim(path) is None:
                raise ShimError(f"{path} exists and is not a wispsh shim; left alone")
            if path.read_text(encoding="utf-8", errors="replace") == text and os.access(path, os.X_OK):
                done.append((path, "unchanged"))
                continue
            action = "updated"
        else:
            action = "laid"
        tmp = directory / f".{name}.wisp-tmp.{os.getpid()}"
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.chmod(0o755)
            os.replace(tmp, path)            # atomic: a shell starting meanwhile sees the old or the new
        finally:
            if tmp.exists():
                tmp.unlink()
        done.append((path, action))
    return done


def remove(directory: Path, only=()) -> list[Path]:
    """Remove the wispsh shims in `directory` (only those named in `only`, when given); nothing else."""
    removed = []
    for shim in shims_in(Path(directory)):
        if only and shim.path.name not in only:
            continue
        shim.path.unlink()
        removed.append(shim.path)
    return removed


# ---------------------------------------------------------------- PATH


def _path_dirs(env) -> list[str]:
    return [d or "." for d in env.get("PATH", os.defpath).split(os.pathsep)]


def first_on_path(name: str, env) -> str | None:
    """What `name` resolves to on PATH, as a shell or execvp would find it."""
    for directory in _path_dirs(env):
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def path_order(directory: Path, env) -> list[tuple[str, str | None, bool]]:
    """(name, what PATH finds for it, whether that is this directory's shim) for each shim in `directory`."""
    rows = []
    for shim in shims_in(directory):
        found = first_on_path(shim.path.name, env)
        ours = bool(found) and os.path.realpath(found) == os.path.realpath(shim.path)
        rows.append((shim.path.name, found, ours))
    return rows


def dirs_with_shims(env, extra=()) -> list[Path]:
    """The default shims dir, `extra`, and every PATH directory that holds a shim (each once)."""
    seen: dict[str, Path] = {}
    for candidate in (default_dir(env), *extra, *_path_dirs(env)):
        real = os.path.realpath(candidate)
        if real not in seen and shims_in(Path(candidate)):
            seen[real] = Path(candidate)
    return list(seen.values())


# ---------------------------------------------------------------- a program shim running


def run_program(argv: list[str] | None = None) -> int:
    """The program shim: gate `shlex.join(argv)` (argv[0] = the program's name), then exec the real one."""
    import shlex

    from . import run

    argv = list(sys.argv if argv is None else argv)
    name = os.path.basename(argv[0])
    env = dict(os.environ)
    depth = run.next_depth(env)
    run.check_depth(depth)
    real = run.search_path(name, env, run.own_directories(argv[0]))
    if real is None:
        sys.stderr.write(f"wispsh: {name}: command not found (no real {name} on PATH past the shims)\n")
        return NOT_FOUND
    from . import flow

    # Accepted: variables that make the program run code (GIT_SSH_COMMAND, ...) are judged where a line sets
    # them, not here. Returns only when every part may run; else exits 126.
    flow.check(shlex.join([name, *argv[1:]]))
    run.exec_shell(real, [name, *argv[1:]], env, depth, gated=True)
    return run.REFUSED                          # exec_shell never returns; fail closed if it did
