"""`wisp`: the management CLI (click). Never imported by `wispsh -c`."""
from __future__ import annotations

import click

from wispsh import __version__


class WispError(click.ClickException):
    """One line on stderr, `wisp: ...`, naming what is wrong and what to do; exit 1."""

    def show(self, file=None) -> None:
        from wispsh.support.text import shown

        click.echo(f"wisp: {shown(' '.join(self.format_message().split()))}", err=True)


class Wisp(click.Group):
    """The command group; turns every error a command meets into one line (no traceback, ever)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort,
                KeyboardInterrupt, SystemExit):
            raise
        except BrokenPipeError:          # `wisp audit | head`: the reader left; nothing more to say
            import os
            import sys

            try:
                sys.stdout = open(os.devnull, "w")
            except OSError:
                pass
            raise SystemExit(141) from None
        except OSError as exc:
            raise WispError(_os_message(exc)) from None
        except Exception as exc:
            raise WispError(f"internal error ({type(exc).__name__}: {exc}); please report it") from None


def _os_message(exc: OSError) -> str:
    import errno

    where = f"{exc.filename}: " if exc.filename else ""
    why = exc.strerror or str(exc)
    fix = {errno.ENOSPC: "free space on that filesystem and retry",
           errno.EDQUOT: "free space on that filesystem and retry",
           errno.EROFS: "that filesystem is read-only: remount it read-write or set WISP_HOME elsewhere",
           errno.EACCES: "check who owns it and its mode (`wisp doctor`)",
           errno.ENOTDIR: "a directory in that path is a file: see `wisp doctor`",
           errno.EISDIR: "a file in that path is a directory: move it aside (`wisp doctor`)"}.get(
        exc.errno, "see `wisp doctor`")
    return f"{where}{why}; {fix}"


def say(text: str = "") -> None:
    """A line for a person: control characters and undecodable bytes shown escaped."""
    from wispsh.support.text import shown

    click.echo("\n".join(shown(row) for row in str(text).split("\n")))


def say_json(value) -> None:
    """JSON for a tool: strict UTF-8, one document."""
    from wispsh.support.text import dumps

    click.echo(dumps(value, indent=2))


def warn(text: str) -> None:
    """A warning for a person, wrapped to 80 columns (never inside a word or a path)."""
    from wispsh.support.text import shown, wrap

    click.echo(wrap(f"wisp: {shown(' '.join(str(text).split()))}"), err=True)


@click.group(cls=Wisp, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wisp", message="%(prog)s %(version)s")
def cli() -> None:
    """Manage wispsh: approvals, explain, watch, audit, run, shims, rules, doctor."""


# Each subcommand lives in the module of its room and is registered here.


@cli.command(short_help="How LINE would be split, rated and decided (nothing runs).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the plan as JSON (docs/explain-json.md).")
@click.argument("line")
def explain(as_json: bool, line: str) -> None:
    """Show how LINE would be split, keyed, rated and decided; never asks, writes or runs.

    Exit status: 0 would run, 1 would ask, 3 would refuse.
    """
    from wispsh.flow import explain as explain_line

    raise SystemExit(explain_line(line, as_json=as_json))


# ---------------------------------------------------------------- approvals and audit


def _wisp_home():
    from wispsh.config import ConfigError, wisp_home

    try:
        return wisp_home()
    except ConfigError as exc:
        raise WispError(str(exc)) from None


def _config(home):
    from wispsh.config import ConfigError, load_config

    try:
        return load_config(home)
    except ConfigError as exc:
        raise WispError(str(exc)) from None


def _audit_cli(kind: str, **fields) -> None:
    import os

    from wispsh.decide import audit

    try:
        audit.append(_wisp_home(), [audit.event(kind, source="wisp", cwd=os.getcwd(), **fields)])
    except OSError as exc:
        warn(f"warning: audit not written: {exc}")


def _store_error(exc) -> WispError:
    return WispError(str(exc))


def _row(a) -> dict:
    return a.to_json()


def _described(a) -> str:
    """'rm *' (project /p, up to high, until 2026-12-01T10:00:00Z)"""
    where = f"project {a.directory}" if a.scope == "project" else a.scope
    until = f", until {__import__('wispsh.decide.store', fromlist=['iso']).iso(a.expires)}" if a.expires else ""
    return f"{a.pattern!r} ({where}, parts up to {a.level}{until})"


def _show_approvals(as_json: bool) -> None:
    from wispsh.decide import store

    found = store.all_approvals(_wisp_home())
    for problem in found.notes:
        warn(problem)
    rows = [_row(a) for a in found.approvals]
    if as_json:
        say_json({"version": 1, "approvals": rows, "problems": list(found.notes)})
        return
    if not rows:
        say("no standing approvals")
        return
    header = ("ID", "SCOPE", "LEVEL", "EXPIRES", "PATTERN", "DIRECTORY", "EFFECTS")
    table = [header] + [(r["id"], r["scope"], r["level"], r["expires"] or "-",
                         r.get("pattern") or r.get("command") or "", r["directory"] or "-",
                         ",".join(r["effects"]) if "effects" in r else "(ordinary)") for r in rows]
    from wispsh.support.text import shown

    table = [tuple(shown(c) for c in row) for row in table]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        say("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])


@cli.group("approvals", invoke_without_command=True, cls=Wisp,
           short_help="Standing approvals: list (the default), add, revoke, clear.")
@click.option("--json", "as_json", is_flag=True, help="Print the approvals as JSON.")
@click.pass_context
def approvals_group(ctx: click.Context, as_json: bool) -> None:
    """Standing approvals: list (the default), add, revoke, clear."""
    if ctx.invoked_subcommand is None:
        _show_approvals(as_json)


@approvals_group.command("list", short_help="List standing approvals.")
@click.option("--json", "as_json", is_flag=True, help="Print the approvals as JSON.")
def approvals_list(as_json: bool) -> None:
    """List standing approvals: id, pattern, scope, directory, level, expiry, and the effects each covers (what
    the parts it was granted for did; one added by hand, or stored before effects were recorded, covers ordinary
    work only)."""
    _show_approvals(as_json)


@approvals_group.command("add", short_help="Approve PATTERN for this project (or everywhere).")
@click.argument("pattern")
@click.option("--scope", type=click.Choice(["project", "always"]), default="project", show_default=True,
              help="project: this project only (the git work tree, else the directory); always: anywhere.")
@click.option("--dir", "directory", type=click.Path(exists=True, file_okay=False),
              help="The project (default: the current directory's project).")
@click.option("--level", default="moderate", show_default=True,
              type=click.Choice(["safe", "low", "moderate", "high", "dangerous"]),
              help="The highest level the approval covers: a part rated higher still asks. The refusal line "
                   "says which level a part needs.")
@click.option("--json", "as_json", is_flag=True, help="Print what was stored as JSON.")
def approvals_add(pattern: str, scope: str, directory: str | None, level: str, as_json: bool) -> None:
    """Approve PATTERN ("git commit *", "head *", or an exact line) by hand. Dangerous parts still ask.

    Refuses a duplicate (the same pattern, scope and project already approved at this level or higher); an
    approval of the same pattern at a lower level is replaced."""
    import os

    from wispsh.decide import session, store
    from wispsh.model import Level

    if level == "dangerous":
        raise WispError("a dangerous verdict is never persisted; it always asks")
    if directory and scope != "project":
        raise WispError("--dir goes with --scope project")
    home = _wisp_home()
    root = session.project_root(os.path.abspath(directory or os.getcwd())) if scope == "project" else None
    try:
        made, replaced = store.add(home, pattern=pattern, scope=scope, level=Level.parse(level), directory=root,
                                   source="wisp approvals add", persist_days=_config(home).persist_days)
    except store.Duplicate as exc:
        if as_json:
            say_json({"version": 1, "added": None, "duplicate": _row(exc.existing)})
            raise SystemExit(1)
        raise WispError(f"{_described(exc.existing)} is already approved as {exc.existing.id}; nothing added "
                        f"(revoke it first to change it)") from None
    except store.StoreError as exc:
        raise _store_error(exc) from None
    _audit_cli("approval.added", command=pattern, pattern=pattern, level=level, approval_id=made.id,
               scope=scope, decision="added-by-hand", directory=made.directory,
               replaced=replaced.id if replaced else None)
    if as_json:
        say_json({"version": 1, "added": _row(made), "replaced": _row(replaced) if replaced else None})
        return
    say(f"added {made.id}: {_described(made)}")
    if replaced:
        say(f"replaced {replaced.id}, which covered parts up to {replaced.level} only")


@approvals_group.command("revoke", short_help="Remove one approval, by its id or a prefix of it.")
@click.argument("approval_id")
@click.option("--json", "as_json", is_flag=True, help="Print what was revoked as JSON.")
def approvals_revoke(approval_id: str, as_json: bool) -> None:
    """Remove the approval APPROVAL_ID (or the one whose id starts with it)."""
    from wispsh.decide import store

    home = _wisp_home()
    matches = store.find(home, approval_id)
    if not matches:
        raise WispError(f"no approval whose id starts with {approval_id!r} (see `wisp approvals list`)")
    if len(matches) > 1:
        shown = ", ".join(a.id for a in matches[:5]) + (", …" if len(matches) > 5 else "")
        raise WispError(f"{approval_id!r} starts {len(matches)} ids ({shown}): give more of the id")
    target = matches[0]
    try:
        found = store.revoke(home, target.id)
    except store.StoreError as exc:
        raise _store_error(exc) from None
    if not found:
        raise WispError(f"approval {target.id} is already gone (revoked meanwhile)")
    _audit_cli("approval.revoked", approval_id=target.id, pattern=target.pattern, scope=target.scope,
               decision="revoked")
    if as_json:
        say_json({"version": 1, "revoked": _row(target)})
        return
    say(f"revoked {target.id}: {_described(target)}")


@approvals_group.command("clear", short_help="Remove every approval (of one scope).")
@click.option("--scope", type=click.Choice(["session", "project", "always"]),
              help="Only this scope (session also clears once grants). Default: all.")
@click.option("--yes", "-y", "assume_yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print how many were removed as JSON.")
def approvals_clear(scope: str | None, assume_yes: bool, as_json: bool) -> None:
    """Remove every standing approval (of one scope). Asks first unless --yes."""
    import sys

    from wispsh.decide import store

    home = _wisp_home()
    listed = [a for a in store.all_approvals(home).approvals
              if scope is None or a.scope == scope or (scope == "session" and a.scope == "once")]
    what = f"{len(listed)} {scope + ' ' if scope else ''}approval{'s' if len(listed) != 1 else ''}"
    if listed and not assume_yes:
        if not sys.stdin.isatty():
            raise WispError(f"this removes {what}: add --yes to confirm (no terminal to ask on)")
        if not click.confirm(f"remove {what}?", default=False):
            raise WispError("nothing cleared")
    try:
        count = store.clear(home, scope=scope)
    except store.StoreError as exc:
        raise _store_error(exc) from None
    _audit_cli("approval.cleared", scope=scope, decision="cleared", count=count)
    if as_json:
        say_json({"version": 1, "cleared": count, "scope": scope})
        return
    say(f"cleared {count} approval{'s' if count != 1 else ''}")


def _audit_line(ev: dict) -> str:
    if "unreadable" in ev:
        return f"(unreadable) {ev['unreadable']}"
    cells = (ev.get("ts") or "-", ev.get("event") or "-", ev.get("decision") or "-", ev.get("level") or "-")
    what = ev.get("command") or ev.get("pattern") or ev.get("approval_id") or ""
    return "  ".join(str(c) for c in cells) + "  " + " ".join(str(what).split(" "))


@cli.command("audit", short_help="Show the audit log: every decision, as it was made.")
@click.option("-n", "count", type=click.IntRange(min=0), default=20, show_default=True, help="Last N events.")
@click.option("--follow", "-f", is_flag=True, help="Keep printing events as they are appended.")
@click.option("--json", "as_json", is_flag=True, help="One JSON event a line, as stored.")
def audit_command(count: int, follow: bool, as_json: bool) -> None:
    """Show the audit log: every classification and approval decision."""
    from wispsh.decide import audit
    from wispsh.support.text import dumps

    def show(ev: dict) -> None:
        if as_json:
            click.echo(dumps(ev))
        else:
            from wispsh.support.text import shown

            click.echo(shown(_audit_line(ev)))          # one event, one row: newlines in it shown as \n

    home = _wisp_home()
    try:
        events = audit.read(home, count)
    except IsADirectoryError:
        raise WispError(f"{home / audit.AUDIT_NAME} is a directory: move it aside (see `wisp doctor`)") from None
    for ev in events:
        show(ev)
    if follow:
        try:
            for ev in audit.follow(home):
                show(ev)
        except KeyboardInterrupt:
            pass


@cli.command("watch", short_help="Answer agents' questions from your own terminal.")
def watch_command() -> None:
    """Answer approval questions from agents that have no terminal of yours.

    Run it in your own terminal window; agents' wispsh sends each question here and waits for your answer,
    a word confirmed with Enter: y once, s session, p project, a always, n no (an empty line is no; ? shows
    why it asks). q quits when nothing waits; Ctrl-C quits at any time (a question on screen is then
    answered no).
    """
    import os

    from wispsh.config import ConfigError, load_config
    from wispsh.ask.watch import serve

    try:
        config = load_config()
    except ConfigError as exc:
        raise WispError(f"config error: {exc}") from None
    raise SystemExit(serve(config, os.environ))


# ---------------------------------------------------------------- wisp run (issue 14)


@cli.command("run", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
             short_help="Run an agent where every shell it starts is the gate.")
@click.option("--watch-pane", is_flag=True, help="Inside tmux: open `wisp watch` in a split pane for this run.")
@click.option("--protect", multiple=True, metavar="PATH", help="Also read-only inside (repeatable; config run.protect).")
@click.option("--allow-write", multiple=True, metavar="DIR",
              help="Also writable inside (repeatable; config run.allowWrite; relative: to the project).")
@click.option("--allow-read", multiple=True, metavar="PATH",
              help="A secret store readable inside after all (repeatable; config run.allowRead).")
@click.option("--allow-socket", multiple=True, metavar="PATH",
              help="A host unix socket reachable inside (repeatable; config run.allowSocket).")
@click.option("--ssh-agent", is_flag=True, default=None, help="Pass the ssh agent's socket ($SSH_AUTH_SOCK) in.")
@click.option("--gpg-agent", is_flag=True, default=None, help="Pass the gpg agent's socket and public keyring in.")
@click.option("--display", is_flag=True, default=None, help="Pass the X11/Wayland display in.")
@click.option("--no-write-wall", "writes", flag_value=False, default=None,
              help="Everything writable but the gate's own files, as before the walls (config run.writes).")
@click.option("--no-secret-wall", "secrets", flag_value=False, default=None,
              help="Secret stores readable inside (config run.secrets).")
@click.option("--no-socket-wall", "sockets", flag_value=False, default=None,
              help="Host unix sockets reachable inside (config run.sockets).")
@click.option("--no-nesting", "nesting", flag_value=False, default=None,
              help="No nested user namespaces inside (config run.nesting).")
@click.option("--no-restore", "restore", flag_value=False, default=None,
              help="No restore points, and so nothing contained: every line from the threshold up is asked "
                   "(config run.restore).")
@click.option("--net", type=click.Choice(["off", "ask", "all"]), default=None,
              help="The network: ask (default: through wisp run's proxy, unlisted hosts asked), off (none), "
                   "all (the host's, no wall) (config run.net.mode).")
@click.option("--allow-host", multiple=True, metavar="HOST[:PORT]",
              help="Reachable without asking (repeatable; config run.net.allow; *.domain for its subdomains).")
@click.option("--allow-port", multiple=True, type=click.IntRange(1, 65535), metavar="PORT",
              help="A port of this machine's loopback reachable inside at 127.0.0.1:PORT (repeatable; config "
                   "run.net.allowPorts).")
@click.argument("program", nargs=-1, required=True, type=click.UNPROCESSED)
def run_command(watch_pane: bool, protect: tuple[str, ...], allow_write, allow_read, allow_socket, ssh_agent,
                gpg_agent, display, writes, secrets, sockets, nesting, restore, net, allow_host, allow_port,
                program: tuple[str, ...]) -> None:
    """Run PROGRAM (an agent) in a namespace where every shell is the gate, inside walls.

    Every sh, bash, dash, zsh and ksh inside is wispsh at its real path, whatever starts it. The walls, each
    on by default (docs/wisp-run.md): writes only to the project, a private /tmp and the tool caches; the
    secret stores (keys, cloud and registry credentials, tokens) empty; no host unix socket (tmux, docker,
    D-Bus, X11) unless passed; the files that steer tools read-only, changed only by a shell line the gate
    allowed; the network only through wisp run's proxy, which lets listed hosts through (model APIs,
    registries, GitHub) and asks about any other. Questions go to `wisp watch` (or to this terminal while
    nothing inside holds it). Before each line that may change the project a restore point is made (`wisp
    undo`), and with the walls on a moderate line whose effects stay in the project runs without asking
    (run.threshold, default high).
    Needs bubblewrap and user namespaces: `wisp doctor` says whether they work here and which walls hold.
    """
    from wispsh.sandbox.supervisor import main

    words = list(program)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise click.UsageError("wisp run needs a program to run")
    walls = dict(allow_write=list(allow_write), allow_read=list(allow_read), allow_socket=list(allow_socket),
                 ssh_agent=ssh_agent, gpg_agent=gpg_agent, display=display, writes=writes, secrets=secrets,
                 sockets=sockets, nesting=nesting, net=net, allow_host=list(allow_host), allow_port=list(allow_port))
    raise SystemExit(main(words, watch_pane=watch_pane, protect=protect, walls=walls, restore=restore))


# ---------------------------------------------------------------- undo and history (issue 28)


@cli.command("undo", short_help="Put the project back as before the last line (or N).")
@click.argument("steps", type=click.IntRange(min=1), default=1, required=False)
@click.option("--to", "to", type=click.IntRange(min=1), metavar="ID", help="Back to restore point ID (`wisp history`).")
@click.option("--dry-run", is_flag=True, help="Show what it would change (the diff); change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was (or would be) done as JSON.")
@click.option("--project", "project", type=click.Path(exists=True, file_okay=False), default=".",
              help="The project (default: the one this directory is in).")
def undo_command(steps: int, to: int | None, dry_run: bool, as_json: bool, project: str) -> None:
    """Put the project back as it was before the last line (or N lines, or restore point ID) that changed it.

    Restore points are made by `wisp run` before each line that may change the project. Every file git does
    not ignore comes back (content, mode, links); files made after the point are deleted; ignored files and
    the project's .git are left as they are. An undo is a restore point itself: `wisp undo --to ID` undoes it.
    """
    from wispsh.cli.undo import undo

    _restore_said(lambda: undo(_wisp_home(), project, steps=steps, to=to, dry_run=dry_run, as_json=as_json))


@cli.command("history", short_help="The last `wisp run` session's lines and restore points.")
@click.option("--json", "as_json", is_flag=True, help="Print the lines and points as JSON.")
@click.option("--all", "every", is_flag=True, help="Every session of the project, not only the last.")
@click.option("--session", metavar="ID", help="One session (its id, as listed).")
@click.option("--project", "project", type=click.Path(exists=True, file_okay=False), default=".",
              help="The project (default: the one this directory is in).")
def history_command(as_json: bool, every: bool, session: str | None, project: str) -> None:
    """The lines of the last `wisp run` session in this project: decision, level, restore point."""
    from wispsh.cli.undo import history

    _restore_said(lambda: history(_wisp_home(), project, every=every, session=session, as_json=as_json))


def _restore_said(work) -> None:
    from wispsh.restore.git import GitError
    from wispsh.restore.undo import UndoError

    try:
        found = work()
    except (UndoError, GitError) as exc:
        raise WispError(str(exc)) from None
    if isinstance(found, dict):
        say_json(found)
    else:
        say(found)


# ---------------------------------------------------------------- shims (issue 8)


def _shim_dir(directory: str | None):
    from pathlib import Path

    from wispsh.agents.shims import default_dir

    return Path(directory) if directory else default_dir()


@cli.group("shims", short_help="Shims named bash, sh, zsh (and programs) that run wispsh.")
def shims_group() -> None:
    """Shims named bash, sh, zsh (and programs such as git) that run wispsh instead."""


@shims_group.command("install", short_help="Lay the shims in DIRECTORY (default: the install's).")
@click.argument("directory", required=False)
@click.option("--program", "programs", multiple=True, metavar="NAME",
              help="Also a program shim (repeatable): gates NAME's argv, then execs the real NAME.")
@click.option("--shell", "shells", multiple=True, metavar="NAME",
              help="Only these shell shims (repeatable; default: bash, sh, zsh; wispsh: the launcher).")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def shims_install(directory: str | None, programs: tuple[str, ...], shells: tuple[str, ...], quiet: bool) -> None:
    """Lay shims in DIRECTORY (default: ~/.local/share/wispsh/shims). Idempotent; never overwrites a
    file that is not a wispsh shim."""
    import os

    from wispsh import realshell
    from wispsh.agents import shims
    from wispsh.support import shimfile

    where = _shim_dir(directory)
    try:
        done = shims.install(where, shells=shells or shims.SHELL_SHIMS, programs=programs)
    except (shimfile.ShimError, OSError) as exc:
        raise WispError(str(exc)) from None
    env = dict(os.environ)
    for path, action in done:
        if not quiet:
            click.echo(f"{action:9} {path}")
        if shimfile.read_shim(path).kind == "program" and not realshell.search_path(path.name, env, frozenset(
                {os.path.realpath(where)})):
            click.echo(f"wisp: no real {path.name} on PATH past {where}: the shim says not found until there is",
                       err=True)
    if not quiet:
        click.echo(f"use: SHELL={where}/bash  or  PATH={where}:$PATH   (check with: wisp shims list)")


@shims_group.command("list", short_help="What is laid where, and what PATH finds first.")
@click.argument("directory", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the shims as JSON.")
def shims_list(directory: str | None, as_json: bool) -> None:
    """What is laid where, and whether PATH finds the shims before the real shells and programs."""
    import os

    from wispsh.agents import shims
    from wispsh.support import shimfile

    env = dict(os.environ)
    dirs = shims.dirs_with_shims(env, extra=[directory] if directory else [])
    listed = []
    for where in dirs:
        order = {name: (found, ours) for name, found, ours in shims.path_order(where, env)}
        for shim in shimfile.shims_in(where):
            found, ours = order.get(shim.path.name, (None, False))
            listed.append({"directory": str(where), "name": shim.path.name, "kind": shim.kind,
                           "path_finds": str(found) if found else None, "first_on_path": bool(ours),
                           "python": str(shim.python), "stale": bool(shim.stale)})
    if as_json:
        say_json({"version": 1, "shims": listed})
        return
    if not dirs:
        say(f"no shims (looked in {shims.default_dir(env)} and on PATH); lay them: wisp shims install")
        return
    for where in dirs:
        say(f"{where}:")
        for row in (r for r in listed if r["directory"] == str(where)):
            on_path = ("PATH finds this shim" if row["first_on_path"] else
                       f"PATH finds {row['path_finds']} first" if row["path_finds"] else "not found on PATH")
            stale = f"  STALE: {row['python']} is gone" if row["stale"] else ""
            say(f"  {row['name']:10} {row['kind']:8} {on_path}{stale}")


@shims_group.command("remove", short_help="Remove the wispsh shims in DIRECTORY; nothing else.")
@click.argument("directory", required=False)
@click.option("--only", multiple=True, metavar="NAME", help="Only the shim NAME (repeatable).")
def shims_remove(directory: str | None, only: tuple[str, ...]) -> None:
    """Remove the wispsh shims in DIRECTORY (default: ~/.local/share/wispsh/shims); nothing else."""
    from wispsh.agents import shims

    where = _shim_dir(directory)
    try:
        removed = shims.remove(where, only)
    except OSError as exc:
        raise WispError(str(exc)) from None
    for path in removed:
        click.echo(f"removed   {path}")
    if not removed:
        click.echo(f"no wispsh shims in {where}")


# ---------------------------------------------------------------- rules


@cli.group("rules", short_help="What the gate knows of programs; your own rule tables.")
def rules_group() -> None:
    """What the gate knows of programs, and your own rule tables (~/.wisp/rules/*.toml)."""


@rules_group.command("check", short_help="Validate a rule table: its schema, then its examples.")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def rules_check(path: str, as_json: bool) -> None:
    """Validate a rule table: its schema, then every example it carries."""
    from wispsh.cli import rules
    from wispsh.support.text import dumps

    result = rules.check(path)
    if as_json:
        click.echo(dumps(result))
    elif result["ok"]:
        click.echo(f"ok: {path}: {len(result['programs'])} program(s), {len(result['levels'])} level(s); "
                   "every example holds")
    else:
        for problem in result["problems"]:
            click.echo(problem, err=True)
    raise SystemExit(0 if result["ok"] else 1)


@rules_group.command("show", short_help="What the gate knows of PROGRAM, and which file says so.")
@click.argument("program")
@click.option("--json", "as_json", is_flag=True, help="Print what the gate knows as JSON.")
def rules_show(program: str, as_json: bool) -> None:
    """What the gate knows of PROGRAM: its rows, their effects and levels, its verbs, and which file said so."""
    from wispsh.cli import rules
    from wispsh.config import ConfigError, load_config
    from wispsh.support.text import dumps

    try:
        config = load_config()
        found = rules.show(program, config)
    except ConfigError as exc:
        click.echo(f"wisp rules show: {exc}", err=True)
        raise SystemExit(1)
    if found is None:
        if as_json:
            click.echo(dumps({"program": program, "known": False}))
        else:
            click.echo(f"{program}: not a program the gate knows (any use of it is moderate: "
                       f"'{program} is not a program the gate knows'); teach it in ~/.wisp/rules/*.toml", err=True)
        raise SystemExit(1)
    click.echo(dumps({"known": True, **found}) if as_json else rules.render_show(found))


# ---------------------------------------------------------------- doctor


@cli.command("doctor", short_help="Check the install, the gate's files, shims and agents.")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
def doctor_command(as_json: bool) -> None:
    """Check the install, the gate's files, the shims and the agents.

    Each check: ok / warn / FAIL, what, and on the line below what to do. Exit status: 0 nothing to do, 1 a
    check FAILs (the gate refuses lines or cannot work), 3 a check warns (something needs your action).
    """
    import shutil

    from wispsh.cli.doctor import FAIL, checks, exit_status, render

    found = list(checks())
    failed = any(check.status == FAIL for check in found)
    if as_json:
        say_json({"version": 1, "ok": not failed, "checks": [check.to_json() for check in found]})
    else:
        width = min(max(shutil.get_terminal_size((80, 24)).columns, 60), 120)
        for row in render(found, width):
            click.echo(row)
    raise SystemExit(exit_status(found))
