"""Who a program inside `wisp run` may reach: the network wall's settings and rules, as tables. No sockets here.

The namespace has a network of its own (`--unshare-net`: its own loopback, no route out, no DNS). The one way
out is the supervisor's proxy (proxy.py), which asks these rules about each connection, twice:

1. **By name, before anything is resolved** (`before`): a target on the allow-list (DEFAULT_ALLOW, then
   `run.net.allow`/`--allow-host`) goes on; a host-local target (127.0.0.0/8, ::1, `localhost`, the unspecified
   address, the host's own addresses) only on a listed port (`--allow-port`, `run.net.allowPorts`), never asked;
   anything else is a question for a person (proxy.py asks; netgrants.py remembers the answers).
2. **By address, after the proxy resolved the name itself** (`after`), on each address it would connect to, so
   that a name cannot be pointed at something the name check did not see (DNS rebinding): host-local
   addresses only on a listed port; link-local ones (169.254.0.0/16: the cloud's metadata service at
   169.254.169.254, fe80::/10) only when that address is listed; private LAN addresses (10/8, 172.16/12,
   192.168/16, 100.64/10, fc00::/7) only when the target was named in the person's own list or was that
   address itself, asked and approved (an approved or default-listed name that resolves into the LAN is
   refused); multicast, broadcast and reserved addresses never. The proxy connects to the very address it
   checked.

An allow-list entry is `HOST` (ports 80 and 443), `HOST:PORT`, `HOST:*` (any port), or `*.DOMAIN[:PORT]`
(the domain's subdomains, not the domain itself), or an IP address; names are matched lower-case, without a
trailing dot.
"""
from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass, field

MODES = ("off", "ask", "all")       # off: no network at all; ask: the proxy; all: the host's network as it is
DEFAULT_MODE = "ask"
PROXY_PORT = 3128                   # where the proxy listens inside (the namespace's own 127.0.0.1)
WEB_PORTS = (80, 443)               # a bare HOST entry's ports

# The default allow-list: (entry, whose). The model APIs of the agents wispsh knows (their docs' network
# requirements), the package registries and git over https. Telemetry and error-report hosts are not listed:
# a person is asked about them like any other host (or turns them off: DISABLE_TELEMETRY and the like).
DEFAULT_ALLOW = (
    # model APIs and the logins that refresh their tokens
    ("api.anthropic.com", "Claude Code, Aider, opencode (Anthropic's API)"),
    ("claude.ai", "Claude Code's login (OAuth)"), ("console.anthropic.com", "Claude Code's login (API key)"),
    ("platform.claude.com", "Claude Code's login"),
    ("api.openai.com", "Codex, Aider, opencode (OpenAI's API)"),
    ("chatgpt.com", "Codex signed in with ChatGPT (chatgpt.com/backend-api; a path is not seen inside TLS)"),
    ("auth.openai.com", "Codex's login and token refresh"),
    ("generativelanguage.googleapis.com", "Gemini CLI with an API key"),
    ("cloudcode-pa.googleapis.com", "Gemini CLI signed in with Google (Code Assist)"),
    ("oauth2.googleapis.com", "Gemini CLI's token refresh"),
    ("api.githubcopilot.com", "Copilot CLI"), ("*.githubcopilot.com", "Copilot CLI (per-plan endpoints)"),
    ("api.github.com", "Copilot CLI's login, gh"),
    ("openrouter.ai", "opencode, Aider through OpenRouter"),
    ("dashscope.aliyuncs.com", "Qwen Code"), ("dashscope-intl.aliyuncs.com", "Qwen Code (international)"),
    ("portal.qwen.ai", "Qwen Code's login"), ("chat.qwen.ai", "Qwen Code's login"),
    ("models.dev", "opencode's model list"),
    # package registries
    ("pypi.org", "pip, uv (the index)"), ("files.pythonhosted.org", "pip, uv (the files)"),
    ("registry.npmjs.org", "npm, pnpm, yarn"), ("registry.yarnpkg.com", "yarn 1"), ("repo.yarnpkg.com", "yarn 2+"),
    ("crates.io", "cargo"), ("static.crates.io", "cargo (the crates)"), ("index.crates.io", "cargo (the index)"),
    ("proxy.golang.org", "go (modules)"), ("sum.golang.org", "go (checksums)"),
    ("deb.debian.org", "apt on Debian"), ("security.debian.org", "apt on Debian (security)"),
    ("archive.ubuntu.com", "apt on Ubuntu"), ("security.ubuntu.com", "apt on Ubuntu (security)"),
    ("ports.ubuntu.com", "apt on Ubuntu (arm64)"),
    # git over https
    ("github.com", "git over https"), ("codeload.github.com", "git archives, npm's github: dependencies"),
    ("objects.githubusercontent.com", "git LFS, release files"),
    ("release-assets.githubusercontent.com", "release files"),
)

