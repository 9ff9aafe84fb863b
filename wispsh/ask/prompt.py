"""What a question says: the request a dialog or a watcher is shown, its rendering, what a typed answer
means, and the refusal line. Shared by the terminal dialog and `wisp watch`; no I/O.

An answer is a word confirmed with Enter, as sudo and gh take them: y/yes, s, p, a, n/no (any case); an
empty line is no; `?` shows the reasons with their rule ids; anything else asks again. A dangerous part, and
one whose program is known only at run time, offers and accepts only y and n.
"""
from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Mapping

from wispsh.model import Answer, Level, Plan
from wispsh.support.text import show_char, shown

CHOICES = "yspan"
SCOPE_WORDS = {"y": "once", "s": "session", "p": "project", "a": "always", "n": "no"}
ANSWERS = {"y": "y", "yes": "y", "s": "s", "p": "p", "a": "a", "n": "n", "no": "n", "": "n"}
ALL_CHOICES_TEXT = "[y] once  [s] session  [p] project  [a] always  [n] no"
DANGEROUS_CHOICES_TEXT = "[y] once  [n] no"
DETAILS = "?"
CTRL_C, CTRL_D, ESC = "\x03", "\x04", "\x1b"
MAX_ANSWER = 32                 # typed characters kept for one answer
PLAN_ROWS = 12                  # parts listed in the plan shown before the first question


def read_answer(text: str, limited: bool) -> tuple[str | None, str]:
    """What a typed answer means: (choice, note); ("?", "") for the details; (None, why) to ask again.

    `limited`: a dangerous part, or one whose program is known only at run time: only y or n."""
    word = text.strip().lower()
    if word == DETAILS:
        return DETAILS, ""
    choice = ANSWERS.get(word)
    if choice is None:
        allowed = "y or n" if limited else "y, s, p, a or n"
        return None, f"not an answer: type {allowed}, then Enter (? shows why it asks)"
    if limited and choice in "spa":
        return None, "only y (once, this line) or n: this answer is never remembered beyond the line"
    return choice, "empty answer" if word == "" else ""


REFUSAL_WIDTH = 80              # the refusal is wrapped to this many columns, never cut


def refusal_line(plan: Plan, answers: tuple[Answer, ...], *, project: str | None = None,
                 interrupted: str | None = None) -> str:
    """What the agent's model reads when the line will not run (its first line starts `wispsh: not run:`):
    the part that decided it, with its level and its reason whole; one line the model can act on; then the
    person's advice, narrowest first, each ending in the command to run, in backticks, with nothing after.

    Wrapped to 80 columns, never cut inside a word, a path or a command. Advice is given only where it works:
    a dangerous part, or one whose program is known only at run time, is approved only once (in `wisp
    watch`); a standing approval is offered only when the store can take it (not when approvals.json is not
    trusted), with the level the part needs and `--dir` naming the project (`project`: its root), so that
    it works from any directory. `interrupted`: the signal that ended the wait for a person."""
    from wispsh.support.text import wrap

    last = answers[-1] if answers else None
    if interrupted is not None:
        asked = plan.questions[last.question] if last is not None else (plan.questions[0] if plan.questions
                                                                         else None)
        head = _refused_head(plan, asked) if asked is not None else "wispsh: not run: the line"
        return wrap(f"{head}\ninterrupted ({interrupted}) while a person was asked: nothing ran", REFUSAL_WIDTH)
    if last is not None and last.choice == "n":
        q = plan.questions[last.question]
        where = {"tty": "on the terminal", "watch": "in wisp watch"}.get(last.source, last.source)
        why = f"{last.note or 'answered no'} ({where})"
        return wrap(f"{_refused_head(plan, q)}\nnothing ran: not approved: {sanitize(why)}; do not retry it "
                    "unchanged", REFUSAL_WIDTH)
    asked = {a.question for a in answers}
    pending = [q for i, q in enumerate(plan.questions) if i not in asked]
    if not pending:
        return "wispsh: not run: the line was not approved; nothing ran"
    first = pending[0]
    more = len(pending) - 1
    head = _refused_head(plan, first) + (f" (+{more} more part{'s' if more > 1 else ''} to approve)" if more
                                         else "")
    act = "nothing ran: no person could be asked; ask the user, or do it another way"     # one row: what to do
    return wrap("\n".join([head, act, _advice(plan, first, project)]), REFUSAL_WIDTH)


