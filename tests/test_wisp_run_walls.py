"""The walls of `wisp run` (issue 23): what a program inside cannot do whatever program it is, because the kernel
refuses it. Real bwrap, real processes (python, node, git, tmux started outside by the test), a real `wisp watch`
on a pty. Each test is one `wisp run` doing many probes, to keep the unit suite's cost to seconds."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from run_support import PY, WISP, audit, needs_bwrap, needs_userns, person, spawn_watcher, wisp_run, write_config

pytestmark = [needs_bwrap, needs_userns]

PROBE = r"""
import json, os, socket, subprocess, sys
out = {}
def attempt(name, fn):
    try:
        got = fn()
        out[name] = "OK" if got is None else got
    except OSError as exc:
        out[name] = exc.strerror
    except subprocess.CalledProcessError as exc:
        out[name] = f"exit {exc.returncode}"
"""


def probe(env, cwd, code, *args, options=(), timeout=120):
    done = wisp_run(env, PROBE + textwrap.dedent(code) + "\nprint(json.dumps(out))\n", cwd, *args, options=options,
                    timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def project(tmp_path) -> Path:
    work = tmp_path / "home" / "src" / "app"
    work.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "main.py").write_text("print('hi')\n")
    return work


def test_writes_outside_the_project_fail_with_erofs_for_python_and_node_inside_they_work(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    outside = tmp_path / "home" / "important"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "keep").write_text("x")
    node = shutil.which("node")
    got, _ = probe(env, work, f"""
        outside = {str(outside)!r}
        attempt("rm -rf (python subprocess)", lambda: subprocess.run(["rm", "-rf", outside], check=True,
                                                                     capture_output=True))
        attempt("unlink", lambda: os.unlink(outside + "/sub/keep"))
        attempt("write outside", lambda: open(outside + "/new", "w").write("x") and None)
        attempt("write home", lambda: open(os.path.expanduser("~/planted"), "w").write("x") and None)
        attempt("write /etc", lambda: open("/etc/planted", "w").write("x") and None)
        attempt("write /usr/local/bin", lambda: open("/usr/local/bin/git", "w").write("x") and None)
        attempt("write project", lambda: open("new.py", "w").write("x") and None)
        attempt("write /tmp", lambda: open("/tmp/scratch", "w").write("x") and None)
        attempt("write cache", lambda: os.makedirs(os.path.expanduser("~/.cache/pip/x"), exist_ok=True))
        attempt("sysctl", lambda: open("/proc/sys/kernel/core_pattern", "w").write("core") and None)
        node = {node!r}
        if node:
            for name, js in (("node writeFileSync", "require('fs').writeFileSync(process.argv[1] + '/n', 'x')"),
                             ("node execFile rm", "require('child_process').execFileSync('rm', ['-rf', process.argv[1]], {{stdio: 'pipe'}})"),
                             ("node rmSync", "require('fs').rmSync(process.argv[1], {{recursive: true}})")):
                r = subprocess.run([node, "-e", js, outside], capture_output=True, text=True)
                out[name] = "EROFS" if "EROFS" in r.stderr or "Read-only" in r.stderr else r.stderr[-200:] or r.returncode
    """)
    erofs = "Read-only file system"
    for name in ("rm -rf (python subprocess)",):
        assert got[name] == "exit 1", got
    for name in ("unlink", "write outside", "write home", "write /etc", "write /usr/local/bin", "sysctl"):
        assert got[name] == erofs, (name, got)
    if node:
        assert got["node writeFileSync"] == got["node execFile rm"] == got["node rmSync"] == "EROFS", got
    assert got["write project"] == got["write /tmp"] == got["write cache"] == "OK", got
    assert (outside / "sub" / "keep").read_text() == "x" and not (outside / "new").exists()
    assert (work / "new.py").exists() and not (Path("/tmp") / "scratch").exists()     # /tmp inside was private
    assert not (tmp_path / "home" / "planted").exists()


def test_secret_stores_are_empty_inside_whatever_reads_them(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    home = Path(env["HOME"])
    (home / ".ssh").mkdir(mode=0o700)
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    (home / ".ssh" / "known_hosts").write_text("github.com ssh-ed25519 AAAA\n")
    (home / ".ssh" / "id_ed25519.pub").write_text("ssh-ed25519 AAAA me\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = SECRET\n")
    (home / ".netrc").write_text("machine example.com login me password SECRET\n")
    (home / ".npmrc").write_text("registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=SECRET\n")
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".config" / "gh" / "hosts.yml").write_text("github.com:\n  oauth_token: SECRET\n")
    got, _ = probe(env, work, """
        home = os.path.expanduser("~")
        for rel in (".ssh/id_ed25519", ".aws/credentials", ".netrc", ".npmrc", ".config/gh/hosts.yml",
                    ".ssh/known_hosts", ".ssh/id_ed25519.pub"):
            attempt("read " + rel, lambda: open(os.path.join(home, rel)).read())
        attempt("list .ssh", lambda: sorted(os.listdir(home + "/.ssh")))
        attempt("cat (a program)", lambda: subprocess.run(["cat", home + "/.aws/credentials"], capture_output=True,
                                                          text=True).stdout + "|")
        attempt("rewrite credentials", lambda: open(home + "/.aws/credentials", "w").write("x") and None)
    """)
    for rel in (".ssh/id_ed25519", ".aws/credentials", ".config/gh/hosts.yml"):
        assert got["read " + rel] in ("No such file or directory", ""), (rel, got)
    assert got["read .netrc"] == "" and got["cat (a program)"] == "|"
    assert "SECRET" not in json.dumps(got)
    assert "registry=https://registry.npmjs.org/" in got["read .npmrc"]       # the rest of .npmrc still works
    assert got["list .ssh"] == ["id_ed25519.pub", "known_hosts"]
    assert got["read .ssh/known_hosts"].startswith("github.com")
    assert got["rewrite credentials"] in ("Read-only file system", "No such file or directory")
    assert (home / ".aws" / "credentials").read_text().endswith("SECRET\n")


def test_steering_files_are_read_only_to_programs_and_an_approved_line_writes_them(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    for rel, text in ((".vscode/tasks.json", "{}\n"), (".mcp.json", "{}\n"), (".envrc", "# mine\n")):
        (work / rel).parent.mkdir(exist_ok=True)
        (work / rel).write_text(text)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    write_config(env, {"approval": {"threshold": "high"}})      # moderate lines (git config) run unasked
    watcher = spawn_watcher(env)
    try:
        agent = subprocess.Popen([WISP, "run", "--", PY, "-c", PROBE + textwrap.dedent("""
            for rel in (".git/config", ".git/hooks/pre-commit", ".vscode/tasks.json", ".mcp.json", ".envrc"):
                attempt("python " + rel, lambda: open(rel, "a").write("planted") and None)
            attempt("replace .git/config", lambda: (open(".git/x", "w").write("x"), os.replace(".git/x", ".git/config")))
            attempt("git config (a program)", lambda: subprocess.run(["/usr/bin/git", "config", "core.fsmonitor", "x"],
                                                                     check=True, capture_output=True))
            open(".claude-settings", "w").close()
            os.makedirs(".claude", exist_ok=True)
            attempt("make .claude/settings.json", lambda: open(".claude/settings.json", "w").write("{}") and None)
            import time; time.sleep(2.5)            # the sentry's second
            attempt("still there", lambda: os.path.exists(".claude/settings.json"))
            attempt("shell git config", lambda: subprocess.run("git config user.name wisp-test", shell=True).returncode)
            attempt("shell git remote", lambda: subprocess.run("git remote add origin https://example.com/x.git",
                                                               shell=True).returncode)
            attempt("shell .envrc", lambda: subprocess.run("echo 'export A=1' > .envrc && echo '{}' > "
                                                           ".claude/settings.local.json", shell=True).returncode)
            attempt("after: python .envrc", lambda: open(".envrc", "a").write("planted") and None)
            attempt("after: python new settings", lambda: open(".claude/settings.local.json", "a").write("x") and None)
            print(json.dumps(out))
        """)], cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        watcher.expect_exact("] no", timeout=60)
        assert ".envrc" in watcher.before
        watcher.send("y\r")
        out, err = agent.communicate(timeout=120)
    finally:
        watcher.close(force=True)
    got = json.loads(out.strip().splitlines()[-1])
    for rel in (".git/config", ".git/hooks/pre-commit", ".vscode/tasks.json", ".mcp.json", ".envrc"):
        assert got["python " + rel] == "Read-only file system", (rel, got, err)
    assert got["replace .git/config"] == "Device or resource busy"
    assert got["git config (a program)"] in ("exit 4", "exit 255")       # could not lock or write the file
    assert got["still there"] is False                       # made by a program: moved out of the project
    assert "was made by a program inside" in err and ".claude/settings.json" in err
    assert got["shell git config"] == got["shell git remote"] == got["shell .envrc"] == 0, (got, err)
    assert got["after: python .envrc"] == got["after: python new settings"] == "Read-only file system", got
    config = subprocess.run(git + ["config", "--list", "--local"], capture_output=True, text=True).stdout
    assert "user.name=wisp-test" in config and "remote.origin.url=https://example.com/x.git" in config
    assert "fsmonitor" not in config and "planted" not in (work / ".git" / "config").read_text()
    assert (work / ".envrc").read_text() == "export A=1\n"
    assert not (work / ".git" / "hooks" / "pre-commit").exists() and not (work / ".claude" / "settings.json").exists()
    assert (work / ".claude" / "settings.local.json").read_text() == "{}\n"     # made by the approved line, kept
    held = list((Path(env["WISP_HOME"]) / "held").rglob("settings.json"))
    assert len(held) == 1 and held[0].read_text() == "{}"


def test_a_tmux_server_and_other_host_sockets_are_unreachable(tmp_path):
    if not shutil.which("tmux"):
        pytest.skip("machine lacks tmux")
    env = person(tmp_path)
    work = project(tmp_path)
    sock = Path(env["HOME"]) / "tmux.sock"            # visible inside (the home is): its socket must not be
    tmux = ["tmux", "-S", str(sock)]
    subprocess.run(tmux + ["new-session", "-d", "-s", "host", "sleep 300"], check=True, env=env)
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    name = f"\0wisp-test-{os.getpid()}-{os.urandom(3).hex()}"
    abstract.bind(name)
    abstract.listen(1)
    pwned = tmp_path / "home" / "pwned"
    try:
        from wispsh.sandbox import landlock

        got, _ = probe(env, work, f"""
            attempt("tmux display #()", lambda: subprocess.run(["tmux", "-S", {str(sock)!r}, "display", "-p",
                                                                "#(touch {pwned})"], capture_output=True).returncode)
            s = socket.socket(socket.AF_UNIX)
            attempt("connect tmux socket", lambda: s.connect({str(sock)!r}))
            a = socket.socket(socket.AF_UNIX)
            attempt("connect abstract", lambda: a.connect({name!r}))
            attempt("runtime dir", lambda: sorted(os.listdir(os.environ["XDG_RUNTIME_DIR"])))
        """)
        time.sleep(0.5)
        if landlock.can_scope():        # the host's network (no network namespace): Landlock's scope holds alone
            scoped, _ = probe(env, work, f"""
                a = socket.socket(socket.AF_UNIX)
                attempt("connect abstract", lambda: a.connect({name!r}))
            """, options=("--net=all",))
    finally:
        subprocess.run(tmux + ["kill-server"], env=env, capture_output=True)
        abstract.close()
    assert got["tmux display #()"] != 0 and not pwned.exists(), got
    assert got["connect tmux socket"] == "Connection refused", got
    # a network namespace of its own has its own abstract names: the host's are not there at all
    assert got["connect abstract"] == "Connection refused", got
    if landlock.can_scope():
        assert scoped["connect abstract"] == "Operation not permitted", scoped
    assert got["runtime dir"] in ([], ["wisp"]), got        # private: at most the run's own directory


def test_a_late_answer_for_an_asker_that_was_killed_stores_nothing(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    (work / "victim").mkdir()
    watcher = spawn_watcher(env)
    try:
        agent = subprocess.Popen([WISP, "run", "--", PY, "-c", textwrap.dedent("""
            import subprocess, sys, time
            p = subprocess.Popen(["sh", "-c", "rm -rf victim"])
            print(p.pid, flush=True)
            sys.stdin.readline()
            p.kill()
            p.wait()
            print("killed", flush=True)
            sys.stdin.readline()
            print(subprocess.run(["sh", "-c", "rm -rf victim"]).returncode, flush=True)
        """)], cwd=work, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        agent.stdout.readline()
        watcher.expect_exact("] no", timeout=60)
        agent.stdin.write("\n")
        agent.stdin.flush()
        assert agent.stdout.readline().strip() == "killed"
        watcher.expect_exact("withdrawn", timeout=30)
        watcher.send("a\r")                                   # the late answer: "always"
        time.sleep(0.5)
        agent.stdin.write("\n")
        agent.stdin.flush()
        watcher.expect_exact("] no", timeout=60)             # asked again: nothing was stored
        watcher.send("n\r")
        out, err = agent.communicate(timeout=60)
    finally:
        watcher.close(force=True)
    assert out.split()[-1] == "126", (out, err)
    assert (work / "victim").is_dir()
    listed = subprocess.run([WISP, "approvals", "list", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(listed.stdout)["approvals"] == []
    decided = [e.get("decision") for e in audit(env)
               if e.get("command") == "rm -rf victim" and e.get("event") == "approval.decided"]
    assert decided == ["denied-withdrawn", "denied-user"], decided
    assert not [e for e in audit(env) if e.get("event", "").startswith("grant")], audit(env)


def test_wisp_run_starts_with_xdg_config_home_set_and_its_directories_missing(tmp_path):
    env = person(tmp_path)
    env["XDG_CONFIG_HOME"] = str(Path(env["HOME"]) / ".config")
    work = project(tmp_path)
    for options in ((), ("--no-write-wall",)):
        done = wisp_run(env, "print('started')", work, options=options)
        assert done.returncode == 0 and done.stdout.strip() == "started", (options, done.stderr)
    assert not (Path(env["HOME"]) / ".config" / "git").exists()     # placeholders (without the wall) removed


def test_each_wall_can_be_turned_off_and_config_says_so(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    home = Path(env["HOME"])
    (home / ".netrc").write_text("machine x password SECRET\n")
    code = """
        attempt("write home", lambda: open(os.path.expanduser("~/new"), "w").write("x") and None)
        attempt("netrc", lambda: open(os.path.expanduser("~/.netrc")).read())
    """
    got, _ = probe(env, work, code, options=("--no-write-wall", "--no-secret-wall"))
    assert got == {"write home": "OK", "netrc": "machine x password SECRET\n"}
    write_config(env, {"run": {"writes": False, "allowRead": ["~/.netrc"]}})
    (home / "new").unlink()
    got, _ = probe(env, work, code)
    assert got == {"write home": "OK", "netrc": "machine x password SECRET\n"}
    write_config(env, {"run": {"net": "host"}})     # the walls' reserved string: run.net is a section now
    done = wisp_run(env, "print(1)", work)
    assert done.returncode == 1 and "run.net must be an object" in done.stderr, done.stderr


NESTED = r"""
import ctypes, json, os, subprocess
out = {}
libc = ctypes.CDLL(None, use_errno=True)
r = subprocess.run(["bwrap", "--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                    "--", "/usr/bin/id", "-u"], capture_output=True, text=True)
out["nested bwrap"] = r.returncode, r.stderr.strip()[-200:]
pid = os.fork()
if pid == 0:                                   # a nested user and mount namespace of its own, root in it
    uid = os.getuid()
    if libc.unshare(0x10000000 | 0x00020000) != 0:
        os.write(1, json.dumps({"unshare": os.strerror(ctypes.get_errno())}).encode()); os._exit(0)
    open("/proc/self/setgroups", "w").write("deny")
    open("/proc/self/uid_map", "w").write(f"0 {uid} 1")
    got = {}
    for name, target in (("home", os.environ["HOME"]), ("git config", os.getcwd() + "/.git/config"), ("root", "/")):
        got["remount rw " + name] = libc.mount(None, target.encode(), None, 32 | 4096, None), os.strerror(ctypes.get_errno())
        got["umount " + name] = libc.umount2(target.encode(), 2), os.strerror(ctypes.get_errno())
    for name, target in (("home", os.environ["HOME"] + "/planted"), ("git config", ".git/config")):
        try:
            open(target, "a").write("x")
            got["write " + name] = "WROTE"
        except OSError as exc:
            got["write " + name] = exc.strerror
    # a tmpfs of its own over the home is its own view only
    got["tmpfs over home"] = libc.mount(b"none", os.environ["HOME"].encode(), b"tmpfs", 0, None)
    try:
        open(os.environ["HOME"] + "/in-my-tmpfs", "w").write("x")      # (EOVERFLOW without a gid map)
    except OSError:
        pass
    os.write(1, json.dumps(got).encode()); os._exit(0)
os.waitpid(pid, 0)
print()
print(json.dumps(out))
"""


def test_nested_namespaces_start_inside_and_undo_no_wall(tmp_path):
    """As a user (not root: see walls.nesting_possible): bwrap inside works; a nested user namespace cannot
    remount, unmount or write what the walls made read-only, and what it mounts is its own view."""
    import pwd
    import tempfile

    from run_support import checkout_path, run_as, unprivileged_or_skip

    user, python = unprivileged_or_skip()
    entry = pwd.getpwnam(user)
    root = Path(tempfile.mkdtemp(prefix="wisp-nest-", dir="/tmp"))
    try:
        home, work = root / "home", root / "home" / "work"
        for d in (home, home / ".wisp", root / "rt", work):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(work)], check=True)
        (work / "agent.py").write_text(NESTED)
        for path in [root, *root.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"),
               "XDG_RUNTIME_DIR": str(root / "rt"), "PYTHONPATH": checkout_path(), "LANG": "C.UTF-8"}
        argv = [python, "-c", "from wispsh.cli.wisp import cli; cli()", "run", "--", python, "agent.py"]
        kw = dict(env=env, cwd=work, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        done = run_as(user, argv, **kw)
        assert done.returncode == 0, done.stderr
        assert len(done.stdout.strip().splitlines()) >= 2, (done.stdout, done.stderr)
        inner, outer = done.stdout.strip().splitlines()[-2:]
        got, nested = json.loads(outer), json.loads(inner)
        assert got["nested bwrap"] == [0, ""], got
        for name in ("home", "git config", "root"):
            assert nested["remount rw " + name][0] == -1 and nested["umount " + name][0] == -1, nested
        assert nested["write home"] == nested["write git config"] == "Read-only file system", nested
        assert nested["tmpfs over home"] == 0
        assert not (home / "planted").exists() and not (home / "in-my-tmpfs").exists()
        assert "x" not in (work / ".git" / "config").read_text().splitlines()[-1:]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_as_root_no_nested_namespace_gets_a_proc_of_its_own(tmp_path):
    if os.getuid() != 0:
        pytest.skip("machine lacks root (the root case)")
    env = person(tmp_path)
    work = project(tmp_path)
    got, _ = probe(env, work, """
        r = subprocess.run(["bwrap", "--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc",
                            "--", "/usr/bin/true"], capture_output=True, text=True)
        out["nested bwrap"] = r.returncode
        attempt("sysctl", lambda: open("/proc/sys/kernel/core_pattern", "w").write("core") and None)
    """)
    assert got == {"nested bwrap": 1, "sysctl": "Read-only file system"}, got


def test_doctor_reports_each_wall_on_off_or_not_possible(tmp_path):
    env = person(tmp_path)
    done = subprocess.run([WISP, "doctor"], env=env, capture_output=True, text=True, timeout=60)
    said = " ".join(done.stdout.split())
    for name in ("writes", "secrets", "sockets", "nesting", "network"):
        assert f"wall: {name}: " in said, (name, said[-2000:])
    assert "wall: writes: on:" in said
    assert ("wall: nesting: not possible here: as root" in said) == (os.getuid() == 0)
    write_config(env, {"run": {"writes": False, "sockets": False}})
    said = " ".join(subprocess.run([WISP, "doctor"], env=env, capture_output=True, text=True, timeout=60).stdout.split())
    assert "wall: writes: off (config run.writes is false)" in said and "wall: sockets: off" in said
    assert "wall: network: ask: a network of its own" in said and "the bridge works here" in said, said[-1500:]
    write_config(env, {"run": {"net": {"mode": "all"}}})
    said = " ".join(subprocess.run([WISP, "doctor"], env=env, capture_output=True, text=True, timeout=60).stdout.split())
    assert "wall: network: off (run.net.mode is \"all\")" in said, said[-1500:]


def test_the_ssh_agent_socket_is_passed_only_when_asked(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    agent_dir = tmp_path / "ssh-agent"            # in /tmp, as ssh-agent makes it: private inside unless passed
    agent_dir.mkdir(mode=0o700)
    path = str(agent_dir / "agent.1")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(4)
    env["SSH_AUTH_SOCK"] = path
    code = """
        s = socket.socket(socket.AF_UNIX)
        attempt("agent", lambda: s.connect(os.environ["SSH_AUTH_SOCK"]))
    """
    try:
        without, _ = probe(env, work, code)
        passed, _ = probe(env, work, code, options=("--ssh-agent",))
    finally:
        listener.close()
    assert without == {"agent": "No such file or directory"}, without
    assert passed == {"agent": "OK"}, passed
