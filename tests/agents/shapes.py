"""The spawn shapes of each pinned client, as recorded (design/agents-observed/): one regular expression per
shape, matched against a spawn's argv (after argv[0]) joined with NUL. A spawn that matches none is a drift;
scripts/agents-latest reports it with the lines that changed against the nearest known shape."""
from __future__ import annotations

import difflib
import re

P = r"[^\x00]*?"      # any text within one argument
SHAPES = {
    "claude-code": {
        "env probe": r"-c\x00env",
        "snapshot capture": r"-c\x00-l\x00SNAPSHOT_FILE=[^\n]*/\.claude/shell-snapshots/snapshot-bash-[0-9]+-[a-z0-9]+\.sh\n" + P,
        "command, snapshot": r"-c\x00source [^ ]*/shell-snapshots/snapshot-bash-[^ ]+\.sh 2>/dev/null \|\| true && "
                             r"shopt -u extglob 2>/dev/null \|\| true && eval " + P + r" && pwd -P >\| [^ ]*/claude-[0-9a-f]{4}-cwd",
        "command, no snapshot": r"-c\x00-l\x00shopt -u extglob 2>/dev/null \|\| true && eval " + P
                                + r" && pwd -P >\| [^ ]*/claude-[0-9a-f]{4}-cwd",
    },
    "codex": {
        "snapshot capture": r"-lc\x00if \[ -z \"\$\{BASH_ENV-\}\" \]" + P,
        "snapshot validation": r"-c\x00set -e; \. \"[^\"]*/shell_snapshots/[0-9a-f-]+\.tmp-[0-9]+\"",
        "command, snapshot wrapper": r"-c\x00__CODEX_SNAPSHOT_OVERRIDE_SET_0=" + P + r"\nexec '[^']*' -c " + P,
        "inner command": r"-c\x00" + P,
        "command, login": r"-lc\x00" + P,
    },
    "gemini-cli": {
        "command": r"-c\x00shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=[^\n]*/gemini-shell-[A-Za-z0-9]{6}/bgpids\.tmp\n"
                   r"\(\n  trap 'jobs -p > \"\$_bgpids_file\"' EXIT\n" + P + r"\n\)\n__code=\$\?\nexit \$__code",
        "installed script": r"/" + P + r"(\x00" + P + r")*",
    },
    "qwen-code": {
        "command": r"-c\x00" + P,
        "installed script": r"/" + P + r"(\x00" + P + r")*",
    },
    "opencode": {"command": r"-c\x00" + P},
    "mini-swe-agent": {"command": r"-c\x00" + P, "installed script": r"/" + P + r"(\x00" + P + r")*"},
}


def shape_of(client: str, argv: list[str]) -> str | None:
    joined = "\x00".join(argv)
    for name, regex in SHAPES[client].items():
        if re.fullmatch(regex, joined, re.S):
            return name
    return None


def drift(client: str, argv: list[str], known: dict[str, list[str]]) -> str:
    """The lines of an unknown spawn that differ from the closest recorded spawn of the pinned version."""
    text = "\n".join(argv).splitlines()
    best, best_ratio = [], 0.0
    for sample in known.values():
        other = "\n".join(sample).splitlines()
        ratio = difflib.SequenceMatcher(None, text, other).ratio()
        if ratio > best_ratio:
            best, best_ratio = other, ratio
    diff = [l for l in difflib.unified_diff(best, text, "pinned", "latest", lineterm="", n=0)
            if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    return "\n".join(d[:200] for d in diff[:20])
