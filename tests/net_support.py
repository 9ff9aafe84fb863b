"""Shared by the network wall's tests: servers on the host's loopback (plain HTTP, HTTPS with a self-signed
certificate for test names, a bare TCP listener that counts what reaches it) and the config that lists them.
The names (*.wisp.test) resolve only through the proxy (run.net.hosts): inside the namespace nothing resolves
them, so a program that reaches one went through the proxy. Holds no tests itself."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

NAMES = ("web.wisp.test", "tls.wisp.test", "asked.wisp.test", "sneaky.wisp.test", "meta.wisp.test")


def make_cert(where: Path) -> tuple[Path, Path]:
    """A self-signed certificate for every test name and 127.0.0.1 (openssl), and its key."""
    cert, key = where / "cert.pem", where / "key.pem"
    if not cert.exists():
        san = ",".join([f"DNS:{n}" for n in NAMES] + ["IP:127.0.0.1"])
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=tls.wisp.test", "-addext", f"subjectAltName={san}", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True, stdin=subprocess.DEVNULL)
    return cert, key


class Servers:
    """An HTTP server and an HTTPS server (the same files: a bare git repository `repo.git`, served dumb),
    and a bare listener that nothing may reach; each records what came."""

    def __init__(self, root: Path, cert: Path, key: Path):
        self.root = root
        self.requests: list[tuple[str, str, str]] = []       # (server, method, path)
        self.untouched: list[bytes] = []                      # what reached the bare listener
        repo = root / "site" / "repo.git"
        repo.parent.mkdir(parents=True, exist_ok=True)
        if not repo.exists():
            work = root / "work"
            subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
            (work / "f").write_text("x\n")
            git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(git + ["add", "f"], check=True)
            subprocess.run(git + ["commit", "-qm", "one"], check=True)
            subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repo)], check=True)
            subprocess.run(["git", "-C", str(repo), "update-server-info"], check=True)
        (root / "site" / "hello").write_text("hello through the proxy\n")
        self.http = self._serve("http", None)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.https = self._serve("https", context)
        self.bare = socket.socket()
        self.bare.bind(("127.0.0.1", 0))
        self.bare.listen(16)
        self.bare_port = self.bare.getsockname()[1]
        threading.Thread(target=self._bare, daemon=True).start()

    def _serve(self, name: str, context):
        site, seen = str(self.root / "site"), self.requests

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=site, **kw)

            def do_GET(self):
                seen.append((name, "GET", self.path))
                super().do_GET()

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen.append((name, "POST", self.path + " " + body.decode(errors="replace")))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if context is not None:
            server.socket = context.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def _bare(self) -> None:
        while True:
            try:
                conn, _ = self.bare.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                self.untouched.append(conn.recv(100) or b"(connected)")
            except OSError:
                self.untouched.append(b"(connected)")
            conn.close()

    @property
    def http_port(self) -> int:
        return self.http.server_address[1]

    @property
    def https_port(self) -> int:
        return self.https.server_address[1]

    def config(self, **extra) -> dict:
        """run.net listing web and tls (by name, each resolved by the proxy to the host's loopback, whose
        ports are listed too); asked.wisp.test resolves there as well but is not listed."""
        net = {"allow": [f"web.wisp.test:{self.http_port}", f"tls.wisp.test:{self.https_port}",
                         f"sneaky.wisp.test:{self.bare_port}", "meta.wisp.test:80"],
               "allowPorts": [self.http_port, self.https_port],
               "hosts": {"web.wisp.test": "127.0.0.1", "tls.wisp.test": "127.0.0.1", "asked.wisp.test": "127.0.0.1",
                         "sneaky.wisp.test": "127.0.0.1", "meta.wisp.test": "169.254.169.254"}}
        net.update(extra)
        return {"approval": {"waitSeconds": 20}, "run": {"net": net}}

    def close(self) -> None:
        for server in (self.http, self.https):
            server.shutdown()
            server.server_close()
        self.bare.close()


def node_env_proxy() -> bool:
    """Whether this machine's node honours NODE_USE_ENV_PROXY for fetch (22.21+, 24+; 20 does not)."""
    node = shutil.which("node")
    if not node:
        return False
    out = subprocess.run([node, "-p", "process.versions.node"], capture_output=True, text=True).stdout.strip()
    try:
        major, minor = (int(x) for x in out.split(".")[:2])
    except ValueError:
        return False
    return major >= 24 or (major == 22 and minor >= 21)


def serving(tmp_path_factory, name: str):
    """For a module's `servers` fixture: the servers with their certificate, closed after (skips where the
    machine lacks openssl)."""
    import pytest

    if not shutil.which("openssl"):
        pytest.skip("machine lacks openssl")
    root = tmp_path_factory.mktemp(name)
    cert, key = make_cert(root)
    found = Servers(root, cert, key)
    found.cert = cert
    yield found
    found.close()
