"""`wisp approvals` and `wisp audit` through the real console scripts, against a real temporary WISP_HOME;
and (once the pipeline is in) the gate's rules through `wispsh --explain --json` and `wispsh --yes -c`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wispsh.decide import audit, store
from wispsh.model import Level

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> list[str]:
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"wisp": "wispsh.cli.wisp", "wispsh": "wispsh.cli.sh"}[name]
    entry = "cli" if name == "wisp" else "main"
    return [sys.executable, "-c", f"import sys; from {module} import {entry}; sys.exit({entry}())"]


class Home:
    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.home = tmp_path / "home"
        self.project = tmp_path / "proj"
        (self.project / ".git").mkdir(parents=True)
        self.env = {k: v for k, v in os.environ.items() if k not in ("WISP_SESSION", "WISP_TURN")}
        self.env.update(WISP_HOME=str(self.home), XDG_RUNTIME_DIR=str(tmp_path / "run"), PYTHONPATH=str(REPO))

    def run(self, name: str, *args: str, ok: bool = True, cwd: Path | None = None) -> subprocess.CompletedProcess:
        # a session of its own: no terminal of the person running the suite is ever asked
        out = subprocess.run(_tool(name) + list(args), env=self.env, cwd=cwd or self.project, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL, start_new_session=True)
        if ok:
            assert out.returncode == 0, out.stderr
        return out

    def wisp(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
        return self.run("wisp", *args, ok=ok)


@pytest.fixture
def h(tmp_path):
    return Home(tmp_path)


def added(h: Home, *args: str) -> str:
    """`wisp approvals add ARGS --json`: the id it stored."""
    return json.loads(h.wisp("approvals", "add", *args, "--json").stdout)["added"]["id"]


def test_add_list_revoke_clear_round_trip(h):
    assert h.wisp("approvals").stdout.strip() == "no standing approvals"
    always = added(h, "git commit *", "--scope", "always", "--level", "high")
    said = h.wisp("approvals", "add", "make *", "--scope", "project").stdout.strip()
    project = said.split()[1].rstrip(":")
    assert said == (f"added {project}: 'make *' (project {h.project.resolve()}, parts up to moderate, until "
                    f"{json.loads(h.wisp('approvals', '--json').stdout)['approvals'][1]['expires']})")
    sub = h.project / "sub"
    sub.mkdir()
    other = added(h, "npm *", "--scope", "project", "--dir", str(sub))
    table = h.wisp("approvals", "list").stdout
    assert table.splitlines()[0].split() == ["ID", "SCOPE", "LEVEL", "EXPIRES", "PATTERN", "DIRECTORY", "EFFECTS"]
    assert "(ordinary)" in table        # added by hand: no record of effects, so ordinary work only
    assert always in table and "git commit *" in table and str(h.project.resolve()) in table
    listed = json.loads(h.wisp("approvals", "--json").stdout)["approvals"]
    assert [(a["id"], a["pattern"], a["scope"], a["level"], a["directory"]) for a in listed] == [
        (always, "git commit *", "always", "high", None),
        (project, "make *", "project", "moderate", str(h.project.resolve())),
        (other, "npm *", "project", "moderate", str(h.project.resolve()))]     # --dir names its project
    assert all(a["source"] == "wisp approvals add" and a["expires"] for a in listed)

    assert h.wisp("approvals", "revoke", project).stdout.startswith(f"revoked {project}: 'make *'")
    missing = h.wisp("approvals", "revoke", project, ok=False)
    assert missing.returncode == 1 and f"no approval whose id starts with '{project}'" in missing.stderr
    assert "cleared 1 approval" in h.wisp("approvals", "clear", "--scope", "always", "--yes").stdout
    assert [a["id"] for a in json.loads(h.wisp("approvals", "list", "--json").stdout)["approvals"]] == [other]
    assert "cleared 1 approval" in h.wisp("approvals", "clear", "--yes").stdout
    kinds = [e["event"] for e in audit.read(h.home)]
    assert kinds == ["approval.added"] * 3 + ["approval.revoked", "approval.cleared", "approval.cleared"]


def test_add_refuses_what_must_not_be_stored(h):
    dangerous = h.wisp("approvals", "add", "rm *", "--scope", "always", "--level", "dangerous", ok=False)
    assert dangerous.returncode == 1 and "never persisted" in dangerous.stderr
    session = h.wisp("approvals", "add", "rm *", "--scope", "session", ok=False)
    assert session.returncode == 2
    assert h.wisp("approvals", "add", "rm *", "--scope", "always", "--dir", str(h.project), ok=False).returncode == 1
    assert not (h.home / "approvals.json").exists()
    # without --scope: this project, the narrowest lasting scope
    made = json.loads(h.wisp("approvals", "add", "rm *", "--json").stdout)["added"]
    assert (made["scope"], made["directory"], made["level"]) == ("project", str(h.project.resolve()), "moderate")


def test_add_says_what_it_stored_refuses_duplicates_and_raises_a_lower_level(h):
    first = added(h, "rm *", "--level", "moderate")
    again = h.wisp("approvals", "add", "rm *", "--scope", "project", ok=False)
    assert again.returncode == 1 and again.stderr.count("\n") == 1
    assert f"'rm *' (project {h.project.resolve()}, parts up to moderate" in again.stderr
    assert f"is already approved as {first}; nothing added" in again.stderr
    lower = h.wisp("approvals", "add", "rm *", "--level", "low", ok=False)           # covered already
    assert lower.returncode == 1 and "already approved" in lower.stderr
    said = h.wisp("approvals", "add", "rm *", "--level", "high").stdout.splitlines()
    assert said[0].startswith("added ") and "parts up to high" in said[0]
    assert said[1] == f"replaced {first}, which covered parts up to moderate only"
    listed = json.loads(h.wisp("approvals", "--json").stdout)["approvals"]
    assert [(a["pattern"], a["level"]) for a in listed] == [("rm *", "high")]
    assert added(h, "rm *", "--scope", "always") != first                           # another scope: no duplicate
    dup = json.loads(h.wisp("approvals", "add", "rm *", "--scope", "always", "--json", ok=False).stdout)
    assert dup["added"] is None and dup["duplicate"]["scope"] == "always"


def test_the_refusals_advice_works_when_followed(h):
    import re
    import shlex

    (h.project / "build").mkdir()
    refused = h.run("wispsh", "-c", "rm -rf build", ok=False)
    assert refused.returncode == 126 and refused.stderr.rstrip("\n").endswith("`"), refused.stderr
    advice = re.findall(r"`([^`]+)`", refused.stderr)[-1]            # the last advice: the broadest offered
    assert advice == f"wisp approvals add 'rm *' --level high --dir {h.project}"
    h.wisp("approvals", "add", "rm *")                                    # an earlier, too low approval...
    assert h.run("wispsh", "-c", "rm -rf build", ok=False).returncode == 126
    words = shlex.split(advice)                # ...and the advice, as written, from the person's own terminal
    h.run(words[0], *words[1:], cwd=h.tmp)
    assert h.run("wispsh", "-c", "rm -rf build").returncode == 0 and not (h.project / "build").exists()


def test_the_refusal_offers_no_approval_that_cannot_be_stored(h):
    import re

    danger = h.run("wispsh", "-c", "git push --force origin main", ok=False)
    assert danger.returncode == 126 and "approvals add" not in danger.stderr
    assert re.findall(r"`([^`]+)`", danger.stderr) == ["wisp watch"]
    h.home.mkdir(mode=0o700, exist_ok=True)
    (h.home / "approvals.json").write_text('{"version": 1, "approvals": []}')
    (h.home / "approvals.json").chmod(0o666)                          # not trusted: an add would fail
    refused = h.run("wispsh", "-c", "rm -rf build", ok=False)
    assert "approvals add" not in refused.stderr and refused.stderr.rstrip().endswith("`wisp doctor`")
    assert h.wisp("approvals", "add", "rm *", "--level", "high", ok=False).returncode == 1    # as it said


def test_revoke_takes_a_unique_prefix(h):
    ids = [added(h, f"tool{i} *") for i in range(30)]
    target = ids[0]
    prefix = next(target[:n] for n in range(1, 13) if sum(i.startswith(target[:n]) for i in ids) == 1)
    said = h.wisp("approvals", "revoke", prefix).stdout
    assert said.startswith(f"revoked {target}: 'tool0 *'")
    shared = next((a[:n] for a in ids[1:] for b in ids[1:] if a != b for n in (1,) if a[:1] == b[:1]), None)
    if shared:
        many = h.wisp("approvals", "revoke", shared, ok=False)
        assert many.returncode == 1 and "give more of the id" in many.stderr
    empty = h.wisp("approvals", "revoke", "", ok=False)
    assert empty.returncode == 1 and "no approval" in empty.stderr
    assert len(json.loads(h.wisp("approvals", "--json").stdout)["approvals"]) == 29
    gone = json.loads(h.wisp("approvals", "revoke", ids[1], "--json").stdout)["revoked"]
    assert gone["id"] == ids[1] and gone["pattern"] == "tool1 *"


def test_clear_confirms_unless_yes(h):
    added(h, "make *")
    refused = h.wisp("approvals", "clear", ok=False)                      # no terminal to ask on
    assert refused.returncode == 1 and "add --yes to confirm" in refused.stderr
    assert len(json.loads(h.wisp("approvals", "--json").stdout)["approvals"]) == 1
    import pexpect

    child = pexpect.spawn(_tool("wisp")[0], ["approvals", "clear"], env=h.env, cwd=str(h.project),
                          encoding="utf-8", timeout=30)
    child.expect_exact("remove 1 approval? [y/N]")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and len(json.loads(h.wisp("approvals", "--json").stdout)["approvals"]) == 1
    child = pexpect.spawn(_tool("wisp")[0], ["approvals", "clear"], env=h.env, cwd=str(h.project),
                          encoding="utf-8", timeout=30)
    child.expect_exact("remove 1 approval? [y/N]")
    child.sendline("y")
    child.expect_exact("cleared 1 approval")
    child.expect(pexpect.EOF)
    assert json.loads(h.wisp("approvals", "clear", "--json").stdout) == {"version": 1, "cleared": 0, "scope": None}


def test_untrusted_store_is_reported_and_never_written(h):
    made = added(h, "make *", "--scope", "always")
    path = h.home / "approvals.json"
    path.chmod(0o666)
    before = path.read_text()
    listed = h.wisp("approvals", "list")
    assert "writable by group or others" in listed.stderr and made not in listed.stdout
    refused = h.wisp("approvals", "add", "npm *", "--scope", "always", ok=False)
    assert refused.returncode == 1 and "not trusted" in refused.stderr
    assert path.read_text() == before


def test_session_grants_are_listed_and_cleared(h):
    env = {**h.env, "WISP_SESSION": "cli-test"}
    made = store.grant(h.home, pattern="npm *", scope="session", level=Level.MODERATE, source="t",
                       cwd=str(h.project), env=env)
    listed = json.loads(h.wisp("approvals", "list", "--json").stdout)["approvals"]
    assert [(a["id"], a["scope"]) for a in listed] == [(made.id, "session")]
    assert "cleared 1 approval" in h.wisp("approvals", "clear", "--scope", "session", "--yes").stdout
    assert json.loads(h.wisp("approvals", "--json").stdout)["approvals"] == []


def test_audit_tail_json_and_follow(h):
    h.home.mkdir(mode=0o700)
    audit.append(h.home, [audit.event("classification", command=f"cmd {i}", level="low") for i in range(5)])
    text = h.wisp("audit", "-n", "2").stdout.splitlines()
    assert len(text) == 2 and text[0].endswith("cmd 3") and "classification" in text[0]
    events = [json.loads(line) for line in h.wisp("audit", "--json").stdout.splitlines()]
    assert [e["command"] for e in events] == [f"cmd {i}" for i in range(5)]
    follower = subprocess.Popen(_tool("wisp") + ["audit", "--follow", "--json", "-n", "0"], env=h.env,
                                stdout=subprocess.PIPE, text=True)
    try:
        # appended until the follower has shown one (it may start after the first append)
        import select
        for i in range(100):
            audit.append(h.home, [audit.event("approval.decided", command=f"new {i}", decision="asked-once")])
            ready, _, _ = select.select([follower.stdout], [], [], 0.2)
            if ready:
                break
        shown = json.loads(follower.stdout.readline())
        assert shown["event"] == "approval.decided" and shown["command"].startswith("new ")
    finally:
        follower.terminate()
        follower.wait(timeout=10)


# ---------------------------------------------------------------- through the real gate


def _explain(h: Home, line: str, cwd: Path | None = None) -> dict:
    out = h.run("wispsh", "--explain", "--json", "-c", line, ok=False, cwd=cwd)
    assert out.returncode in (0, 1, 3), out.stderr
    return json.loads(out.stdout)


def _decisions(plan: dict) -> list[str]:
    return [p["decision"] for p in plan["parts"]]


def test_cli_git_push_star_never_covers_force_push_and_legacy_git_star_covers_commit(h):
    made = added(h, "git push *", "--scope", "always", "--level", "high")
    force = _explain(h, "git push --force origin main")
    assert force["parts"][0]["pattern"] == "git push *" and force["parts"][0]["level"] == "dangerous"
    assert _decisions(force) == ["ask"] and force["verdict"] == "ask"
    plain = _explain(h, "git push origin main")
    assert plain["parts"][0]["level"] == "high" and plain["parts"][0]["approval_id"] == made
    # `git *` added now means git with no verb (ADR 0027): it does not cover a commit
    h.wisp("approvals", "add", "git *", "--scope", "always", "--level", "high")
    commit = _explain(h, "git commit -m wip")
    assert commit["parts"][0]["level"] == "moderate" and _decisions(commit) == ["ask"]
    # an entry stored before ADR 0027 (no verbKeys mark) is the legacy key and covers any verb
    doc = json.loads((h.home / "approvals.json").read_text())
    doc["approvals"].append({"id": "pre-verb", "pattern": "git *", "scope": "always", "directory": None,
                             "level": "high", "source": "wispsh", "created": "2026-09-01T00:00:00Z",
                             "expires": "2099-01-01T00:00:00Z"})
    (h.home / "approvals.json").write_text(json.dumps(doc))
    commit = _explain(h, "git commit -m wip")
    assert _decisions(commit) == ["cached-legacy"] and commit["parts"][0]["approval_id"] == "pre-verb"


def test_cli_rm_levels_and_projects(h, tmp_path):
    h.wisp("approvals", "add", "rm *", "--scope", "project", "--level", "moderate")
    build = _explain(h, "rm -rf build")
    assert build["parts"][0]["level"] == "high" and _decisions(build) == ["ask"]
    h.wisp("approvals", "add", "rm *", "--scope", "project", "--level", "high")
    assert _decisions(_explain(h, "rm -rf build")) == ["cached-project"]
    home_rm = _explain(h, "rm -rf ~")
    assert home_rm["parts"][0]["level"] == "dangerous" and _decisions(home_rm) in (["ask"], ["denied"])
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".git").mkdir(parents=True)
    assert _decisions(_explain(h, "rm -rf build", cwd=elsewhere)) == ["ask"]
    assert not list(h.home.glob("grants*")) and len(audit.read(h.home)) == 2      # explain wrote nothing


def test_cli_yes_runs_once_and_audits(h):
    (h.project / "build").mkdir()
    out = h.run("wispsh", "--yes", "-c", "rm -rf build && echo done")
    assert out.stdout.strip() == "done" and not (h.project / "build").exists()
    decided = [e for e in audit.read(h.home) if e["event"] == "approval.decided"]
    assert ("rm -rf build", "asked-once") in [(e["command"], e["decision"]) for e in decided]
    assert all(e["entry"] == "--yes" for e in decided)


def test_cli_covered_line_asks_once_for_the_line(h):
    line = "curl -s http://127.0.0.1:9/install.sh | sh"      # port 9: refused at once, sh reads nothing
    plan = _explain(h, line)
    assert plan["covered_line"] and plan["verdict"] == "ask" and plan["line_level"] == "dangerous"
    assert _decisions(plan) == ["covered-line", "covered-line"]
    h.run("wispsh", "--yes", "-c", line)
    decided = [(e["command"], e["decision"]) for e in audit.read(h.home) if e["event"] == "approval.decided"]
    assert decided == [("curl -s http://127.0.0.1:9/install.sh", "covered-line"), ("sh", "covered-line"),
                       (line, "asked-once")]
