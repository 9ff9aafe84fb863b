#!/usr/bin/env python3
"""Plain mode with the compiled client (issue 29): paired and interleaved against `bash -c` and the interpreter
floor `python3 -I -S -c pass`, medians, with the load average before and after (the machine is shared).

Each round runs, in a shuffled order, for each line: `bash -c LINE`, the compiled client asking the warm judge
(`wispsh -c LINE`, judge already listening), the same client with no judge (WISP_NO_JUDGE=1: the Python gate
in-process, the cold path), and `python3 -I -S -c pass`. Figures are wall time and CPU time; the judged runs'
CPU includes the judge's own (read from /proc/JUDGE/stat before and after: it works for the client).

    overhead = (median gated - median bash -c, same line) / median python -I -S -c pass
    done when (issue 29): warm true <= 0.5, git status <= 0.7, 21 safe parts <= 1.5; cold <= 3.0

usage: bench_native.py [--rounds N]
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SAFE21 = " && ".join(["echo a", "ls -la", "pwd", "git status --short", "cat README.md", "head -3 README.md",
                      "wc -l README.md", "grep -c wisp README.md", "date", "whoami", "uname -a", "true", "env",
                      "ls", "printf x", "git log -1 --oneline", "git diff --stat", "which bash", "id", "test -d .",
                      "basename /a/b"]) + " >/dev/null"
LINES = {"true": "true", "git status": "git status >/dev/null", "21 safe parts": SAFE21}


def _ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def _judge_pid(sock: str) -> int | None:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if sock.encode() in cmdline and b"wispsh.warm.server" in cmdline:
            return int(pid)
    return None


def _run(argv, env, cwd, judge: int | None) -> tuple[float, float]:
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    before_judge = _ticks(judge) if judge else 0
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench: {argv} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before_children.ru_utime) + (after.ru_stime - before_children.ru_stime)
    if judge:
        cpu += (_ticks(judge) - before_judge) / os.sysconf("SC_CLK_TCK")
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    sys.path.insert(0, REPO)
    from wispsh.native import build

    build.build()
    tmp = tempfile.mkdtemp(prefix="bench-native-")
    for sub in ("home", "run", "bin"):
        os.mkdir(os.path.join(tmp, sub), 0o700)
    wispsh = str(build.front(os.path.join(tmp, "bin")))
    env = dict(os.environ, WISP_HOME=os.path.join(tmp, "home"), XDG_RUNTIME_DIR=os.path.join(tmp, "run"),
               WISP_JUDGE_IDLE="600")
    cold_env = dict(env, WISP_NO_JUDGE="1")
    sock = os.path.join(tmp, "run", "wisp", "judge", f"{build.judge_tag()}.sock")
    subprocess.run([wispsh, "-c", "true"], env=env, cwd=REPO, check=True)
    for _ in range(200):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    judge = _judge_pid(sock)
    if judge is None:
        raise SystemExit("bench: the warm judge did not start")
    for line in LINES.values():                     # warm both paths (the judge's imports, the .pyc files)
        for e in (env, cold_env):
            subprocess.run([wispsh, "-c", line], env=e, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    load_before = os.getloadavg()
    jobs = [("floor", [os.path.realpath(sys.executable), "-I", "-S", "-c", "pass"], env, None)]
    for name, line in LINES.items():
        jobs += [(f"bash {name}", ["bash", "-c", line], env, None),
                 (f"warm {name}", [wispsh, "-c", line], env, judge),
                 (f"cold {name}", [wispsh, "-c", line], cold_env, None)]
    times: dict[str, list] = {name: [] for name, *_ in jobs}
    for _ in range(args.rounds):
        random.shuffle(jobs)
        for name, argv, e, j in jobs:
            times[name].append(_run(argv, e, REPO, j))
    load_after = os.getloadavg()
    med = {name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for name, v in times.items()}
    floor_wall, floor_cpu = med["floor"]
    print(f"rounds {args.rounds}; load before {load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} "
          f"{load_after[1]:.2f} (1 and 5 min); 2 cores")
    print(f"floor python3 -I -S -c pass: wall {floor_wall * 1000:.2f} ms, cpu {floor_cpu * 1000:.2f} ms")
    budgets = {"true": 0.5, "git status": 0.7, "21 safe parts": 1.5}
    print(f"{'line':16} {'bash ms':>8} {'warm ms':>8} {'cold ms':>8} | floors above bash: warm wall/cpu  cold "
          "wall/cpu  (budget warm, cold 3.0)")
    for name in LINES:
        b, w, c = med[f"bash {name}"], med[f"warm {name}"], med[f"cold {name}"]
        print(f"{name:16} {b[0] * 1000:8.2f} {w[0] * 1000:8.2f} {c[0] * 1000:8.2f} | "
              f"{(w[0] - b[0]) / floor_wall:5.2f} / {(w[1] - b[1]) / floor_cpu:5.2f}   "
              f"{(c[0] - b[0]) / floor_wall:5.2f} / {(c[1] - b[1]) / floor_cpu:5.2f}   ({budgets[name]})")
    os.kill(judge, 15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
