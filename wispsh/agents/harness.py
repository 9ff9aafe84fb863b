"""Recognising each agent's own plumbing around the command it runs.

Agents wrap the model's command in boilerplate of their own (Claude Code's snapshot `source … && eval '…'
< /dev/null && pwd -P >| /tmp/claude-…-cwd`, Codex's snapshot wrapper, Gemini's subshell, opencode's
`eval "<json>"`). The shapes live as data in Resources/harnesses.json. A line matches only when it equals
a template exactly; then only the payload needs judging. Anything else, any byte different, is None and
the line is judged as written (fail closed: more questions, never fewer).

The payload hole is read by a strict decoder for the agent's own quoting, and re-encoding what was read
must give back the hole byte for byte, so text inside the payload that looks like the template's tail
cannot move plumbing in or out of it. Files the plumbing sources are trusted only at the agents' own
paths, owned by the user and writable by no one else (or listed in config `trustedSources`).
"""
from __future__ import annotations

import bisect
import fnmatch
import os
import re
import stat
from functools import cache
from collections.abc import Mapping, Sequence

from wispsh.agents import marks
from wispsh.config import Config
from wispsh.support.record import Record
from wispsh.vocab.shells import CODEX_NAMES

_set = object.__setattr__  # records set their fields once, in __init__

# ------------------------------------------------------------------ results


class OffsetMap(Record):
    """Maps character offsets in a decoded text to offsets in the text it was written in."""

    decoded: tuple[int, ...]    # start of each segment in the decoded text
    written: tuple[int, ...]    # where that segment starts in the written text
    end: int                    # end of the hole in the written text (offsets past the payload land here)

    __slots__ = FIELDS = ('decoded', 'written', 'end')

    def __init__(self, decoded, written, end) -> None:
        _set(self, 'decoded', decoded)
        _set(self, 'written', written)
        _set(self, 'end', end)

    def __call__(self, offset: int) -> int:
        k = bisect.bisect_right(self.decoded, offset) - 1
        if k < 0:
            return self.written[0] if self.written else self.end
        return min(self.written[k] + (offset - self.decoded[k]), self.end)


class HarnessMatch(Record):
    agent: str                          # "claude-code", "codex", "gemini-cli", "opencode"
    template: str                       # the template id in harnesses.json
    payload: str                        # the payload as written in the line (inside its quotes)
    payload_span: tuple[int, int]       # character offsets of `payload` in the line
    payload_decoded: str                # the text the inner eval / shell will run
    plumbing: tuple[str, ...]           # what was recognised around it, "name=value"
    sourced: tuple[str, ...]            # files the plumbing sources (checked and trusted)
    payload_arg: int | None             # codex/snapshot-args: the payload is args[payload_arg], not in the line
    maps: tuple[OffsetMap, ...]         # innermost first

    __slots__ = FIELDS = ('agent', 'template', 'payload', 'payload_span', 'payload_decoded', 'plumbing', 'sourced',
                          'payload_arg', 'maps')
    SHOWN = ('agent', 'template', 'payload', 'payload_span', 'payload_decoded', 'plumbing', 'sourced',
             'payload_arg')

    def __init__(self, agent, template, payload, payload_span, payload_decoded, plumbing, sourced,
                 payload_arg=None, maps=()) -> None:
        _set(self, 'agent', agent)
        _set(self, 'template', template)
        _set(self, 'payload', payload)
        _set(self, 'payload_span', payload_span)
        _set(self, 'payload_decoded', payload_decoded)
        _set(self, 'plumbing', plumbing)
        _set(self, 'sourced', sourced)
        _set(self, 'payload_arg', payload_arg)
        _set(self, 'maps', maps)

    def to_line(self, offset: int) -> int:
        """A character offset in payload_decoded, as an offset in the line."""
        if self.payload_arg is not None:
            return 0
        for one in self.maps:
            offset = one(offset)
        return offset

    def span_in_line(self, start: int, end: int) -> tuple[int, int]:
        """A span of payload_decoded (e.g. a Part's span when the payload is split alone) in the line."""
        if self.payload_arg is not None:
            return self.payload_span
        return (self.to_line(start), max(self.to_line(start), self.to_line(end)))


# ------------------------------------------------------------------ quoting of the agents


def shellquote(word: str) -> str:
    """npm shell-quote's quote([word]): the quoting Claude Code and Gemini CLI use."""
    if word == "":
        return "''"
    if re.search(r'["\s\\]', word) and "'" not in word:
        return "'" + word + "'"
    if re.search(r"[\"'\s]", word):
        return '"' + _dq_escape(word) + '"'
    return _bare_escape(word)