def _refused_head(plan: Plan, q) -> str:
    """`wispsh: not run: PART (LEVEL: REASON)`: the part (or the whole line) first, then every reason at its
    level whole (`rm -rf build ~/notes`: both deletes, not only the first)."""
    reason = sanitize(" ".join(_deciding(q).split()))
    if q.whole_line:
        return f"wispsh: not run: {_flat(plan.line)} (the whole line, {q.level}: {reason})"
    texts = [plan.judged[i].part.text for i in q.parts if i < len(plan.judged)]
    return f"wispsh: not run: {_flat(' / '.join(texts) or q.pattern)} ({q.level}: {reason})"


ONCE = "this line once (then retry): `wisp watch`"


def _advice(plan: Plan, q, project: str | None) -> str:
    """What the user may run to let `q`'s part run, narrowest first; it ends with a command in backticks."""
    if q.level >= Level.DANGEROUS:
        return f"A dangerous command is never approved for later; the user can allow {ONCE}"
    if this_line_only(plan, q):
        return f"What it runs is known only at run time: never approved for later; the user can allow {ONCE}"
    if sanitize(q.pattern) != q.pattern:       # a key no one could type or read back: no command to offer
        return f"Its key holds characters a terminal would hide; the user can allow {ONCE}"
    if any(n.startswith("approvals not trusted") for n in plan.notes):
        return (f"Nothing is remembered for later while approvals.json is not trusted; the user can allow {ONCE}"
                "\n  or make approvals.json trusted again (its fix): `wisp doctor`")
    level = "" if q.level == Level.MODERATE else f" --level {q.level}"
    where = f" --dir {_quoted(project)}" if project else ""
    if q.exact or q.whole_line or not q.pattern.endswith(" *"):
        covers = f"this exact text, rated {q.level} or lower, in this project"
    else:
        covers = f"every {q.pattern[:-2]} command rated {q.level} or lower in this project, not only this line"
    return (f"The user can allow, narrowest first:\n  {ONCE}\n  {covers}: "
            f"`wisp approvals add {_quoted(q.pattern)}{level}{where}`")


def _quoted(word: str) -> str:
    """`word` quoted for a shell as a person would write it: bare when it can be, else in single quotes,
    else in double quotes when that needs no escape (python3 -c 'print(1)'), else shlex's quoting."""
    quoted = shlex.quote(word)
    if quoted != word and "'" in word and not any(c in word for c in '"$`\\!'):
        return f'"{word}"'
    return quoted


def _flat(text: str) -> str:
    return sanitize(" ".join(text.split()))


def _deciding(q) -> str:
    """The reasons that decided `q`'s level (those at it), each once, in the order the rules found them."""
    reasons = [f.reason for f in q.findings if f.level == q.level] or list(q.reasons)
    return "; ".join(dict.fromkeys(reasons)) or "at or above the threshold"


def _short(text: str, limit: int = 60) -> str:
    flat = sanitize(" ".join(text.split()))
    return flat if len(flat) <= limit else flat[: max(1, limit - 1)] + "…"


def valid_request(req: object) -> bool:
    """A request as question_request builds it (the watcher renders only these)."""
    if not isinstance(req, dict):
        return False
    if not all(isinstance(req.get(k), str) for k in ("line", "level", "pattern")):
        return False
    if not isinstance(req.get("reasons"), list) or not all(isinstance(r, str) for r in req["reasons"]):
        return False
    if not isinstance(req.get("effects", []), list) or not all(isinstance(e, str) for e in req.get("effects", [])):
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
            "findings": [{"level": str(f.level), "rule": f.rule, "text": f.reason} for f in j.verdict.findings],
            "context": j.part.context,
            "asked": i in q.parts,
            **({"classifier": j.opinion.to_json()} if j.opinion is not None else {}),
        })
    return {
        "line": plan.line, "index": index, "count": len(plan.questions), "pattern": q.pattern,
        "exact": q.exact, "level": str(q.level), "reasons": list(q.reasons),
        "rules": [f.rule for f in q.findings], "whole_line": q.whole_line, "effects": list(q.effects),
        "findings": [{"level": str(f.level), "rule": f.rule, "text": f.reason} for f in q.findings],
        "parts": parts, "cwd": cwd, "agent": agent, "session": session,
        "this_line_only": this_line_only(plan, q),
        "plan": plan_rows(plan),
    }


