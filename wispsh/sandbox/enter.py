"""Run one steering line in the `wisp run` namespace with its steering files writable (view.py says why and
when). Started by the supervisor, outside, as `python -I -S enter.py FD` (FD: a sealed memfd holding SPEC); imports only seccomp.py and
landlock.py beside it. Any failure exits 126 with one `wispsh: not run:` line: the line never runs elsewhere.

SPEC (JSON): target (a pid inside), umount (paths), cwd, argv, env, shell_fd, seccomp (bool), landlock (bool);
or target and rebind (paths): bind those read-only again in the namespace itself (view.py Keeper).
"""
import ctypes
import fcntl
import json
import os
import sys

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
NS_GET_USERNS = 0xB701
MS_REC, MS_PRIVATE, MS_BIND, MS_REMOUNT, MS_RDONLY = 0x4000, 1 << 18, 4096, 32, 1
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
ST_NOSUID, ST_NODEV, ST_NOEXEC = 2, 4, 8
MNT_DETACH = 2
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 24, 38, 22
SECCOMP_MODE_FILTER = 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522

libc = ctypes.CDLL(None, use_errno=True)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # -I leaves the script's directory out


def fail(why: str) -> None:
    os.write(2, f"wispsh: not run: the steering line's view could not be made ({why}); nothing ran\n".encode())
    os._exit(126)


def check(result: int, what: str) -> None:
    if result != 0:
        fail(f"{what}: {os.strerror(ctypes.get_errno())}")


def drop_capabilities() -> None:
    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)          # EINVAL past the last one: ignored

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    data = (Data * 2)()
    check(libc.capset(ctypes.byref(Header(LINUX_CAPABILITY_VERSION_3, 0)), data), "capset")
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def filter_typing() -> None:
    import seccomp

    program = seccomp.program()
    if program is None:
        os.setsid()                                      # as bwrap --new-session: no shared terminal
        return

    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(Prog(len(program) // 8, program)), 0, 0),
          "seccomp")


def rebind(paths) -> None:
    """In the namespace itself: bind each path read-only over itself again (a bind whose file was replaced
    by a rename, here or outside, is gone: the kernel detaches mounts on a deleted dentry)."""
    failed = []
    for path in paths:
        raw = path.encode()
        if libc.mount(raw, raw, None, MS_BIND, None) != 0:
            failed.append(f"{path}: {os.strerror(ctypes.get_errno())}")
            continue
        flags = os.statvfs(path).f_flag & (ST_NOSUID | ST_NODEV | ST_NOEXEC)    # kept, as the kernel demands
        mine = (MS_NOSUID if flags & ST_NOSUID else 0) | (MS_NODEV if flags & ST_NODEV else 0) | \
            (MS_NOEXEC if flags & ST_NOEXEC else 0)
        if libc.mount(None, raw, None, MS_BIND | MS_REMOUNT | MS_RDONLY | mine, None) != 0:
            failed.append(f"{path}: read-only: {os.strerror(ctypes.get_errno())}")
            libc.umount2(raw, MNT_DETACH)
    if failed:
        os.write(2, ("\n".join(failed) + "\n").encode())
        os._exit(1)
    os._exit(0)


def main() -> None:
    with os.fdopen(int(sys.argv[1]), "rb") as told:          # a sealed memfd: argv is readable by anyone
        spec = json.loads(told.read())
    target = spec["target"]
    try:
        mnt = os.open(f"/proc/{target}/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
        pidns = os.open(f"/proc/{target}/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        owner = fcntl.ioctl(mnt, NS_GET_USERNS)           # the user namespace that owns those mounts
    except OSError as exc:
        fail(f"the namespace cannot be opened: {exc.strerror}")
    check(libc.setns(owner, CLONE_NEWUSER), "setns(user)")
    check(libc.setns(mnt, CLONE_NEWNS), "setns(mnt)")
    if spec.get("rebind") is not None:
        rebind(spec["rebind"])
    check(libc.unshare(CLONE_NEWNS), "unshare(mnt)")
    check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount private")
    for path in spec["umount"]:
        for _ in range(8):                                # a path bound more than once: every layer of ours
            if libc.umount2(path.encode(), MNT_DETACH) != 0:
                break
    check(libc.setns(pidns, CLONE_NEWPID), "setns(pid)")
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(spec["cwd"])
        except OSError as exc:
            fail(f"cd {spec['cwd']}: {exc.strerror}")
        drop_capabilities()
        filter_typing()
        if spec["landlock"]:
            import landlock

            landlock.restrict()
        env = {k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape")
               for k, v in spec["env"].items()}
        argv = [a.encode("utf-8", "surrogateescape") for a in spec["argv"]]
        try:
            os.execve(spec["shell_fd"], argv, env)
        except OSError as exc:
            fail(f"exec: {exc.strerror}")
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    os._exit(128 - code if code < 0 else code)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException as exc:
        fail(f"{type(exc).__name__}: {exc}")
