"""What a question says: the request a dialog or a watcher is shown, its rendering, the choices a key
means, and the refusal line. Shared by the terminal dialog and `wisp watch`; no I/O."""
from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Mapping

from wispsh.model import Answer, Level, Plan

CHOICES = "yspan"
SCOPE_WORDS = {"y": "once", "s": "session", "p": "project", "a": "always", "n": "no"}
ALL_CHOICES_TEXT = "[y] once  [s] session  [p] project  [a] always  [n] no"
DANGEROUS_CHOICES_TEXT = "[y] once  [n] no"
CTRL_C, CTRL_D, ESC = "\x03", "\x04", "\x1b"


def refusal_line(plan: Plan, answers: tuple[Answer, ...]) -> str:
    """The one stderr line when the line will not run: what needs approval, at what level, what next."""
    last = answers[-1] if answers else None
    if last is not None and last.choice == "n":
        q = plan.questions[last.question]
        where = {"tty": "on the terminal", "watch": "in wisp watch"}.get(last.source, last.source)
        why = f"{last.note or 'answered no'} ({where})"
        return (f"wispsh: not run: {_question_label(plan, q)} [{q.level}] was not approved: {why}; "
                "nothing ran")
    asked = {a.question for a in answers}
    pending = [q for i, q in enumerate(plan.questions) if i not in asked]
    if not pending:
        return "wispsh: not run: the line was not approved; nothing ran"
    items = " and ".join(f"{_question_label(plan, q)} ({q.level}: {_first(q.reasons)})" for q in pending)
    lasting = [q for q in pending if q.level < Level.DANGEROUS and sanitize(q.pattern) == q.pattern
               and not this_line_only(plan, q)]
    add = ""
    if lasting:
        add = ", or " + " and ".join(f"`wisp approvals add {shlex.quote(q.pattern)} --scope project`"
                                    for q in lasting[:2])
    need = "needs" if len(pending) == 1 else "need"
    return (f"wispsh: not run: {items} {need} a person's approval and no one could be asked "
            f"(no terminal of yours, no `wisp watch` that may answer); nothing ran. "
            f"To approve: run `wisp watch` in your own terminal and retry{add}.")


def _first(reasons) -> str:
    return reasons[0] if reasons else "at or above the threshold"


def _question_label(plan: Plan, q) -> str:
    if q.whole_line:
        return "the whole line " + _short(plan.line)
    texts = [plan.judged[i].part.text for i in q.parts if i < len(plan.judged)]
    return _short(" / ".join(texts) or q.pattern)


def _short(text: str, limit: int = 60) -> str:
    shown = sanitize(" ".join(text.split()))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def valid_request(req: object) -> bool:
    """A request as question_request builds it (the watcher renders only these)."""
    if not isinstance(req, dict):
        return False
    if not all(isinstance(req.get(k), str) for k in ("line", "level", "pattern")):
        return False
    if not isinstance(req.get("reasons"), list) or not all(isinstance(r, str) for r in req["reasons"]):
        return False
    if not isinstance(req.get("index"), int) or not isinstance(req.get("count"), int):
        return False
    parts = req.get("parts")
    if not isinstance(parts, list):
        return False
    for part in parts:
        if not (isinstance(part, dict) and isinstance(part.get("text"), str) and isinstance(part.get("level"), str)
                and isinstance(part.get("span"), list) and len(part["span"]) == 2
                and all(isinstance(n, int) for n in part["span"])):
            return False
    return all(isinstance(req.get(k), (str, type(None))) for k in ("cwd", "agent", "session"))


def question_request(plan: Plan, index: int, *, cwd: str, env: Mapping[str, str],
                     agent: str | None = None, session: str | None = None) -> dict:
    """Everything the dialog shows about one question, as plain data (also the watch wire format)."""
    q = plan.questions[index]
    shown = range(len(plan.judged)) if q.whole_line else q.parts
    parts = []
    for i in shown:
        if i >= len(plan.judged):
            continue
        j = plan.judged[i]
        parts.append({
            "text": j.part.text, "span": list(j.part.span), "level": str(j.verdict.level),
            "reasons": list(j.verdict.reasons), "rules": list(j.verdict.rules), "pattern": j.key.pattern,
            "context": j.part.context,
            "asked": i in q.parts,
        })
    return {
        "line": plan.line, "index": index, "count": len(plan.questions), "pattern": q.pattern,
        "exact": q.exact, "level": str(q.level), "reasons": list(q.reasons),
        "rules": [f.rule for f in q.findings], "whole_line": q.whole_line,
        "parts": parts, "cwd": cwd, "agent": agent, "session": session,
        "this_line_only": this_line_only(plan, q),
    }


def this_line_only(plan: Plan, q) -> bool:
    """The gate remembers no answer beyond this line for a part whose program or code is known only at
    run time (the same text can run anything): the dialog offers once or no."""
    return any(plan.judged[i].part.runtime_program or plan.judged[i].part.opaque
               for i in q.parts if i < len(plan.judged))


def sanitize(text: str) -> str:
    """Text made safe to print: control, format (bidi) and separator characters shown as escapes."""
    return "".join(_show_char(ch) for ch in text)


def _show_char(ch: str) -> str:
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch


