"""dialog.py: the /dev/tty dialog on a person's terminal, whose terminal it is, --yes, the refusal line.

The person's terminal is played by `script` (a real terminal program holding a real pty) with an
interactive bash inside; a driver builds a Plan by hand and calls collect.collect, and writes the answers.
"""
from __future__ import annotations

import os
import pty
import re
import shlex
import signal
import subprocess
from pathlib import Path

import pexpect
import pytest

from test_ask_support import (DANGER, DRIVER, PY, REPO, RM, PersonShell, build_plan, person_env, result,
                              start_driver, write_config)
from wispsh.ask import collect, prompt, terminal
from wispsh.config import Config
from wispsh.model import Answer

CONFIG = Config(path=Path("/nonexistent/config.json"))


@pytest.fixture
def shell(tmp_path):
    sh = PersonShell(person_env(tmp_path))
    yield sh
    sh.close()


def answers(out: Path) -> list:
    return [tuple(a[:3]) for a in result(out)["answers"]]


# ------------------------------------------------------------------ without a terminal


def test_yes_answers_every_question_once():
    plan = build_plan(RM)
    got = collect.answers(plan, config=CONFIG, env={}, yes=True, cwd="/")
    assert got == (Answer(0, "y", "--yes"), Answer(1, "y", "--yes"))


def test_no_questions_no_answers():
    plan = build_plan({**RM, "questions": []})
    assert collect.answers(plan, config=CONFIG, env={}, yes=False, cwd="/") == ()


def test_no_controlling_terminal_refuses_at_once(tmp_path):
    env = person_env(tmp_path)
    (tmp_path / "q.json").write_text(__import__("json").dumps(RM))
    out = tmp_path / "q.out"
    subprocess.run(["setsid", "-w", PY, DRIVER, str(tmp_path / "q.json"), str(out)], env=env,
                   stdin=subprocess.DEVNULL, timeout=30, check=True)
    got = result(out)
    assert got["answers"] == []
    assert got["refusal"].startswith("wispsh: not run: rm -rf build (high: recursive delete)")
    assert _rows_fit(got["refusal"]) and "`wisp approvals add 'rm *' --level high`" in got["refusal"]


def test_pty_held_by_a_python_process_gets_no_dialog(tmp_path):
    """As an agent would (Aider, SWE-ReX): pexpect holds the master; the model would read any prompt."""
    env = person_env(tmp_path)
    (tmp_path / "q.json").write_text(__import__("json").dumps(RM))
    out = tmp_path / "q.out"
    child = pexpect.spawn(PY, [DRIVER, str(tmp_path / "q.json"), str(out)], env=env, encoding="utf-8",
                          timeout=30)
    child.expect(pexpect.EOF)
    assert "approve" not in child.before and "[y]" not in child.before
    assert result(out)["answers"] == []


def test_terminal_holder_is_judged():
    master, slave = pty.openpty()                  # held by this (python) process: not a person's
    try:
        persons, why = terminal.terminal_is_persons(os.fstat(slave).st_rdev, CONFIG)
        assert not persons and "not a terminal program" in why
        names = terminal.process_names(os.getpid())
        allowed = Config(path=CONFIG.path, terminal_programs=tuple(names))
        assert terminal.terminal_is_persons(os.fstat(slave).st_rdev, allowed)[0]
    finally:
        os.close(master), os.close(slave)
    assert terminal.terminal_is_persons(0, CONFIG) == (False, "no terminal")
    assert terminal.terminal_is_persons(os.makedev(4, 1), CONFIG)[0]          # /dev/tty1: the console


# ------------------------------------------------------------------ what is shown


def test_dialog_text_fits_80_columns_and_escapes_control_characters():
    spec = {**RM, "line": "rm -rf build && echo '\x1b[2J\x1b]0;owned\x07' " + "x" * 200 + "\u202e"}
    req = prompt.question_request(build_plan(spec), 1, cwd="/w", env={})
    text = prompt.render(req, colour=False, width=80)
    assert all(len(row) <= 80 for row in text.split("\n"))
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b" in text and "…" in text
    coloured = prompt.render(req, colour=True, width=80)
    assert "\x1b[" in coloured and "\x1b]" not in coloured


def test_whole_line_question_shows_every_part():
    spec = {**RM, "questions": [["rm -rf build && git -C app push", "high", ["deletes then publishes"],
                                 [0, 1], True]]}
    text = prompt.render(prompt.question_request(build_plan(spec), 0, cwd="/w", env={}), colour=False)
    assert "approve the whole line?" in text
    assert "rm -rf build  [high]" in text and "git -C app push  [moderate]" in text


