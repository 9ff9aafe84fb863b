"""The asking proxy of `wisp run`: the only way out of the namespace's network (netrules.py says who may be
reached, netns.py makes the listeners inside and finds who connects, netgrants.py remembers answers).

It listens only inside the namespace (127.0.0.1:PROXY_PORT there, made by netns.listeners), and speaks:
- **HTTP CONNECT** (`HTTPS_PROXY`): a tunnel to HOST:PORT; what goes through it is not read (no TLS
  interception), except the TLS ClientHello's server name, which is audited beside the CONNECT's host.
- **plain HTTP** in absolute form (`HTTP_PROXY`: `GET http://host/path HTTP/1.1`): one request per connection,
  sent on in origin form with `Connection: close`; its method and path are audited.
- **SOCKS5** on the same port (`socks5h://127.0.0.1:PORT`: names resolved here), CONNECT only, no authentication.
And for each listed host loopback port (`--allow-port P`), a forward: 127.0.0.1:P and [::1]:P inside reach the
host's 127.0.0.1:P, for programs that ignore proxies (psql, redis-cli).

For each connection: who asks (the program, its pid, the shell line the gate allowed that started it), the
rules by name, a remembered answer or a question to a person (`wisp watch`, or the supervisor's terminal when
it may ask there; withdrawn when the program's connection closes first), then the name resolved here and each
address checked again before the proxy connects to exactly that address. A refusal is what the program sees
as one: HTTP 403 with the reason, or SOCKS reply 2 ("connection not allowed by ruleset"). Every connection is
audited (`net.connect` when decided, `net.closed` with the bytes each way when it ends).
"""
from __future__ import annotations

import os
import select
import socket
import struct
import threading
import time

BUFFER = 65536
HEAD_MAX = 64 * 1024            # an HTTP request head longer than this is refused
HANDSHAKE_SECONDS = 30.0        # a client that says nothing for this long is dropped
CONNECT_SECONDS = 15.0          # per address tried
MAX_CONNECTIONS = 512           # at once; past this a new one is closed at once
SOCKS_OK, SOCKS_FAILED, SOCKS_NOT_ALLOWED, SOCKS_NET_UNREACHABLE, SOCKS_HOST_UNREACHABLE = 0, 1, 2, 3, 4
SOCKS_REFUSED, SOCKS_NO_COMMAND, SOCKS_NO_ADDRESS_TYPE = 5, 7, 8
SCOPE_OF_CHOICE = {"y": "once", "s": "session", "p": "project", "a": "always"}


class Refused(Exception):
    """Not connected: `status` for HTTP, `socks` for SOCKS5, the reason said to the program and audited."""

    def __init__(self, why: str, status: int = 403, socks: int = SOCKS_NOT_ALLOWED):
        super().__init__(why)
        self.why, self.status, self.socks = why, status, socks


class Who:
    """The process inside at the other end of a connection, as seen from outside."""

    __slots__ = ("pid", "start", "program", "argv", "line", "conn")

    def __init__(self, pid, start, program, argv, line):
        self.pid, self.start, self.program, self.argv, self.line = pid, start, program, argv, line
        self.conn = None            # a socket that reads EOF once the program's connection closed (asking.gone)


