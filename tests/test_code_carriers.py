"""programs/code_carriers.py: one table of which programs run which words as code, its rows' examples, and
the splitter reading it."""
from __future__ import annotations

import pytest

from wispsh.programs import code_carriers as carriers
from wispsh.parse.split import split_line

SPLITTER_ROWS = [row for row in carriers.CARRIERS if row.kind != carriers.FILE]


def test_every_row_is_well_formed():
    for row in carriers.all_carriers():
        assert row.where in carriers.PLACES and row.kind in carriers.KINDS, row
        if row.where == carriers.OPTION:
            assert row.options and all(o.startswith("-") for o in row.options), row
        if row.where == carriers.DELIMITED:
            assert row.markers and row.ends, row


def test_no_two_rows_say_the_same():
    seen = {}
    for row in carriers.all_carriers():
        key = (row.program, row.verb, row.where, row.kind, row.options, row.via)
        assert key not in seen, (row, seen.get(key))
        seen[key] = row


@pytest.mark.parametrize("row", SPLITTER_ROWS, ids=repr)
def test_each_row_gives_its_part(row):
    assert row.example, f"{row!r} has no example"
    line, program = row.example
    split = split_line(line)
    hits = [p for p in split.parts if p.argv and p.argv[0] == program and p.origin == row.origin]
    assert hits, (line, [(p.argv, p.origin) for p in split.parts])


@pytest.mark.parametrize("line", [
    "git rebase main", "git submodule status", "find . -name x", "trap - INT", "trap 'rm x'", "uv pip install x",
    "npm run test", "tar -xf a.tar", "printf '%s' -v 'a[$(rm x)]'", "ssh host", "eval", "alias", "sh script.sh",
])
def test_a_row_reads_only_its_place(line):
    split = split_line(line)
    assert len([p for p in split.parts if p.argv and p.argv[0] == "rm"]) == 0, [(p.argv, p.origin) for p in split.parts]


def test_the_rules_can_ask_the_table():
    assert carriers.runs_code("find") and carriers.runs_code("sudo") and carriers.runs_code("python")
    assert not carriers.runs_code("ls")
    kinds = {row.kind for row in carriers.carriers_of("su")}
    assert carriers.SHELL in kinds        # su -c CODE, restated from programs/wrappers.py
    assert {row.kind for row in carriers.carriers_of("python")} == {carriers.INLINE}
    assert carriers.VARIABLES["PROMPT_COMMAND"] == carriers.SHELL and carriers.VARIABLES["PS1"] == carriers.PROMPT