def _dq_escape(text: str) -> str:
    return re.sub(r'(["\\$`!])', r"\\\1", text)


def _bare_escape(text: str) -> str:
    return re.sub(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])", r"\1\\\2", text)


class _Decoded:
    """A decoded hole: `text` is what bash passes on (eval's argument, sh -c's script); `decoded` and
    `written` are the OffsetMap segments, offsets relative to the hole."""

    __slots__ = ("text", "decoded", "written")

    def __init__(self, text: str, decoded: tuple[int, ...], written: tuple[int, ...]):
        self.text, self.decoded, self.written = text, decoded, written


def _decode_sq(hole: str, escapes: Sequence[str]) -> _Decoded | None:
    """'…' with each ' written as one of the agent's escapes ('"'"' or '\\'')."""
    if len(hole) < 2 or hole[0] != "'" or hole[-1] != "'":
        return None
    inner = hole[1:-1]
    for esc in escapes:
        chunks = inner.split(esc)
        if any("'" in c for c in chunks):
            continue
        text = "'".join(chunks)
        if "'" + text.replace("'", esc) + "'" != hole:      # the proof: re-encoding gives the hole back
            continue
        dec, wri, d, w = [], [], 0, 1
        for i, chunk in enumerate(chunks):
            if i:
                dec.append(d)
                wri.append(w)
                d += 1
                w += len(esc)
            dec.append(d)
            wri.append(w)
            d += len(chunk)
            w += len(chunk)
        return _Decoded(text, tuple(dec), tuple(wri))
    return None


_DQ_TOKEN = r'\\(["\\$`!])|([^"\\$`!]+)'


def _decode_dq_shellquote(hole: str) -> _Decoded | None:
    """shell-quote's "…": only " \\ $ ` ! escaped. Bash keeps the backslash of \\! (what runs has it)."""
    if len(hole) < 2 or hole[0] != '"' or hole[-1] != '"':
        return None
    inner = hole[1:-1]
    agent, ran, dec, wri = [], [], [], []
    pos, d = 0, 0
    while pos < len(inner):
        m = re.compile(_DQ_TOKEN).match(inner, pos)
        if not m:
            return None
        dec.append(d)
        wri.append(pos + 1)
        if m.group(1) is not None:
            ch = m.group(1)
            agent.append(ch)
            piece = "\\!" if ch == "!" else ch
        else:
            piece = m.group(2)
            agent.append(piece)
        ran.append(piece)
        d += len(piece)
        pos = m.end()
    if '"' + _dq_escape("".join(agent)) + '"' != hole:
        return None
    return _Decoded("".join(ran), tuple(dec), tuple(wri))


_BARE_TOKEN = r"\\([^\n])|([^\s#!\"$&'()*,;<=>?@\[\\\]^`{|}~]+)"


def _decode_bare_shellquote(hole: str) -> _Decoded | None:
    """shell-quote's unquoted word: specials backslash-escaped, no quotes, spaces or ~."""
    if not hole:
        return None
    out, dec, wri = [], [], []
    pos, d = 0, 0
    while pos < len(hole):
        m = re.compile(_BARE_TOKEN).match(hole, pos)
        if not m:
            return None
        piece = m.group(1) if m.group(1) is not None else m.group(2)
        dec.append(d)
        wri.append(pos)
        out.append(piece)
        d += len(piece)
        pos = m.end()
    text = "".join(out)
    if _bare_escape(text) != hole:
        return None
    return _Decoded(text, tuple(dec), tuple(wri))


def _decode_dq_json(hole: str) -> _Decoded | None:
    """opencode's eval ${JSON.stringify(cmd)} read by bash: \\" and \\\\ unescaped, \\n etc. kept as written."""
    import json

    if len(hole) < 2 or hole[0] != '"' or hole[-1] != '"' or "$" in hole or "`" in hole:
        return None
    try:
        agent = json.loads(hole)
    except ValueError:
        return None
    if not isinstance(agent, str) or json.dumps(agent, ensure_ascii=False) != hole:
        return None
    inner = hole[1:-1]
    ran, dec, wri = [], [0], [1]
    pos, d = 0, 0
    while pos < len(inner):
        nxt = inner.find("\\", pos)
        if nxt < 0:
            ran.append(inner[pos:])
            break
        ran.append(inner[pos:nxt])
        d += nxt - pos
        if inner[nxt + 1] in '"\\':
            ran.append(inner[nxt + 1])
            dec.append(d)
            wri.append(nxt + 1 + 1)
            d += 1
            dec.append(d)
            wri.append(nxt + 2 + 1)
        else:
            ran.append(inner[nxt:nxt + 2])
            d += 2
        pos = nxt + 2
    return _Decoded("".join(ran), tuple(dec), tuple(wri))