def _cells(text: str) -> int:
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def _marked_line(line: str, span: tuple[int, int] | None, room: int) -> tuple[str, str]:
    """The line (sanitized, cut to `room` cells around the span) and a caret line under the span."""
    pieces = [_show_char(c) for c in line]
    start, end = span if span else (0, 0)
    start, end = max(0, min(start, len(pieces))), max(0, min(end, len(pieces)))
    total = _cells("".join(pieces))
    first = 0
    if total > room:
        want = _cells("".join(pieces[:start]))
        budget = max(0, want - room // 4)
        while first < start and _cells("".join(pieces[:first])) < budget:
            first += 1
    text, marks, used = [], [], 0
    if first > 0:
        text.append("…"), marks.append(" ")
        used = 1
    last = first
    for i in range(first, len(pieces)):
        w = _cells(pieces[i])
        if used + w > room - 1 and i < len(pieces) - 1:
            break
        text.append(pieces[i])
        marks.append(("^" if start <= i < end else " ") * w)
        used += w
        last = i + 1
    if last < len(pieces):
        text.append("…")
        marks.append("^" if start < len(pieces) and end > last else " ")
    return "".join(text), "".join(marks).rstrip()


def use_colour(env: Mapping[str, str]) -> bool:
    term = env.get("TERM", "")
    return bool(term) and term != "dumb" and not env.get("NO_COLOR")


LEVEL_STYLE = {"dangerous": "1;31", "high": "31", "moderate": "33", "low": "32", "safe": "32"}


def render(req: dict, *, colour: bool, width: int = 80) -> str:
    """The dialog for one question: at most `width` columns, readable without colour."""
    width = max(40, min(width, 160))
    label_w = 10
    room = width - 2 - label_w

    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text

    def field(label: str, value: str) -> str:
        return "  " + style(label.ljust(label_w), "1") + value

    def wrap(label: str, value: str) -> list[str]:
        value = sanitize(value)
        out, rest = [], value
        while True:
            cut = rest[:room]
            if len(rest) > room and " " in cut[room // 2:]:
                cut = cut[:cut.rindex(" ")]
            out.append(field(label if not out else "", cut))
            rest = rest[len(cut):].lstrip()
            if not rest or len(out) >= 4:
                if rest:
                    out[-1] = out[-1][:-1] + "…"
                return out

    level = req["level"]
    dangerous = level == "dangerous"
    line_only = bool(req.get("this_line_only"))
    count = f" ({req['index'] + 1} of {req['count']})" if req.get("count", 1) > 1 else ""
    what = "the whole line" if req.get("whole_line") else "this command"
    lines = [style(f"wispsh: approve {what}?{count}", "1")]
    asked = [p for p in req["parts"] if p.get("asked")]
    span = tuple(asked[0]["span"]) if asked and not req.get("whole_line") else None
    text, carets = _marked_line(req["line"], span, room)
    lines.append(field("line", text))
    if span:
        lines.append(field("", style(carets, "1;35")))
    if req.get("whole_line"):
        for n, part in enumerate(req["parts"]):
            extra = f"  ({part['context']})" if part.get("context") else ""
            item = _short(part["text"] + extra, room - 12)
            lines.append(field("parts" if n == 0 else "", f"{item}  [{part['level']}]"))
    else:
        for part in asked:
            extra = f"  # {part['context']}" if part.get("context") else ""
            lines += wrap("runs", part["text"] + extra)
    level_rows = wrap("level", f"{level}: " + ("; ".join(req["reasons"]) or "at or above the threshold"))
    level_rows[0] = level_rows[0].replace(f"{level}:", style(f"{level}:", LEVEL_STYLE.get(level, "1")), 1)
    lines += level_rows
    remember = req["pattern"]
    if req.get("exact"):
        remember = f"this exact text: {req['pattern']}"
    if line_only:
        remember = "this line only (what it runs is known only at run time)"
    elif dangerous:
        remember += "  (for this session at most: dangerous is never stored)"
    lines += wrap("remember", remember)
    where = " ".join(filter(None, [req.get("cwd"), f"(agent {req['agent']})" if req.get("agent") else ""]))
    if where:
        lines += wrap("where", where)
    if line_only:
        lines.append(field("", "answer once or no (s, p, a count as this line only)"))
    elif dangerous:
        lines.append(field("", "dangerous: answer once or no (s, p, a count as this session only)"))
    limited = dangerous or line_only
    lines.append("  " + style(DANGEROUS_CHOICES_TEXT if limited else ALL_CHOICES_TEXT, "1") + "  > ")
    return "\n".join(lines)


def choice_for_key(ch: str, dangerous: bool, line_only: bool = False) -> tuple[str, str] | None:
    """The answer a key gives (choice, note), or None for a key that answers nothing."""
    if ch in (CTRL_C,):
        return "n", "interrupted"
    if ch == CTRL_D:
        return "n", "end of input"
    c = ch.lower()
    if c not in CHOICES:
        return None
    if line_only and c in "spa":         # as typed; the gate makes it once (its program is chosen at run time)
        return c, f"{SCOPE_WORDS[c]} counts as this line only: what it runs is known only at run time"
    if dangerous and c in "pa":          # the answer stays what was typed; the gate downgrades and audits it
        return c, f"{SCOPE_WORDS[c]} downgraded to session: dangerous is never remembered"
    return c, ""


def echo_for(choice: str, note: str, pattern: str) -> str:
    """What the screen says after a key, on its own line."""
    pattern = _short(pattern, 40)
    said = {
        "y": "once: allowed this one time",
        "s": f"session: allowed while this agent session lives ({pattern})",
        "p": f"project: allowed in this project ({pattern})",
        "a": f"always: allowed everywhere ({pattern})",
        "n": "no: nothing runs",
    }[choice]
    if "this line only" in note:
        said = "once: allowed this one time"
    elif "downgraded" in note:
        said = f"session: allowed while this agent session lives ({pattern})"
    return "\n  " + said + (f"\n  ({note})" if note else "")
