"""`wisp shims install | list | remove`, and program shims gating a direct exec of git and rm.

Everything runs for real: the `wisp` CLI lays shims in a temporary directory, and the shims run the real
git and rm, detached from any terminal (setsid, stdin /dev/null) so that no one can be asked.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from test_ask_support import REPO, person_env

WISP = str(REPO / ".venv" / "bin" / "wisp")
REAL_GIT = shutil.which("git", path="/usr/bin:/bin")
REAL_RM = shutil.which("rm", path="/usr/bin:/bin")


def wisp(env, *args, cwd=None):
    return subprocess.run([WISP, *args], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          cwd=cwd, timeout=60)


def detached(argv, env, cwd=None):
    """As an agent runs a command: its own session, no terminal, stdin /dev/null."""
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          start_new_session=True, timeout=60)


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): (os.readlink(p) if p.is_symlink() else p.read_text())
            for p in sorted(root.rglob("*")) if p.is_file() or p.is_symlink()}


@pytest.fixture
def env(tmp_path):
    env = person_env(tmp_path)
    env.pop("WISP_SESSION", None)
    env["PATH"] = "/usr/bin:/bin"
    return env


def test_install_is_idempotent_and_remove_takes_only_its_own(env, tmp_path):
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "mytool").write_text("#!/bin/sh\necho mine\n")
    (shims / "notes").write_text("# wispsh-shim mentioned, but no #! line: not a shim\n")
    (shims / "bash-link").symlink_to("/bin/bash")
    first = wisp(env, "shims", "install", str(shims), "--program", "git")
    assert first.returncode == 0, first.stderr
    assert [line.split()[0] for line in first.stdout.splitlines()[:4]] == ["laid"] * 4
    laid = tree(shims)
    second = wisp(env, "shims", "install", str(shims), "--program", "git")
    assert second.returncode == 0 and [line.split()[0] for line in second.stdout.splitlines()[:4]] == ["unchanged"] * 4
    assert tree(shims) == laid
    for name in ("bash", "sh", "zsh", "git"):
        assert os.access(shims / name, os.X_OK) and "wispsh-shim" in (shims / name).read_text()
    assert "wispsh-shim program" in (shims / "git").read_text()

    listed = wisp({**env, "PATH": f"{shims}:/usr/bin:/bin"}, "shims", "list", str(shims))
    assert f"{shims}:" in listed.stdout
    for name, kind in (("bash", "shell"), ("git", "program"), ("sh", "shell"), ("zsh", "shell")):
        assert any(line.split()[:2] == [name, kind] and "PATH finds this shim" in line
                   for line in listed.stdout.splitlines()), listed.stdout
    behind = wisp({**env, "PATH": f"/usr/bin:/bin:{shims}"}, "shims", "list", str(shims))
    assert "PATH finds /usr/bin/bash first" in behind.stdout
    assert "mytool" not in listed.stdout and "notes" not in listed.stdout

    only = wisp(env, "shims", "remove", str(shims), "--only", "git")
    assert only.returncode == 0 and only.stdout.split() == ["removed", str(shims / "git")]
    gone = wisp(env, "shims", "remove", str(shims))
    assert gone.returncode == 0 and sorted(gone.stdout.split()[1::2]) == [str(shims / n) for n in ("bash", "sh", "zsh")]
    assert sorted(os.listdir(shims)) == ["bash-link", "mytool", "notes"]
    assert (shims / "mytool").read_text() == "#!/bin/sh\necho mine\n"
    again = wisp(env, "shims", "remove", str(shims))
    assert again.returncode == 0 and "no wispsh shims" in again.stdout


def test_install_never_writes_over_a_file_that_is_not_a_shim(env, tmp_path):
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "sh").write_text("#!/bin/sh\necho my own sh\n")
    done = wisp(env, "shims", "install", str(shims))
    assert done.returncode == 1 and "is not a wispsh shim; left alone" in done.stderr
    assert (shims / "sh").read_text() == "#!/bin/sh\necho my own sh\n"
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    done = wisp(env, "shims", "install", str(shared))
    assert done.returncode == 1 and "writable by group or others" in done.stderr and os.listdir(shared) == []


def test_default_directory_is_the_one_install_sh_uses(env, tmp_path):
    done = wisp(env, "shims", "install")
    default = Path(env["HOME"]) / ".local" / "share" / "wispsh" / "shims"
    assert done.returncode == 0 and sorted(os.listdir(default)) == ["bash", "sh", "zsh"]
    xdg = wisp({**env, "XDG_DATA_HOME": str(tmp_path / "data")}, "shims", "install", "--shell", "bash")
    assert xdg.returncode == 0 and os.listdir(tmp_path / "data" / "wispsh" / "shims") == ["bash"]
    assert "no shims" not in wisp(env, "shims", "list").stdout


# ---------------------------------------------------------------- program shims


@pytest.fixture
def gated(env, tmp_path):
    """(env with the git and rm shims first on PATH, a git repo to work in)."""
    shims = tmp_path / "shims"
    assert wisp(env, "shims", "install", str(shims), "--program", "git", "--program", "rm").returncode == 0
    repo = tmp_path / "repo"
    repo.mkdir()
    real = {**env, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run([REAL_GIT, "init", "-q", str(repo)], env=real, check=True)
    (repo / "a.txt").write_text("a\n")
    return {**real, "PATH": f"{shims}:/usr/bin:/bin"}, repo


def real_run(argv, env, cwd):
    return detached(argv, {**env, "PATH": "/usr/bin:/bin"}, cwd)


def test_benign_program_lines_run_with_the_real_programs_output_and_status(gated):
    env, repo = gated
    for argv in (["git", "--version"], ["git", "status", "--porcelain"], ["git", "rev-parse", "--verify", "nosuch"],
                 ["git", "diff", "--stat"]):
        through, real = detached(argv, env, repo), real_run(argv, env, repo)
        assert (through.returncode, through.stdout, through.stderr) == (real.returncode, real.stdout, real.stderr)
    assert detached(["git", "rev-parse", "--verify", "nosuch"], env, repo).returncode == 128
    # through the bash shim, then the git shim beneath it: no loop, no question
    nested = detached(["bash", "-c", "git status --short; echo depth=$WISP_DEPTH"], env, repo)
    assert (nested.returncode, nested.stdout, nested.stderr) == (0, "?? a.txt\ndepth=1\n", "")


def test_risky_program_lines_are_refused_when_no_one_can_be_asked(gated):
    env, repo = gated
    (repo / "build dir").mkdir()
    done = detached(["rm", "-rf", "build dir"], env, repo)
    assert done.returncode == 126 and done.stdout == ""
    assert done.stderr.startswith("wispsh: not run: rm -rf 'build dir' (high") and done.stderr.endswith("`\n")
    assert (repo / "build dir").is_dir()
    push = detached(["git", "push", "--force", "origin", "main"], env, repo)
    assert push.returncode == 126 and "git push --force origin main (dangerous" in push.stderr
    # the line was gated as shlex.join(argv), and audited so
    events = [json.loads(line) for line in (Path(env["WISP_HOME"]) / "audit.jsonl").read_text().splitlines()]
    assert "rm -rf 'build dir'" in {e.get("line") or e.get("command") for e in events}


def test_an_approved_program_line_runs_with_the_real_programs_status(gated):
    env, repo = gated
    added = wisp(env, "approvals", "add", "rm *", "--scope", "project", "--level", "high", cwd=repo)
    assert added.returncode == 0, added.stderr
    (repo / "build").mkdir()
    assert detached(["rm", "-rf", "build"], env, repo).returncode == 0 and not (repo / "build").exists()
    missing = detached(["rm", "no-such-file"], env, repo)
    real = real_run([REAL_RM, "no-such-file"], env, repo)
    assert (missing.returncode, missing.stdout) == (real.returncode, "") and real.returncode == 1
    assert missing.stderr == real.stderr.replace(REAL_RM, "rm")


def test_a_program_shim_never_runs_itself_or_another_shim(gated, tmp_path):
    env, repo = gated
    shims = Path(env["PATH"].split(":")[0])
    other = tmp_path / "more-shims"
    assert wisp(env, "shims", "install", str(other), "--shell", "sh", "--program", "git").returncode == 0
    alone = detached([str(shims / "git"), "--version"], {**env, "PATH": f"{shims}:{other}"}, repo)
    assert alone.returncode == 127 and "no real git on PATH past the shims" in alone.stderr
    deep = detached(["git", "--version"], {**env, "WISP_DEPTH": "32"}, repo)
    assert deep.returncode == 126 and "nested 33 deep" in deep.stderr
