"""The `wisp watch` client side: which watchers may answer the asking session, and asking them.

A watcher beneath the asking session, started by a gated line, or on a terminal that is not a person's may
not answer: an agent cannot answer itself."""
from __future__ import annotations

import os
import select
import time
from collections.abc import Mapping

from wispsh.config import Config
from wispsh.model import Answer, Level, Plan
from wispsh.ask import wire
from wispsh.ask.prompt import limited, question_request, valid_choice
from wispsh.ask.terminal import (TERMINAL_PROGRAMS, Interrupted, _controlling_tty_nr, interruptible, process_names,
                                 terminal_is_persons)


def session_fields(env: Mapping[str, str]) -> dict:
    try:
        from wispsh.decide import session

        here = session.current(dict(env))
        return {"agent": here.agent, "session": here.id}
    except Exception:                                # who is asking is shown, never required
        return {"agent": None, "session": None}


def asking_session(env: Mapping[str, str]) -> tuple[int, float] | None:
    """(pid, start) of the agent process above us: the nearest ancestor that is not a shell, wispsh or a
    wrapper (session.passes_through). The answer must come from outside that process's tree.

    Walked here rather than taken from session.here(): a named session (WISP_SESSION) has no pid, and the
    tree to exclude is the process tree whatever the session is called.
    """
    import psutil

    from wispsh.decide.session import passes_through

    try:
        proc = psutil.Process().parent()
        below = outermost = None
        while proc is not None:
            below, outermost = outermost, proc
            if not passes_through(proc.name(), proc.cmdline()) or proc.pid <= 1:
                break
            proc = proc.parent()
        if outermost is None:
            return None
        if below is not None and (process_names(outermost.pid) or set()) & TERMINAL_PROGRAMS:
            # only shells between us and a terminal program: no agent above us; the session is the
            # outermost shell (a watcher in another tab of the same terminal program is not beneath it)
            outermost = below
        return outermost.pid, outermost.create_time()
    except psutil.Error:
        return None


def watcher_refusal(pid: int, uid: int, asking: tuple[int, float] | None, config: Config) -> str | None:
    """Why the watcher `pid` may not answer us, or None when it may."""
    import psutil

    if uid != os.getuid():
        return f"watcher pid {pid} belongs to uid {uid}"
    try:
        proc = psutil.Process(pid)
        line = [proc] + proc.parents()
        chain = [(p.pid, p.create_time()) for p in line]
    except psutil.Error:
        return f"watcher pid {pid} cannot be inspected"
    if asking is None or any(p == asking[0] and abs(t - asking[1]) < 0.05 for p, t in chain):
        return "the watcher runs beneath the asking session (an agent cannot answer itself)"
    if os.getpid() in {p for p, _ in chain}:
        return "the watcher runs beneath the asking process"
    # Accepted: a watcher started in a person's running tmux/screen (tmux new-window, judged by the rules)
    # is a child of that terminal program and carries nothing of the agent; it passes these checks.
    from wispsh.decide.session import gated_ancestor

    started_by = gated_ancestor(pid)
    if started_by is not None:
        return (f"the watcher was started by a line run through the gate (pid {started_by} carries WISP_GATED): "
                "an agent's command, not a person")
    persons, why = terminal_is_persons(_controlling_tty_nr(pid), config)
    if not persons:
        return f"the watcher's terminal is not a person's ({why})"
    return None


def ask_watchers(plan: Plan, *, config: Config, env: Mapping[str, str], cwd: str,
                 asking: tuple[int, float] | None = None, who: dict | None = None,
                 gone=None) -> tuple[Answer, ...]:
    """Ask every watcher; the first answer wins; () when there is no watcher that may answer.

    `asking`: the (pid, start) whose tree no answer may come from (default: the agent above this process;
    the `wisp run` supervisor passes itself: everything inside is beneath it). `who`: agent and session shown.
    `gone`: a socket that ends when the asker does (the `wisp run` request's): the question is then withdrawn,
    the watchers are told, and the answer is no (nothing is stored for an asker that is gone)."""
    asking = asking if asking is not None else asking_session(env)
    who = who if who is not None else session_fields(env)
    good = _answerable(asking, config)
    if not good:
        return ()
    seconds = _seconds(config, who)
    answers: list[Answer] = []
    # Nothing on the asker's stderr while it waits: that is the agent's output (an approved line's output
    # would start with it); the person sees the question in `wisp watch`, and the line says once it ran
    # that a person approved it (flow.verdict)
    record_asked(plan, config=config, env=env, cwd=cwd, where="watch", who=who,
                 watchers=[c.pid for c in good])
    try:
        with interruptible():
            for i, q in enumerate(plan.questions):
                req = question_request(plan, i, cwd=cwd, env=env, **who)
                choice, note = _ask_one(good, req, q.level >= Level.DANGEROUS, seconds, gone)
                answers.append(Answer(i, choice, "watch", note))
                if choice == "n":
                    break
    except Interrupted as stop:
        raise Interrupted(stop.signum, answers, len(answers)) from None
    finally:
        for conn in good:
            conn.close()
    return tuple(answers)


