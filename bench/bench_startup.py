#!/usr/bin/env python3
"""Start-up cost of `wispsh -c LINE` against `bash -c LINE`, in units of a bare Python start.

Paired and interleaved in one run (each round times the three commands in a shuffled order), so that
machine noise hits all three alike. Prints medians and the overhead ratio of contracts.md:

    ratio = (median wispsh - median bash) / median python_bare      budget: at most 2.0

usage: bench_startup.py [--wispsh PATH] [--rounds N] [--line LINE]
  --wispsh  the wispsh to time: a launcher/shim (install.sh's, or one laid by `wisp shims install DIR`) or the
            console script (default: the `wispsh` beside this Python, else on PATH)
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

BUDGET = 2.0


def time_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bench: {argv[0]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = os.path.join(os.path.dirname(sys.executable), "wispsh")
    parser.add_argument("--wispsh", default=default if os.path.exists(default) else shutil.which("wispsh"))
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--line", default="true")
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the bare start")
    opts = parser.parse_args()
    if not opts.wispsh:
        sys.exit("bench: no wispsh found; pass --wispsh")

    env = dict(os.environ)
    bash = shutil.which("bash", path=env.get("PATH"))
    commands = {
        "wispsh": [opts.wispsh, "-c", opts.line],
        "bash": [bash, "-c", opts.line],
        "python_bare": [opts.python, "-I", "-S", "-c", "pass"],
    }
    for argv in commands.values():  # warm the page cache and .pyc files; fail early
        time_once(argv, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    order = list(commands)
    for _ in range(opts.rounds):
        random.shuffle(order)
        for name in order:
            times[name].append(time_once(commands[name], env))

    medians = {name: statistics.median(values) for name, values in times.items()}
    ratio = (medians["wispsh"] - medians["bash"]) / medians["python_bare"]
    print(f"line: {opts.line!r}   rounds: {opts.rounds} (interleaved)   wispsh: {opts.wispsh}")
    for name, value in medians.items():
        print(f"  {name:<12} median {value * 1000:8.2f} ms")
    verdict = "within" if ratio <= BUDGET else "OVER"
    print(f"overhead ratio (wispsh - bash) / python_bare = {ratio:.2f}  ({verdict} the budget of {BUDGET})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
