"""Exec parity: an allowed line through wispsh behaves exactly as through the real shell called the same way.

Two ways in: the test driver (shell.py + realshell.py without the gate, so exec parity is checked whatever the
gate decides) and the real `wispsh` (through shims as `wisp shims install` lays them, gate included).
"""
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pexpect
import pytest

from wispsh import realshell
from wispsh.support import shimfile

REPO = Path(__file__).resolve().parent.parent
DRIVER = Path(__file__).resolve().parent / "exec_driver.py"
WISPSH = Path(sys.executable).parent / "wispsh"
REAL = {name: shutil.which(name) for name in ("bash", "sh", "zsh")}


def make_shim(directory: Path, name: str) -> Path:
    """A shim as `wisp shims install` (and so install.sh) lays it, but running this checkout."""
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    text = shimfile.launcher_text("shell", sys.executable, [str(REPO), *site])
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / name
    shim.write_text(text)
    shim.chmod(0o755)
    return shim


def make_driver_shim(directory: Path, name: str) -> Path:
    """A shim that runs the gate-less driver (marked as ours, so realshell.py never takes it for a real shell)."""
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / name
    shim.write_text(f'#!/bin/sh\n# wispsh-shim (test driver)\nexec "{sys.executable}" "{DRIVER}" "$0" "$@"\n')
    shim.chmod(0o755)
    return shim


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    (home / ".wisp").mkdir(parents=True)
    (home / ".wisp").chmod(0o700)
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"), "LC_ALL": "C"}


@pytest.fixture(params=["driver", "wispsh"])
def way(request, tmp_path):
    """Returns run(name, args, **kw) -> (argv0 used, CompletedProcess)."""
    shims = tmp_path / "shims"

    def through(name, args, **kw):
        shim = make_shim(shims, name) if request.param == "wispsh" else make_driver_shim(shims, name)
        return str(shim), subprocess.run([str(shim), *args], capture_output=True, **kw)
    through.kind = request.param
    return through


def real(name, argv0, args, **kw):
    return subprocess.run([argv0, *args], executable=REAL[name], capture_output=True, **kw)


# The agents' plumbing exactly as Resources/harnesses.json knows it (paths under HOME and TMPDIR).
CLAUDE_SNAPSHOT = ".claude/shell-snapshots/snapshot-bash-1788557415117-j0hu0n.sh"
CODEX_SNAPSHOT = ".codex/shell_snapshots/0f6c3a52-7b1e-4c1d-9a55-2d7e1c9b8a10.sh"
GEMINI_BGPIDS = "gemini-shell-Ab12Cd/bgpids.tmp"
CLAUDE_CWD = "claude-f8eb-cwd"


def claude_line(home, tmp, payload):
    return (f"source {home}/{CLAUDE_SNAPSHOT} 2>/dev/null || true && shopt -u extglob 2>/dev/null || true"
            f" && eval '{payload}' < /dev/null && pwd -P >| {tmp}/{CLAUDE_CWD}")


def agent_shapes(home, tmp):
    return {
        "claude-code": ("bash", ["-c", "-l", claude_line(home, tmp, "echo hello; echo warn >&2")]),
        "claude-code-snapshot": ("bash", ["-c", claude_line(home, tmp, "echo $SNAP_VAR")]),
        "codex": ("bash", ["-lc", "echo hello; ls -d /"]),
        "codex-snapshot": ("bash", ["-c", f"if . '{home}/{CODEX_SNAPSHOT}' >/dev/null 2>&1; then :; fi\n\n"
                                          f"exec '{REAL['bash']}' -c 'echo hello $SNAP_VAR'"]),
        "gemini": ("bash", ["-c", "shopt -u promptvars nullglob extglob nocaseglob dotglob; "
                                  f"_bgpids_file={tmp}/{GEMINI_BGPIDS}\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n"
                                  "echo hello\n)\n__code=$?\nexit $__code"]),
        "opencode": ("bash", ["-c", "echo hello; exit 3"]),
        "opencode-user": ("bash", ["-l", "-c", "\nshopt -s expand_aliases\n"
                                               "[[ -f ~/.bashrc ]] && source ~/.bashrc >/dev/null 2>&1 || true\n"
                                               "cd -- \"$1\"\neval \"echo hello; pwd\"\n", "opencode", str(tmp)]),
        "aider": ("bash", ["-i", "-c", "echo hello"]),
        "continue": ("bash", ["-l", "-c", "echo hello"]),
        "goose": ("sh", ["-c", "echo hello; echo err >&2"]),
        "copilot": ("bash", ["--norc", "--noprofile", "-c", "echo hello"]),
        "amazon-q": ("bash", ["-c", "printf '%s\\n' hello"]),
        "failing-command": ("bash", ["-c", "ls /no/such/dir"]),
        "bash-usage-error": ("bash", ["-c"]),
        "zsh-claude": ("zsh", ["-c", "-l", "setopt NO_EXTENDED_GLOB 2>/dev/null || true && eval 'echo hello'"]),
        "zsh-codex": ("zsh", ["-lc", "echo hello $0"]),
    }


