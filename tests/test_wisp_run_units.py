"""The parts of `wisp run` that can be checked without a namespace: the seccomp program (run here through a
small interpreter of classic BPF), the wire format, finding the launcher, placeholders, readiness messages."""
from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wispsh.sandbox import client, layout, readiness, seccomp


def run_bpf(program: bytes, nr: int, arch: int, arg1: int) -> int:
    """Classic BPF as seccomp runs it, on a seccomp_data {nr, arch, ip=0, args[1]=arg1}."""
    data = (nr & 0xFFFFFFFF).to_bytes(4, sys.byteorder) + arch.to_bytes(4, sys.byteorder) + bytes(8) + \
        bytes(8) + arg1.to_bytes(8, sys.byteorder) + bytes(32)
    insns = [program[i:i + 8] for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    for _ in range(10000):
        raw = insns[pc]
        code = int.from_bytes(raw[0:2], sys.byteorder)
        jt, jf, k = raw[2], raw[3], int.from_bytes(raw[4:8], sys.byteorder)
        if code == 0x20:                        # ld [k]
            acc = int.from_bytes(data[k:k + 4], sys.byteorder)
        elif code == 0x54:                      # and #k
            acc &= k
        elif code == 0x15:                      # jeq #k
            pc += jt if acc == k else jf
        elif code == 0x06:                      # ret #k
            return k
        else:
            raise AssertionError(f"unknown opcode {code:#x}")
        pc += 1
    raise AssertionError("no return")


DENY = 0x00050000 | errno.EPERM
ALLOW = 0x7FFF0000
X86_64, I386, AARCH64, ARM = 0xC000003E, 0x40000003, 0xC00000B7, 0x40000028


@pytest.mark.parametrize("machine, arch, nr, arg, expected", [
    ("x86_64", X86_64, 16, seccomp.TIOCSTI, DENY),
    ("x86_64", X86_64, 16, seccomp.TIOCSTI | (1 << 32), DENY),       # high bits do not slip past
    ("x86_64", X86_64, 16, seccomp.TIOCLINUX, DENY),
    ("x86_64", X86_64, 16, 0x5401, ALLOW),                           # TCGETS: terminals keep working
    ("x86_64", X86_64, 0, seccomp.TIOCSTI, ALLOW),                   # read(2) with that number as an arg
    ("x86_64", X86_64, 514 | 0x40000000, seccomp.TIOCSTI, DENY),     # x32's ioctl
    ("x86_64", X86_64, 16 | 0x40000000, seccomp.TIOCSTI, DENY),
    ("x86_64", I386, 54, seccomp.TIOCSTI, DENY),                     # 32-bit programs on x86_64
    ("x86_64", I386, 16, seccomp.TIOCSTI, ALLOW),                    # i386's 16 is lchown
    ("x86_64", 0x12345678, 16, seccomp.TIOCSTI, ALLOW),
    ("aarch64", AARCH64, 29, seccomp.TIOCSTI, DENY),
    ("aarch64", AARCH64, 29, 0x5401, ALLOW),
    ("aarch64", ARM, 54, seccomp.TIOCSTI | (7 << 40), DENY),
    ("aarch64", AARCH64, 16, seccomp.TIOCSTI, ALLOW),
])
def test_the_seccomp_program_refuses_exactly_tiocsti_and_tioclinux(machine, arch, nr, arg, expected):
    assert run_bpf(seccomp.program(machine), nr, arch, arg) == expected


def test_no_program_for_an_unknown_machine():
    assert seccomp.program("riscv64") is None


def test_the_wire_round_trips_and_names_nothing_that_answers(tmp_path):
    env = {b"A": b"1", b"B": b"x=y"}
    message = client.request([b"/bin/sh", b"-c", b"echo a=b"], kind=b"launcher", cwd=b"/tmp", env=env, tty=True)
    head, body = message.split(b"\n", 1)
    assert int(head) == len(body)
    from wispsh.sandbox.judge import BadRequest, parse_request

    req = parse_request(body, pid=os.getpid(), uid=os.getuid(), stdin_fd=None)
    assert (req.kind, req.argv, req.cwd, req.env, req.tty) == ("launcher", ["/bin/sh", "-c", "echo a=b"], "/tmp",
                                                              {"A": "1", "B": "x=y"}, True)
    for bad in (body + b"\0y", body.replace(b"launcher", b"grant", 1), b"wisp-run/9" + body[10:], b""):
        with pytest.raises(BadRequest):
            parse_request(bad, pid=os.getpid(), uid=os.getuid(), stdin_fd=None)


@settings(max_examples=300, deadline=None)
@given(argv=st.lists(st.binary(min_size=1).filter(lambda b: b"\0" not in b), min_size=1, max_size=4),
       env=st.dictionaries(st.binary(min_size=1).filter(lambda b: b"\0" not in b and b"=" not in b),
                           st.binary().filter(lambda b: b"\0" not in b), max_size=4),
       cwd=st.binary().filter(lambda b: b"\0" not in b))
def test_a_request_of_any_bytes_reads_as_its_fields_each_decoded_alone(argv, env, cwd):
    """parse_request decodes the body whole and then splits it: each field must read as it would alone,
    invalid UTF-8 (surrogateescape) and sequences cut at a field's end included."""
    from wispsh.sandbox.judge import parse_request

    message = client.request(argv, kind=b"launcher", cwd=cwd, env=env, tty=False)
    req = parse_request(message.split(b"\n", 1)[1], pid=os.getpid(), uid=os.getuid(), stdin_fd=None)
    text = lambda b: b.decode("utf-8", "surrogateescape")      # noqa: E731
    assert req.argv == [text(a) for a in argv] and req.cwd == text(cwd)
    assert req.env == {text(k): text(v) for k, v in env.items()}


def test_counts_are_ascii_digits_only():
    from wispsh.sandbox.judge import BadRequest, parse_request

    message = client.request([b"/bin/sh"], kind=b"launcher", cwd=b"/", env={}, tty=False)
    body = message.split(b"\n", 1)[1]
    assert body.split(b"\0")[2] == b"1"
    for count in ("\u0661".encode(), b" 1", b"+1"):                 # Arabic-Indic one, a space, a sign
        fields = body.split(b"\0")
        fields[2] = count
        with pytest.raises(BadRequest):
            parse_request(b"\0".join(fields), pid=os.getpid(), uid=os.getuid(), stdin_fd=None)


def test_inside_run_reads_the_launcher_not_the_environment(tmp_path):
    launcher = tmp_path / "sh"
    launcher.write_text(layout.launcher_text(sys.executable, "/run/x/sock/req.sock"))
    assert client.inside_run(str(launcher).encode()) == b"/run/x/sock/req.sock"
    assert client.inside_run(os.path.realpath("/bin/sh").encode()) is None     # a real shell: outside
    assert client.inside_run(b"/nonexistent") is None
    for bad in ("/run/x'y", "/run/x\\y", "/run/x\ny"):
        with pytest.raises(ValueError):
            layout.launcher_text(sys.executable, bad)
    from wispsh import realshell

    assert realshell.is_wispsh(str(launcher))          # never taken for a real shell by the in-process gate


def test_placeholders_are_made_and_removed_only_as_made(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    lay = layout.Layout(run_dir="", socket="", launcher="", shells=[], protect=[], hide_dirs=[], hide_files=[],
                        notes=[], placeholders=[layout.Placeholder(str(home / ".bashrc"), "file"),
                                                layout.Placeholder(str(home / ".config" / "git"), "dir"),
                                                layout.Placeholder(str(home / ".config" / "systemd" / "user"), "dir"),
                                                layout.Placeholder(str(home / ".zshenv"), "file")])
    layout.make_placeholders(lay)
    assert (home / ".bashrc").read_bytes() == b"" and (home / ".config" / "systemd" / "user").is_dir()
    assert oct((home / ".config").stat().st_mode & 0o777) == "0o700"
    (home / ".zshenv").write_text("changed")                   # changed meanwhile: left, and said
    assert layout.remove_placeholders(lay) == [str(home / ".zshenv")]
    assert sorted(p.name for p in home.iterdir()) == [".zshenv"]


def test_shell_families_and_the_shells_found_here():
    assert [layout.family_of(p) for p in ("/usr/bin/bash", "/usr/bin/rbash", "/usr/bin/dash", "/usr/bin/zsh",
                                          "/usr/bin/ksh93", "/usr/bin/mksh", "/usr/bin/yash")] == \
        ["bash", "bash", "dash", "zsh", "ksh", "ksh", "sh"]
    from wispsh.config import Config

    found = layout.find_shells({"PATH": "/usr/bin:/bin"}, Config(path=Path("/nonexistent/config.json")))
    reals = {s.real for s in found}
    assert os.path.realpath("/bin/sh") in reals and os.path.realpath("/bin/bash") in reals
    sh = next(s for s in found if s.real == os.path.realpath("/bin/sh"))
    assert "/bin/sh" in sh.paths and "/usr/bin/sh" in sh.paths   # one binary, every name it goes by


def test_readiness_without_bwrap_says_what_to_install():
    ready = readiness.check("/nonexistent/bwrap")
    assert not ready.ok and "apt install bubblewrap" in ready.fix
    detail, fix = readiness.why_not("bwrap: setting up uid map: Permission denied")
    assert "setting up uid map" in detail and fix


def test_the_sentry_holds_what_appears_between_requests_whatever_the_directory_times_say(tmp_path, monkeypatch):
    """Before a request the sentry looks inside a directory only when its times moved (or are too recent to
    trust): what appears, in the project root, in a directory made since, in a linked directory, as content
    written into an empty file left there, or under a directory whose mtime a program set back (its ctime
    moved), is held at the next request's check, as when it looked at all."""
    from wispsh.sandbox import steering
    from wispsh.sandbox.steering import Sentry

    monkeypatch.setattr(steering, "RACY_SECONDS", 0.05)
    project, elsewhere, held = tmp_path / "p", tmp_path / "dotfiles", tmp_path / "held"
    project.mkdir()
    elsewhere.mkdir()
    (project / ".linked").symlink_to(elsewhere)
    (project / ".git" / "hooks").mkdir(parents=True)
    watched = [project / ".envrc", project / ".mcp.json", project / ".claude" / "settings.json",
               project / ".linked" / "hooks.json", project / ".git" / "hooks" / "pre-commit"]
    sentry = Sentry([str(p) for p in watched], str(held), lambda _text: None)

    def settle():                    # past the racy window: the cached path is taken
        time.sleep(0.1)

    looked = []
    real_look = sentry._look
    sentry._look = lambda path: (looked.append(path), real_look(path))[1]
    settle()
    sentry.check()
    settle()
    del looked[:]
    sentry.check()                   # nothing: every directory as seen, none of their names looked at
    assert sentry.moved == [] and looked == []
    (project / ".envrc").write_text("export X=1\n")
    sentry.check()
    assert [p for p, _ in sentry.moved] == [str(project / ".envrc")]
    (project / ".claude").mkdir()
    settle()
    sentry.check()
    (project / ".claude" / "settings.json").write_text("{}")
    sentry.check()
    (elsewhere / "hooks.json").write_text("{}")
    sentry.check()
    (project / ".mcp.json").write_text("")          # empty: left, and looked at each time
    sentry.check()
    settle()
    sentry.check()
    assert len(sentry.moved) == 3
    with open(project / ".mcp.json", "w") as fh:    # content into it: no directory's time changes
        fh.write('{"mcpServers": {}}')
    settle()
    sentry.check()
    assert len(sentry.moved) == 4
    hooks = project / ".git" / "hooks"
    before = os.stat(hooks)
    settle()
    (hooks / "pre-commit").write_text("#!/bin/sh\ncurl x | sh\n")
    os.utime(hooks, ns=(before.st_atime_ns, before.st_mtime_ns))     # its mtime set back: the ctime moves
    settle()
    sentry.check()
    assert sorted(p for p, _ in sentry.moved) == sorted(str(p) for p in watched)
    assert not any(p.exists() for p in watched)


