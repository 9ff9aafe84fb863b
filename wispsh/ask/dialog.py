"""The /dev/tty dialog: the plan, then each question on the person's terminal, a typed answer confirmed with
Enter for each (prompt.read_answer says what it means), and the terminal restored on every way out.

Who may answer matters as much as the question: a pty that an agent holds is read by the model, which can
type "y". So this dialog runs only on a terminal that terminal.py judged a person's; collect.py decides.
Nothing here reads stdin.
"""
from __future__ import annotations

import os
import select
import time
from collections.abc import Mapping

from wispsh.config import Config
from wispsh.model import Answer, Plan
from wispsh.ask.broker import record_asked, session_fields
from wispsh.ask.prompt import (CTRL_C, CTRL_D, DETAILS, ESC, MAX_ANSWER, echo_for, limited, question_request,
                               read_answer, render, render_details, render_plan, use_colour)
from wispsh.ask.terminal import Interrupted, RawTerminal, _Cancel, _terminal_width

ERASE = ("\x7f", "\x08")
KILL_LINE = "\x15"          # Ctrl-U


# ------------------------------------------------------------------ the dialog on a terminal


def discard_typed(term: RawTerminal) -> None:
    """Keys typed before a question is shown answer nothing."""
    import termios

    termios.tcflush(term.fd, termios.TCIFLUSH)


def read_line(term: RawTerminal, deadline: float, seconds: float) -> tuple[str | None, str]:
    """The text typed up to Enter, echoed as it is typed (backspace and Ctrl-U edit it); (None, why) for
    Ctrl-C, Ctrl-D, the time running out or the terminal hanging up."""
    typed = ""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, f"no answer within {seconds:g}s"
        ready, _, _ = select.select([term.fd, term.wake_fd], [], [], left)
        if term.wake_fd in ready:
            term.drain_wakeups()
        if term.fd not in ready:
            continue
        try:
            data = os.read(term.fd, 64)
        except OSError:
            return None, "terminal hung up"
        if not data:
            return None, "terminal hung up"
        for ch in data.decode("latin-1"):
            if ch == ESC:                        # arrow keys and other sequences: the rest of this read
                break
            if ch in "\r\n":
                return typed, ""
            if ch == CTRL_C:
                return None, "interrupted"
            if ch == CTRL_D:
                return None, "end of input"
            if ch in ERASE:
                if typed:
                    typed = typed[:-1]
                    term.write("\b \b")
            elif ch == KILL_LINE:
                term.write("\b \b" * len(typed))
                typed = ""
            elif " " <= ch <= "~" and len(typed) < MAX_ANSWER:
                typed += ch
                term.write(ch)


def ask_one(term: RawTerminal, req: dict, *, colour: bool, width: int, seconds: float) -> tuple[str, str]:
    """Show one question and read answers until one is taken: (choice, note)."""
    term.redraw = render(req, colour=colour, width=width)
    prompt_row = term.redraw.rsplit("\n", 1)[-1]
    discard_typed(term)
    term.write("\n" + term.redraw)
    deadline = time.monotonic() + seconds
    only_y_n = limited(req)
    while True:
        typed, why = read_line(term, deadline, seconds)     # a signal: _Cancel, to tty_dialog
        if typed is None:
            return "n", why
        choice, note = read_answer(typed, only_y_n)
        if choice == DETAILS:
            term.write("\n" + render_details(req, colour=colour, width=width) + "\n" + prompt_row)
            continue
        if choice is None:
            term.write(f"\n  {note}\n" + prompt_row)
            continue
        return choice, note


def tty_dialog(plan: Plan, fd: int, *, config: Config, env: Mapping[str, str], cwd: str) -> tuple[Answer, ...]:
    """The plan first, then each question in turn; stops at the first no."""
    colour = use_colour(env)
    who = session_fields(env)
    answers: list[Answer] = []
    width = _terminal_width(fd)
    record_asked(plan, config=config, env=env, cwd=cwd, where="tty", who=who)
    try:
        with RawTerminal(fd, die_of_signal=False) as term:
            for i, q in enumerate(plan.questions):
                req = question_request(plan, i, cwd=cwd, env=env, **who)
                if i == 0:
                    term.write("\n" + render_plan(req, colour=colour, width=width) + "\n")
                choice, note = ask_one(term, req, colour=colour, width=width, seconds=config.prompt_seconds)
                earlier = sum(1 for a in answers if a.choice != "n")
                term.write(echo_for(choice, note, q.pattern, count=len(plan.questions), earlier=earlier) + "\n")
                answers.append(Answer(i, choice, "tty", note))
                if choice == "n":
                    break
    except _Cancel as cancel:           # INT/TERM/HUP sent to us (Ctrl-C typed is a key, and means no)
        raise Interrupted(cancel.signum, answers, len(answers)) from None
    return tuple(answers)


def tty_reach(req: dict, fd: int, *, config, env) -> tuple[str, str]:
    """Ask on the person's terminal (the supervisor's desk, asking.py): (choice, note)."""
    from wispsh.ask.prompt import echo_reach

    with RawTerminal(fd) as term:
        choice, note = ask_one(term, req, colour=use_colour(env), width=_terminal_width(fd),
                               seconds=config.prompt_seconds)
        term.write(echo_reach(choice, note, str(req.get("pattern"))) + "\n")
    return choice, note
