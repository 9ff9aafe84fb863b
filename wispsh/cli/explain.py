"""Printing a Plan: the `--explain --json` schema of contracts.md, and a readable text form."""
from __future__ import annotations

import json

from wispsh.model import Plan

SCHEMA_VERSION = 2      # 2: each reason is {level, rule, text}; the rule is a stable id

# --explain exit status (contracts.md): would run, would ask, would refuse.
EXIT_FOR_VERDICT = {"run": 0, "ask": 1, "deny": 3}


def findings_list(verdict) -> list[dict]:
    return [{"level": str(f.level), "rule": f.rule, "text": f.reason, **({"effect": f.kind} if f.kind else {})}
            for f in verdict.findings]


def plan_dict(plan: Plan) -> dict:
    parts = []
    for judged, decision in zip(plan.judged, plan.decisions):
        part, key, verdict = judged.part, judged.key, judged.verdict
        parts.append({
            "text": part.text,
            "span": list(part.span),
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
        })
    return {
        "version": SCHEMA_VERSION,
        "line": plan.line,
        "verdict": plan.verdict,
        "threshold": str(plan.threshold),
        "parse": {"ok": plan.split.ok, "notes": list(plan.split.notes)},
        "line_level": str(plan.line_verdict.level),
        "line_reasons": findings_list(plan.line_verdict),
        "covered_line": plan.covered_line,
        "denied_by": None if plan.denied_by is None else {
            "pattern": plan.denied_by.pattern, "matched": plan.denied_by.matched},
        "notes": list(plan.notes),
        # an agent's boilerplate recognised: `line` is its payload, judged alone; `written` the whole line
        "template": plan.template,
        "written": plan.written,
        "parts": parts,
    }


def render_json(plan: Plan) -> str:
    return json.dumps(plan_dict(plan), ensure_ascii=False)


_VERDICT_WORDS = {
    "run": "would run without asking",
    "ask": "would ask a person first",
    "deny": "would refuse",
}


def render_text(plan: Plan) -> str:
    out = [f"line:      {plan.line}",
           f"verdict:   {plan.verdict} ({_VERDICT_WORDS[plan.verdict]}; threshold {plan.threshold})",
           f"line level: {plan.line_verdict.level}"
           + (f" ({'; '.join(plan.line_verdict.reasons)})" if plan.line_verdict.reasons else "")]
    if plan.template:
        out.append(f"template:  {plan.template} (the agent's own plumbing around the line; only the line is judged)")
    if plan.covered_line:
        out.append("the whole line is asked once; its parts are covered by that answer")
    if plan.denied_by is not None:
        out.append(f"denied by: {plan.denied_by.pattern!r} (matched {plan.denied_by.matched!r})")
    if not plan.split.ok:
        out.append("parse:     not ok")
    for note in plan.split.notes + plan.notes:
        out.append(f"note:      {note}")
    for number, (judged, decision) in enumerate(zip(plan.judged, plan.decisions), 1):
        part, key, verdict = judged.part, judged.key, judged.verdict
        out.append(f"{number:>3}. {part.text}")
        key_text = f"{key.pattern!r}" + (" (exact text)" if key.exact else "")
        detail = [f"level {verdict.level}", f"key {key_text}", f"decision {decision.kind}"]
        if decision.approval_id:
            detail.append(f"approval {decision.approval_id}")
        if part.origin != "top":
            detail.append(f"from {part.origin}")
        if part.context:
            detail.append(f"# {part.context}")
        out.append("     " + ", ".join(detail))
        for finding in verdict.findings:
            out.append(f"     - {finding.reason} [{finding.rule}]")
    return "\n".join(out)
