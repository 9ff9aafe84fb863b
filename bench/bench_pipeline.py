#!/usr/bin/env python3
"""The whole pipeline on big inputs, each at two sizes: is every stage linear?

Each input runs through `wispsh --explain --json` in a fresh process (the text on stdin: a 2 MB line does
not fit in one argv word, the kernel caps that at 128 KiB; the -c path is the same pipeline from the text
on), and through `wispsh SCRIPT` (check mode: the gate, the refusal or the exec of a stand-in shell, the
audit). In process, the same text is timed stage by stage: split, keys + rules per part, whole-line rules,
deny, gate, the JSON (best of the runs, so machine noise shows less). Prints seconds and the growth for
the ×2 input; exits 1 when a full run takes 1 s or more, or an input twice as big takes more than 2.6 times
as long. The machine's load average is printed: on a shared machine the figures are only comparable within
one run.

    .venv/bin/python bench/bench_pipeline.py [--quick] [--shapes] [--explain-only] [--depth-only] [--wispsh PATH]

The wispsh timed is the launcher install.sh lays (`wisp shims install --shell wispsh DIR`, into the run's
temporary directory: `python -I -S` on this venv), the form agents start; --wispsh PATH times another (the
venv's console script starts ~70 ms slower: site and the editable finder).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LIMIT_SECONDS = 1.0
LIMIT_GROWTH = 2.6      # ×2 input: linear is 2; some slack for a noisy machine


def commands(n: int) -> str:
    return "; ".join(f"grep -n 'x{i}' src/f{i}.py | head -{i % 9 + 1}" for i in range(n // 2))


def quoted_heredoc(megabytes: float) -> str:
    """An agent writing a file: a quoted heredoc whose body holds words the deny patterns look for."""
    row = "  rm -rf / is only text here; so is $(date) and `id` and () { :|:& };:\n"
    return "cat <<'EOF' > /dev/null\n" + row * int(megabytes * 1_000_000 / len(row)) + "EOF\n"


def unquoted_heredoc(megabytes: float) -> str:
    rows = ["some text with $HOME and ${USER} in it, plus 'quotes' and \"more\"\n"] * 99 + ["built on $(date)\n"]
    block = "".join(rows)
    return "cat <<EOF > out.txt\n" + block * int(megabytes * 1_000_000 / len(block)) + "EOF\n"


def nested(depth: int) -> str:
    return "echo " + "$(" * depth + "x" + ")" * depth


INPUTS = (
    ("quoted heredoc (MB)", quoted_heredoc, (1, 2)),
    ("unquoted heredoc (MB)", unquoted_heredoc, (1, 2)),
    ("commands", commands, (10_000, 20_000)),
    ("$( nested (levels)", nested, (50_000, 100_000)),
)


# Shapes that once grew faster than their input somewhere in the pipeline, or could: run in process with
# `--shapes` (split, rules, deny, gate, JSON), at a size and twice that size.
SHAPES = {
    "quoted heredocs": lambda n: "cat <<'E'\nx $(a)\nE\n" * n,
    "unquoted heredocs": lambda n: "cat <<E\nx $(a)\nE\n" * n,
    "missed operands ${x#$(a)}": lambda n: "echo ${x#$(a)}; " * n,
    "sh -c": lambda n: "sh -c 'a b' ; " * n,
    "backgrounded pipes (scanner)": lambda n: "coproc { :; }; " + "a | b & " * n,
    "case items (scanner)": lambda n: "coproc { :; }; case $x in " + "a|b) c;; " * n + "esac",
    "and-or list": lambda n: "a && " * n + "b",
    "one word of $x": lambda n: 'echo "' + "$x" * (8 * n) + '"',
    "redirects": lambda n: "a " + ">f " * (8 * n),
    "stored code": lambda n: "x='$(a)'; echo $((x)); " * n,
    "assignments then uses": lambda n: "; ".join(f'a{i}=x{i}; echo "$a{i}"' for i in range(n)),
    "secrets held in variables": lambda n: "; ".join(f'k{i}=$(cat ~/.ssh/id_rsa); echo "$x{i}"' for i in range(n)),
    "loops over substitutions": lambda n: "; ".join(f"for f in $(ls d{i}); do cat $f; done" for i in range(n)),
    "docker build then run": lambda n: " && ".join(f"docker build -t a/b{i} . && docker run a/b{i}"
                                                    for i in range(n)),
}


# Nesting depth (issue 26): each shape at 1k, 10k and 100k levels, through a fresh process as an agent's line
# would go (explain; check: the gate, the audit and the exec of a stand-in shell, from a script file and, where
# the text fits in one argv word, as `-c`; Linux caps a word at 128 KiB, so a 100,000-deep `$(` line, 200 KB,
# cannot be a -c line at all). Growth is per doubling of the depth (the ×10 steps' growth to the power
# log 2 / log 10); linear is 2 at most.
DEPTH_SHAPES = {
    "$(": lambda d: "echo " + "$(" * d + "x" + ")" * d,
    '"$(': lambda d: "echo " + '"$(' * d + "x" + ')"' * d,
    "( subshells": lambda d: "( " * d + "x" + " )" * d,
    "{ groups": lambda d: "{ " * d + "x" + "; }" * d,
    "if": lambda d: "if a; then " * d + "x" + "; fi" * d,
    "$(( arithmetic": lambda d: "echo " + "$((1+" * d + "1" + "))" * d,
    "${x:- operands": lambda d: "echo " + "${x:-" * d + "y" + "}" * d,
    "$( unclosed": lambda d: "echo " + "$(" * d,
}
DEPTHS = (1_000, 10_000, 100_000)
LIMIT_DEPTH_GROWTH = 2.2
ARGV_WORD_LIMIT = 128 * 1024


def spent(argv: list[str], text_file: Path, env: dict[str, str], cwd: Path, runs: int) -> tuple[float, float]:
    """(the least CPU seconds, user + system, of the process and the children it waited for, as wait4 counts
    them; the least wall seconds) of `runs` fresh runs. On a shared machine the wall time is mostly other
    processes' load; the CPU time is what the gate itself spends."""
    best_cpu = best_wall = float("inf")
    for _ in range(runs):
        with open(text_file, "rb") as stdin:
            start = time.perf_counter()
            process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=env, cwd=cwd)
            _, _, usage = os.wait4(process.pid, 0)
            process.returncode = 0
            best_wall = min(best_wall, time.perf_counter() - start)
            best_cpu = min(best_cpu, usage.ru_utime + usage.ru_stime)
    return best_cpu, best_wall


