"""Benchmark: a nested shell beneath an allowed line (plain mode, shims first on PATH), paired and interleaved.

Per nested call: `sh -c true` run N times by a loop inside one allowed line, with the shims first on PATH
(every `sh` is wispsh) against the same loop with plain PATH; the floor is `python -I -S -c pass`.
overhead ratio = (nested wispsh - sh) / python floor, per call (budget 1.5). Then `make -j2` with 120 recipe
lines, SHELL=the sh shim beneath an allowed line, against plain make (budget 1.5x the wall time).

    .venv/bin/python bench/bench_nested.py [ROUNDS]
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PY = str(REPO / ".venv" / "bin" / "python")
WISP = str(REPO / ".venv" / "bin" / "wisp")
CALLS = 50
RECIPES = 120


def timed(argv, env, cwd=None) -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp, "wisp")
        home.mkdir(mode=0o700)
        (home / "config.json").write_text('{"shell": {"bash": "/bin/bash", "sh": "/bin/sh"}}')
        (home / "config.json").chmod(0o600)
        shims = Path(tmp, "shims")
        base = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
        base.update(WISP_HOME=str(home), XDG_RUNTIME_DIR=tmp)
        subprocess.run([WISP, "shims", "install", str(shims)], env=base, check=True, stdout=subprocess.DEVNULL)
        # the person approved the build (make is moderate): its recipes run beneath that allowed line
        subprocess.run([WISP, "approvals", "add", "make *", "--scope", "always"], env=base, check=True,
                       stdout=subprocess.DEVNULL)
        gated = dict(base, PATH=f"{shims}:{base['PATH']}")
        loop = f"i=0; while [ $i -lt {CALLS} ]; do sh -c true; i=$((i+1)); done"
        project = Path(tmp, "mk")
        project.mkdir()
        rules = ["SHELL := $(BENCH_SHELL)", "all: " + " ".join(f"t{i}" for i in range(RECIPES))]
        rules += [f"t{i}:\n\t@echo {i} > /dev/null" for i in range(RECIPES)]
        (project / "Makefile").write_text("\n".join(rules) + "\n")
        make = "make -s -j2 -B"
        cases = {
            "floor: python -I -S -c pass": ([sys.executable, "-I", "-S", "-c", "pass"], base),
            "loop: bash, plain sh": (["/bin/bash", "-c", loop], base),
            "loop: allowed line, sh = wispsh": ([str(shims / "bash"), "-c", loop], gated),
            "make: plain": (["/bin/bash", "-c", make], dict(base, BENCH_SHELL="/bin/sh")),
            "make: allowed line, SHELL=wispsh": ([str(shims / "bash"), "-c", make],
                                                 dict(gated, BENCH_SHELL=str(shims / "sh"))),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):                    # interleaved: every case once per round
            for name, (argv, env) in cases.items():
                times[name].append(timed(argv, env, cwd=project))
        med = {name: statistics.median(v) for name, v in times.items()}
        floor = med["floor: python -I -S -c pass"]
        per_plain = med["loop: bash, plain sh"] / CALLS
        per_gated = med["loop: allowed line, sh = wispsh"] / CALLS
        ratio = (per_gated - per_plain) / floor
        make_ratio = med["make: allowed line, SHELL=wispsh"] / med["make: plain"]
        print(f"{'case':<40} {'median ms':>10}")
        for name, value in med.items():
            print(f"{name:<40} {value * 1000:>10.1f}")
        print(f"per nested call: wispsh {per_gated * 1000:.2f} ms, sh {per_plain * 1000:.2f} ms, "
              f"floor {floor * 1000:.2f} ms -> overhead ratio {ratio:.2f} (budget 1.5)")
        print(f"make -j2, {RECIPES} recipe lines: {make_ratio:.2f}x the wall time without the gate (budget 1.5)")
        events = (home / "audit.jsonl").read_text().count('"event": "nested"')
        print(f"nested audit events: {events}")
        return 0 if ratio <= 1.5 and make_ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
