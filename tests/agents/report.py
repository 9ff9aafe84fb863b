"""scripts/agents-latest's report: per client, the version run, each spawn's shape (or the drift), the test's
outcome. Reads the records test_real_clients.py writes when AGENT_REPORT names a directory."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from install import pins


def main(where: str) -> int:
    root = Path(where)
    print("agents-latest report")
    for client in pins():
        record = root / f"{client}.json"
        if not record.exists():
            print(f"- {client}: no record (not run or failed before its session; see pytest output)")
            continue
        data = json.loads(record.read_text())
        pinned = pins()[client]["version"]
        print(f"- {client} {data['version']} (pinned {pinned}): {data['outcome']}")
        for shape, count in sorted(data["shapes"].items()):
            print(f"    shape {shape!r}: {count} spawn(s), matches")
        for item in data["drift"]:
            print(f"    DRIFT: a spawn matches no recorded shape; changed lines:\n" +
                  "\n".join("      " + line for line in item.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
