"""The compiled client (client.c): built with the system's C compiler for this install, found, and put in front.

`build()` compiles client.c (C11, libc only, warnings as errors) into `wisp-client` beside it (and, for wisp
run's launchers, `wisp-run-client`: WISP_RUN_ONLY, without a libc or static where it can be), with what it must
know of this install baked in (build.h: this interpreter, the import paths, the judge's socket tag), and writes
a stamp (the digest of the source and that header). `current()` is that binary only while its stamp matches:
a changed source, interpreter or import path means the Python launcher is in front until it is built again.
Where no compiler exists nothing is built and the Python launchers stay (`wisp doctor` says which is in front).

    python -m wispsh.native.build [--front BIN_DIR] [--sanitize OUT]

`--front BIN_DIR` lays BIN_DIR/wispsh as a shim whose `#!` line is the compiled client (a venv's console script
is replaced: CI runs the suite with it in front, .ci/run). `--sanitize OUT` builds the wire-reader fuzzer with
AddressSanitizer and UndefinedBehaviorSanitizer (fuzz.c).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "client.c"
BARE_SOURCE = HERE / "bare.h"                 # client.c includes it in the build without a libc
FUZZ_SOURCE = HERE / "fuzz.c"
BINARY = HERE / "wisp-client"
RUN_BINARY = HERE / "wisp-run-client"        # the same source with WISP_RUN_ONLY: wisp run's launchers name it
STAMP = HERE / "wisp-client.stamp"
FLAGS = ("-std=c11", "-Wall", "-Wextra", "-Werror", "-O2")
# wisp run's client, the first of these that builds and answers (_works): without a libc (bare.h, x86-64 Linux:
# glibc's own start-up is most of a static client's cost, 0.37 ms of CPU at each shell's start on a small VM, 0.05
# without); else linked statically where the system has a static libc (no loader: ~0.2 ms of ~0.8); else as the
# plain one is. The bare build: nothing of a libc linked, nothing that needs one set up (no stack protector's
# TLS canary, no fortify wrappers, no loop the compiler would turn into a call of the memcpy it is)
BARE_FLAGS = ("-DWISP_RUN_ONLY", "-DWISP_BARE", "-static", "-nostdlib", "-no-pie", "-fno-pie",
              "-fno-stack-protector", "-U_FORTIFY_SOURCE", "-fno-tree-loop-distribute-patterns")
RUN_FLAGS = (BARE_FLAGS, ("-DWISP_RUN_ONLY", "-static"), ("-DWISP_RUN_ONLY",))
BARE_MARK = b"wisp-run-client without a libc"      # client.c writes it into the bare build (is_bare)
SANITIZE = ("-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all", "-fno-omit-frame-pointer")
COMPILE_SECONDS = 120


class BuildError(Exception):
    pass


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name:
            found = shutil.which(name)
            if found:
                return found
    return None


def _c_string(text: str) -> str:
    out = []
    for byte in text.encode("utf-8", "surrogateescape"):
        ch = chr(byte)
        out.append(ch if 32 <= byte < 127 and ch not in '"\\?' else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def interpreter() -> str:
    """This interpreter, named as its venv names it first (`python` beside `python3`): one build whichever
    name started the process that asks."""
    here = sys.executable
    plain = os.path.join(os.path.dirname(here), "python")
    if plain != here and os.path.realpath(plain) == os.path.realpath(here):
        return plain
    return here


def header(python: str | None = None, paths: list[str] | None = None) -> str:
    from wispsh.support.shimfile import import_paths

    python = python or interpreter()
    paths = import_paths() if paths is None else paths
    boot = f"import sys; sys.path[:0] = {paths!r}; "
    tag = hashlib.sha256("\0".join([python, *paths]).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return (f"#define WISP_PYTHON {_c_string(python)}\n#define WISP_HERE {_c_string(paths[0])}\n"
            f"#define WISP_BOOT {_c_string(boot)}\n#define WISP_TAG {_c_string(tag)}\n")


def judge_tag(text: str | None = None) -> str:
    """The socket name the client of this install asks at (RUNTIME/judge/TAG.sock)."""
    text = header() if text is None else text
    return text.split('WISP_TAG "', 1)[1].split('"', 1)[0]


def _digest(text: str) -> str:
    source = SOURCE.read_bytes() + b"\0" + BARE_SOURCE.read_bytes()
    return hashlib.sha256(source + b"\0" + text.encode()).hexdigest()


def current(binary: Path = BINARY) -> Path | None:
    """The compiled client when it is built for this install from this source; else None."""
    try:
        if not os.access(binary, os.X_OK) or STAMP.read_text().strip() != _digest(header()):
            return None
    except OSError:
        return None
    return binary


def current_run() -> Path | None:
    """The client wisp run's launchers name (RUN_BINARY), when built for this install from this source."""
    return current(RUN_BINARY)


