"""Text made safe to show and to store: every output of wispsh and wisp is valid UTF-8.

A line arrives as bytes; what is not UTF-8 is decoded with surrogateescape (one lone surrogate U+DC80..U+DCFF
per byte), so spans stay true and the exact bytes can still be recovered. Such a character cannot be
encoded as UTF-8, and a raw CR, ESC or bidi control on a terminal hides or rewrites what is shown. So:

- shown(text): for people. Control, format (bidi) and separator characters appear as escapes (`\\r`, `\\n`,
  `\\t`, `\\x1b`, `\\u202e`); an undecodable byte appears as `\\xNN`, the byte it was.
- dumps(value): for tools. JSON in strict UTF-8 that every parser reads (serde_json, Go, JavaScript): an
  undecodable byte is written as the text output shows it, `\\xff` (four characters: a lone surrogate is
  valid Python but rejected or replaced by strict parsers), and U+2028/U+2029 (line separators to JavaScript
  and Python's splitlines) and C1 controls as JSON escapes. Where the exact bytes matter, the writer adds
  them in a field of their own, base64 (b64_text; `line_base64` in --explain --json and the audit).
"""
from __future__ import annotations

from wispsh.support.lazyre import lazy_re

_UNSAFE_IN_JSON = lazy_re("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SURROGATES = lazy_re("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def show_char(ch: str) -> str:
    """One character as a person may safely see it."""
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:                 # an undecodable byte (surrogateescape): show the byte
        return f"\\x{code - 0xDC00:02x}"
    import unicodedata      # only for text that is not plain ASCII (not on the hot path's quiet lines)

    if unicodedata.category(ch) in _HIDDEN_CATEGORIES:
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch


def shown(text: str) -> str:
    """`text` with every character that could hide or rewrite what a terminal shows written as an escape."""
    if text.isascii() and text.isprintable():    # the common case, printable ASCII ([ -~]*): nothing to do
        return text
    return "".join(show_char(ch) for ch in text)


def _escape(match) -> str:
    code = ord(match.group(0))
    if 0xD800 <= code <= 0xDFFF:        # not a character: shown as text (`\\xff` for the byte 0xff), escaped
        return "\\" + show_char(match.group(0))   # for JSON: a backslash, then the escape's letters
    return f"\\u{code:04x}"


def has_bytes(text: str) -> bool:
    """Whether `text` holds an undecodable byte (a lone surrogate: surrogateescape)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")        # strict UTF-8 encodes every character but a lone surrogate
    except UnicodeEncodeError:
        return True
    return False


def json_text(text: str) -> str:
    """`text` as a JSON text field holds it: an undecodable byte shown as `\\xNN` (what dumps writes)."""
    return _SURROGATES.sub(lambda m: show_char(m.group(0)), text) if has_bytes(text) else text


def b64_text(text: str) -> str:
    """The exact bytes of `text` (surrogateescape), base64: beside a JSON text field that shows bytes."""
    import base64

    return base64.b64encode(text.encode("utf-8", "surrogateescape")).decode("ascii")


def from_b64(data: str) -> str:
    import base64

    return base64.b64decode(data).decode("utf-8", "surrogateescape")


def dumps(value, **kwargs) -> str:
    """JSON text that encodes as strict UTF-8 and stays one line for every reader."""
    import json

    text = json.dumps(value, ensure_ascii=False, **kwargs)
    return _safe_json(text)


_UNSAFE_CODES: list[frozenset] = []     # what _UNSAFE_IN_JSON matches, as a set: made for the first non-ASCII text


def _safe_json(text: str) -> str:
    if text.isascii():                      # the common case: nothing to escape (the class is not compiled)
        if "\x7f" not in text:
            return text
    else:
        if not _UNSAFE_CODES:
            _UNSAFE_CODES.append(frozenset(map(chr, [*range(0x7F, 0xA0), 0x2028, 0x2029, *range(0xD800, 0xE000)])))
        if _UNSAFE_CODES[0].isdisjoint(text):    # a cut's ellipsis, a name in another script: nothing either
            return text
    return _UNSAFE_IN_JSON.sub(_escape, text)


def dumps_line(value, default=str) -> str:
    """dumps(value, default=default), written here without the json package (the audit of every line writes
    its events with it): the same text, byte for byte, as json.dumps(value, ensure_ascii=False,
    default=default) would give, escaped as dumps escapes it."""
    return _safe_json(_json_text(value, default))


# What json.dumps(ensure_ascii=False) escapes in a string: the quote, the backslash and every C0 control.
_JSON_ESCAPES = {code: f"\\u{code:04x}" for code in range(0x20)}
_JSON_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\", ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t",
                      ord("\b"): "\\b", ord("\f"): "\\f"})


def encode_basestring(text: str) -> str:
    """json's string quoting (ensure_ascii=False), without loading the json package's C module for the
    common case: printable text holds nothing to escape but a quote or a backslash."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return '"' + text + '"'
    if len(text) > 4096:                    # long text: the C quoting, not a translate of every character
        from _json import encode_basestring as quoted

        return quoted(text)
    return '"' + text.translate(_JSON_ESCAPES) + '"'


def _json_text(value, default) -> str:
    # the order of json's own encoder: str, None, True, False, int, float, list/tuple, dict, else default()
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join([_json_text(item, default) for item in value]) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join([_key_text(key) + ": " + _json_text(item, default)
                                for key, item in value.items()]) + "}"
    return _json_text(default(value), default)


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key_text(key) -> str:
    if isinstance(key, str):
        return encode_basestring(key)
    if key is True or key is False or key is None:
        return {True: '"true"', False: '"false"', None: '"null"'}[key]
    if isinstance(key, int):
        return '"' + int.__repr__(key) + '"'
    if isinstance(key, float):
        return '"' + _float_text(key) + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def wrap(text: str, width: int = 80, indent: str = "  ") -> str:
    """`text` in lines of at most `width` columns, later lines indented, broken only at spaces and never
    inside a `backticked` command (a person copies it whole) nor inside a word or path: a word longer than
    the room keeps a line of its own. Line breaks already in `text` are kept."""
    out = []
    for paragraph in text.split("\n"):
        lead = paragraph[:len(paragraph) - len(paragraph.lstrip(" "))]
        words = _words(paragraph.strip(" "))
        line = lead
        for word in words:
            if line.strip() and len(line) + 1 + len(word) > width:
                out.append(line)
                line = (lead or indent) + (indent if lead else "") + word
            else:
                line = line + (" " if line.strip() else "") + word
        out.append(line)
    return "\n".join(out)


def _words(text: str) -> list[str]:
    """The words of a line, a `backticked` span counted as one."""
    words, current, quoted = [], "", False
    for ch in text:
        if ch == "`":
            quoted = not quoted
        if ch == " " and not quoted:
            if current:
                words.append(current)
            current = ""
        else:
            current += ch
    if current:
        words.append(current)
    return words


def utf8(text: str) -> bytes:
    """Bytes for output: strict UTF-8 when possible; an undecodable byte that slipped through is shown."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(show_char(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in text).encode("utf-8")
