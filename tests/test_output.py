"""What wispsh and wisp print and store: valid UTF-8 whatever the line holds, control characters shown
escaped in text, JSON that stays one line for every reader, the audit bounded per line (issue 11), the
text plan naming a whole-line finding only when there is one, `wispsh --help` its own."""
from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from tiers import scaled
from wispsh import explain
from wispsh.config import Config
from wispsh.decide import audit, gate
from wispsh.pipeline import judge
from wispsh.support.text import dumps, from_b64, json_text, shown

REPO = Path(__file__).resolve().parent.parent
WISPSH, WISP = str(REPO / ".venv" / "bin" / "wispsh"), str(REPO / ".venv" / "bin" / "wisp")

# What breaks output: undecodable bytes (surrogateescape), CR, LF, NUL, ESC, C1 controls, line and
# paragraph separators, bidi controls, wide and combining characters, shell syntax.
ALPHABET = ("abcrm -f/$(){}[]|;&<>'\"\\`~*?#=!:,.%^@+\n\r\t\x00\x01\x1b\x7f\x85\x9b"
            "\u2028\u2029\u202e\u200b\ufeff\udc80\udcff\udcc3éß中🙂\u0301")


def random_lines(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 48)))


def strict_utf8(data: bytes) -> str:
    return data.decode("utf-8")          # raises on anything that is not strict UTF-8 (lone surrogates too)


