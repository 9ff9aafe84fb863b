#!/usr/bin/env python3
"""The whole differential suite (tests/differential.py, 3,342 cases): every case through `wispsh --yes -c` and
the real bash or dash, compared byte for byte. Prints the counts, every refusal and every difference; exits 1
on a difference. The unit suite runs a fixed sample of it (tests/test_bash_differential.py).

    .venv/bin/python bench/bench_differential.py [--workers N] [--group NAME,...] [--sample N] [--wispsh PATH]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import differential  # noqa: E402

if __name__ == "__main__":
    sys.exit(differential.main(sys.argv[1:]))