class Proxy:
    def __init__(self, *, rules, grants, asker, home: str, config, root: int, inside: int, agent: str,
                 project: str, line_of, say=None):
        """rules: netrules.Settings; grants: netgrants.Grants; asker: asking.Asker; config: a callable giving
        the current Config; root: bwrap's pid (outside); inside: a pid inside (its network namespace's
        tables); line_of(pid): the allowed shell line above a process, or None."""
        self.rules, self.grants, self.asker, self.home, self.config = rules, grants, asker, home, config
        self.root, self.inside, self.agent, self.project, self.line_of = root, inside, agent, project, line_of
        self.say = say or (lambda text: None)
        self.stopping = threading.Event()
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.listeners: list[socket.socket] = []
        self.asking: dict[tuple[str, int], threading.Lock] = {}
        self.asking_lock = threading.Lock()
        self.open = 0                   # connections being served (stop waits for them briefly)

    # ------------------------------------------------------------ serving

    def start(self, listeners) -> None:
        """listeners: (socket, port or None): None is the proxy itself, a port a forward to the host's port."""
        for sock, port in listeners:
            if sock is None:
                continue
            self.listeners.append(sock)
            threading.Thread(target=self._accept, args=(sock, port), name="wisp-run-net", daemon=True).start()

    def stop(self, wait: float = 2.0) -> None:
        """No new connection; those open are given `wait` seconds to end (the program has ended, so their
        ends inside are closed), so that each one's closing event is in the audit."""
        self.stopping.set()
        for sock in self.listeners:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        deadline = time.monotonic() + wait
        while self.open and time.monotonic() < deadline:
            time.sleep(0.01)

    def _accept(self, listener: socket.socket, port) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            if not self.slots.acquire(blocking=False):
                conn.close()
                continue
            threading.Thread(target=self._serve, args=(conn, port), daemon=True).start()

    def _serve(self, conn: socket.socket, port) -> None:
        with self.asking_lock:
            self.open += 1
        try:
            who = self._who(conn)
            conn.settimeout(HANDSHAKE_SECONDS)
            if port is not None:
                self._forward(conn, port, who)
                return
            first = conn.recv(1, socket.MSG_PEEK)
            if first == b"\x05":
                self._socks(conn, who)
            elif first == b"\x04":
                conn.recv(512)                                # (read, so that the close is no reset)
                conn.sendall(b"\x00\x5b" + b"\x00" * 6)       # SOCKS4: rejected (socks5h is what is offered)
            elif first:
                self._http(conn, who)
        except Exception:                   # noqa: BLE001 - a connection that breaks the protocol is closed
            pass
        finally:
            conn.close()
            self.slots.release()
            with self.asking_lock:
                self.open -= 1

    def _who(self, conn: socket.socket) -> Who:
        from wispsh.sandbox import netns
        from wispsh.support import procs

        pid = netns.peer_pid(self.root, self.inside, conn)
        if pid is None:
            return Who(0, None, "?", "", None)
        try:
            with open(f"/proc/{pid}/comm") as fh:
                program = fh.read().strip()
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = [w.decode("utf-8", "replace") for w in fh.read().split(b"\0") if w]
        except OSError:
            program, argv = "?", []
        import shlex

        shown = shlex.join(argv)
        return Who(pid, procs.start_of(pid), program, shown if len(shown) <= 300 else shown[:299] + "…",
                   self.line_of(pid))

    # ------------------------------------------------------------ the protocols

    def _http(self, conn: socket.socket, who: Who) -> None:
        head, rest = _read_head(conn)
        if head is None:
            return _http_refusal(conn, Refused("the request head is too long or incomplete", 400))
        lines = head.split(b"\r\n")
        try:
            method, target, version = lines[0].decode("latin-1").split(" ")
        except ValueError:
            return _http_refusal(conn, Refused("not an HTTP request line", 400))
        if method == "CONNECT":
            try:
                host, port = _authority(target)
            except ValueError as exc:
                return _http_refusal(conn, Refused(str(exc), 400))
            try:
                upstream, event = self._open(host, port, "connect", who, conn)
            except Refused as exc:
                return _http_refusal(conn, exc)
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            self._relay(conn, upstream, event, rest, tls=True)
            return
        from urllib.parse import urlsplit

        url = urlsplit(target)
        if url.scheme != "http" or not url.hostname:
            why = ("only http:// requests are sent on in plain; https goes through CONNECT (HTTPS_PROXY)"
                   if url.scheme else "a request to the proxy itself: it only forwards (absolute URLs or CONNECT)")
            return _http_refusal(conn, Refused(why, 400))
        try:
            host, port = _authority(f"[{url.hostname}]:{url.port or 80}" if ":" in url.hostname else
                                    f"{url.hostname}:{url.port or 80}")
        except ValueError as exc:
            return _http_refusal(conn, Refused(str(exc), 400))
        path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        try:
            upstream, event = self._open(host, port, "http", who, conn, method=method, path=path)
        except Refused as exc:
            return _http_refusal(conn, exc)
        # the Host sent is the URL's: another one would reach another site behind the same address (a CDN's)
        headers = [b"Host: " + url.netloc.encode("latin-1")] + [
            h for h in lines[1:] if h and h.split(b":", 1)[0].strip().lower() not in DROPPED_HEADERS]
        sent = f"{method} {path} {version}".encode("latin-1") + b"\r\n" + b"\r\n".join(
            headers + [b"Connection: close"]) + b"\r\n\r\n"
        self._relay(conn, upstream, event, sent + rest)

    def _socks(self, conn: socket.socket, who: Who) -> None:
        version, count = _exactly(conn, 2)
        methods = _exactly(conn, count)
        if 0 not in methods:
            conn.sendall(b"\x05\xff")
            return
        conn.sendall(b"\x05\x00")
        _v, command, _reserved, kind = _exactly(conn, 4)
        if kind == 1:
            host = socket.inet_ntop(socket.AF_INET, bytes(_exactly(conn, 4)))
        elif kind == 4:
            host = socket.inet_ntop(socket.AF_INET6, bytes(_exactly(conn, 16)))
        elif kind == 3:
            host = bytes(_exactly(conn, _exactly(conn, 1)[0])).decode("utf-8", "replace")
        else:
            conn.sendall(_socks_reply(SOCKS_NO_ADDRESS_TYPE))
            return
        port = struct.unpack("!H", bytes(_exactly(conn, 2)))[0]
        if command != 1:
            conn.sendall(_socks_reply(SOCKS_NO_COMMAND))
            return
        from wispsh.support.netrules import normal_host, valid_name

        host = normal_host(host)
        if not valid_name(host) or not 0 < port < 65536:
            conn.sendall(_socks_reply(SOCKS_NOT_ALLOWED))
            return
        try:
            upstream, event = self._open(host, port, "socks", who, conn)
        except Refused as exc:
            conn.sendall(_socks_reply(exc.socks))
            return
        conn.sendall(_socks_reply(SOCKS_OK))
        self._relay(conn, upstream, event, b"", tls=True)

    def _forward(self, conn: socket.socket, port: int, who: Who) -> None:
        """A listed host port reached inside at 127.0.0.1:port: connected to the host's 127.0.0.1:port."""
        try:
            upstream, event = self._open("127.0.0.1", port, "forward", who, conn)
        except Refused:
            return
        self._relay(conn, upstream, event, b"")

    # ------------------------------------------------------------ deciding and connecting

    def _open(self, host: str, port: int, via: str, who: Who, conn, **request):
        """An upstream socket to host:port and the audit event of this connection; Refused says why not."""
        from wispsh.support import netrules

        event = {"host": host, "port": port, "via": via, **request}
        verdict = netrules.before(self.rules, host, port)
        if verdict.go == "no":
            self._audit("net.connect", who, event, decision="refused", reasons=[verdict.why])
            raise Refused(verdict.why)
        scope = approval = None
        reasons = [verdict.why]
        if verdict.go == "yes":
            decision = "listed-port" if verdict.listed is None else "listed"
        else:
            decision, scope, approval, why = self._ask(host, port, via, who, conn, verdict.why)
            if decision.startswith("denied"):
                self._audit("net.connect", who, event, decision=decision, reasons=[why])
                raise Refused(why)
            reasons.append(why)                 # who answered, and how long it is kept
        try:
            addresses = netrules.resolve(self.rules, host, port)
        except OSError as exc:
            why = f"{host} does not resolve ({exc.strerror or exc})"
            self._audit("net.connect", who, event, decision="failed", reasons=[why], scope=scope, approval_id=approval)
            raise Refused(why, 502, SOCKS_HOST_UNREACHABLE) from None
        checked, refusals = [], []
        for family, sockaddr in addresses:
            why = netrules.after(self.rules, host, port, sockaddr[0], verdict.listed)
            (refusals if why else checked).append(why or (family, sockaddr))
        if not checked:
            why = refusals[0] if refusals else f"{host} resolves to no address"
            self._audit("net.connect", who, event, decision="refused-address", reasons=[why],
                        addresses=[a[1][0] for a in addresses])
            raise Refused(why)
        failure = None
        for family, sockaddr in checked:
            upstream = socket.socket(family, socket.SOCK_STREAM)
            upstream.settimeout(CONNECT_SECONDS)
            try:
                upstream.connect(sockaddr)          # the very address checked: no second resolution
            except OSError as exc:
                upstream.close()
                failure = exc
                continue
            upstream.settimeout(None)
            event["address"] = sockaddr[0]
            self._audit("net.connect", who, event, decision=decision, scope=scope, approval_id=approval,
                        reasons=reasons)
            return upstream, event
        why = f"{host}:{port} ({checked[0][1][0]}): {getattr(failure, 'strerror', None) or failure}"
        self._audit("net.connect", who, event, decision="failed", reasons=[why], scope=scope, approval_id=approval)
        code = SOCKS_REFUSED if isinstance(failure, ConnectionRefusedError) else SOCKS_HOST_UNREACHABLE
        raise Refused(why, 502, code)

    def _ask(self, host: str, port: int, via: str, who: Who, conn, why: str):
        """(decision, scope, approval id, reason): a remembered answer, else a person's. One question per
        host:port at a time: a second connection waits for the first one's answer (and its grant)."""
        with self.asking_lock:
            gate = self.asking.setdefault((host, port), threading.Lock())
        with gate:
            hit = self.grants.covering(host, port)
            if hit is not None:
                return f"cached-{hit[0]}", hit[0], hit[1], f"approved before ({hit[0]})"
            question = self._question(host, port, via, who, why)
            config = self.config()
            reader, stop = _departure(conn)
            who.conn = reader
            try:
                got = self.asker.reach(question, config=config, env={"TERM": os.environ.get("TERM", "")}, req=who)
            finally:
                stop()
            if got is None:
                return ("denied-unasked", None, None, f"{why}, and nobody was there to ask: start `wisp watch` in "
                        "another terminal of yours, or list it (run.net.allow, --allow-host)")
            choice, note, source = got
            if choice not in SCOPE_OF_CHOICE:
                kind = ("denied-withdrawn" if note.startswith("withdrawn") else
                        "denied-timeout" if note.startswith("timed out") else "denied-user")
                return kind, None, None, f"{why}: not approved ({note or 'answered no'}, {source})"
            scope = SCOPE_OF_CHOICE[choice]
            ident, problem = self.grants.remember(host, port, scope)
            if problem:
                self.say(problem)
            return f"asked-{scope}", scope, ident, f"approved ({scope}, {source})"

    def _question(self, host: str, port: int, via: str, who: Who, why: str) -> dict:
        return {"net": {"host": host, "port": port, "via": via, "program": who.program, "pid": who.pid,
                        "argv": who.argv},
                "line": who.line or "", "index": 0, "count": 1, "pattern": f"{host}:{port}", "exact": True,
                "level": "moderate", "reasons": [why], "rules": [], "whole_line": False, "findings": [],
                "parts": [], "cwd": self.project, "agent": self.agent or None, "session": None,
                "this_line_only": False}

    # ------------------------------------------------------------ relaying and the audit

    def _relay(self, client: socket.socket, upstream: socket.socket, event: dict, first: bytes,
               tls: bool = False) -> None:
        """Both ways until both ends are done; the bytes counted, then the closing event. In a tunnel the TLS
        ClientHello's server name is read (never decrypted): one naming another host than the tunnel's is
        refused (domain fronting: another site behind the same address), the tunnel closed before a byte of it
        went on."""
        began = time.monotonic()
        counts = {"sent": 0, "received": 0}
        client.settimeout(None)
        extra = {}
        if tls:
            chunk = first or client.recv(BUFFER)
            sni = server_name(chunk)
            if sni:
                extra["sni"] = sni
            from wispsh.support.netrules import is_address

            if sni and sni != event["host"] and not is_address(event["host"]):
                upstream.close()
                self._audit("net.closed", None, event, decision="refused-sni", sni=sni,
                            reasons=[f"the TLS server name {sni} is not {event['host']}, the host asked for"])
                return
            first = chunk
            if not chunk:
                _shut(upstream)

        def down() -> None:
            _pump(upstream, client, counts, "received")

        back = threading.Thread(target=down, daemon=True)
        back.start()
        try:
            if first:
                upstream.sendall(first)
                counts["sent"] += len(first)
                _pump(client, upstream, counts, "sent")
            elif not tls:
                _pump(client, upstream, counts, "sent")
        except OSError:
            _shut(upstream)
        back.join()
        upstream.close()
        self._audit("net.closed", None, event, decision="closed", seconds=round(time.monotonic() - began, 3),
                    **counts, **extra)

    def _audit(self, kind: str, who: Who | None, target: dict, **fields) -> None:
        from wispsh.decide import audit

        data = dict(target)
        data["pattern"] = f"{target['host']}:{target['port']}"
        if who is not None:
            data.update(pid=who.pid or None, program=who.program, command=who.argv or None, line=who.line)
        data.update(fields)
        try:
            config = self.config()
            audit.append(self.home, [audit.event(kind, source=self.agent or None, cwd=self.project, **data)],
                         config.audit_max_bytes)
        except Exception as exc:            # an audit that cannot be written is said, never a crash of the proxy
            self.say(f"network audit not written: {exc}")


