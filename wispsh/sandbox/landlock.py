"""Landlock scopes for the namespace: no abstract unix socket of the host and no signal to a process outside.

Abstract unix sockets (`@/tmp/.X11-unix/X0`, D-Bus's and many agents' own) have no file, so no mount hides
them; they belong to the network namespace, which `wisp run` shares with the host until the network wall
(issue "the network through an asking proxy"). Landlock ABI 6 (Linux 6.12) scopes them instead: a process in
the domain may connect only to abstract sockets made inside it. The domain is made in bwrap's parent just
before bwrap starts (preexec), so everything inside is in it, it cannot be left (nested namespaces and
sandboxes inherit it) and it handles no file access (nested sandboxes may still mount).

Raw syscalls through ctypes, x86_64 and aarch64 numbers (the same on both).
"""
from __future__ import annotations

import ctypes
import os

SYS_CREATE_RULESET, SYS_RESTRICT_SELF = 444, 446
CREATE_RULESET_VERSION = 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2
SCOPED_ABI = 6
PR_SET_NO_NEW_PRIVS = 38


class _Attr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def abi() -> int:
    """The Landlock ABI version of this kernel; 0 when Landlock is off or absent."""
    import platform

    if platform.machine() not in ("x86_64", "aarch64"):
        return 0
    found = _libc().syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(found, 0)


def can_scope() -> bool:
    return abi() >= SCOPED_ABI


def restrict() -> None:
    """Put this process (and all it starts) in a domain scoping abstract sockets and signals. For preexec: in
    the child, after fork. Raises OSError when the kernel refuses."""
    libc = _libc()
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    attr = _Attr(0, 0, SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    fd = libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                      ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        if libc.syscall(SYS_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(fd)
