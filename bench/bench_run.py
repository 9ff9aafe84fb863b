#!/usr/bin/env python3
"""Cost of the gate under `wisp run`: one namespace, the gated commands timed against the real shells in it.

One `wisp run` is started with a runner inside (this file, `--inside`). Each round the runner times, in a
shuffled order, the gated form (`/bin/bash -c LINE`: the launcher, the supervisor's warm judge, then the real
bash), the same line on the real bash (its private path inside, found from /proc/self/mountinfo, as only a
benchmark would), and `python -I -S -c pass` (the interpreter floor). All three run in the same namespace, so
the only difference is the gate. Ratios (contracts.md):

    overhead = (median gated - median real bash, same line) / median python -I -S -c pass
    a fresh line (true, all-safe): budget 1.5; nested `sh -c` beneath an allowed line: 0.3 per call (issue 29)
    make -j2, 120 recipe lines: gated wall / ungated wall, budget 3x (issue 29; the same build, SHELL = the real
      sh); the recipes print one line each into a file (nearly free: the worst case), and "make cc" has the same
      120 recipe lines each compiling a small C file (a build whose steps cost what real ones do): budget 1.1x
    git commit with a `#!/usr/bin/env sh` hook: budget 1.5x wall; npm run: reported (ratio of walls)

Between two timed lines the runner waits --gap seconds (0.35 unless told), untimed, as an agent's think time
between its lines: the restore watcher syncs what a line wrote once the project is quiet (restore/tree.py
QUIET_SECONDS, 0.2), so the point before the next line reads only what changed since. Back to back (--gap 0)
the next gated line pays that sync for whatever the line before wrote, the ungated build's 120 files included
(about 2.4 ms after make cc): a cost of the interleaving, not of that line's gate.

`wisp run` starts in work/, the project (the runner's own files, the wisp home and the runtime dir lie beside
it, as a user's do: inside the project they were in every restore point, the audit growing with each line).
The workloads that need a line at the threshold (make, npm run, git commit) run with a standing approval
written for this benchmark's own wisp home, so nothing asks.

Start-up (issue 23: budget 0.3 s on a quiet machine): `wisp run -- true` from a fresh git project, paired and
interleaved with bwrap alone around `true` (the namespace's floor) and `python -I -S -c pass`; medians and the
90th percentile, with the load average before and after (a shared machine's figures need it).

usage: bench_run.py [--rounds N] [--only NAME ...] [--startup [N]]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
NESTED = 200
RECIPES = 120
BUDGET = 1.5                # a fresh line (contracts.md)
BUDGETS = {"nested": 0.3, "make -j2": 3.0, "make cc": 1.1, "git hook": 1.5}     # issue 29
GAP_SECONDS = 0.35


# ---------------------------------------------------------------- inside the namespace


def _real_shells(spec) -> dict[str, str]:
    """name -> a path to the real binary inside: the fds this benchmark opened outside and wisp run passed on
    (inside, /bin/bash and /bin/sh are the launcher; the real binaries have no path of their own)."""
    return {name: f"/proc/self/fd/{fd}" for name, fd in spec["fds"].items()}


PASS_FDS: tuple = ()


def _time(argv, env, cwd) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=env, cwd=cwd, pass_fds=PASS_FDS)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench: {argv[:3]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return elapsed


def inside(spec_path: str) -> int:
    with open(spec_path) as fh:
        spec = json.load(fh)
    global PASS_FDS
    PASS_FDS = tuple(spec["fds"].values())
    real = _real_shells(spec)
    bash, sh = real["bash"], real["sh"]
    workdir = spec["workdir"]
    env = dict(os.environ)
    ungated_path = os.path.join(workdir, "ungated-bin")       # `sh` on PATH = the real sh (hooks, npm)
    os.makedirs(ungated_path, exist_ok=True)
    for name, target in (("sh", sh), ("bash", bash)):
        link = os.path.join(ungated_path, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    ungated_env = {**env, "PATH": ungated_path + ":" + env["PATH"]}
    python = spec["python"]
    cases = {}
    for name, line, cwd in spec["cases"]:
        cases[name] = {
            "gated": (["/bin/bash", "-c", line], env, cwd),
            "bash": ([bash, "-c", line.replace("make -j2", f"make -j2 SHELL={sh}")], ungated_env, cwd),
        }
    floor = ([python, "-I", "-S", "-c", "pass"], env, workdir)
    for case in cases.values():                       # warm page cache and .pyc; fail early
        for argv, e, cwd in case.values():
            _time(argv, e, cwd)
    _time(*floor)
    times = {name: {"gated": [], "bash": []} for name in cases}
    times["python_bare"] = {"run": []}
    for _ in range(spec["rounds"]):
        order = [(n, k) for n in cases for k in ("gated", "bash")] + [("python_bare", "run")]
        random.shuffle(order)
        for name, kind in order:
            argv, e, cwd = floor if name == "python_bare" else cases[name][kind]
            times[name][kind].append(_time(argv, e, cwd))
            time.sleep(spec.get("gap", GAP_SECONDS))
    print(json.dumps(times))
    return 0


# ---------------------------------------------------------------- outside: set up, run, report


def _write(path, text, mode=0o644):
    with open(path, "w") as fh:
        fh.write(text)
    os.chmod(path, mode)


def setup(root: str) -> tuple[dict, list]:
    home = os.path.join(root, "home")
    wisp_home = os.path.join(home, ".wisp")
    runtime = os.path.join(root, "rt")
    for d in (home, wisp_home, runtime):
        os.makedirs(d, mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WISP_", "TMUX"))}
    env.update(HOME=home, WISP_HOME=wisp_home, XDG_RUNTIME_DIR=runtime,
               PATH=f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
               GIT_CONFIG_GLOBAL=os.path.join(root, "gitconfig"))
    _write(os.path.join(root, "gitconfig"), "[user]\n\tname = b\n\temail = b@example.com\n[init]\n\tdefaultBranch = main\n")
    wisp = os.path.join(os.path.dirname(sys.executable), "wisp")
    for pattern in ("make *", "npm run *", "git commit *"):
        subprocess.run([wisp, "approvals", "add", pattern, "--scope", "always"], env=env, check=True,
                       capture_output=True)
    work = os.path.join(root, "work")
    os.makedirs(os.path.join(work, "out"))
    targets = [f"t{i}" for i in range(RECIPES)]
    _write(os.path.join(work, "Makefile"), f"all: {' '.join(targets)}\n" + "".join(
        f"{t}:\n\t@printf '%s\\n' $@ > out/$@.txt\n" for t in targets) + ".PHONY: all " + " ".join(targets) + "\n")
    if shutil.which("cc"):      # the same 120 recipe lines doing a real build step each: cc on a small C file
        os.makedirs(os.path.join(work, "src"))
        os.makedirs(os.path.join(work, "obj"))
        for t in targets:
            _write(os.path.join(work, "src", f"{t}.c"), f"int {t}(int x) {{ return x * {len(t)} + 1; }}\n")
        _write(os.path.join(work, "cc.mk"), f"all: {' '.join(targets)}\n" + "".join(
            f"{t}:\n\t@cc -O1 -c src/$@.c -o obj/$@.o && test -s obj/$@.o\n" for t in targets)
            + ".PHONY: all " + " ".join(targets) + "\n")
    _write(os.path.join(work, "package.json"), json.dumps({"name": "b", "version": "1.0.0",
                                                           "scripts": {"t": "echo hi > /dev/null"}}))
    repo = os.path.join(work, "repo")          # inside the project: writable under the walls
    subprocess.run(["git", "init", "-q", repo], env=env, check=True)
    for key, value in (("user.name", "b"), ("user.email", "b@example.com")):     # the global file is hidden inside
        subprocess.run(["git", "-C", repo, "config", key, value], env=env, check=True)
    _write(os.path.join(repo, ".git", "hooks", "pre-commit"), "#!/usr/bin/env sh\ntest -d .git\n", 0o755)
    cases = [
        ("true", "true", work),
        ("all-safe", "echo a; ls -la >/dev/null; pwd", work),
        ("nested", f"for i in $(seq {NESTED}); do sh -c true; done", work),
        ("make -j2", "make -j2 -s -B", work),
        *([("make cc", "make -j2 -s -B -f cc.mk", work)] if shutil.which("cc") else []),
        ("npm run", "npm run -s t", work),
        ("git hook", "git commit -q --allow-empty -m x", repo),
    ]
    return env, cases


STARTUP_BUDGET = 0.3


def startup(rounds: int) -> int:
    """`wisp run -- true` against bwrap alone and the interpreter floor, interleaved."""
    root = tempfile.mkdtemp(prefix="wisp-bench-start-")
    try:
        env, _cases = setup(root)
        env.pop("PYTHONDONTWRITEBYTECODE", None)        # a benchmark of imports without their .pyc measures compile
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "wispsh")],
                       stdout=subprocess.DEVNULL, env=env)
        work = os.path.join(root, "work")
        subprocess.run(["git", "init", "-q", work], env=env, check=True)
        wisp = os.path.join(os.path.dirname(sys.executable), "wisp")
        true = shutil.which("true") or "/bin/true"
        bwrap = shutil.which("bwrap") or "bwrap"
        kinds = {
            "wisp run -- true": [wisp, "run", "--", true],
            "bwrap alone": [bwrap, "--unshare-user", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/",
                            "--dev", "/dev", "--proc", "/proc", "--", true],
            "python -I -S -c pass": [sys.executable, "-I", "-S", "-c", "pass"],
        }
        for argv in kinds.values():                     # warm the page cache; fail early
            subprocess.run(argv, env=env, cwd=work, stdin=subprocess.DEVNULL, capture_output=True, check=True)
        times = {k: [] for k in kinds}
        load_before = os.getloadavg()
        for _ in range(rounds):
            order = list(kinds)
            random.shuffle(order)
            for kind in order:
                start = time.perf_counter()
                subprocess.run(kinds[kind], env=env, cwd=work, stdin=subprocess.DEVNULL, capture_output=True)
                times[kind].append(time.perf_counter() - start)
        load_after = os.getloadavg()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"start-up, {rounds} rounds interleaved; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} cores)")
    for kind, got in times.items():
        got.sort()
        p90 = got[min(len(got) - 1, int(len(got) * 0.9))]
        verdict = ""
        if kind.startswith("wisp run"):
            verdict = f"  budget {STARTUP_BUDGET} s: {'within' if statistics.median(got) <= STARTUP_BUDGET else 'OVER'}"
        print(f"{kind:<22} median {statistics.median(got) * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms{verdict}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--gap", type=float, default=GAP_SECONDS, metavar="SECONDS")
    parser.add_argument("--startup", type=int, nargs="?", const=20, default=None, metavar="N")
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.inside:
        return inside(opts.inside)
    if opts.startup is not None:
        return startup(opts.startup)
    root = tempfile.mkdtemp(prefix="wisp-bench-run-")
    try:
        env, cases = setup(root)
        if opts.only:
            cases = [c for c in cases if c[0] in opts.only]
        spec = os.path.join(root, "spec.json")
        fds = {name: os.open(os.path.realpath(shutil.which(name)), os.O_RDONLY) for name in ("bash", "sh")}
        for fd in fds.values():
            os.set_inheritable(fd, True)
        _write(spec, json.dumps({"rounds": opts.rounds, "cases": cases, "workdir": os.path.join(root, "work"),
                                 "python": sys.executable, "fds": fds, "gap": opts.gap}))
        wisp = os.path.join(os.path.dirname(sys.executable), "wisp")
        done = subprocess.run([wisp, "run", "--", sys.executable, os.path.abspath(__file__), "--inside", spec],
                              env=env, cwd=os.path.join(root, "work"), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True,
                              pass_fds=tuple(fds.values()))
        if done.returncode != 0:
            sys.exit(f"bench: the runner failed: {done.stderr}")
        times = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    med = {name: {k: statistics.median(v) for k, v in kinds.items()} for name, kinds in times.items()}
    py = med.pop("python_bare")["run"]
    print(f"wisp run, {opts.rounds} rounds interleaved, {opts.gap} s between lines; python -I -S -c pass: "
          f"{py * 1000:.2f} ms; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'workload':<10} {'gated ms':>10} {'bash ms':>10} {'overhead':>10}  budget")
    for name, m in med.items():
        gated, bash = m["gated"], m["bash"]
        if name == "nested":
            ratio, label = (gated - bash) / NESTED / py, f"{(gated - bash) / NESTED / py:.2f}/call"
            budget = f"<= {BUDGETS[name]} per call: {'within' if ratio <= BUDGETS[name] else 'OVER'}"
        elif name in BUDGETS:
            ratio = gated / bash
            label = f"{ratio:.2f}x wall"
            budget = f"<= {BUDGETS[name]}x wall: {'within' if ratio <= BUDGETS[name] else 'OVER'}"
        elif name == "npm run":
            label = f"{gated / bash:.2f}x wall"
            budget = f"(reported; {(gated - bash) / py:.2f} floors over)"
        else:
            ratio = (gated - bash) / py
            label = f"{ratio:.2f}"
            budget = f"<= {BUDGET}: {'within' if ratio <= BUDGET else 'OVER'}"
        print(f"{name:<10} {gated * 1000:10.2f} {bash * 1000:10.2f} {label:>10}  {budget}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
