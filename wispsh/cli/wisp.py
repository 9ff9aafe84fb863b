"""`wisp`: the management CLI (click). Never imported by `wispsh -c`."""
from __future__ import annotations

import click

from wispsh import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wisp", message="%(prog)s %(version)s")
def cli() -> None:
    """Manage wispsh: approvals, explain, watch, audit, shims, doctor."""


# Each subcommand lives in the module of its room and is registered here.
# (approvals/audit: issue 6; watch: issue 7; explain: issue 3; shims/doctor: issues 2 and 8)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON (contracts.md schema).")
@click.argument("line")
def explain(as_json: bool, line: str) -> None:
    """Show how LINE would be split, keyed, rated and decided; never asks, writes or runs.

    Exit status: 0 would run, 1 would ask, 3 would refuse.
    """
    from wispsh.flow import explain as explain_line

    raise SystemExit(explain_line(line, as_json=as_json))


# ---------------------------------------------------------------- approvals and audit (issue 6)


def _wisp_home():
    from wispsh.config import wisp_home

    return wisp_home()


def _persist_days(home) -> float:
    from wispsh.config import ConfigError, load_config

    try:
        return load_config(home).persist_days
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


def _audit_cli(kind: str, **fields) -> None:
    import os

    from wispsh.decide import audit

    try:
        audit.append(_wisp_home(), [audit.event(kind, source="wisp", cwd=os.getcwd(), **fields)])
    except OSError as exc:
        click.echo(f"wisp: audit not written: {exc}", err=True)


def _show_approvals(as_json: bool) -> None:
    import json

    from wispsh.decide import store

    found = store.all_approvals(_wisp_home())
    for problem in found.notes:
        click.echo(f"wisp: {problem}", err=True)
    rows = [a.to_json() for a in found.approvals]
    if as_json:
        click.echo(json.dumps({"version": 1, "approvals": rows, "problems": list(found.notes)}, indent=2))
        return
    if not rows:
        click.echo("no standing approvals")
        return
    header = ("ID", "SCOPE", "LEVEL", "EXPIRES", "PATTERN", "DIRECTORY")
    table = [header] + [(r["id"], r["scope"], r["level"], r["expires"] or "-",
                         r.get("pattern") or r.get("command") or "", r["directory"] or "-") for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])


