"""Finding the real shell without finding ourselves, guarding nesting, the exec, and the refusal.

wispsh never forks: it replaces itself with the real shell (same pid, process group, signals, status).
`$SHELL` is never consulted: agents set it to us.
"""
from __future__ import annotations

import errno
import os
import sys

REFUSED = 126
DEPTH_VARIABLE = "WISP_DEPTH"   # how many wispsh execs lie above this one
MAX_DEPTH = 32                  # tmux, vim :!, sudo -s nest a few levels; a shim loop nests without end
DEFAULT_SHELLS = ("bash", "sh")  # called as wispsh: bash where present, else sh
DEFAULT_KEY = "default"         # config `shell.default`: the real shell for `wispsh` itself

# A file whose head holds one of these is a wispsh launcher (console script or shim), not a real shell.
_OWN_MARKERS = (b"wispsh.cli.sh", b"wispsh.main", b"wispsh-shim", b"wispsh-run-launcher")
_HEAD_BYTES = 4096


class ShellNotFound(Exception):
    """No real shell: the message names what was looked for and the config key that sets it."""


def refusal_line(message: str) -> str:
    """The one stderr line of a refusal: whitespace folded, always starting `wispsh:`."""
    line = " ".join(str(message).split())
    if not line.startswith("wispsh:"):
        line = "wispsh: not run: " + line
    return line


def refuse(message: str) -> "NoReturn":  # noqa: F821 - typing only
    """One line on stderr, exit 126. Used where nothing may run."""
    line = refusal_line(message)
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    finally:
        os._exit(REFUSED)


# ---------------------------------------------------------------- finding the real shell


def own_directories(argv0: str) -> frozenset[str]:
    """Directories wispsh was started from (as named and resolved): never searched for the real shell."""
    places = {sys.argv[0], argv0}
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", None):
        places.add(main.__file__)
    dirs = set()
    for place in places:
        if place and os.sep in place:
            dirs.add(os.path.realpath(os.path.dirname(os.path.abspath(place))))
            dirs.add(os.path.realpath(os.path.dirname(os.path.realpath(place))))
    return frozenset(dirs)


def is_wispsh(path: str) -> bool:
    """True when `path` resolves to a wispsh launcher: a shim, the console script, or a link to either."""
    real = os.path.realpath(path)
    if os.path.realpath(sys.argv[0]) == real:
        return True
    try:
        with open(real, "rb") as fh:
            head = fh.read(_HEAD_BYTES)
    except OSError:
        return False  # unreadable but executable: not one of ours (ours are scripts, readable)
    return head.startswith(b"#!") and any(marker in head for marker in _OWN_MARKERS)


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def search_path(name: str, env: dict[str, str], skip_dirs: frozenset[str]) -> str | None:
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        directory = directory or "."
        candidate = os.path.join(directory, name)
        if not _executable(candidate):      # first: a directory without it needs no realpath (a dozen lstats)
            continue
        if os.path.realpath(directory) in skip_dirs or is_wispsh(candidate):
            continue
        return os.path.abspath(candidate)
    return None


def find_shell(shell_name: str | None, config, env: dict[str, str], argv0: str) -> str:
    """The real shell's absolute path. Raises ShellNotFound."""
    names = (shell_name,) if shell_name else DEFAULT_SHELLS
    keys = (shell_name,) if shell_name else (DEFAULT_KEY, *DEFAULT_SHELLS)
    where = config.path
    for key in keys:
        configured = config.shell_path(key)
        if configured:
            if not _executable(configured):
                raise ShellNotFound(f"shell.{key} in {where} is {configured}, which is not an executable file")
            if is_wispsh(configured):
                raise ShellNotFound(f"shell.{key} in {where} is {configured}, which is wispsh itself")
            return configured
    skip = own_directories(argv0)
    for name in names:
        found = search_path(name, env, skip)
        if found:
            return found
    looked = " or ".join(names)
    return _not_found(looked, names[0], where)


def _not_found(looked: str, key: str, where) -> "NoReturn":  # noqa: F821
    raise ShellNotFound(f"no real shell found: looked for {looked} on PATH without wispsh's own directories; "
                        f"set shell.{key} to its absolute path in {where}")


# ---------------------------------------------------------------- nesting


def next_depth(env: dict[str, str]) -> int:
    """This exec's depth; a value that is not a count starts over at 1."""
    raw = env.get(DEPTH_VARIABLE, "0")
    if not (raw.isascii() and raw.isdigit()):
        return 1
    # A forged depth can only refuse (past the limit), never skip the gate: depth decides nothing else.
    return int(raw) + 1 if len(raw) < 10 else MAX_DEPTH + 1


