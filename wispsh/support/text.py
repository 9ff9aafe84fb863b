"""Text made safe to show and to store: every output of wispsh and wisp is valid UTF-8.

A line arrives as bytes; what is not UTF-8 is decoded with surrogateescape (one lone surrogate U+DC80..U+DCFF
per byte), so spans stay true and the exact bytes can still be recovered. Such a character cannot be
encoded as UTF-8, and a raw CR, ESC or bidi control on a terminal hides or rewrites what is shown. So:

- shown(text): for people. Control, format (bidi) and separator characters appear as escapes (`\\r`, `\\n`,
  `\\t`, `\\x1b`, `\\u202e`); an undecodable byte appears as `\\xNN`, the byte it was.
- dumps(value): for tools. JSON, UTF-8, with every character JSON allows raw but that breaks a reader
  anyway written as a JSON escape: lone surrogates (`\\udcff`: the byte 0xff, recoverable with
  surrogateescape), U+2028/U+2029 (line separators to JavaScript and Python's splitlines) and C1 controls.
"""
from __future__ import annotations

import json

from wispsh.support.lazyre import lazy_re

_UNSAFE_IN_JSON = lazy_re("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_PLAIN = lazy_re(r"[ -~]*")


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
    if _PLAIN.fullmatch(text):                   # the common case: printable ASCII, nothing to do
        return text
    return "".join(show_char(ch) for ch in text)


def _escape(match) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def dumps(value, **kwargs) -> str:
    """JSON text that encodes as strict UTF-8 and stays one line for every reader."""
    text = json.dumps(value, ensure_ascii=False, **kwargs)
    return _UNSAFE_IN_JSON.sub(_escape, text)


def utf8(text: str) -> bytes:
    """Bytes for output: strict UTF-8 when possible; an undecodable byte that slipped through is shown."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(show_char(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in text).encode("utf-8")