def test_colour_only_when_the_terminal_has_it():
    assert prompt.use_colour({"TERM": "xterm-256color"})
    assert not prompt.use_colour({"TERM": "xterm", "NO_COLOR": "1"})
    assert not prompt.use_colour({"TERM": "dumb"}) and not prompt.use_colour({})


def _rows_fit(text: str, width: int = 80) -> bool:
    """Every row within `width` columns, unless it is one word (a path, a command) longer than that."""
    return all(len(row) <= width or " " not in row.strip() or row.strip().startswith("`") for row in text.splitlines())


def _commands(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_the_refusal_names_the_part_its_whole_reason_what_to_do_then_advice_narrowest_first():
    plan = build_plan(RM)
    none = prompt.refusal_line(plan, (), project="/home/ana/proj")
    rows = none.splitlines()
    assert rows[0] == "wispsh: not run: rm -rf build (high: recursive delete) (+1 more part to approve)"
    assert rows[1] == "nothing ran: no person could be asked; ask the user, or do it another way"
    assert _rows_fit(none) and none.endswith("`")                  # the advice last, nothing after it
    assert _commands(none)[-2:] == ["wisp watch", "wisp approvals add 'rm *' --level high --dir /home/ana/proj"]
    assert none.index("this line once") < none.index("every rm command rated high or lower in this project")
    said_no = prompt.refusal_line(plan, (Answer(0, "y", "tty"), Answer(1, "n", "watch", "the watcher went away")))
    assert said_no.startswith("wispsh: not run: git -C app push (moderate: publishes commits)\n")
    assert "not approved: the watcher went away (in wisp watch)" in " ".join(said_no.split())
    danger = prompt.refusal_line(build_plan(DANGER), (), project="/p")
    assert "wisp watch" in danger and "approvals add" not in danger   # dangerous is never stored
    assert "never approved for later" in " ".join(danger.split()) and danger.endswith("`wisp watch`")


def test_the_refusal_says_every_reason_that_decided_the_level(tmp_path):
    """Was: only the first reason (`rm -rf build ~/notes`: "recursive delete of build", the delete in your
    home unsaid). Every reason at the part's level is said whole; a lower one is left to `--explain`."""
    project = tmp_path / "proj"
    project.mkdir()
    env = person_env(tmp_path)
    line = "rm -rf build ~/notes"
    done = subprocess.run([str(REPO / ".venv" / "bin" / "wispsh"), "-c", line], env=env, cwd=project,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, start_new_session=True,
                          timeout=60)
    head = " ".join(done.stderr.split("\nnothing ran", 1)[0].split())
    assert done.returncode == 126 and head.startswith(f"wispsh: not run: {line} (high: "), done.stderr
    assert "recursive delete of build" in head and "recursive delete of ~/notes" in head, head
    mixed = {"line": "x", "parts": [["x", [0, 1], "high", ["a"], "x *"]], "questions": [["x *", "high", ["a"], [0],
                                                                                         False]]}
    plan = build_plan(mixed)
    from wispsh.model import Finding, Level, replace

    findings = (Finding(Level.MODERATE, "t.low", "writes a file"), Finding(Level.HIGH, "t.a", "deletes a tree"),
                Finding(Level.HIGH, "t.b", "reads a secret"), Finding(Level.HIGH, "t.c", "deletes a tree"))
    plan = replace(plan, questions=(replace(plan.questions[0], findings=findings),))
    assert prompt.refusal_line(plan, ()).splitlines()[0] == "wispsh: not run: x (high: deletes a tree; reads a secret)"


def test_the_refusal_gives_no_advice_that_cannot_work():
    from wispsh.model import replace

    untrusted = replace(build_plan(RM), notes=("approvals not trusted: /h/approvals.json is writable by group",))
    said = prompt.refusal_line(untrusted, (), project="/p")
    assert "approvals add" not in said and _commands(said)[-2:] == ["wisp watch", "wisp doctor"]
    exact = {"line": "python3 -c 'print(1)'", "parts": [["python3 -c 'print(1)'", [0, 21], "high", ["inline code"],
                                                        "python3 -c 'print(1)'"]],
             "questions": [["python3 -c 'print(1)'", "high", ["inline code"], [0], False]]}
    plan = build_plan(exact)
    plan = replace(plan, questions=(replace(plan.questions[0], exact=True),))
    said = prompt.refusal_line(plan, (), project="/p")
    assert _commands(said)[-1] == """wisp approvals add "python3 -c 'print(1)'" --level high --dir /p"""
    assert "this exact text, rated high or lower, in this project" in " ".join(said.split())
    moderate = {**RM, "questions": [["git push *", "moderate", ["publishes commits"], [1], False]]}
    assert _commands(prompt.refusal_line(build_plan(moderate), ()))[-1] == "wisp approvals add 'git push *'"


@pytest.mark.parametrize("text, reason, pattern", [
    ("rm -rf build", "recursive delete", "rm *"),
    ("x" * 500, "y" * 300, "rm *"),
    ("docker run --privileged -v /:/host " + "a" * 90, "mounts the host's root into a container", "docker run *"),
    ("curl https://example.com/" + "p" * 70 + " -o f", "downloads a file", "curl *"),
    ("rm -rf /home/someone/projects/a-long-directory-name/with/a/deep/path/node_modules",
     "recursive delete of /home/someone/projects/a-long-directory-name/with/a/deep/path/node_modules "
     "(your home directory (outside the project))", "rm *"),
    ("é" * 200, "ü" * 200, "é *"),
])
@pytest.mark.parametrize("level", ["moderate", "high"])
def test_the_refusal_is_wrapped_never_cut_and_its_advice_is_whole_and_last(text, reason, pattern, level):
    for questions in (1, 2):
        spec = {"line": text + " && ls", "parts": [[text, [0, len(text)], level, [reason], pattern],
                                                   ["ls -la", [0, 6], level, ["lists"], "ls *"]],
                "questions": [[pattern, level, [reason], [0], False],
                              ["ls *", level, ["lists"], [1], False]][:questions]}
        line = prompt.refusal_line(build_plan(spec), (), project="/w")
        assert "…" not in line                                              # nothing cut
        flat = " ".join(line.split())
        assert f"wispsh: not run: {text} ({level}: {reason})" in flat, line     # the part and its reason, whole
        assert _rows_fit(line), line
        advice = f"wisp approvals add '{pattern}'" + ("" if level == "moderate" else f" --level {level}") + " --dir /w"
        assert line.endswith(f"`{advice}`"), line      # whole, and last: a person copies it from the end


# ------------------------------------------------------------------ the dialog on a person's terminal


def settles(out: Path, within: float = 0.6) -> bool:
    """Whether the driver wrote its answers within `within` seconds (False: it still waits)."""
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if out.exists():
            return True
        time.sleep(0.05)
    return False


def test_the_plan_comes_first_then_each_question_answered_with_enter(shell, tmp_path):
    before = shell.stty()
    out = start_driver(shell, RM, tmp_path, "a")
    shell.child.expect_exact("] no")
    screen = re.sub(r"\x1b\[[0-9;]*m", "", shell.child.before)
    plan_at = screen.index("2 questions before anything of this line runs")
    question_at = screen.index("approve this command? (1 of 2)")
    assert plan_at < question_at                                       # the whole plan, before any question
    plan = screen[plan_at:question_at]
    for shown in ("1.  rm -rf build", "[high] asked (1 of 2)", "2.  git -C app push", "[moderate] asked (2 of 2)"):
        assert shown in plan, plan
    for shown in ("approve this command? (1 of 2)", "rm -rf build && git -C app push", "^^^^^^^^^^^^",
                  "high:", "recursive delete", "rm *", "[y] once  [s] session  [p] project  [a] always  [n"):
        assert shown in screen
    assert "covers every `rm …` rated high or lower that does only what this one does (" in " ".join(screen.split())
    shell.child.send("s")
    assert not settles(out) and "this command? (2 of 2)" not in shell.child.read_nonblocking(4096, timeout=0.3)  # no Enter yet
    shell.child.send("\r")
    shell.child.expect_exact("this command? (2 of 2)")
    shell.child.expect_exact("] no")
    shell.child.send("a\r")
    assert answers(out) == [(0, "s", "tty"), (1, "a", "tty")]
    shell.child.expect_exact("WISP> ")
    assert shell.stty() == before


@pytest.mark.parametrize("typed", ["ls", "clear", "x", "yy", "always", "sudo", "q"])
def test_anything_but_an_answer_asks_again(shell, tmp_path, typed):
    out = start_driver(shell, RM, tmp_path)
    shell.child.expect_exact("] no")
    shell.child.send(typed + "\r")
    shell.child.expect_exact("not an answer: type y, s, p, a or n, then Enter")
    shell.child.expect_exact("] no")                                 # the same question, again
    assert not settles(out) and "this command? (2 of 2)" not in shell.child.before
    shell.child.send("YES\r")                                        # words and capitals count
    shell.child.expect_exact("this command? (2 of 2)")
    shell.child.expect_exact("] no")
    shell.child.send("no\r")
    assert answers(out) == [(0, "y", "tty"), (1, "n", "tty")]


def test_an_empty_line_is_no_and_backspace_edits(shell, tmp_path):
    out = start_driver(shell, RM, tmp_path, "a")
    shell.child.expect_exact("] no")
    shell.child.send("\r")
    assert result(out)["answers"] == [[0, "n", "tty", "empty answer"]]
    shell.child.expect_exact("WISP> ")
    out = start_driver(shell, RM, tmp_path, "b")
    shell.child.expect_exact("] no")
    shell.child.send("x\x7fp\r")                                    # x, backspace, p
    shell.child.expect_exact("this command? (2 of 2)")
    shell.child.expect_exact("] no")
    shell.child.send("nope\x15n\r")                                 # Ctrl-U clears what was typed
    assert answers(out) == [(0, "p", "tty"), (1, "n", "tty")]


def test_keys_typed_before_the_question_answer_nothing(shell, tmp_path):
    out = start_driver(shell, RM, tmp_path, before="sleep 1; ")
    shell.child.send("y\ry\r")                                      # typed ahead, into the wrong window
    shell.child.expect_exact("] no")
    assert not settles(out, 1.0)
    shell.child.send("n\r")
    assert answers(out) == [(0, "n", "tty")]


def test_a_no_stops_at_once_and_says_the_earlier_answers_are_not_kept(shell, tmp_path):
    out = start_driver(shell, RM, tmp_path)
    shell.child.expect_exact("] no")
    shell.child.send("a\r")
    shell.child.expect_exact("always: rm * allowed everywhere (kept only if the whole line runs)")
    shell.child.expect_exact("] no")
    shell.child.send("n\r")
    shell.child.expect_exact("no: nothing runs; your earlier answers to this line are not kept")
    assert answers(out) == [(0, "a", "tty"), (1, "n", "tty")]


def test_question_mark_shows_the_reasons_with_their_rule_ids(shell, tmp_path):
    spec = {**RM, "parts": [["rm -rf build", [0, 12], "high", ["recursive delete", "deletes in the project"], "rm *"],
                            RM["parts"][1]]}
    out = start_driver(shell, spec, tmp_path)
    shell.child.expect_exact("] no")
    assert "test.rule" not in shell.child.before                      # the ids are the detail, on request
    shell.child.send("?\r")
    shell.child.expect_exact("test.rule: deletes in the project")
    assert "why" in shell.child.before and "high  test.rule: recursive delete" in shell.child.before
    shell.child.expect_exact("] no")                                  # and the question waits again
    shell.child.send("n\r")
    assert answers(out) == [(0, "n", "tty")]


def test_dangerous_offers_and_accepts_only_once_or_no(shell, tmp_path):
    out = start_driver(shell, DANGER, tmp_path)
    shell.child.expect_exact("[y] once  [n] no")
    assert "[s] session" not in shell.child.before and "never remembered" in shell.child.before
    for typed in ("a", "s", "p", "always"):
        shell.child.send(typed + "\r")
        shell.child.expect(r"only y \(once, this line\) or n|not an answer")
        shell.child.expect_exact("[y] once  [n] no")
    assert not settles(out)
    shell.child.send("y\r")
    shell.child.expect_exact("once: allowed for this line")
    assert result(out)["answers"] == [[0, "y", "tty", ""]]


@pytest.mark.parametrize("key, note", [("\x03", "interrupted"), ("\x04", "end of input")])
def test_ctrl_c_and_ctrl_d_mean_no_and_restore_the_terminal(shell, tmp_path, key, note):
    before = shell.stty()
    out = start_driver(shell, RM, tmp_path)
    shell.child.expect_exact("] no")
    shell.child.send(key)
    assert result(out)["answers"] == [[0, "n", "tty", note]]
    shell.child.expect_exact("WISP> ")
    assert shell.stty() == before


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_a_killed_asker_leaves_the_terminal_sane(shell, tmp_path, sig):
    """Killed as an agent's timeout would; the asker's parent is a plain sh, which repairs nothing."""
    before = shell.stty()
    # after the asker dies, wait (bounded) until the mode is the one from before, then print it
    then = (f"for i in $(seq 50); do [ \"$(stty -g)\" = {before} ] && break; sleep 0.1; done; "
            "echo A=$(stty -g)=A")
    out = start_driver(shell, RM, tmp_path, then=then)
    shell.child.expect_exact("] no")
    pid = int(Path(str(out) + ".pid").read_text())
    os.kill(pid, sig)
    shell.child.expect(r"A=(\S+)=A")
    assert shell.child.match.group(1) == before
    shell.child.expect_exact("WISP> ")
    assert not out.exists()


def test_prompt_timeout_means_no(tmp_path):
    env = person_env(tmp_path)
    write_config(env, promptSeconds=1)
    sh = PersonShell(env)
    try:
        out = start_driver(sh, RM, tmp_path)
        sh.child.expect_exact("] no")
        assert result(out)["answers"] == [[0, "n", "tty", "no answer within 1s"]]
    finally:
        sh.close()


def test_requests_are_validated_before_a_watcher_shows_them():
    req = prompt.question_request(build_plan(RM), 0, cwd="/w", env={})
    assert prompt.valid_request(req) and prompt.valid_request(__import__("json").loads(__import__("json").dumps(req)))
    assert not prompt.valid_request({**req, "parts": [{"text": "x"}]})
    assert not prompt.valid_request({**req, "line": None}) and not prompt.valid_request([])


def test_a_program_chosen_at_run_time_is_offered_once_or_no_only():
    from wispsh.model import replace

    spec = {"line": "$CMD x", "parts": [["$CMD x", [0, 6], "high", ["the program is chosen at run time"], "$CMD x"]],
            "questions": [["$CMD x", "high", ["the program is chosen at run time"], [0], False]]}
    plan = build_plan(spec)
    part = replace(plan.judged[0].part, runtime_program=True)
    plan = replace(plan, judged=(replace(plan.judged[0], part=part),))
    req = prompt.question_request(plan, 0, cwd="/p", env={})
    screen = prompt.render(req, colour=False, width=80)
    assert "[y] once  [n] no" in screen and "[a] always" not in screen and "this line only" in screen
    assert prompt.read_answer("a", True)[0] is None and prompt.read_answer("y", True) == ("y", "")
    assert prompt.valid_choice("a", True) is None and prompt.valid_choice("n", True) == "n"
    assert "wisp approvals add" not in prompt.refusal_line(plan, ())       # no lasting approval can cover it
    assert "wisp approvals add" in prompt.refusal_line(build_plan(spec), ())


ADVISED = re.compile(r"`(wisp approvals add [^`]+)`")


@pytest.mark.parametrize("line", ['python3 -c "$CODE"', "sh ./x.sh", "rm -rf ~/notes", "cat ~/.aws/credentials",
                                  "git push origin main", "npm install left-pad", "curl -o out.html https://a.example",
                                  "chmod 600 ~/.ssh/config", "docker run --rm alpine true"])
def test_advice_in_a_refusal_works_when_followed(tmp_path, line):
    """Was: `wisp approvals add 'rm *' --level high` advised for `rm -rf ~/notes` (and for inline code, secret
    reads), which the user then ran and the line was refused again: an approval added by hand covers ordinary
    work only. Advice given must let the line run when followed; where none could, only `wisp watch` is."""
    home, work, stubs = tmp_path / "home", tmp_path / "work", tmp_path / "bin"
    for d in (home, work, stubs, home / "notes", home / ".aws", home / ".ssh"):
        d.mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("[default]\n")
    (home / ".ssh" / "config").write_text("")
    (work / "x.sh").write_text("echo x\n")
    for name in ("git", "npm", "curl", "docker"):
        (stubs / name).write_text("#!/bin/sh\necho stub-ran\n")
        (stubs / name).chmod(0o755)
    env = dict(person_env(tmp_path), HOME=str(home), WISP_HOME=str(home / ".wisp"), CODE="print(1)",
               PATH=f"{stubs}:{os.environ['PATH']}")
    env.pop("WISP_NO_JUDGE", None)

    def wispsh():
        return subprocess.run([str(REPO / ".venv/bin/wispsh"), "-c", line], capture_output=True, text=True,
                              cwd=work, env=env, stdin=subprocess.DEVNULL, timeout=60)

    first = wispsh()
    assert first.returncode == 126, first.stderr
    advised = ADVISED.findall(first.stderr.replace("\n    ", " ").replace("\n  ", " "))
    if not advised:
        assert "`wisp watch`" in first.stderr
        return
    added = subprocess.run([str(REPO / ".venv/bin/wisp"), *shlex.split(advised[0])[1:]], capture_output=True,
                           text=True, cwd=work, env=env, timeout=60)
    assert added.returncode == 0, added.stderr
    again = wispsh()
    assert again.returncode != 126, (advised, again.stderr)
