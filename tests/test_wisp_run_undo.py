"""Restore points under a real `wisp run` (issue 28): random sequences of project-changing shell lines (writes,
deletes, renames, chmod, links, git, a test run that writes files) run inside, each judged by the supervisor,
contained and given a point; then, outside, the project is put back to each point and compared byte for byte
(content, permission bits, link targets) with what it was before that line, the project's .git untouched;
undo of undo; undo after the agent was killed; undo refused while a line runs. And the contained threshold:
what runs unasked, what is still asked, what the audit and --explain say.

WISP_UNDO_SEQUENCES=200 runs the issue's 200 sequences (the unit suite runs a seeded handful)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from restore_support import covered_state, digest, git_dir_state
from run_support import PIPED_DRIVER, PY, REPO, WISP, audit, needs_bwrap, needs_userns, person, wisp_run, write_config

pytestmark = [needs_bwrap, needs_userns]

SEQUENCES = int(os.environ.get("WISP_UNDO_SEQUENCES", "5"))
TESTS = str(REPO / "tests")


def project(tmp_path) -> Path:
    work = tmp_path / "home" / "src" / "app"
    (work / "src").mkdir(parents=True)
    (work / "docs").mkdir()
    (work / "build").mkdir()
    (work / ".gitignore").write_text("build/\n*.log\n")
    for i in range(6):
        (work / "src" / f"m{i}.py").write_text(f"x = {i}\n")
    (work / "docs" / "a.md").write_text("# a\n")
    (work / "build" / "keep.o").write_text("object\n")
    (work / "run_tests.sh").write_text("mkdir -p out build\necho ran $$ > out/result.txt\n"
                                       "echo cache > build/cache.bin\necho log >> test.log\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", str(work)], check=True, env=env)
    for key, value in (("user.name", "t"), ("user.email", "t@t"), ("commit.gpgsign", "false")):
        subprocess.run(["git", "-C", str(work), "config", key, value], check=True, env=env)
    subprocess.run(["git", "-C", str(work), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(work), "commit", "-qm", "start"], check=True, env=env)
    return work


# The program inside: picks lines by what the project holds now, records the covered tree before each, runs
# each as a shell line (so the gate judges it), and prints what it did.
DRIVER = r"""
import json, os, random, subprocess, sys
sys.path.insert(0, TESTS)
from restore_support import covered_state, digest
rng = random.Random(SEED)
root = os.getcwd()
def files():
    out = []
    for d, ds, fs in os.walk(root):
        rel = os.path.relpath(d, root)
        ds[:] = [x for x in ds if x not in (".git", "build")]
        out += [os.path.normpath(os.path.join(rel, f)) for f in fs if not f.endswith(".log")]
    return [f for f in out if not os.path.islink(f) and f not in (".gitignore", "run_tests.sh")]   # the rules stay
def dirs():
    return [os.path.normpath(os.path.relpath(d, root)) for d, ds, fs in os.walk(root)
            if ".git" not in d.split(os.sep) and "build" not in d.split(os.sep)]
def tracked():
    return [p for p in subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
            if os.path.isfile(p) and not os.path.islink(p)]
def line(n):
    fs, ds = files(), dirs()
    f = rng.choice(fs)
    d = rng.choice(ds)
    kind = rng.choice(["write", "append", "delete", "rename", "chmod", "link", "mkdir", "cp", "git-add",
                       "git-commit", "git-mv", "git-rm", "git-branch", "test", "ignored", "gitignore"])
    if kind == "write":
        return f"printf '%s\\n' w{n} > {rng.choice([f, os.path.join(d, f'w{n}.txt')])}"
    if kind == "append":
        return f"echo a{n} >> {f}"
    if kind == "delete":
        return f"rm {f}"
    if kind == "rename":
        return f"mv {f} {os.path.join(d, f'r{n}.txt')}"
    if kind == "chmod":
        return f"chmod {rng.choice(['600', '+x', '644', '640', '755'])} {f}"
    if kind == "link":
        return f"ln -sfn {rng.choice([f, 'nowhere', '../x'])} {os.path.join(d, f'l{n}')}"
    if kind == "mkdir":
        return f"mkdir -p {d}/k{n}/e && printf k > {d}/k{n}/e/f.txt"
    if kind == "cp":
        return f"cp {f} {os.path.join(d, f'c{n}.txt')}"
    if kind == "git-add":
        return "git add -A"
    if kind == "git-commit":
        return f"git add -A && git commit -qm c{n}"
    t = tracked()
    if kind == "git-mv" and t:
        src = rng.choice([p for p in t if p not in ("run_tests.sh", ".gitignore")] or t)
        return f"git mv -f {src} {os.path.join(d, f'g{n}.txt')}"
    if kind == "git-rm" and t:
        src = rng.choice([p for p in t if p not in ("run_tests.sh", ".gitignore")] or t)
        return f"git rm -q -f {src}"
    if kind == "git-branch":
        return f"git checkout -q -b b{n}"
    if kind == "test":
        return "sh ./run_tests.sh"
    if kind == "ignored":
        return f"printf i > build/i{n}"
    if kind == "gitignore":
        return f"echo '# {n}' >> .gitignore"
    return f"echo e{n} >> {f}"