def _decode(hole: str, spec: dict) -> _Decoded | None:
    for codec in spec["codec"]:
        if codec == "raw":
            return _Decoded(hole, (0,), (0,))
        if codec == "sq" and hole[:1] == "'":
            return _decode_sq(hole, spec.get("escapes", ["'\"'\"'"]))
        if codec == "dq-shellquote" and hole[:1] == '"':
            return _decode_dq_shellquote(hole)
        if codec == "dq-json" and hole[:1] == '"':
            return _decode_dq_json(hole)
        if codec == "bare-shellquote" and hole[:1] not in ("'", '"'):
            return _decode_bare_shellquote(hole)
    return None


_CODEC_RE = {
    "sq": None,   # built from the escapes
    "dq-shellquote": r'"(?:[^"\\$`!]++|\\["\\$`!])*+"',
    "bare-shellquote": r"(?:[^\s#!\"$&'()*,;<=>?@\[\\\]^`{|}~]++|\\[^\n])++",
    "dq-json": r'"(?:[^"\\$`\x00-\x1f]++|\\["\\/bfnrtu])*+"',
}


def _codec_regex(spec: dict, lazy: bool) -> str:
    alts = []
    for codec in spec["codec"]:
        if codec == "raw":
            alts.append(r"[\s\S]+?" if lazy else r"[\s\S]+")
        elif codec == "sq":
            esc = "|".join(re.escape(e) for e in spec.get("escapes", ["'\"'\"'"]))
            alts.append(r"'[^']*+(?:(?:%s)[^']*+)*+'" % esc)
        else:
            alts.append(_CODEC_RE[codec])
    return "(?:" + "|".join(alts) + ")"


# ------------------------------------------------------------------ compiling templates

# Every template contains one of these (a test checks it): a line with none is no agent's plumbing.
MAY_MATCH = marks.MAY_MATCH


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SAVE = (r'__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE_SET_[0-9]+="\$\{%s\+x\}"\n'
         r'__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE_[0-9]+="\$\{%s-\}"') % (_NAME, _NAME)
_RESTORE = (r'if \[ -n "\$\{__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE_SET_[0-9]+\}" \]; then export %s='
            r'"\$\{__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE_[0-9]+\}"(?:; else unset %s)?; fi') % (_NAME, _NAME)
_PATH_RE = {
    "bare": r"[A-Za-z0-9_./+%-]+",
    "sq": r"'[^'\n]*'",
    "raw": r"[^'\"\\$`\n]+",
}
# Codex 0.171's restores: four-line blocks per variable, the proxy group inside one `if … fi`. The hole only
# takes such lines; _codex_restores_v2 then rebuilds the exact text from the saves and compares.
_RESTORE_V2_LINE = (r'(?:if \[ -n "\$\{__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE_SET_[0-9]+\}" \]; then'
                    r'|  if \[ -z "\$\{%s\+x\}" \] [^\n]*; fi'
                    r'|else builtin unset %s 2>/dev/null \|\| command unset %s; fi'
                    r'|builtin unset __CODEX_SNAPSHOT_[A-Z_0-9 ]+ 2>/dev/null \|\| command unset __CODEX_SNAPSHOT_[A-Z_0-9 ]+'
                    r'|if \[ -n "\$__CODEX_SNAPSHOT_PROXY_ENV_SET" \] \|\| \[ -n "\$\{CODEX_NETWORK_PROXY_ACTIVE\+x\}" \]; then'
                    r'|fi)') % (_NAME, _NAME, _NAME)
_HOLE_RE = {
    "shell": r"[^'\n]+",
    "codex-env-saves": "%s(?:\n%s)*" % (_SAVE, _SAVE),
    "codex-env-restores": "%s(?:\n%s)*" % (_RESTORE, _RESTORE),
    "codex-env-restores-v2": "%s(?:\n%s)*" % (_RESTORE_V2_LINE, _RESTORE_V2_LINE),
    "codex-path": r"/[^'\n]*/codex-path",
    "rc": "",
    "rc-path": r'[^"\n]+',
    "home": r"/[^\s'\"$`\\]*",
    "line": r"[^\n]*",
    "prefix-command": r"(?:[A-Za-z0-9_./+%-]+|'[^'\n]*')(?: -[^'\"\n]*)?",
}


class _Template:
    """A compiled template: greedy and lazy regexes (a line they split differently is ambiguous), the hole
    spec of each named group, a literal every matching line contains, and the argv checks of an args form."""

    __slots__ = ("id", "agent", "greedy", "lazy", "holes", "anchor", "args")

    def __init__(self, id, agent, greedy, lazy, holes, anchor, args):  # noqa: A002
        self.id, self.agent, self.greedy, self.lazy = id, agent, greedy, lazy
        self.holes, self.anchor, self.args = holes, anchor, args


