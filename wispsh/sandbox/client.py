"""The wispsh client inside a `wisp run` namespace, and the wire format it and the supervisor speak.

Inside the namespace every shell binary is a launcher that runs `main` here: it sends the supervisor its argv,
directory, environment and stdin (as an fd), waits for the answer, and then either execs the real shell the
answer names (on a sealed fd of checked text, when there is one) or writes what it was told and exits. It
never decides anything and never falls back to running: when the supervisor cannot be reached it refuses.

Imports: only what `python -I -S` has loaded already (posix, sys, _signal), `_socket`, and support/inherited.py
(the caller's signals and closed fds, given back before the exec). No os, no json, no struct:
this runs once per shell an agent starts (bench/bench_run.py measures it).

Wire (one request, one answer per connection). A message is `<length>\\n<body>`; the body is NUL-separated
fields (argv words, paths and environment entries cannot hold a NUL):
  request  "wisp-run/1", KIND ("launcher": this file bound over a shell, called by the path in argv[0];
           "wispsh": a wispsh entry point inside), ARGC, ARGV..., CWD, ENVC, "K=V"..., TTY ("1"/"0": stdin
           is a terminal). Ancillary: SCM_RIGHTS with fds 0, 1, 2 when all are open (a steering line runs on
           them, view.py), else fd 0 alone when it is open (the script, for sh -s).
  answer   "exec", SHELL (its path outside, for messages), ARGC, ARGV..., ENVC, "K=V" (set) or "K" (removed)
           ..., HELD ("-" or the index of the argv word to become ". /dev/fd/N"), STDERR (warnings written
           before the exec, e.g. an audit that could not be written). Ancillary: an fd on
           the real shell's binary, opened by the supervisor outside, then the held text's sealed fd if any. The
           client execs the binary through that fd (fexecve): the real shells have no path inside the namespace.
           "exit", STATUS, STDOUT, STDERR.
Who asks is the peer's pid by SO_PEERCRED, read by the supervisor from outside; nothing in a request is an
answer to a question, and nothing in it says who the sender is.
"""
import posix
import sys

if __package__:                      # imported as wispsh.sandbox.client (cli/sh.py, the supervisor)
    from wispsh.support import inherited
else:                                # the launcher: a top-level module, support/ on sys.path beside it
    import inherited

MAGIC = b"wisp-run/1"
MARKER = b"wispsh-run-launcher"      # in a launcher's head: realshell.is_wispsh skips it, inside_run finds it
MAX_MESSAGE = 64 << 20               # an environment or argv past this is not one an exec would take
REFUSED = 126                        # realshell.REFUSED (this file imports nothing of the package)
RUN_SHELL = b"/bin/sh"               # bound over in every namespace: the launcher tells where the socket is


def pack(fields) -> bytes:
    body = b"\0".join(fields)
    return b"%d\n" % len(body) + body


def unpack(body: bytes) -> list:
    return body.split(b"\0")


def peer(sock) -> tuple[int, int]:
    """(pid, uid) of the process at the other end of a unix socket, from the kernel (SO_PEERCRED)."""
    import _socket

    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return (int.from_bytes(creds[0:4], sys.byteorder, signed=True), int.from_bytes(creds[4:8], sys.byteorder))


def receive(sock, fds_wanted: int = 2):
    """(the body of one message, the fds that came with it, close-on-exec); (None, fds) when the peer closed
    early."""
    fds: list = []
    try:
        return _receive(sock, fds_wanted, fds)
    except BaseException:                   # (a timeout, a reset): the fds that came are not kept open
        for fd in fds:
            try:
                posix.close(fd)
            except OSError:
                pass
        raise


def _receive(sock, fds_wanted: int, fds: list):
    import _socket

    space = _socket.CMSG_SPACE(4 * fds_wanted) if fds_wanted else 0
    data = b""
    while b"\n" not in data:
        chunk, ancillary, _flags, _addr = sock.recvmsg(65536, space, _socket.MSG_CMSG_CLOEXEC)
        fds.extend(_fds_of(ancillary))
        if not chunk:
            return None, fds
        data += chunk
        if len(data) > 24 and b"\n" not in data[:24]:
            return None, fds
    head, _, body = data.partition(b"\n")
    if not head.isdigit() or int(head) > MAX_MESSAGE:
        return None, fds
    want = int(head)
    parts = [body]
    have = len(body)
    while have < want:
        chunk = sock.recv(min(want - have, 1 << 20))
        if not chunk:
            return None, fds
        parts.append(chunk)
        have += len(chunk)
    body = b"".join(parts)
    if len(body) != want:
        return None, fds
    return body, fds


def _session(socket_path: bytes, fields, fds) -> None:
    """A gated shell (wispsh/session/): become its driver, a Python of the same install, which spawns the real
    shell through the fd the supervisor sent and asks the supervisor about every command."""
    if not fds:
        _refuse("the wisp run supervisor sent no shell to run")
    posix.set_inheritable(fds[0], True)
    here = __file__.rsplit("/", 3)[0] if __file__.count("/") >= 3 else "."
    code = ("import sys; sys.path[:0] = [sys.argv[1]]; from wispsh.session.inside import main; "
            "main(sys.argv[2:])")
    argv = [sys.executable.encode(), b"-I", b"-S", b"-c", code.encode(), here.encode(), socket_path,
            b"%d" % fds[0], *fields[1:]]
    env = dict(posix.environ)
    env[inherited.RECORD.encode()] = inherited.record_value()     # the caller's signals, for the real shell
    try:
        posix.execve(sys.executable, argv, env)
    except OSError as exc:
        _refuse(f"cannot start the gated shell's driver: {exc.strerror or exc}")