DROPPED_HEADERS = (b"proxy-connection", b"proxy-authorization", b"connection", b"keep-alive", b"host")


def _pump(source: socket.socket, sink: socket.socket, counts: dict, key: str) -> None:
    try:
        while True:
            data = source.recv(BUFFER)
            if not data:
                break
            sink.sendall(data)
            counts[key] += len(data)
    except OSError:
        pass
    _shut(sink)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _exactly(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ValueError("the client went away")
        data += chunk
    return data


def _read_head(conn: socket.socket) -> tuple[bytes | None, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        if len(data) > HEAD_MAX:
            return None, b""
        chunk = conn.recv(BUFFER)
        if not chunk:
            return None, b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _authority(text: str) -> tuple[str, int]:
    """host:port or [v6]:port, checked; ValueError says what is wrong."""
    from wispsh.support.netrules import normal_host, valid_name

    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = text.rpartition(":")
    host = normal_host(host)
    if not port.isdigit() or not 0 < int(port) < 65536 or not valid_name(host):
        raise ValueError(f"not HOST:PORT: {text[:100]!r}")
    return host, int(port)


def _http_refusal(conn: socket.socket, refused: Refused) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}.get(refused.status, "Forbidden")
    body = f"wisp run: not connected: {refused.why}\n".encode()
    try:
        conn.sendall(f"HTTP/1.1 {refused.status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    except OSError:
        pass


def _socks_reply(code: int) -> bytes:
    return bytes([5, code, 0, 1, 0, 0, 0, 0, 0, 0])


def _departure(conn: socket.socket):
    """(a socket that reads EOF once `conn`'s peer has closed its end, a function that stops watching): what
    a question watches to be withdrawn when the program gives up. POLLRDHUP, not readability: the program may
    have sent bytes (a request body) that nobody reads while the person is asked."""
    mine, theirs = socket.socketpair()
    stop_r, stop_w = os.pipe()

    def watch() -> None:
        poller = select.poll()
        poller.register(conn.fileno(), select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        poller.register(stop_r, select.POLLIN)
        try:
            for fd, _mask in poller.poll():
                if fd == conn.fileno():
                    break
        except OSError:
            pass
        theirs.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()

    def stop() -> None:
        os.write(stop_w, b"x")
        watcher.join()
        os.close(stop_r)
        os.close(stop_w)
        mine.close()

    return mine, stop


def server_name(hello: bytes) -> str | None:
    """The server name (SNI) of a TLS ClientHello at the start of `hello`, if it is whole there."""
    try:
        if len(hello) < 5 or hello[0] != 0x16 or hello[5] != 0x01:
            return None
        at = 5 + 4 + 2 + 32                             # record header, handshake header, version, random
        at += 1 + hello[at]                             # session id
        at += 2 + int.from_bytes(hello[at:at + 2], "big")   # cipher suites
        at += 1 + hello[at]                             # compression methods
        end = at + 2 + int.from_bytes(hello[at:at + 2], "big")
        at += 2
        while at + 4 <= min(end, len(hello)):
            kind, size = int.from_bytes(hello[at:at + 2], "big"), int.from_bytes(hello[at + 2:at + 4], "big")
            if kind == 0:                               # server_name: list length, type 0, name length, name
                length = int.from_bytes(hello[at + 7:at + 9], "big")
                name = hello[at + 9:at + 9 + length].decode("ascii")
                return name.lower() if name else None
            at += 4 + size
    except (IndexError, UnicodeDecodeError):
        return None
    return None