# Addresses, by what they are (checked in this order; the first that holds names it)
LOOPBACK = "host-local"
LINK = "link-local"
LAN = "private network"
NEVER = "not routable"
PUBLIC = "public"
_LINK_NETS = tuple(ipaddress.ip_network(n) for n in ("169.254.0.0/16", "fe80::/10"))
_LAN_NETS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                      "100.64.0.0/10", "fc00::/7"))
_NEVER_NETS = tuple(ipaddress.ip_network(n) for n in ("224.0.0.0/4", "240.0.0.0/4", "ff00::/8", "0.0.0.0/8",
                                                        "::/128", "64:ff9b:1::/48"))
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


class NetError(ValueError):
    """A `run.net` setting that cannot be read (the message says which and what it must be)."""


@dataclass(frozen=True)
class Entry:
    host: str               # lower-case name, "*.domain", or an address in its canonical form
    ports: tuple | None     # None: any port
    own: bool               # the person's (config, flags), not the default list

    def matches(self, host: str, port: int) -> bool:
        if self.ports is not None and port not in self.ports:
            return False
        if self.host.startswith("*."):
            return host.endswith(self.host[1:]) and host != self.host[2:]
        return host == self.host


@dataclass
class Settings:
    mode: str = DEFAULT_MODE
    allow: list = field(default_factory=list)       # Entry
    ports: set = field(default_factory=set)         # host loopback ports reachable inside
    hosts: dict = field(default_factory=dict)       # name -> address: resolved so by the proxy (run.net.hosts)
    defaults: bool = True                           # DEFAULT_ALLOW in force


def normal_host(host: str) -> str:
    """A name lower-cased without a trailing dot; an address in its canonical form (brackets dropped)."""
    host = host.strip().strip("[]").rstrip(".").lower()
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


def valid_name(host: str) -> bool:
    """A DNS name or an address (what a CONNECT or SOCKS request may name): letters, digits, - . _ and no
    empty label."""
    if not host or len(host) > 253:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.split(".")
    return all(0 < len(lab) <= 63 and all(c.isalnum() or c in "-_" for c in lab) and lab.isascii() for lab in labels)


def parse_entry(text: str, own: bool = True) -> Entry:
    """`HOST`, `HOST:PORT`, `HOST:*`, `*.DOMAIN[:PORT]`, `[v6]:PORT`, an address. NetError when it is none."""
    raw = text.strip()
    host, port = raw, None
    if raw.startswith("["):
        host, bracket, rest = raw[1:].partition("]")
        if not bracket:
            raise NetError(f"{text!r}: an address in [ ] needs its ]")
        if rest:
            if not rest.startswith(":"):
                raise NetError(f"{text!r}: not HOST, HOST:PORT or [ADDRESS]:PORT")
            port = rest[1:]
    elif raw.count(":") == 1:
        host, port = raw.split(":")
    wild = host.startswith("*.")
    name = normal_host(host[2:] if wild else host)
    if not valid_name(name) or (wild and is_address(name)):
        raise NetError(f"{text!r}: not a host name, *.domain or address")
    if port is None:
        ports = WEB_PORTS
    elif port == "*":
        ports = None
    elif port.isdigit() and 0 < int(port) < 65536:
        ports = (int(port),)
    else:
        raise NetError(f"{text!r}: the port must be 1-65535 or *")
    return Entry(("*." if wild else "") + name, ports, own)


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def defaults() -> list[Entry]:
    return [parse_entry(entry, own=False) for entry, _whose in DEFAULT_ALLOW]


