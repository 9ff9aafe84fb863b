"""Printing a Plan: the `--explain --json` schema of contracts.md, and a readable text form."""
from __future__ import annotations

from wispsh.model import Plan
from wispsh.support.text import b64_text, dumps, has_bytes, shown

SCHEMA_VERSION = 2      # 2: each reason is {level, rule, text}; the rule is a stable id

# --explain exit status (contracts.md): would run, would ask, would refuse.
EXIT_FOR_VERDICT = {"run": 0, "ask": 1, "deny": 3}


def findings_list(verdict) -> list[dict]:
    return [{"level": str(f.level), "rule": f.rule, "text": f.reason, **({"effect": f.kind} if f.kind else {})}
            for f in verdict.findings]


def _span_map(line: str):
    """Character offsets into `line` -> offsets into the line as JSON shows it (an undecodable byte is the four
    characters `\\xNN` there), so that `line[span[0]:span[1]]` is the part's `text` in the JSON too."""
    if not has_bytes(line):
        return lambda i: i
    ends, at = [0], 0
    for ch in line:
        at += 4 if 0xD800 <= ord(ch) <= 0xDFFF else 1
        ends.append(at)
    return lambda i: ends[max(0, min(i, len(line)))]


def overall_level(plan: Plan):
    """The line's level: the highest of its parts and of the whole line's own finding (None: nothing judged)."""
    levels = [j.verdict.level for j in plan.judged]
    if plan.line_verdict.findings:
        levels.append(plan.line_verdict.level)
    return max(levels) if levels else None


def plan_dict(plan: Plan) -> dict:
    parts = []
    at = _span_map(plan.line)
    for judged, decision in zip(plan.judged, plan.decisions):
        part, key, verdict = judged.part, judged.key, judged.verdict
        parts.append({
            "text": part.text,
            "span": [at(part.span[0]), at(part.span[1])],
            "argv": list(part.argv),
            "program": key.program,
            "pattern": key.pattern,
            "exact": key.exact,
            "level": str(verdict.level),
            "reasons": findings_list(verdict),
            "origin": part.origin,
            "context": part.context,
            "decision": decision.kind,
            "approval_id": decision.approval_id,
            # the model's second opinion (classifier/), only on the parts it was asked about
            **({"classifier": judged.opinion.to_json()} if judged.opinion is not None else {}),
        })
    return {
        "version": SCHEMA_VERSION,
        "line": plan.line,
        "line_base64": b64_text(plan.line),     # the exact bytes (`line` shows an undecodable byte as \\xNN)
        "verdict": plan.verdict,
        "threshold": str(plan.threshold),
        "parse": {"ok": plan.split.ok, "notes": list(plan.split.notes)},
        # the line's overall level (its parts and the whole line), as the text form's `level:` row
        "level": None if overall_level(plan) is None else str(overall_level(plan)),
        # the finding only the whole line shows (`curl … | sh`), null when there is none
        "whole_line": {"level": str(plan.line_verdict.level), "reasons": findings_list(plan.line_verdict)}
        if plan.line_verdict.findings else None,
        "line_level": str(plan.line_verdict.level),         # kept for tools: the whole line's own rating
        "line_reasons": findings_list(plan.line_verdict),
        "covered_line": plan.covered_line,
        "denied_by": None if plan.denied_by is None else {
            "pattern": plan.denied_by.pattern, "matched": plan.denied_by.matched},
        "notes": list(plan.notes),
        # an agent's boilerplate recognised: `line` is its payload, judged alone; `written` the whole line
        "template": plan.template,
        "written": plan.written,
        "written_base64": None if plan.written is None else b64_text(plan.written),
        "parts": parts,
    }


def render_json(plan: Plan) -> str:
    """One JSON object that every parser reads: an undecodable byte of any text is written `\\xNN`, as the
    text form shows it (spans count it as those four characters), its exact bytes are `line_base64`, and
    U+2028/U+2029 and C1 controls are escaped (support/text.dumps)."""
    return dumps(plan_dict(plan))


_VERDICT_WORDS = {
    "run": "would run without asking",
    "ask": "would ask a person first",
    "deny": "would refuse",
}


def render_text(plan: Plan) -> str:
    """The plan for a person. Control characters, CR/LF and undecodable bytes are shown escaped."""
    parts_level = max((j.verdict.level for j in plan.judged), default=None)
    out = [f"line:      {shown(plan.line)}",
           f"verdict:   {plan.verdict} ({_VERDICT_WORDS[plan.verdict]}; threshold {plan.threshold})"]
    if parts_level is not None:
        out.append(f"level:     {parts_level} (the highest of its {len(plan.judged)} "
                   f"part{'s' if len(plan.judged) != 1 else ''})")
    if plan.line_verdict.findings:          # a whole-line finding: only when there is one
        out.append(f"whole line: {plan.line_verdict.level}")
        for finding in plan.line_verdict.findings:
            out.append(f"     - {shown(finding.reason)} [{finding.rule}]")
    if plan.template:
        out.append(f"template:  {shown(plan.template)} (the agent's own plumbing around the line; only the line "
                   "is judged)")
    if plan.covered_line:
        out.append("the whole line is asked once; its parts are covered by that answer")
    if plan.denied_by is not None:
        out.append(f"denied by: {shown(repr(plan.denied_by.pattern))} (matched {shown(repr(plan.denied_by.matched))})")
    if not plan.split.ok:
        out.append("parse:     not ok")
    for note in plan.split.notes + plan.notes:
        out.append(f"note:      {shown(note)}")
    for number, (judged, decision) in enumerate(zip(plan.judged, plan.decisions), 1):
        part, key, verdict = judged.part, judged.key, judged.verdict
        out.append(f"{number:>3}. {shown(part.text)}")
        key_text = shown(repr(key.pattern)) + (" (exact text)" if key.exact else "")
        detail = [f"level {verdict.level}", f"key {key_text}", f"decision {decision.kind}"]
        if decision.approval_id:
            detail.append(f"approval {decision.approval_id}")
        if part.origin != "top":
            detail.append(f"from {part.origin}")
        if part.context:
            detail.append(f"# {shown(part.context)}")
        out.append("     " + ", ".join(detail))
        for finding in verdict.findings:
            out.append(f"     - {shown(finding.reason)} [{finding.rule}]")
        if judged.opinion is not None:
            out.append(f"     second opinion: {shown(judged.opinion.summary())}")
    return "\n".join(out)
