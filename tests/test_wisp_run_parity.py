"""One code path, two callers: the `wisp run` supervisor judges exactly as wispsh in-process does.

Every line of the corpora (tests/corpus/*.jsonl and the shared sample) is sent over the real socket from inside
a real namespace, twice: as `/bin/bash -c LINE` through the launcher's request (the verdict: exec with this
argv, or refuse with this line) and as `wispsh --explain --json -c LINE` (the whole plan). The same argv, env
and directory are then decided in-process by invoke.decide, as `wispsh` does. Plans and outcomes must match.
A standing approval makes some parts `cached-always`, so the store is read on both sides.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
from pathlib import Path

from run_support import PY, REPO, WISP, needs_bwrap, needs_userns, person, write_config
from tiers import scaled
from wispsh import invoke, realshell

pytestmark = [needs_bwrap, needs_userns]

SHARED = [Path("/work/shared/corpus/levels-sample.jsonl"), REPO.parent / "shared" / "corpus" / "levels-sample.jsonl"]


def corpus_lines() -> list[str]:
    files = [next((p for p in SHARED if p.exists()), None)] + sorted(Path(p) for p in glob.glob(
        str(REPO / "tests" / "corpus" / "*.jsonl")))
    lines = []
    for path in filter(None, files):
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                lines.append(json.loads(raw)["line"])
    return list(dict.fromkeys(lines))


def in_process(argv: list[str], env: dict, cwd: str):
    def find(invocation, config, env):
        if argv[0] == "/bin/bash":           # the shell the launcher was bound over, as the supervisor finds it
            return os.path.realpath(argv[0])
        return realshell.find_shell(invocation.shell_name, config, env, invocation.argv[0])

    return invoke.decide(argv, env=env, cwd=cwd, stdin_is_tty=False, read_stdin=lambda: b"", find_shell=find,
                         answers=lambda plan, **kw: ())


def as_wire(outcome) -> list[str]:
    """An outcome as the supervisor puts it on the wire (the exec path aside: inside it is the private copy)."""
    if outcome.shell is None:
        return ["exit", str(outcome.status), outcome.stdout, outcome.stderr]
    env = [f"{k}={v}" for k, v in outcome.env_add.items()] + list(outcome.env_drop)
    return ["exec", "<shell>", str(len(outcome.argv)), *outcome.argv, str(len(env)), *env, "-", outcome.stderr]


def test_the_supervisor_and_in_process_judge_the_corpus_alike(tmp_path):
    lines = corpus_lines()
    assert len(lines) > 900
    # the unit suite: every fifth line, and every line a standing approval may cover (cached-always on both
    # sides); the long stage (WISP_LONG=1): all of them
    stride = scaled(5, 1)
    lines = [line for k, line in enumerate(lines) if k % stride == 0 or "npm test" in line or "git push" in line]
    env = person(tmp_path)
    write_config(env, {"approval": {"threshold": "moderate"}})
    subprocess.run([WISP, "approvals", "add", "npm test *", "--scope", "always"], env=env, check=True,
                   capture_output=True)
    subprocess.run([WISP, "approvals", "add", "git push *", "--scope", "always", "--level", "high"], env=env,
                   check=True, capture_output=True)
    work = tmp_path / "project"
    work.mkdir()
    (tmp_path / "lines.json").write_text(json.dumps(lines))
    results = tmp_path / "results"          # outside the project: writable inside only by --allow-write
    results.mkdir()
    done = subprocess.run([WISP, "run", "--no-restore", "--allow-write", str(results), "--", PY,
                           str(REPO / "tests" / "run_parity_inside.py"),
                           str(tmp_path / "lines.json"), str(results / "out.jsonl"), str(results / "env.json")],
                          cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    inside_env = json.loads((results / "env.json").read_text())
    answers = [json.loads(row) for row in (results / "out.jsonl").read_text().splitlines()]
    assert [a["line"] for a in answers] == lines

    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(inside_env)            # the in-process gate reads its wisp home from its own environment
    try:
        mismatches = []
        kinds = {"exec": 0, "exit": 0, "cached": 0}
        for got in answers:
            line = got["line"]
            verdict = in_process(["/bin/bash", "-c", line], dict(inside_env), str(work))
            mine = as_wire(verdict)
            theirs = got["verdict"][:1] + ["<shell>"] + got["verdict"][2:] if got["verdict"][0] == "exec" \
                else got["verdict"]
            if mine != theirs:
                mismatches.append((line, "verdict", mine, theirs))
            kinds[mine[0]] += 1
            plan = in_process(["wispsh", "--explain", "--json", "-c", line], dict(inside_env), str(work))
            status, out = got["explain"][1], got["explain"][2]
            if (str(plan.status), json.loads(plan.stdout)) != (status, json.loads(out)):
                mismatches.append((line, "explain", plan.stdout[:300], out[:300]))
            kinds["cached"] += '"cached-always"' in out
    finally:
        os.environ.clear()
        os.environ.update(old)
    assert not mismatches, mismatches[:5]
    assert kinds["exec"] > 100 and kinds["exit"] > 100 and kinds["cached"] > 0, kinds
