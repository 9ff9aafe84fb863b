"""Restore points without a namespace (issue 28): the tree the supervisor keeps from inotify's changed paths is
the tree `git add -A` makes of the same files; an undo puts back exactly what a point holds (bytes, modes,
links), deletes what came after, and leaves ignored files and the project's .git alone; the shadow git never
runs anything the project holds. Real files, real git, real inotify; the undos are restore/undo.py's, the
function `wisp undo` calls."""
from __future__ import annotations

import os
import random
import subprocess
import time

import pytest

from restore_support import covered_state, digest, git_dir_state
from wispsh.restore import undo as undos
from wispsh.restore.git import Shadow
from wispsh.restore.journal import Journal, project_dir
from wispsh.restore.tree import Tree
from wispsh.restore.watch import Watcher

GIT_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True, env=GIT_ENV).stdout


def make_project(tmp_path, files=20):
    root = tmp_path / "proj"
    (root / "src" / "sub").mkdir(parents=True)
    (root / "build").mkdir()
    (root / ".gitignore").write_text("build/\n*.log\n")
    for i in range(files):
        (root / "src" / f"f{i}.txt").write_text(f"file {i}\n")
    (root / "build" / "out.bin").write_bytes(b"\0" * 10)
    (root / "run.log").write_text("log\n")
    os.symlink("src/f1.txt", root / "link")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def watched_tree(tmp_path, root) -> tuple[Shadow, Tree]:
    """A shadow repository of `root` and its tree, kept up to date by inotify."""
    shadow = Shadow(str(tmp_path / "shadow"), str(root))
    shadow.create(excludes="/dev/null")
    return shadow, Tree(shadow, watcher=Watcher(str(root)))


def listing(shadow: Shadow, tree: str) -> bytes:
    return shadow.run("ls-tree", "-r", "-z", tree)


def fresh(tmp_path, root, name) -> bytes:
    """The tree a new shadow's `git add -A` makes of the project as it is now."""
    shadow = Shadow(str(tmp_path / name), str(root))
    shadow.create(excludes="/dev/null")
    tree = Tree(shadow)
    try:
        return listing(shadow, tree.point().tree)
    finally:
        tree.close()


OPS = ("write", "append", "delete", "rename", "chmod", "link", "mkdir", "rename-dir", "ignored", "gitignore-comment")


def random_op(rng: random.Random, root, n: int) -> str:
    files = [os.path.relpath(os.path.join(d, f), root) for d, ds, fs in os.walk(root)
             for f in fs if ".git" not in d.split(os.sep) and "build" not in d.split(os.sep)
             and not os.path.islink(os.path.join(d, f))]
    dirs = [os.path.relpath(d, root) for d, ds, fs in os.walk(root) if ".git" not in d.split(os.sep)
            and "build" not in d.split(os.sep)]
    op = rng.choice(OPS)
    pick = rng.choice(files) if files else ".gitignore"
    where = os.path.join(root, pick)
    if op == "write":
        path = os.path.join(root, rng.choice(dirs), f"w{n}.txt") if rng.random() < 0.5 else where
        with open(path, "w") as fh:
            fh.write(f"written {n} {rng.random()}\n")
    elif op == "append" and os.path.exists(where):
        with open(where, "a") as fh:
            fh.write(f"more {n}\n")
    elif op == "delete" and pick != ".gitignore":
        os.unlink(where)
    elif op == "rename" and pick != ".gitignore":
        os.rename(where, os.path.join(root, rng.choice(dirs), f"r{n}.txt"))
    elif op == "chmod":
        os.chmod(where, rng.choice((0o600, 0o755, 0o640, 0o644, 0o700)))
    elif op == "link":
        os.symlink(rng.choice((pick, "nowhere", "../x")), os.path.join(root, rng.choice(dirs), f"l{n}"))
    elif op == "mkdir":
        deep = os.path.join(root, rng.choice(dirs), f"d{n}", "e")
        os.makedirs(deep)
        with open(os.path.join(deep, "in.txt"), "w") as fh:
            fh.write(str(n))
    elif op == "rename-dir":
        inner = [d for d in dirs if d not in (".", "src")]
        if inner:
            os.rename(os.path.join(root, rng.choice(inner)), os.path.join(root, f"moved{n}"))
    elif op == "ignored":
        with open(os.path.join(root, "build", f"b{n}"), "w") as fh:
            fh.write("ignored")
    elif op == "gitignore-comment":
        with open(os.path.join(root, ".gitignore"), "a") as fh:
            fh.write(f"# {n}\n")
    return op


