"""The namespace's own network, seen and reached from outside: the proxy's listeners made inside it, and who
inside is at the other end of a connection.

- **Listeners** (`listeners`, made while bwrap waits: `Bridge`). The namespace has a network namespace of its own (bwrap `--unshare-net`), with
  only its loopback. The supervisor makes its listening sockets *in* that network namespace before the program
  starts (bwrap waits on `--block-fd` until they exist): a child of the supervisor, forked while it has one
  thread, joins the user namespace that owns the network namespace and the network namespace itself
  (setns), binds 127.0.0.1:PORT there, sends the sockets back over a socketpair and exits. The supervisor then
  accepts on them from outside, in its own threads. So nothing of the proxy runs inside (no relay a program
  could kill or replace: the port is taken before the program starts, and the process holding it is not in the
  namespace's pid namespace), and nothing listens on the host's network at all.
- **Peers** (`peer_pid`). A TCP peer has no SO_PEERCRED. The connection's local end inside (127.0.0.1:EPHEMERAL)
  is looked up in the namespace's own TCP table (`/proc/<a pid inside>/net/tcp`, which is that network
  namespace's), giving the socket's inode; the process inside holding `socket:[INODE]` among its fds is the
  peer (walked from outside, beneath bwrap).
"""
from __future__ import annotations

import array
import ctypes
import fcntl
import os
import socket

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
NS_GET_USERNS = 0xB701
IP_FREEBIND, IPV6_FREEBIND = 15, 78     # bind before bwrap has brought the namespace's loopback up
HELPER_SECONDS = 10.0


class NetnsError(OSError):
    pass


def listeners(target: int, addresses: list[tuple[str, int]]) -> list[socket.socket | None]:
    """Listening TCP sockets bound at each (address, port) in the network namespace of the process `target`
    (outside pid); None for an IPv6 one that cannot be made (IPv6 off). The caller must have one thread (the
    child is forked). NetnsError says why not."""
    libc = ctypes.CDLL(None, use_errno=True)
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:                                            # the child: never returns
        try:
            parent.close()
            net = os.open(f"/proc/{target}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            owner = fcntl.ioctl(net, NS_GET_USERNS)        # the user namespace that owns it
            if libc.setns(owner, CLONE_NEWUSER) != 0:
                raise OSError(ctypes.get_errno(), "setns(user)")
            if libc.setns(net, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns(net)")
            made, which = [], ""
            for address, port in addresses:
                family = socket.AF_INET6 if ":" in address else socket.AF_INET
                sock = socket.socket(family, socket.SOCK_STREAM)
                try:
                    if family == socket.AF_INET6:
                        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                        sock.setsockopt(socket.IPPROTO_IPV6, IPV6_FREEBIND, 1)
                    else:
                        sock.setsockopt(socket.IPPROTO_IP, IP_FREEBIND, 1)
                    sock.bind((address, port))
                    sock.listen(256)
                except OSError:
                    if family == socket.AF_INET:
                        raise
                    which += "0"
                    continue
                made.append(sock)                   # kept: a socket object collected closes its fd
                which += "1"
            child.sendmsg([b"ok " + which.encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [m.fileno() for m in made]))])
            os._exit(0)
        except BaseException as exc:                        # noqa: BLE001 - said to the parent, then gone
            try:
                child.sendall(f"no {getattr(exc, 'strerror', None) or exc}".encode()[:400])
            finally:
                os._exit(1)
    child.close()
    try:
        parent.settimeout(HELPER_SECONDS)
        said, ancillary, _flags, _addr = parent.recvmsg(512, socket.CMSG_SPACE(4 * len(addresses)))
    except OSError as exc:
        said, ancillary = f"no {exc}".encode(), []
    finally:
        parent.close()
        os.waitpid(pid, 0)
    fds = array.array("i")
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    which = said[3:].decode() if said.startswith(b"ok ") else ""
    if len(which) != len(addresses) or which.count("1") != len(fds):
        for fd in fds:
            os.close(fd)
        raise NetnsError(said.decode("utf-8", "replace").removeprefix("no ") or "the helper said nothing")
    out, given = [], iter(fds)
    for bit in which:
        if bit == "1":
            fd = next(given)
            os.set_inheritable(fd, False)
            out.append(socket.socket(fileno=fd))
        else:
            out.append(None)
    return out