def _compile(seq: list, lazy: bool, holes: dict, counter: list) -> str:
    out = []
    for item in seq:
        if isinstance(item, str):
            out.append(re.escape(item))
        elif "optional" in item:
            out.append("(?:" + _compile(item["optional"], lazy, holes, counter) + ")?")
        elif "one_of" in item:
            out.append("(?:" + "|".join(_compile(s, lazy, holes, counter) for s in item["one_of"]) + ")")
        else:
            kind = item["hole"]
            if kind in ("payload", "inner"):
                body = _codec_regex(item, lazy)
            elif kind == "path":
                body = "(?:" + "|".join(_PATH_RE[q] for q in item["quoting"]) + ")"
            elif kind == "indent":
                body = " *?" if lazy else " *"
            elif kind == "token":
                body = item["pattern"]
            else:
                body = _HOLE_RE[kind]
            counter[0] += 1
            name = f"h{counter[0]}"
            holes[name] = item
            out.append(f"(?P<{name}>{body})")
    return "".join(out)


def _anchor(seq: list) -> str:
    literals = [item for item in seq if isinstance(item, str)]
    return max(literals, key=len) if literals else ""


def _build(entry: dict) -> _Template:
    holes: dict = {}
    greedy = re.compile(_compile(entry["seq"], False, holes, [0]))
    lazy = re.compile(_compile(entry["seq"], True, {}, [0]))
    return _Template(entry["id"], entry["agent"], greedy, lazy, holes, _anchor(entry["seq"]), entry.get("args"))


class Table:
    """harnesses.json compiled: templates (and by id), path kinds, rc files, snapshot runs, probe lines
    (exact line -> agent) and digests ((length in characters or None, sha256 hex) -> agent)."""

    __slots__ = ("templates", "by_id", "paths", "rc_files", "snapshot_runs", "probe_lines", "digests",
                 "snapshot_functions")

    def __init__(self, templates, by_id, paths, rc_files, snapshot_runs, probe_lines, digests,
                 snapshot_functions=()):
        self.templates, self.by_id, self.paths, self.rc_files = templates, by_id, paths, rc_files
        self.snapshot_runs, self.probe_lines, self.digests = snapshot_runs, probe_lines, digests
        self.snapshot_functions = snapshot_functions     # the agents' own functions in their snapshots


