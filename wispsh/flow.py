"""The gate between reading a line and exec'ing the real shell: judge, ask, settle, then run or refuse.

`verdict` says whether a text may run (None) or the one refusal line; `check` is the same for a caller that
ends there (exit 126). `beneath_allowed` is the check for a shell started beneath a line the gate allowed:
deny patterns only, one compact audit event, never a question. `explain` prints the plan and never asks,
writes or runs. cwd, env, where answers come from and who the session is are the caller's: the in-process
gate passes its own, the `wisp run` supervisor those of the process that asked.
"""
from __future__ import annotations

import os
import sys
from _collections_abc import Sequence  # collections.abc's own (loaded with os; no collections)

from wispsh.config import Config, ConfigError, load_config
from wispsh.model import Answer
from wispsh.realshell import refuse

# The most text wispsh judges: bigger is refused before it is parsed (every stage is linear, but 4 MiB is
# twice the largest input the benchmark holds to a second; a `-c` line is at most 128 KiB on Linux anyway).
MAX_TEXT = 4 * 1024 * 1024


# The deepest nesting wispsh runs. Past MAX_NESTING (parse/tree.py, 200) a line is judged whole; past this it
# is refused at once: bash needs about 4 KB of stack for each level it parses (its default 8 MB stack overflows
# near 1,900 levels of $(…): SIGSEGV) and, running it, a process for each level of $(…) and a new parse of the
# rest at each (quadratic: 100,000 levels took 423 s where the stack allowed it). No agent writes such a line.
MAX_RUN_NESTING = 1_000


def too_big(text: str | bytes) -> str | None:
    """Why `text` is not judged at all (too big, or nested too deep to run), or None."""
    if len(text) > MAX_TEXT:
        return (f"the text is {len(text):,} characters, over the {MAX_TEXT // (1024 * 1024)} MiB wispsh checks; "
                "nothing ran (split it, or run it with the real shell yourself)")
    if len(text) > MAX_RUN_NESTING and isinstance(text, str):
        from wispsh.parse.scan import nests_deeper_than

        if nests_deeper_than(text, MAX_RUN_NESTING):
            return (f"the text nests $(…), (…), ${{…}} or quotes more than {MAX_RUN_NESTING:,} levels deep, the "
                    "most wispsh runs (bash needs a process and a new parse for each level); nothing ran")
    return None


def _plan(text: str, args: Sequence[str], config: Config | None, cwd: str, env, *, remember: bool = True,
          stdin_tty: bool = False):
    from wispsh import pipeline

    config = config or load_config()
    return config, pipeline.judge(text, config, cwd, dict(env), args, remember=remember, stdin_tty=stdin_tty)


def verdict(text: str, *, yes: bool = False, args: Sequence[str] = (), config: Config | None = None,
            cwd: str | None = None, env=None, answers=None, source: str = "wispsh",
            warnings: list | None = None, seen: list | None = None, shell_reports=None,
            stdin_tty: bool = False) -> str | None:
    """None when `text` may run; else the one refusal line. Fails closed on any error.

    `answers(plan, config=, env=, yes=, cwd=)` gives the answers (default: ask.collect.answers). Who is asking
    is decide.session.here(): this process, or the one the `wisp run` supervisor set (session.asking_for).
    What went wrong remembering or auditing is added to `warnings` (the caller says it on stderr); the plan
    judged is added to `seen` (the `wisp run` judge reads what an allowed line writes from it).
    `shell_reports(text)`: True when the real shell would stop at a syntax error in `text` before running any
    of it (realshell.reports_syntax_error_first); asked only of a text the splitter could not read cleanly
    and that would be asked about, which then runs unasked: the shell says its error, nothing else happens."""
    cwd = os.getcwd() if cwd is None else cwd
    env = os.environ if env is None else env
    warnings = [] if warnings is None else warnings
    try:
        big = too_big(text)
        if big:
            return f"wispsh: not run: {big}"
        config, plan = _plan(text, args, config, cwd, env, stdin_tty=stdin_tty)
        if seen is not None:
            seen.append(plan)
        if plan.verdict == "ask" and not plan.split.ok and shell_reports is not None and shell_reports(text):
            _audit_syntax_error(config, text, cwd, source, warnings)
            return None
        if plan.verdict == "run":
            settlement = _settle(plan, (), config, source=source, cwd=cwd, env=env)
            warnings.extend(settlement.warnings)
            return None if settlement.run else settlement.refusal
        if plan.verdict == "deny":
            settlement = _settle(plan, (), config, source=source, cwd=cwd, env=env)
            warnings.extend(settlement.warnings)
            return settlement.refusal
        if answers is None:
            from wispsh.ask.collect import answers
        import time

        from wispsh.ask import prompt
        from wispsh.ask.terminal import Interrupted
        from wispsh.decide.session import project_root

        started = time.monotonic()
        try:
            got = answers(plan, config=config, env=env, yes=yes, cwd=cwd)
        except Interrupted as stop:     # an agent's timeout, a closed terminal: refused, audited, said plainly
            got = stop.answers + (Answer(stop.question, "n", "signal", f"interrupted by {stop.name}"),)
            settlement = _settle(plan, got, config, source=source, cwd=cwd, env=env)
            warnings.extend(settlement.warnings)
            return prompt.refusal_line(plan, got, interrupted=stop.name)
        settlement = _settle(plan, got, config, source="--yes" if yes else source, cwd=cwd, env=env)
        warnings.extend(settlement.warnings)
        if settlement.run:
            person = {"watch": "in wisp watch", "tty": "on your terminal"}.get(got[-1].source if got else "")
            if person:                  # the one line of the gate's in an allowed line's output
                warnings.append(f"wispsh: approved by a person {person} after {time.monotonic() - started:.0f}s")
            return None
        return settlement.refusal or prompt.refusal_line(plan, got, project=project_root(cwd))
    except ConfigError as exc:
        return f"wispsh: not run: config error: {exc}"
    except SystemExit:
        raise
    except BaseException as exc:  # fail closed: an error in the gate never lets the line run
        return f"wispsh: not run: internal error while checking the line ({type(exc).__name__}: {exc})"


