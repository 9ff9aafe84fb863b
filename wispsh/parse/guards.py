"""The checks that decide whether a parse is trusted, and the invariant every parse must keep.

Guard checks (design/parsers.md) catch tree-sitter-bash's silent misparses: a flagged job goes to the
fallback scanner. The invariant is generic: every place in a job's code where bash would run code — `$(`,
a backtick, `<(`, `>(` — found by the scanner's own lexer (independent of the tree), must be one the walk
descended into or handed on (`claimed`), or lie inside quoted data bash never expands. `uncovered` names
the places that are neither, whatever node type tree-sitter hid them in (the pattern of `${x#…}` was one
unparsed leaf); the driver then splits their code all the same, so the next quirk of this kind is caught
without a new special case.
"""
from __future__ import annotations

from wispsh.parse import scan
from wispsh.support.lazyre import lazy_re

CONTROL = lazy_re(r"[\x00-\x08\x0b-\x1f\x7f]")
RESERVED = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "}", "{", "if", "while", "until",
                      "for", "case", "select", "function", "!", "[[", "]]", ";;", "in"})


class Flagged(Exception):
    """The parse is not trusted (a guard check fired)."""


class TooDeep(Exception):
    pass


def has_control(code: str) -> bool:
    """CONTROL matches: printable text holds no control character (and needs no regex)."""
    return not code.isprintable() and CONTROL.search(code) is not None


def check_control(code: str) -> None:
    if has_control(code):
        raise Flagged("control character in the text")


def check_word(data: bytes, node, in_backtick: bool) -> None:
    """A plain word never holds a backtick or a newline: tree-sitter ran two things together."""
    start, end = node.start_byte, node.end_byte
    if data.find(b"`", start, end) < 0 and data.find(b"\n", start, end) < 0:
        return      # the common case, without a copy of the word
    text = data[start:end]
    if not in_backtick:   # outside backticks, \` is a plain character; inside, a nested substitution
        text = text.replace(b"\\\\", b"").replace(b"\\`", b"")
    if b"`" in text or b"\n" in text:
        raise Flagged("a plain word holds a backtick or a newline")


def check_newlines(data: bytes, node, children=None) -> None:
    """No unescaped newline between two children of a command-like node (the next line became arguments)."""
    if data.find(b"\n", node.start_byte, node.end_byte) < 0:
        return      # most commands are on one line
    children = node.children if children is None else children
    for i in range(1, len(children)):
        gap = data[children[i - 1].end_byte:children[i].start_byte]
        if b"\n" in gap and b"\n" in gap.replace(b"\\\n", b""):
            raise Flagged(f"a newline inside a {node.type}")


def check_command_name(name: str) -> None:
    if name in RESERVED:
        raise Flagged(f"reserved word {name!r} used as a command name")


def check_list_redirects(redirect_nodes: list) -> None:
    """`a | b <x c d`: tree-sitter hangs a mid-command redirect, and the words after it, on the whole
    pipeline or list, and builds the pipeline wrong around it (`a || b >x c | d` becomes (a || b) | d).
    Nothing to repair with certainty: the fallback scanner reads such a line."""
    for r in redirect_nodes:
        if sum(1 for i in range(r.child_count) if r.field_name_for_child(i) == "destination") > 1:
            raise Flagged("words after a redirect attached to a pipeline or list")


def uncovered(code: str, claimed: set[int], handed: list[tuple[int, int]] = ()) -> list[scan.Site]:
    """The outermost places where bash runs code in `code` that the walk neither descended into nor handed
    on (their nested places are the business of the job that splits them). `handed`: [start, end) ranges of
    text handed on whole as code of its own (a backtick substitution read again unescaped): what they hold is
    that job's."""
    if not claimed and "$(" not in code and "`" not in code and "<(" not in code and ">(" not in code:
        return []
    out: list[scan.Site] = []
    missed_until = -1
    ranges = sorted(handed)
    k, handed_until = 0, -1
    for site in scan.code_sites(code):
        while k < len(ranges) and ranges[k][0] < site.open_at:
            handed_until = max(handed_until, ranges[k][1])
            k += 1
        if site.open_at < missed_until or site.open_at < handed_until:
            continue    # inside a place already missed (split with it), or inside text handed on whole
        if site.open_at not in claimed:
            out.append(site)
            missed_until = site.inner_end
    return out
