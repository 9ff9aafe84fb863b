"""A seccomp filter for the namespace: ioctl(TIOCSTI) and ioctl(TIOCLINUX) fail with EPERM.

TIOCSTI pushes bytes into a terminal's input as if typed. A program inside that shares the person's terminal
could type an answer into a question the supervisor asks there, or, after `wisp run` ends, a command line
into the person's own shell, which would run outside the namespace unasked (CVE-2017-5226, the reason
bubblewrap has --new-session). Kernels since 6.2 can turn TIOCSTI off (dev.tty.legacy_tiocsti=0); where they
do not, this filter does, without taking the terminal away from the agent as --new-session would (no job
control, no SIGWINCH, Ctrl-C to the wrong process group). TIOCLINUX can paste a console selection.

Classic BPF, written out here (no libseccomp): for each ABI the machine can run (x86_64 with i386 and x32;
aarch64 with arm), ioctl with the low 32 bits of its request equal to one of the two gets EPERM; everything
else is allowed. Only the low 32 bits count, as in the kernel (the request is an unsigned int), so setting
high bits does not slip past (CVE-2019-10063 in Flatpak's filter).
"""
from __future__ import annotations

import errno
import os
import platform
import sys

TIOCSTI = 0x5412
TIOCLINUX = 0x541C
BLOCKED = (TIOCSTI, TIOCLINUX)

# BPF opcodes
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_AND_K = 0x54
_RET_K = 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000

# seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]
_NR, _ARCH = 0, 4
_ARG1_LOW = 16 + 8 if sys.byteorder == "little" else 16 + 8 + 4

_X32_BIT = 0x40000000

# (AUDIT_ARCH_*, ioctl syscall numbers, mask applied to nr first or None)
ABIS = {
    "x86_64": ((0xC000003E, (16, 514), ~_X32_BIT & 0xFFFFFFFF),   # x86_64 and x32 (514 | X32 bit)
               (0x40000003, (54,), None)),                          # i386
    "aarch64": ((0xC00000B7, (29,), None),                          # arm64
                (0x40000028, (54,), None)),                         # arm (compat)
}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return (code.to_bytes(2, sys.byteorder) + bytes((jt, jf)) + (k & 0xFFFFFFFF).to_bytes(4, sys.byteorder))


def program(machine: str | None = None) -> bytes | None:
    """The filter for this machine's ABIs as a `struct sock_filter[]`, or None when it has none here."""
    abis = ABIS.get(machine or platform.machine())
    if abis is None:
        return None
    # Layout: per ABI [ld arch; jeq arch (next ABI if not); ld nr; (and mask); jeq ioctl... -> CHECK; ret allow]
    # then CHECK: [ld arg1 low; jeq blocked... -> DENY; ret allow; DENY: ret errno]
    blocks: list[list[tuple]] = []
    for arch, numbers, mask in abis:
        block = [("ld", _ARCH), ("arch", arch), ("ld", _NR)]
        if mask is not None:
            block.append(("and", mask))
        block.extend(("ioctl", n) for n in numbers)
        block.append(("allow",))
        blocks.append(block)
    check = [("ld", _ARG1_LOW)] + [("blocked", b) for b in BLOCKED] + [("allow",), ("deny",)]
    flat = [insn for block in blocks for insn in block] + [("allow",)] + check
    starts, at = [], 0
    for block in blocks:
        starts.append(at)
        at += len(block)
    check_at = at + 1
    deny_at = len(flat) - 1
    out = []
    block_index = 0
    for pc, insn in enumerate(flat):
        if block_index + 1 < len(starts) and pc >= starts[block_index + 1]:
            block_index += 1
        kind = insn[0]
        if kind == "ld":
            out.append(_insn(_LD_W_ABS, 0, 0, insn[1]))
        elif kind == "and":
            out.append(_insn(_AND_K, 0, 0, insn[1]))
        elif kind == "arch":
            nxt = starts[block_index + 1] if block_index + 1 < len(starts) else check_at - 1
            out.append(_insn(_JEQ_K, 0, nxt - pc - 1, insn[1]))
        elif kind == "ioctl":
            out.append(_insn(_JEQ_K, check_at - pc - 1, 0, insn[1]))
        elif kind == "blocked":
            out.append(_insn(_JEQ_K, deny_at - pc - 1, 0, insn[1]))
        elif kind == "allow":
            out.append(_insn(_RET_K, 0, 0, _ALLOW))
        elif kind == "deny":
            out.append(_insn(_RET_K, 0, 0, _ERRNO | errno.EPERM))
    return b"".join(out)


def filter_fd(machine: str | None = None) -> int | None:
    """A readable fd holding the program (for `bwrap --seccomp FD`), or None when there is no filter here."""
    code = program(machine)
    if code is None:
        return None
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, code)              # a few hundred bytes: well under a pipe's buffer
    finally:
        os.close(write_end)
    return read_end


def tiocsti_disabled_by_kernel() -> bool:
    """True when the kernel refuses TIOCSTI to processes without CAP_SYS_ADMIN (dev.tty.legacy_tiocsti=0)."""
    try:
        with open("/proc/sys/dev/tty/legacy_tiocsti") as fh:
            return fh.read().strip() == "0"
    except OSError:
        return False
