"""The compiled client (native/client.c) and the plain mode's warm judge (warm/): real processes, a real socket.

A judge is started by the first line, answers later lines, and signs them; a process that takes its socket
path cannot make the client run anything (no MAC, a wrong key, an old answer replayed); a judge killed while a
line waits for it: refused, nothing runs. The wire reader is fuzzed under ASan/UBSan (a seeded sample here;
.ci/run runs more)."""
from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wispsh.native import build

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="machine lacks a C compiler")


def _gcc_on_x86_64() -> bool:
    """Where wisp run's client is built without a libc: bare.h is x86-64 Linux's, BARE_FLAGS are GCC's."""
    import platform

    if platform.machine() != "x86_64" or sys.platform != "linux" or build.compiler() is None:
        return False
    version = subprocess.run([build.compiler(), "--version"], capture_output=True, text=True).stdout
    return "Free Software Foundation" in version


BARE_HERE = _gcc_on_x86_64()


@pytest.fixture(scope="module")
def client():
    return build.build()


@pytest.fixture
def box(tmp_path, client):
    home, run, bin_dir = tmp_path / "home", tmp_path / "run", tmp_path / "bin"
    for d in (home, run, bin_dir):
        d.mkdir(mode=0o700)
    wispsh = build.front(bin_dir)
    env = dict(os.environ, WISP_HOME=str(home), XDG_RUNTIME_DIR=str(run), WISP_JUDGE_IDLE="30")
    env.pop("WISP_NO_JUDGE", None)
    sock = run / "wisp" / "judge" / f"{build.judge_tag()}.sock"

    class Box:
        def __init__(self):
            self.env, self.wispsh, self.sock, self.tmp = env, str(wispsh), sock, tmp_path

        def run(self, line, **kw):
            kw.setdefault("stdin", subprocess.DEVNULL)     # (not the runner's: pytest-xdist's is its channel)
            return subprocess.run([self.wispsh, "-c", line], capture_output=True, text=True, env=self.env,
                                  cwd=tmp_path, timeout=60, **kw)

        def warm(self):
            """A first line (run by the Python gate) starts the judge; wait until it listens."""
            first = self.run("true")
            assert first.returncode == 0, first.stderr
            deadline = time.monotonic() + 30
            while not self.sock.exists():
                assert time.monotonic() < deadline, "the judge never listened"
                time.sleep(0.05)
            assert self.run("true").returncode == 0       # its imports, paid once

        def judge_pid(self):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if str(self.sock).encode() in cmdline and b"wispsh.warm.server" in cmdline:
                    return int(pid)
            return None

    made = Box()
    yield made
    pid = made.judge_pid()
    if pid:
        os.kill(pid, signal.SIGKILL)


def test_the_client_builds_with_warnings_as_errors(client):
    assert client == build.current()
    assert set(build.FLAGS) >= {"-std=c11", "-Wall", "-Wextra", "-Werror"}


def test_lines_through_the_warm_judge_run_and_refuse_as_the_gate_does(box):
    box.warm()
    assert box.judge_pid() is not None
    ran = box.run("echo hi; grep SigIgn /proc/self/status")
    assert ran.returncode == 0 and ran.stdout == "hi\nSigIgn:\t0000000000000000\n", ran.stderr
    denied = box.run("rm -rf /")
    assert denied.returncode == 126 and denied.stderr.startswith("wispsh: not run:")
    audit = (box.tmp / "home" / "audit.jsonl").read_text()
    assert '"command": "rm -rf /"' in audit
    status = box.run("exit 7")
    assert status.returncode == 7
    closed = subprocess.run(f"{box.wispsh} -c 'echo x' >&-", shell=True, capture_output=True, text=True,
                            env=box.env, timeout=60)
    assert closed.returncode == 1                                  # as bash: a write error, not 126
    ignored = subprocess.run(["bash", "-c", f"trap '' INT; {box.wispsh} -c 'grep SigIgn /proc/self/status'"],
                             capture_output=True, text=True, env=box.env, timeout=60)
    assert ignored.stdout == "SigIgn:\t0000000000000002\n"        # the caller's ignored SIGINT, kept


def test_a_line_that_needs_a_person_is_left_to_the_in_process_gate(box):
    box.warm()
    asked = box.run("git push --force", stdin=subprocess.DEVNULL)   # nobody to ask: refused by the gate itself
    assert asked.returncode == 126 and "not run" in asked.stderr
    assert box.judge_pid() is not None