def _audit_syntax_error(config, text: str, cwd: str, source: str, warnings: list) -> None:
    from wispsh.decide import audit

    fields, whole = audit.line_fields(text)
    try:
        audit.append(config.home, [e for e in (whole and audit.event("line", cwd=cwd, **whole),) if e] + [
            audit.event("syntax-error", decision="shell-reports", entry=source, cwd=cwd, reasons=[
                "the real shell stops at a syntax error in the first command it reads: nothing of the line runs"],
                **fields)], config.audit_max_bytes)
    except OSError as exc:
        warnings.append(f"the audit log could not be written ({exc})")


def warning_lines(warnings) -> str:
    """What went wrong remembering or auditing, one stderr line each (the line itself still runs)."""
    if not warnings:
        return ""
    from wispsh.support.text import shown

    from wispsh.support.text import wrap

    # a line of the gate's own (it starts `wispsh: `) is said as it is; anything else is a warning
    return "".join(wrap(shown(" ".join(w.split())) if w.startswith("wispsh: ") else
                        f"wispsh: warning: {shown(' '.join(w.split()))}") + "\n" for w in warnings)


def _warn(warnings) -> None:
    if warnings:
        sys.stderr.write(warning_lines(warnings))
        sys.stderr.flush()


def check(text: str, *, yes: bool = False, args: Sequence[str] = (), config: Config | None = None) -> None:
    """Return when `text` may run; refuse (exit 126) otherwise. Fails closed on any error."""
    warnings: list[str] = []
    refusal = verdict(text, yes=yes, args=args, config=config, warnings=warnings)
    _warn(warnings)
    if refusal is not None:
        refuse(refusal)


def _settle(plan, answers, config, *, source: str, cwd: str, env):
    from wispsh.decide import gate

    return gate.settle(plan, answers, config=config, cwd=cwd, env=env, source=source)


def beneath_allowed(text: str, *, config: Config, cwd: str, beneath: int) -> str | None:
    """A shell started beneath a line the gate allowed (decide/nested.py; under `wisp run` the supervisor
    finds that from outside): None when `text` may run (no deny pattern matches), else the refusal line.
    Never asks; writes one compact audit event naming the allowing process `beneath`."""
    try:
        from wispsh.decide import nested

        hit = None
        if nested.needs_deny_check(text, bool(config.deny)):
            from wispsh import pipeline

            hit = pipeline.deny_only(text, config)
        home = config.home
        if hit is not None:
            from wispsh.decide.gate import deny_refusal

            nested.audit(home, text, beneath, cwd, decision="denied-pattern", pattern=hit.pattern)
            return deny_refusal(hit)
        nested.audit(home, text, beneath, cwd)
        return None
    except ConfigError as exc:
        return f"wispsh: not run: config error: {exc}"
    except Exception as exc:
        return f"wispsh: not run: internal error while checking the line ({type(exc).__name__}: {exc})"


def explained(text: str, *, as_json: bool, args: Sequence[str] = (), config: Config | None = None,
              cwd: str | None = None, env=None, notes: Sequence[str] = (),
              also: Sequence[str] = (), stdin_tty: bool = False) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of explaining `text`: the plan; the status says what would happen.
    Writes nothing (a snapshot's verdict is not remembered).

    `notes` are added to the plan's (the start-up files the shell reads); `also` is code the shell runs
    besides the text (an untrusted start-up file, BASH_ENV, ...): each is judged as the check judges it, named
    in a note with its verdict, and the worst verdict is the exit status."""
    from wispsh import explain as render
    from wispsh.model import replace
    from wispsh.support.text import shown

    big = too_big(text)
    if big:
        return render.EXIT_FOR_VERDICT["deny"], "", f"wispsh: would refuse: {big}\n"
    cwd = os.getcwd() if cwd is None else cwd
    env = os.environ if env is None else env
    try:
        config, plan = _plan(text, args, config, cwd, env, remember=False, stdin_tty=stdin_tty)
        extra, worst = list(notes), plan.verdict
        for line in also:
            _, other = _plan(line, (), config, cwd, env, remember=False)
            reasons = "; ".join(f"{f.level}: {f.reason}" for j in other.judged for f in j.verdict.findings)[:300]
            extra.append(f"the shell also runs {line!r} (not part of the line): {other.verdict}"
                         + (f" ({reasons})" if reasons else ""))
            worst = max(worst, other.verdict, key=("run", "ask", "deny").index)
    except ConfigError as exc:
        return render.EXIT_FOR_VERDICT["deny"], "", f"wispsh: config error: {shown(str(exc))}\n"
    if extra:
        plan = replace(plan, notes=plan.notes + tuple(extra), verdict=worst)
    out = render.render_json(plan) if as_json else render.render_text(plan)
    return render.EXIT_FOR_VERDICT[worst], out + "\n", ""


def explain(text: str, *, as_json: bool, args: Sequence[str] = (), config: Config | None = None) -> int:
    """Print the plan for `text`; the exit status says what would happen (contracts.md)."""
    from wispsh.support.text import utf8

    status, out, err = explained(text, as_json=as_json, args=args, config=config)
    sys.stdout.flush()
    sys.stdout.buffer.write(utf8(out))          # strict UTF-8 whatever the locale says
    sys.stdout.buffer.flush()
    sys.stderr.write(err)
    return status