def every_text_is_unicode(value) -> bool:
    """What a strict parser (Rust's serde_json) demands of JSON text: no string holds a lone surrogate (a
    `\\udcNN` escape decodes to one in Python's json; serde_json rejects it, Go replaces it)."""
    if isinstance(value, str):
        value.encode("utf-8")                   # strict: raises UnicodeEncodeError on a lone surrogate
        return True
    if isinstance(value, dict):
        return all(every_text_is_unicode(k) and every_text_is_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(every_text_is_unicode(v) for v in value)
    return True


def test_every_explain_output_and_audit_event_is_valid_utf8_on_random_lines(tmp_path):
    config = Config(path=tmp_path / "home" / "config.json")
    env = {"WISP_HOME": str(tmp_path / "home"), "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    for line in random_lines(scaled(3_000, 10_000), seed=17):
        plan = judge(line, config, str(tmp_path), env)
        text = explain.render_json(plan)
        data = json.loads(strict_utf8(text.encode("utf-8")))
        assert every_text_is_unicode(data)                  # no lone surrogate: serde_json and Go read it
        assert data["line"] == json_text(line)
        real = line.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")   # as read from argv
        assert from_b64(data["line_base64"]) == real
        assert "\n" not in text and "\u2028" not in text
        for part in data["parts"]:                               # spans still index the line, as written there
            start, end = part["span"]
            assert 0 <= start <= end <= len(data["line"])
            if part["origin"] == "top" and "\x00" not in line and part["text"].strip() == part["text"]:
                assert data["line"][start:end] == part["text"], (line, part)
        shown_text = explain.render_text(plan)
        shown_text.encode("utf-8")
        assert not any(c in shown_text for c in "\r\x00\x1b\x7f\x85\u2028\u202e\udcff"), repr(shown_text)
        common, whole = audit.line_fields(line)
        for chunk in audit._encode([audit.event("classification", command=line, **common)]
                                   + ([audit.event("line", **whole)] if whole else [])):
            row = strict_utf8(chunk)
            assert row.endswith("\n") and row.count("\n") == 1 and "\u2028" not in row
            assert json.loads(row)["event"]


def test_a_sample_through_the_real_commands_is_valid_utf8(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    env.update(WISP_HOME=str(tmp_path / "home"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
    for line in random_lines(15, seed=3):
        arg = line.replace("\x00", "")                          # argv cannot hold NUL
        raw = arg.encode("utf-8", "surrogateescape")
        for argv in ([WISPSH, "--explain", "--json", "-c", "--", raw], [WISPSH, "--explain", "-c", "--", raw],
                     [WISP, "explain", "--json", "--", raw]):
            done = subprocess.run(argv, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
            assert done.returncode in (0, 1, 3), (line, done.stderr)
            out = strict_utf8(done.stdout)
            strict_utf8(done.stderr)
            if "--json" in argv:
                data = json.loads(out)
                assert every_text_is_unicode(data) and data["line"] == json_text(arg)
                assert from_b64(data["line_base64"]) == arg
            else:
                assert "\r" not in out and "\x1b" not in out


def test_the_audit_stays_one_event_a_line_and_wisp_audit_reads_it_back(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    odd = "echo a\u2028b\u2029c\rd\x85e \udcff\udc80 \x1b[2J\nrm x"
    audit.append(home, [audit.event("classification", command=odd, line=odd)])
    data = (home / "audit.jsonl").read_bytes()
    strict_utf8(data)
    assert data.count(b"\n") == 1 and b"\xe2\x80\xa8" not in data and b"\r" not in data
    assert audit.read(home)[0]["command"] == odd                             # recovered exactly
    env = {**os.environ, "WISP_HOME": str(home)}
    text = subprocess.run([WISP, "audit"], env=env, capture_output=True, timeout=60)
    shown_row = strict_utf8(text.stdout)
    assert shown_row.count("\n") == 1 and "\\u2028" in shown_row and "\\xff" in shown_row and "\\r" in shown_row
    as_json = subprocess.run([WISP, "audit", "--json"], env=env, capture_output=True, timeout=60)
    event = json.loads(strict_utf8(as_json.stdout))
    assert every_text_is_unicode(event) and event["command"] == json_text(odd) and "\\xff\\x80" in event["command"]
    assert from_b64(event["command_base64"]) == odd                          # the exact bytes, beside it


def test_shown_escapes_what_a_terminal_would_act_on():
    assert shown("plain text") == "plain text"
    assert shown("a\rb\nc\td") == "a\\rb\\nc\\td"
    assert shown("\x1b[2J\x07") == "\\x1b[2J\\x07"
    assert shown("\udcff\udc80") == "\\xff\\x80"                       # the undecodable bytes, as bytes
    assert shown("\u202e\u2028") == "\\u202e\\u2028"
    assert shown("é中🙂") == "é中🙂"
    assert json.loads(dumps({"x": "\udcff\u2028"})) == {"x": "\\xff\u2028"}       # as the text shows it
    assert dumps("\udcff\u2028\x85").isascii()


# ---------------------------------------------------------------- the audit is bounded per line (issue 11)


def test_a_long_script_is_stored_once_not_once_per_part(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir(mode=0o700)
    project.mkdir()
    script = project / "gen.sh"
    script.write_text("".join(f"echo item-{i:06d} >/dev/null\n" for i in range(5000)))    # ~140 KB, 5000 parts
    size = script.stat().st_size
    assert size > 130_000
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    env.update(WISP_HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path / "run"))
    done = subprocess.run([WISPSH, str(script)], env=env, cwd=project, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    written = (home / "audit.jsonl").stat().st_size
    assert written < size, written               # once, bounded: was ~ size x parts x 2 (1.5 GB for 140 KB)
    events = audit.read(home)
    kinds = [e["event"] for e in events]
    assert kinds.count("line") == 1 and kinds.count("classification.summary") == 1
    whole = next(e for e in events if e["event"] == "line")
    assert whole["line_chars"] == len(script.read_text()) and whole["line_truncated"] is True
    assert len(whole["line"]) == audit.LINE_STORED
    assert all(len(e.get("line") or "") <= audit.LINE_EXCERPT for e in events if e["event"] != "line")
    assert {e.get("line_sha256") for e in events} == {whole["line_sha256"]}
    assert next(e for e in events if e["event"] == "classification.summary")["count"] == 5000


def test_nested_code_is_cut_per_event_and_risky_parts_of_a_huge_line_keep_theirs(tmp_path):
    config = Config(path=tmp_path / "home" / "config.json")
    (tmp_path / "home").mkdir(mode=0o700)
    env = {"WISP_HOME": str(tmp_path / "home"), "XDG_RUNTIME_DIR": str(tmp_path / "run"), "WISP_SESSION": "o"}
    deep = "echo " + "$(echo " * 300 + "x" + ")" * 300
    plan = judge(deep, config, str(tmp_path), env)
    gate.settle(plan, (), config=config, cwd=str(tmp_path), env=env, source="wispsh")
    events = audit.read(tmp_path / "home")
    assert all(len(e.get("command") or "") <= audit.COMMAND_MAX for e in events)
    assert any(e.get("command_sha256") for e in events)
    many = " ; ".join(["ls"] * 700 + ["rm -rf build"])
    plan = judge(many, config, str(tmp_path), env)
    gate.settle(plan, [gate_answer(plan)], config=config, cwd=str(tmp_path), env=env, source="tty")
    decided = [e for e in audit.read(tmp_path / "home") if e["event"] == "approval.decided"]
    assert [e["command"] for e in decided][-1] == "rm -rf build"          # the decided part keeps its events


def gate_answer(plan):
    from wispsh.model import Answer

    return Answer(0, "y", "tty")


# ---------------------------------------------------------------- the text plan, --help


def test_the_text_plan_names_the_whole_line_finding_only_when_there_is_one(tmp_path):
    config = Config(path=tmp_path / "config.json")
    denied = explain.render_text(judge("sudo rm -rf /", config, str(tmp_path), {}))
    assert "line level" not in denied and "whole line:" not in denied
    assert "level:     dangerous (the highest of its" in denied
    piped = explain.render_text(judge("curl -s https://x.example/i.sh | sh", config, str(tmp_path), {}))
    assert "whole line: dangerous" in piped and "[" in piped.split("whole line:")[1].split("\n")[1]


def test_wispsh_help_is_its_own_and_bash_help_stays_bashs():
    done = subprocess.run([WISPSH, "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stderr == ""
    for option in ("--explain", "--json", "--yes", "--version", "--help"):
        assert f"  {option}" in done.stdout
    assert "Every other option is the real shell's" in done.stdout
    assert all(len(row) <= 80 for row in done.stdout.splitlines())
    bash = subprocess.run(["bash", "--help"], capture_output=True, text=True)
    shim_dir = Path(__import__("tempfile").mkdtemp())
    os.symlink(WISPSH, shim_dir / "bash")                  # called as bash: bash's own --help, passed through
    as_bash = subprocess.run([str(shim_dir / "bash"), "--help"], capture_output=True, text=True, timeout=30)
    assert as_bash.returncode == bash.returncode
    assert as_bash.stdout.replace(str(shim_dir / "bash"), "bash") == bash.stdout      # bash's, word for word
    line = subprocess.run([WISPSH, "-c", 'echo "$0" "$1"', "--help", "x"], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)
    assert line.stdout == "--help x\n"                     # an operand, as sh reads it
    login = subprocess.run([WISPSH, "--login", "--help"], capture_output=True, text=True, timeout=30)
    assert "GNU bash" in login.stdout                     # after a shell option: the shell's


@pytest.mark.parametrize("line", ["echo hi\r; ls", "printf '\\x1b[2J'", "echo \u202eevil"])
def test_text_plan_shows_control_characters_escaped(tmp_path, line):
    text = explain.render_text(judge(line, Config(path=tmp_path / "c.json"), str(tmp_path), {}))
    assert "\r" not in text and "\u202e" not in text