def test_nested_shells_are_answered_by_the_judge(box):
    box.warm()
    shims = box.tmp / "shims"
    subprocess.run([str(Path(sys.executable).parent / "wisp"), "shims", "install", str(shims)], env=box.env,
                   check=True, capture_output=True)
    assert open(shims / "sh").readline() == f"#!{build.BINARY}\n"
    env = dict(box.env, PATH=f"{shims}:{box.env['PATH']}")
    done = subprocess.run([str(shims / "sh"), "-c", "sh -c 'echo nested; sh -c \"echo deeper\"'"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout == "nested\ndeeper\n", done.stderr
    audit = (box.tmp / "home" / "audit.jsonl").read_text()
    assert audit.count('"decision": "beneath-allowed"') == 2


def _fake_judge(path: Path, answer):
    """Whoever took the socket path: answers every request with `answer(request_fields)`, an fd on /bin/sh."""
    from wispsh.sandbox import client

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            body, _ = client.receive(conn, fds_wanted=0)
            fd = os.open("/bin/sh", os.O_RDONLY)
            message = client.pack(answer(client.unpack(body)))
            conn.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd.to_bytes(4, sys.byteorder))])
            os.close(fd)
            conn.close()

    import threading

    threading.Thread(target=serve, daemon=True).start()
    return listener


@pytest.mark.parametrize("forgery", ["unsigned", "wrong key", "replayed", "signed by the key"])
def test_a_process_that_took_the_socket_cannot_make_the_client_run_anything(box, forgery):
    from wispsh.warm.server import seal_for

    box.warm()
    os.kill(box.judge_pid(), signal.SIGKILL)
    os.unlink(box.sock)
    marker = box.tmp / "ran"
    run = [b"exec", b"/bin/sh", b"3", b"sh", b"-c", b"touch " + str(marker).encode(), b"0", b"-", b""]
    key = (box.tmp / "home" / "grants.key").read_bytes()

    def answer(request):
        if forgery == "unsigned":
            return run
        if forgery == "wrong key":
            return run + [seal_for(b"0" * 64, request[-1])(b"\0".join(run))]
        if forgery == "replayed":                  # a signature made for another request's nonce
            return run + [seal_for(key, b"a" * 64)(b"\0".join(run))]
        return run + [seal_for(key, request[-1])(b"\0".join(run))]

    listener = _fake_judge(box.sock, answer)
    try:
        done = box.run("echo the real line")
    finally:
        listener.close()
    if forgery == "signed by the key":             # the control: the format is right, only the MAC decides
        assert done.returncode == 0 and marker.exists()
        return
    assert done.returncode == 126 and done.stderr.startswith("wispsh: not run:"), done
    assert "signed" in done.stderr
    assert not marker.exists() and "the real line" not in done.stdout