def depth(wispsh: str, env: dict[str, str], home: Path, project: Path, runs: int) -> list[str]:
    """Each nesting shape at 1k, 10k and 100k levels: CPU seconds (wall in brackets) and the growth per
    doubling of the CPU time. Fails on growth past LIMIT_DEPTH_GROWTH or a run of 2 s of CPU or more."""
    import math

    failed = []
    print(f"\n{'nesting (fresh process)':22} {'mode':8} " + " ".join(f"{d:>17,}" for d in DEPTHS)
          + f" {'growth/x2':>10}")
    text_file = home / "deep.sh"
    for label, make in DEPTH_SHAPES.items():
        rows: dict[str, list[tuple[float, float]]] = {"explain": [], "check": [], "check -c": []}
        nothing = (float("nan"), float("nan"))
        for d in DEPTHS:
            text = make(d)
            text_file.write_text(text)
            rows["explain"].append(spent([wispsh, "--explain", "--json"], text_file, env, project, runs))
            rows["check"].append(spent([wispsh, "--yes", str(text_file)], Path(os.devnull), env, project, runs))
            fits = len(text.encode()) < ARGV_WORD_LIMIT
            rows["check -c"].append(spent([wispsh, "--yes", "-c", text], Path(os.devnull), env, project, runs)
                                    if fits else nothing)
        for mode, times in rows.items():
            known = [(d, cpu) for d, (cpu, _) in zip(DEPTHS, times) if cpu == cpu]
            growth = max((t2 / t1) ** (math.log(2) / math.log(d2 / d1))
                         for (d1, t1), (d2, t2) in zip(known, known[1:])) if len(known) > 1 else float("nan")
            shown = " ".join(f"{cpu:7.3f}s ({wall:6.2f}s)" if cpu == cpu else f"{'(over argv)':>17}"
                             for cpu, wall in times)
            print(f"{label:22} {mode:8} {shown} {growth:9.2f}x")
            if growth > LIMIT_DEPTH_GROWTH:
                failed.append(f"nesting {label} {mode}: grew x{growth:.2f} per doubling")
            for d, cpu in known:
                if cpu >= 2 * LIMIT_SECONDS:
                    failed.append(f"nesting {label} {d:,} {mode}: took {cpu:.2f} s of CPU")
    return failed


def _launcher(directory: Path) -> str:
    """The launcher install.sh lays, laid by the same code (`wisp shims install --shell wispsh`)."""
    wisp = Path(sys.executable).with_name("wisp")
    subprocess.run([str(wisp), "shims", "install", "--quiet", "--shell", "wispsh", str(directory)], check=True)
    return str(directory / "wispsh")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP")}
    env.update(WISP_HOME=str(home / ".wisp"), HOME=str(home), XDG_RUNTIME_DIR=str(home / "run"))
    return env


CAP_SECONDS = 60        # a run slower than this is reported as "> 60 s" (a quadratic path), not waited for


def whole(argv: list[str], text_file: Path, env: dict[str, str], cwd: Path, runs: int) -> float:
    """The best wall time of `runs` fresh runs. The cap is a timer that kills the run, not a wait with a
    timeout: subprocess's timed wait polls (sleeps of up to 50 ms), which would round each figure up."""
    import threading

    best = float("inf")
    for _ in range(runs):
        with open(text_file, "rb") as stdin:
            start = time.perf_counter()
            process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=env, cwd=cwd)
            cap = threading.Timer(CAP_SECONDS, process.kill)
            cap.start()
            try:
                process.wait()
            finally:
                cap.cancel()
            elapsed = time.perf_counter() - start
        if process.returncode == -9:        # killed by the cap
            return float("inf")
        best = min(best, elapsed)
    return best