def _fds_of(ancillary) -> list:
    import _socket

    fds = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds.extend(int.from_bytes(data[i:i + 4], sys.byteorder, signed=True)
                       for i in range(0, len(data) - len(data) % 4, 4))
    return fds


def inside_run(shell: bytes = RUN_SHELL) -> bytes | None:
    """The request socket's path when this process is inside a `wisp run` namespace (its /bin/sh is a launcher,
    bound read-only by the supervisor); None outside one. Read from the file, not the environment: nothing a
    line sets or unsets changes the answer."""
    try:
        fd = posix.open(shell, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return None
    try:
        head = posix.read(fd, 4096)
    except OSError:
        return None
    finally:
        posix.close(fd)
    if not head.startswith(b"#!") or MARKER not in head:
        return None
    start = head.find(b"main(b'")
    end = head.find(b"'", start + 7)
    if start < 0 or end < 0:
        return None
    return head[start + 7:end]


def _refuse(why: str):
    try:
        posix.write(2, ("wispsh: not run: " + why + "; nothing ran\n").encode("utf-8", "replace"))
    finally:
        posix._exit(REFUSED)


def _write(fd: int, text: bytes) -> None:
    """All of `text` to `fd`, or as much as it takes: an fd the caller closed (or a reader gone) takes none."""
    try:
        while text:
            text = text[posix.write(fd, text):]
    except OSError:
        pass


def _encode(word: str) -> bytes:
    return word.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def request(argv, *, kind: bytes, cwd: bytes, env: dict, tty: bool) -> bytes:
    fields = [MAGIC, kind, b"%d" % len(argv), *argv, cwd, b"%d" % len(env)]
    fields.extend(k + b"=" + v for k, v in env.items())
    fields.append(b"1" if tty else b"0")
    return pack(fields)


def main(socket_path: bytes, argv, launcher: bool = True):
    """Ask the supervisor about this invocation, then do what it says. Never returns; any error refuses."""
    inherited.keep()                 # the caller's signals and closed fds, before the socket takes an fd
    try:
        _main(socket_path, argv, launcher)
    except BaseException as exc:          # SystemExit included: nothing but an exec or a refusal leaves here
        _refuse(f"internal error in the wisp run client ({type(exc).__name__}: {exc})")
    _refuse("the wisp run client ended without an answer")


def _main(socket_path: bytes, argv, launcher: bool):
    import _socket

    words = [_encode(w) for w in argv]
    try:
        cwd = posix.getcwdb()
    except OSError:
        cwd = b""
    try:
        tty = posix.isatty(0)
    except OSError:
        tty = False
    message = request(words, kind=b"launcher" if launcher else b"wispsh", cwd=cwd, env=posix.environ, tty=tty)
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)     # close-on-exec: the shell never has it
    try:
        sock.connect(socket_path)
    except OSError as exc:
        _refuse(f"the wisp run supervisor cannot be reached ({exc.strerror or exc}): the namespace has no gate")
    if peer(sock)[1] != posix.getuid():
        _refuse("the wisp run socket is held by another user")
    ancillary = []
    open_fds = [fd for fd in (0, 1, 2) if not inherited.was_closed(fd)]    # (a closed one holds a placeholder)
    if open_fds == [0, 1, 2] or open_fds[:1] == [0]:      # all three (a steering line runs on them), or stdin
        sent = open_fds if open_fds == [0, 1, 2] else [0]
        ancillary = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, b"".join(fd.to_bytes(4, sys.byteorder) for fd in sent))]
    try:
        sock.sendmsg([message], ancillary)
        body, fds = receive(sock)
    except OSError as exc:
        _refuse(f"the wisp run supervisor went away ({exc.strerror or exc})")
    if body is None:
        _refuse("the wisp run supervisor went away before it answered")
    fields = unpack(body)
    if fields[0] == b"exit" and len(fields) >= 4:
        for fd, text in ((1, fields[2]), (2, b"\0".join(fields[3:]))):
            _write(fd, text)
        posix._exit(int(fields[1]))
    if fields[0] == b"session" and len(fields) > 4:
        _session(socket_path, fields, fds)
    if fields[0] != b"exec" or len(fields) < 4:
        _refuse("the wisp run supervisor's answer is not understood")
    shell = fields[1]
    argc = int(fields[2])
    args = fields[3:3 + argc]
    envc = int(fields[3 + argc])
    env = dict(posix.environ)
    for entry in fields[4 + argc:4 + argc + envc]:
        key, sep, value = entry.partition(b"=")
        if sep:
            env[key] = value
        else:                                              # a name alone: not passed on
            env.pop(key, None)
    held = fields[4 + argc + envc]
    said = fields[5 + argc + envc] if len(fields) > 5 + argc + envc else b""
    _write(2, said)                                        # warnings of a line that runs (an audit not written)
    if not fds:
        _refuse("the wisp run supervisor sent no shell to run")
    if held != b"-":
        if len(fds) < 2:
            _refuse("the wisp run supervisor sent no text to run")
        posix.set_inheritable(fds[1], True)               # the shell reads the checked text from it
        args[int(held)] = b". /dev/fd/%d" % fds[1]
    inherited.give_back(env)                               # the caller's signal dispositions and mask
    try:
        posix.execve(fds[0], args, env)                   # close-on-exec: the shell keeps no fd on itself
    except OSError as exc:
        _refuse(f"cannot exec {shell.decode('utf-8', 'replace')}: {exc.strerror or exc}")
