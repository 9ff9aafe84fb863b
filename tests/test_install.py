"""install.sh in a temporary HOME: twice in a row, then lines through what it installed, then --uninstall."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BASE_PYTHON = getattr(sys, "_base_executable", None) or shutil.which("python3")


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    # Things of the user's own that install.sh must leave alone.
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "mytool").write_text("#!/bin/sh\necho mine\n")
    (home / ".wisp").mkdir(mode=0o700)
    (home / ".wisp" / "config.json").write_text("{}")
    (home / ".wisp" / "config.json").chmod(0o600)
    before = tree(home)
    # WISP_HOME: without it the wisp home is the password database's home (the real user's), not $HOME
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LC_ALL": "C", "WISP_HOME": str(home / ".wisp")}
    # three runs in a row (the second and third install over the first), each for a user of another shell: no
    # SHELL (sh), bash, zsh (where the machine has it), so each run's PATH line is for its shell
    runs = {shell: subprocess.run(["sh", str(REPO / "install.sh"), "--python", BASE_PYTHON],
                                  env={**env, "SHELL": shell} if shell else env,
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL)
            for shell in ("", "/bin/bash", *(["/usr/bin/zsh"] if os.path.exists("/usr/bin/zsh") else []))}
    return home, env, before, runs


def test_install_again_and_again_succeeds_and_says_how_to_use_it(installed):
    home, _, _, runs = installed
    for done in runs.values():
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
    shims = home / ".local" / "share" / "wispsh" / "shims"
    again = runs["/bin/bash"]                   # the second run, over the first
    assert f"SHELL={shims}/bash" in again.stdout and f"PATH={shims}:$PATH" in again.stdout
    # ~/.local/bin is not on this PATH: the line that puts it there, for the user's shell (no SHELL: sh)
    assert f"{home}/.local/bin is not on your PATH" in runs[""].stdout
    assert """echo 'PATH="$HOME/.local/bin:$PATH"; export PATH' >> ~/.profile""" in runs[""].stdout


@pytest.mark.parametrize("shell, line", [
    ("/bin/bash", """echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc"""),
    ("/usr/bin/zsh", """echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.zshrc"""),
])
def test_the_path_line_is_for_the_users_shell_and_followed_it_works(installed, shell, line):
    home, env, _, runs = installed
    if not os.path.exists(shell):           # as the other zsh tests: a shell this machine lacks is skipped
        pytest.skip(f"machine lacks {os.path.basename(shell)}")
    assert line in runs[shell].stdout, runs[shell].stdout
    rc = home / (".bashrc" if "bash" in shell else ".zshrc")
    before = rc.read_text() if rc.exists() else None
    try:
        subprocess.run(["sh", "-c", line], env=env, check=True)          # followed as written
        found = subprocess.run([shell, "-c", f". {rc}; command -v wispsh"], env=env, capture_output=True, text=True)
        assert found.stdout.strip() == f"{home}/.local/bin/wispsh"
    finally:
        if before is None:
            rc.unlink()
        else:
            rc.write_text(before)


def test_no_path_line_once_the_directory_is_on_path(installed):
    home, env, _, _ = installed
    on_path = subprocess.run(["sh", str(REPO / "install.sh"), "--python", BASE_PYTHON],
                             env={**env, "SHELL": "/bin/bash", "PATH": f"{home}/.local/bin:/usr/bin:/bin"},
                             capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert on_path.returncode == 0, on_path.stderr
    assert "not on your PATH" not in on_path.stdout


def test_installed_commands_and_shims(installed):
    home, env, _, _ = installed
    data = home / ".local" / "share" / "wispsh"
    for name in ("wispsh", "wisp"):
        link = home / ".local" / "bin" / name
        assert link.is_symlink() and str(os.readlink(link)).startswith(str(data))
        done = subprocess.run([str(link), "--version"], env=env, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.startswith(f"{name} ")
    for name in ("bash", "sh", "zsh"):
        shim = data / "shims" / name
        assert os.access(shim, os.X_OK) and "wispsh-shim" in shim.read_text()
    assert (home / ".local" / "bin" / "mytool").read_text() == "#!/bin/sh\necho mine\n"


def test_lines_run_through_the_installed_wispsh_and_shims(installed):
    home, env, _, _ = installed
    wispsh = str(home / ".local" / "bin" / "wispsh")
    shims = home / ".local" / "share" / "wispsh" / "shims"
    done = subprocess.run([wispsh, "-c", 'echo "$0|$1"', "opencode", "/tmp"], env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (0, "opencode|/tmp\n", "")
    nested = {**env, "PATH": f"{shims}:/usr/bin:/bin", "SHELL": str(shims / "bash")}
    done = subprocess.run(["bash", "-c", "bash -c 'echo deep'; sh -c 'echo $WISP_DEPTH'"], env=nested,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "deep\n2\n", "")


def test_uninstall_leaves_nothing_of_its_own(installed):
    home, env, before, _ = installed
    shims = home / ".local" / "share" / "wispsh" / "shims"
    # the README's recipes, followed by the user: settings that name the shims (install.sh wrote none of them)
    mine = {home / ".claude" / "settings.json": json.dumps({"env": {"CLAUDE_CODE_SHELL": f"{shims}/bash"}}),
            home / ".config" / "opencode" / "opencode.json": "{\n  \"model\": \"x\",\n"
                                                              f'  "shell": "{shims}/bash"\n}}\n',
            home / ".profile": f'PATH="{shims}:$PATH"\n'}
    for path, text in mine.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    done = subprocess.run(["sh", str(REPO / "install.sh"), "--uninstall"], env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    # was: nothing said, and ~/.claude/settings.json left pointing at the deleted shim
    said = done.stdout.split("still name what was removed", 1)[1]
    for row in (f"{home}/.claude/settings.json:1", f"{home}/.config/opencode/opencode.json:3", f"{home}/.profile:1"):
        assert f"  {row}\n" in said, done.stdout
    for path, text in mine.items():             # listed, never changed
        assert path.read_text() == text
        path.unlink()
    for directory in (home / ".claude", home / ".config" / "opencode", home / ".config"):
        directory.rmdir()
    # ~/.wisp is the user's (config, approvals, the audit of the lines run above): kept, never install.sh's
    assert {p for p in tree(home) if not p.startswith(".wisp/")} == {p for p in before if not p.startswith(".wisp/")}
    assert (home / ".wisp" / "config.json").read_text() == "{}"
    again = subprocess.run(["sh", str(REPO / "install.sh"), "--uninstall"], env=env, capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
    assert again.returncode == 0 and "not installed" in again.stdout
