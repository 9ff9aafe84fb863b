"""Deny patterns: regexes that refuse a whole line, from config plus built-in defaults for the catastrophic.

Patterns from config run in linear time (RE2, support/linearre.py) on the whole line, on every part's text, and on the second spelling
of both (quotes, escapes and $IFS read away), so `r\\m -rf /`, `"r"m -rf /` and `rm${IFS}-rf${IFS}/` are refused.
A pattern that does not compile is a ConfigError naming it: never silently ignored.

The built-in defaults match only where a command starts, and skip what is data for certain: the body of a
quoted heredoc, and (for a part whose words are all static) the quotes the second spelling reads away, so
`cat <<'EOF'⏎rm -rf ~⏎EOF`, `echo ':(){ :|:& };:' > doc` and `rm -rf "~"` (a directory named ~) are not refused.
"""
from __future__ import annotations


from wispsh.config import Config, ConfigError
from wispsh.support.lazyre import lazy_re, re
from wispsh.support.memo import cache
from wispsh.model import DenyHit, Judged, Split

# Where a command starts: the beginning, or after an unescaped separator; then blanks (a newline is a separator
# of its own, so blanks never span lines: `\s*` here rescanned a long blank run from each of its newlines, which
# made a 2 MB heredoc take minutes), then any wrappers.
_START = r"(?:^|(?<!\\)[;&|(`\n{]|\$\()[ \t]*+"
_WRAPPERS = (r"(?:(?:sudo|doas|env|command|exec|builtin|nohup|nice|time|timeout|xargs|busybox|stdbuf|ionice"
             r"|[A-Za-z_][A-Za-z0-9_]*=\S*)(?:\s+-{1,2}[\w=-]+)*(?:\s+\d+[smhd]?)?\s+)*")
_RM = r"(?:\S*/)?rm\s+"
_RM_RECURSIVE = r"(?=(?:-{1,2}[\w-]*\s+)*?(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)\s)(?:-{1,2}[\w-]*\s+)+"
_CATASTROPHIC_TARGET = r"(?:/|/\*|~/?|~/\*|\$HOME/?|\$\{HOME\}/?|\$HOME/\*|\$\{HOME\}/\*)(?=\s|$|[;&|)])"
_DISK = r"/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d|mapper/|md\d|dm-\d)"

_OPEN_MODE = r"(?:0?777|[ugoa]*[+=]r?w?x?rwx|[ugoa]*[+=]rwx|a\+rwx|ugo\+rwx)"

RECURSIVE_DELETE = "built-in: recursive delete of / or your home"
# name shown as `denied_by.pattern` -> regex
DEFAULTS = {
    RECURSIVE_DELETE:
        _START + _WRAPPERS + _RM + _RM_RECURSIVE + r"(?:--\s+)?" + _CATASTROPHIC_TARGET,
    "built-in: fork bomb":
        _START + r"(:|[A-Za-z_][\w-]*)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;?\s*\1",
    "built-in: mkfs onto a disk device":
        _START + _WRAPPERS + r"mkfs(?:\.\w+)?\b[^;&|\n]*\s" + _DISK,
    "built-in: dd onto a disk device":
        _START + _WRAPPERS + r"dd\b[^;&|\n]*\bof=" + _DISK,
    "built-in: chmod -R 777 /":
        _START + _WRAPPERS + r"chmod(?=[^;&|\n]*\s(?:-[A-Za-z]*R|--recursive))\s+(?:-\S+\s+)*" + _OPEN_MODE
        + r"\s+(?:-\S+\s+)*/\*?(?=\s|$|[;&|)])",
    "built-in: wiping or overwriting a disk device":
        _START + _WRAPPERS + r"(?:wipefs|shred|blkdiscard)\b[^;&|\n]*\s" + _DISK,
}
DISK_WRITE = "built-in: wiping or overwriting a disk device"
_DISK_TARGET = lazy_re(_DISK)
# What a _DISK match starts with (its alternatives' literal heads): `> /dev/null` needs no regex.
_DISK_HEADS = ("/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/rdisk",
               "/dev/mapper/", "/dev/md", "/dev/dm-")
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
DEFAULT_PATTERNS = tuple(DEFAULTS)


