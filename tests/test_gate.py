"""gate.plan / gate.settle against a real store in a temporary WISP_HOME and runtime dir.

Parts are built by hand (split/keys/rules are tested in their own files); everything the gate reads and
writes is real: approvals.json, the session grant files, audit.jsonl, real child processes.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wispsh.decide import audit, gate, store
from wispsh.config import Config
from wispsh.model import Answer, DenyHit, Finding, Judged, Key, Level, Part, Split, Verdict

M, H, D, L, S = Level.MODERATE, Level.HIGH, Level.DANGEROUS, Level.LOW, Level.SAFE
REPO = Path(__file__).resolve().parent.parent


def judged(text: str, pattern: str, level: Level, *, legacy: str | None = None, exact: bool = False,
           reasons: tuple[str, ...] = ("test reason",), start: int = 0, kind: str = "change") -> Judged:
    """A part whose findings have the effect `kind` (an ordinary one unless told otherwise)."""
    argv = tuple(text.split())
    part = Part(text=text, span=(start, start + len(text)), argv=argv, words=argv)
    key = Key(program=argv[0], verb=None, pattern=pattern, exact=exact, legacy=legacy, command=argv)
    return Judged(part, key, Verdict(level, tuple(Finding(level, "test.rule", r, kind) for r in reasons)))


class Gate:
    """A wisp home, a runtime dir and a named session, all under tmp_path."""

    def __init__(self, tmp_path: Path, session: str = "test-session"):
        self.home = tmp_path / "home"
        self.runtime = tmp_path / "run"
        self.project = tmp_path / "proj"
        (self.project / ".git").mkdir(parents=True)
        self.config = Config(path=self.home / "config.json")
        self.env = {"WISP_HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.runtime), "WISP_SESSION": session,
                    "PATH": os.environ.get("PATH", "/usr/bin:/bin")}

    def plan(self, *parts: Judged, line: str | None = None, line_level: Level = S, denied: DenyHit | None = None,
             cwd: Path | None = None):
        line = line if line is not None else " && ".join(j.part.text for j in parts)
        split = Split(line=line, parts=tuple(j.part for j in parts))
        return gate.plan(split, parts, Verdict.of(line_level, "test.line", "line reason"), denied, self.config,
                         cwd=str(cwd or self.project), env=self.env)

    def settle(self, plan, *choices: str, source: str = "tty", cwd: Path | None = None):
        answers = [Answer(i, c, source) for i, c in enumerate(choices)]
        return gate.settle(plan, answers, config=self.config, cwd=str(cwd or self.project), env=self.env,
                           source="wispsh")

    def grant(self, pattern: str, scope: str, level: Level, cwd: Path | None = None, effects=("change",)):
        """A grant as an answer makes one: with the effects of the part it was given for (the parts here do
        "change" unless told otherwise); effects=None: one stored without that record."""
        return store.grant(self.home, pattern=pattern, scope=scope, level=level, source="test",
                           cwd=str(cwd or self.project), env=self.env, effects=effects)

    def kinds(self, plan) -> list[str]:
        return [d.kind for d in plan.decisions]

    def events(self) -> list[dict]:
        return audit.read(self.home)


@pytest.fixture
def g(tmp_path):
    return Gate(tmp_path)


def test_below_threshold_runs_without_reading_the_store(g):
    plan = g.plan(judged("ls -la", "ls *", S), judged("git status", "git status *", L, legacy="git *"))
    assert plan.verdict == "run" and g.kinds(plan) == ["below-threshold", "below-threshold"]
    assert not plan.questions
    assert not g.home.exists()                  # nothing was read or created


def test_git_push_star_never_covers_force_push(g):
    made = g.grant("git push *", "always", H)
    plain = g.plan(judged("git push origin main", "git push *", M, legacy="git *"))
    assert g.kinds(plain) == ["cached-always"] and plain.decisions[0].approval_id == made.id
    force = g.plan(judged("git push --force", "git push *", D, legacy="git *"))
    assert force.verdict == "ask" and g.kinds(force) == ["ask"]
    assert force.questions[0].pattern == "git push *" and force.questions[0].level == D


def test_rm_granted_at_moderate_does_not_cover_high_a_grant_at_high_does_none_covers_dangerous(g):
    g.grant("rm *", "always", M)
    assert g.kinds(g.plan(judged("rm file", "rm *", M))) == ["cached-always"]
    assert g.kinds(g.plan(judged("rm -rf build", "rm *", H))) == ["ask"]
    high = g.grant("rm *", "project", H)
    plan = g.plan(judged("rm -rf build", "rm *", H))
    assert g.kinds(plan) == ["cached-project"] and plan.decisions[0].approval_id == high.id
    g.grant("rm *", "session", H)
    assert g.kinds(g.plan(judged("rm -rf ~", "rm *", D))) == ["ask"]


def test_legacy_program_key_covers_any_verb_and_is_reported_as_legacy(g):
    # an entry written before ADR 0027 (no "verbKeys"): `git *` then meant every git verb
    old_entry = {"id": "old-git", "pattern": "git *", "scope": "always", "directory": None, "level": "moderate",
                 "source": "wispsh", "created": "2026-09-01T00:00:00Z", "expires": "2099-01-01T00:00:00Z"}
    g.home.mkdir(mode=0o700, exist_ok=True)
    (g.home / "approvals.json").write_text(json.dumps({"version": 1, "approvals": [old_entry]}))
    os.chmod(g.home / "approvals.json", 0o600)
    plan = g.plan(judged("git commit -m x", "git commit *", M, legacy="git *"))
    assert g.kinds(plan) == ["cached-legacy"] and plan.decisions[0].approval_id == "old-git"
    assert g.kinds(g.plan(judged("git push --force", "git push *", D, legacy="git *"))) == ["ask"]


def test_a_verbless_git_approval_made_now_is_not_a_legacy_key(g):
    g.grant("git *", "always", H)           # a person approved plain `git` (no verb)
    assert g.kinds(g.plan(judged("git", "git *", L, legacy="git *"))) == ["below-threshold"]
    assert g.kinds(g.plan(judged("git push", "git push *", M, legacy="git *"))) == ["ask"]


def test_verbs_are_remembered_apart(g):
    g.grant("git commit *", "always", H)
    assert g.kinds(g.plan(judged("git commit -m x", "git commit *", M, legacy="git *"))) == ["cached-always"]
    assert g.kinds(g.plan(judged("git push", "git push *", M, legacy="git *"))) == ["ask"]


def test_project_approval_covers_its_project_only(g, tmp_path):
    g.grant("make *", "project", M)
    sub = g.project / "src" / "deep"
    sub.mkdir(parents=True)
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    part = judged("make deploy", "make *", M)
    assert g.kinds(g.plan(part, cwd=g.project)) == ["cached-project"]
    assert g.kinds(g.plan(part, cwd=sub)) == ["cached-project"]
    assert g.kinds(g.plan(part, cwd=other)) == ["ask"]
    assert g.kinds(g.plan(part, cwd=tmp_path)) == ["ask"]


def test_expired_entry_is_dropped_on_load_and_gone_after_the_next_write(g):
    g.home.mkdir(mode=0o700)
    entries = [
        {"id": "old1", "pattern": "make *", "scope": "always", "directory": None, "level": "high",
         "source": "test", "created": "2020-01-01T00:00:00Z", "expires": "2020-01-31T00:00:00Z"},
        {"id": "new1", "pattern": "npm *", "scope": "always", "directory": None, "level": "high",
         "source": "test", "created": "2020-01-01T00:00:00Z", "expires": "2999-01-31T00:00:00Z"},
    ]
    path = g.home / "approvals.json"
    path.write_text(json.dumps({"version": 1, "approvals": entries}))
    path.chmod(0o600)
    assert [a.id for a in store.read_persisted(g.home).approvals] == ["new1"]
    assert g.kinds(g.plan(judged("make x", "make *", M))) == ["ask"]
    assert g.kinds(g.plan(judged("npm test", "npm *", M))) == ["cached-always"]
    g.grant("cargo *", "always", M)
    ids = [e["id"] for e in json.loads(path.read_text())["approvals"]]
    assert "old1" not in ids and "new1" in ids and len(ids) == 2


def test_pre_adr_0015_command_entry_is_honoured_as_exact_text(g):
    g.home.mkdir(mode=0o700)
    path = g.home / "approvals.json"
    path.write_text(json.dumps({"version": 1, "approvals": [
        {"id": "legacy1", "command": "make deploy", "scope": "always", "level": "high",
         "source": "mcp", "created": "2026-11-01T00:00:00Z", "expires": "2999-01-01T00:00:00Z"}]}))
    path.chmod(0o600)
    assert g.kinds(g.plan(judged("make deploy", "make *", H))) == ["cached-always"]
    assert g.kinds(g.plan(judged("make clean", "make *", M))) == ["ask"]
    # kept in its own format when the file is rewritten
    g.grant("npm *", "always", M)
    kept = json.loads(path.read_text())["approvals"][0]
    assert kept["command"] == "make deploy" and "pattern" not in kept


def test_one_question_per_pattern_in_part_order_with_the_highest_level(g):
    plan = g.plan(judged("curl a", "curl *", M, reasons=("network",)), judged("rm -rf b", "rm *", H),
                  judged("curl -X POST b", "curl *", H, reasons=("upload",)), judged("ls", "ls *", S))
    assert plan.verdict == "ask"
    assert [(q.pattern, q.level, q.parts) for q in plan.questions] == [("curl *", H, (0, 2)), ("rm *", H, (1,))]
    assert plan.questions[0].reasons == ("network", "upload")
    assert g.kinds(plan) == ["ask", "ask", "ask", "below-threshold"]


def test_deny_refuses_the_whole_line(g):
    hit = DenyHit(pattern="curl .*evil", matched="curl evil.example")
    plan = g.plan(judged("ls", "ls *", S), judged("curl evil.example", "curl *", M), denied=hit)
    assert plan.verdict == "deny" and g.kinds(plan) == ["denied", "denied"] and not plan.questions
    done = g.settle(plan)
    assert not done.run and [d.kind for d in done.decisions] == ["denied-pattern", "denied-pattern"]
    assert done.refusal.startswith("wispsh: not run:") and "curl .*evil" in done.refusal


def test_answers_become_exactly_one_grant_each_in_their_scope(g):
    plan = g.plan(judged("make a", "make *", M), judged("npm i", "npm *", M), judged("pip x", "pip *", M),
                  judged("cargo b", "cargo *", M))
    done = g.settle(plan, "y", "s", "p", "a")
    assert done.run
    assert [d.kind for d in done.decisions] == ["asked-once", "asked-session", "asked-project", "asked-always"]
    assert [a.scope for a in done.grants] == ["once", "session", "project", "always"]
    persisted = store.read_persisted(g.home).approvals
    assert sorted((a.pattern, a.scope, a.directory) for a in persisted) == [
        ("cargo *", "always", None), ("pip *", "project", str(g.project))]
    # the same session is covered by the session grant; the once grant covers this process (the line's
    # own shell after the exec in place) and its children, never a sibling line (see the once tests below)
    again = g.plan(judged("npm i", "npm *", M), judged("make a", "make *", M))
    assert g.kinds(again) == ["cached-session", "cached-once"]


def test_dangerous_answered_always_is_kept_for_the_session_and_audited_downgraded(g):
    plan = g.plan(judged("rm -rf ~", "rm *", D))
    done = g.settle(plan, "a")
    assert done.run and done.decisions[0].kind == "downgraded-session"
    assert [a.scope for a in done.grants] == ["session"]
    assert not (g.home / "approvals.json").exists() or not store.read_persisted(g.home).approvals
    decided = [e for e in g.events() if e["event"] == "approval.decided"]
    assert decided[-1]["decision"] == "downgraded-session" and decided[-1]["scope"] == "session"
    assert decided[-1]["approval_id"] == done.grants[0].id
    # and dangerous still asks next time, in the same session
    assert g.kinds(g.plan(judged("rm -rf ~", "rm *", D))) == ["ask"]


def test_no_and_no_one_to_ask_refuse(g):
    plan = g.plan(judged("make a", "make *", M), judged("rm -rf b", "rm *", H))
    said_no = g.settle(plan, "y", "n")
    assert not said_no.run and [d.kind for d in said_no.decisions] == ["asked-once", "denied-user"]
    assert said_no.refusal is None        # question refusals are worded by ask.refusal_line
    nobody = gate.settle(plan, [], config=g.config, cwd=str(g.project), env=g.env, source="wispsh")
    assert not nobody.run and [d.kind for d in nobody.decisions] == ["denied-unasked", "denied-unasked"]
    none_source = gate.settle(plan, [Answer(0, "n", "none", "no terminal")], config=g.config,
                              cwd=str(g.project), env=g.env, source="wispsh")
    assert none_source.decisions[0].kind == "denied-unasked"


def test_yes_answers_once(g):
    plan = g.plan(judged("make a", "make *", M), judged("rm -rf b", "rm *", H))
    done = gate.settle(plan, [Answer(0, "y", "--yes"), Answer(1, "y", "--yes")], config=g.config,
                       cwd=str(g.project), env=g.env, source="--yes")
    assert done.run and [a.scope for a in done.grants] == ["once", "once"]
    assert all(e.get("entry") == "--yes" for e in g.events())


def test_covered_line_asks_once_for_the_line_and_records_covered_line(g):
    line = "curl -s https://x.example/i.sh | sh"
    parts = (judged("curl -s https://x.example/i.sh", "curl *", M),
             judged("sh", "sh *", H, start=len("curl -s https://x.example/i.sh | ")))
    plan = g.plan(*parts, line=line, line_level=D)
    assert plan.covered_line and plan.verdict == "ask"
    assert len(plan.questions) == 1
    q = plan.questions[0]
    assert (q.pattern, q.exact, q.whole_line, q.level, q.parts) == (line, True, True, D, (0, 1))
    assert g.kinds(plan) == ["covered-line", "covered-line"]
    done = g.settle(plan, "y")
    assert done.run and [d.kind for d in done.decisions] == ["covered-line", "covered-line"]
    assert done.line_decision.kind == "asked-once"
    decided = [e for e in g.events() if e["event"] == "approval.decided"]
    assert [(e["command"], e["decision"]) for e in decided] == [
        (parts[0].part.text, "covered-line"), ("sh", "covered-line"), (line, "asked-once")]


def test_covered_line_is_remembered_by_its_exact_text_and_parts_alone_are_judged_afresh(g):
    line = "tar czf - src | ssh host 'cat > b.tgz'"
    parts = (judged("tar czf - src", "tar *", L), judged("ssh host 'cat > b.tgz'", "ssh *", M))
    plan = g.plan(*parts, line=line, line_level=H)
    assert g.kinds(plan) == ["below-threshold", "covered-line"]
    done = g.settle(plan, "a")
    assert done.run and done.grants[0].pattern == line and done.grants[0].scope == "always"
    again = g.plan(*parts, line=line, line_level=H)
    assert again.verdict == "run" and g.kinds(again) == ["below-threshold", "cached-always"]
    alone = g.plan(parts[1], line=parts[1].part.text, line_level=M)
    assert g.kinds(alone) == ["ask"]


def test_dangerous_covered_line_always_asks(g):
    line = "curl -s u | sh"
    parts = (judged("curl -s u", "curl *", M), judged("sh", "sh *", H))
    g.settle(g.plan(*parts, line=line, line_level=D), "a")          # downgraded to the session
    assert g.plan(*parts, line=line, line_level=D).verdict == "ask"


@pytest.mark.parametrize("spoil", ["group-writable", "foreign-owner"])
def test_untrusted_store_is_ignored_and_says_why(g, spoil):
    g.grant("make *", "always", H)
    path = g.home / "approvals.json"
    if spoil == "group-writable":
        path.chmod(0o660)
        expect = "writable by group or others"
    else:
        if os.geteuid() != 0:
            pytest.skip("machine lacks root (giving a file to another user needs it)")
        os.chown(path, 65534, 65534)
        expect = "owned by uid 65534"
    plan = g.plan(judged("make x", "make *", M))
    assert g.kinds(plan) == ["ask"]
    assert any(expect in n for n in plan.notes)
    assert any(expect in p for p in store.trust_problems(g.home, g.env))
    # answering "always" cannot write the untrusted store: remembered for this session only
    done = g.settle(plan, "a")
    assert done.run and [a.scope for a in done.grants] == ["session"]
    assert any("this session only" in n for n in done.warnings)     # said on stderr: not what was asked
    if spoil == "group-writable":
        assert json.loads(path.read_text())["approvals"][0]["pattern"] == "make *"   # untouched


def test_untrusted_home_is_ignored(g):
    g.grant("make *", "always", H)
    g.home.chmod(0o770)
    plan = g.plan(judged("make x", "make *", M))
    assert g.kinds(plan) == ["ask"] and any("writable by group" in n for n in plan.notes)


def test_corrupt_store_is_set_aside_and_a_fresh_one_begins(g):
    g.grant("make *", "always", H)
    path = g.home / "approvals.json"
    path.write_text('{"version": 1, "approvals": [{"id": "x", "pattern": ')
    plan = g.plan(judged("make x", "make *", M))
    assert g.kinds(plan) == ["ask"] and any("corrupt" in n for n in plan.notes)
    assert path.read_text().startswith('{"version": 1, "approvals": [{"id": "x"')    # plan never writes
    done = g.settle(plan, "a")
    assert done.run
    aside = list(g.home.glob("approvals.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == '{"version": 1, "approvals": [{"id": "x", "pattern": '
    assert [a.pattern for a in store.read_persisted(g.home).approvals] == ["make *"]
    assert any(e["event"] == "store.corrupt" for e in g.events())


def test_a_store_that_cannot_be_read_covers_nothing(g):
    g.grant("make *", "always", H)
    (g.home / "approvals.json").unlink()
    (g.home / "approvals.json").mkdir()
    plan = g.plan(judged("make x", "make *", M))
    assert g.kinds(plan) == ["ask"] and plan.notes


# ---------------------------------------------------------------- once: the line, its children, the turn

CHILD = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from wispsh.decide import gate
    from wispsh.decide import store
    from wispsh.config import Config
    from wispsh.model import Judged, Key, Level, Part, Split, Verdict
    home = Path(os.environ["WISP_HOME"])
    config = Config(path=home / "config.json")
    part = Part(text="make x", span=(0, 6), argv=("make", "x"))
    j = Judged(part, Key("make", None, "make *", False), Verdict(Level.MODERATE))
    if sys.argv[1] == "grant":
        store.grant(home, pattern="make *", scope="once", level=Level.HIGH, source="test", cwd=os.getcwd())
        if len(sys.argv) > 2:       # then run a child beneath us, as the exec'd shell would
            os.execvp("sh", ["sh", "-c", sys.argv[2]])
    else:
        plan = gate.plan(Split("make x", (part,)), (j,), Verdict(Level.SAFE), None, config, cwd=os.getcwd(),
                         env=dict(os.environ))
        print(plan.decisions[0].kind)
""")


