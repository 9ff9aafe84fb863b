"""Gated shells (wispsh/session/), paired against the real bash and the interpreter floor:

- reply: a typed `echo READY` written to a long-lived shell's stdin until its answer is read back (median of
  rounds, interleaved: bash, the gated shell in plain mode, and under `wisp run` when bubblewrap works);
- a 1,000-command session piped in (a mix of an agent's commands), per command, beside a fresh `wispsh -c`
  line per command (the cost a per-command client pays);
- the floor: `python3 -I -S -c pass`.

    .venv/bin/python bench/bench_session.py [--rounds N] [--commands N]

Budgets (issue 25): reply within one floor of bash's; a session's per-command cost at most a fresh -c line's.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"
WORK = ["git status --short", "ls -la", "cat README.md", "grep -c TODO README.md", "x=$((x+1))", "echo \"n=$x\"",
        "cd . && pwd", "head -n 2 README.md", "wc -l README.md", "f() { echo \"$1\"; }; f ok"]


def floor(rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-S", "-c", "pass"])
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class Shell:
    def __init__(self, argv, env, cwd):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, cwd=cwd)
        self.ask("echo READY")

    def ask(self, command: str) -> float:
        t = time.perf_counter()
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()
        out = b""
        while not out.endswith(b"READY\n"):
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(out.decode()[-500:])
            out += chunk
        return time.perf_counter() - t

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def session_seconds(argv, env, cwd, commands: int) -> float:
    text = "".join(WORK[i % len(WORK)] + "\n" for i in range(commands)).encode()
    t = time.perf_counter()
    subprocess.run(argv, input=text, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def fresh_lines_seconds(env, cwd, commands: int) -> float:
    t = time.perf_counter()
    for i in range(commands):
        subprocess.run([str(BIN / "wispsh"), "-c", WORK[i % len(WORK)]], env=env, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--commands", type=int, default=1000)
    args = parser.parse_args()
    place = Path(tempfile.mkdtemp(prefix="bench-session-"))
    home = place / "home"
    (home / ".wisp").mkdir(parents=True)
    (home / ".wisp").chmod(0o700)
    project = place / "project"
    project.mkdir()
    (project / "README.md").write_text("# demo\nTODO: x\n")
    subprocess.run(["git", "init", "-q", str(project)])
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"), "LC_ALL": "C",
           "XDG_RUNTIME_DIR": str(place)}
    shells = {"bash": Shell(["/bin/bash"], env, project), "gated": Shell([str(BIN / "wispsh")], env, project)}
    run_inside = shutil.which("bwrap") is not None
    if run_inside:
        try:
            shells["gated, wisp run"] = Shell([str(BIN / "wisp"), "run", "--", "/bin/bash"], env, project)
        except (RuntimeError, OSError):
            run_inside = False
    times = {name: [] for name in shells}
    for _ in range(args.rounds):
        for name, shell in shells.items():
            times[name].append(shell.ask("echo READY"))
    for shell in shells.values():
        shell.close()
    pass_floor = floor(max(10, args.rounds // 2))
    bash = statistics.median(times["bash"])
    print(f"floor (python3 -I -S -c pass): {pass_floor * 1000:.2f} ms")
    for name, got in times.items():
        median = statistics.median(got)
        print(f"reply to `echo READY`, {name}: {median * 1000:.2f} ms "
              f"({(median - bash) / pass_floor:.2f} floors over bash)")
    n = args.commands
    bash_s = session_seconds(["/bin/bash"], env, project, n)
    gated_s = session_seconds([str(BIN / "wispsh")], env, project, n)
    fresh = fresh_lines_seconds(env, project, max(50, n // 10)) / max(50, n // 10)
    print(f"{n}-command session: bash {bash_s / n * 1000:.2f} ms/command, gated {gated_s / n * 1000:.2f} ms/command;"
          f" a fresh `wispsh -c` line: {fresh * 1000:.2f} ms ({gated_s / n / fresh:.2f} of it)")
    shutil.rmtree(place, ignore_errors=True)


if __name__ == "__main__":
    main()