def plan_rows(plan: Plan) -> dict:
    """The whole plan, shown before the first question: each part, its level, and whether it is asked
    (which question) or runs as it is. Bounded: the asked parts first, then the highest others."""
    asks = {i: qi for qi, q in enumerate(plan.questions) for i in q.parts}
    whole = bool(plan.questions) and plan.questions[0].whole_line
    rows = []
    for i, j in enumerate(plan.judged):
        decision = plan.decisions[i].kind if i < len(plan.decisions) else ("ask" if i in asks else "")
        if whole:
            state = "in the line's question" if decision == "covered-line" else _RUNS.get(decision, decision)
        elif i in asks:
            state = f"asked ({asks[i] + 1} of {len(plan.questions)})"
        else:
            state = _RUNS.get(decision, decision or "runs")
        rows.append({"index": i, "text": j.part.text, "level": str(j.verdict.level), "state": state,
                     "asked": i in asks})
    order = sorted(rows, key=lambda r: (not r["asked"], -Level.parse(r["level"]), r["index"]))
    shown_rows = sorted(order[:PLAN_ROWS], key=lambda r: r["index"])
    return {"parts": shown_rows, "total": len(rows), "questions": len(plan.questions),
            "whole_line": whole, "line_level": str(plan.line_verdict.level) if plan.line_verdict.findings else None}


_RUNS = {"below-threshold": "runs (below the threshold)", "cached-once": "runs (approved for this line)",
         "cached-session": "runs (approved this session)", "cached-project": "runs (approved in this project)",
         "cached-always": "runs (approved always)", "cached-legacy": "runs (approved)", "ask": "asked",
         "contained": "runs (contained: wisp run makes a restore point first)"}


def this_line_only(plan: Plan, q) -> bool:
    """The gate remembers no answer beyond this line for a part whose program or code is known only at
    run time (the same text can run anything): the dialog offers once or no."""
    return any(plan.judged[i].part.runtime_program or plan.judged[i].part.opaque
               for i in q.parts if i < len(plan.judged))


def sanitize(text: str) -> str:
    """Text made safe to print: control, format (bidi) and separator characters shown as escapes, an
    undecodable byte as \\xNN."""
    return shown(text)


_show_char = show_char


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


def _styler(colour: bool):
    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text
    return style


LABEL_W = 10


def _field(style, label: str, value: str) -> str:
    return "  " + style(label.ljust(LABEL_W), "1") + value