def depth_refusal(depth: int) -> str | None:
    """The refusal for a depth over the limit; None when it is within it."""
    if depth > MAX_DEPTH:
        return (f"wispsh: not run: shells nested {depth} deep through wispsh ({DEPTH_VARIABLE}), over the "
                f"limit of {MAX_DEPTH}: a shim or shell.* setting probably calls wispsh again")
    return None


def check_depth(depth: int) -> None:
    message = depth_refusal(depth)
    if message:
        refuse(message)


# ---------------------------------------------------------------- running checked text


def hold_text(data: bytes) -> str:
    """Put checked bytes where only a reader can reach them; return a /dev/fd path that survives exec.

    A sealed memfd: no process, the script included, can change it after the check.
    """
    reader = sealed_reader(data)
    os.set_inheritable(reader, True)
    return f"/dev/fd/{reader}"


def sealed_reader(data: bytes) -> int:
    """A read-only fd (not inheritable) on a sealed copy of `data`: what hold_text hands the shell, and what
    the `wisp run` supervisor sends its client."""
    if hasattr(os, "memfd_create"):
        import fcntl

        fd = os.memfd_create("wispsh-script", os.MFD_ALLOW_SEALING)  # no MFD_CLOEXEC: the shell reads it
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS,
                    fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL)
        reader = os.open(f"/proc/self/fd/{fd}", os.O_RDONLY | os.O_CLOEXEC)
        os.close(fd)
    else:  # no memfd (not Linux): an unlinked private file, opened read-only
        import tempfile

        handle, name = tempfile.mkstemp(prefix="wispsh-")
        try:
            os.write(handle, data)
            reader = os.open(name, os.O_RDONLY | os.O_CLOEXEC)
        finally:
            os.close(handle)
            os.unlink(name)
    return reader


def exec_shell(path: str, argv: tuple[str, ...] | list[str], env: dict[str, str], depth: int, *,
               gated: bool = False, mint: bool = True, config=None) -> "NoReturn":  # noqa: F821
    """Become the real shell. `gated`: it runs a line the gate allowed; then (unless `mint` is False, for a
    line that already runs beneath such a token) it gets the token that lets wispsh invocations beneath it
    pass on the deny patterns alone (decide/nested.py)."""
    env = dict(env)
    env[DEPTH_VARIABLE] = str(depth)
    if gated:
        from wispsh.decide import nested

        env[nested.GATED_VARIABLE] = "1"
        if mint:
            from wispsh.support.signing import wisp_home

            token = nested.mint(wisp_home(env), dict(config.shells) if config is not None else {},
                                bool(config.deny) if config is not None else True)
            if token:
                env[nested.VARIABLE] = token
            else:                                   # no key: what runs beneath is judged in full
                env.pop(nested.VARIABLE, None)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(path, list(argv), env)
    except OSError as exc:
        refuse(f"wispsh: not run: cannot exec {path}: {exc.strerror}")


# ---------------------------------------------------------------- a script that cannot be read

DASH_ERRORS = {errno.ENOENT: "No such file"}


def refuse_unreadable_script(real_shell: str, argv0: str, name: str, error: OSError) -> "NoReturn":  # noqa: F821
    """Say what the real shell says for a script it cannot open, with its status, and run nothing."""
    message, status = unreadable_script(real_shell, argv0, name, error)
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    finally:
        os._exit(status)


def unreadable_script(real_shell: str, argv0: str, name: str, error: OSError) -> tuple[str, int]:
    """(what the real shell says for a script it cannot open, its exit status).

    The real shell is not asked to try: it would open the file after our failed read, and an agent racing
    us could put a file there in between, which would then run unchecked. Formats as bash 5, dash and zsh.
    """
    base = os.path.basename(os.path.realpath(real_shell))
    code = error.errno
    why = os.strerror(code) if code else str(error)
    if base.startswith("bash"):
        if code == errno.EISDIR:
            message, status = f"{name}: {name}: {why}", REFUSED
        else:
            message, status = f"{argv0}: {name}: {why}", 127 if code == errno.ENOENT else REFUSED
    elif base == "dash":
        message, status = f"{argv0}: 0: cannot open {name}: {DASH_ERRORS.get(code, why)}", 2
    elif base == "zsh":
        message, status = f"{argv0}: can't open input file: {name}", 127
    else:
        message, status = f"{argv0}: {name}: {why}", 127 if code == errno.ENOENT else REFUSED
    return message, status

