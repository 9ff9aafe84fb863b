"""wispsh's own modules (and the standard library's it needs) loaded from one file:
`wispsh/__pycache__/modules.<tag>.bundle`.

Every agent command starts a fresh wispsh, and importing sixty modules one by one is a large part of its
start-up: each import searches its package directory, stats the source, opens, reads and checks its .pyc.
The bundle holds the compiled code of every module of the package, and of the standard library's modules
that a gate's run imported from source (re, enum, functools, ...: not the frozen ones), each with its
source's mtime and size (the check CPython's own .pyc files make); a finder placed first on sys.meta_path serves a module from it when
its source is unchanged, reading just that module's code (one pread), and leaves every other module, a
changed one included, to the ordinary import. So the bundle can only be as current as the pycs it stands
for, never older than the sources.

Written by `build` when wispsh is installed (install.sh, `wisp shims install`) and again by the gate after a
run that found it missing or stale (cli/sh.py), from the pycs that are current and the sources otherwise;
atomically (a reader sees the old file or the new). A bundle that cannot be read, or made by another Python,
is ignored. Imports nothing beyond what `python -I -S` has loaded.
"""
import marshal
import posix
import sys

import _frozen_importlib
import _frozen_importlib_external

MAGIC = b"wispsh-modules/1\n"
_HEAD = len(MAGIC) + 8                  # then the index's length (8 bytes), the index, the code blobs
_PACKAGE = "wispsh"


def _dirname(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def package_dir() -> str:
    return _dirname(sys.modules[_PACKAGE].__file__)


def bundle_path(root: str | None = None) -> str:
    return f"{root or package_dir()}/__pycache__/modules.{sys.implementation.cache_tag}.bundle"


class _Loader:
    """Runs a module's code from the bundle (create_module None: the default module object)."""

    def __init__(self, finder) -> None:
        self.finder = finder

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        code = marshal.loads(self.finder.code_of(module.__spec__.name))
        exec(code, module.__dict__)


class Finder:
    """sys.meta_path entry for the package's modules whose source matches the bundle's record."""

    def __init__(self, path: str, fd: int, index: dict, base: int, size: int) -> None:
        self.path, self.fd, self.index, self.base, self.size = path, fd, index, base, size
        self.loader = _Loader(self)
        self.stale: list[str] = []      # modules it had to leave to the ordinary import

    def find_spec(self, name: str, path=None, target=None):
        entry = self.index.get(name)
        if entry is None:
            if name.startswith(_PACKAGE + "."):
                self.stale.append(name)             # a module newer than the bundle
            return None
        origin, mtime_ns, size, is_package, offset, length = entry
        if self.base + offset + length > self.size:     # a bundle cut short: this module is not in it
            return None
        try:
            st = posix.stat(origin)
        except OSError:
            return None
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            self.stale.append(name)
            return None
        spec = _frozen_importlib.ModuleSpec(name, self.loader, origin=origin, is_package=is_package)
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [_dirname(origin)]
        return spec

    def code_of(self, name: str) -> bytes:
        _, _, _, _, offset, length = self.index[name]
        data = posix.pread(self.fd, length, self.base + offset)
        if len(data) != length:
            raise ImportError(f"{self.path}: {name} cut short", name=name)
        return data


def install(path: str | None = None) -> "Finder | None":
    """Put the bundle's finder first on sys.meta_path (once); None when there is no usable bundle."""
    for finder in sys.meta_path:
        if isinstance(finder, Finder):
            return finder
    path = path or bundle_path()
    try:
        fd = posix.open(path, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return None
    try:
        head = posix.pread(fd, _HEAD, 0)
        if len(head) != _HEAD or not head.startswith(MAGIC):
            raise ValueError("not a bundle")
        size = int.from_bytes(head[len(MAGIC):], "little")
        raw = posix.pread(fd, size, _HEAD)
        magic, index = marshal.loads(raw)
        if magic != _frozen_importlib_external.MAGIC_NUMBER or not isinstance(index, dict):
            raise ValueError("made by another Python")
        total = posix.fstat(fd).st_size
    except (OSError, ValueError, EOFError, TypeError):
        posix.close(fd)
        return None
    finder = Finder(path, fd, index, _HEAD + size, total)
    sys.meta_path.insert(0, finder)
    return finder


def installed() -> "Finder | None":
    return next((f for f in sys.meta_path if isinstance(f, Finder)), None)


# ---------------------------------------------------------------- writing the bundle


def _modules(root: str):
    """(module name, source path, is package) for every module of the package under `root`."""
    import os

    for where, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d.isidentifier())
        rel = os.path.relpath(where, os.path.dirname(root))
        prefix = ".".join(rel.split(os.sep))
        for name in sorted(files):
            if not name.endswith(".py") or not name[:-3].isidentifier():
                continue
            path = os.path.join(where, name)
            if name == "__init__.py":
                yield prefix, path, True
            else:
                yield f"{prefix}.{name[:-3]}", path, False


def _code_bytes(path: str, st) -> bytes:
    """The marshalled code of the source at `path`: its .pyc's when that is current, else compiled now."""
    cached = _frozen_importlib_external.cache_from_source(path)
    try:
        with open(cached, "rb") as fh:
            data = fh.read()
        flags = int.from_bytes(data[4:8], "little")
        if data[:4] == _frozen_importlib_external.MAGIC_NUMBER and flags == 0 and \
                int.from_bytes(data[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF and \
                int.from_bytes(data[12:16], "little") == st.st_size & 0xFFFFFFFF:
            return data[16:]
    except OSError:
        pass
    with open(path, "rb") as fh:
        source = fh.read()
    return marshal.dumps(compile(source, path, "exec", dont_inherit=True, optimize=sys.flags.optimize))


def stdlib_modules() -> set[str]:
    """The standard library's modules this process imported from source files (not the frozen or built-in
    ones: those are faster as they are): the ones a gate's run needs, for the next bundle."""
    stdlib = getattr(sys, "_stdlib_dir", None)
    if not stdlib:
        return set()
    found = set()
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if isinstance(getattr(spec, "loader", None), (_frozen_importlib_external.SourceFileLoader, _Loader)) \
                and origin.startswith(stdlib + "/") and origin.endswith(".py") and "site-packages" not in origin:
            found.add(name)
    return found


def bundled_stdlib() -> set[str]:
    finder = installed()
    return {name for name in finder.index if not name.startswith(_PACKAGE)} if finder else set()


def build(root: str | None = None, stdlib=()) -> str:
    """Write the bundle of the package under `root` (default: this wispsh), with the standard library's
    modules named in `stdlib`; returns its path. OSError when it cannot be written (a read-only install: then
    every import is the ordinary one)."""
    import os

    root = os.path.abspath(root or package_dir())
    index, blobs, offset = {}, [], 0
    listed = list(_modules(root))
    for name in sorted(stdlib):
        module = sys.modules.get(name)
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            listed.append((name, spec.origin, spec.submodule_search_locations is not None))
    for name, path, is_package in listed:
        st = os.stat(path)
        blob = _code_bytes(path, st)
        index[name] = (path, st.st_mtime_ns, st.st_size, is_package, offset, len(blob))
        blobs.append(blob)
        offset += len(blob)
    raw = marshal.dumps((_frozen_importlib_external.MAGIC_NUMBER, index))
    target = bundle_path(root)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + len(raw).to_bytes(8, "little") + raw)
            for blob in blobs:
                fh.write(blob)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
