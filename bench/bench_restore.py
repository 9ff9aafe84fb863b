#!/usr/bin/env python3
"""Cost of a restore point (issue 28): a project of 10,000 files (plus an ignored tree), a line that changed
up to 10 of them, the supervisor's `Tree.point()` timed in-process, paired and interleaved with
`python3 -I -S -c pass` (the interpreter floor) and, for comparison, with what a point made by git alone
would cost (`git add -A` + `git write-tree` on the same shadow index, its stat cache warm).

    cost = median point() / median floor     budget: 1.0 (contracts: "a restore point ... <= 1 interpreter floor")

Each round changes k files (k drawn from 0..10: writes, a new file, a delete, a rename, a chmod), then times
the three in a shuffled order. Reported: medians and the 90th percentile of wall time, the point's CPU time
(the supervisor's own thread: `time.thread_time`), the load average before and after, and the first full
scan (once per `wisp run`, in a thread, before the first point).

usage: bench_restore.py [--rounds N] [--files N] [--ignored-gb G]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from wispsh.restore.git import Shadow  # noqa: E402
from wispsh.restore.tree import Tree  # noqa: E402
from wispsh.restore.watch import Watcher  # noqa: E402


def make_project(root: str, files: int, ignored_gb: float) -> None:
    rng = random.Random(1)
    per_dir = 20
    for i in range(files):
        folder = os.path.join(root, f"pkg{i // 2000}", f"mod{i // per_dir}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"f{i}.py"), "w") as fh:
            fh.write(f"# {i}\n" + "x = 1\n" * rng.randint(1, 40))
    with open(os.path.join(root, ".gitignore"), "w") as fh:
        fh.write("node_modules/\nbuild/\n")
    heavy = os.path.join(root, "node_modules", "big")
    os.makedirs(heavy)
    if ignored_gb:
        with open(os.path.join(heavy, "blob.bin"), "wb") as fh:      # sparse: 10 GB that are never read
            fh.truncate(int(ignored_gb * (1 << 30)))
    for i in range(2000):
        os.makedirs(os.path.join(heavy, f"p{i // 100}"), exist_ok=True)
        with open(os.path.join(heavy, f"p{i // 100}", f"{i}.js"), "w") as fh:
            fh.write("module.exports = 1\n")
    subprocess.run(["git", "init", "-q", root], check=True)


def change(root: str, rng: random.Random, k: int, n: int) -> None:
    for j in range(k):
        i = rng.randrange(10_000)
        folder = os.path.join(root, f"pkg{i // 2000}", f"mod{i // 20}")
        if not os.path.isdir(folder):
            continue
        names = sorted(os.listdir(folder))
        what = rng.choice(("write", "write", "write", "new", "delete", "rename", "chmod"))
        target = os.path.join(folder, rng.choice(names)) if names else None
        if what == "new" or target is None:
            with open(os.path.join(folder, f"new{n}_{j}.py"), "w") as fh:
                fh.write("new\n")
        elif what == "write":
            with open(target, "a") as fh:
                fh.write(f"# round {n}\n")
        elif what == "delete":
            os.unlink(target)
        elif what == "rename":
            os.rename(target, os.path.join(folder, f"moved{n}_{j}.py"))
        else:
            os.chmod(target, 0o755 if not os.stat(target).st_mode & 0o100 else 0o644)


def floor_once() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True)
    return time.perf_counter() - start


def git_point(shadow: Shadow) -> float:
    start = time.perf_counter()
    shadow.run("add", "-A", check=False)
    shadow.run("write-tree")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--ignored-gb", type=float, default=10.0)
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="bench-restore-")
    try:
        root = os.path.join(base, "project")
        os.makedirs(root)
        make_project(root, args.files, args.ignored_gb)
        shadow = Shadow(os.path.join(base, "shadow"), root)
        shadow.create(excludes="/dev/null")
        tree = Tree(shadow, watcher=Watcher(root))
        started = time.perf_counter()
        tree.point()
        first = time.perf_counter() - started
        other = Shadow(os.path.join(base, "git-only"), root)
        other.create(excludes="/dev/null")
        git_point(other)
        rng = random.Random(28)
        load_before = os.getloadavg()
        wall = {"point": [], "floor": [], "git add -A": []}
        cpu = []
        for n in range(args.rounds):
            change(root, rng, rng.randint(0, 10), n)
            order = list(wall)
            rng.shuffle(order)
            for name in order:
                if name == "point":
                    c0, w0 = time.thread_time(), time.perf_counter()
                    tree.point()
                    wall[name].append(time.perf_counter() - w0)
                    cpu.append(time.thread_time() - c0)
                elif name == "floor":
                    wall[name].append(floor_once())
                else:
                    wall[name].append(git_point(other))
        load_after = os.getloadavg()
        tree.close()

        def ms(values, q=0.5):
            values = sorted(values)
            return 1000 * values[min(len(values) - 1, int(q * len(values)))]

        floor = statistics.median(wall["floor"])
        print(f"project: {args.files} files in {args.files // 20} directories, plus 2000 ignored files and a "
              f"{args.ignored_gb:g} GB ignored file; {args.rounds} rounds, 0-10 files changed each")
        print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}")
        print(f"first full scan (once per run, in a thread): {first * 1000:.0f} ms; full scans since: {tree.scans - 1}")
        for name, values in wall.items():
            print(f"{name:12} median {ms(values):7.2f} ms  p90 {ms(values, 0.9):7.2f} ms  "
                  f"= {statistics.median(values) / floor:.2f} floors")
        print(f"point CPU (supervisor thread) median {1000 * statistics.median(cpu):.2f} ms")
        cost = statistics.median(wall["point"]) / floor
        print(f"restore point: {cost:.2f} interpreter floors (budget 1.0) -> {'within' if cost <= 1.0 else 'OVER'}")
        return 0 if cost <= 1.0 else 1
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