def test_a_judge_killed_mid_line_leaves_nothing_run(box):
    box.warm()
    pid = box.judge_pid()
    marker = box.tmp / "ran"
    os.kill(pid, signal.SIGSTOP)                   # it takes the connection (the kernel's backlog), never answers
    try:
        line = subprocess.Popen([box.wispsh, "-c", f"touch {marker}"], env=box.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 10
        while not _connected(line.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert line.poll() is None
    finally:
        os.kill(pid, signal.SIGKILL)
    _out, err = line.communicate(timeout=30)
    assert line.returncode == 126 and err == "wispsh: not run: the warm judge went away before it answered; " \
                                             "nothing ran\n"
    assert not marker.exists()


def _connected(pid: int) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:") for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def test_without_a_judge_the_python_gate_runs_the_line(box, tmp_path):
    env = dict(box.env, WISP_NO_JUDGE="1")
    done = subprocess.run([box.wispsh, "-c", "echo plain; grep SigIgn /proc/self/status"], capture_output=True,
                          stdin=subprocess.DEVNULL,
                          text=True, env=env, timeout=60)
    assert done.stdout.startswith("plain\nSigIgn:")
    if importlib.util.find_spec("wispsh.support.inherited"):   # issue 26's record (WISP_CALLER) is read there
        assert done.stdout == "plain\nSigIgn:\t0000000000000000\n"
    assert not box.sock.exists()
    box.warm()
    os.kill(box.judge_pid(), signal.SIGKILL)
    os.chmod(box.tmp / "run" / "wisp", 0o755)      # a runtime dir others can enter: no judge there, none started
    done = box.run("echo open")
    time.sleep(0.5)
    assert done.stdout == "open\n" and box.judge_pid() is None


def test_the_wire_reader_under_asan_and_ubsan_survives_a_seeded_fuzz(tmp_path):
    fuzzer = build.build_fuzzer(tmp_path / "fuzz")
    done = subprocess.run([str(fuzzer), "29", os.environ.get("WISP_FUZZ_CASES", "20000")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    cases, read, shaped = (int(w) for w in done.stdout.split()[1::2])
    assert read > cases // 4 and shaped > 100      # the cases reach the reader's deep paths, not only its first check


def test_the_judge_it_starts_holds_none_of_the_callers_fds(box):
    """A harness that reads a line's output until EOF through a pipe the shell passed on (here fd 5, inheritable,
    as `cmd 5>&1` leaves it) must see EOF when the line ends, not when the judge started by it goes idle."""
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    try:
        done = subprocess.run([box.wispsh, "-c", "echo first"], capture_output=True, text=True, env=box.env,
                              stdin=subprocess.DEVNULL,
                              cwd=box.tmp, timeout=60, pass_fds=(write_end,))
    finally:
        os.close(write_end)
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + 30
    while box.judge_pid() is None:
        assert time.monotonic() < deadline, "no judge was started"
        time.sleep(0.05)
    pid = box.judge_pid()
    held = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    assert f"pipe:[{os.fstat(read_end).st_ino}]" not in held, held
    os.set_blocking(read_end, False)
    assert os.read(read_end, 1) == b""          # EOF: no writer is left
    os.close(read_end)


def test_wisp_runs_client_is_its_own_build_without_a_libc_where_it_can_and_serves_only_launchers(client):
    """wisp run's launchers name RUN_BINARY (WISP_RUN_ONLY): on x86-64 Linux built without a libc (bare.h: no
    libc start-up at each shell's start), else linked statically where a static libc exists (no loader), with no
    plain mode in it: started without --run it refuses, runs nothing."""
    run = build.current_run()
    assert run == build.RUN_BINARY and run != build.BINARY
    assert not build.is_static(build.BINARY) and not build.is_bare(build.BINARY)
    if BARE_HERE:
        assert build.is_bare(run) and build.is_static(run)
    else:
        static = subprocess.run([build.compiler(), "-static", "-x", "c", "-", "-o", os.devnull],
                                input="int main(void){return 0;}", capture_output=True, text=True).returncode == 0
        assert build.is_static(run) == static
    marker = Path(os.environ.get("TMPDIR", "/tmp")) / f"wisp-run-only-{os.getpid()}"
    done = subprocess.run([str(run), "/bin/sh", "-c", f"touch {marker}"], capture_output=True, text=True)
    assert done.returncode == 126 and done.stderr.startswith("wispsh: not run:") and not marker.exists()


@pytest.mark.skipif(not BARE_HERE, reason="machine lacks x86_64 (and GCC: the build without a libc is theirs)")
def test_the_libc_functions_of_the_bare_build_do_what_their_namesakes_do(tmp_path):
    """bare.h (wisp run's client without a libc): its snprintf, memory, string, environment, file, fd and signal
    functions checked in a program built with the same flags (tests/native/bare_check.c), run with SIGUSR1
    ignored and SIGUSR2 blocked, an environment holding one name twice, and a known directory."""
    source = Path(__file__).parent / "native" / "bare_check.c"
    out = tmp_path / "bare_check"
    done = subprocess.run([build.compiler(), *build.FLAGS, *build.BARE_FLAGS, f"-I{build.HERE}", "-o", str(out),
                           str(source)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert build.is_static(out)

    def caller_state():
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})

    cwd = tmp_path / "a dir"
    cwd.mkdir()
    env = ["BARE_TWICE=1", "BARE_KEEP=kept", "BARE_TWICE=2", "PATH=/usr/bin:/bin"]
    # execve by ctypes: os.execve's dict would keep one of the two same names; the kernel passes both on
    done = subprocess.run([sys.executable, "-c", (
        "import ctypes, os, sys; libc = ctypes.CDLL(None); argv = (ctypes.c_char_p * 3)(*map(os.fsencode, "
        "sys.argv[1:3]), None); env = (ctypes.c_char_p * (len(sys.argv) - 2))(*map(os.fsencode, sys.argv[3:]), "
        "None); libc.execve(argv[0], argv, env); sys.exit(127)"), str(out), str(cwd), *env],
        capture_output=True, text=True, cwd=cwd, preexec_fn=caller_state, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