def is_static(binary: Path) -> bool:
    """Whether an ELF file asks for no program interpreter (no PT_INTERP program header: linked statically)."""
    import struct

    try:
        with open(binary, "rb") as fh:
            head = fh.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2:           # 64-bit only (what this builds on)
                return False
            order = "<" if head[5] == 1 else ">"
            phoff, = struct.unpack_from(order + "Q", head, 32)
            phentsize, phnum = struct.unpack_from(order + "HH", head, 54)
            fh.seek(phoff)
            table = fh.read(phentsize * phnum)
    except (OSError, struct.error):
        return False
    return len(table) == phentsize * phnum and all(
        struct.unpack_from(order + "I", table, i * phentsize)[0] != 3 for i in range(phnum))     # 3: PT_INTERP


def is_bare(binary: Path) -> bool:
    """Whether the binary is the build without a libc (BARE_FLAGS)."""
    try:
        return BARE_MARK in Path(binary).read_bytes()
    except OSError:
        return False


def _works(binary: Path) -> None:
    """A run client that starts and refuses as it must when the supervisor cannot be reached; BuildError if not
    (a build this compiler got wrong: the next flavour is tried)."""
    try:
        done = subprocess.run([str(binary), "--run=/nonexistent/wisp-build-check.sock", "/bin/sh", "-c", "exit 7"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        raise BuildError(f"the built client does not start: {exc}") from None
    if done.returncode != 126 or not done.stderr.startswith("wispsh: not run:"):
        raise BuildError(f"the built client does not refuse as it must (status {done.returncode}: {done.stderr!r})")


def _compile(flags, sources, out: Path, text: str, check=None) -> None:
    cc = compiler()
    if cc is None:
        raise BuildError("no C compiler (cc, gcc or clang) on PATH: the Python launchers stay in front")
    with tempfile.TemporaryDirectory(prefix="wisp-native-") as tmp:
        Path(tmp, "build.h").write_text(text)
        made = Path(tmp, "out")
        done = subprocess.run([cc, *flags, f"-I{tmp}", f"-I{HERE}", "-o", str(made), *map(str, sources)],
                              capture_output=True, text=True, timeout=COMPILE_SECONDS, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise BuildError(f"{cc} failed: {done.stderr.strip()[-2000:]}")
        os.chmod(made, 0o755)
        if check is not None:
            check(made)
        staged = out.with_name(f".{out.name}.{os.getpid()}")
        shutil.copyfile(made, staged)
        os.chmod(staged, 0o755)
        os.replace(staged, out)              # atomic: a shell starting meanwhile runs the old or the new


def build(force: bool = False) -> Path:
    """The compiled client, built when it is not current. Raises BuildError."""
    text = header()
    if not force and current() is not None and current_run() is not None:
        return BINARY
    try:
        STAMP.unlink()                       # neither is current while they are built
    except FileNotFoundError:
        pass
    _compile(FLAGS, [SOURCE], BINARY, text)
    for extra in RUN_FLAGS:
        try:
            _compile((*FLAGS, *extra), [SOURCE], RUN_BINARY, text, check=_works)
            break
        except BuildError:
            if extra == RUN_FLAGS[-1]:
                raise
    STAMP.write_text(_digest(text) + "\n")
    return BINARY


def build_fuzzer(out: Path) -> Path:
    """The wire reader under ASan and UBSan (fuzz.c includes client.c with WISP_FUZZ)."""
    _compile(SANITIZE, [FUZZ_SOURCE], Path(out), header())
    return Path(out)


def front(bin_dir: Path) -> Path:
    """BIN_DIR/wispsh as a shim with the compiled client in front (a console script there is replaced)."""
    from wispsh.support import shimfile
    from wispsh.support.shimfile import import_paths

    client = build()
    path = Path(bin_dir) / "wispsh"
    text = shimfile.launcher_text("shell", interpreter(), import_paths(), client=str(client))
    staged = path.with_name(".wispsh.wisp-tmp")
    staged.write_text(text)
    staged.chmod(0o755)
    os.replace(staged, path)
    return path


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m wispsh.native.build")
    parser.add_argument("--front", metavar="BIN_DIR")
    parser.add_argument("--sanitize", metavar="OUT")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.sanitize:
            print(build_fuzzer(Path(args.sanitize)))
            return 0
        print(build(force=args.force))
        if args.front:
            print(front(Path(args.front)))
    except (BuildError, OSError, subprocess.SubprocessError) as exc:
        print(f"wispsh: the compiled client was not built: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
