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
    """The stderr text of a refusal, always starting `wispsh:`: whitespace folded within each row; the rows
    of a wrapped refusal (ask.prompt.refusal_line) and their indentation are kept, but no later row may look
    like a line of the gate's own (one starting `wispsh:` is joined to the row before it)."""
    rows: list[str] = []
    for row in str(message).split("\n"):
        if not row.strip():
            continue
        flat = " ".join(row.split())
        if rows and flat.startswith("wispsh"):
            rows[-1] += " " + flat
        else:
            rows.append(row[:len(row) - len(row.lstrip(" "))] + flat)
    line = "\n".join(rows)
    if not line.startswith("wispsh:"):
        line = "wispsh: not run: " + line
    return line


def refuse(message: str) -> "NoReturn":  # noqa: F821 - typing only
    """One line on stderr, exit 126. Used where nothing may run."""
    line = refusal_line(message)
    try:
        if sys.stderr is not None:      # None: the caller closed fd 2 (nothing is written then)
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
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    from wispsh.support import inherited

    inherited.give_back(env)        # the caller's signal dispositions and mask; its closed fds close again
    try:
        os.execve(path, list(argv), env)
    except OSError as exc:
        import _signal

        _signal.signal(_signal.SIGPIPE, _signal.SIG_IGN)    # the refusal must not die on a closed pipe
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


class BinaryScript(OSError):
    """A script the real shell refuses to run as a binary file (bash: a NUL in its first line, or its first two
    after `#!`, within its first 80 bytes; or an ELF header). `place`: the file as the shell names it."""

    def __init__(self, place: str):
        super().__init__(errno.ENOEXEC, "cannot execute binary file", place)
        self.place = place


BASH_BINARY_SAMPLE = 80         # bash reads this much of a script before it runs it (shell.c, open_shell_script)


def refuses_as_binary(real_shell: str, data: bytes) -> bool:
    """Whether `real_shell` refuses `data` as a script file without running any of it, as bash's
    check_binary_file does (dash and zsh read such a file as text, and so does bash from stdin or `.`)."""
    if not os.path.basename(os.path.realpath(real_shell)).startswith("bash"):
        return False
    sample = data[:BASH_BINARY_SAMPLE]
    if sample[:4] == b"\x7fELF":
        return True
    lines = 2 if sample[:2] == b"#!" else 1
    for byte in sample:
        if byte == 0x0A:
            lines -= 1
            if lines == 0:
                return False
        elif byte == 0:
            return True
    return False


def unreadable_script(real_shell: str, argv0: str, name: str, error: OSError) -> tuple[str, int]:
    """(what the real shell says for a script it cannot open or will not run, its exit status).

    The real shell is not asked to try: it would open the file after our failed read, and an agent racing
    us could put a file there in between, which would then run unchecked. Formats as bash 5, dash and zsh.
    """
    if isinstance(error, BinaryScript):         # bash names the file as the prefix too
        return f"{error.place}: {error.place}: cannot execute binary file", REFUSED
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



# ---------------------------------------------------------------- a line the real shell cannot parse

# What each shell says of a syntax error when named NAME (`NAME: -c: line N: …`, `NAME: N: …`), for the shells
# whose reading of `-c` text was checked: bash 5.2 and dash 0.5 read it command by command, a command being
# all the text up to the newline that ends it (a `;` or `&&` does not end it; a compound command, a heredoc, a
# `\` continuation or an open quote carry it over lines), and run each command before they read the next.
# zsh and ksh are not listed: their lines stay refused as any unreadable line is.
SYNTAX_ERROR_AT = {"bash": "{name}: -c: line ", "dash": "{name}: "}
SYNTAX_CHECK_SECONDS = 5
# The only variables the check passes on: those that change how the shell reads text (posix mode, imported
# options such as extglob, compatibility levels, multibyte characters). No others: under `wisp run` the check
# runs outside the namespace, where an agent's LD_PRELOAD or GCONV_PATH must never reach a process.
SYNTAX_VARIABLES = ("POSIXLY_CORRECT", "SHELLOPTS", "BASHOPTS", "BASH_COMPAT", "LC_ALL", "LC_CTYPE", "LANG")


def reports_syntax_error_first(real_shell: str, argv0: str, options, line: str, env, cwd: str) -> bool:
    """True when `real_shell` given `argv0 OPTIONS -c -- LINE` stops at a syntax error before it runs
    anything. The shell itself is asked, with -n (read the text, run none of it), under the same name and
    options, with the variables that change its reading (SYNTAX_VARIABLES) and no others; the answer is yes only when the first error it names is on the text's first line, or the
    text has no newline at all. Every command the shell could have run before its error is complete by a
    newline, so an error on line 1 (or in a text without a newline) comes before any of them; an error on a
    later line may follow one that ran (`echo a⏎if then` runs echo), and such a line stays refused. The caller makes sure that nothing else the shell reads first (start-up files) can
    change how it parses (aliases)."""
    base = os.path.basename(os.path.realpath(real_shell))
    family = "bash" if base.startswith("bash") else base
    said = SYNTAX_ERROR_AT.get(family)
    if said is None or "\n" in argv0:
        return False
    import subprocess

    try:
        done = subprocess.run([argv0, *options, "-n", "-c", "--", line], executable=real_shell,
                              env={k: env[k] for k in SYNTAX_VARIABLES if k in env}, cwd=cwd,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=SYNTAX_CHECK_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return False
    if done.returncode == 0:
        return False
    head = said.format(name=argv0).encode("utf-8", "surrogateescape")
    for row in done.stderr.split(b"\n"):
        if row.startswith(head):
            number = row[len(head):].split(b":", 1)[0]
            # a text of one line is all one command (only a newline ends one): bash names the line after it
            # for an error at its end (`(` is "line 2: unexpected end of file")
            return number == b"1" or "\n" not in line
    return False
