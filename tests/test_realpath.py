"""support/realpath.real is os.path.realpath, by the kernel: the same answer for every path in a tree of
directories, files and symbolic links (relative, absolute, dangling, looping, through `..`)."""
import os

from hypothesis import given, settings, strategies as st

from tiers import scaled

from wispsh.support.realpath import real

NAMES = st.sampled_from(["a", "b", "c", "d", "..", ".", "x y", "é"])
LINK_TARGETS = st.lists(NAMES, min_size=1, max_size=4).map("/".join) | st.sampled_from(
    ["/", "/tmp", "/nonexistent/z", "/proc/self", "/dev/null"])
NODES = st.lists(st.tuples(st.lists(NAMES.filter(lambda n: n not in ("..", ".")), min_size=1, max_size=3),
                           st.sampled_from(["dir", "file", "link"]), LINK_TARGETS, st.booleans()), max_size=12)
QUERIES = st.lists(st.lists(NAMES, min_size=0, max_size=5), min_size=1, max_size=8)


def _build(root, nodes):
    for parts, kind, target, absolute in nodes:
        path = os.path.join(root, *parts)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if kind == "dir":
                os.makedirs(path, exist_ok=True)
            elif kind == "file":
                open(path, "a").close()
            else:
                os.symlink(os.path.join(root, target) if absolute and not target.startswith("/") else target, path)
        except OSError:
            pass                    # a name taken already, a parent that is a file: the tree is what it is


@settings(max_examples=scaled(80, 400), deadline=None)
@given(NODES, QUERIES)
def test_real_is_realpath(tmp_path_factory, nodes, queries):
    root = os.path.realpath(str(tmp_path_factory.mktemp("tree")))
    _build(root, nodes)
    for parts in queries:
        path = os.path.join(root, *parts)
        assert real(path) == os.path.realpath(path), path


def test_relative_paths_and_the_odd_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop", "loop")
    os.mkdir("d")
    os.symlink("d", "up")
    for path in ("", ".", "d", "up/..", "loop", "missing/x", "/", "//", "/proc/self/fd/0", "up/../up"):
        assert real(path) == os.path.realpath(path), path


def _outcome(resolve, path):
    try:
        return resolve(path)
    except OSError as exc:
        return type(exc)


def test_a_deleted_directory_goes_as_realpath_goes(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    (tmp_path / "kept").mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    for path in (".", "x", str(tmp_path / "kept")):
        assert _outcome(real, path) == _outcome(os.path.realpath, path), path