@pytest.mark.parametrize("agent", list(agent_shapes("/h", "/t")))
def test_agent_shapes_match_the_real_shell(agent, way, env, tmp_path):
    home = Path(env["HOME"])
    for snapshot in (CLAUDE_SNAPSHOT, CODEX_SNAPSHOT):
        (home / snapshot).parent.mkdir(parents=True, exist_ok=True)
        (home / snapshot).write_text("export SNAP_VAR=from-snapshot\n")
    (tmp_path / GEMINI_BGPIDS).parent.mkdir()
    env = {**env, "TMPDIR": str(tmp_path)}
    name, args = agent_shapes(home, tmp_path)[agent]
    if REAL[name] is None:
        pytest.skip(f"machine lacks {name}")
    argv0, got = way(name, args, env=env, stdin=subprocess.DEVNULL, cwd=tmp_path)
    cwd_file = tmp_path / CLAUDE_CWD
    got_cwd = cwd_file.read_text() if cwd_file.exists() else None
    cwd_file.unlink(missing_ok=True)
    want = real(name, argv0, args, env=env, stdin=subprocess.DEVNULL, cwd=tmp_path)
    want_cwd = cwd_file.read_text() if cwd_file.exists() else None
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert got_cwd == want_cwd


def test_dollar_zero_and_one(way, env):
    _, got = way("wispsh", ["-c", 'echo "$0|$1"', "opencode", "/tmp"], env=env, stdin=subprocess.DEVNULL)
    assert (got.returncode, got.stdout, got.stderr) == (0, b"opencode|/tmp\n", b"")


def test_exit_status_and_death_by_signal(way, env):
    _, got = way("wispsh", ["-c", "exit 7"], env=env, stdin=subprocess.DEVNULL)
    assert got.returncode == 7
    # kill is rated high: --yes answers "once" (no person here), then the exec'd shell dies by the signal
    _, got = way("wispsh", ["--yes", "-c", "kill -TERM $$"], env=env, stdin=subprocess.DEVNULL)
    assert got.returncode == -signal.SIGTERM


def test_exec_keeps_the_pid(tmp_path, env):
    for shim in (make_driver_shim(tmp_path / "d", "bash"), make_shim(tmp_path / "w", "bash")):
        child = subprocess.Popen([str(shim), "-c", "echo $$"], stdout=subprocess.PIPE, env=env,
                                 stdin=subprocess.DEVNULL)
        out, _ = child.communicate(timeout=60)
        assert int(out) == child.pid


def test_never_reads_stdin_when_there_is_a_line(way, env):
    reader, writer = os.pipe()  # the writer stays open: reading stdin would block until the timeout
    try:
        _, got = way("wispsh", ["-c", "echo quick"], env=env, stdin=reader, timeout=60)
    finally:
        os.close(reader)
        os.close(writer)
    assert got.stdout == b"quick\n"


def test_login_dash_is_kept(env):
    line = "shopt -q login_shell && echo login || echo not"
    got = subprocess.run([sys.executable, str(DRIVER), "-bash", "-c", line], capture_output=True, env=env,
                         stdin=subprocess.DEVNULL)
    assert got.stdout == b"login\n"
    got = subprocess.run([sys.executable, str(DRIVER), "bash", "-c", line], capture_output=True, env=env,
                         stdin=subprocess.DEVNULL)
    assert got.stdout == b"not\n"


