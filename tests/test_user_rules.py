"""The user's own rule tables in the wisp home: they teach the gate a program and set levels by rule id, a
broken one refuses every line naming the file and line, and `wisp rules check|show` work (also as JSON).
Run through the real `wispsh` and `wisp` with a wisp home of the test's own."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"

FROB = '''schema = 1

[levels]
"git.push" = "moderate"

[[program]]
name = "frobnicate"
doc = "our cluster tool"
read_only = ["list", "status"]
default = { id = "frobnicate.verb", does = "change", says = "{cmd} changes frobs", examples = ["frobnicate tune x"] }

[program.verbs.nuke]
row = [{ id = "frobnicate.nuke", does = "destroy", says = "deletes every frob", examples = ["frobnicate nuke --all"] }]

[program.examples]
"frobnicate list" = "safe"
"frobnicate nuke" = "dangerous"
'''


@pytest.fixture
def home(tmp_path):
    wisp = tmp_path / "wisp"
    (wisp / "rules").mkdir(parents=True, mode=0o700)
    wisp.chmod(0o700)
    return wisp


def run(home: Path, *argv, cwd=None):
    env = {**os.environ, "WISP_HOME": str(home)}
    return subprocess.run([str(BIN / argv[0]), *argv[1:]], env=env, capture_output=True, text=True, timeout=60,
                          cwd=cwd, stdin=subprocess.DEVNULL)


def explain(home: Path, line: str, cwd=None) -> dict:
    done = run(home, "wispsh", "--explain", "--json", "-c", line, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def write(home: Path, text: str, name: str = "mine.toml") -> Path:
    path = home / "rules" / name
    path.write_text(text)
    path.chmod(0o600)
    return path


def test_a_user_table_teaches_a_program_and_sets_levels(home, tmp_path):
    write(home, FROB)
    nuke = explain(home, "frobnicate nuke --all", cwd=tmp_path)["parts"][0]
    assert nuke["level"] == "dangerous" and nuke["pattern"] == "frobnicate nuke *"
    assert nuke["reasons"][0]["rule"] == "frobnicate.nuke"
    assert explain(home, "frobnicate list", cwd=tmp_path)["parts"][0]["level"] == "safe"
    tune = explain(home, "frobnicate tune x", cwd=tmp_path)["parts"][0]
    assert tune["level"] == "moderate" and tune["reasons"][0]["text"] == "frobnicate tune changes frobs"
    push = explain(home, "git push origin main", cwd=tmp_path)["parts"][0]
    assert push["level"] == "moderate" and push["reasons"][0]["rule"] == "git.push"
    assert explain(home, "git push --force", cwd=tmp_path)["parts"][0]["level"] == "dangerous"   # only git.push moved


def test_without_a_table_the_program_is_unknown(home, tmp_path):
    part = explain(home, "frobnicate nuke --all", cwd=tmp_path)["parts"][0]
    assert part["level"] == "moderate" and part["reasons"][0]["rule"] == "program.unknown"


BROKEN = {
    "syntax": ("schema = 1\n[[program]\nname = 'x'\n", 2, "not valid TOML"),
    "unknown key": ("schema = 1\n\n[[program]]\nname = \"x\"\nrows = []\n", 5, "unknown key 'rows'"),
    "unknown effect": ("schema = 1\n[[program]]\nname = \"x\"\nrow = [{ id = \"x.a\", does = \"very-bad\", "
                       "says = \"s\", examples = [\"x\"] }]\n", 4, "not an effect the policy knows"),
    "no schema": ("[levels]\n\"git.push\" = \"low\"\n", 1, "schema = 1 is required"),
    "protected": ("schema = 1\n[levels]\n\"gate.wispsh.yes\" = \"low\"\n", 3, "cannot be lowered"),
    "bad level": ("schema = 1\n[levels]\n\"git.push\" = \"meh\"\n", 3, "the level must be one of"),
    "builtin": ("schema = 1\n[[program]]\nname = \"git\"\n", 3, "a program the gate knows"),
    "dead example": ("schema = 1\n[[program]]\nname = \"x\"\n[program.verbs.go]\nrow = [{ id = \"x.go\", "
                     "does = \"change\", says = \"s\", examples = [\"x stop\"] }]\n", 5, "does not fire it"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_table_refuses_every_line_naming_file_and_line(home, tmp_path, case):
    text, line, words = BROKEN[case]
    path = write(home, text)
    done = run(home, "wispsh", "-c", "echo hi", cwd=tmp_path)
    assert done.returncode == 126 and done.stdout == ""
    assert f"{path}:{line}:" in done.stderr and words in done.stderr, done.stderr
    assert run(home, "wispsh", "--explain", "-c", "ls", cwd=tmp_path).returncode == 3
    checked = run(home, "wisp", "rules", "check", str(path))
    assert checked.returncode == 1 and f"{path}:{line}:" in checked.stderr
    as_json = json.loads(run(home, "wisp", "rules", "check", "--json", str(path)).stdout)
    assert not as_json["ok"] and words in as_json["problems"][0]


def test_a_table_others_can_write_is_not_trusted(home, tmp_path):
    path = write(home, FROB)
    path.chmod(0o666)
    done = run(home, "wispsh", "-c", "echo hi", cwd=tmp_path)
    assert done.returncode == 126 and "not trusted" in done.stderr and "writable by group or others" in done.stderr


def test_a_project_never_supplies_rules(home, tmp_path):
    project = tmp_path / "proj"
    (project / ".wisp" / "rules").mkdir(parents=True)
    (project / ".wisp" / "rules" / "x.toml").write_text('schema = 1\n[levels]\n"rm.delete" = "safe"\n')
    (project / "rules").mkdir()
    (project / "rules" / "x.toml").write_text('schema = 1\n[levels]\n"path.delete-tree.project" = "safe"\n')
    part = explain(home, "rm -rf build", cwd=project)["parts"][0]
    assert part["level"] == "high"


def test_rules_check_and_show(home, tmp_path):
    path = write(home, FROB)
    done = run(home, "wisp", "rules", "check", str(path))
    assert done.returncode == 0 and "every example holds" in done.stdout
    result = json.loads(run(home, "wisp", "rules", "check", "--json", str(path)).stdout)
    assert result["ok"] and result["programs"] == ["frobnicate"] and result["levels"] == {"git.push": "moderate"}
    shown = run(home, "wisp", "rules", "show", "frobnicate")
    assert shown.returncode == 0 and f"from {path}:" in shown.stdout and "frobnicate.nuke" in shown.stdout
    data = json.loads(run(home, "wisp", "rules", "show", "--json", "git").stdout)
    assert data["known"] and data["from"].endswith("programs/git.py")
    push = next(v for v in data["verbs"] if v["words"] == ["push"])
    assert {r["id"]: r["level"] for r in push["rows"]}["git.push"] == "moderate"      # the user's level shows
    assert next(r for r in push["rows"] if r["id"] == "git.push")["overridden"]
    missing = run(home, "wisp", "rules", "show", "--json", "no-such-tool")
    assert missing.returncode == 1 and json.loads(missing.stdout) == {"program": "no-such-tool", "known": False}


def test_examples_are_checked_once_per_table_state(home, tmp_path):
    path = write(home, FROB)
    assert run(home, "wispsh", "-c", "true", cwd=tmp_path).returncode == 0
    marker = home / "rules" / ".checked"
    assert marker.exists()
    path.write_text(FROB.replace('examples = ["frobnicate nuke --all"]', 'examples = ["frobnicate list"]'))
    done = run(home, "wispsh", "-c", "true", cwd=tmp_path)
    assert done.returncode == 126 and "frobnicate.nuke: its example 'frobnicate list' does not fire it" in done.stderr


def test_the_user_loader_imports_no_toml_without_tables(home, tmp_path):
    probe = ("import sys; from wispsh import pipeline, config; "
             "pipeline.rules_context('/', {}, config.load_config()); print('tomllib' in sys.modules)")
    env = {**os.environ, "WISP_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=REPO)
    assert done.stdout.strip() == "False", done.stderr


VALUE_TESTS = '''schema = 1

[[program]]
name = "shipit"
long_values = ["target", "key"]
row = [
  { id = "shipit.prod", does = "publish", says = "ships to {value}", when = { option = ["target"], equals = ["prod", "live"] }, examples = ["shipit --target=prod"], not_examples = ["shipit --target dev"] },
  { id = "shipit.key", does = "secret", says = "reads {value}", when = { option = ["key"], place = ["secret", "wisp-key"] }, examples = ["shipit --key ~/.ssh/id_rsa"], not_examples = ["shipit --key ./notes.txt"] },
]
'''


def test_a_user_row_tests_an_options_value():
    from wispsh.config import ConfigError
    from wispsh.policy import user
    from wispsh.vocab import places

    programs, _, _ = user.parse_table(VALUE_TESTS, "mine.toml")
    prod, key = programs["shipit"].rows
    assert prod.when.option == ("target",) and prod.when.equals == ("prod", "live")
    assert key.when.place == (places.SECRET, places.WISP_KEY)
    with pytest.raises(ConfigError, match="not a place class"):
        user.parse_table(VALUE_TESTS.replace('"wisp-key"', '"vault"'), "mine.toml")
    with pytest.raises(ConfigError, match="name it"):
        user.parse_table(VALUE_TESTS.replace('option = ["target"], ', ""), "mine.toml")
