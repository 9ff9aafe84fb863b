"""The spawn shapes of each pinned client, as recorded (design/agents-observed/): one regular expression per
shape, matched against a spawn's argv (after argv[0]) joined with NUL. A spawn that matches none is a drift;
scripts/agents-latest reports it with the lines that changed against the nearest known shape."""
from __future__ import annotations

import difflib
import re

P = r"[^\x00]*?"      # any text within one argument
CLAUDE_GUARDS = (r"\\builtin shopt -u extglob 2>/dev/null \|\| true && "
                 r"\{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; \} >/dev/null 2>&1 \|\| true && "
                 r"\{ \\builtin unalias -- 'unsetenv'; \\builtin unset -f -- 'unsetenv'; \} >/dev/null 2>&1 \|\| true && ")
SHAPES = {
    "claude-code": {
        "env probe": r"-c\x00env",
        "snapshot capture": r"-c\x00-l\x00SNAPSHOT_FILE=[^\n]*/\.claude/shell-snapshots/snapshot-bash-[0-9]+-[a-z0-9]+\.sh\n" + P,
        "command, snapshot": r"-c\x00source [^ ]*/shell-snapshots/snapshot-bash-[^ ]+\.sh 2>/dev/null \|\| true && "
                             r"shopt -u extglob 2>/dev/null \|\| true && eval " + P + r" && pwd -P >\| [^ ]*/claude-[0-9a-f]{4}-cwd",
        "command, no snapshot": r"-c\x00-l\x00shopt -u extglob 2>/dev/null \|\| true && eval " + P
                                + r" && pwd -P >\| [^ ]*/claude-[0-9a-f]{4}-cwd",
        # 2.1.332 (tests/agents/observed/claude-code-2.1.332.json)
        "command, snapshot (2.1.332)": r"-c\x00source [^ ]*/shell-snapshots/snapshot-bash-[^ ]+\.sh 2>/dev/null \|\| true && "
                                       + CLAUDE_GUARDS + r"eval " + P + r" && pwd -P >\| [^ ]*/claude-[0-9a-f]{4}-cwd",
        "command, no snapshot (2.1.332)": r"-c\x00-l\x00" + CLAUDE_GUARDS + r"eval " + P
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
    "aider": {"command, terminal": r"-i\x00-c\x00" + P},
}


def shape_of(client: str, argv: list[str]) -> str | None:
    joined = "\x00".join(argv)
    for name, regex in SHAPES[client].items():
        if re.fullmatch(regex, joined, re.S):
            return name
    return None


# what differs between any two spawns of one client (random names, the box): not a drift
_RANDOM = ((re.compile(r"snapshot-(bash|zsh)-[0-9]+-[a-z0-9]+"), r"snapshot-\1-<ms>-<id>"),
           (re.compile(r"claude-[0-9a-f]{4}-cwd"), "claude-<hex>-cwd"),
           (re.compile(r"gemini-shell-[A-Za-z0-9]{6}"), "gemini-shell-<id>"),
           (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.(tmp-)?[0-9]+)?"), "<uuid>"),
           (re.compile(r"_END_[A-Za-z0-9]{6,}"), "_END_<id>"))


def normal(argv: list[str], root: str | None = None) -> list[str]:
    out = []
    for arg in argv:
        if root:
            arg = arg.replace(root, "$BOX")
        for regex, repl in _RANDOM:
            arg = regex.sub(repl, arg)
        out.append(arg)
    return out


def _pieces(argv: list[str]) -> list[str]:
    """A spawn as lines to compare: each argument's lines, a long `a && b && c` chain cut at each ` && `."""
    out = []
    for arg in normal(argv):
        for line in arg.split("\n"):
            parts = line.split(" && ")
            out += [p + (" &&" if i < len(parts) - 1 else "") for i, p in enumerate(parts)]
    return out


def nearest(argv: list[str], known: dict[str, list[str]]) -> tuple[str | None, list[str]]:
    """The recorded spawn closest to `argv` by its text (characters, not lines: a one-line command chain and
    the one-word env probe share a line count, not a shape), preferring the command spawns on a tie."""
    text = "\x00".join(argv)
    best, best_argv, best_ratio = None, [], -1.0
    for name, sample in sorted(known.items(), key=lambda kv: not kv[0].startswith("command")):
        ratio = difflib.SequenceMatcher(None, text, "\x00".join(sample), autojunk=False).ratio()
        if ratio > best_ratio:
            best, best_argv, best_ratio = name, sample, ratio
    return best, best_argv


def drift(client: str, argv: list[str], known: dict[str, list[str]], root: str | None = None) -> str:
    """The lines of an unknown spawn that differ from the nearest recorded spawn of the pinned version (`root`:
    the box the spawn ran in, written $BOX as in the recording)."""
    argv = normal(argv, root)
    name, sample = nearest(argv, known)
    diff = [l for l in difflib.unified_diff(_pieces(sample), _pieces(argv), "pinned", "latest", lineterm="", n=0)
            if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    head = f"nearest recorded spawn: {name!r}"
    return "\n".join([head] + [d[:200] for d in diff[:24]])
