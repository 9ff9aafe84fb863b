"""The team corpus's benign daily-work lines (tests/corpus/*.jsonl rows with max_level) under a real `wisp run`
with the walls on (issue 28): judged through the supervisor with and without restore points (`--no-restore`:
the threshold as before), then the contained ones run for real (every program they name a stub that does
nothing, so no network or install happens) and each leaves a restore point.

- a line whose every part the walls contain runs without a question, and leaves a point;
- a part rated high or dangerous is asked as before;
- a moderate part still asked says why it is not contained (its effect, or what it would delete).
The share asked before and after is printed (the issue's figure). WISP_CORPUS_ALL=1 judges every line; the
unit suite a seeded sample."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from run_support import REPO, needs_bwrap, needs_userns, person, wisp_run

pytestmark = [needs_bwrap, needs_userns]

SAMPLE = None if os.environ.get("WISP_CORPUS_ALL") else 30
ORDER = ("safe", "low", "moderate", "high", "dangerous")


def benign_lines() -> list[str]:
    found = []
    for path in sorted((REPO / "tests" / "corpus").glob("*.jsonl")):
        for row in path.read_text().splitlines():
            if row.strip():
                item = json.loads(row)
                if "max_level" in item:
                    found.append(item["line"])
    lines = list(dict.fromkeys(found))
    if SAMPLE is not None:
        lines = random.Random(28).sample(lines, SAMPLE)
    return lines


DRIVER = r"""
import json, os, stat, subprocess, sys
lines = json.load(open(sys.argv[1]))
SHELLS = ("sh", "bash", "dash", "zsh", "ksh", "env", "command", "exec", "builtin")
out = {}
for line in lines:
    r = subprocess.run(["wispsh", "--explain", "--json", "-c", line], capture_output=True, text=True)
    try:
        out[line] = json.loads(r.stdout)
    except ValueError:
        out[line] = {"verdict": "error", "stderr": r.stderr[-300:]}
if sys.argv[2] == "run":
    stubs = os.path.join(os.getcwd(), ".stubs")        # (ignored) in the project: the supervisor reads scripts
    os.makedirs(stubs, exist_ok=True)
    for line, plan in out.items():
        if plan.get("verdict") != "run":
            continue
        for part in plan["parts"]:
            name = part.get("program")
            if name and "/" not in name and name.isprintable() and name not in SHELLS:
                path = os.path.join(stubs, name)
                if not os.path.exists(path):
                    with open(path, "w") as fh:
                        fh.write("#!/bin/sh\nexit 0\n")
                    os.chmod(path, 0o755)
    env = dict(os.environ, PATH=stubs + ":" + os.environ["PATH"])
    for line, plan in out.items():
        if plan.get("verdict") == "run":
            try:                    # (a wrapper the stubs leave real may run on: `watch -n 5 'git status'`)
                r = subprocess.run(["/bin/bash", "-c", line], env=env, capture_output=True, text=True, timeout=20,
                                   stdin=subprocess.DEVNULL)
                plan["ran_status"] = r.returncode
            except subprocess.TimeoutExpired:
                plan["ran_status"] = "timeout"
print(json.dumps(out))
"""


def judged(tmp_path, name, lines, mode, options=()):
    (tmp_path / name).mkdir()
    env = person(tmp_path / name)
    work = tmp_path / name / "home" / "proj"
    (work / "src").mkdir(parents=True)
    (work / ".gitignore").write_text("build/\nnode_modules/\n*.log\n.stubs/\n")
    (work / "build").mkdir()
    (work / "build" / "out.o").write_text("o")
    (work / "src" / "app.py").write_text("print(1)\n")
    os.system(f"git init -q {work}")
    spec = tmp_path / name / "lines.json"
    spec.write_text(json.dumps(lines))
    done = wisp_run(env, DRIVER, work, str(spec), mode, options=options, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), env, work


def worst(plan) -> str:
    levels = [p["level"] for p in plan.get("parts", ())] + [plan.get("line_level", "safe")]
    return max(levels, key=ORDER.index)


def test_benign_daily_lines_contained_run_unasked_with_a_point_high_ones_are_still_asked(tmp_path, capsys):
    lines = benign_lines()
    before, _, _ = judged(tmp_path, "before", lines, "explain", options=("--no-restore",))
    after, env, work = judged(tmp_path, "after", lines, "run")
    asked_before = [line for line in lines if before[line]["verdict"] != "run"]
    asked_after = [line for line in lines if after[line]["verdict"] != "run"]
    for line in lines:
        b, a = before[line], after[line]
        assert a["verdict"] != "error", (line, a)
        if worst(a) in ("high", "dangerous") and any(p["level"] in ("high", "dangerous") and p["decision"] == "ask"
                                                    for p in b["parts"]):
            assert a["verdict"] == "ask", line                       # high and dangerous: asked as before
        for part in a["parts"]:
            if part["decision"] == "contained":
                assert part["level"] == "moderate", (line, part)
        if a["verdict"] == "ask" and worst(a) == "moderate" and not a.get("covered_line"):
            assert any(n.startswith("not contained:") for n in a["notes"]) or \
                any(p["decision"] == "ask" and p["level"] != "moderate" for p in a["parts"]), (line, a["notes"])
        if b["verdict"] == "run":
            assert a["verdict"] == "run", line                       # nothing newly asked
    from wispsh.restore.journal import Journal, project_dir

    records = Journal(project_dir(env["WISP_HOME"], str(work)), str(work)).records()
    ran = [r for r in records if r.get("type") == "line"]
    contained = [line for line in lines if after[line]["verdict"] == "run"
                 and any(p["decision"] == "contained" for p in after[line]["parts"])]
    assert contained, "no line was contained"
    by_line = {r["line"]: r for r in ran}
    for line in contained:
        row = by_line.get(" ".join(line.split())[:300]) or next(
            (r for r in ran if r["line"].startswith(" ".join(line.split())[:60])), None)
        assert row is not None and row["decision"] == "contained" and row["point"], (line, row, after[line].get("ran_status"), [r["line"] for r in ran][:10])
    with capsys.disabled():
        print(f"\nbenign daily-work lines: {len(lines)}; asked before {len(asked_before)} "
              f"({100 * len(asked_before) / len(lines):.0f}%), after {len(asked_after)} "
              f"({100 * len(asked_after) / len(lines):.0f}%); contained {len(contained)}")