done = []
n = 0
for seq in range(SEQUENCES):
    for _ in range(rng.randint(1, 5)):
        n += 1
        text = line(n)
        before = digest(covered_state(root))
        r = subprocess.run(["bash", "-c", text], capture_output=True, text=True)
        done.append({"seq": seq, "line": text, "before": before, "status": r.returncode, "err": r.stderr[-300:]})
        if rng.random() < 0.15:         # the agent's own edit, not a shell line: the next point holds it
            with open(rng.choice(files()), "a") as fh:
                fh.write(f"edit {n}\n")
print(json.dumps(done))
"""


def driver(seed: int, sequences: int) -> str:
    return DRIVER.replace("TESTS", repr(TESTS)).replace("SEED", str(seed)).replace("SEQUENCES", str(sequences))


def journal_lines(env, work) -> list[dict]:
    from wispsh.restore.journal import Journal, project_dir

    return [r for r in Journal(project_dir(env["WISP_HOME"], str(work)), str(work)).records()
            if r.get("type") == "line"]


def undo_cli(env, work, *args) -> subprocess.CompletedProcess:
    return subprocess.run([WISP, "undo", *args], cwd=work, env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_random_sequences_undo_to_every_point_byte_for_byte_and_git_untouched(tmp_path, capsys):
    env = person(tmp_path)
    work = project(tmp_path)
    done = wisp_run(env, driver(28, SEQUENCES), work, timeout=60 + 30 * SEQUENCES)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = json.loads(done.stdout.strip().splitlines()[-1])
    refused = [r for r in ran if r["status"] == 126]
    assert not refused, refused[:3]
    lines = journal_lines(env, work)
    assert [r["line"] for r in lines] == [" ".join(r["line"].split()) for r in ran]
    assert all(r["point"] is not None and r["decision"] in ("contained", "below-threshold") for r in lines), lines
    assert any(r["decision"] == "contained" for r in lines)
    git_before = git_dir_state(str(work))
    ignored_before = sorted(os.listdir(work / "build"))
    from wispsh.restore.undo import restore

    checks = list(zip(lines, ran))
    for at, (row, expected) in enumerate(checks):
        if at in (0, len(checks) - 1):          # the real command, as a person types it
            cli = undo_cli(env, work, "--to", str(row["point"]), "--json")
            assert cli.returncode == 0, cli.stderr
            assert json.loads(cli.stdout)["target"] == row["point"]
        else:
            restore(env["WISP_HOME"], str(work), to=row["point"], env=env)
        assert digest(covered_state(str(work))) == expected["before"], (at, row["line"])
        assert git_dir_state(str(work)) == git_before
        assert sorted(os.listdir(work / "build")) == ignored_before
    # undo of undo: the last undo went to the last point; undoing it gives back the state it found
    state = covered_state(str(work))
    first = restore(env["WISP_HOME"], str(work), to=lines[0]["point"], env=env)
    restore(env["WISP_HOME"], str(work), to=first.point, env=env)
    assert covered_state(str(work)) == state
    with capsys.disabled():
        print(f"\n{SEQUENCES} sequences, {len(lines)} lines ({sum(r['decision'] == 'contained' for r in lines)} "
              f"contained), each undone to byte for byte")


def test_undo_after_the_agent_was_killed(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    code = """
        import os, signal, subprocess
        subprocess.run(["bash", "-c", "printf one > src/m0.py"])
        subprocess.run(["bash", "-c", "rm docs/a.md && echo new > docs/b.md"])
        os.kill(os.getpid(), signal.SIGKILL)
    """
    before = covered_state(str(work))
    done = wisp_run(env, code, work)
    assert done.returncode == 128 + signal.SIGKILL, done.stderr[-2000:]
    assert (work / "docs" / "b.md").exists()
    first = undo_cli(env, work)
    assert first.returncode == 0, first.stderr
    assert "back to restore point" in first.stdout and "not changed" in first.stdout
    assert (work / "docs" / "a.md").exists() and not (work / "docs" / "b.md").exists()
    assert undo_cli(env, work).returncode == 0
    assert covered_state(str(work)) == before
    history = subprocess.run([WISP, "history", "--json"], cwd=work, env=env, capture_output=True, text=True)
    assert history.returncode == 0, history.stderr
    got = json.loads(history.stdout)
    assert [r["decision"] for r in got["lines"]][:2] == ["contained", "contained"]
    assert [p["kind"] for p in got["points"]] == ["start", "line", "line", "undo", "undo"]


def test_undo_is_refused_while_a_line_of_the_run_still_runs(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    code = """
        import os, subprocess, time
        line = subprocess.Popen(["bash", "-c", "sleep 60 > out.txt"])
        while not os.path.exists("go"):
            time.sleep(0.05)
        line.kill()
        line.wait()
    """
    proc = subprocess.Popen([WISP, "run", "--", PY, "-c", __import__("textwrap").dedent(code)], cwd=work, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("sleep" in r["line"] for r in journal_lines(env, work)
                                                      if (Path(env["WISP_HOME"]) / "restore").exists()):
            time.sleep(0.1)
        refused = undo_cli(env, work)
        assert refused.returncode == 1 and "still running" in refused.stderr, refused.stderr
        (work / "go").write_text("")
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert undo_cli(env, work).returncode == 0
    assert not (work / "out.txt").exists()


EXPLAIN = """
    import json, os, subprocess
    out = {"(restore dir inside)": os.listdir(os.path.join(os.environ["WISP_HOME"], "restore"))
           if os.path.isdir(os.path.join(os.environ["WISP_HOME"], "restore")) else None}
    for line in LINES:
        r = subprocess.run(["bash", "-c", line], capture_output=True, text=True)
        x = subprocess.run(["wispsh", "--explain", "-c", line], capture_output=True, text=True)
        out[line] = {"status": r.returncode, "explain": x.stdout}
    print(json.dumps(out))