def settings(section, *, mode=None, allow=(), ports=()) -> Settings:
    """config `run.net` (already checked by config.py), then the flags (`--net`, `--allow-host`, `--allow-port`)."""
    found = Settings()
    section = section if isinstance(section, dict) else {}
    if isinstance(section.get("mode"), str):
        found.mode = section["mode"]
    if section.get("defaults") is False:
        found.defaults = False
    for text in [*section.get("allow", []), *allow]:
        found.allow.append(parse_entry(text))
    for port in [*section.get("allowPorts", []), *ports]:
        found.ports.add(int(port))
    for name, address in (section.get("hosts") or {}).items():
        found.hosts[normal_host(name)] = normal_host(address)
    if mode is not None:
        found.mode = mode
    if found.mode not in MODES:
        raise NetError(f"--net {found.mode!r}: one of {', '.join(MODES)}")
    if PROXY_PORT in found.ports:
        raise NetError(f"port {PROXY_PORT} is the proxy's own inside the namespace: it cannot be listed")
    if found.defaults:
        found.allow = found.allow + defaults()
    return found


def check_section(value) -> str | None:
    """Why config `run.net` is not one this version reads (None when it is): config.py's strict schema."""
    if not isinstance(value, dict):
        return "an object (mode, allow, allowPorts, hosts, defaults)"
    for key, item in value.items():
        if key == "mode":
            if item not in MODES:
                return f"run.net.mode: one of {', '.join(MODES)}"
        elif key == "allow":
            if not isinstance(item, list) or not all(isinstance(v, str) for v in item):
                return "run.net.allow: a list of HOST, HOST:PORT, HOST:* or *.DOMAIN[:PORT]"
            for v in item:
                try:
                    parse_entry(v)
                except NetError as exc:
                    return f"run.net.allow: {exc}"
        elif key == "allowPorts":
            if not isinstance(item, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                     and 0 < v < 65536 and v != PROXY_PORT for v in item):
                return f"run.net.allowPorts: a list of port numbers (1-65535, not {PROXY_PORT}: the proxy's)"
        elif key == "hosts":
            if not isinstance(item, dict) or not all(isinstance(k, str) and valid_name(normal_host(k))
                                                     and isinstance(v, str) and is_address(normal_host(v))
                                                     for k, v in item.items()):
                return "run.net.hosts: an object of host name -> IP address"
        elif key == "defaults":
            if not isinstance(item, bool):
                return "run.net.defaults: true or false (the default allow-list)"
        else:
            return f"run.net.{key} is not a key of run.net (mode, allow, allowPorts, hosts, defaults)"
    return None


# ---------------------------------------------------------------- addresses


_OWN: list = []          # [(time read, set of the host's own addresses)]
OWN_SECONDS = 5.0


def own_addresses() -> set:
    """The host's own addresses (every interface's), read from /proc (no getifaddrs in Python), for a few
    seconds at a time: an interface that comes up later is seen."""
    if _OWN and time.monotonic() - _OWN[0][0] < OWN_SECONDS:
        return _OWN[0][1]
    found = set()
    try:
        with open("/proc/net/fib_trie") as fh:
            rows = fh.read().splitlines()
        for before, row in zip(rows, rows[1:]):
            if row.strip() == "/32 host LOCAL" and "|--" in before:
                found.add(before.split("|--")[1].strip())
    except OSError:
        pass
    try:
        with open("/proc/net/if_inet6") as fh:
            for row in fh:
                hexed = row.split()[0]
                found.add(str(ipaddress.ip_address(bytes.fromhex(hexed))))
    except (OSError, ValueError, IndexError):
        pass
    _OWN[:] = [(time.monotonic(), found)]
    return found


def kind_of(address: str) -> str:
    """What an address is: LOOPBACK (the host itself), LINK, LAN, NEVER or PUBLIC."""
    ip = ipaddress.ip_address(address)
    if getattr(ip, "ipv4_mapped", None) is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified or str(ip) in own_addresses():    # 0.0.0.0 reaches this machine
        return LOOPBACK
    if any(ip in net for net in _NEVER_NETS) or str(ip) == "255.255.255.255":
        return NEVER
    if any(ip in net for net in _LINK_NETS):
        return LINK
    if any(ip in net for net in _LAN_NETS):
        return LAN
    return PUBLIC


# ---------------------------------------------------------------- the two checks


@dataclass(frozen=True)
class Verdict:
    go: str                 # "yes", "no" or "ask"
    why: str                # said to the program (403 body) and audited
    listed: Entry | None = None


def listed(rules: Settings, host: str, port: int) -> Entry | None:
    """The allow-list entry naming host:port (the person's own first), or None."""
    for entry in rules.allow:
        if entry.matches(host, port):
            return entry
    return None