# ---------------------------------------------------------------- script and stdin modes


SELF_REWRITING = 'cp "$0.next" "$0"\necho original\n'   # line 1 replaces the file while it runs
REWRITTEN = 'cp "$0.next" "$0"\necho SWAPPED\n'          # same first line, other second line


def test_a_script_that_rewrites_itself_runs_what_was_read(way, env, tmp_path):
    script = tmp_path / "job.sh"
    script.write_text(SELF_REWRITING)
    (tmp_path / "job.sh.next").write_text(REWRITTEN)
    plain = real("bash", "bash", [str(script)], env=env, stdin=subprocess.DEVNULL)
    assert plain.stdout == b"SWAPPED\n"  # the real bash reads as it goes: that is what wispsh must not do
    script.write_text(SELF_REWRITING)
    # cp is rated moderate: --yes answers "once" (no person here)
    _, got = way("wispsh", ["--yes", str(script)], env=env, stdin=subprocess.DEVNULL)
    assert (got.returncode, got.stdout) == (0, b"original\n")


def test_a_script_swapped_after_the_read_runs_what_was_read(env, tmp_path):
    script = tmp_path / "job.sh"
    script.write_text('echo "checked $0 $1"\n')
    swap = f"printf 'echo EVIL\\n' > {script}"
    got = subprocess.run([sys.executable, str(DRIVER), "bash", str(script), "arg"], capture_output=True,
                         env={**env, "WISP_TEST_AFTER_READ": swap}, stdin=subprocess.DEVNULL)
    assert script.read_text() == "echo EVIL\n"
    assert (got.returncode, got.stdout) == (0, f"checked {script} arg\n".encode())


def test_script_mode_matches_the_real_shell(way, env, tmp_path):
    script = tmp_path / "s.sh"
    script.write_text('echo "$0|$1|$#"; set -- x; echo "$1"; echo oops >&2; exit 4\n')
    for name in ("bash", "sh"):
        argv0, got = way(name, ["-e", str(script), "a b", "c"], env=env, stdin=subprocess.DEVNULL)
        want = real(name, argv0, ["-e", str(script), "a b", "c"], env=env, stdin=subprocess.DEVNULL)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)


@pytest.mark.parametrize("target", ["no-such-script.sh", "."])
def test_unreadable_script_gives_the_real_shells_message_and_status(target, way, env, tmp_path):
    for name in ("bash", "sh"):
        argv0, got = way(name, [target], env=env, stdin=subprocess.DEVNULL, cwd=tmp_path)
        want = real(name, argv0, [target], env=env, stdin=subprocess.DEVNULL, cwd=tmp_path)
        assert got.returncode in (2, 126, 127) or name == "sh"  # dash reads a directory as empty
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)


def test_stdin_mode_reads_commands_as_the_real_shell_does(env, tmp_path):
    """A gated shell (session/): bash reads its input a byte at a time, so the script's own `read` takes the
    line after it; dash reads a block ahead, so its `read` finds nothing. The gate reads as each does."""
    text = b'echo "from stdin $0 $1"\nread -r next || echo "no more input"\necho "next=${next:-}"\n'
    for name, said in (("bash", ""), ("sh", "no more input\nnext=\n")):
        shim = str(make_shim(tmp_path / "shims", name))
        got = subprocess.run([shim, "-s", "arg1"], capture_output=True, env=env, input=text)
        want = real(name, shim, ["-s", "arg1"], env=env, input=text)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
        assert got.stdout == f"from stdin {shim} arg1\n{said}".encode()


# ---------------------------------------------------------------- shims on PATH, nesting, refusals


def test_shims_first_on_path_nest_without_looping(tmp_path, env):
    for make in (make_driver_shim, make_shim):
        shims = tmp_path / make.__name__
        for name in ("bash", "sh", "zsh"):
            make(shims, name)
        nested_env = {**env, "PATH": f"{shims}:/usr/bin:/bin", "SHELL": str(shims / "bash")}
        got = subprocess.run(["bash", "-c", "bash -c 'echo deep; echo $WISP_DEPTH'"], capture_output=True,
                             env=nested_env, stdin=subprocess.DEVNULL, timeout=120)
        assert (got.returncode, got.stdout, got.stderr) == (0, b"deep\n2\n", b"")