"""


def explain_run(env, work, lines, options=()):
    done = wisp_run(env, EXPLAIN.replace("LINES", repr(lines)), work, options=options)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_contained_moderate_lines_run_unasked_and_the_rest_is_asked_as_before(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    lines = ["echo a > notes.txt", "rm docs/a.md", "sh ./run_tests.sh", "git add -A && git commit -qm x",
             "rm build/keep.o", "rm -rf src", "echo x > .envrc", "curl -s -o page.html http://127.0.0.1:9/",
             "cat src/m1.py"]
    got, said = explain_run(env, work, lines)
    assert got.pop("(restore dir inside)") == []                # old contents are hidden inside: an empty tmpfs
    ran = {line: r["status"] != 126 for line, r in got.items()}
    assert ran == {"echo a > notes.txt": True, "rm docs/a.md": True, "sh ./run_tests.sh": True,
                   "git add -A && git commit -qm x": True, "rm build/keep.o": False, "rm -rf src": False,
                   "echo x > .envrc": False, "curl -s -o page.html http://127.0.0.1:9/": True,
                   "cat src/m1.py": True}      # the fetch: contained behind the asking proxy (which refuses loopback)
    assert "run: contained, restore point" in got["echo a > notes.txt"]["explain"]
    assert "decision contained" in got["echo a > notes.txt"]["explain"]
    assert "an ignored file: no restore point has it" in got["rm build/keep.o"]["explain"]
    assert "run: contained" in got["curl -s -o page.html http://127.0.0.1:9/"]["explain"]
    assert (work / "build" / "keep.o").exists() and (work / "src").is_dir()
    events = audit(env)
    decided = {e["line"]: e["decision"] for e in events if e["event"] == "approval.decided"}
    assert decided["echo a > notes.txt"] == "contained" and decided["rm build/keep.o"] == "denied-unasked"
    points = [e for e in events if e["event"] == "restore.point"]
    assert [e["line"] for e in points] == ["echo a > notes.txt", "rm docs/a.md", "sh ./run_tests.sh",
                                           "git add -A && git commit -qm x",
                                           "curl -s -o page.html http://127.0.0.1:9/"]   # cat: read-only, no point
    assert "restore points: up to" in said


def test_with_the_hosts_network_a_fetch_is_asked_as_before(tmp_path):
    """--net=all: no proxy between the program and the network, so reading the network is not contained."""
    env = person(tmp_path)
    work = project(tmp_path)
    line = "curl -s -o page.html http://127.0.0.1:9/"
    got, _ = explain_run(env, work, ["echo a > notes.txt", line], options=("--net=all",))
    got.pop("(restore dir inside)")
    assert got["echo a > notes.txt"]["status"] != 126 and got[line]["status"] == 126
    assert "not behind the asking proxy" in got[line]["explain"]


@pytest.mark.parametrize("how", ["--no-write-wall", "--no-restore", "run.threshold moderate"])
def test_without_walls_or_points_or_with_the_threshold_at_moderate_nothing_is_contained(tmp_path, how):
    env = person(tmp_path)
    work = project(tmp_path)
    options = () if how.startswith("run.") else (how,)
    if how.startswith("run."):
        write_config(env, {"run": {"threshold": "moderate"}})
    got, said = explain_run(env, work, ["echo a > notes.txt", "touch low.txt"], options=options)
    got.pop("(restore dir inside)")
    assert got["echo a > notes.txt"]["status"] == 126
    assert got["touch low.txt"]["status"] == 0
    assert not (work / "notes.txt").exists()
    if how == "--no-write-wall":
        assert "the write wall is off" in said


# A gated shell (session/): the agent keeps one bash and writes its commands into it; each command is a line of
# its own to the supervisor, so it gets the contained threshold and a restore point as a `bash -c` line does.
def test_commands_piped_into_a_gated_shell_are_contained_with_points_and_undone(tmp_path):
    env = person(tmp_path)
    work = project(tmp_path)
    before = covered_state(str(work))
    lines = ["echo a > notes.txt", "rm docs/a.md", "rm -rf src", "cat src/m1.py", "mv src/m2.py src/n2.py"]
    done = wisp_run({**env, "CMDS": json.dumps(lines)}, PIPED_DRIVER, work, "bash", "--norc")
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])["out"]
    status = {line: int(o.rstrip().rsplit("__", 1)[-1]) for line, o in zip(lines, out)}
    assert status == {"echo a > notes.txt": 0, "rm docs/a.md": 0, "rm -rf src": 126, "cat src/m1.py": 0,
                      "mv src/m2.py src/n2.py": 0}, out
    assert (work / "notes.txt").exists() and (work / "src" / "n2.py").exists()
    rows = {r["line"]: r for r in journal_lines(env, work)}
    for line in ("echo a > notes.txt", "rm docs/a.md", "mv src/m2.py src/n2.py"):
        assert rows[line]["decision"] == "contained" and rows[line]["point"] is not None, rows[line]
    assert rows["rm -rf src"]["decision"] == "refused" and rows["rm -rf src"]["point"] is None
    assert rows["cat src/m1.py"]["point"] is None                  # read-only: no point
    decided = {e["command"]: e["decision"] for e in audit(env) if e["event"] == "approval.decided"}
    assert decided["echo a > notes.txt"] == "contained" and decided["rm -rf src"] == "denied-unasked"
    for _ in range(3):                                             # each command that changed something
        assert undo_cli(env, work).returncode == 0
    assert covered_state(str(work)) == before


def test_a_command_typed_into_a_gated_shell_on_a_pty_is_contained_and_undone(tmp_path):
    import pexpect

    env = person(tmp_path)
    work = project(tmp_path)
    before = covered_state(str(work))
    child = pexpect.spawn(WISP, ["run", "--", "bash", "--norc", "--noprofile", "-i"], cwd=str(work),
                          env={**env, "PS1": "IN> "}, encoding="utf-8", timeout=60, dimensions=(30, 160))
    try:
        child.expect("IN> ")
        child.sendline("echo typed > notes.txt; echo st=$?")
        child.expect(r"st=(\d+)")
        assert child.match.group(1) == "0"
        child.expect("IN> ")
        child.sendline("rm -rf src")                           # refused whole: asked, nobody to ask
        child.expect("IN> ")
        child.sendline("echo st=$?")
        child.expect(r"st=(\d+)")
        assert child.match.group(1) == "126"
        child.expect("IN> ")
        child.sendline("exit 0")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert (work / "notes.txt").read_text() == "typed\n" and (work / "src").is_dir()
    row = next(r for r in journal_lines(env, work) if r["line"].startswith("echo typed"))
    assert row["decision"] == "contained" and row["point"] is not None
    assert undo_cli(env, work).returncode == 0
    assert covered_state(str(work)) == before