@cli.group("approvals", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print the approvals as JSON.")
@click.pass_context
def approvals_group(ctx: click.Context, as_json: bool) -> None:
    """Standing approvals: list (the default), add, revoke, clear."""
    if ctx.invoked_subcommand is None:
        _show_approvals(as_json)


@approvals_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the approvals as JSON.")
def approvals_list(as_json: bool) -> None:
    """List standing approvals: id, pattern, scope, directory, level, expiry."""
    _show_approvals(as_json)


@approvals_group.command("add")
@click.argument("pattern")
@click.option("--scope", type=click.Choice(["project", "always"]), required=True)
@click.option("--dir", "directory", type=click.Path(exists=True, file_okay=False),
              help="The project (default: the current directory's project).")
@click.option("--level", default="moderate", show_default=True,
              type=click.Choice(["safe", "low", "moderate", "high", "dangerous"]),
              help="The highest level the approval covers.")
def approvals_add(pattern: str, scope: str, directory: str | None, level: str) -> None:
    """Approve PATTERN ("git commit *", "head *", or an exact line) by hand. Dangerous parts still ask."""
    import os

    from wispsh.decide import store
    from wispsh.model import Level

    if level == "dangerous":
        raise click.ClickException("a dangerous verdict is never persisted; it always asks")
    if directory and scope != "project":
        raise click.ClickException("--dir goes with --scope project")
    home = _wisp_home()
    try:
        made = store.grant(home, pattern=pattern, scope=scope, level=Level.parse(level), source="wisp approvals add",
                           cwd=os.path.abspath(directory or os.getcwd()), persist_days=_persist_days(home))
    except store.StoreError as exc:
        raise click.ClickException(str(exc)) from None
    _audit_cli("approval.added", command=pattern, pattern=pattern, level=level, approval_id=made.id,
               scope=scope, decision="added-by-hand", directory=made.directory)
    click.echo(made.id)


@approvals_group.command("revoke")
@click.argument("approval_id")
def approvals_revoke(approval_id: str) -> None:
    """Remove the approval APPROVAL_ID."""
    from wispsh.decide import store

    try:
        found = store.revoke(_wisp_home(), approval_id)
    except store.StoreError as exc:
        raise click.ClickException(str(exc)) from None
    if not found:
        raise click.ClickException(f"no approval {approval_id}")
    _audit_cli("approval.revoked", approval_id=approval_id, decision="revoked")
    click.echo(f"revoked {approval_id}")


@approvals_group.command("clear")
@click.option("--scope", type=click.Choice(["session", "project", "always"]),
              help="Only this scope (session also clears once grants). Default: all.")
def approvals_clear(scope: str | None) -> None:
    """Remove every standing approval (of one scope)."""
    from wispsh.decide import store

    try:
        count = store.clear(_wisp_home(), scope=scope)
    except store.StoreError as exc:
        raise click.ClickException(str(exc)) from None
    _audit_cli("approval.cleared", scope=scope, decision="cleared", count=count)
    click.echo(f"cleared {count} approval{'s' if count != 1 else ''}")


def _audit_line(ev: dict) -> str:
    if "unreadable" in ev:
        return f"(unreadable) {ev['unreadable']}"
    cells = (ev.get("ts") or "-", ev.get("event") or "-", ev.get("decision") or "-", ev.get("level") or "-")
    what = ev.get("command") or ev.get("pattern") or ev.get("approval_id") or ""
    return "  ".join(str(c) for c in cells) + "  " + " ".join(str(what).split())


@cli.command("audit")
@click.option("-n", "count", type=click.IntRange(min=0), default=20, show_default=True, help="Last N events.")
@click.option("--follow", "-f", is_flag=True, help="Keep printing events as they are appended.")
@click.option("--json", "as_json", is_flag=True, help="One JSON event a line, as stored.")
def audit_command(count: int, follow: bool, as_json: bool) -> None:
    """Show the audit log: every classification and approval decision."""
    import json

    from wispsh.decide import audit

    def show(ev: dict) -> None:
        click.echo(json.dumps(ev, ensure_ascii=False) if as_json else _audit_line(ev))

    home = _wisp_home()
    for ev in audit.read(home, count):
        show(ev)
    if follow:
        try:
            for ev in audit.follow(home):
                show(ev)
        except KeyboardInterrupt:
            pass


@cli.command("watch")
def watch_command() -> None:
    """Answer approval questions from agents that have no terminal of yours.

    Run it in your own terminal window; agents' wispsh sends each question here and waits for your key:
    y once, s session, p project, a always, n no. q quits when nothing waits; Ctrl-C quits at any time
    (a question on screen is then answered no).
    """
    import os

    from wispsh.config import ConfigError, load_config
    from wispsh.ask.watch import serve

    try:
        config = load_config()
    except ConfigError as exc:
        raise click.ClickException(f"config error: {exc}")
    raise SystemExit(serve(config, os.environ))


# ---------------------------------------------------------------- shims (issue 8)


def _shim_dir(directory: str | None):
    from pathlib import Path

    from wispsh.agents.shims import default_dir

    return Path(directory) if directory else default_dir()


@cli.group("shims")
def shims_group() -> None:
    """Shims named bash, sh, zsh (and programs such as git) that run wispsh instead."""


@shims_group.command("install")
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
    from wispsh.agents import shimfile, shims

    where = _shim_dir(directory)
    try:
        done = shims.install(where, shells=shells or shims.SHELL_SHIMS, programs=programs)
    except (shimfile.ShimError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
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


@shims_group.command("list")
@click.argument("directory", required=False)
def shims_list(directory: str | None) -> None:
    """What is laid where, and whether PATH finds the shims before the real shells and programs."""
    import os

    from wispsh.agents import shimfile, shims

    env = dict(os.environ)
    dirs = shims.dirs_with_shims(env, extra=[directory] if directory else [])
    if not dirs:
        click.echo(f"no shims (looked in {shims.default_dir(env)} and on PATH); lay them: wisp shims install")
        return
    for where in dirs:
        click.echo(f"{where}:")
        order = {name: (found, ours) for name, found, ours in shims.path_order(where, env)}
        for shim in shimfile.shims_in(where):
            found, ours = order.get(shim.path.name, (None, False))
            on_path = ("PATH finds this shim" if ours else
                       f"PATH finds {found} first" if found else "not found on PATH")
            stale = f"  STALE: {shim.python} is gone" if shim.stale else ""
            click.echo(f"  {shim.path.name:10} {shim.kind:8} {on_path}{stale}")


@shims_group.command("remove")
@click.argument("directory", required=False)
@click.option("--only", multiple=True, metavar="NAME", help="Only the shim NAME (repeatable).")
def shims_remove(directory: str | None, only: tuple[str, ...]) -> None:
    """Remove the wispsh shims in DIRECTORY (default: ~/.local/share/wispsh/shims); nothing else."""
    from wispsh.agents import shims

    where = _shim_dir(directory)
    try:
        removed = shims.remove(where, only)
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    for path in removed:
        click.echo(f"removed   {path}")
    if not removed:
        click.echo(f"no wispsh shims in {where}")


# ---------------------------------------------------------------- doctor (issues 2 and 8)

DOCTOR_MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


@cli.group("rules")
def rules_group() -> None:
    """What the gate knows of programs, and your own rule tables (~/.wisp/rules/*.toml)."""


@rules_group.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def rules_check(path: str, as_json: bool) -> None:
    """Validate a rule table: its schema, then every example it carries."""
    import json

    from wispsh.cli import rules

    result = rules.check(path)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    elif result["ok"]:
        click.echo(f"ok: {path}: {len(result['programs'])} program(s), {len(result['levels'])} level(s); "
                   "every example holds")
    else:
        for problem in result["problems"]:
            click.echo(problem, err=True)
    raise SystemExit(0 if result["ok"] else 1)


@rules_group.command("show")
@click.argument("program")
@click.option("--json", "as_json", is_flag=True, help="Print what the gate knows as JSON.")
def rules_show(program: str, as_json: bool) -> None:
    """What the gate knows of PROGRAM: its rows, their effects and levels, its verbs, and which file said so."""
    import json

    from wispsh.cli import rules
    from wispsh.config import ConfigError, load_config

    try:
        config = load_config()
        found = rules.show(program, config)
    except ConfigError as exc:
        click.echo(f"wisp rules show: {exc}", err=True)
        raise SystemExit(1)
    if found is None:
        if as_json:
            click.echo(json.dumps({"program": program, "known": False}))
        else:
            click.echo(f"{program}: not a program the gate knows (any use of it is moderate: "
                       f"'{program} is not a program the gate knows'); teach it in ~/.wisp/rules/*.toml", err=True)
        raise SystemExit(1)
    click.echo(json.dumps({"known": True, **found}, ensure_ascii=False) if as_json else rules.render_show(found))


@cli.command("doctor")
def doctor_command() -> None:
    """Check the install, the gate's files, the shims and the agents. Exit 1 when a check fails.

    Each line: ok / warn / FAIL, what, and what to do.
    """
    from wispsh.cli.doctor import FAIL, checks

    failed = False
    for check in checks():
        failed = failed or check.status == FAIL
        click.echo(f"{DOCTOR_MARKS[check.status]} {check.what}: {check.detail}" + (f" -- {check.fix}" if check.fix else ""))
    raise SystemExit(1 if failed else 0)
