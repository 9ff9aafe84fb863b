"""What a person reads from `wisp` in an 80-column terminal: help summaries whole, `wisp rules show` with
every placeholder filled and no Python text, warnings wrapped (never cut inside a word or a path)."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WISP = str(REPO / ".venv" / "bin" / "wisp")


def fits(text: str, width: int = 80) -> list[str]:
    """The rows over `width` columns that could have been wrapped (a single word, a path, may be longer)."""
    return [row for row in text.splitlines() if len(row) > width and " " in row.strip()]


def wisp(*args: str, env: dict | None = None, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([WISP, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                          env={**(env or os.environ), "COLUMNS": "80"})
    if ok:
        assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("group", [[], ["approvals"], ["shims"], ["rules"]])
def test_help_summaries_are_whole(group):
    """Was: three summaries cut ("Show how LINE would be split, keyed, rated and decided;...")."""
    text = wisp(*group, "--help").stdout
    commands = text.split("Commands:", 1)[1]
    assert "..." not in commands and not fits(text), text
    for row in [r for r in commands.splitlines() if r.strip()]:
        assert re.fullmatch(r"  [a-z]+ +\S.*", row), row


def test_rules_show_of_every_program_fits_80_columns_with_nothing_unfilled():
    """Was, for `wisp rules show git`: 71 of 153 rows over 80 columns, `{cmd}` placeholders, Python tuples."""
    from wispsh.cli import rules
    from wispsh.programs import index

    names = sorted(index.FAMILY)
    assert len(names) > 300
    for name in names:
        text = rules.render_show(rules.show(name, None))
        assert not fits(text), (name, fits(text)[:3])
        assert not re.search(r"\{(cmd|verb|value)\}|\(\('|\[\('|\('[a-z]", text), (name, text)
    git = wisp("rules", "show", "git").stdout
    assert not fits(git) and "git am|apply patches the work tree" in git
    assert "when -f/--force given twice or more" in " ".join(git.split())
    shown = json.loads(wisp("rules", "show", "git", "--json").stdout)
    assert "((" not in json.dumps(shown)


def test_warnings_are_wrapped_to_80_columns(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    (home / "approvals.json").write_text('{"version": 1, "approvals": []}')
    (home / "approvals.json").chmod(0o666)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WISP_")}
    env.update(WISP_HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path / "run"))
    said = wisp("approvals", env=env).stderr
    assert said.startswith("wisp: approvals not trusted:") and not fits(said) and said.count("\n") > 1, said
    assert all(row.startswith("  ") for row in said.splitlines()[1:])


def test_the_wisp_run_start_up_warnings_are_wrapped(tmp_path):
    """Was: "wisp run: not protected (missing, and not under $HOME …): …" as one 331-character line."""
    from run_support import LACKS, person

    if LACKS:
        pytest.skip(LACKS)
    env = person(tmp_path, HOME="/nonexistent-home-of-the-test")
    done = subprocess.run([WISP, "run", "--", "/bin/true"], env=env, cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    said = [row for row in done.stderr.splitlines()]
    assert any(row.startswith("wisp run: ") for row in said), done.stderr
    assert not fits(done.stderr), done.stderr
    assert all(row.startswith(("wisp run: ", "  ")) for row in said), said