def load_table(path=None) -> Table:
    import json

    if path is None:
        from wispsh.support.resources import resource_path
        path = resource_path("harnesses.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    templates = tuple(_build(t) for t in data["templates"])
    runs, probes = [], {}
    for run in data.get("snapshot_runs", []):
        if "seq" in run:
            runs.append(_build(run))
        for line in run.get("one_line_of", []):
            probes[line] = (run["agent"], tuple(sorted(run.get("when_env", {}).items())))
    digests = {(d.get("chars"), d["sha256"]): (d["agent"], tuple(d.get("rc_files", ())))
               for d in data.get("snapshot_run_digests", [])}
    return Table(templates, {t.id: t for t in templates}, data.get("paths", {}), data.get("rc_files", {}),
                 tuple(runs), probes, digests, tuple(f["text"] for f in data.get("snapshot_functions", ())))


@cache
def default_table() -> Table:
    return load_table()


# ------------------------------------------------------------------ trust of files and paths


def _home(env: Mapping[str, str]) -> str | None:
    home = env.get("HOME")
    return home if home and os.path.isabs(home) else None


def _expand(base: str, env: Mapping[str, str]) -> str | None:
    if base.startswith("$"):
        value = env.get(base[1:])
        return value.rstrip("/") or None if value and os.path.isabs(value) else None
    if base == "~" or base.startswith("~/"):
        home = _home(env)
        return (home.rstrip("/") + base[1:]) if home else None
    return base


def _owner_ok(st: os.stat_result, allow_root: bool) -> bool:
    if st.st_uid != os.getuid() and not (allow_root and st.st_uid == 0):
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _agent_file_trusted(path: str, base: str) -> bool:
    """An agent-made file: a regular file, no symlink on the way down from `base`, all the user's own."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or not _owner_ok(st, allow_root=False):
        return False
    directory = os.path.dirname(path)
    while True:
        try:
            dst = os.lstat(directory)
        except OSError:
            return False
        if not stat.S_ISDIR(dst.st_mode) or not _owner_ok(dst, allow_root=False):
            return False
        if directory == base or len(directory) <= len(base):
            return directory == base
        directory = os.path.dirname(directory)


def _agent_target_ok(path: str, base: str) -> bool:
    """A file an agent's plumbing writes (its snapshot): absent or a regular file of the user's own (no
    symlink to follow elsewhere), in directories of the user's own, none a symlink, down from `base`."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or not _owner_ok(st, allow_root=False):
            return False
    except FileNotFoundError:
        pass
    except OSError:
        return False
    directory = os.path.dirname(path)
    while True:
        try:
            dst = os.lstat(directory)
        except OSError:
            return False
        if not stat.S_ISDIR(dst.st_mode) or not _owner_ok(dst, allow_root=False):
            return False
        if directory == base or len(directory) <= len(base):
            return directory == base
        directory = os.path.dirname(directory)


def _listed_trusted(path: str, config: Config, env: Mapping[str, str]) -> bool:
    """A file the user listed in trustedSources: followed like the shell will, owned by them or root."""
    for pattern in config.trusted_sources:
        expanded = _expand(pattern, env) if pattern.startswith(("~", "$")) else pattern
        if expanded and fnmatch.fnmatchcase(path, expanded):
            try:
                real = os.path.realpath(path)
                st, dst = os.stat(real), os.stat(os.path.dirname(real))
            except OSError:
                return False
            return stat.S_ISREG(st.st_mode) and _owner_ok(st, True) and _owner_ok(dst, True)
    return False


def _path_ok(path: str, spec: dict, table: Table, env: Mapping[str, str], config: Config) -> bool:
    kind = table.paths[spec["kind"]]
    if not os.path.isabs(path) or os.path.normpath(path) != path:
        return False
    for base in kind["bases"]:
        root = _expand(base, env)
        if not root or not path.startswith(root + "/"):
            continue
        if not re.fullmatch(kind["relative"], path[len(root) + 1:]):
            continue
        if "written" in kind:
            return _agent_target_ok(path, root)
        if "sourced" not in kind:
            return True
        return _agent_file_trusted(path, root) or _listed_trusted(path, config, env)
    return "sourced" in kind and _listed_trusted(path, config, env)


def _rc_paths(names: Sequence[str], table: Table, env: Mapping[str, str]) -> list[str] | None:
    home = _home(env)
    if not home:
        return None
    out = []
    for name in names:
        for expr in table.rc_files[name]:
            if expr.startswith("${ZDOTDIR:-$HOME}/"):
                zdotdir = env.get("ZDOTDIR") or home
                if not os.path.isabs(zdotdir):
                    return None
                out.append(zdotdir.rstrip("/") + expr[len("${ZDOTDIR:-$HOME}"):])
            elif expr.startswith("~/"):
                out.append(home.rstrip("/") + expr[1:])
            else:
                return None
    return out


def _rc_trusted(path: str, config: Config, env: Mapping[str, str]) -> bool:
    """The user's own rc file (opencode sources it): may be a symlink (dotfile managers), target checked."""
    if _listed_trusted(path, config, env):
        return True
    try:
        real = os.path.realpath(path)
        if not os.path.lexists(path):
            return _owner_ok(os.stat(os.path.dirname(path)), allow_root=False)
        st, dst = os.stat(real), os.stat(os.path.dirname(real))
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and _owner_ok(st, False) and _owner_ok(dst, False)




@cache
def _etc_shells() -> frozenset[str]:
    try:
        with open("/etc/shells", encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip().startswith("/"))


def _real_shell(path: str, config: Config) -> bool:
    """An absolute path to a real shell or a wispsh shim, named exactly bash, zsh or sh (as Codex requires).

    Real: the path or its target is listed in /etc/shells or in config `shell.*` (`shell.known` included); a shim: a link to wispsh,
    or a shell shim marked as shims.py lays them. A file merely named bash proves nothing.
    """
    if not os.path.isabs(path) or os.path.normpath(path) != path:
        return False
    if os.path.basename(path) not in CODEX_NAMES:
        return False
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or not st.st_mode & 0o111 or not _owner_ok(st, allow_root=True):
        return False
    known = _etc_shells() | set(config.shells.values()) | set(config.known_shells)
    if path in known or real in known or os.path.basename(real) == "wispsh":
        return True
    from wispsh.support.shimfile import read_shim   # a shell shim `wisp shims install` laid, in a directory only the user writes

    shim = read_shim(path)
    if shim is None or shim.kind != "shell" or shim.stale:
        return False
    try:
        return _owner_ok(os.stat(os.path.dirname(path)), allow_root=True)
    except OSError:
        return False


# ------------------------------------------------------------------ Codex's variable saves


_SAVE_LINE = (r'(__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE)_SET_([0-9]+)="\$\{(%s)\+x\}"' % _NAME)
_VALUE_LINE = (r'(__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE)_([0-9]+)="\$\{(%s)-\}"' % _NAME)
_RESTORE_LINE = (
    r'if \[ -n "\$\{(__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE)_SET_([0-9]+)\}" \]; then export (%s)='
    r'"\$\{(__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE)_([0-9]+)\}"(?:; else unset (%s))?; fi' % (_NAME, _NAME))


def _codex_saves_agree(saves: str | None, restores: str | None) -> bool:
    """Saves and restores come together, name the same variables in the same order, indexes 0.. per block."""
    if saves is None or restores is None:
        return saves is None and restores is None
    lines = saves.split("\n")
    captured, next_index = [], {}
    for set_line, value_line in zip(lines[0::2], lines[1::2]):
        a, b = re.fullmatch(_SAVE_LINE, set_line), re.fullmatch(_VALUE_LINE, value_line)
        if not a or not b or a.groups() != b.groups():
            return False
        prefix, index, name = a.groups()
        if int(index) != next_index.get(prefix, 0) or index != str(int(index)):
            return False
        next_index[prefix] = int(index) + 1
        captured.append((prefix, index, name))
    restored = []
    for line in restores.split("\n"):
        m = re.fullmatch(_RESTORE_LINE, line)
        if not m:
            return False
        prefix, index, name, prefix2, index2, unset = m.groups()
        wants_unset = prefix == "__CODEX_SNAPSHOT_OVERRIDE"
        if prefix2 != prefix or index2 != index or (unset is not None) != wants_unset:
            return False
        if unset is not None and unset != name:
            return False
        restored.append((prefix, index, name))
    return len(lines) % 2 == 0 and captured == restored


def _codex_restores_v2(saves: str, restores: str) -> bool:
    """Codex 0.171's restores, rebuilt from its saves: one four-line block per saved variable, the proxy
    variables' blocks inside `if [ -n "$__CODEX_SNAPSHOT_PROXY_ENV_SET" ] || … ; then … fi`."""
    lines = saves.split("\n")
    if len(lines) % 2:
        return False
    groups: dict[str, list[tuple[str, str]]] = {"__CODEX_SNAPSHOT_OVERRIDE": [], "__CODEX_SNAPSHOT_PROXY_OVERRIDE": []}
    for set_line, value_line in zip(lines[0::2], lines[1::2]):
        a, b = re.fullmatch(_SAVE_LINE, set_line), re.fullmatch(_VALUE_LINE, value_line)
        if not a or not b or a.groups() != b.groups():
            return False
        prefix, index, name = a.groups()
        if index != str(len(groups[prefix])):
            return False
        groups[prefix].append((index, name))

    def block(prefix: str, index: str, name: str) -> str:
        s, v = f"{prefix}_SET_{index}", f"{prefix}_{index}"
        return (f'if [ -n "${{{s}}}" ]; then\n'
                f'  if [ -z "${{{name}+x}}" ] || [ "${{{name}-}}" != "${{{v}}}" ]; then export {name}="${{{v}}}"; '
                f'else export {name}; fi\n'
                f'else builtin unset {name} 2>/dev/null || command unset {name}; fi\n'
                f'builtin unset {s} {v} 2>/dev/null || command unset {s} {v}')

    out = [block("__CODEX_SNAPSHOT_OVERRIDE", i, n) for i, n in groups["__CODEX_SNAPSHOT_OVERRIDE"]]
    proxies = groups["__CODEX_SNAPSHOT_PROXY_OVERRIDE"]
    if proxies:
        out.append('if [ -n "$__CODEX_SNAPSHOT_PROXY_ENV_SET" ] || [ -n "${CODEX_NETWORK_PROXY_ACTIVE+x}" ]; then')
        out += [block("__CODEX_SNAPSHOT_PROXY_OVERRIDE", i, n) for i, n in proxies]
        out.append("fi")
    return "\n".join(out) == restores


def _trusted_dir(path: str) -> bool:
    """A directory of an installed tool: absolute, normal, owned by the user or root, writable by no one else."""
    if not os.path.isabs(path) or os.path.normpath(path) != path:
        return False
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and _owner_ok(st, allow_root=True)


def _plain_hole_ok(kind: str, text: str, spec: dict, named: dict, table: Table, env: Mapping[str, str],
                   config: Config, sourced: list) -> bool:
    """The holes that need only their own text (and the environment) to be checked."""
    if kind == "home":
        home = _home(env)
        return bool(home) and text == home and os.path.normpath(home) == home
    if kind == "line":
        return True
    if kind == "token":
        return "same" not in spec or named.get(spec["same"]) == text
    if kind == "rc-path":
        paths = _rc_paths(spec["files"], table, env)
        if not paths or text not in paths or not _rc_trusted(text, config, env):
            return False
        if os.path.lexists(text):
            sourced.append(text)
        return True
    if kind == "codex-path":
        return _trusted_dir(text)
    return False


# ------------------------------------------------------------------ matching


def _unquote_path(text: str) -> str:
    return text[1:-1] if text[:1] == "'" else text


def _try(template: _Template, line: str, table: Table, env: Mapping[str, str], config: Config,
         args: Sequence[str], depth: int) -> HarnessMatch | None:
    if template.anchor not in line:
        return None
    m, other = template.greedy.fullmatch(line), template.lazy.fullmatch(line)
    if not m or not other:
        return None
    if any(m.span(name) != other.span(name) for name in template.holes):
        return None   # the line splits two ways: not the agent's shape
    plumbing, sourced = [f"template={template.id}"], []
    payload = payload_hole = None
    saves = restores = restores_kind = None
    named = {spec["name"]: m.group(name) for name, spec in template.holes.items() if "name" in spec}
    for name, spec in template.holes.items():
        text = m.group(name)
        if text is None:
            continue
        kind = spec["hole"]
        if kind in ("payload", "inner"):
            payload, payload_hole = name, spec
        elif kind == "path":
            path = _unquote_path(text)
            if text[:1] == "'" and "'" in path:
                return None
            if not _path_ok(path, spec, table, env, config):
                return None
            plumbing.append(f"{spec['kind']}={path}")
            if "sourced" in table.paths[spec["kind"]]:
                sourced.append(path)
        elif kind == "rc":
            paths = _rc_paths(spec["files"], table, env)
            if paths is None or not all(_rc_trusted(p, config, env) for p in paths):
                return None
            sourced.extend(p for p in paths if os.path.lexists(p))
        elif kind == "shell":
            if not _real_shell(text, config):
                return None
            plumbing.append(f"shell={text}")
        elif kind == "prefix-command":
            wanted = env.get("CLAUDE_CODE_SHELL_PREFIX", "")
            cut = wanted.rfind(" -")
            program, flags = (wanted[:cut], " " + wanted[cut + 1:]) if cut > 0 else (wanted, "")
            quoted = {shellquote(program), "'" + program + "'"} if "'" not in program else {shellquote(program)}
            if not wanted or text not in {q + flags for q in quoted}:
                return None
            plumbing.append(f"shell-prefix={wanted}")
        elif kind == "codex-env-saves":
            saves = text
        elif kind in ("codex-env-restores", "codex-env-restores-v2"):
            restores, restores_kind = text, kind
        elif kind == "indent":
            pass
        elif not _plain_hole_ok(kind, text, spec, named, table, env, config, sourced):
            return None
    if restores_kind == "codex-env-restores-v2":
        if saves is None or not _codex_restores_v2(saves, restores):
            return None
    elif not _codex_saves_agree(saves, restores):
        return None
    if saves is not None:
        plumbing.append("codex-env-saves=%d" % (saves.count("\n") // 2 + 1))
    if template.args is not None:
        return _args_form(template, line, table, env, config, args, plumbing)
    if payload is None:
        return None
    start, end = m.span(payload)
    hole = line[start:end]
    decoded = _decode(hole, payload_hole)
    if decoded is None:
        return None
    if payload_hole["hole"] == "inner":
        return _inner(template.id, payload_hole, line, start, end, decoded, table, env, config, depth,
                      plumbing, sourced)
    text = decoded.text
    if not _payload_ok(text, payload_hole):
        return None
    if template.id.startswith("claude-code/") and line[m.end(payload):].startswith(" \\<"):
        text += " < /dev/null"   # eval joins its words: the redirect is inside what it runs
    quoted = hole[:1] in ("'", '"')
    span = (start + 1, end - 1) if quoted else (start, end)
    offsets = OffsetMap(tuple(decoded.decoded), tuple(start + w for w in decoded.written), span[1])
    return HarnessMatch(template.agent, template.id, line[span[0]:span[1]], span, text,
                        tuple(plumbing), tuple(sourced), None, (offsets,))


def _payload_ok(text: str, spec: dict) -> bool:
    if text.startswith("-"):
        return False
    ends = spec.get("ends_with")
    if ends and not text.endswith(tuple(ends)):
        return False
    flat = text.replace("'", "").replace('"', "").replace("\\", "")
    return not any(word in flat for word in spec.get("forbid", ()))


def _inner(template_id: str, spec: dict, line: str, start: int, end: int, decoded: _Decoded, table: Table,
           env: Mapping[str, str], config: Config, depth: int, plumbing: list, sourced: list) -> HarnessMatch | None:
    if depth > 2:
        return None
    inner = _match_in(decoded.text, [table.by_id[i] for i in spec["of"]], table, env, config, (), depth + 1)
    if inner is None or inner.payload_arg is not None:
        return None
    outer = OffsetMap(tuple(decoded.decoded), tuple(start + w for w in decoded.written), end)
    ps, pe = inner.payload_span
    span = (outer(ps), outer(pe))
    return HarnessMatch(inner.agent, template_id, line[span[0]:span[1]], span, inner.payload_decoded,
                        tuple(plumbing) + inner.plumbing, tuple(sourced) + inner.sourced, None,
                        inner.maps + (outer,))


def _args_form(template: _Template, line: str, table: Table, env: Mapping[str, str], config: Config,
               args: Sequence[str], plumbing: list) -> HarnessMatch | None:
    """Codex's older `. "$1" && shift && exec "$@"`: the payload is in argv, not in the line."""
    want = template.args
    if len(args) != 5 or args[0] != want["name"] or args[3] not in want["flags"]:
        return None
    snapshot, shell, script = args[1], args[2], args[4]
    if not _path_ok(snapshot, {"kind": want["snapshot"]}, table, env, config) or not _real_shell(shell, config):
        return None
    if script.startswith("-"):
        return None
    plumbing += [f"{want['snapshot']}={snapshot}", f"shell={shell}", f"flags={args[3]}"]
    return HarnessMatch(template.agent, template.id, script, (0, len(line)), script,
                        tuple(plumbing), (snapshot,), 4, ())


def _match_in(line: str, templates: Sequence[_Template], table: Table, env: Mapping[str, str],
              config: Config, args: Sequence[str], depth: int) -> HarnessMatch | None:
    found = [hit for t in templates if (hit := _try(t, line, table, env, config, args, depth)) is not None]
    if not found:
        return None
    if any((h.payload_span, h.payload_decoded) != (found[0].payload_span, found[0].payload_decoded) for h in found):
        return None   # two templates read the line differently: judge it as written
    return found[0]


def match(line: str, *, env: Mapping[str, str], config: Config, args: Sequence[str] = (),
          table: Table | None = None) -> HarnessMatch | None:
    """The agent plumbing `line` is, with its payload; None when it is not exactly a known template.

    `args` are the operands after the line (`$0`, `$1`, …), needed for Codex's older snapshot form.
    """
    if not marks.may_be_plumbing(line):
        return None   # most lines are no agent's plumbing, and the table is not even loaded
    table = table or default_table()
    prefixed = [t for t in table.templates if t.id != "claude-code/shell-prefix"] \
        if not env.get("CLAUDE_CODE_SHELL_PREFIX") else list(table.templates)
    return _match_in(line, prefixed, table, env, config, args, 0)


def is_snapshot_run(line: str, *, env: Mapping[str, str], config: Config, args: Sequence[str] = (),
                    table: Table | None = None, sourced: list | None = None) -> str | None:
    """The agent whose shell-snapshot capture, validation or version probe `line` is exactly, else None.
    `sourced` (when given) gets "kind=path" for each file of the agent's that the run sources."""
    table = table or default_table()
    if line in table.probe_lines:
        agent, when = table.probe_lines[line]
        return agent if all(env.get(k) == v for k, v in when) else None
    if any(chars in (None, len(line)) for chars, _ in table.digests):
        import hashlib

        digest = hashlib.sha256(line.encode("utf-8", "surrogateescape")).hexdigest()
        for key in ((len(line), digest), (None, digest)):
            if key in table.digests:
                agent, rc_files = table.digests[key]
                # the user's own start-up file it sources (Codex's capture reads ~/.bashrc) must be trusted
                paths = _rc_paths(rc_files, table, env) if rc_files else []
                if paths is None or not all(_rc_trusted(p, config, env) for p in paths):
                    return None
                return agent
    for template in table.snapshot_runs:
        m = template.greedy.fullmatch(line) if template.anchor in line else None
        other = template.lazy.fullmatch(line) if m is not None else None
        if m is None or other is None or any(m.span(n) != other.span(n) for n in template.holes):
            continue
        named = {spec["name"]: m.group(name) for name, spec in template.holes.items() if "name" in spec}
        ok = True
        for name, spec in template.holes.items():
            text = m.group(name)
            if text is None:
                continue
            if spec["hole"] == "path":
                ok = ok and _path_ok(_unquote_path(text), spec, table, env, config)
                if ok and sourced is not None and "sourced" in table.paths[spec["kind"]]:
                    sourced.append(f"{spec['kind']}={_unquote_path(text)}")
            else:
                ok = ok and _plain_hole_ok(spec["hole"], text, spec, named, table, env, config, [])
        if ok:
            return template.agent
    return None