def test_the_tree_kept_from_inotify_is_the_tree_git_add_makes(tmp_path):
    root = make_project(tmp_path)
    shadow, tree = watched_tree(tmp_path, root)
    try:
        first = tree.point()
        assert listing(shadow, first.tree) == fresh(tmp_path, root, "f0")
        rng = random.Random(28)
        for n in range(25):
            ops = [random_op(rng, root, n * 10 + k) for k in range(rng.randint(1, 6))]
            point = tree.point()
            assert listing(shadow, point.tree) == fresh(tmp_path, root, f"f{n + 1}"), ops
        assert tree.scans < 10                  # full scans only where a .gitignore changed
    finally:
        tree.close()


def test_thousands_of_new_paths_at_once_get_their_ignore_answers_and_the_point_is_made(tmp_path):
    """All questions written to `git check-ignore` at once, then the answers read: past a pipe's worth git
    blocked writing answers while the supervisor blocked writing questions, and `wisp run` hung for good (the
    bench's 20 git commits, inside a repository with a few thousand new objects)."""
    import threading

    from wispsh.restore.ignore import Ignore

    root = make_project(tmp_path)
    shadow = Shadow(str(tmp_path / "shadow"), str(root))
    shadow.create(excludes="/dev/null")
    paths = [f"src/deep/{'d' * 40}/f{i}.{'log' if i % 3 == 0 else 'txt'}".encode() for i in range(30_000)]
    ignore = Ignore(shadow)
    got: list = []
    asking = threading.Thread(target=lambda: got.append(ignore.ignored(paths)), daemon=True)
    asking.start()
    asking.join(timeout=60)
    hung = asking.is_alive()
    if hung:                    # free the asker (it holds the lock close() takes), then fail
        ignore.proc.kill()
        asking.join(timeout=10)
    try:
        assert not hung, "git check-ignore and its asker waited for each other"
        assert got[0] == [p.endswith(b".log") for p in paths]
        assert ignore.ignored([b"build", b"src/f1.txt"]) == [True, False]      # the same process answers on
    finally:
        ignore.close()
    (root / "many").mkdir()
    for i in range(3_000):
        (root / "many" / f"n{i}.{'log' if i % 2 else 'c'}").write_text("x")
    tree = Tree(shadow, watcher=Watcher(str(root)))
    try:
        point = tree.point()
        assert listing(shadow, point.tree) == fresh(tmp_path, root, "after")
    finally:
        tree.close()


def test_a_point_after_a_small_change_reads_only_what_changed(tmp_path):
    root = make_project(tmp_path, files=300)
    shadow, tree = watched_tree(tmp_path, root)
    try:
        tree.point()
        read = []
        real = shadow.objects.blob_of_file
        shadow.objects.blob_of_file = lambda path, size: (read.append(path), real(path, size))[1]
        (root / "src" / "f7.txt").write_text("changed\n")
        (root / "src" / "new.txt").write_text("new\n")
        tree.point()
        assert sorted(os.path.basename(p) for p in read) == [b"f7.txt", b"new.txt"]
        assert tree.scans == 1
    finally:
        tree.close()


def journal_for(tmp_path, root):
    home = tmp_path / "wisp"
    home.mkdir(exist_ok=True)
    journal = Journal(project_dir(str(home), str(root)), str(root))
    journal.create()
    return str(home), journal


def take_point(journal, tree, line="x", kind="line") -> int:
    with journal.lock():
        found = tree.point()
        return journal.add_point(session="s1", kind=kind, tree=found.tree, modes=found.modes, line=line)


