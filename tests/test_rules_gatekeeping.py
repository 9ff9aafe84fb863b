"""The gate's own commands run by an agent: self-approval and approval edits are dangerous."""
from __future__ import annotations

import pytest

from test_rules_support import describe, judge, make_place
from wispsh.model import Level

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("gatekeeping"))


@pytest.mark.parametrize("line, least, most", [
    ("wispsh --yes -c 'ls'", D, D),
    ("/home/u/.local/bin/wispsh --yes -c ls", D, D),
    ("bash -c \"wispsh --yes -c 'git push'\"", D, D),
    ("wisp approvals add 'rm *' --scope always", D, D),
    ("wisp approvals revoke abc123", D, D),
    ("wisp approvals clear", D, D),
    ("wisp shims remove", H, H),
    ("wisp watch", H, H),
    ("wisp approvals list", S, S),
    ("wisp audit -n 5", S, S),
    ("wisp explain 'rm -rf ~'", S, S),
    ("wispsh --version", S, S),
])
def test_the_gates_own_commands(place, line, least, most):
    outcome = judge(line, place)
    assert least <= outcome.reached <= most, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"


def test_code_given_to_wispsh_is_split_like_any_shell(place):
    outcome = judge("wispsh -c 'rm -rf ~/x'", place)
    assert [j.part.text for j in outcome.parts] == ["wispsh -c 'rm -rf ~/x'", "rm -rf ~/x"]


@pytest.mark.parametrize("line, least", [
    ("cat ~/.wisp/grants.key", D),                 # the key that signs runtime grants: reading it forges them
    ("base64 ~/.wisp/grants.key", D),
    ("ZDOTDIR=/tmp/z zsh -c true", H),
    ("XDG_RUNTIME_DIR=/tmp/r wispsh -c ls", H),
])
def test_the_gates_own_secrets_and_places(place, line, least):
    outcome = judge(line, place)
    assert outcome.reached >= least, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"


def test_reading_the_audit_log_stays_low(place):
    assert judge("tail -n 5 ~/.wisp/audit.jsonl", place).reached <= L