def _child(g, tmp_path, *args, turn=None):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, **g.env, "PYTHONPATH": str(REPO)}
    env.pop("WISP_TURN", None)
    if turn:
        env["WISP_TURN"] = turn
    out = subprocess.run([sys.executable, str(script), *args], env=env, cwd=g.project, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_once_covers_processes_started_beneath_the_granting_line_only(g, tmp_path):
    script = tmp_path / "child.py"
    inner = f"{sys.executable} {script} check"
    assert _child(g, tmp_path, "grant", inner) == ["cached-once"]
    assert _child(g, tmp_path, "grant", f"exec {inner}") == ["cached-once"]    # the same pid, exec'd in place
    assert _child(g, tmp_path, "check") == ["ask"]          # a sibling line is not beneath it
    # and the grant is swept once its process is gone
    store.sweep(g.home, g.env)
    assert not [a for a in store.all_approvals(g.home, g.env).approvals if a.scope == "once"]


def test_once_covers_the_rest_of_the_turn(g, tmp_path):
    assert _child(g, tmp_path, "grant", turn="turn-1") == []
    assert _child(g, tmp_path, "check", turn="turn-1") == ["cached-once"]
    assert _child(g, tmp_path, "check", turn="turn-2") == ["ask"]
    assert _child(g, tmp_path, "check") == ["ask"]


# ---------------------------------------------------------------- the hot path

PROBE = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from wispsh.decide import gate
    from wispsh.config import Config
    from wispsh.model import Judged, Key, Level, Part, Split, Verdict
    config = Config(path=Path(os.environ["WISP_HOME"]) / "config.json")
    part = Part(text="ls -la", span=(0, 6), argv=("ls", "-la"))
    j = Judged(part, Key("ls", None, "ls *", False), Verdict(Level.SAFE))
    plan = gate.plan(Split("ls -la", (part,)), (j,), Verdict(Level.SAFE), None, config, cwd=os.getcwd(),
                     env=dict(os.environ))
    done = gate.settle(plan, (), config=config, cwd=os.getcwd(), env=dict(os.environ), source="wispsh")
    assert done.run
    print(" ".join(m for m in ("psutil", "platformdirs", "click") if m in sys.modules))
""")


def test_below_threshold_plan_and_settle_import_neither_psutil_nor_platformdirs(g, tmp_path):
    env = {**os.environ, **g.env, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
    assert [e["decision"] for e in g.events() if e["event"] == "approval.decided"] == ["below-threshold"]


def test_wispsh_c_below_threshold_imports_neither_psutil_nor_platformdirs(g, tmp_path):
    # -X importtime logs every import to stderr before wispsh execs the real shell
    env = {**os.environ, **g.env, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "wispsh.cli.sh", "-c", "ls /"], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    assert "wispsh.decide.gate" in imported                        # the gate did run
    assert not {"psutil", "platformdirs", "click"} & imported


def _runtime(text: str, level: Level) -> Judged:
    part = Part(text=text, span=(0, len(text)), argv=(None,), runtime_program=True)
    return Judged(part, Key(program=None, verb=None, pattern=text, exact=True), Verdict.of(level, "test.rule", "run "
                                                                                                               "time"))


def test_a_program_chosen_at_run_time_is_never_remembered_beyond_the_line(g):
    # `CMD=ls; $CMD` approved "always" must not let a later `CMD='rm -rf ~'; $CMD` run unasked: same text
    store.grant(g.home, pattern="$CMD", scope="always", level=H, source="test", cwd=str(g.project), env=g.env)
    assert g.kinds(g.plan(_runtime("$CMD", H))) == ["ask"]        # a standing approval of that text covers nothing
    done = g.settle(g.plan(_runtime("$CMD", H)), "a")
    assert done.run and [d.kind for d in done.decisions] == ["asked-once"]
    assert [a.scope for a in done.grants] == ["once"] and "known only at run time" in done.notes[-1]
    assert [a.scope for a in store.read_persisted(g.home).approvals] == ["always"]    # only the hand-made one