def test_undo_puts_back_bytes_modes_links_deletes_what_came_after_and_leaves_ignored_and_git(tmp_path):
    root = make_project(tmp_path)
    home, journal = journal_for(tmp_path, root)
    tree = undos.open_tree(journal, {"HOME": "/nonexistent"}, Watcher(str(root)))
    try:
        take_point(journal, tree, kind="start")
        states, points = [], []
        rng = random.Random(7)
        for n in range(25):
            states.append(covered_state(str(root)))
            points.append(take_point(journal, tree, line=f"line {n}"))
            for k in range(rng.randint(1, 3)):
                random_op(rng, root, n * 10 + k)
            if n % 5 == 0:
                git(root, "add", "-A")
                git(root, "commit", "-qm", f"c{n}")
    finally:
        tree.close()
    ignored_before = {p: (root / "build" / p).read_bytes() for p in os.listdir(root / "build")}
    git_before = git_dir_state(str(root))
    order = list(range(len(points)))
    random.Random(3).shuffle(order)
    for i in order:
        result = undos.restore(home, str(root), to=points[i], env={"HOME": "/nonexistent"})
        assert covered_state(str(root)) == states[i], f"point {points[i]}"
        assert git_dir_state(str(root)) == git_before
        assert {p: (root / "build" / p).read_bytes() for p in os.listdir(root / "build")} == ignored_before
        assert result.point is not None
    # undo of undo: back to what the last undo found
    last_state = covered_state(str(root))
    result = undos.restore(home, str(root), to=points[0], env={"HOME": "/nonexistent"})
    assert covered_state(str(root)) == states[0]
    undos.restore(home, str(root), to=result.point, env={"HOME": "/nonexistent"})
    assert covered_state(str(root)) == last_state


def test_steps_back_count_lines_and_an_undo_is_itself_a_point(tmp_path):
    root = make_project(tmp_path)
    home, journal = journal_for(tmp_path, root)
    tree = undos.open_tree(journal, {"HOME": "/nonexistent"})
    states = []
    try:
        take_point(journal, tree, kind="start")
        for n in range(4):
            states.append(covered_state(str(root)))
            take_point(journal, tree, line=f"echo {n} > n.txt")
            (root / "n.txt").write_text(f"{n}\n")
    finally:
        tree.close()
    after = covered_state(str(root))
    env = {"HOME": "/nonexistent"}
    first = undos.restore(home, str(root), env=env)                  # before the last line
    assert covered_state(str(root)) == states[3]
    undos.restore(home, str(root), env=env)                          # and one more back
    assert covered_state(str(root)) == states[2]
    undos.restore(home, str(root), steps=2, env=env)                 # two at once
    assert covered_state(str(root)) == states[0]
    undos.restore(home, str(root), to=first.point, env=env)          # undo of the first undo
    assert covered_state(str(root)) == after
    dry = undos.restore(home, str(root), to=2, dry_run=True, env=env, patch=True)
    assert covered_state(str(root)) == after and dry.point is None
    assert [(c.path, c.action) for c in dry.changes] == [("n.txt", "delete")]
    with pytest.raises(undos.UndoError):
        undos.restore(home, str(root), steps=50, env=env)


