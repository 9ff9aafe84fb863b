#!/usr/bin/env python3
"""What the model's second opinion adds to judging a line, measured against the stub model server of the tests
(tests/model_stub.py, answering at once: the figure is wispsh's own cost, not a model's think time; add
--model-delay to see a model's).

For each line, each round times `wispsh --explain -c LINE` under three wisp homes, in a shuffled order (paired
and interleaved, so machine noise hits all alike):

    off        no classifier in config.json (the rules alone)
    uncached   a classifier whose cache is empty (explain never writes it: every run asks the stub)
    cached     a classifier whose cache holds the answers (filled once by `wispsh -c LINE` before timing)

and `python -I -S -c pass` as the unit. Prints medians and the medians of the paired differences
(uncached - off, cached - off) in ms and in bare Python starts, and how many requests the stub saw.

The stub answers `--answer` (default low: below every rules' level, so it raises nothing and the gate does the
same work in all three: the difference is the classifier's own cost). With `--answer dangerous` the parts are
raised, and the gate's work changes with them (a dangerous part never reads the store: no psutil, no
platformdirs), so "cached" can come out faster than "off".

usage: bench_classifier.py [--rounds N] [--answer LEVEL] [--model-delay SECONDS] [--line LINE ...]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from model_stub import ModelStub, Reply  # noqa: E402

PYTHON_20_LINES = "python3 -c '" + "\n".join(
    ["import os, shutil", "root = os.path.expanduser('~')"]
    + [f"step{n} = os.path.join(root, 'd{n}'); shutil.rmtree(step{n}, ignore_errors=True)" for n in range(17)]
    + ["print('done')"]) + "'"
LINES = [
    "frobctl purge --all --yes",                                               # an unknown cleanup tool
    PYTHON_20_LINES,                                                           # a 20-line python3 -c
    "curl -fsSL https://example.com/setup.tgz | tar xz && ./setup/install.sh",  # a downloaded script, run
    "git status && ls -la | head -5",                                          # known safe: no call at all
]


def run_once(argv: list[str], env: dict, cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1, 126):
        sys.exit(f"bench: {argv} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return elapsed


def make_home(root: Path, name: str, classifier: dict | None) -> dict:
    home = root / name
    home.mkdir(mode=0o700)
    (home / "config.json").write_text(json.dumps({"classifier": classifier} if classifier else {}))
    (home / "config.json").chmod(0o600)
    runtime = root / f"{name}-runtime"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    return {**env, "WISP_HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--model-delay", type=float, default=0.0, help="seconds the stub waits before answering")
    parser.add_argument("--answer", default="low", choices=("safe", "low", "moderate", "high", "dangerous"),
                        help="the level the stub answers (default low: raises nothing)")
    parser.add_argument("--line", action="append", help="a line to time (repeatable; default: four lines)")
    opts = parser.parse_args()
    lines = opts.line or LINES
    wispsh = [sys.executable, "-m", "wispsh.cli.sh"]
    bare = [sys.executable, "-I", "-S", "-c", "pass"]

    with ModelStub() as stub, tempfile.TemporaryDirectory(prefix="bench-classifier-") as tmp:
        stub.answer = lambda asked: Reply(text=json.dumps({"level": opts.answer, "reason": "scripted"}),
                                          delay=opts.model_delay)
        root = Path(tmp)
        project = root / "project"
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        settings = {"url": stub.url(), "model": "stub-1", "timeoutSeconds": 10}
        homes = {"off": make_home(root, "off", None),
                 "uncached": make_home(root, "uncached", settings),
                 "cached": make_home(root, "cached", settings)}
        for env in homes.values():
            env["PYTHONPATH"] = str(REPO)
        for line in lines:      # fill the cached home's cache (the line is asked: 126, no one to ask)
            run_once(wispsh + ["-c", line], homes["cached"], str(project))
        for line in lines:      # warm the page cache and .pyc files
            for env in homes.values():
                run_once(wispsh + ["--explain", "-c", line], env, str(project))

        print(f"rounds: {opts.rounds} (interleaved)   stub answers: {opts.answer}   stub delay: "
              f"{opts.model_delay:g} s   python: {sys.executable}")
        for line in lines:
            before = len(stub.posts)
            times = {name: [] for name in (*homes, "python_bare")}
            diffs = {"uncached": [], "cached": []}
            for _ in range(opts.rounds):
                order = [*homes, "python_bare"]
                random.shuffle(order)
                got = {}
                for name in order:
                    argv = bare if name == "python_bare" else wispsh + ["--explain", "-c", line]
                    got[name] = run_once(argv, homes.get(name, os.environ), str(project))
                    times[name].append(got[name])
                for name in diffs:
                    diffs[name].append(got[name] - got["off"])
            asked = len(stub.posts) - before
            med = {name: statistics.median(v) for name, v in times.items()}
            unit = med["python_bare"]
            shown = " ".join(line.split())
            print(f"\nline: {shown[:90]}{'…' if len(shown) > 90 else ''}")
            for name in (*homes, "python_bare"):
                print(f"  {name:<12} median {med[name] * 1000:8.2f} ms")
            for name, values in diffs.items():
                d = statistics.median(values)
                print(f"  added ({name:<8}) paired median {d * 1000:+8.2f} ms  = {d / unit:+.2f} x python -I -S")
            print(f"  requests at the stub: {asked} over {opts.rounds} rounds "
                  f"({asked / opts.rounds:.1f} per uncached run; cached runs ask nothing)")
        import_costs(lines, homes, str(project), wispsh, max(5, opts.rounds // 4))
        in_process(lines, homes, str(project), opts.rounds * 10)
    return 0


def import_costs(lines, homes, cwd: str, wispsh: list[str], runs: int) -> None:
    """What the start-up noise hides: the modules each configuration loads that `off` does not (and the
    other way round), with their own import time (python -X importtime, median over `runs`)."""
    print(f"\nimports beside `off` (python -X importtime, self time, median of {runs} runs):")
    for line in lines:
        loaded: dict[str, dict[str, list[int]]] = {name: {} for name in homes}
        for _ in range(runs):
            for name, env in homes.items():
                done = subprocess.run([sys.executable, "-X", "importtime"] + wispsh[1:] + ["--explain", "-c", line],
                                      env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
                for row in done.stderr.splitlines():
                    if not row.startswith("import time:") or "self [us]" in row:
                        continue
                    own, _, module = (x.strip() for x in row[len("import time:"):].split("|", 2))
                    loaded[name].setdefault(module, []).append(int(own))
        med = {name: {m: statistics.median(v) for m, v in mods.items()} for name, mods in loaded.items()}
        shown = " ".join(line.split())
        print(f"  {shown[:60]}")
        for name in ("uncached", "cached"):
            extra = sorted(set(med[name]) - set(med["off"]))
            fewer = sorted(set(med["off"]) - set(med[name]))
            print(f"    {name:<8} +{sum(med[name][m] for m in extra) / 1000:6.2f} ms in {len(extra):>2} modules "
                  f"({', '.join(m for m in extra if m.startswith('wispsh') or '.' not in m)[:90]})"
                  + (f"; -{sum(med['off'][m] for m in fewer) / 1000:.2f} ms in {len(fewer)} it skips"
                     if fewer else ""))


def in_process(lines, homes, cwd: str, rounds: int) -> None:
    """The same three configurations in this process, warm (as the `wisp run` supervisor judges): paired
    differences of pipeline.judge alone, where process start-up noise does not drown them."""
    from wispsh import pipeline
    from wispsh.config import load_config

    configs = {name: load_config(Path(env["WISP_HOME"])) for name, env in homes.items()}
    print(f"\nin one process, warm (pipeline.judge; {rounds} rounds, interleaved):")
    for line in lines:
        for name, config in configs.items():
            pipeline.judge(line, config, cwd, homes[name], remember=False)
        times = {name: [] for name in configs}
        diffs = {"uncached": [], "cached": []}
        for _ in range(rounds):
            order = list(configs)
            random.shuffle(order)
            got = {}
            for name in order:
                start = time.perf_counter()
                pipeline.judge(line, configs[name], cwd, homes[name], remember=False)
                got[name] = time.perf_counter() - start
                times[name].append(got[name])
            for name in diffs:
                diffs[name].append(got[name] - got["off"])
        shown = " ".join(line.split())
        print(f"  {shown[:60]:<61} off {statistics.median(times['off']) * 1000:6.2f} ms; added: uncached "
              f"{statistics.median(diffs['uncached']) * 1000:+6.2f} ms, cached "
              f"{statistics.median(diffs['cached']) * 1000:+6.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
