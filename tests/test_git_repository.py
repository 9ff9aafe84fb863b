"""programs/git_repository.py against git itself: the config reader against `git config --list --file`, the
discovery against `git rev-parse --absolute-git-dir`, and which repositories the rules read at all."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import scaled

from wispsh.model import Level
from wispsh.programs import git_repository

PIECES = ["[core]", "[Core]", '[remote "origin"]', '[diff "a b"]', '[x "q\\"r"]', "[a.B]", "[bad", "[]",
          "\tfsmonitor = touch x", "\tpager = less \\", " -R", "editor=vim # c", "flag", 'v = "a ; b"',
          'v = "open', "v = a\\tb", "v = a\\qb", "v=  spaced   out  ", "; comment", "# comment", "",
          "[core] sshCommand = ssh -i k", "name-with-dash = 1", "1bad = x", "v = x;y", '\tv = "a"b"c"',
          "v = \\", "v =", "v", "[include]", "\tpath = other"]


def git_list(path: Path) -> list[tuple[str, str | None]] | None:
    done = subprocess.run(["git", "config", "--list", "--null", "--file", str(path)], capture_output=True,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(path.parent),
                               "GIT_CONFIG_NOSYSTEM": "1"}, timeout=30)
    if done.returncode != 0:
        return None
    entries = []
    for item in done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]:
        key, newline, value = item.partition("\n")
        entries.append((key, value if newline else None))
    return entries


@settings(max_examples=scaled(150, 600), deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8))
def test_the_config_reader_reads_what_git_reads(tmp_path_factory, pieces):
    path = tmp_path_factory.mktemp("config") / "config"
    text = "\n".join(pieces) + "\n"
    path.write_text(text)
    ours = git_repository.parse_config(text)
    theirs = git_list(path)
    if theirs is None:
        return                  # git refuses it: no git command runs with it (ours may read it or refuse)
    assert ours is not None, (text, theirs)     # what git reads, this reads (else a false ask)
    # git keeps the subsection's case and lowers the rest; includes are followed by git, listed here
    assert [(k, v) for k, v in ours if not k.startswith("include.")] == \
           [(k, v) for k, v in theirs if not k.startswith("include.")], text


def _git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent",
                               "GIT_CONFIG_NOSYSTEM": "1"})


def test_discovery_finds_the_git_dir_git_uses(tmp_path):
    _git("init", "-q", str(tmp_path / "work"))
    (tmp_path / "work" / "a" / "b").mkdir(parents=True)
    _git("init", "-q", "--bare", str(tmp_path / "bare.git"))
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / ".git").write_text(f"gitdir: {tmp_path / 'bare.git'}\n")
    (tmp_path / "empty-dot-git" / ".git").mkdir(parents=True)      # not a git dir: git looks further up
    (tmp_path / "plain").mkdir()
    for start in ("work", "work/a/b", "bare.git", "bare.git/refs", "linked", "empty-dot-git", "plain"):
        where = str(tmp_path / start)
        found, looked = git_repository.discover(where)
        theirs = _git("rev-parse", "--absolute-git-dir", cwd=where)
        if theirs.returncode == 0:
            assert found == os.path.realpath(theirs.stdout.strip()) or \
                   os.path.realpath(found) == os.path.realpath(theirs.stdout.strip()), start
        else:
            assert found is None, (start, found)
        assert looked[0] == where


@pytest.fixture
def place(tmp_path):
    from test_rules_support import make_place

    return make_place(tmp_path)


def _level(line, place):
    from test_rules_support import judge

    return judge(line, place).reached


def test_the_projects_own_repository_is_the_users_and_another_one_is_read(place, tmp_path):
    """The project's own config and hooks are the project's (core.fsmonitor set by the user is not asked
    about); the same config in another repository in a temporary directory is judged by what it runs."""
    for repo in (place.project, tmp_path / "other"):
        _git("init", "-q", str(repo))
        _git("config", "--file", str(repo / ".git" / "config"), "core.fsmonitor", "touch x")
    assert _level("git status", place) <= Level.LOW
    assert _level(f"git -C {tmp_path / 'other'} status", place) >= Level.HIGH
    assert _level(f"cd {tmp_path / 'other'}/ && git status", place) >= Level.HIGH
    _git("config", "--file", str(tmp_path / "other" / ".git" / "config"), "--unset", "core.fsmonitor")
    assert _level(f"git -C {tmp_path / 'other'} status", place) <= Level.LOW
    hook = tmp_path / "other" / ".git" / "hooks" / "post-index-change"
    hook.write_text("#!/bin/sh\n")
    assert _level(f"git -C {tmp_path / 'other'} status", place) >= Level.HIGH


def test_a_config_the_reader_cannot_follow_counts_as_code(place, tmp_path):
    repo = tmp_path / "r"
    _git("init", "-q", str(repo))
    with open(repo / ".git" / "config", "a") as fh:
        fh.write('[core]\n\tpager = "open\n')
    assert _level(f"git -C {repo} log", place) >= Level.HIGH
    (repo / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = x\n")
    assert _level(f"git -C {repo} log", place) >= Level.HIGH
    (repo / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    assert _level(f"git -C {repo} log", place) <= Level.LOW