def test_the_shadow_git_runs_nothing_of_the_project_and_stores_bytes_as_they_are(tmp_path):
    root = make_project(tmp_path)
    marker = tmp_path / "PWNED"
    with open(root / ".git" / "config", "a") as fh:
        fh.write(f"[core]\n\tfsmonitor = touch {marker}-fsmonitor\n\thooksPath = hooks\n"
                 f"[filter \"evil\"]\n\tclean = touch {marker}-clean\n\tsmudge = touch {marker}-smudge\n"
                 f"[diff \"evil\"]\n\ttextconv = touch {marker}-textconv\n")
    (root / "hooks").mkdir()
    for hook in ("pre-commit", "post-checkout", "post-index-change", "reference-transaction"):
        (root / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {marker}-{hook}\n")
        (root / "hooks" / hook).chmod(0o755)
    (root / ".gitattributes").write_text("* filter=evil diff=evil text=auto eol=lf ident\n")
    (root / "crlf.txt").write_bytes(b"a\r\nb\r\n$Id$\r\n")
    home, journal = journal_for(tmp_path, root)
    tree = undos.open_tree(journal, {"HOME": "/nonexistent"}, Watcher(str(root)))
    try:
        point = take_point(journal, tree, kind="start")
        (root / "crlf.txt").write_bytes(b"changed\r\n")
        take_point(journal, tree)
    finally:
        tree.close()
    undos.restore(home, str(root), to=point, dry_run=True, patch=True, env={"HOME": "/nonexistent"})
    undos.restore(home, str(root), to=point, env={"HOME": "/nonexistent"})
    assert (root / "crlf.txt").read_bytes() == b"a\r\nb\r\n$Id$\r\n"
    assert not list(tmp_path.glob("PWNED*"))


def test_a_project_that_is_no_git_repository_has_points_too(tmp_path):
    root = tmp_path / "plain"
    (root / "a").mkdir(parents=True)
    (root / "a" / "x.txt").write_text("x")
    (root / ".gitignore").write_text("*.log\n")
    (root / "keep.log").write_text("kept")
    home, journal = journal_for(tmp_path, root)
    tree = undos.open_tree(journal, {"HOME": "/nonexistent"}, Watcher(str(root)))
    try:
        before = covered_state(str(root))
        point = take_point(journal, tree)
        (root / "a" / "x.txt").write_text("changed")
        (root / "new.txt").write_text("new")
        (root / "keep.log").write_text("changed log")
    finally:
        tree.close()
    undos.restore(home, str(root), to=point, env={"HOME": "/nonexistent"})
    assert covered_state(str(root)) == before
    assert (root / "keep.log").read_text() == "changed log"


def test_ignored_trees_cost_nothing_and_are_never_read(tmp_path):
    root = make_project(tmp_path)
    heavy = root / "build" / "deep"
    heavy.mkdir()
    with open(heavy / "sparse.bin", "wb") as fh:       # 10 GB of ignored file, and a FIFO a read would hang on
        fh.truncate(10 << 30)
    os.mkfifo(heavy / "fifo")
    for i in range(200):
        (heavy / f"{i}.o").write_text("o")
    home, journal = journal_for(tmp_path, root)
    watcher = Watcher(str(root))
    tree = undos.open_tree(journal, {"HOME": "/nonexistent"}, watcher)
    try:
        started = time.monotonic()
        take_point(journal, tree, kind="start")
        assert time.monotonic() - started < 30
        assert not any(p.startswith(b"build") for p in watcher.wds)
        (heavy / "more.o").write_text("o")
        take_point(journal, tree)
        assert tree.scans == 1
        assert tree.ignored_under(b"") and tree.ignored_under(b"build") and not tree.ignored_under(b"src")
        assert tree.ignored_present(b"run.log") and not tree.ignored_present(b"src/f1.txt")
    finally:
        tree.close()


def test_without_inotify_every_point_is_a_full_scan_and_still_right(tmp_path):
    root = make_project(tmp_path)
    shadow = Shadow(str(tmp_path / "shadow"), str(root))
    shadow.create(excludes="/dev/null")
    watcher = Watcher(str(root))
    watcher.close()
    watcher.broken = "no inotify (test)"
    tree = Tree(shadow, watcher=watcher)
    try:
        tree.point()
        (root / "src" / "f1.txt").write_text("changed")
        assert listing(shadow, tree.point().tree) == fresh(tmp_path, root, "f")
        assert tree.scans == 2 and tree.why_full == "no inotify (test)"
    finally:
        tree.close()


def test_a_big_file_is_stored_a_chunk_at_a_time_as_git_would_store_it(tmp_path, monkeypatch):
    from wispsh.restore import git as shadow_git

    monkeypatch.setattr(shadow_git, "INLINE_LIMIT", 1 << 10)
    root = make_project(tmp_path, files=2)
    big = root / "src" / "big.bin"
    big.write_bytes(os.urandom(3 << 20))
    shadow = Shadow(str(tmp_path / "shadow"), str(root))
    shadow.create(excludes="/dev/null")
    sha = shadow.objects.blob_of_file(os.fsencode(str(big)), big.stat().st_size)
    assert sha.hex() == git(root, "hash-object", "src/big.bin").decode().strip()
    assert shadow.run("cat-file", "blob", sha.hex()) == big.read_bytes()


def test_point_numbers_count_up_in_place_and_a_torn_counter_is_read_from_the_journal(tmp_path):
    """The counter is rewritten in place (a rename over it made ext4 flush it at once: ~1 ms a point on the
    hot path): the same file after every point; what it cannot give (gone, torn, old format) the journal does."""
    journal = Journal(str(tmp_path / "j"), str(tmp_path))
    journal.create()
    numbers = []
    for _ in range(3):
        with journal.lock():
            numbers.append(journal.add_point(session="s", kind="line", tree="t", modes=None))
    counter = tmp_path / "j" / "next"
    inode = counter.stat().st_ino
    with journal.lock():
        numbers.append(journal.add_point(session="s", kind="line", tree="t", modes=None))
    assert numbers == [1, 2, 3, 4]
    assert counter.stat().st_ino == inode
    for torn in (b"", b"00000\x00\x00", b"garbage\n", b"-3\n"):
        counter.write_bytes(torn)
        with journal.lock():
            numbers.append(journal.add_point(session="s", kind="line", tree="t", modes=None))
    counter.write_bytes(b"42\n")                 # the old format, written by an earlier wispsh
    with journal.lock():
        numbers.append(journal.add_point(session="s", kind="line", tree="t", modes=None))
    assert numbers == [1, 2, 3, 4, 5, 6, 7, 8, 42]
    counter.unlink()
    with journal.lock():
        assert journal.next_id() == 43


def test_between_lines_the_tree_keeps_up_and_the_next_point_reads_nothing_again(tmp_path):
    """Tree.keep_up: once the project is quiet, what a build wrote is read then; the point before the next
    line reads none of it again, and is the tree a fresh scan makes."""
    import threading

    from wispsh.restore.tree import QUIET_SECONDS

    root = make_project(tmp_path, files=30)
    _home, journal = journal_for(tmp_path, root)
    shadow, tree = watched_tree(tmp_path, root)
    stopping = threading.Event()
    keeper = threading.Thread(target=tree.keep_up, args=(journal.lock, stopping), daemon=True)
    try:
        tree.point()
        read = []
        real = shadow.objects.blob_of_file
        shadow.objects.blob_of_file = lambda path, size: (read.append(path), real(path, size))[1]
        keeper.start()
        (root / "out").mkdir()
        for i in range(40):                         # a build: writes for a while, then stops
            (root / "out" / f"o{i}.txt").write_text(f"object {i}\n")
            (root / "src" / "f3.txt").write_text(f"changed {i}\n")
        wrote = {b"f3.txt", *(b"o%d.txt" % i for i in range(40))}
        deadline = time.monotonic() + 30
        while {os.path.basename(p) for p in read} != wrote and time.monotonic() < deadline:
            time.sleep(QUIET_SECONDS / 2)
        assert {os.path.basename(p) for p in read} == wrote          # (a slow machine may read some twice)
        time.sleep(QUIET_SECONDS * 2)
        del read[:]
        point = tree.point()
        assert read == [] and tree.scans == 1
        assert listing(shadow, point.tree) == fresh(tmp_path, root, "fresh")
        stopping.set()
        keeper.join(5)
        assert not keeper.is_alive()
    finally:
        stopping.set()
        tree.close()


def test_a_sync_that_fails_makes_the_next_a_full_scan_so_no_change_is_lost(tmp_path):
    """The watcher hands its changes out before they are applied: a sync that fails midway (a full disk, a
    git that failed) had lost them, and the next point recorded the old contents. Now the next is a full scan."""
    root = make_project(tmp_path, files=5)
    shadow, tree = watched_tree(tmp_path, root)
    try:
        tree.point()
        (root / "src" / "f1.txt").write_text("changed\n")
        real = tree._apply

        def failing(paths, force=False):
            tree._apply = real
            raise OSError(28, "No space left on device")
        tree._apply = failing
        with pytest.raises(OSError):
            tree.sync()
        point = tree.point()
        assert tree.scans == 2
        assert listing(shadow, point.tree) == fresh(tmp_path, root, "fresh")
    finally:
        tree.close()