def _answerable(asking, config: Config) -> list:
    """Connections to the watchers that may answer (the others are told why not, and closed)."""
    good: list[wire.Conn] = []
    for conn in wire.connect_watchers():
        reason = watcher_refusal(conn.pid, conn.uid, asking, config)
        if reason:
            conn.send({"type": "refused", "reason": reason})
            conn.close()
        else:
            good.append(conn)
    return good


def _seconds(config: Config, who: dict) -> float:
    from wispsh.agents.timeouts import wait_seconds

    agent = who.get("agent")
    configured = config.wait_seconds_by_agent.get(agent or "", config.wait_seconds)   # waitSeconds: {agent: s}
    return wait_seconds(configured, agent)   # below the agent's own tool timeout


def ask_watchers_request(req: dict, *, config: Config, asking: tuple[int, float], who: dict, gone=None) -> tuple[str, str] | None:
    """One question already made (a network question of `wisp run`: ask/reach.py renders it) to every
    watcher that may answer: (choice, note), or None when there is none. `gone` as for ask_watchers."""
    good = _answerable(asking, config)
    if not good:
        return None
    try:
        return _ask_one(good, req, False, _seconds(config, who), gone)
    finally:
        for conn in good:
            conn.close()


def record_asked(plan: Plan, *, config: Config, env: Mapping[str, str], cwd: str, where: str, who: dict,
                 watchers=()) -> None:
    """One audit event when a person is about to be asked (`approval.asked`): a wait cut short by a signal,
    or by a SIGKILL no handler sees, still leaves the question on record; its end is the line's
    `approval.decided` events."""
    from wispsh.decide import audit

    try:
        fields, _ = audit.line_fields(plan.line)
        audit.append(config.home, [audit.event(
            "approval.asked", decision=f"asked-{where}", session=who.get("session"), source=who.get("agent"),
            cwd=cwd, pattern=plan.questions[0].pattern if plan.questions else None,
            level=str(max(q.level for q in plan.questions)) if plan.questions else None,
            questions=[q.pattern for q in plan.questions], watchers=list(watchers), **fields)],
            config.audit_max_bytes)
    except OSError:
        pass                    # the decision's own events say so (and the audit warning is given there)


WITHDRAWN = "withdrawn: the asking process went away"


def asker_left(sock) -> bool:
    """Whether the peer of `sock` has closed it (it sends nothing more after its request: readable is EOF)."""
    import socket

    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _ask_one(conns, req: dict, dangerous: bool, seconds: float, gone=None) -> tuple[str, str]:
    qid = f"{os.getpid()}-{req['index']}-{os.urandom(4).hex()}"
    for conn in list(conns):
        if not conn.send({"type": "ask", "id": qid, "request": req}):
            conns.remove(conn)
    deadline = time.monotonic() + seconds
    result: tuple[str, str] | None = None
    winner = None
    while result is None:
        if not conns:
            result = ("n", "the watcher went away")
            break
        left = deadline - time.monotonic()
        if left <= 0:
            result = ("n", f"timed out: no answer within {seconds:g}s")
            break
        ready, _, _ = select.select([c.sock for c in conns] + ([gone] if gone is not None else []), [], [], left)
        if gone is not None and gone in ready and asker_left(gone):
            for conn in conns:
                conn.send({"type": "withdrawn", "id": qid, "note": WITHDRAWN})
            return "n", WITHDRAWN
        for conn in [c for c in conns if c.sock in ready]:
            messages = conn.receive()
            if messages is None:                     # the watcher quit or died
                conns.remove(conn)
                conn.close()
                continue
            for msg in messages:
                if msg.get("type") == "answer" and msg.get("id") == qid and result is None:
                    choice = valid_choice(msg.get("choice"), limited(req))
                    said = msg.get("note")          # why a no came without a person's word (the watcher quit)
                    note = " ".join(said.split())[:120] if choice == "n" and isinstance(said, str) else ""
                    result = (choice, note) if choice else ("n", "an answer this question does not take")
                    winner = conn
    for conn in list(conns):
        if conn is not winner:
            conn.send({"type": "answered", "id": qid, "choice": result[0],
                       "by": winner.pid if winner else None, "note": result[1]})
    return result
