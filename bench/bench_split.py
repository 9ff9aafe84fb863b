"""Split time: the realistic corpus, a long command line, a big heredoc, deep $( nesting — each at two sizes
to show linear growth. Plain Python: `python bench/bench_split.py`."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from wispsh.parse.split import split_line  # noqa: E402


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def corpus_lines() -> list[str]:
    lines = []
    sample = ROOT.parent / "shared" / "corpus" / "levels-sample.jsonl"
    if not sample.exists():
        sample = Path("/work/shared/corpus/levels-sample.jsonl")
    if sample.exists():
        lines += [json.loads(x)["line"] for x in sample.read_text().splitlines() if x.strip()]
    from test_split_corpus import AGENT_LINES
    lines += [line for line, _ in AGENT_LINES]
    return lines


def commands(n: int) -> str:
    return "; ".join(f"grep -n 'x{i}' src/f{i}.py | head -{i % 9 + 1}" for i in range(n // 2))


def heredoc(megabytes: float) -> str:
    """A file written by an agent: text with $VARs and a $(…) every 100 lines."""
    rows = ["some text with $HOME and ${USER} in it, plus 'quotes' and \"more\"\n"] * 99 + ["built on $(date)\n"]
    block = "".join(rows)
    return "cat <<EOF > out.txt\n" + block * int(megabytes * 1_000_000 / len(block)) + "EOF\n"


def heredoc_substitution_per_line(megabytes: float) -> str:
    row = "some text with $(date) and `id` in it, plus 'quotes'\n"
    return "cat <<EOF > out.txt\n" + row * int(megabytes * 1_000_000 / len(row)) + "EOF\n"


def quoted_heredoc(megabytes: float) -> str:
    row = "some text with $(date) and `id` in it, plus 'quotes'\n"
    return "python3 - <<'EOF'\n" + row * int(megabytes * 1_000_000 / len(row)) + "EOF\n"


def nested(depth: int) -> str:
    return "echo " + "$(" * depth + "x" + ")" * depth


def report(name: str, line: str, runs: int = 3) -> float:
    split = split_line(line)
    seconds = best_of(runs, lambda: split_line(line))
    print(f"{name:38} {len(line):>10,} chars  {len(split.parts):>7,} parts  {seconds * 1000:9.1f} ms"
          f"  ok={split.ok}")
    return seconds


def main() -> None:
    lines = corpus_lines()
    split_line("warm up")
    total = best_of(5, lambda: [split_line(x) for x in lines])
    print(f"{'realistic corpus':38} {len(lines):>10,} lines  {total * 1000:9.1f} ms total, "
          f"{total / len(lines) * 1e6:.0f} us/line")
    for label, make, sizes in (
        ("commands on one line", commands, (10_000, 20_000)),
        ("unquoted heredoc (MB)", heredoc, (1, 2)),
        ("quoted heredoc (MB)", quoted_heredoc, (1, 2)),
        ("heredoc, $(…) on every line (MB)", heredoc_substitution_per_line, (0.05, 0.1)),
        ("  … past the substitution limit (MB)", heredoc_substitution_per_line, (1, 2)),
        ("$( nested (levels)", nested, (50_000, 100_000)),
    ):
        small, big = (report(f"{label} {size:,}", make(size)) for size in sizes)
        print(f"{'':38} growth x{big / small:.2f} for x2 input")


if __name__ == "__main__":
    main()
