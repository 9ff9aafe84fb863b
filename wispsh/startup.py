"""The start-up files the real shell reads by its own options, and whether each is the user's own.

A shell started with -i, -l or a login dash in argv[0] (and zsh always) reads start-up files before the line:
bash -i ~/.bashrc, bash -l /etc/profile and ~/.bash_profile (or ~/.bash_login, or ~/.profile), dash and ksh
-l /etc/profile and ~/.profile, $ENV when interactive, zsh ~/.zshenv and by its options ~/.zprofile,
~/.zshrc, ~/.zlogin. An agent that starts `$SHELL -i -c CMD` (Aider) or `-l -c` (Codex, Claude Code without a
snapshot, Continue) did not write them: they are the user's, and judging them as the agent's line asked a
question (or refused) for every command.

So each file is trusted, and not judged, when it is the user's and only the user can change it: a regular
file owned by the user (or root), writable by no one else, in directories owned by the user or root that no
one else may write (a sticky /tmp is fine: no one else can rename what is ours in it). Writing these files
is itself judged (dangerous: your shell config), and under `wisp run` they are read-only. Under a HOME or
ZDOTDIR other than the user's own (the password database's), which a line can set, a file must also be older
than the agent's session (its ctime, which no one can set back): one written in the session may be the
agent's. A file that fails any of this is judged as `. 'FILE'`, the agent's code. `--explain` names what
is read either way.

$BASH_ENV (bash without -i) and $ENV (sh -i) name their file by the environment, which a line can set: such
a file is trusted only when it is one of the shells' own start-up files in $HOME and passes the checks above;
anything else (another path, a value with expansions) is judged as `. VALUE`, as the shell expands it.
--rcfile/--init-file name a file on the command line: always the agent's, judged (invocation.py).
"""
from __future__ import annotations

import os

