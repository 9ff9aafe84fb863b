"""The network wall of `wisp run` (issue 24): a network namespace of its own, and the supervisor's asking proxy
the only way out. Real bubblewrap, real servers on the host's loopback (HTTP, HTTPS with a self-signed
certificate, a bare listener nothing may reach), real clients inside (a python socket, urllib, curl, git,
node), a real `wisp watch` on a pty. Each test is one or two `wisp run`s doing many probes."""
from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from net_support import node_env_proxy, serving
from run_support import PY, WISP, audit, needs_bwrap, needs_userns, person, spawn_watcher, wisp_run, write_config

pytestmark = [needs_bwrap, needs_userns]

PROBE = r"""
import json, os, socket, ssl, struct, subprocess, sys, urllib.request
out = {}
CA = sys.argv[1]
HTTP, HTTPS, BARE = (int(p) for p in sys.argv[2:5])
def attempt(name, fn):
    try:
        got = fn()
        out[name] = "OK" if got is None else got
    except urllib.error.HTTPError as exc:
        out[name] = f"HTTP {exc.code}: {exc.read().decode(errors='replace').strip()}"
    except OSError as exc:
        out[name] = getattr(exc, "strerror", None) or str(exc)
def socks(host, port, request):
    s = socket.create_connection(("127.0.0.1", 3128), timeout=20)
    s.sendall(b"\x05\x01\x00")
    assert s.recv(2) == b"\x05\x00"
    name = host.encode()
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(name)]) + name + struct.pack("!H", port))
    reply = s.recv(10)
    if reply[1] != 0:
        return f"socks reply {reply[1]}"
    s.sendall(request)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return data.decode(errors="replace").split("\r\n")[0]
        data += chunk
def via_proxy(url):
    s = socket.create_connection(("127.0.0.1", 3128), timeout=30)
    s.sendall(f"GET {url} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            head, _, body = data.decode(errors="replace").partition("\r\n\r\n")
            return head.split("\r\n")[0] + ": " + body.strip()
        data += chunk
def run(argv, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)
    return f"exit {r.returncode}: " + (r.stdout.strip() or r.stderr.strip())[-300:]
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    yield from serving(tmp_path_factory, "net")


def project(tmp_path) -> Path:
    work = tmp_path / "home" / "src" / "app"
    work.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    return work


def probe(env, cwd, servers, code, options=(), timeout=180):
    text = PROBE + textwrap.dedent(code) + "\nprint(json.dumps(out))\n"
    done = wisp_run(env, text, cwd, str(servers.cert), str(servers.http_port), str(servers.https_port),
                    str(servers.bare_port), options=options, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def answer(watcher, port: int, choice: str) -> None:
    """Wait in `wisp watch` for the question about asked.wisp.test:PORT, and answer it."""
    watcher.expect(r"wants to reach asked\.wisp\.test:%d" % port)
    watcher.expect(r"> ")
    watcher.send(choice + "\r")


def connections(env) -> list[dict]:
    return [e for e in audit(env) if e.get("event") == "net.connect"]


def test_listed_hosts_are_reached_through_the_proxy_and_nothing_else_leaves(tmp_path, servers):
    env = person(tmp_path)
    work = project(tmp_path)
    config = servers.config()
    config["approval"]["threshold"] = "high"            # a curl that reads the network runs as a line, unasked
    write_config(env, config)
    node = shutil.which("node")
    before = len(servers.requests)
    got, said = probe(env, work, servers, """
        ctx = ssl.create_default_context(cafile=CA)
        web, tls = f"http://web.wisp.test:{HTTP}", f"https://tls.wisp.test:{HTTPS}"
        # a python socket that ignores proxies: there is no way out
        attempt("raw socket out", lambda: socket.create_connection(("198.51.100.7", 443), timeout=5) and None)
        attempt("raw socket host loopback", lambda: socket.create_connection(("127.0.0.1", BARE), timeout=5) and None)
        def listed_port():          # the forward of --allow-port: the host's 127.0.0.1:HTTP
            s = socket.create_connection(("127.0.0.1", HTTP), timeout=5)
            s.sendall(b"GET /forwarded HTTP/1.0\\r\\n\\r\\n")
            return s.recv(100).decode().split("\\r\\n")[0]
        attempt("raw socket listed port", listed_port)
        # the proxy's port cannot be taken over: it is held from outside before the program starts
        attempt("bind the proxy's port", lambda: socket.socket().bind(("127.0.0.1", 3128)))
        # a python socket speaking SOCKS5 to the proxy, names resolved there (socks5h)
        attempt("socks5 listed", lambda: socks("web.wisp.test", HTTP, b"GET /socks HTTP/1.0\\r\\n\\r\\n"))
        attempt("socks5 unlisted", lambda: socks("asked.wisp.test", HTTP, b"GET /no HTTP/1.0\\r\\n\\r\\n"))
        # urllib: HTTP_PROXY (plain) and HTTPS_PROXY (CONNECT) from the environment
        attempt("urllib http", lambda: urllib.request.urlopen(web + "/hello?x=1", timeout=30).read().decode())
        attempt("urllib https", lambda: urllib.request.urlopen(tls + "/hello", context=ctx, timeout=30).read().decode())
        attempt("urllib unlisted", lambda: urllib.request.urlopen(f"http://asked.wisp.test:{HTTP}/", timeout=30).read())
        # NO_PROXY keeps localhost the namespace's own; asked through the proxy, the host's is refused
        attempt("urllib localhost", lambda: urllib.request.urlopen(f"http://localhost:{BARE}/", timeout=30).read())
        for name in ("127.0.0.1", "localhost", "0.0.0.0", "127.1.2.3", "[::1]", "[::ffff:127.0.0.1]"):
            attempt("proxy " + name, lambda: via_proxy(f"http://{name}:{BARE}/"))
        attempt("urllib rebinding", lambda: urllib.request.urlopen(f"http://sneaky.wisp.test:{BARE}/", timeout=30).read())
        attempt("urllib metadata", lambda: urllib.request.urlopen("http://meta.wisp.test/latest/meta-data/",
                                                                  timeout=30).read())
        attempt("urllib metadata address", lambda: urllib.request.urlopen("http://169.254.169.254/latest/",
                                                                          timeout=30).read())
        # curl, git, node
        out["curl https"] = run(["curl", "-sS", "--cacert", CA, tls + "/hello"])
        # started by a shell line the gate allowed: its connection names that line
        out["curl by a line"] = run(f"curl -sS --cacert {CA} {tls}/by-a-line", shell=True)
        # typed into a gated shell (bash reading a pipe): its connection names the command typed
        out["curl typed"] = run(["bash", "-s"], input=f"curl -sS --cacert {CA} {tls}/hello?typed\\n")
        out["curl socks5h"] = run(["curl", "-sS", "-x", "socks5h://127.0.0.1:3128", web + "/curl-socks"])
        out["curl unlisted"] = run(["curl", "-sS", "--cacert", CA, f"https://asked.wisp.test:{HTTPS}/"])
        out["git ls-remote"] = run(["git", "ls-remote", tls + "/repo.git"], env=dict(os.environ, GIT_SSL_CAINFO=CA))
        node = %r
        if node:
            js = "fetch(process.argv[1]).then(r => r.text()).then(t => console.log('body', t.trim()), e => console.log('failed', e.cause ? e.cause.code : e.message))"
            out["node fetch"] = run([node, "-e", js, tls + "/hello"], env=dict(os.environ, NODE_EXTRA_CA_CERTS=CA))
        # no DNS from inside: no name resolves that /etc/hosts does not hold, no nameserver is reachable
        attempt("resolve", lambda: socket.getaddrinfo("example.com", 443) and None)
        def query():
            for row in open("/etc/resolv.conf"):
                if row.startswith("nameserver"):
                    u = socket.socket(socket.AF_INET6 if ":" in row.split()[1] else socket.AF_INET, socket.SOCK_DGRAM)
                    u.settimeout(2)
                    u.sendto(b"\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x07example\\x03com\\x00\\x00\\x01\\x00\\x01",
                             (row.split()[1], 53))
                    return u.recv(512)
            return "no nameserver"
        attempt("dns query", query)
    """ % node)
    ok = "hello through the proxy"
    assert got["raw socket out"] == "Network is unreachable", got
    assert got["bind the proxy's port"] == "Address already in use", got
    assert got["raw socket host loopback"] == "Connection refused", got        # the namespace's own loopback
    assert got["raw socket listed port"].startswith("HTTP/1.0 404"), got       # the forward of --allow-port
    assert got["socks5 listed"].startswith("HTTP/1.0 404") and got["socks5 unlisted"] == "socks reply 2", got
    assert got["urllib http"] == got["urllib https"] == ok + "\n", got
    assert got["urllib unlisted"].startswith("HTTP 403") and "nobody was there to ask" in got["urllib unlisted"], got
    assert got["urllib localhost"].endswith("Connection refused>"), got
    for name in ("127.0.0.1", "localhost", "0.0.0.0", "127.1.2.3", "[::1]", "[::ffff:127.0.0.1]"):
        said = got["proxy " + name]
        assert said.startswith("HTTP/1.1 403") and "this machine itself" in said, (name, got)
    assert got["urllib rebinding"].startswith("HTTP 403") and "resolves to 127.0.0.1" in got["urllib rebinding"]
    assert got["urllib metadata"].startswith("HTTP 403") and "link-local" in got["urllib metadata"], got
    assert got["urllib metadata address"].startswith("HTTP 403"), got
    assert got["curl https"] == "exit 0: " + ok and got["curl socks5h"].startswith("exit 0: "), got
    assert got["curl by a line"].startswith("exit 0: ") and got["curl typed"] == "exit 0: " + ok, got
    assert got["curl unlisted"].startswith("exit 56") and "403" in got["curl unlisted"], got
    assert got["git ls-remote"].startswith("exit 0: ") and "refs/heads/main" in got["git ls-remote"], got
    if node and node_env_proxy():
        assert got["node fetch"] == "exit 0: body " + ok, got
    elif node:          # Node 20's fetch ignores the proxy variables: it resolves the name itself, and cannot
        assert got["node fetch"].startswith("exit 0: failed E"), got
    assert got["resolve"] != "OK" and got["dns query"] in ("Network is unreachable", "no nameserver"), got
    assert servers.untouched == [], servers.untouched            # the bare listener was never reached
    came = [r for r in servers.requests[before:]]
    assert ("http", "GET", "/hello?x=1") in came and ("https", "GET", "/hello") in came, came
    assert not any(path == "/no" or path.startswith("/latest") for _s, _m, path in came), came
    # the audit has every connection: who, where, what was decided
    seen = connections(env)
    by = {(e["host"], e["port"], e["via"], e["decision"]) for e in seen}
    assert ("web.wisp.test", servers.http_port, "http", "listed") in by, by
    assert ("tls.wisp.test", servers.https_port, "connect", "listed") in by, by
    assert ("web.wisp.test", servers.http_port, "socks", "listed") in by, by
    assert ("asked.wisp.test", servers.http_port, "socks", "denied-unasked") in by, by
    assert ("127.0.0.1", servers.bare_port, "http", "refused") in by and ("::1", servers.bare_port, "http", "refused") in by
    assert ("sneaky.wisp.test", servers.bare_port, "http", "refused-address") in by, by
    assert ("127.0.0.1", servers.http_port, "forward", "listed-port") in by, by
    plain = [e for e in seen if e["via"] == "http" and e["decision"] == "listed"]
    assert any(e.get("method") == "GET" and e.get("path") == "/hello?x=1" for e in plain), plain
    assert all(e["program"] and e["pid"] for e in seen), [e for e in seen if not e.get("pid")]
    curl = [e for e in seen if e["program"] == "curl"]
    assert len(curl) == 5 and all(e["command"].startswith("curl -sS ") for e in curl), curl
    lined = sorted(e["line"] for e in curl if e["line"])
    assert len(lined) == 2 and lined[0].endswith("/by-a-line") and lined[1].endswith("/hello?typed"), curl
    assert all(line.startswith("curl -sS --cacert ") for line in lined), curl
    closed = [e for e in audit(env) if e.get("event") == "net.closed"]
    assert any(e.get("sni") == "tls.wisp.test" and e["received"] > 0 for e in closed), closed
    # each connection that went through is audited when it opened and when it closed
    opened = sorted((e["host"], e["port"], e["via"]) for e in seen if e["decision"].startswith("listed"))
    assert opened == sorted((e["host"], e["port"], e["via"]) for e in closed), (opened, closed)


def test_an_asked_host_stays_approved_for_the_scope_given_and_a_question_dies_with_its_connection(tmp_path, servers):
    env = person(tmp_path)
    work = project(tmp_path)
    write_config(env, servers.config())
    watcher = spawn_watcher(env)
    script = textwrap.dedent(f"""
        import os, socket, sys, time, urllib.request
        def get(url):
            try:
                return urllib.request.urlopen(url, timeout=60).status
            except urllib.error.HTTPError as exc:
                return exc.code
        asked = "http://asked.wisp.test:{servers.http_port}/hello"
        print("session", get(asked), flush=True)        # answered s
        print("again", get(asked), flush=True)          # not asked: approved for the session
        # a client that gives up while the person is asked: the question is withdrawn
        s = socket.create_connection(("127.0.0.1", 3128))
        s.sendall(b"CONNECT asked.wisp.test:{servers.https_port} HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
        while not os.path.exists("close-now"):      # made by the test once the question is on the screen
            time.sleep(0.05)
        s.close()
        print("approved", get("http://asked.wisp.test:{servers.bare_port}/"), flush=True)   # approved, yet 403
    """)
    try:
        agent = subprocess.Popen([WISP, "run", "--", PY, "-c", script], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        answer(watcher, servers.http_port, "s")
        watcher.expect(r"wants to reach asked\.wisp\.test:%d" % servers.https_port)
        (work / "close-now").touch()
        watcher.expect(r"withdrawn", timeout=20)
        answer(watcher, servers.bare_port, "y")
        out, err = agent.communicate(timeout=120)
    finally:
        watcher.terminate(force=True)
    assert agent.returncode == 0, err[-2000:]
    assert out.split("\n")[:3] == ["session 200", "again 200", "approved 403"], (out, err[-1500:])
    decided = [(e["host"], e["port"], e["decision"]) for e in connections(env)]
    host = "asked.wisp.test"
    assert decided.count((host, servers.http_port, "asked-session")) == 1, decided
    assert decided.count((host, servers.http_port, "cached-session")) == 1, decided
    assert (host, servers.https_port, "denied-withdrawn") in decided, decided
    # approved by a person, but the name resolves to the host's loopback and that port is not listed: the
    # address is checked after the answer (a name is resolved only once it may be reached: no DNS for refusals)
    assert (host, servers.bare_port, "refused-address") in decided, decided
    assert servers.untouched == []
    # a session grant ends with the run: the next run asks again (nobody: refused)
    done = wisp_run(env, f"""
        import urllib.request
        try:
            urllib.request.urlopen("http://asked.wisp.test:{servers.http_port}/hello", timeout=30)
        except urllib.error.HTTPError as exc:
            print(exc.code)
    """, work)
    assert done.stdout.strip() == "403", done.stderr[-2000:]


def test_project_and_always_answers_outlive_the_run_and_once_is_one_connection(tmp_path, servers):
    env = person(tmp_path)
    work = project(tmp_path)
    other = tmp_path / "home" / "src" / "other"
    other.mkdir(parents=True)
    write_config(env, servers.config())
    fetch = """
        import ssl, sys, urllib.request
        ctx = ssl.create_default_context(cafile=sys.argv[1])       # (named in argv: shown inside the private /tmp)
        for target in sys.argv[2:]:
            try:
                print(urllib.request.urlopen(f"{target}/hello", timeout=60, context=ctx).status)
            except urllib.error.HTTPError as exc:
                print(exc.code)
            except OSError as exc:
                print("error", exc)
    """
    web, tls = f"http://asked.wisp.test:{servers.http_port}", f"https://asked.wisp.test:{servers.https_port}"
    watcher = spawn_watcher(env)
    try:
        agent = subprocess.Popen([WISP, "run", "--", PY, "-c", textwrap.dedent(fetch), str(servers.cert), web, web,
                                  tls], cwd=work, env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for choice in ("y", "p"):        # once: the second connection to the same host:port is asked again
            answer(watcher, servers.http_port, choice)
        answer(watcher, servers.https_port, "a")
        out, err = agent.communicate(timeout=120)
    finally:
        watcher.terminate(force=True)
    assert out.split() == ["200", "200", "200"], (out, err[-1500:])
    stored = json.loads((Path(env["WISP_HOME"]) / "net-approvals.json").read_text())["approvals"]
    assert {(a["port"], a["scope"], a["directory"]) for a in stored} == {
        (servers.http_port, "project", str(work)), (servers.https_port, "always", None)}, stored
    # the next run, nobody to ask: project in this project only, always everywhere
    here = wisp_run(env, fetch, work, str(servers.cert), web, tls)
    there = wisp_run(env, fetch, other, str(servers.cert), web, tls)
    assert here.stdout.split() == ["200", "200"] and there.stdout.split() == ["403", "200"], (here, there)
    decisions = [e["decision"] for e in connections(env)]
    assert decisions.count("asked-once") == 1 and "cached-project" in decisions and "cached-always" in decisions


def test_net_off_has_no_way_out_and_net_all_is_the_hosts_network(tmp_path, servers):
    env = person(tmp_path)
    work = project(tmp_path)
    write_config(env, servers.config())
    code = """
        attempt("proxy env", lambda: os.environ.get("HTTPS_PROXY", "none"))
        attempt("proxy port", lambda: socket.create_connection(("127.0.0.1", 3128), timeout=5).close())
        attempt("host loopback", lambda: socket.create_connection(("127.0.0.1", BARE), timeout=5).close())
    """
    off, _ = probe(env, work, servers, code, options=("--net=off",))
    assert off == {"proxy env": "none", "proxy port": "Connection refused", "host loopback": "Connection refused"}
    assert servers.untouched == []
    everything, _ = probe(env, work, servers, code, options=("--net=all",))
    assert everything == {"proxy env": "none", "proxy port": everything["proxy port"], "host loopback": "OK"}
    time.sleep(0.3)
    assert servers.untouched == [b"(connected)"]
    servers.untouched.clear()
    # a flag's typo and a config one are said before anything starts
    bad = subprocess.run([WISP, "run", "--net=sometimes", "--", "true"], cwd=work, env=env, capture_output=True,
                         text=True, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and "sometimes" in bad.stderr
    write_config(env, {"run": {"net": {"allow": ["exa mple.com"]}}})
    bad = wisp_run(env, "print(1)", work)
    assert bad.returncode == 1 and "run.net.allow" in bad.stderr, bad.stderr


def test_the_supervisors_terminal_asks_about_a_host_when_the_program_holds_it(tmp_path, servers):
    import pexpect

    env = person(tmp_path)
    work = project(tmp_path)
    write_config(env, servers.config())
    code = ("import urllib.request\n"
            f"print('STATUS', urllib.request.urlopen('http://asked.wisp.test:{servers.http_port}/hello', timeout=60).status)")
    child = pexpect.spawn("script", ["-qfc", f"{WISP} run -- {PY} -c \"{code}\"", "/dev/null"], env=env, cwd=str(work),
                          encoding="utf-8", dimensions=(40, 120), timeout=60)
    try:
        child.expect(r"wants to reach asked\.wisp\.test:%d" % servers.http_port)
        child.expect_exact("] no")
        child.send("y\r")
        child.expect(r"STATUS (\d+)")
        assert child.match.group(1) == "200"
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert [(e["host"], e["decision"]) for e in connections(env)] == [("asked.wisp.test", "asked-once")]
