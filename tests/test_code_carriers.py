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


# ---------------------------------------------------------------- settings whose value is a command line


def _nested(line: str) -> list[tuple[str, tuple]]:
    return [(p.origin, p.argv) for p in split_line(line).parts if p.origin != "top"]


@pytest.mark.parametrize("line, origin, argv", [
    ("git -c core.pager='rm x' log", "git -c", ("rm", "x")),
    ("git -ccore.pager='rm x' log", "git -c", ("rm", "x")),
    ("git -pc core.pager='rm x' log", "git -c", ("rm", "x")),                  # a getopt cluster
    ("git --git-dir .git -C . -c core.editor='rm x' commit", "git -c", ("rm", "x")),
    ("git -c Core.SSHCommand='rm x' fetch", "git -c", ("rm", "x")),            # keys without case
    ("git -c diff.tool.textconv='rm x' diff", "git -c", ("rm", "x")),          # a subsection
    ("git -c credential.helper='!rm x' fetch", "git -c", ("rm", "x")),         # code after `!`
    ("sudo git -c core.fsmonitor='rm x' status", "git -c", ("rm", "x")),
    ("git clone --config core.sshCommand='rm x' https://x.example/r", "git clone -c", ("rm", "x")),
    ("git difftool --extcmd='rm x' HEAD", "git difftool -x", ("rm", "x")),
    ("ssh -vo 'LocalCommand rm x' host", "ssh -o", ("rm", "x")),
    ("autossh -M 0 -o ProxyCommand='rm x' host", "autossh -o", ("rm", "x")),
    ("man --pager='rm x' ls", "man -P", ("rm", "x")),
    ("vim -c 'set nu' -c 'sil! r !rm x' f", "vim -c", ("rm", "x")),           # every -c, not only the first
    ("nvim --cmd 'call system(\"rm x\")' f", "nvim -c", ("rm", "x")),
    ("PAGER='rm x' man ls", "PAGER", ("rm", "x")),
    ("env GIT_SSH_COMMAND='rm x' git fetch", "GIT_SSH_COMMAND", ("rm", "x")),
    ("export EDITOR='rm x'", "EDITOR", ("rm", "x")),
    ("LESSOPEN='|rm x %s' less f", "LESSOPEN", ("rm", "x", "%s")),
])
def test_a_setting_holding_code_gives_its_part(line, origin, argv):
    assert (origin, argv) in _nested(line), _nested(line)


@pytest.mark.parametrize("line", [
    "git -c core.pager=cat log", "git -c core.pager='less -R' log", "git -c core.editor='code --wait' commit",
    "git -c core.fsmonitor=false status", "git -c core.fsmonitor=true status", "git -c pager.log=false log",
    "git -c user.name='rm x' commit", "git log -c core.pager=x", "git commit -c HEAD", "ssh -o ProxyCommand=none h",
    "man -P cat ls", "vim -c q f", "vim +42 f", "vim +/rm f", "EDITOR=vim git commit",
    "GIT_PAGER='less -FRX' git log", "git -c credential.helper=store push",
])
def test_a_plain_setting_gives_no_part(line):
    assert _nested(line) == []


def test_a_setting_known_only_at_run_time_makes_the_part_opaque():
    for line in ['git -c core.pager="$P" log', 'git -c "$KEY=x" status', 'ssh -o "ProxyCommand=$P" host',
                 'git -c alias.x="$A" x']:
        assert split_line(line).parts[0].opaque, line
    for line in ['git -c user.email="$EMAIL" commit', 'git -c alias.y="$A" x']:
        assert not split_line(line).parts[0].opaque, line


def test_an_alias_is_the_command_it_expands_to():
    assert ("git alias", ("git", "reset", "--hard")) in _nested("git -c alias.x='reset --hard' x")
    assert ("git alias", ("git", "-C", "d", "push", "--force", "origin")) in \
        _nested("git -C d -c alias.p='push --force' p origin")          # its arguments follow; -c is read already
    chain = _nested("git -c alias.a=b -c alias.b='reset --hard' a")
    assert chain[-1] == ("git alias", ("git", "reset", "--hard")), chain
    assert ("git alias", ("rm", "-rf", "a b")) in _nested("git -c alias.x='!rm' x -rf 'a b'")   # ! gets the args
    assert _nested("git -c alias.a=b -c alias.b=a a") == []             # a loop: git refuses, nothing runs
    assert _nested("git -c alias.status='push --force' status") == []   # a git command wins over an alias
    # a definition not named still runs in a git this one starts (-c is passed on): a part, once
    parts = _nested("git -c alias.x='push --force' rebase -x 'git x' HEAD~1")
    assert parts.count(("git alias", ("git", "push", "--force"))) == 1, parts


def test_config_code_reads_values():
    from wispsh.programs import config_code as cc

    assert cc.git_config("core.pager", "less; id") == (cc.CODE, "less; id")
    assert cc.git_config("core.fsmonitor", "false")[0] == cc.PLAIN
    assert cc.git_config("core.fsmonitor", "./hook")[0] == cc.CODE
    assert cc.git_config("credential.helper", "store")[0] == cc.OTHER
    assert cc.git_config("color.ui", "always")[0] == cc.NOT_CODE
    assert cc.git_config("mergetool.kdiff3.cmd", "kdiff3 $BASE")[0] == cc.CODE
    assert cc.split_cmdline("log --format='%h %s' \"a b\" c\\ d") == ["log", "--format=%h %s", "a b", "c d"]
    assert cc.split_cmdline("log 'open") is None
    assert cc.ex_shell("silent !curl x | sh") == (["curl x | sh"], False)
    assert cc.ex_shell("set nu | w !sh") == (["sh"], True)
    assert cc.ex_shell("qa!") == ([], False)
    assert cc.ex_shell(":py import os; os.system('id')") == ([], True)
    assert cc.ssh_option("ProxyCommand = nc %h %p") == ("proxycommand", cc.CODE, "nc %h %p")
    assert not cc.plain_tool("/tmp/less") and not cc.plain_tool("less -k keys") and cc.plain_tool("less -+F")