# The shells' own start-up files in a home: the only names $ENV / $BASH_ENV may point at and be trusted.
HOME_STARTUP_NAMES = frozenset({".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".shrc",
                                ".kshrc", ".mkshrc", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"})
_EXPANDS = frozenset("$`\\~*?[")     # a value the shell would expand: judged as written


class StartupFile:
    """One start-up file the shell will read: where, why, and whether it is trusted (else: why not)."""

    __slots__ = ("path", "why", "problem")

    def __init__(self, path: str, why: str, problem: str | None):
        self.path, self.why, self.problem = path, why, problem

    @property
    def trusted(self) -> bool:
        return self.problem is None

    def __repr__(self) -> str:
        return f"StartupFile({self.path!r}, {self.why!r}, {self.problem!r})"


def _moved(env: dict[str, str], zsh: bool) -> bool:
    from wispsh.config import user_home

    home = env.get("HOME") or ""
    if zsh and env.get("ZDOTDIR") and os.path.realpath(env["ZDOTDIR"]) != os.path.realpath(home or user_home()):
        return True
    return bool(home) and os.path.realpath(home) != os.path.realpath(user_home())


def _problem(path: str, moved) -> str | None:
    """Why `path` is not trusted as the user's, or None. `moved`: a callable, asked only when it matters
    (the password database is read only for a file that is there and otherwise the user's)."""
    from wispsh.support.owned import not_ours

    problem = not_ours(path)
    if problem is None and moved():
        from wispsh.decide.session import changed_in_session

        if changed_in_session(os.path.realpath(path)):
            problem = "was changed during this agent session, under a HOME or ZDOTDIR that is not your own"
    return problem


def _kind(real_shell: str, argv0: str) -> str:
    from wispsh.support.realpath import real

    base = os.path.basename(real(real_shell))
    called = os.path.basename(argv0).lstrip("-")
    if base.startswith("bash"):
        return "posix" if called == "sh" else "bash"
    if base.startswith("zsh"):
        return "zsh" if called not in ("sh", "ksh") else "posix"
    if base.startswith("mksh"):
        return "mksh"
    if base.startswith("ksh"):
        return "ksh"
    return "posix"


def _has(options, *words: str) -> bool:
    return any(word in options for word in words)


def _short(options) -> str:
    """The letters of the short option clusters (`-if` -> "if"); +x clusters are options turned off."""
    return "".join(word[1:] for word in options if word.startswith("-") and not word.startswith("--"))


def _env_file(variable: str, env: dict[str, str], moved) -> StartupFile | None:
    value = env.get(variable)
    if not value:
        return None
    why = f"${variable}"
    home = env.get("HOME") or ""
    if any(ch in _EXPANDS for ch in value) or not os.path.isabs(value):
        return StartupFile(value, why, "is named by a value the shell expands")
    if os.path.normpath(value) != value or os.path.dirname(value) != home.rstrip("/") \
            or os.path.basename(value) not in HOME_STARTUP_NAMES:
        return StartupFile(value, why, "is not one of your shell's own start-up files in $HOME")
    if not os.path.exists(value):
        return None
    return StartupFile(value, why, _problem(value, moved))


def read_by(inv, env: dict[str, str], real_shell: str) -> list[StartupFile]:
    """The start-up files the real shell will read for `inv` (those that exist; $ENV/$BASH_ENV even when
    their file does not, if they are not trusted), in the order it reads them."""
    kind = _kind(real_shell, inv.argv0)
    options = tuple(inv.options)
    letters = _short(options)
    home = env.get("HOME") or ""
    out: list[StartupFile] = []
    known: list[bool] = []

    def moved() -> bool:
        if not known:
            known.append(_moved(env, kind == "zsh"))
        return known[0]

    def add(path: str, why: str) -> bool:
        if not path or not os.path.exists(path):
            return False
        system = path.startswith("/etc/")
        out.append(StartupFile(path, why, _problem(path, (lambda: False) if system else moved)))
        return True

    def in_home(name: str, where: str = home) -> str:
        return os.path.join(where, name) if where and os.path.isabs(where) else ""

    if kind == "bash":
        posix = _has(options, "--posix", "-posix")
        if inv.login:          # a login shell reads the profile, never ~/.bashrc itself (even with -i)
            if not _has(options, "--noprofile", "-noprofile"):
                add("/etc/profile", "login (-l)")
                for name in (".bash_profile", ".bash_login", ".profile"):
                    if add(in_home(name), "login (-l)"):
                        break
            add(in_home(".bash_logout"), "login (-l), at exit")
        elif inv.interactive and posix:
            found = _env_file("ENV", env, moved)
            out.extend([found] if found else [])
        elif inv.interactive:
            if not _has(options, "--norc", "-norc", "--rcfile", "-rcfile", "--init-file", "-init-file"):
                add("/etc/bash.bashrc", "interactive (-i)")
                add("/etc/bash/bashrc", "interactive (-i)")
                add(in_home(".bashrc"), "interactive (-i)")
            # posix mode reads $ENV instead, and the environment can turn it on (POSIXLY_CORRECT, SHELLOPTS):
            # an $ENV that would not be trusted is judged anyway
            found = _env_file("ENV", env, moved)
            if found is not None and not found.trusted:
                out.append(StartupFile(found.path, "$ENV, if bash runs in posix mode", found.problem))
        if not inv.interactive:
            found = _env_file("BASH_ENV", env, moved)
            out.extend([found] if found else [])
    elif kind == "zsh":
        zdotdir = env.get("ZDOTDIR") or home
        no_rcs = "f" in letters or _has(options, "--no-rcs", "--norcs", "--no_rcs")
        no_global = "d" in letters or _has(options, "--no-global-rcs", "--noglobalrcs", "--no_global_rcs")
        add("/etc/zsh/zshenv", "always") or add("/etc/zshenv", "always")
        if not no_rcs:
            add(in_home(".zshenv", zdotdir), "always")
            steps = []
            if inv.login:
                steps.append(("zprofile", "login (-l)"))
            if inv.interactive:
                steps.append(("zshrc", "interactive (-i)"))
            if inv.login:
                steps += [("zlogin", "login (-l)"), ("zlogout", "login (-l), at exit")]
            for name, why in steps:
                if not no_global:
                    add(f"/etc/zsh/{name}", why) or add(f"/etc/{name}", why)
                add(in_home("." + name, zdotdir), why)
    else:
        if inv.login:
            add("/etc/profile", "login (-l)")
            add(in_home(".profile"), "login (-l)")
        if inv.interactive:
            found = _env_file("ENV", env, moved)
            if found is not None:
                out.append(found)
            elif not env.get("ENV") and kind in ("ksh", "mksh"):
                add(in_home(".kshrc" if kind == "ksh" else ".mkshrc"), "interactive (-i), $ENV unset")
    return out


def notes(files: list[StartupFile]) -> tuple[str, ...]:
    """What --explain says about them: one note per file."""
    out = []
    for f in files:
        if f.trusted:
            out.append(f"start-up file read ({f.why}): {f.path}; yours (or the system's) and no one "
                       f"else can change it: trusted, not judged as the agent's line")
        else:
            out.append(f"start-up file read ({f.why}): {f.path} {f.problem}: judged as the agent's code")
    return tuple(out)
