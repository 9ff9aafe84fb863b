"""Faults, broken on purpose (issue 17): no traceback ever, no lost grant, a failed audit is visible, a user's
deny pattern cannot hang the gate, every output is valid UTF-8, an oversized text is refused before parsing.

Real processes, real files and locks. A full disk is a real tmpfs of a few KiB (needs root: CI is root; the
skip says so elsewhere) and, everywhere, RLIMIT_FSIZE (writes past the limit fail with EFBIG).
"""
from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiers import scaled
from wispsh.config import Config, ConfigError, load_config, parse_config
from wispsh.decide import audit, lock, store
from wispsh.model import Level

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"
WISP, WISPSH = str(BIN / "wisp"), str(BIN / "wispsh")


class Box:
    """A wisp home, a runtime dir and a project of their own; commands run detached (no terminal)."""

    def __init__(self, tmp: Path, home: Path | None = None):
        self.tmp = tmp
        self.home = home or tmp / "home"
        self.home.mkdir(mode=0o700, exist_ok=True)
        self.project = tmp / "proj"
        (self.project / ".git").mkdir(parents=True, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("WISP_", "PYTEST_"))}
        self.env.update(WISP_HOME=str(self.home), XDG_RUNTIME_DIR=str(tmp / "run"), WISP_SESSION="faults",
                        PATH=f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}")

    def run(self, *argv: str, env: dict | None = None, fsize: int | None = None, stdin=subprocess.DEVNULL,
            timeout: float = 60) -> subprocess.CompletedProcess:
        def limit():
            if fsize is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)        # a write past the limit fails, EFBIG
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

        return subprocess.run(list(argv), env=env or self.env, cwd=self.project, capture_output=True,
                              stdin=stdin, timeout=timeout, start_new_session=True, preexec_fn=limit)

    def config(self, data: dict) -> None:
        path = self.home / "config.json"
        path.write_text(json.dumps(data))
        path.chmod(0o600)


def one_plain_line(done: subprocess.CompletedProcess) -> str:
    """stderr is one message, no traceback, valid UTF-8: one line, or one wrapped to 80 columns (its later rows
    indented); returned as one line."""
    err = done.stderr.decode("utf-8")
    rows = err.rstrip("\n").split("\n")
    assert "Traceback" not in err and err.endswith("\n") and rows[0].startswith(("wisp", "bash", "sh")), err
    assert all(row.startswith("  ") for row in rows[1:]), err
    assert all(len(row) <= 80 or " " not in row.strip() for row in rows) or len(rows) == 1, err
    return " ".join(row.strip() for row in rows) + "\n"


@pytest.fixture
def box(tmp_path):
    return Box(tmp_path)


@pytest.fixture
def full_home(tmp_path):
    """A wisp home on a tmpfs of 256 KiB, filled to the last block once the test has set it up."""
    if os.geteuid() != 0:
        pytest.skip("machine lacks root (mounting a small tmpfs needs it)")
    where = tmp_path / "full"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=700", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"machine lacks root (mount refused: {done.stderr.strip()})")

    def fill():
        try:
            with open(where / "filler", "wb") as fh:
                while True:
                    fh.write(b"x" * 512)
                    fh.flush()
        except OSError:                          # full (or already full)
            pass

    try:
        yield where, fill
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


# ---------------------------------------------------------------- no traceback, ever