def _wrap(style, label: str, value: str, room: int, rows: int = 4) -> list[str]:
    value = sanitize(value)
    out, rest = [], value
    while True:
        cut = rest[:room]
        if len(rest) > room and " " in cut[room // 2:]:
            cut = cut[:cut.rindex(" ")]
        out.append(_field(style, label if not out else "", cut))
        rest = rest[len(cut):].lstrip()
        if not rest or len(out) >= rows:
            if rest:
                out[-1] = out[-1][:-1] + "…"
            return out


def _room(width: int) -> tuple[int, int]:
    width = max(40, min(width, 160))
    return width, width - 2 - LABEL_W


def remember_text(req: dict) -> str:
    """What an answer beyond `once` would remember, and what that pattern then covers."""
    pattern = req["pattern"]
    if req.get("this_line_only"):
        return "this line only (what it runs is known only at run time)"
    if req.get("level") == "dangerous":
        return f"{pattern}  (this line only: a dangerous part is never remembered)"
    if req.get("exact") or req.get("whole_line"):
        return f"this exact text, rated {req['level']} or lower"
    if pattern.endswith(" *"):
        what = f"every `{pattern[:-2]} …`"
    else:
        what = f"`{pattern}`"
    effects = req.get("effects")
    if isinstance(effects, list) and effects:
        from wispsh.policy.effects import effect_words

        does = f" that does only what this one does ({'; '.join(effect_words(e) for e in effects)})"
    else:
        does = ""
    return f"{pattern}  covers {what} rated {req['level']} or lower{does}"


def render_plan(req: dict, *, colour: bool, width: int = 80) -> str:
    """The whole plan before the first question: each part, its level, and which ones will be asked."""
    style = _styler(colour)
    width, room = _room(width)
    plan = req.get("plan") or {}
    rows = plan.get("parts") or []
    count = plan.get("questions", req.get("count", 1))
    title = ("wispsh: one question, about the whole line, before anything of it runs" if plan.get("whole_line")
             else f"wispsh: {count} question{'s' if count != 1 else ''} before anything of this line runs")
    lines = [style(_short(title, width), "1")]
    text, _ = _marked_line(req["line"], None, room)
    lines.append(_field(style, "line", text))
    for n, row in enumerate(rows):
        level = row["level"]
        tag = f"  [{level}] {row['state']}"
        item = _short(row["text"], max(8, room - len(tag) - 4))
        number = f"{row['index'] + 1}."
        lines.append(_field(style, "plan" if n == 0 else "", f"{number:<4}{item}" +
                            style(tag, LEVEL_STYLE.get(level, "1") if row.get("asked") else "2")))
    hidden = plan.get("total", len(rows)) - len(rows)
    if hidden > 0:
        lines.append(_field(style, "", f"… and {hidden} more part{'s' if hidden != 1 else ''}, none asked"))
    if plan.get("line_level"):
        lines.append(_field(style, "", f"the whole line: {plan['line_level']}"))
    return "\n".join(lines)


def render_details(req: dict, *, colour: bool, width: int = 80) -> str:
    """`?`: every reason behind the question, with its level and rule id."""
    if isinstance(req.get("net"), dict):            # a network question of wisp run's proxy
        return render_reach_details(req, colour=colour, width=width)
    style = _styler(colour)
    width, room = _room(width)
    lines = []
    asked = [p for p in req["parts"] if p.get("asked")] or req["parts"]
    for part in (asked if not req.get("whole_line") else []):
        lines += _wrap(style, "why" if not lines else "", f"{part['text']}", room, rows=2)
        for f in part.get("findings") or [{"level": part["level"], "rule": r, "text": t}
                                          for r, t in zip(part.get("rules", []), part.get("reasons", []))]:
            lines += _wrap(style, "", f"  {f['level']}  {f['rule']}: {f['text']}", room)
    if req.get("whole_line"):
        for f in req.get("findings") or []:
            lines += _wrap(style, "why" if not lines else "", f"{f['level']}  {f['rule']}: {f['text']}", room)
    if not lines:
        lines.append(_field(style, "why", "at or above the threshold (no rule named a reason)"))
    return "\n".join(lines)


def choices_text(req: dict) -> str:
    limited = req.get("level") == "dangerous" or bool(req.get("this_line_only"))
    return (DANGEROUS_CHOICES_TEXT if limited else ALL_CHOICES_TEXT) + "  [?] why"


def render(req: dict, *, colour: bool, width: int = 80) -> str:
    """The dialog for one question: at most `width` columns, readable without colour. The last line is the
    prompt the answer is typed after."""
    if isinstance(req.get("net"), dict):            # a network question of wisp run's proxy
        return render_reach(req, colour=colour, width=width)
    style = _styler(colour)
    width, room = _room(width)
    level = req["level"]
    dangerous = level == "dangerous"
    line_only = bool(req.get("this_line_only"))
    count = f" ({req['index'] + 1} of {req['count']})" if req.get("count", 1) > 1 else ""
    what = "the whole line" if req.get("whole_line") else "this command"
    lines = [style(f"wispsh: approve {what}?{count}", "1")]
    asked = [p for p in req["parts"] if p.get("asked")]
    span = tuple(asked[0]["span"]) if asked and not req.get("whole_line") else None
    text, carets = _marked_line(req["line"], span, room)
    lines.append(_field(style, "line", text))
    if span:
        lines.append(_field(style, "", style(carets, "1;35")))
    if req.get("whole_line"):
        for n, part in enumerate(req["parts"]):
            extra = f"  ({part['context']})" if part.get("context") else ""
            item = _short(part["text"] + extra, room - 12)
            lines.append(_field(style, "parts" if n == 0 else "", f"{item}  [{part['level']}]"))
    else:
        for part in asked:
            extra = f"  # {part['context']}" if part.get("context") else ""
            lines += _wrap(style, "runs", part["text"] + extra, room)
    level_rows = _wrap(style, "level", f"{level}: " + ("; ".join(req["reasons"]) or "at or above the threshold"),
                       room)
    level_rows[0] = level_rows[0].replace(f"{level}:", style(f"{level}:", LEVEL_STYLE.get(level, "1")), 1)
    lines += level_rows
    for part in req["parts"]:       # the model's second opinion, where it raised the rules' level (its reason
        said = part.get("classifier")   # is the first of the level row's)
        if isinstance(said, dict) and said.get("raised") is True and all(
                isinstance(said.get(k), str) for k in ("model", "level", "rules_level")):
            whose = "" if not req.get("whole_line") else f" for {_short(part['text'], 30)}"
            lines += _wrap(style, "model", f"{said['model']} raised this from {said['rules_level']} (the rules' "
                                           f"level) to {said['level']}{whose}", room)
    lines += _wrap(style, "remember", remember_text(req), room)
    where = " ".join(filter(None, [req.get("cwd"), f"(agent {req['agent']})" if req.get("agent") else ""]))
    if where:
        lines += _wrap(style, "where", where, room)
    if line_only:
        lines.append(_field(style, "", "answer y (once) or n: s, p and a are not offered"))
    elif dangerous:
        lines.append(_field(style, "", "dangerous: answer y (once) or n: s, p and a are not offered"))
    lines.append("  " + style(choices_text(req), "1") + "  > ")
    return "\n".join(lines)


def echo_for(choice: str, note: str, pattern: str, *, count: int = 1, earlier: int = 0) -> str:
    """What the screen says once an answer is taken, on its own line. Honest about when it is kept: the
    grants of a line's answers are written only if the whole line runs."""
    pattern = _short(pattern, 40)
    said = {
        "y": "once: allowed for this line",
        "s": f"session: {pattern} allowed while this agent session lives",
        "p": f"project: {pattern} allowed in this project",
        "a": f"always: {pattern} allowed everywhere",
        "n": "no: nothing runs",
    }[choice]
    if choice in "spa" and count > 1:
        said += " (kept only if the whole line runs)"
    if choice == "n" and earlier:
        said += "; your earlier answers to this line are not kept"
    return "\n  " + said + (f"\n  ({note})" if note and note != "empty answer" else "")


def valid_choice(choice: object, limited: bool) -> str | None:
    """A choice as a watcher sends it ("y", "s", "p", "a", "n"), or None when it is not one this question
    accepts (the asker checks again what the watcher should have refused)."""
    if not isinstance(choice, str) or len(choice) != 1 or choice not in CHOICES:
        return None
    if limited and choice in "spa":
        return None
    return choice


def limited(req: dict) -> bool:
    """Only y or n: a dangerous part, or one whose program is known only at run time."""
    return req.get("level") == "dangerous" or bool(req.get("this_line_only"))


# ---------------------------------------------------------------- network questions (`wisp run`'s proxy)
# The request is the watch wire's (valid_request) with a `net` field: host, port, via, program, pid, argv; its
# `line` is the shell line the gate allowed that started the program ("" when none did: the agent itself).
# The scopes: once is this one connection; session, HOST:PORT until this `wisp run` ends; project, HOST:PORT in
# this project; always, everywhere (sandbox/netgrants.py).

VIA = {"connect": "HTTPS (CONNECT)", "http": "plain HTTP", "socks": "SOCKS5", "forward": "a listed port"}


def render_reach(req: dict, *, colour: bool, width: int = 80) -> str:
    """The question: at most `width` columns; the last line is the prompt the answer is typed after."""
    style = _styler(colour)
    width, room = _room(width)
    net = req["net"]
    target = f"{net.get('host')}:{net.get('port')}"
    lines = [style(_short(f"wisp run: the agent wants to reach {target} — allow?", width), "1")]
    program = f"{net.get('program') or '?'} (pid {net.get('pid') or '?'})"
    lines += _wrap(style, "program", program + (f"  {net['argv']}" if net.get("argv") else ""), room, rows=2)
    lines += _wrap(style, "line", req.get("line") or "none: no shell line started it (the agent itself, or a "
                   "program it ran directly)", room, rows=3)
    lines += _wrap(style, "via", VIA.get(str(net.get("via")), str(net.get("via"))) +
                   "; what is sent inside TLS is not seen", room, rows=2)
    lines += _wrap(style, "why", "; ".join(req.get("reasons") or ["not on the allow-list"]), room, rows=2)
    lines += _wrap(style, "remember", remember_reach(req), room, rows=3)
    if req.get("agent"):
        lines += _wrap(style, "where", f"{req.get('cwd') or ''} (agent {req['agent']})", room)
    lines.append("  " + style(ALL_CHOICES_TEXT + "  [?] why", "1") + "  > ")
    return "\n".join(lines)


def remember_reach(req: dict) -> str:
    target = sanitize(str(req.get("pattern")))
    return (f"once: this connection only; session: {target} until this wisp run ends; project: {target} in "
            f"{req.get('cwd') or 'this project'}; always: {target} everywhere")


def render_reach_details(req: dict, *, colour: bool, width: int = 80) -> str:
    style = _styler(colour)
    _width, room = _room(width)
    lines = _wrap(style, "why", "; ".join(req.get("reasons") or []), room)
    lines += _wrap(style, "", "listed hosts (wisp run's defaults and run.net.allow) go on without asking; "
                   "add it to run.net.allow in config.json to stop this question", room)
    return "\n".join(lines)


def echo_reach(choice: str, note: str, pattern: str) -> str:
    pattern = _short(pattern, 40)
    said = {"y": "once: this connection", "s": f"session: {pattern} until this wisp run ends",
            "p": f"project: {pattern} in this project", "a": f"always: {pattern} everywhere",
            "n": "no: the program is refused (HTTP 403 / SOCKS 'not allowed')"}[choice]
    return "\n  " + said + (f"\n  ({note})" if note and note != "empty answer" else "")
