#!/usr/bin/env python3
"""The store under a crowd: ADDS concurrent `wisp approvals add` and REVOKES concurrent `wisp approvals revoke`
(of approvals stored beforehand), all started at once against one wisp home, as real processes.

Prints how many failed (each failure's first line), the wall time, and the latency percentiles of each
command (start to exit). Then checks the result: every add stored exactly once, every revoked id gone, the
file valid, and the audit whole (one JSON event a line, an `approval.added` per add).

A command's latency from its start is mostly Python starting 250 times on the machine's cores. The store's own
part is measured by the second run: as many processes, each with wispsh loaded, held at a barrier and let go
at the same instant; each then does what the command does (store.add or store.revoke, then its audit event)
and reports how long that took: the lock's queue and the critical section, nothing else.

usage: bench_store.py [--adds 200] [--revokes 50] [--wisp PATH] [--home DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def start(argv, env):
    return time.perf_counter(), subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE, text=True, start_new_session=True)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(adds: int, revokes: int, wisp: str, home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    env.update(WISP_HOME=str(home), XDG_RUNTIME_DIR=str(home.parent / "run"))
    os.makedirs(home.parent / "run", mode=0o700, exist_ok=True)
    old = []
    for i in range(revokes):                    # stored beforehand, one by one: what the revokes remove
        done = subprocess.run([wisp, "approvals", "add", f"old{i} *", "--scope", "always", "--json"], env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        old.append(json.loads(done.stdout)["added"]["id"])
    jobs = [[wisp, "approvals", "add", f"tool{i} *", "--scope", "always"] for i in range(adds)]
    jobs += [[wisp, "approvals", "revoke", ident] for ident in old]
    order = list(range(len(jobs)))
    __import__("random").Random(7).shuffle(order)
    began = time.perf_counter()
    running = [(jobs[i], *start(jobs[i], env)) for i in order]
    latencies = {"add": [], "revoke": []}
    failures = []
    for argv, t0, proc in running:
        out, err = proc.communicate()
        latencies[argv[2]].append(time.perf_counter() - t0)
        if proc.returncode != 0:
            failures.append(f"{' '.join(argv[1:4])}: exit {proc.returncode}: {err.strip().splitlines()[:1]}")
    wall = time.perf_counter() - began
    stored = json.loads((home / "approvals.json").read_text())["approvals"]
    patterns = [a["pattern"] for a in stored]
    events = [json.loads(row) for row in (home / "audit.jsonl").read_text().splitlines()]
    added_events = [e for e in events if e["event"] == "approval.added" and e["pattern"].startswith("tool")]
    return {
        "failures": failures, "wall": wall, "latencies": latencies,
        "lost": sorted({f"tool{i} *" for i in range(adds)} - set(patterns)),
        "twice": sorted({p for p in patterns if patterns.count(p) > 1}),
        "not revoked": sorted(set(old) & {a["id"] for a in stored}),
        "audit added": len(added_events), "audit revoked": sum(e["event"] == "approval.revoked" for e in events),
    }


AT_ONCE = r"""
import json, os, sys, time
from pathlib import Path
from wispsh.decide import audit, store
from wispsh.model import Level
home, barrier, kind, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
store.new_id(), audit.redact("x"), json.dumps({})      # what a first call imports, imported before the barrier
gate = os.open(barrier, os.O_RDONLY)                   # the parent holds the writing end open
print("ready", flush=True)
os.read(gate, 1)                                       # EOF for all at once, when the parent closes it
t0 = time.perf_counter()
if kind == "add":
    made, _ = store.add(home, pattern=what, scope="always", level=Level.MODERATE, directory=None, source="bench",
                        persist_days=30)
    t1 = time.perf_counter()
    audit.append(home, [audit.event("approval.added", pattern=what, approval_id=made.id, decision="added-by-hand")])
else:
    assert store.revoke(home, what)
    t1 = time.perf_counter()
    audit.append(home, [audit.event("approval.revoked", approval_id=what, decision="revoked")])
t2 = time.perf_counter()
print(json.dumps({"kind": kind, "seconds": t2 - t0, "store": t1 - t0, "audit": t2 - t1}), flush=True)
"""


def run_at_once(adds: int, revokes: int, home: Path) -> dict:
    """The store's part alone: every process at the barrier first, then let go together."""
    from wispsh.decide import store
    from wispsh.model import Level

    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    old = [store.add(home, pattern=f"old{i} *", scope="always", level=Level.MODERATE, directory=None, source="bench",
                     persist_days=30)[0].id for i in range(revokes)]
    barrier = home.parent / "barrier"
    os.mkfifo(barrier)
    hold = os.open(barrier, os.O_RDWR)
    jobs = [("add", f"tool{i} *") for i in range(adds)] + [("revoke", ident) for ident in old]
    procs = [subprocess.Popen([sys.executable, "-c", AT_ONCE, str(home), str(barrier), kind, what],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for kind, what in jobs]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    began = time.perf_counter()
    os.close(hold)                                   # let them go
    latencies = {"add": [], "revoke": [], "(store)": [], "(audit)": []}
    failures = []
    for proc, (kind, what) in zip(procs, jobs):
        out, err = proc.communicate()
        if proc.returncode:
            failures.append(f"{kind} {what}: {err.strip().splitlines()[-1:]}")
        else:
            said = json.loads(out)
            latencies[kind].append(said["seconds"])
            latencies["(store)"].append(said["store"])
            latencies["(audit)"].append(said["audit"])
    wall = time.perf_counter() - began
    stored = json.loads((home / "approvals.json").read_text())["approvals"]
    patterns = [a["pattern"] for a in stored]
    return {"failures": failures, "wall": wall, "latencies": latencies,
            "lost": sorted({f"tool{i} *" for i in range(adds)} - set(patterns)),
            "twice": sorted({p for p in patterns if patterns.count(p) > 1}),
            "not revoked": sorted(set(old) & {a["id"] for a in stored})}


def report(title: str, got: dict) -> None:
    print(f"{title}: {len(got['failures'])} failed, wall {got['wall']:.1f} s")
    for kind, values in got["latencies"].items():
        if values:
            print(f"  {kind:7} n={len(values)} p50 {statistics.median(values):.2f} s  p90 {percentile(values, 90):.2f} s"
                  f"  p99 {percentile(values, 99):.2f} s  max {max(values):.2f} s")
    for line in got["failures"][:10]:
        print("  FAILED", line)
    print(f"  lost {len(got['lost'])}, stored twice {len(got['twice'])}, not revoked {len(got['not revoked'])}"
          + (f", audit: {got['audit added']} added / {got['audit revoked']} revoked events" if "audit added" in got
             else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--adds", type=int, default=200)
    parser.add_argument("--revokes", type=int, default=50)
    default = os.path.join(os.path.dirname(sys.executable), "wisp")
    parser.add_argument("--wisp", default=default if os.path.exists(default) else shutil.which("wisp"))
    parser.add_argument("--home")
    args = parser.parse_args()
    root = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="bench-store-"))
    home = root / "home"
    got = run(args.adds, args.revokes, args.wisp, home)
    report(f"{args.adds} `wisp approvals add` + {args.revokes} `wisp approvals revoke` started at once", got)
    alone = run_at_once(args.adds, args.revokes, root / "at-once" / "home")
    report("the store's part alone (loaded processes let go at once: lock queue and critical section)", alone)
    if not args.home:
        shutil.rmtree(root, ignore_errors=True)
    bad = [g for g in (got, alone) if g["failures"] or g["lost"] or g["twice"] or g["not revoked"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
