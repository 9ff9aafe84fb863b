"""The /dev/tty dialog: show each question on the person's terminal, read one answer, restore the terminal.

Who may answer matters as much as the question: a pty that an agent holds is read by the model, which can
type "y". So this dialog runs only on a terminal that terminal.py judged a person's; collect.py decides.
Nothing here reads stdin.
"""
from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Mapping

from wispsh.config import Config
from wispsh.model import Answer, Level, Plan
from wispsh.ask.broker import session_fields
from wispsh.ask.prompt import ESC, choice_for_key, echo_for, question_request, render, use_colour
from wispsh.ask.terminal import RawTerminal, _Cancel, _terminal_width


# ------------------------------------------------------------------ the dialog on a terminal


def read_choice(term: RawTerminal, dangerous: bool, seconds: float, line_only: bool = False) -> tuple[str, str]:
    """Wait for an answering key on the terminal; timeout, Ctrl-C, Ctrl-D and hangup mean no."""
    import termios

    termios.tcflush(term.fd, termios.TCIFLUSH)       # keys typed before the question answer nothing
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "n", f"no answer within {seconds:g}s"
        ready, _, _ = select.select([term.fd, term.wake_fd], [], [], left)
        if term.wake_fd in ready:
            term.drain_wakeups()
        if term.fd not in ready:
            continue
        try:
            data = os.read(term.fd, 64)
        except OSError:
            return "n", "terminal hung up"
        if not data:
            return "n", "terminal hung up"
        text = data.decode("latin-1")
        if text.startswith(ESC):                     # arrow keys and other sequences answer nothing
            continue
        for ch in text:
            got = choice_for_key(ch, dangerous, line_only)
            if got:
                return got


def tty_dialog(plan: Plan, fd: int, *, config: Config, env: Mapping[str, str], cwd: str) -> tuple[Answer, ...]:
    colour = use_colour(env)
    who = session_fields(env)
    answers: list[Answer] = []
    with RawTerminal(fd) as term:
        for i, q in enumerate(plan.questions):
            req = question_request(plan, i, cwd=cwd, env=env, **who)
            term.redraw = render(req, colour=colour, width=_terminal_width(fd))
            term.write("\n" + term.redraw)
            try:
                choice, note = read_choice(term, q.level >= Level.DANGEROUS, config.prompt_seconds,
                                           req["this_line_only"])
            except _Cancel as cancel:
                if cancel.signum != signal.SIGINT:
                    raise
                choice, note = "n", "interrupted"
            term.write(echo_for(choice, note, q.pattern) + "\n")
            answers.append(Answer(i, choice, "tty", note))
            if choice == "n":
                break
    return tuple(answers)