def before(rules: Settings, host: str, port: int) -> Verdict:
    """By name, before resolving: yes (listed, or a listed loopback port), no (host-local and not listed),
    or ask."""
    if host in LOCAL_NAMES or (is_address(host) and kind_of(host) == LOOPBACK):
        if port in rules.ports:
            return Verdict("yes", f"the host's port {port} is listed (--allow-port)")
        return Verdict("no", f"{host}:{port} is this machine itself: a host-local port is reachable only when listed "
                             f"(wisp run --allow-port {port}, or run.net.allowPorts)")
    if is_address(host) and kind_of(host) == NEVER:
        return Verdict("no", f"{host} is not an address anything may be reached at")
    entry = listed(rules, host, port)
    if entry is not None:
        return Verdict("yes", "on the allow-list" + (" (run.net.allow)" if entry.own else " (wisp run's defaults)"),
                       entry)
    return Verdict("ask", f"{host}:{port} is not on the allow-list")


def after(rules: Settings, host: str, port: int, address: str, entry: Entry | None) -> str | None:
    """Why the proxy may not connect to `address` (what `host` resolved to), or None when it may.
    entry: the allow-list entry the name matched (None: a person approved it, or it is an address)."""
    kind = kind_of(address)
    if kind == PUBLIC:
        return None
    if kind == LOOPBACK:
        if port in rules.ports:
            return None
        return (f"{host} resolves to {address}, this machine itself: a host-local port is reachable only when "
                f"listed (--allow-port {port})")
    if kind == LINK:
        if any(e.own and e.host == address and e.matches(address, port) for e in rules.allow):
            return None
        return (f"{host} resolves to {address}, a link-local address (the cloud's metadata service lives at "
                "169.254.169.254): reachable only when that address is listed in run.net.allow")
    if kind == LAN:
        if (entry is not None and entry.own) or host == address:
            return None
        return (f"{host} resolves to {address}, a private network address: list {host} in run.net.allow to "
                "reach it")
    return f"{host} resolves to {address}, which is not an address anything may be reached at"


def resolve(rules: Settings, host: str, port: int) -> list[tuple]:
    """(family, sockaddr) to try, in order: run.net.hosts first, else the system's resolver (the proxy's,
    outside: /etc/hosts and DNS). OSError when the name does not resolve."""
    import socket

    fixed = rules.hosts.get(host)
    if fixed is not None or is_address(host):
        address = fixed or host
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, (address, port) if family == socket.AF_INET else (address, port, 0, 0))]
    found = []
    for family, _type, _proto, _name, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        if (family, sockaddr) not in found and family in (socket.AF_INET, socket.AF_INET6):
            found.append((family, sockaddr))
    return found


def proxy_env(port: int = PROXY_PORT) -> dict:
    """What the agent and its children are started with: every proxy variable the common clients read, in
    both cases (curl and git read only the lower-case http_proxy; Go, Python, npm either). ALL_PROXY names
    the proxy as an HTTP one, though the same port speaks SOCKS5 too (`socks5h://127.0.0.1:PORT` for a client
    told so): with a socks5h:// ALL_PROXY, Python's httpx without its socksio extra (the OpenAI and Anthropic
    SDKs, litellm: mini-swe-agent 2.4.6 here) fails to make any client at all."""
    http = f"http://127.0.0.1:{port}"
    values = {"HTTP_PROXY": http, "HTTPS_PROXY": http, "ALL_PROXY": http, "NO_PROXY": "localhost,127.0.0.1,::1"}
    env = {}
    for name, value in values.items():
        env[name] = env[name.lower()] = value
    env["NODE_USE_ENV_PROXY"] = "1"     # Node 22.21+/24: fetch() and http(s) honour the variables (20 does not)
    return env


def describe(rules: Settings) -> str:
    """One line for `wisp run` and `wisp doctor`: what is allowed."""
    own = [e for e in rules.allow if e.own]
    parts = [f"{len(DEFAULT_ALLOW)} default hosts (model APIs, registries, GitHub)" if rules.defaults else
             "no default hosts (run.net.defaults false)"]
    if own:
        parts.append(f"{len(own)} of yours (run.net.allow)")
    if rules.ports:
        parts.append("host ports " + ", ".join(str(p) for p in sorted(rules.ports)))
    return "; ".join(parts)
