#!/usr/bin/env python3
"""An outside oracle: the Oils project's spec tests (spec/*.test.sh, cases written for bash, dash, mksh…) run
as in tests/differential.py, each case through `wispsh --yes -c CODE` and `bash -c CODE` in the same scratch
directory, compared byte for byte (status or signal, stdout, stderr, files left). Their code is not part of
this repository: fetch a copy of oils-for-unix/oils and name its spec directory.

    .venv/bin/python bench/bench_oils_spec.py PATH/TO/oils/spec [--workers N] [--show N]

Only files whose `## compare_shells:` line names bash are read. Each case runs with TMP (a directory of its
own), SH=bash and REPO_ROOT (the checkout) set in front of its code, on one line, so its line numbers stay.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import differential  # noqa: E402


def spec_cases(spec: Path) -> list:
    out = []
    root = spec.parent
    for path in sorted(spec.glob("*.test.sh")):
        text = path.read_text(errors="replace")
        head = next((line for line in text.splitlines() if line.startswith("## compare_shells:")), "")
        if not any(word.startswith("bash") for word in head.split()[2:]):
            continue
        for block in ("\n" + text).split("\n#### ")[1:]:
            name, _, body = block.partition("\n")
            code, skipping = [], False
            for line in body.splitlines():
                if skipping:
                    skipping = not line.startswith("## END")
                    continue
                if line.startswith("## "):
                    words = line[3:].split(":")[0].split()      # `## STDOUT:`, `## OK mksh STDOUT:` … `## END`
                    skipping = line.rstrip().endswith(":") and bool(words) and words[-1].isupper()
                    continue
                code.append(line)
            prefix = f'TMP=$PWD/tmp; mkdir -p "$TMP"; SH=bash; REPO_ROOT={root}; export TMP SH REPO_ROOT; '
            out.append(differential.Case("bash", prefix + "\n".join(code).strip("\n"),
                                         group=f"{path.name[:-8]}: {name.strip()}"))
    return out


def main(argv: list[str]) -> int:
    spec = Path(argv[0])
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 20
    chosen = spec_cases(spec)
    with tempfile.TemporaryDirectory(prefix="wisp-oils-") as tmp:
        root = Path(tmp)
        runner = differential.Runner(differential.launcher(root / "launcher"), root)
        results = runner.all(chosen, workers)
    report = differential.summary(results)
    timeouts = sum(r["real"][0] == "timeout" for r in results)
    print(f"oils spec cases {report['cases']} from {len({c.group.split(':')[0] for c in chosen})} files; "
          f"unstable (bash differs from itself) {report['unstable']} (timeouts {timeouts}); "
          f"refused {report['refused']}; allowed {report['allowed']}; "
          f"identical {report['allowed'] - len(report['differences'])}; differences {len(report['differences'])}")
    for r in report["refusals"][:show]:
        print("refused:", r["case"].group, (r["gate"][2] or b"").decode(errors="replace").strip()[:160])
    for r in report["differences"][:show]:
        print(r["case"].group)
        print(differential.describe(r)[:1500])
    return 1 if report["differences"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