def _seconds(value: float) -> str:
    return f"{value:8.3f}s" if value != float("inf") else f"> {CAP_SECONDS} s"


def stages(text: str, home: Path, project: Path) -> dict[str, float]:
    from wispsh import pipeline
    from wispsh import explain
    from wispsh.config import Config
    from wispsh.decide import gate
    from wispsh.parse import split
    from wispsh.policy import deny

    import gc

    config = Config(path=home / ".wisp" / "config.json")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    gc.disable()            # as the gate's own process runs (cli/sh.py)
    t = [time.perf_counter()]
    parsed = split.split_line(text)
    t.append(time.perf_counter())
    ctx = pipeline.rules_context(str(project), env, config)
    judged, line_verdict = pipeline.judge_parts(parsed, ctx)
    t.append(time.perf_counter())
    hit = deny.check(parsed, judged, config)
    t.append(time.perf_counter())
    plan = gate.plan(parsed, judged, line_verdict, hit, config, cwd=str(project), env=env)
    t.append(time.perf_counter())
    explain.render_json(plan)
    t.append(time.perf_counter())
    gc.enable()
    names = ("split", "keys+rules", "deny", "gate", "json")
    return {name: t[k + 1] - t[k] for k, name in enumerate(names)} | {"parts": len(parsed.parts)}


def shapes(home: Path, project: Path, runs: int) -> list[str]:
    failed = []
    print(f"\n{'shape (in process)':30} {'n':>6} {'seconds':>9} {'for 2n':>9} {'growth':>7}   worst stage")
    for label, make in SHAPES.items():
        timed = []
        for n in (2_000, 4_000):
            best = min((stages(make(n), home, project) for _ in range(runs)),
                       key=lambda st: sum(v for k, v in st.items() if k != "parts"))
            timed.append(best)
        total = [sum(v for k, v in st.items() if k != "parts") for st in timed]
        worst = max((k for k in timed[1] if k != "parts"), key=lambda k: timed[1][k] / max(timed[0][k], 1e-3))
        growth = total[1] / total[0]
        print(f"{label:30} {2_000:>6} {total[0]:8.3f}s {total[1]:8.3f}s {growth:6.2f}x   {worst} "
              f"x{timed[1][worst] / max(timed[0][worst], 1e-3):.1f}")
        if growth > LIMIT_GROWTH:
            failed.append(f"{label}: grew x{growth:.2f} for a x2 input")
    return failed


def main() -> int:
    quick = "--quick" in sys.argv
    runs = 1 if quick else 3
    given = sys.argv[sys.argv.index("--wispsh") + 1] if "--wispsh" in sys.argv[:-1] else None
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        wispsh = given or _launcher(home / "launcher")
        project = home / "project"
        (project / ".git").mkdir(parents=True)
        (home / ".wisp").mkdir()
        (home / "run").mkdir(mode=0o700)
        # check mode execs a stand-in for the real shell: what is timed is the gate, not bash running the text
        (home / ".wisp" / "config.json").write_text(json.dumps({"shell": {"default": "/bin/true"}}))
        env = _env(home)
        print(f"{'input':30} {'size':>9} {'chars':>10} {'parts':>7} {'explain':>9} {'check':>9}   stages in process")
        for label, make, sizes in INPUTS if "--depth-only" not in sys.argv else ():
            row = []
            for size in sizes:
                text = make(size)
                text_file = home / "line.sh"
                text_file.write_text(text)
                explained = whole([wispsh, "--explain", "--json"], text_file, env, project, runs)
                checked = whole([wispsh, str(text_file)], Path(os.devnull), env, project, 1) \
                    if "--explain-only" not in sys.argv else float("nan")
                inner = min((stages(text, home, project) for _ in range(runs)),
                            key=lambda st: sum(v for k, v in st.items() if k != "parts"))
                row.append((explained, checked))
                shown = " ".join(f"{k}={v * 1000:.0f}ms" for k, v in inner.items() if k != "parts")
                print(f"{label:30} {size:>9,} {len(text):>10,} {inner['parts']:>7,} {_seconds(explained)} "
                      f"{_seconds(checked)}   {shown}")
                for what, seconds in (("explain", explained), ("check", checked)):
                    if seconds >= LIMIT_SECONDS:   # (nan, a check not run, is never >=)
                        failed.append(f"{label} {size:,}: {what} took {seconds:.2f} s")
            (e1, c1), (e2, c2) = row
            growth_e, growth_c = e2 / e1, (c2 / c1 if c1 != float("inf") else float("inf"))
            print(f"{'':30} {'growth for x2 input:':>29} {growth_e:8.2f}x {growth_c:8.2f}x")
            for what, growth in (("explain", growth_e), ("check", growth_c)):
                if growth > LIMIT_GROWTH:   # (nan is never >)
                    failed.append(f"{label}: {what} grew x{growth:.2f} for a x2 input")
        if "--shapes" in sys.argv:
            failed += shapes(home, project, runs)
        failed += depth(wispsh, env, home, project, runs)
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()), f"on {os.cpu_count()} cores")
    for line in failed:
        print("bench:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
