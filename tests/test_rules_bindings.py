"""Class 2 of issue 27: a variable bound by any form steers a later part as `NAME=value` does.

Every binding form of bash (`NAME=v`, `export`/`declare -x`/`typeset`, `read`, `printf -v`, `for`, `select`,
`${NAME:=v}`, `mapfile`/`readarray`, a nameref) crossed with the variables that steer what later runs
(BASH_ENV, HISTFILE for `history -w`, PATH, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, LESSOPEN, PS4 under `set -x`).
The real bash is the oracle: a pair is a member of the class when bash runs the stub payload (or rewrites
~/.bashrc) with it; the gate asks about every member, naming the variable's env.* rule. Sources: the bash
manual (Bash Variables, Bourne Shell Builtins, Bash Builtins), git(1) ENVIRONMENT, less(1) INPUT
PREPROCESSOR, GTFOBins (bash, less, git).
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from wispsh.model import Level
from test_rules_support import describe, judge, make_place

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

# {n}: the variable, {v}: its value (single-quoted in the line)
FORMS = [
    "{n}={v}", "export {n}={v}", "declare -x {n}={v}", "typeset -x {n}={v}", "read -r {n} <<< {v}",
    "printf -v {n} %s {v}", "for {n} in {v}; do :; done", "select {n} in {v}; do break; done <<< 1",
    "unset {n}; : ${{{n}:={v}}}", "declare -n ref={n}; ref={v}", "mapfile -t {n} <<< {v}",
    "readarray -t {n} <<< {v}",
]
EXPORT = "export {n}; "
# (variable, value as a shell word, what then uses it, whether it must be exported): payload is a stub that logs
STEERING = [
    ("BASH_ENV", "~/payload.sh", "bash -c :", True),
    ("HISTFILE", "~/.bashrc", "history -w", False),
    ("PATH", "{bin}:{stub}:/usr/bin:/bin", "ls", False),
    ("GIT_EXTERNAL_DIFF", "~/payload.sh", "cd repo && git diff", True),
    ("GIT_SSH_COMMAND", "'payload #'", "git ls-remote ssh://x.example/y 2>/dev/null", True),
    ("LESSOPEN", "'|payload %s'", "less ~/payload.sh", True),
    ("PS4", "'$(payload)'", "set -x; :", False),
]


def lines() -> list[tuple[str, str]]:
    out = []
    for name, value, use, exported in STEERING:
        for form in FORMS:
            line = form.format(n=name, v=value) + "; " + (EXPORT.format(n=name) if exported else "") + use
            out.append((name, line))
    return out


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    """The real bash in a scratch home: which lines run the payload or rewrite ~/.bashrc."""
    for tool in ("git", "less"):
        if not shutil.which(tool):
            pytest.skip(f"machine lacks {tool}")
    root = tmp_path_factory.mktemp("bindings-oracle")
    home, stub, evil = root / "home", root / "stub", root / "evil"
    for d in (home, stub, evil):
        d.mkdir()
    log = root / "log"
    (stub / "payload").write_text(f'#!/bin/sh\necho ran >> {log}\n')
    (home / "payload.sh").write_text(f"echo ran >> {log}\n")
    (evil / "ls").write_text(f"#!/bin/sh\necho ran >> {log}\n")
    for f in (stub / "payload", home / "payload.sh", evil / "ls"):
        f.chmod(0o755)
    repo = home / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.email=a@b.example", "-c", "user.name=a"]
    subprocess.run(git + ["init", "-q"], cwd=repo, check=True)
    (repo / "f").write_text("a\n")
    subprocess.run(git + ["add", "f"], cwd=repo, check=True)
    subprocess.run(git + ["commit", "-qm", "a"], cwd=repo, check=True)
    (repo / "f").write_text("b\n")
    results = {}
    for name, line in lines():
        line = line.replace("{bin}", str(evil)).replace("{stub}", str(stub))
        log.write_text("")
        (home / ".bashrc").write_text("original\n")
        env = {"HOME": str(home), "PATH": f"{stub}:/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        subprocess.run(["bash", "--norc", "--noprofile", "-c", line], cwd=home, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        results[line] = bool(log.read_text()) or (home / ".bashrc").read_text() != "original\n"
    return results, str(evil), str(stub)


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("bindings"))


def test_every_form_that_steers_in_bash_is_asked(oracle, place):
    results, evil, stub = oracle
    members = [(name, line) for name, line in lines()
               if results[line.replace("{bin}", evil).replace("{stub}", stub)]]
    assert len(members) >= 70, f"the oracle found only {len(members)} members: is the scratch home broken?"
    for form in FORMS:      # every form is a member with some variable
        assert any(form.split("{n}")[0] in line for _, line in members), form
    missed = []
    for name, line in members:
        line = line.replace("{bin}", "/tmp/evil-bin").replace("{stub}", "/usr/local/bin")
        outcome = judge(line, place)
        rules = {f.rule for j in outcome.parts for f in j.verdict.findings} | {f.rule for f in outcome.line.findings}
        if outcome.reached < M or not (f"env.{name}" in rules or "env.runtime-name" in rules or
                                       any(r.startswith("path.write.") for r in rules)):
            missed.append(f"{line!r}: {outcome.reached}\n{describe(outcome)}")
        elif name != "HISTFILE" and outcome.reached < H:
            missed.append(f"{line!r}: {outcome.reached}\n{describe(outcome)}")
    assert not missed, "\n".join(missed)


@pytest.mark.parametrize("line,level", [
    ("for HISTFILE in ~/.bashrc; do history -w; done", D),
    ("read -r HISTFILE <<< ~/.bashrc; history -w", D),
    ("export HISTFILE=~/.bashrc; history -a", D),
    ("read -r BASH_ENV < f.txt; export BASH_ENV; bash -c ls", H),       # unknown text steering: code unread
    ("read -r \"$v\" <<< /tmp/x", H),                                    # a name known only at run time
    ("printf -v \"$1\" %s /tmp/x", H),
    ("declare -n r=\"$1\"; r=/tmp/x", H),
    ("getopts a: GIT_SSH_COMMAND", H),
    ("printf -v PROMPT_COMMAND %s 'rm -rf ~/x'", H),
    ("read -r NODE_OPTIONS <<< '--require /tmp/x.js'; node app.js", H),
    ("read -r LD_PRELOAD < f.txt; ls", H),
    ("read -r IFS <<< x; echo $y", H),
    ("printf -v PS4 %s '$(rm -rf ~/x)'; set -x; ls", H),
])
def test_binding_forms_of_steering_variables(place, line, level):
    outcome = judge(line, place)
    assert outcome.reached >= level, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"


@pytest.mark.parametrize("line,most", [
    ('for f in *.py; do black --check "$f"; done', S),
    ('while read -r line; do echo "$line"; done < f.txt', S),
    ('read -r -p "Continue? " ans; echo "$ans"', S),
    ('mapfile -t lines < f.txt; echo "${#lines[@]}"', S),
    ("printf -v now '%(%F)T' -1; echo \"$now\"", S),
    ('while getopts "ab:" opt; do echo "$opt"; done', S),
    ("export NODE_ENV=production", S),
    ("declare -a arr=(1 2); echo ${arr[1]}", S),
    (": ${TMPDIR:=/tmp}; echo $TMPDIR", S),
    ('IFS=, read -r a b <<< "x,y"; echo "$a"', S),
    ("for PAGER in cat; do git log -1; done", S),
    ("read -r EDITOR <<< vim; export EDITOR", S),
    ("unset HISTFILE", S),
    ("declare -r X=1; echo $X", S),
    ('f() { local x=1; echo "$x"; }; f', S),
    ("select opt in build test; do echo \"$opt\"; break; done", S),
    ('export PATH="$HOME/.local/bin:$PATH"', M),
])
def test_daily_bindings_stay_quiet(place, line, most):
    outcome = judge(line, place)
    assert outcome.reached <= most, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"
