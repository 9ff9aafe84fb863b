"""The user's own start-up files are the user's (issue 15): what a shell reads by its own options (-i, -l, a
login dash in argv[0], zsh always) is not the agent's line. Trusted, and not judged, when the file is the
user's and no one else can change it; `--explain` names it either way; a file that is writable by others,
not the user's, in a directory others may write, or new in this session under a moved HOME, is judged.

Each run starts from a fresh "agent" process (a python that runs wispsh as a child), started after the files
were written, as a real agent is started after the user's dotfiles. The real shells run: a line that reaches
the shell proves the start-up file was read and trusted (it writes a marker), one that is judged and refused
proves nothing ran (no marker, exit 126).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

WISPSH = str(Path(sys.executable).parent / "wispsh")
HANG = 60
# an agent: runs argv[2:] as a program (argv[1] the file, so argv[0] may be "-bash"), no terminal, own session
AGENT = ("import subprocess, sys; sys.exit(subprocess.run(sys.argv[2:], executable=sys.argv[1], "
         "stdin=subprocess.DEVNULL, start_new_session=True).returncode)")


@pytest.fixture
def box(tmp_path):
    home, wisp, run, project = (tmp_path / n for n in ("home", "wisp", "run", "project"))
    for d in (home, wisp, run, project):
        d.mkdir(mode=0o755 if d == home else 0o700)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "WISP_HOME": str(wisp),
           "XDG_RUNTIME_DIR": str(run), "LC_ALL": "C.UTF-8", "TERM": "dumb"}
    return home, project, env


def rc(home: Path, name: str, marker: Path, mode: int = 0o644) -> Path:
    """A start-up file that leaves a marker when the shell reads it (and does something a gate would ask about
    if it were judged as the agent's line: writing a file, then a recursive delete of nothing)."""
    path = home / name
    path.write_text(f'echo read >> "{marker}"\nmkdir -p "{home}/junk" && rm -rf "{home}/junk"\n')
    path.chmod(mode)
    time.sleep(0.1)         # older than the agent started next (decide/session.py CLOCK_SLACK)
    return path


def as_agent(argv, env, cwd):
    """Run the shim of wispsh named argv[0] (a login dash kept in argv[0]) from a fresh agent-like process."""
    shim = Path(env["WISP_HOME"]).parent / "shims" / argv[0].lstrip("-")
    shim.parent.mkdir(exist_ok=True)
    if not shim.exists():
        shim.symlink_to(WISPSH)
    if argv[0].startswith("-"):     # a `#!` launcher loses argv[0]: wispsh's main called with it, as login does
        argv = [sys.executable, "-c", "import sys; from wispsh.cli.sh import main; sys.exit(main(sys.argv[1:]))",
                *argv]
        shim = Path(sys.executable)
    return subprocess.run([sys.executable, "-c", AGENT, str(shim), *argv], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=HANG)


def _explainer(env) -> str:
    """wispsh under a name of its own (a process named wispsh is not taken for the agent's session)."""
    shim = Path(env["WISP_HOME"]).parent / "shims" / "wispsh-explain"
    shim.parent.mkdir(exist_ok=True)
    if not shim.exists():
        shim.symlink_to(WISPSH)
    return str(shim)


def explain(shell_name: str, args, env, cwd) -> dict:
    # a shim named bash takes no wispsh options: explain through wispsh, with the shell it stands for as the
    # default real shell
    home = Path(env["WISP_HOME"])
    (home / "config.json").write_text(json.dumps({"shell": {"default": shutil.which(shell_name)}}))
    (home / "config.json").chmod(0o600)
    try:
        done = subprocess.run([sys.executable, "-c", AGENT, _explainer(env), "wispsh", "--explain", "--json", *args],
                              env=env, cwd=cwd, capture_output=True, text=True, timeout=HANG)
    finally:
        (home / "config.json").unlink()
    return dict(json.loads(done.stdout), exit=done.returncode)


def need(program: str) -> None:
    if not shutil.which(program):
        pytest.skip(f"machine lacks {program}")


# the shell, its argv, the file it reads by those options
CASES = [
    ("bash", ["bash", "-i", "-c"], ".bashrc"),
    ("bash", ["bash", "-ic"], ".bashrc"),
    ("bash", ["bash", "-l", "-c"], ".profile"),
    ("bash", ["bash", "-c", "-l"], ".profile"),                 # Claude Code's order
    ("bash", ["bash", "-lc"], ".bash_profile"),                 # bash prefers it to ~/.profile
    ("bash", ["bash", "--login", "-c"], ".bash_login"),
    ("bash", ["-bash", "-c"], ".profile"),                      # a login dash in argv[0]
    ("sh", ["sh", "-l", "-c"], ".profile"),
    ("sh", ["-sh", "-c"], ".profile"),
    ("zsh", ["zsh", "-c"], ".zshenv"),                          # zsh reads it always
    ("zsh", ["zsh", "-i", "-c"], ".zshrc"),
    ("zsh", ["zsh", "-l", "-c"], ".zprofile"),
    ("zsh", ["zsh", "-l", "-c"], ".zlogin"),
]


@pytest.mark.parametrize("shell_name,argv,name", CASES, ids=[" ".join(a) + " " + n for _, a, n in CASES])
def test_the_users_own_start_up_file_is_read_and_not_judged(box, shell_name, argv, name):
    home, project, env = box
    need(shell_name)
    marker = home / "marker"
    rc(home, name, marker)
    done = as_agent([*argv, "git status >/dev/null 2>&1; echo LINE-RAN"], env, project)
    assert done.returncode == 0 and "LINE-RAN" in done.stdout, done.stderr
    assert marker.read_text().startswith("read"), "the shell did not read the start-up file"
    assert not (home / "junk").exists()


@pytest.mark.parametrize("shell_name,argv,name", [
    ("bash", ["-i", "-c"], ".bashrc"), ("bash", ["-l", "-c"], ".profile"), ("zsh", ["-c"], ".zshenv")])
def test_explain_names_the_start_up_files_it_trusts(box, shell_name, argv, name):
    home, project, env = box
    need(shell_name)
    path = rc(home, name, home / "marker")
    plan = explain(shell_name, [*argv, "git status"], env, project)
    notes = [n for n in plan["notes"] if n.startswith("start-up file read")]
    assert any(str(path) in n and "trusted" in n for n in notes), plan["notes"]
    assert plan["verdict"] == "run" and plan["exit"] == 0, plan
    if shell_name == "bash":
        text = subprocess.run([sys.executable, "-c", AGENT, _explainer(env), "wispsh", "--explain", *argv,
                               "git status"],
                              env=env, cwd=project, capture_output=True, text=True, timeout=HANG).stdout
        assert "start-up file read" in text and str(path) in text, text


def _untrusted(home: Path, name: str, how: str, marker: Path) -> None:
    path = rc(home, name, marker)
    if how == "writable by others":
        path.chmod(0o666)
    elif how == "group-writable directory":
        sub = home / "dotfiles"
        sub.mkdir()
        sub.chmod(0o775)
        target = sub / name
        path.rename(target)
        path.symlink_to(target)
    elif how == "not yours":
        os.chown(path, 65534, 65534)


UNTRUSTED = ["writable by others", "group-writable directory", "not yours"]


@pytest.mark.parametrize("how", UNTRUSTED)
@pytest.mark.parametrize("argv,name", [(["bash", "-i", "-c"], ".bashrc"), (["bash", "-l", "-c"], ".profile"),
                                       (["sh", "-l", "-c"], ".profile"), (["zsh", "-c"], ".zshenv")])
def test_a_start_up_file_others_can_change_is_judged(box, how, argv, name):
    home, project, env = box
    need(argv[0])
    if how == "not yours" and os.getuid() != 0:
        pytest.skip("machine lacks root (the test gives the file to another user)")
    marker = home / "marker"
    _untrusted(home, name, how, marker)
    done = as_agent([*argv, "echo LINE-RAN"], env, project)
    assert done.returncode == 126 and "LINE-RAN" not in done.stdout, (done.stdout, done.stderr)
    # the refusal fits two 80-column lines: a long path is cut there, the rest is in --explain and the audit
    said = " ".join(done.stderr.split())              # the refusal is wrapped at 80 columns
    assert f". '{home}/{name}"[:40] in said and "sources" in said, done.stderr
    assert not marker.exists()
    plan = explain(argv[0], [*argv[1:], "echo x"], env, project)
    assert plan["exit"] == 1 and plan["verdict"] == "ask", plan
    assert any("judged as the agent's code" in n for n in plan["notes"]), plan["notes"]
    assert any("the shell also runs" in n and name in n for n in plan["notes"]), plan["notes"]


def test_a_start_up_file_new_in_this_session_under_a_moved_home_is_judged(box, tmp_path):
    """HOME is the password database's own for the user everywhere else; under another HOME (a line can set
    it) a file written after the agent started may be the agent's."""
    home, project, env = box
    marker = home / "marker"
    script = (f"import pathlib, subprocess, sys\n"
              f"pathlib.Path({str(home / '.bashrc')!r}).write_text('echo read >> {marker}\\n')\n"
              f"sys.exit(subprocess.run(['setsid', '-w', {WISPSH!r}, '-i', '-c', 'echo LINE-RAN'],"
              f" stdin=subprocess.DEVNULL).returncode)\n")
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=project, capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 126 and not marker.exists(), (done.stdout, done.stderr)
    assert "sources" in done.stderr
    # the same file, older than the next agent: the user's
    again = as_agent(["bash", "-i", "-c", "echo LINE-RAN"], env, project)
    assert again.returncode == 0 and "LINE-RAN" in again.stdout and marker.exists(), again.stderr


@pytest.mark.parametrize("variable,argv", [("ENV", ["sh", "-i", "-c"]), ("BASH_ENV", ["bash", "-c"])])
def test_env_naming_your_own_start_up_file_is_trusted_and_any_other_file_is_judged(box, variable, argv):
    home, project, env = box
    marker = home / "marker"
    own = rc(home, ".shrc" if variable == "ENV" else ".bashrc", marker)
    done = as_agent([*argv, "echo LINE-RAN"], dict(env, **{variable: str(own)}), project)
    assert done.returncode == 0 and "LINE-RAN" in done.stdout and marker.exists(), done.stderr
    marker.unlink()
    other = home / "project-env.sh"
    other.write_text(own.read_text())
    for value in (str(other), "$HOME/" + own.name, str(home / "sub" / ".." / own.name)):
        done = as_agent([*argv, "echo LINE-RAN"], dict(env, **{variable: value}), project)
        assert done.returncode == 126 and not marker.exists(), (value, done.stdout, done.stderr)


def test_norc_and_noprofile_read_nothing_and_explain_says_nothing(box):
    home, project, env = box
    rc(home, ".bashrc", home / "marker", mode=0o666)        # would be judged if read
    rc(home, ".profile", home / "marker", mode=0o666)
    for argv in (["bash", "--norc", "-i", "-c"], ["bash", "--noprofile", "-l", "-c"]):
        done = as_agent([*argv, "echo LINE-RAN"], env, project)
        assert done.returncode == 0 and "LINE-RAN" in done.stdout, (argv, done.stderr)
    assert not (home / "marker").exists()
