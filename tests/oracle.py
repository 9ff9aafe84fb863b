"""The recording oracle: the real bash runs lines with PATH holding only stub programs that log their names.

`Stubs(dir)` lays the stubs (c0..c7 and any extra names, plus the real sh/bash/cat); `run(lines)` runs each
line in its own `bash -c` (one driver process for all: no Python start per line), each with a log of its own,
and returns, per line, the names bash ran. x is set (x=abc), y is not: `${x#…}` runs its pattern's code,
`${y:-…}` its word's.
"""
from __future__ import annotations

import collections
import os
import shutil
import subprocess
from pathlib import Path

from strategies import PROGRAMS

BASH = shutil.which("bash") or "/bin/bash"
_DRIVER = r'''
k=0
while IFS= read -r -d '' line; do
    : > "$LOGS/$k"
    env -i PATH="$STUBS" HOME="$WORK" LC_ALL=C.UTF-8 x=abc STUB_LOG="$LOGS/$k" \
        "$TIMEOUT" -s KILL "$LIMIT" "$BASH" --norc --noprofile -c "$line" </dev/null >/dev/null 2>&1
    k=$((k + 1))
done
'''


class Stubs:
    def __init__(self, root: Path, extra: tuple[str, ...] = ()):
        self.root = root
        self.bin = root / "bin"
        self.work = root / "work"
        self.logs = root / "logs"
        for d in (self.bin, self.work, self.logs):
            d.mkdir(parents=True, exist_ok=True)
        (self.work / "in").write_text("line\n")
        for name in list(PROGRAMS) + ["fn-not-a-program", *extra]:
            stub = self.bin / name
            stub.write_text(f'#!/bin/sh\nprintf "%s\\n" {name} >> "$STUB_LOG"\n')
            stub.chmod(0o755)
        for real in ("sh", "bash", "cat"):
            found = shutil.which(real)
            if found and not (self.bin / real).exists():
                (self.bin / real).symlink_to(found)

    def run(self, lines: list[str], limit_seconds: int = 5) -> list[collections.Counter]:
        for old in self.logs.iterdir():
            old.unlink()
        env = {"PATH": "/usr/bin:/bin", "LOGS": str(self.logs), "STUBS": str(self.bin), "WORK": str(self.work),
               "TIMEOUT": shutil.which("timeout") or "/usr/bin/timeout", "LIMIT": str(limit_seconds),
               "BASH": BASH}
        data = "".join(line + "\0" for line in lines).encode("utf-8", "surrogateescape")
        subprocess.run([BASH, "--norc", "--noprofile", "-c", _DRIVER], input=data, env=env, cwd=self.work,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=max(60, len(lines) * limit_seconds))
        return [collections.Counter((self.logs / str(k)).read_text().split()) for k in range(len(lines))]


def programs_of(split) -> set[str]:
    """Every program a part of the split shows: its argv[0] and the program its key names."""
    from wispsh.keys import key_for

    seen = set()
    for part in split.parts:
        if part.argv and part.argv[0]:
            seen.add(os.path.basename(part.argv[0]))
        key = key_for(part)
        if key.program:
            seen.add(key.program)
        if key.command and key.command[0]:
            seen.add(os.path.basename(key.command[0]))
    return seen