class Bridge:
    """bwrap's --info-fd (its child's pid) and --block-fd (the program waits until the proxy's listeners
    exist inside the namespace's network: netns.listeners)."""

    def __init__(self):
        self.info_r, self.info_w = os.pipe()
        self.block_r, self.block_w = os.pipe()
        self.inside = None

    def fds(self) -> dict:
        return {"info_fd": self.info_w, "block_fd": self.block_r}

    def passed(self) -> tuple:
        return (self.info_w, self.block_r)

    def started(self) -> None:
        """bwrap has them (or failed to start): the supervisor's copies of bwrap's ends go."""
        os.close(self.info_w)
        os.close(self.block_r)

    def listen(self, ports) -> list:
        """The proxy's listener and one per listed host port, made inside; then the program may start."""
        import json
        import select
        import time

        from wispsh.support import netrules

        try:
            data, deadline = b"", time.monotonic() + HELPER_SECONDS
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.info_r], [], [], left)[0]:
                    raise NetnsError("bwrap did not say its pid")
                chunk = os.read(self.info_r, 4096)
                data += chunk
                try:
                    self.inside = int(json.loads(data)["child-pid"])
                    break
                except (ValueError, KeyError):
                    if not chunk:
                        raise NetnsError("bwrap ended before the namespace was made") from None
            wanted = [("127.0.0.1", netrules.PROXY_PORT)]
            for port in sorted(ports):
                wanted += [("127.0.0.1", port), ("::1", port)]
            made = listeners(self.inside, wanted)
            os.write(self.block_w, b"x")
            return [(sock, None if port == netrules.PROXY_PORT else port) for sock, (_a, port) in zip(made, wanted)]
        finally:
            os.close(self.info_r)
            os.close(self.block_w)


def _hex_endpoint(address: str, port: int) -> str:
    """An endpoint as /proc/net/tcp{,6} writes it (addresses in the kernel's byte order)."""
    packed = socket.inet_pton(socket.AF_INET6 if ":" in address else socket.AF_INET, address)
    if len(packed) == 4:
        text = packed[::-1].hex()
    else:
        text = "".join(packed[i:i + 4][::-1].hex() for i in range(0, 16, 4))
    return f"{text.upper()}:{port:04X}"


def socket_inode(inside: int, local: tuple, remote: tuple) -> int | None:
    """The inode of the socket whose local end is `local` and remote end `remote` (address, port), in the
    network namespace of the process `inside`."""
    want_local, want_remote = _hex_endpoint(*local[:2]), _hex_endpoint(*remote[:2])
    for table in ("tcp6", "tcp") if ":" in local[0] else ("tcp",):
        try:
            with open(f"/proc/{inside}/net/{table}") as fh:
                next(fh)
                for row in fh:
                    fields = row.split()
                    if len(fields) > 9 and fields[1] == want_local and fields[2] == want_remote:
                        return int(fields[9])
        except (OSError, StopIteration, ValueError):
            continue
    return None


def holder(root: int, inode: int) -> int | None:
    """The process beneath `root` (outside pid) that holds socket:[inode]; the deepest one if several (a
    child that inherited it made the connection, most likely, when its parent did not)."""
    from wispsh.support import procs

    want = f"socket:[{inode}]"
    found = None
    for pid in procs.descendants(root):
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                if os.readlink(f"/proc/{pid}/fd/{name}") == want:
                    found = pid
                    break
            except OSError:
                continue
    return found


def peer_pid(root: int, inside: int, accepted: socket.socket) -> int | None:
    """The outside pid of the process inside at the other end of `accepted` (a connection to one of our
    listeners), or None when it cannot be found (it closed, or it is not beneath root)."""
    try:
        remote = accepted.getpeername()
        local = accepted.getsockname()
    except OSError:
        return None
    inode = socket_inode(inside, remote, local)         # the peer's own socket: its local end is our remote
    return holder(root, inode) if inode else None


TRIAL = ("import socket,sys\n"
         "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5)\n"
         "s.sendall(b'ping'); sys.stdout.write(s.recv(4).decode())\n")


def trial(bwrap: str) -> tuple[bool, str]:
    """Whether the bridge works here: a namespace with a network of its own (bwrap --unshare-net), a listener
    made inside it from outside (Bridge, as `wisp run` makes the proxy's), a connection from inside answered
    from outside. (ok, what happened)."""
    import subprocess
    import sys

    from wispsh.support.netrules import PROXY_PORT

    bridge = Bridge()
    argv = [bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/",
            "--dev", "/dev", "--proc", "/proc", "--info-fd", str(bridge.info_w), "--block-fd", str(bridge.block_r),
            "--", sys.executable, "-I", "-S", "-c", TRIAL, str(PROXY_PORT)]
    try:
        child = subprocess.Popen(argv, pass_fds=bridge.passed(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL)
    except OSError as exc:
        return False, f"bwrap cannot start: {exc.strerror or exc}"
    finally:
        bridge.started()
    listener = None
    try:
        listener = bridge.listen(())[0][0]
        listener.settimeout(10)
        conn, _ = listener.accept()
        with conn:
            if conn.recv(4) == b"ping":
                conn.sendall(b"pong")
        out, err = child.communicate(timeout=10)
        if out.decode() == "pong":
            return True, "a connection from inside reached the supervisor's listener"
        return False, f"the trial connection failed: {err.decode(errors='replace').strip()[-200:]}"
    except (OSError, subprocess.TimeoutExpired) as exc:
        child.kill()
        child.wait()
        return False, f"{getattr(exc, 'strerror', None) or exc}"
    finally:
        if listener is not None:
            listener.close()
