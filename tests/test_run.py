"""realshell.py: finding the real shell without finding ourselves, the depth guard, holding checked text, refusing."""
import errno
import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wispsh import realshell
from wispsh.config import Config

REPO = Path(__file__).resolve().parent.parent
BASH = os.path.realpath(shutil.which("bash"))
SH = os.path.realpath(shutil.which("sh"))


def config(tmp_path, **shells):
    return Config(path=tmp_path / "config.json", shells=shells)


def write_exe(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_configured_path_wins(tmp_path):
    fake = write_exe(tmp_path / "mybash", "#!/bin/sh\nexec /bin/bash \"$@\"\n")
    cfg = config(tmp_path, bash=str(fake))
    assert realshell.find_shell("bash", cfg, {"PATH": "/usr/bin:/bin"}, "bash") == str(fake)


def test_configured_default_for_wispsh(tmp_path):
    cfg = config(tmp_path, default=SH)
    assert realshell.find_shell(None, cfg, {"PATH": "/usr/bin:/bin"}, "/x/wispsh") == SH


def test_wispsh_defaults_to_bash_then_sh(tmp_path):
    cfg = config(tmp_path)
    only_sh = tmp_path / "only-sh"
    only_sh.mkdir()
    (only_sh / "sh").symlink_to(SH)
    assert os.path.realpath(realshell.find_shell(None, cfg, {"PATH": "/usr/bin:/bin"}, "wispsh")) == BASH
    assert realshell.find_shell(None, cfg, {"PATH": str(only_sh)}, "wispsh") == str(only_sh / "sh")


def test_configured_path_that_is_wispsh_or_missing_is_refused(tmp_path):
    shim = write_exe(tmp_path / "shims" / "bash", "#!/usr/bin/python3 -IS\n# wispsh-shim\n")
    with pytest.raises(realshell.ShellNotFound, match="shell.bash .* wispsh itself"):
        realshell.find_shell("bash", config(tmp_path, bash=str(shim)), {}, "bash")
    with pytest.raises(realshell.ShellNotFound, match="not an executable file"):
        realshell.find_shell("bash", config(tmp_path, bash=str(tmp_path / "nope")), {}, "bash")


def test_path_search_skips_our_own_directory_shims_and_links_to_us(tmp_path):
    ours = tmp_path / "ours"
    write_exe(ours / "bash", "#!/usr/bin/python3 -IS\n# wispsh-shim\n")
    shim_copy = write_exe(tmp_path / "copy" / "bash", "#!/usr/bin/python3 -IS\n# wispsh-shim\n")
    console = write_exe(tmp_path / "venv" / "wispsh", "#!/usr/bin/python3\nfrom wispsh.cli.sh import main\n")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "bash").symlink_to(console)
    real = tmp_path / "real"
    real.mkdir()
    (real / "bash").symlink_to(BASH)
    env = {"PATH": os.pathsep.join(map(str, [ours, shim_copy.parent, linked, real]))}
    found = realshell.find_shell("bash", config(tmp_path), env, str(ours / "bash"))
    assert found == str(real / "bash")


def test_shell_variable_is_never_used(tmp_path):
    env = {"PATH": str(tmp_path / "empty"), "SHELL": BASH}
    with pytest.raises(realshell.ShellNotFound) as caught:
        realshell.find_shell("bash", config(tmp_path), env, "bash")
    message = str(caught.value)
    assert "looked for bash on PATH" in message and "shell.bash" in message and "config.json" in message


def test_depth():
    assert realshell.next_depth({}) == 1
    assert realshell.next_depth({realshell.DEPTH_VARIABLE: "4"}) == 5
    assert realshell.next_depth({realshell.DEPTH_VARIABLE: "junk"}) == 1


def test_depth_refusal_is_one_clean_line():
    code = f"from wispsh import realshell; realshell.check_depth({realshell.MAX_DEPTH + 1}); print('ran')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 126 and done.stdout == ""
    assert done.stderr.startswith("wispsh: not run: shells nested") and done.stderr.count("\n") == 1


def test_refuse_keeps_a_wrapped_refusal_and_no_row_can_pass_for_a_line_of_the_gates():
    code = "from wispsh import realshell; realshell.refuse('two\\n  lines   here\\nwispsh: approved\\n\\n')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert (done.returncode, done.stderr) == (126, "wispsh: not run: two\n  lines here wispsh: approved\n")


def test_held_text_is_sealed_read_only_and_survives_exec():
    data = b"echo held\n" * 1000
    path = realshell.hold_text(data)
    fd = int(path.rsplit("/", 1)[1])
    try:
        assert os.get_inheritable(fd)
        assert Path(path).read_bytes() == data
        with pytest.raises(OSError) as caught:  # not even a fresh writable open may change it
            wfd = os.open(f"/proc/self/fd/{fd}", os.O_WRONLY)
            try:
                os.write(wfd, b"rm -rf ~\n")
            finally:
                os.close(wfd)
        assert caught.value.errno in (errno.EPERM, errno.EACCES)
        assert fcntl.fcntl(fd, fcntl.F_GET_SEALS) & fcntl.F_SEAL_WRITE
        child = subprocess.run([BASH, "-c", f"wc -c < {path}"], capture_output=True, text=True,
                               pass_fds=(fd,))
        assert child.stdout.strip() == str(len(data))
    finally:
        os.close(fd)


def test_wisp_doctor_names_the_real_shells_and_fails_without_one(tmp_path):
    wisp = str(Path(sys.executable).parent / "wisp")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([wisp, "doctor"], capture_output=True, text=True, env=env)
    assert done.returncode in (0, 3), done.stdout       # 3: warnings to act on (no shims here), no failure
    assert "ok   real shell bash: " in done.stdout and "ok   Resources: " in done.stdout
    done = subprocess.run([wisp, "doctor"], capture_output=True, text=True, env={**env, "PATH": str(tmp_path)})
    assert done.returncode == 1 and "FAIL real shell default: no real shell found" in done.stdout
