"""What a network question says (`wisp run`'s proxy: "the agent wants to reach HOST:PORT"): its rendering
in `wisp watch` and on the supervisor's terminal, and what an answer means. The request is the watch wire's
(prompt.valid_request) with a `net` field: host, port, via, program, pid, argv; its `line` is the shell line
the gate allowed that started the program ("" when none did: the agent itself). No I/O but tty_reach.

The scopes: once is this one connection; session, HOST:PORT until this `wisp run` ends; project, HOST:PORT in
this project; always, everywhere (sandbox/netgrants.py).
"""
from __future__ import annotations

from wispsh.ask.prompt import ALL_CHOICES_TEXT, _field, _room, _short, _styler, _wrap, sanitize

VIA = {"connect": "HTTPS (CONNECT)", "http": "plain HTTP", "socks": "SOCKS5", "forward": "a listed port"}


def render_reach(req: dict, *, colour: bool, width: int = 80) -> str:
    """The question: at most `width` columns; the last line is the prompt the answer is typed after."""
    style = _styler(colour)
    width, room = _room(width)
    net = req["net"]
    target = f"{net.get('host')}:{net.get('port')}"
    lines = [style(_short(f"wisp run: the agent wants to reach {target} — allow?", width), "1")]
    program = f"{net.get('program') or '?'} (pid {net.get('pid') or '?'})"
    lines += _wrap(style, "program", program + (f"  {net['argv']}" if net.get("argv") else ""), room, rows=2)
    lines += _wrap(style, "line", req.get("line") or "none: no shell line started it (the agent itself, or a "
                   "program it ran directly)", room, rows=3)
    lines += _wrap(style, "via", VIA.get(str(net.get("via")), str(net.get("via"))) +
                   "; what is sent inside TLS is not seen", room, rows=2)
    lines += _wrap(style, "why", "; ".join(req.get("reasons") or ["not on the allow-list"]), room, rows=2)
    lines += _wrap(style, "remember", remember_reach(req), room, rows=3)
    if req.get("agent"):
        lines += _wrap(style, "where", f"{req.get('cwd') or ''} (agent {req['agent']})", room)
    lines.append("  " + style(ALL_CHOICES_TEXT + "  [?] why", "1") + "  > ")
    return "\n".join(lines)


def remember_reach(req: dict) -> str:
    target = sanitize(str(req.get("pattern")))
    return (f"once: this connection only; session: {target} until this wisp run ends; project: {target} in "
            f"{req.get('cwd') or 'this project'}; always: {target} everywhere")


def render_reach_details(req: dict, *, colour: bool, width: int = 80) -> str:
    style = _styler(colour)
    _width, room = _room(width)
    lines = _wrap(style, "why", "; ".join(req.get("reasons") or []), room)
    lines += _wrap(style, "", "listed hosts (wisp run's defaults and run.net.allow) go on without asking; "
                   "add it to run.net.allow in config.json to stop this question", room)
    return "\n".join(lines)


def echo_reach(choice: str, note: str, pattern: str) -> str:
    pattern = _short(pattern, 40)
    said = {"y": "once: this connection", "s": f"session: {pattern} until this wisp run ends",
            "p": f"project: {pattern} in this project", "a": f"always: {pattern} everywhere",
            "n": "no: the program is refused (HTTP 403 / SOCKS 'not allowed')"}[choice]
    return "\n  " + said + (f"\n  ({note})" if note and note != "empty answer" else "")


def tty_reach(req: dict, fd: int, *, config, env) -> tuple[str, str]:
    """Ask on the person's terminal (the supervisor's desk, asking.py): (choice, note)."""
    from wispsh.ask.dialog import ask_one
    from wispsh.ask.prompt import use_colour
    from wispsh.ask.terminal import RawTerminal, _terminal_width

    with RawTerminal(fd) as term:
        choice, note = ask_one(term, req, colour=use_colour(env), width=_terminal_width(fd),
                               seconds=config.prompt_seconds)
        term.write(echo_reach(choice, note, str(req.get("pattern"))) + "\n")
    return choice, note
