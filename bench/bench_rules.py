"""Benchmark: classifying a 20,000-part line (issue 5: under 1 s).

Splits the line once (the splitter's own cost is reported apart), then times keys + judge_part for every part,
judge_line and the deny check. Prints the figures; exits 1 when classifying takes 1 s or more.

    .venv/bin/python bench/bench_rules.py [PARTS]
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wispsh import keys, pipeline  # noqa: E402
from wispsh.policy import deny, engine, line  # noqa: E402
from wispsh.parse import split  # noqa: E402
from wispsh.config import Config  # noqa: E402

COMMANDS = [
    "ls -la src", "git status", "rm -rf build", "echo hi > out.txt", "cat ~/.ssh/id_rsa", "grep -E 'a|sh' f",
    "curl -s https://example.com", "sed -i s/a/b/ f", "python3 -c 'print(1)'", "cp a b", "npm test",
    "find . -name '*.py'", "tar -xzf a.tgz", "docker ps", "git push origin main", "kill 12",
    "chmod +x x.sh", "mv a b", "awk '{print $1}' f", "sort -o out.txt in.txt",
]


def classify_once(parsed, config, project, env):
    """keys + rules + deny for every part; returns the times of each stage."""
    t1 = time.perf_counter()
    ctx = pipeline.rules_context(str(project), env, config)
    keyed = [keys.key_for(p) for p in parsed.parts]
    t2 = time.perf_counter()
    judged = tuple(engine.judge(p, k, ctx) for p, k in zip(parsed.parts, keyed))
    t3 = time.perf_counter()
    line_verdict = line.judge_whole_line(parsed, judged, ctx)
    t4 = time.perf_counter()
    hit = deny.check(parsed, judged, config)
    t5 = time.perf_counter()
    return (t2 - t1, t3 - t2, t4 - t3, t5 - t4), line_verdict, hit


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    line = "; ".join(COMMANDS[i % len(COMMANDS)] for i in range(count))
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp, "home")
        project = home / "project"
        (project / ".git").mkdir(parents=True)
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
        config = Config(path=home / ".wisp" / "config.json")
        t0 = time.perf_counter()
        parsed = split.split_line(line)
        split_time = time.perf_counter() - t0
        runs = []
        for _ in range(repeats):        # best of a few: the figure is the code's cost, not the machine's load
            cpu = time.process_time()
            times, line_verdict, hit = classify_once(parsed, config, project, env)
            runs.append((sum(times), times, time.process_time() - cpu))
    total, (keys_t, part_t, line_t, deny_t), cpu = min(runs)
    rules_t = part_t + line_t + deny_t
    print(f"line: {len(line):,} chars, {len(parsed.parts):,} parts (best of {repeats})")
    print(f"split (splitter, not counted):   {split_time:7.3f} s")
    print(f"keys (keys.py):                  {keys_t:7.3f} s")
    print(f"judge_part x {len(parsed.parts):,}:           {part_t:7.3f} s")
    print(f"judge_line:                      {line_t:7.3f} s  (line level {line_verdict.level})")
    print(f"deny.check:                      {deny_t:7.3f} s  (denied: {hit is not None})")
    print(f"rules + deny:                    {rules_t:7.3f} s")
    print(f"classifying (keys+rules+deny):   {total:7.3f} s wall, {cpu:.3f} s cpu "
          f"-> {'OK' if total < 1.0 else 'TOO SLOW'} (< 1 s)")
    return 0 if total < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