def test_past_the_depth_limit_the_refusal_is_clean(tmp_path, env):
    shim = make_shim(tmp_path / "shims", "bash")  # the depth guard comes before the gate
    got = subprocess.run([str(shim), "-c", "echo never"], capture_output=True, text=True,
                         env={**env, realshell.DEPTH_VARIABLE: str(realshell.MAX_DEPTH)}, stdin=subprocess.DEVNULL)
    assert got.returncode == 126 and got.stdout == ""
    assert got.stderr.startswith("wispsh: not run: shells nested") and got.stderr.count("\n") == 1


def test_no_real_shell_found(tmp_path, env):
    shim = make_shim(tmp_path / "shims", "zsh")
    got = subprocess.run([str(shim), "-c", "echo never"], capture_output=True, text=True,
                         env={**env, "PATH": f"{tmp_path / 'shims'}:{tmp_path / 'empty'}"},
                         stdin=subprocess.DEVNULL)
    assert got.returncode == 126 and got.stdout == "" and got.stderr.count("\n") == 1
    assert "looked for zsh" in got.stderr and "shell.zsh" in got.stderr


def test_broken_config_refuses_naming_the_file(tmp_path, env):
    config = Path(env["WISP_HOME"]) / "config.json"
    config.write_text("{not json")
    config.chmod(0o600)
    got = subprocess.run([str(WISPSH), "-c", "echo never"], capture_output=True, text=True, env=env,
                         stdin=subprocess.DEVNULL)
    assert got.returncode == 126 and got.stdout == "" and got.stderr.count("\n") == 1
    assert str(config) in got.stderr and "invalid JSON" in got.stderr


def test_version_is_one_line_and_nothing_else(env):
    got = subprocess.run([str(WISPSH), "--version", "-c", "echo never"], capture_output=True, text=True,
                         env=env, stdin=subprocess.DEVNULL)
    assert (got.returncode, got.stderr) == (0, "")
    assert got.stdout.startswith("wispsh ") and got.stdout.count("\n") == 1


def test_usage_error_exits_2(env):
    got = subprocess.run([str(WISPSH), "--json", "-c", "ls"], capture_output=True, text=True, env=env,
                         stdin=subprocess.DEVNULL)
    assert got.returncode == 2 and got.stderr.startswith("wispsh:")


def test_interactive_on_a_terminal_is_the_real_shell_beneath_its_gate(tmp_path, env):
    """A gated shell (session/): the process the caller started stays as the gate, the real bash is its child."""
    shim = make_shim(tmp_path / "shims", "bash")
    child = pexpect.spawn(str(shim), ["--norc", "--noprofile"], env={**env, "PS1": "ready$ "},
                          timeout=60, encoding="utf-8")
    try:
        child.expect_exact("ready$ ")
        child.sendline("echo ppid=$PPID depth=$WISP_DEPTH")
        child.expect(r"ppid=(\d+) depth=(\d+)")
        assert int(child.match.group(1)) == child.pid and child.match.group(2) == "1"
        child.sendline("exit 5")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 5


def test_a_script_named_without_a_slash_is_found_where_the_real_shell_finds_it(way, env, tmp_path):
    """bash looks a missing slash-less script up on PATH (dash does not): wispsh reads that same file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "onpath.sh").write_text('echo "ran $0 $1"\n')  # not executable: bash sources it anyway
    work = tmp_path / "work"
    work.mkdir()
    path_env = {**env, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    for name in ("bash", "sh"):
        argv0, got = way(name, ["onpath.sh", "x"], env=path_env, stdin=subprocess.DEVNULL, cwd=work)
        want = real(name, argv0, ["onpath.sh", "x"], env=path_env, stdin=subprocess.DEVNULL, cwd=work)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert want.returncode != 0 and got.stdout == b""  # sh: not found