# A built-in pattern can only match text holding its needle: a cheap test before the regex. A needle is one
# string, or a tuple whose first string and one of the others must all be there: the wipe pattern names its
# programs as well as /dev/ (a `2>/dev/null` alone compiles and runs nothing).
_NEEDLES = ("rm", "()", "mkfs", "of=", "chmod", ("/dev/", "wipefs", "shred", "blkdiscard"))


def _holds(text: str, needle) -> bool:
    if isinstance(needle, str):
        return needle in text
    return needle[0] in text and any(word in text for word in needle[1:])


@cache(maxsize=16)
def _compile(user: tuple[str, ...]) -> tuple[tuple[tuple[str, re.Pattern], ...], tuple[tuple[str, re.Pattern], ...]]:
    compiled = []
    if user:    # a user's patterns run in linear time (RE2): a backtracking one must not hang every line
        from wispsh.support import linearre
    for pattern in user:
        if not isinstance(pattern, str) or not pattern:
            raise ConfigError(f"deny pattern {pattern!r} must be a non-empty string")
        try:
            compiled.append((pattern, linearre.compile(pattern)))
        except linearre.PatternError as exc:
            raise ConfigError(f"deny pattern {pattern!r} does not compile: {exc}") from None
    builtin = tuple((name, lazy_re(regex)) for name, regex in DEFAULTS.items())   # compiled when a needle is seen
    return tuple(compiled), builtin


def compile_patterns(config: Config) -> tuple[tuple[str, re.Pattern], ...]:
    """The config's deny patterns then the built-in defaults, compiled. Raises ConfigError on a bad regex."""
    user, builtin = _compile(tuple(config.deny))
    return user + builtin


def _without_quoted_heredocs(split: Split, judged=()) -> str:
    """The line without the bodies of quoted heredocs, and of those a shell only parses (`bash -n <<EOF`):
    they are data, never run (an unquoted body's $(…) are parts of their own, checked as parts). One pass over
    the line (cutting each body out of a copy of the whole line made many heredocs quadratic)."""
    line = split.line
    if "\\\n" in line:
        line = line.replace("\\\n", "")      # bash joins a backslash-newline: `r\⏎m` is `rm`
    pieces: list[str] = []
    at = 0
    parsed = {id(item.part) for item in judged if item.part.stdin_code and _parses_only(item.key)}
    for part in sorted((p for p in split.parts if p.stdin_code and (p.stdin_quoted or id(p) in parsed)),
                       key=lambda p: p.span[0]):
        found = line.find(part.stdin_code, max(at, part.span[0]))   # type: ignore[arg-type]
        if found >= 0:
            pieces.append(line[at:found])
            at = found + len(part.stdin_code)    # type: ignore[arg-type]
    pieces.append(line[at:])
    return "".join(pieces)


def _parses_only(key) -> bool:
    """A shell started to check syntax (`bash -n`): it runs nothing of what it reads."""
    if key is None or not key.command:
        return False
    from wispsh.programs.interpreters import SHELLS, read_shell_words

    if key.program not in SHELLS or any(w is None for w in key.command[1:]):
        return False
    return read_shell_words(list(key.command[1:]))[3]


def _checked_second(item: Judged) -> str:
    """A part's second spelling when its words are known only at run time; else its static words as run."""
    part = item.part
    if any(word is None for word in part.argv) or not part.argv:
        return part.second
    words = []
    for value, written in zip(part.argv, part.words or part.argv):
        if value.startswith("~") and written[:1] in ("'", '"', "\\"):
            value = "./" + value        # a quoted tilde names a directory called ~
        words.append(_SPECIAL.sub(r"\\\g<0>", value))   # a word's separators are data: escape them
    return " ".join(words)


_SPECIAL = lazy_re(r"[\s;&|()<>`$'\"\\{}]")


def _hit(patterns, texts, needles=None) -> DenyHit | None:
    for index, (pattern, regex) in enumerate(patterns):
        needle = needles[index] if needles else None
        for text in texts:
            if needle is not None and not _holds(text, needle):
                continue
            match = regex.search(text)
            if match:
                return DenyHit(pattern=pattern, matched=match.group(0).strip())
    return None


