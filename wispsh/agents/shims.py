"""Shims: launcher files named bash/sh/zsh (or a program such as git) that run wispsh instead.

A shim is a tiny Python script, `#!<venv python> -IS` with an explicit sys.path, marked `wispsh-shim` in
its head so that realshell.py never takes it for a real shell and `wisp shims remove` never touches anything
else. A shell shim runs wispsh.cli.sh (the file's name picks the real shell). A program shim
(`wispsh-shim program`) gates its argv as the line `shlex.join(argv)` through the same gate as
`wispsh -c`, then execs the real program of its name found on PATH without the shims.

A program shim runs cli/shim.py's `run_program`.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from wispsh.support.shimfile import ShimError, import_paths, launcher_text, read_shim, shims_in  # noqa: F401

SHELL_SHIMS = ("bash", "sh", "zsh")           # laid by default
LAUNCHER_NAME = "wispsh"                     # a shell shim under this name runs the configured default


# ---------------------------------------------------------------- where and what


def default_dir(env=None) -> Path:
    """`${XDG_DATA_HOME:-~/.local/share}/wispsh/shims`, as install.sh lays them."""
    env = os.environ if env is None else env
    data = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return Path(data) / "wispsh" / "shims"


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\0" in name or name.startswith("-"):
        raise ShimError(f"{name!r} is not a program name")


# ---------------------------------------------------------------- install, remove


def install(directory: Path, *, shells=SHELL_SHIMS, programs=(), python: str | None = None,
            paths: list[str] | None = None, compiled: bool = True) -> list[tuple[Path, str]]:
    """Lay the shims; returns (path, "laid" | "updated" | "unchanged") for each. Idempotent.

    Shell shims have the compiled client in front when it is built for this install (native/build.py) and
    `compiled`; the Python launcher otherwise. Never writes over a file that is not a wispsh shim, and never
    into a directory others can write.
    """
    from wispsh.config import untrusted_reason
    from wispsh.vocab.shells import STANDS_IN_FOR as SHELL_NAMES

    client = None
    if compiled and python in (None, sys.executable) and paths is None:
        from wispsh.native.build import current

        client = current()
        if client is not None:
            from wispsh.native.build import interpreter

            python = interpreter()          # the one the client was built to fall back to
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
        text = launcher_text(kind, python, paths, client=str(client) if client else None)
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