def test_revoke_waits_out_a_held_lock_and_a_stuck_one_is_one_plain_error(box, monkeypatch):
    made = store.grant(box.home, pattern="make *", scope="always", level=Level.MODERATE, source="t",
                       cwd=str(box.project), env=box.env)
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR); "
                               "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(1.5)",
                               str(box.home / lock.LOCK_NAME)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        done = box.run(WISP, "approvals", "revoke", made.id[:6])          # waits as long as the work needs
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert done.stdout.decode().startswith(f"revoked {made.id}")
    finally:
        holder.wait()
    stuck = subprocess.Popen([sys.executable, "-c", "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR); "
                              "fcntl.flock(fd, fcntl.LOCK_EX); os.pwrite(fd, b'%d' % os.getpid(), 0); "
                              "print('held', flush=True); time.sleep(60)", str(box.home / lock.LOCK_NAME)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert stuck.stdout.readline().strip() == "held"
        monkeypatch.setattr(lock, "HOLDER_SECONDS", 0.3)
        with pytest.raises(store.StoreError) as err:
            store.revoke(box.home, "nothing-here")
            store.clear(box.home)
        assert f"held by pid {stuck.pid}" in str(err.value) and "end that process" in str(err.value)
    finally:
        stuck.kill()
        stuck.wait()


def test_revoke_and_clear_on_a_full_disk(tmp_path, full_home):
    where, fill = full_home
    b = Box(tmp_path, home=where / "home")
    ids = [json.loads(b.run(WISP, "approvals", "add", f"tool{i} *", "--json").stdout)["added"]["id"] for i in range(3)]
    fill()
    for argv in (["approvals", "revoke", ids[0]], ["approvals", "clear", "--yes"],
                 ["approvals", "add", "more *"]):
        done = b.run(WISP, *argv)
        err = one_plain_line(done)
        assert done.returncode == 1 and err.startswith("wisp: cannot write ") and "No space left" in err
        assert "free space" in err
    assert [a.id for a in store.read_persisted(b.home).approvals] == ids      # nothing lost, nothing half-written
    doctor = json.loads(b.run(WISP, "doctor", "--json").stdout)
    audit_check = next(c for c in doctor["checks"] if c["what"] == "audit")
    assert audit_check["status"] == "fail" and "full" in audit_check["detail"] and not doctor["ok"]


@pytest.mark.parametrize("spoil", ["approvals-dir", "approvals-fifo", "approvals-huge", "home-file", "home-under-file",
                                   "audit-dir", "config-dir", "relative-home", "corrupt-config", "corrupt-approvals"])
def test_broken_homes_give_one_plain_line_never_a_traceback(tmp_path, spoil):
    b = Box(tmp_path)
    env = dict(b.env)
    if spoil == "approvals-dir":
        (b.home / "approvals.json").mkdir()
    elif spoil == "approvals-fifo":
        os.mkfifo(b.home / "approvals.json", 0o600)
    elif spoil == "approvals-huge":
        with open(b.home / "approvals.json", "wb") as fh:
            fh.truncate(store.MAX_STORE_BYTES + 1)
        os.chmod(b.home / "approvals.json", 0o600)
    elif spoil == "home-file":
        b.home.rmdir()
        b.home.write_text("not a directory")
    elif spoil == "home-under-file":
        (tmp_path / "file").write_text("x")
        env["WISP_HOME"] = str(tmp_path / "file" / "home")
    elif spoil == "audit-dir":
        (b.home / "audit.jsonl").mkdir()
    elif spoil == "config-dir":
        (b.home / "config.json").mkdir()
    elif spoil == "relative-home":
        env["WISP_HOME"] = "rel/home"
    elif spoil == "corrupt-config":
        b.config({})
        (b.home / "config.json").write_text("{nope")
    elif spoil == "corrupt-approvals":
        (b.home / "approvals.json").write_text("{nope")
        os.chmod(b.home / "approvals.json", 0o600)
    commands = [[WISP, "approvals", "list"], [WISP, "approvals", "--json"], [WISP, "approvals", "add", "x *"],
                [WISP, "approvals", "revoke", "abc"], [WISP, "approvals", "clear", "--yes"], [WISP, "audit"],
                [WISP, "audit", "--json"], [WISP, "doctor"], [WISP, "doctor", "--json"], [WISP, "explain", "ls"],
                [WISP, "shims", "list", "--json"], [WISPSH, "-c", "echo ran"],
                [WISPSH, "--yes", "-c", "rm -rf nothing"],
                [WISPSH, "--explain", "--json", "-c", "ls"]]
    for argv in commands:
        done = b.run(*argv, env=env)
        err = done.stderr.decode("utf-8")
        out = done.stdout.decode("utf-8")                                  # valid UTF-8, or this raises
        assert "Traceback" not in err + out, (argv, err)
        assert done.returncode in (0, 1, 2, 3, 126), (argv, done.returncode, err)
        assert all(len(row.replace(str(tmp_path), "T")) < 300 for row in err.splitlines()), (argv, err)  # one plain line, not a dump
        if argv[1:3] == ["doctor", "--json"]:
            report = json.loads(out)
            if spoil != "corrupt-approvals":            # (the `add` above set that one aside: mended)
                assert not report["ok"], (spoil, report)                   # the gate refuses or ignores: FAIL
                assert any(c["status"] == "fail" and c["fix"] for c in report["checks"]), report
        if argv[0] == WISPSH and argv[1] == "-c" and spoil in ("home-file", "home-under-file", "relative-home",
                                                               "config-dir", "corrupt-config"):
            assert done.returncode == 126 and err.startswith("wispsh: not run: config error"), err


def test_doctor_advice_fixes_what_it_names(tmp_path):
    """Each FAIL's fix, run as written, makes that FAIL go (the corrupt store, the open mode, a symlinked home)."""
    b = Box(tmp_path)
    (b.home / "approvals.json").write_text("{nope")
    (b.home / "approvals.json").chmod(0o600)
    (b.home / "config.json").write_text("{}")
    (b.home / "config.json").chmod(0o666)

    def fails():
        return [c for c in json.loads(b.run(WISP, "doctor", "--json").stdout)["checks"] if c["status"] == "fail"]

    found = fails()
    assert {("corrupt" in c["detail"] or "writable by group" in c["detail"]) for c in found} == {True}
    for check in found:
        fix = check["fix"]
        command = fix[fix.index("(mv "):].strip("()") if "(mv " in fix else fix
        assert command.startswith(("chmod ", "mv ")), fix
        subprocess.run(command, shell=True, check=True, cwd=b.project)
    assert fails() == []
    real = tmp_path / "real-home"
    os.rename(b.home, real)
    b.home.symlink_to(real)
    home_check = next(c for c in json.loads(b.run(WISP, "doctor", "--json").stdout)["checks"]
                      if c["what"] == "wisp home")
    assert home_check["status"] == "ok" and f"a link to {real}" in home_check["detail"]   # not "chmod 700"
    real.chmod(0o755)
    home_check = next(c for c in json.loads(b.run(WISP, "doctor", "--json").stdout)["checks"]
                      if c["what"] == "wisp home")
    assert home_check["fix"] == f"chmod 700 {real}"


# ---------------------------------------------------------------- concurrent writers lose nothing

_WORKER = """
import json, os, sys
from pathlib import Path
from wispsh.decide import store
from wispsh.model import Level
home, kind, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
if kind == "add":
    made, _ = store.add(home, pattern=what, scope="always", level=Level.MODERATE, directory=None, source="t",
                        persist_days=30)
    print(made.id)
else:
    print(store.revoke(home, what))
"""


def test_concurrent_adds_with_revokes_all_succeed(box):
    adds, revokes = scaled(80, 200), scaled(20, 50)      # the long stage: 200 and 50 at once
    first = [store.add(box.home, pattern=f"old{i} *", scope="always", level=Level.MODERATE, directory=None,
                       source="t", persist_days=30)[0].id for i in range(revokes)]
    script = box.tmp / "worker.py"
    script.write_text(_WORKER)
    env = {**box.env, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, str(script), str(box.home), "add", f"new{i} *"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(adds)]
    procs += [subprocess.Popen([sys.executable, str(script), str(box.home), "revoke", ident], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for ident in first]
    outs = [(p.wait(timeout=240), *p.communicate()) for p in procs]
    assert [o for o in outs if o[0] != 0 or o[2]] == []                         # every one succeeded
    assert all(o[1].strip() == "True" for o in outs[adds:])                     # every revoke found its entry
    stored = store.read_persisted(box.home).approvals
    assert sorted(a.pattern for a in stored) == sorted(f"new{i} *" for i in range(adds))
    assert {a.id for a in stored} == {o[1].strip() for o in outs[:adds]}        # nothing reported done was lost
    # and through the CLI (a smaller sample: each is a process start): no traceback, nothing lost
    cli = [subprocess.Popen([WISP, "approvals", "add", f"cli{i} *", "--scope", "always"], env=box.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=box.project) for i in range(16)]
    cli += [subprocess.Popen([WISP, "approvals", "revoke", a.id], env=box.env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=box.project) for a in stored[:8]]
    assert [p.wait(timeout=120) for p in cli] == [0] * 24
    assert len(store.read_persisted(box.home).approvals) == adds - 8 + 16


# ---------------------------------------------------------------- a failed audit is visible


def test_a_failed_audit_write_warns_and_audit_required_refuses_risky_lines(box):
    (box.project / "build").mkdir()
    audit.append(box.home, [audit.event("test", command="x" * 2000)])
    size = (box.home / "audit.jsonl").stat().st_size
    ok = box.run(WISPSH, "-c", "echo ran", fsize=size + 50)             # the events of this line do not fit
    assert ok.returncode == 0 and ok.stdout == b"ran\n"
    warned = one_plain_line(ok)
    assert warned.startswith("wispsh: warning: audit not written: cannot write ") and "runs unaudited" in warned
    lines = (box.home / "audit.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(json.loads(row) for row in lines[:-1])    # cut back: no torn event
    assert (box.home / "audit.jsonl").stat().st_size == size
    box.config({"audit": {"required": True}})
    refused = box.run(WISPSH, "--yes", "-c", "rm -rf build", fsize=size + 50)
    err = one_plain_line(refused)
    assert refused.returncode == 126 and "audit.required" in err and (box.project / "build").is_dir()
    assert store.read_persisted(box.home).approvals == ()
    quiet = box.run(WISPSH, "-c", "echo ran", fsize=size + 50)           # below the threshold: runs, says so
    assert quiet.returncode == 0 and b"audit not written" in quiet.stderr
    fine = box.run(WISPSH, "--yes", "-c", "rm -rf build")
    assert fine.returncode == 0 and fine.stderr == b"" and not (box.project / "build").exists()


def test_a_full_home_warns_for_the_line_and_an_answer_not_stored_says_so(tmp_path, full_home):
    where, fill = full_home
    b = Box(tmp_path, home=where / "home")
    from wispsh.decide import gate
    from wispsh.model import Answer, Judged, Key, Part, Split, Verdict

    part = Part(text="make all", span=(0, 8), argv=("make", "all"))
    judged = (Judged(part, Key("make", None, "make *", False), Verdict.of(Level.MODERATE, "t.rule", "builds")),)
    config = Config(path=b.home / "config.json")
    plan = gate.plan(Split("make all", (part,)), judged, Verdict(Level.SAFE), None, config, cwd=str(b.project),
                     env=b.env)
    for scope in ("always", "session"):                                 # the store, the grants key exist
        store.grant(b.home, pattern="keep *", scope=scope, level=Level.MODERATE, source="t", cwd=str(b.project),
                    env=b.env)
    fill()
    done = gate.settle(plan, [Answer(0, "a", "tty")], config=config, cwd=str(b.project), env=b.env, source="tty")
    assert done.run and done.audit_error and "No space left" in done.audit_error
    assert any(w.startswith("audit not written") for w in done.warnings)
    said = [w for w in done.warnings if w.startswith("your answer 'always'")]
    assert said and "remembered for this session only" in said[0]        # said, not "allowed everywhere"
    ran = b.run(WISPSH, "-c", "echo ran")
    assert ran.returncode == 0 and b"wispsh: warning: audit not written" in ran.stderr


# ---------------------------------------------------------------- a user's deny pattern cannot hang the gate


def test_a_backtracking_deny_pattern_answers_at_once(box):
    from wispsh.parse import split
    from wispsh.pipeline import judge
    from wispsh.policy import deny

    box.config({"deny": ["(a+)+$", "(x|xx)+y$"]})
    config = load_config(box.home)
    line = "echo " + "a" * 30 + "!"
    started = time.perf_counter()
    plan = judge(line, config, str(box.project), box.env)
    assert plan.denied_by is None and time.perf_counter() - started < 1.0
    assert deny.check(split.split_line("echo " + "x" * 5000 + "z"), (), config) is None
    done = box.run(WISPSH, "-c", line, timeout=10)                    # backtracking would take minutes
    assert done.returncode == 0 and done.stdout.decode() == line[5:] + "\n"
    hit = box.run(WISPSH, "-c", "echo aaaa", timeout=10)
    assert hit.returncode == 126 and "'(a+)+$'" in hit.stderr.decode()
    box.config({"deny": ["(a)\\1", "(?=x)"]})
    with pytest.raises(ConfigError, match="does not compile"):
        deny.compile_patterns(load_config(box.home))
    refused = box.run(WISPSH, "-c", "echo hi")
    assert refused.returncode == 126 and "RE2 syntax" in one_plain_line(refused)
    report = json.loads(box.run(WISP, "doctor", "--json").stdout)
    check = next(c for c in report["checks"] if c["what"] == "deny patterns")
    assert check["status"] == "fail" and "does not compile" in check["detail"] and check["fix"]


def test_no_user_pattern_no_re2_import():
    done = subprocess.run([sys.executable, "-c", "import sys; from wispsh.policy import deny; from wispsh.config "
                           "import Config; from wispsh.parse import split; from pathlib import Path; "
                           "deny.check(split.split_line('ls'), (), Config(path=Path('/x/c.json'))); "
                           "print('re2' in sys.modules)"], capture_output=True, text=True, cwd=REPO)
    assert done.stdout.strip() == "False", done.stderr


# ---------------------------------------------------------------- the size limit, the wisp home, the runtime dir


def test_an_oversized_text_is_refused_before_parsing(box):
    big = box.tmp / "big.sh"
    with open(big, "wb") as fh:
        fh.write(b"echo " + b"a" * (10 * 1024 * 1024) + b"\n")
    started = time.perf_counter()
    for argv in ([WISPSH, str(big)], [WISPSH, "--explain", str(big)]):
        done = box.run(*argv, timeout=20)
        assert done.returncode in (126, 3) and "the most wispsh checks" in one_plain_line(done)
    with open(big, "rb") as fh:
        done = box.run(WISPSH, "-s", stdin=fh, timeout=20)
    assert done.returncode == 126 and "the most wispsh checks" in one_plain_line(done)
    assert time.perf_counter() - started < 20           # judged, it would take far longer (a hang guard)
    from wispsh import flow

    assert flow.too_big("x" * (flow.MAX_TEXT + 1)) and flow.too_big("x" * flow.MAX_TEXT) is None


def test_a_relative_wisp_home_is_an_error(box):
    env = {**box.env, "WISP_HOME": "relative/home"}
    done = box.run(WISPSH, "-c", "echo ran", env=env)
    assert done.returncode == 126 and "is not an absolute path" in one_plain_line(done)
    assert not (box.project / "relative").exists()
    listed = box.run(WISP, "approvals", env=env)
    assert listed.returncode == 1 and "not an absolute path" in one_plain_line(listed)


def test_the_runtime_dir_fallback_is_private_and_checked(tmp_path, monkeypatch):
    from wispsh import config

    monkeypatch.setattr(config, "FALLBACK_BASE", str(tmp_path))
    monkeypatch.setattr(config, "RUN_USER_BASE", str(tmp_path / "no-run-user"))
    env = {"PATH": "/usr/bin:/bin"}
    where = config.runtime_dir(env)
    assert where == tmp_path / f"runtime-{os.getuid()}" / config.runtime_name(env)     # the user's, this home's
    where.parent.mkdir(mode=0o755)                       # made open by something else of the user's
    os.chmod(where.parent, 0o755)
    assert config.private_runtime_dir(env, create=True) == where
    assert stat.S_IMODE(os.stat(where.parent).st_mode) == 0o700 and stat.S_IMODE(os.stat(where).st_mode) == 0o700
    if os.geteuid() == 0:                                # someone else's: refused, never used
        os.chown(where.parent, 65534, 65534)
        with pytest.raises(OSError, match="owned by uid 65534"):
            config.private_runtime_dir(env, create=True)
        assert any("owned by uid 65534" in p for p in store.trust_problems(tmp_path / "home", env))


# ---------------------------------------------------------------- config: unknown keys and wrong types


@pytest.mark.parametrize("data, said", [
    ({"approval": {"treshold": "high"}}, "unknown key approval.treshold (did you mean approval.threshold?)"),
    ({"approval": {"threshold": 5}}, "approval.threshold must be one of safe, low, moderate, high, dangerous, not 5"),
    ({"approval": {"threshold": "extreme"}}, 'not "extreme"'),
    ({"aproval": {}}, "unknown key aproval (did you mean approval"),
    ({"deny": "rm"}, "deny must be a list of regular expressions"),
    ({"audit": {"required": "yes"}}, 'audit.required must be true or false, not "yes"'),
    ({"audit": {"maxBytes": 0}}, "audit.maxBytes must be a positive whole number"),
    ({"shell": {"bash": "bash"}}, "shell.bash must be an absolute path"),
    ({"shell": {"fish": "/usr/bin/fish"}}, "unknown key shell.fish"),
    ({"shell": {"known": "/opt/bash"}}, "shell.known must be a list of absolute paths"),
    ({"shell": {"known": ["bash"]}}, "shell.known must be a list of absolute paths"),
    ({"approval": {"waitSeconds": {"claude": "soon"}}}, "approval.waitSeconds must be a number of seconds"),
    ({"run": {"protect": "/etc"}}, "run.protect must be a list of paths"),
    ({"approval": []}, "approval must be an object"),
    ([], "the top level must be a JSON object"),
])
def test_config_mistakes_are_plain_errors(data, said):
    with pytest.raises(ConfigError) as err:
        parse_config(data, Path("/h/config.json"))
    assert str(err.value).startswith("/h/config.json: ") and said in str(err.value), str(err.value)


def test_every_known_key_is_accepted():
    config = parse_config({"approval": {"threshold": "high", "persistDays": 7, "promptSeconds": 60,
                                        "waitSeconds": {"default": 30, "claude": 90},
                                        "terminalPrograms": ["myterm"]},
                           "deny": ["curl .*evil"],
                           "shell": {"bash": "/bin/bash", "default": "/bin/sh", "known": ["/opt/x/bash"]},
                           "trustedSources": ["/x/*.sh"], "audit": {"maxBytes": 1000, "required": True},
                           "run": {"protect": ["~/.ssh"]}}, Path("/h/config.json"))
    assert (config.threshold, config.wait_seconds, config.wait_seconds_by_agent) == (Level.HIGH, 30.0,
                                                                                      {"default": 30.0, "claude": 90.0})
    assert config.audit_required and config.protect == ("~/.ssh",)
    # further real shells are known by path, never a shell the gate runs by name
    assert config.known_shells == ("/opt/x/bash",) and config.shells == {"bash": "/bin/bash", "default": "/bin/sh"}


def test_a_typo_in_config_refuses_and_doctor_fails_on_it(box):
    box.config({"approval": {"treshold": "high"}})
    done = box.run(WISPSH, "-c", "echo ran")
    assert done.returncode == 126 and "did you mean approval.threshold" in one_plain_line(done)
    report = json.loads(box.run(WISP, "doctor", "--json").stdout)
    check = next(c for c in report["checks"] if c["what"] == "config")
    assert check["status"] == "fail" and "treshold" in check["detail"]