def check(split: Split, judged: tuple[Judged, ...], config: Config) -> DenyHit | None:
    user, builtin = _compile(tuple(config.deny))
    if user:
        texts = [split.line, split.second]
        for item in judged:
            texts.append(item.part.text)
            texts.append(item.part.second)
        hit = _hit(user, list(dict.fromkeys(t for t in texts if t)))
        if hit:
            return hit
    texts = [_without_quoted_heredocs(split, judged)]
    if not split.ok:
        texts.append(split.second)
    for item in judged:
        texts.append(item.part.text)
        second = item.part.second
        if second and any(_holds(second, needle) for needle in _NEEDLES):
            texts.append(_checked_second(item))
    return _hit(builtin, list(dict.fromkeys(t for t in texts if t)), _NEEDLES) or _recursive_delete(judged) \
        or _disk_redirect(judged)


def _disk_redirect(judged: tuple[Judged, ...]) -> DenyHit | None:
    """`cat /dev/zero > /dev/sda`: a redirection onto a disk device (read from the parts, not the text)."""
    for item in judged:
        for redirect in item.part.redirects:
            target = redirect.target or ""
            if redirect.op in _WRITE_OPS and target.startswith(_DISK_HEADS) and _DISK_TARGET.match(target):
                return DenyHit(pattern=DISK_WRITE, matched=item.part.text.strip()[:200])
    return None


# ---------------------------------------------------------------- the same refusal, read from the parts' words
# A regex on text misses what only the words show: `rm -rf /.`, `rm -rf ~//`, `rm -rf "${HOME:?}"`,
# `sudo -u root rm -rf /`, `chroot / rm -rf /`, `find / -delete`. The parts' keys have already unwrapped
# the wrappers; here the essential command's options are read as getopt does and its targets normalised.

_HOME_WORD = lazy_re(r'^"?(?:\$HOME|\$\{HOME(?::?[?=+-][^}]*)?\})"?')
_RM_LONGS = ("recursive", "force", "dir", "interactive", "one-file-system", "no-preserve-root", "preserve-root",
             "verbose")
_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-type",
                           "-user", "-group", "-perm", "-size", "-mtime", "-mmin", "-newer", "-links", "-inum",
                           "-empty", "-samefile", "-lname", "-atime", "-ctime", "-amin", "-cmin", "-maxdepth"})


def _target(value: str | None, written: str) -> str | None:
    """"/" or "~" when a word names the root, the home directory or everything directly in them; else None."""
    if value is None:
        m = _HOME_WORD.match(written)
        if not m:
            return None
        rest = written[m.end():].replace('"', "").replace("'", "")
        value = "~" + rest
    elif value.startswith("~") and written[:1] in ("'", '"', "\\"):
        return None         # a quoted tilde names a directory called ~
    if value == "~" or value.startswith("~/"):
        base, rest = "~", value[1:]
    elif value.startswith("/"):
        base, rest = "/", value
    else:
        return None
    import posixpath
    rest = posixpath.normpath("/" + rest.lstrip("/")) if rest.strip("/") else "/"
    if rest in ("/", "/*", "/.*", "/*/", "/..") or rest.startswith("/..") and rest.strip("/.") == "":
        return base
    return None


def _recursive_delete(judged: tuple[Judged, ...]) -> DenyHit | None:
    from wispsh.programs.grammar import read_options
    for item in judged:
        key = item.key
        if key is None or not key.command or key.program not in ("rm", "find"):
            continue
        command = list(key.command)
        written = list(item.part.words[-len(command):]) if len(item.part.words) >= len(command) else \
            [""] * len(command)
        if key.program == "rm":
            pairs = list(zip(command[1:], written[1:]))
            static = [v if v is not None else "\x00" for v, _ in pairs]
            options = read_options(static, longs=_RM_LONGS)
            if not (options.has("r", "R", "recursive")):
                continue
            operands = set(options.operands)
            for value, text in pairs:
                shown = value if value is not None else "\x00"
                if shown not in operands:
                    continue
                names = [value]
                if value is not None and "{" in value and "," in value and text[:1] not in ("'", '"'):
                    from wispsh.parse.words import expand_braces
                    names = expand_braces(value) or [value]
                if any(_target(name, text) is not None for name in names):
                    return DenyHit(pattern=RECURSIVE_DELETE, matched=item.part.text.strip()[:200])
        else:
            args = command[1:]
            if "-delete" not in args or any(a in _FIND_FILTERS for a in args if a is not None):
                continue
            for value, text in zip(args, written[1:]):
                if value is not None and value.startswith("-"):
                    break
                if _target(value, text) is not None:
                    return DenyHit(pattern=RECURSIVE_DELETE, matched=item.part.text.strip()[:200])
    return None
