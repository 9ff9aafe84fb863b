"""Network programs: fetching, uploading files, remote shells, raw sockets."""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

CURL_SHORT_VALUES = "ouTdFHXAbcCeEKmrUwxyYzQzEhP"
CURL_LONG_VALUES = ("output", "upload-file", "data", "data-binary", "data-raw", "data-ascii", "data-urlencode",
                    "form", "form-string", "header", "request", "user-agent", "cookie", "cookie-jar", "config",
                    "user", "proxy", "referer", "max-time", "connect-timeout", "retry", "json", "url",
                    "output-dir", "write-out", "cacert", "cert", "key", "dump-header", "trace", "trace-ascii",
                    "stderr", "limit-rate", "range", "resolve", "connect-to", "proto", "proto-redir",
                    "netrc-file", "unix-socket", "variable", "expand-data", "etag-save", "etag-compare",
                    "hsts", "alt-svc", "create-dirs", "retry-delay", "retry-max-time", "max-filesize",
                    "interface", "oauth2-bearer", "aws-sigv4", "quote", "ftp-port", "mail-from", "mail-rcpt",
                    "upload-flags", "url-query")
CURL_UPLOADS = ("d", "data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "F", "form", "json",
                "T", "upload-file", "expand-data")


def _upload_source(c: Cmd, value: str, option: str) -> None:
    """An upload option's value: `@file` (or -T file) sends that file; `@-` sends the part's input."""
    value = value.replace("\\@", "")
    if option in ("T", "upload-file"):
        source = value
    elif "@" in value and option not in ("data-raw",):
        source = value.split("@", 1)[1]
        if option in ("F", "form") and ";" in source:
            source = source.split(";", 1)[0]
    elif "<" in value and option in ("F", "form"):
        source = value.split("<", 1)[1]
    else:
        c.at_least(M, "sends data to the network")
        if UNKNOWN in value:
            c.facts.net_send = True
        return
    c.facts.net_send = True
    if source in ("-", ""):
        c.at_least(H, "uploads its input to the network")
        return
    where = c.read(source, "uploads")
    if where.cls in places.SECRET_CLASSES or where.cls in (places.WISP, places.WISP_KEY, places.DOTFILE, places.HOME, places.ROOT,
                                                          places.ANCESTOR):
        c.at_least(D, f"uploads {where.path} ({where.cls}) to the network")
    else:
        c.at_least(H, f"uploads {source.replace(UNKNOWN, '…')} to the network")


def _remote_name(url: str) -> str:
    """The file name curl -O saves a URL as (the last path segment), or a stand-in."""
    path = url.split("://", 1)[1].split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1] if "/" in path else ""
    return name if name and UNKNOWN not in name and name not in (".", "..") else "downloaded-file"


def curl(c: Cmd) -> None:
    o = c.opts(CURL_SHORT_VALUES, CURL_LONG_VALUES)
    c.at_least(M, "reads the network")
    method = (o.value("X", "request") or "").upper()
    if method == "DELETE":
        c.at_least(H, "sends a DELETE request")
    elif method in ("PUT", "PATCH", "POST"):
        c.at_least(M, f"sends a {method} request")
    for name in CURL_UPLOADS:
        for value in o.all(name):
            _upload_source(c, value, name)
    for config in o.all("K", "config"):
        c.read(config)
        c.at_least(H, "curl reads options from a config file")
    for key_file in o.all("key", "cert", "netrc-file"):
        c.read(key_file)
    outputs = o.all("o", "output")
    if o.has("O", "remote-name", "remote-name-all"):
        urls = [a for a in o.operands + o.all("url") if "://" in a]
        names = [_remote_name(url) for url in urls] or ["downloaded-file"]
        outputs.extend(f"{o.value('output-dir') or '.'}/{name}" for name in names)
    for out in outputs:
        if out == "-":
            continue
        where = c.write(out, "saves a download to")
        c.facts.fetch_writes.append(where.path)
    for jar in o.all("c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "etag-save", "stderr"):
        if jar != "-":
            c.write(jar)
    if not outputs or "-" in outputs:
        c.facts.net_fetch = True
    if c.via_xargs:
        c.facts.net_send = True       # words from its input become part of the request


WGET_SHORT_VALUES = "OoaPeiBTtwUYlQDIXAR"
WGET_LONG_VALUES = ("output-document", "output-file", "append-output", "directory-prefix", "execute",
                    "input-file", "base", "post-data", "post-file", "body-data", "body-file", "header",
                    "user-agent", "method", "user", "password", "tries", "timeout", "wait", "level",
                    "load-cookies", "save-cookies", "config", "accept", "reject", "domains",
                    "exclude-domains", "include-directories", "exclude-directories", "use-askpass")


def wget(c: Cmd) -> None:
    o = c.opts(WGET_SHORT_VALUES, WGET_LONG_VALUES)
    c.at_least(M, "reads the network")
    for name in ("post-file", "body-file"):
        for source in o.all(name):
            c.facts.net_send = True
            where = c.read(source, "uploads")
            if where.cls in places.SECRET_CLASSES or where.cls in (places.WISP, places.WISP_KEY, places.DOTFILE):
                c.at_least(D, f"uploads {where.path} ({where.cls}) to the network")
            else:
                c.at_least(H, f"uploads {source.replace(UNKNOWN, '…')} to the network")
    for data in o.all("post-data", "body-data"):
        c.at_least(M, "sends data to the network")
        if UNKNOWN in data:
            c.facts.net_send = True
    if o.all("e", "execute") or o.value("config") or o.value("use-askpass"):
        c.at_least(H, "wget runs commands from -e/--config/--use-askpass")
    out = o.value("O", "output-document")
    if out is None or out == "-":
        c.facts.net_fetch = out == "-" or (out is None and o.has("q") and False)
        if out is None:
            prefix = o.value("P", "directory-prefix") or "."
            c.write(prefix, "saves downloads in")
            c.facts.fetch_writes.append(c.place(prefix).path + "/")
    else:
        where = c.write(out, "saves a download to")
        c.facts.fetch_writes.append(where.path)
    for log in o.all("o", "output-file", "a", "append-output", "save-cookies"):
        c.write(log)
    if c.via_xargs:
        c.facts.net_send = True


def nc(c: Cmd) -> None:
    o = c.opts("eciIOpPqsTVwWXxm", ("exec", "sh-exec", "lua-exec", "proxy"))
    c.facts.net_send = True
    c.facts.net_fetch = True
    if o.all("e", "c", "exec", "sh-exec", "lua-exec"):
        c.at_least(D, "connects a shell to the network (reverse or bind shell)")
    elif o.has("z"):
        c.facts.net_send = False
        c.facts.net_fetch = False
        c.at_least(L, "checks whether a port is open")
    elif o.has("l", "listen"):
        c.at_least(H, "listens for network connections")
    else:
        c.at_least(H, "opens a raw network connection")


def socat(c: Cmd) -> None:
    c.facts.net_send = True
    c.facts.net_fetch = True
    addresses = [a.lower() for a in c.args if not a.startswith("-") or a == "-"]
    for address in c.args:
        kind, colon, rest = address.partition(":")
        if colon and kind.lower() in ("file", "open", "gopen", "create"):
            where = c.read(rest.split(",", 1)[0], "relays")
            if where.cls in places.SECRET_CLASSES:
                c.at_least(D, f"sends {where.path} ({where.cls}) over the network")
    if any(re.match(r"(exec|system)[:,]", a) for a in addresses):
        c.at_least(D, "connects a program or shell to a socket")
    else:
        c.at_least(H, "relays data over the network")


SSH_SHORT_VALUES = "BbcDEeFIiJLlmOoPpQRSwW"
SSH_CODE_OPTIONS = ("proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match",
                    "remotecommand", "proxyjump", "include", "pkcs11provider", "securitykeyprovider",
                    "controlpath", "sendenv", "setenv")


def ssh(c: Cmd) -> None:
    o = c.opts(SSH_SHORT_VALUES, stop_at_operand=True)
    c.facts.net_send = True
    c.facts.net_fetch = True
    for option in o.all("o"):
        name = re.split(r"[= ]", option, 1)[0].lower()
        if name in ("proxycommand", "localcommand", "knownhostscommand", "remotecommand", "match"):
            c.at_least(H, f"ssh -o {name} runs a local command")
        elif name in SSH_CODE_OPTIONS:
            c.at_least(M, f"ssh -o {name}")
    if o.all("F"):
        c.at_least(H, "ssh reads another config (it can run commands)")
    if o.all("R", "L", "D", "w") or o.has("f", "N"):
        c.at_least(H, "opens a tunnel")
    if o.has("A"):
        c.at_least(M, "forwards your ssh agent")
    remote_command = o.operands[1:]
    if remote_command:
        c.at_least(H, "runs commands on another machine")
    elif o.has("T") and o.operands and "github.com" in o.operands[0]:
        c.at_least(L, "checks ssh authentication")
    else:
        c.at_least(M, "opens a remote shell")


def _remote(word: str) -> bool:
    if word.startswith(("/", ".", "~")):
        return False
    head = word.split("/", 1)[0]
    return ":" in head or word.startswith(("rsync://", "scp://", "sftp://"))


def _copy_across(c: Cmd, sources, dest, what: str, contents_slash: bool = False) -> None:
    """scp/rsync: local sources to a remote dest are uploads; a remote source to a local dest is a download."""
    if dest is not None and _remote(dest):
        c.facts.net_send = True
        c.at_least(H, f"{what} uploads files to another machine")
        for source in sources:
            if _remote(source):
                continue
            where = c.read(source, "uploads")
            if where.cls in places.SECRET_CLASSES or where.cls in (places.HOME, places.ROOT, places.ANCESTOR,
                                                                  places.WISP, places.WISP_KEY, places.DOTFILE):
                c.at_least(D, f"copies {where.cls} off this machine")
    elif dest is not None:
        remote_source = any(_remote(s) for s in sources)
        if remote_source:
            c.at_least(M, f"{what} downloads files")
        for source in sources:
            if not _remote(source):
                c.read(source)
        c.write_into(dest, [s if not _remote(s) else s.split(":", 1)[1] or "." for s in sources], "writes",
                     contents_slash=contents_slash)


def scp(c: Cmd) -> None:
    o = c.opts("cFiJlMoPSDX")
    if o.all("S") or any(re.split(r"[= ]", v, 1)[0].lower() in ("proxycommand", "localcommand")
                         for v in o.all("o")):
        c.at_least(H, "scp runs a program to connect")
    operands = o.operands + ([c.place(".").path] if c.via_xargs else [])
    if len(operands) >= 2:
        _copy_across(c, operands[:-1], operands[-1], "scp")
    else:
        c.at_least(H, "copies files to or from another machine")


RSYNC_LONG_VALUES = ("rsh", "rsync-path", "exclude", "include", "filter", "files-from", "exclude-from",
                     "include-from", "password-file", "log-file", "backup-dir", "suffix", "chmod", "chown",
                     "temp-dir", "compare-dest", "copy-dest", "link-dest", "out-format", "port", "timeout",
                     "bwlimit", "max-size", "min-size", "partial-dir", "usermap", "groupmap", "info", "debug",
                     "sockopts", "outbuf", "remote-option", "checksum-choice", "compress-choice", "iconv")


def rsync(c: Cmd) -> None:
    o = c.opts("eTBfM", RSYNC_LONG_VALUES, longs=("delete", "delete-before", "delete-after", "delete-during",
                                                  "delete-excluded", "remove-source-files"))
    if o.value("e", "rsh") is not None or o.value("rsync-path") is not None:
        c.at_least(H, "rsync runs a program to connect (-e/--rsync-path)")
    c.at_least(M, "copies files")
    if any(flag.startswith("delete") for flag in o.flags) or o.has("remove-source-files"):
        c.at_least(H, "rsync deletes files")
    operands = o.operands
    if len(operands) >= 2:
        dest = operands[-1]
        _copy_across(c, operands[:-1], dest, "rsync", contents_slash=True)
        if any(flag.startswith("delete") for flag in o.flags):
            where = c.place(dest)
            if not _remote(dest) and where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SYSTEM):
                c.at_least(D, f"rsync --delete makes {where.cls} a copy of something else")


def ftp(c: Cmd) -> None:
    c.facts.net_send = True
    c.at_least(H, "transfers files over the network")


def telnet(c: Cmd) -> None:
    c.facts.net_send = True
    c.facts.net_fetch = True
    c.at_least(H, "opens a raw network connection")


def httpie(c: Cmd) -> None:
    c.at_least(M, "reads the network")
    c.facts.net_fetch = True
    for arg in c.args:
        if "@" in arg and re.match(r"^[A-Za-z0-9_.-]*[:=]?=?@", arg):
            source = arg.split("@", 1)[1]
            c.facts.net_send = True
            where = c.read(source, "uploads")
            if where.cls in places.SECRET_CLASSES:
                c.at_least(D, f"uploads {where.path} ({where.cls}) to the network")
            else:
                c.at_least(H, "uploads a file to the network")
    if c.args and c.args[0].upper() in ("POST", "PUT", "PATCH", "DELETE"):
        c.at_least(M, "sends data to the network")


def lookup(c: Cmd) -> None:
    c.facts.net_send = True        # the name asked for leaves the machine (DNS exfiltration)
    c.at_least(L, "asks the network a question")
    if any(UNKNOWN in a for a in c.args):
        c.at_least(M, "looks up a name known only at run time")


GH_READ = lazy_re(r"^(pr|issue|repo|run|workflow|release|gist|label|search|status|browse|cache|ruleset|project"
                     r"|codespace|org|variable|secret|extension|alias|config|auth|api)? ?(list|view|status|checks"
                     r"|diff|watch|download|ls|get|clone|search)?$")


def gh(c: Cmd) -> None:
    words = [a for a in c.args if not a.startswith("-")]
    group = words[0] if words else ""
    verb = words[1] if len(words) > 1 else ""
    if group in ("", "help", "version", "--version", "status", "browse", "search"):
        return
    if group == "auth":
        if verb == "token":
            c.facts.secret_source = "prints your GitHub token"
            c.at_least(H, "prints your GitHub token")
        elif verb not in ("status",):
            c.at_least(M, f"gh auth {verb}")
        return
    if group == "api":
        method = next((c.args[i + 1] for i, a in enumerate(c.args[:-1]) if a in ("-X", "--method")), "GET")
        if method.upper() != "GET" or any(a in ("-f", "-F", "--field", "--raw-field", "--input") for a in c.args):
            c.at_least(H, "gh api changes GitHub data")
            c.facts.net_send = True
        else:
            c.at_least(L, "reads the GitHub API")
        return
    if verb in ("list", "view", "status", "checks", "diff", "watch", "ls", "get", "search", "download"):
        c.at_least(L if verb != "download" else M, f"gh {group} {verb} reads GitHub")
        return
    if verb == "clone" or group in ("clone",):
        c.at_least(M, "clones a repository")
        return
    if verb in ("delete", "archive") or (group == "repo" and verb == "edit" and "--visibility" in " ".join(c.args)):
        c.at_least(D if group in ("repo", "release") else H, f"gh {group} {verb} deletes or exposes GitHub data")
        return
    c.facts.net_send = True
    c.at_least(H, f"gh {group} {verb} publishes to GitHub")
    for word in words[2:]:
        if "/" in word or word.startswith(("~", ".")):
            where = c.read(word, "uploads")
            if where.cls in places.SECRET_CLASSES or where.cls in (places.DOTFILE, places.WISP, places.WISP_KEY):
                c.at_least(D, f"publishes {where.path} ({where.cls})")


def openssl(c: Cmd) -> None:
    sub = c.args[0] if c.args else ""
    if sub in ("s_client", "s_server"):
        c.facts.net_send = True
        c.facts.net_fetch = True
        c.at_least(H, "opens a TLS connection")
        return
    o = c.opts("", (), args=[a.replace("-out", "--out").replace("-in", "--in") if a in ("-out", "-in") else a
                             for a in c.args[1:]])
    if sub in ("enc", "base64") and ("-d" in c.args or "-decode" in c.args):
        c.facts.decoder = True
    for i, arg in enumerate(c.args):
        if arg == "-out" and i + 1 < len(c.args):
            c.write(c.args[i + 1])
        if arg == "-in" and i + 1 < len(c.args):
            c.read(c.args[i + 1])
    c.at_least(L, "runs openssl")


def aria2(c: Cmd) -> None:
    c.at_least(M, "downloads files")
    if any(a.startswith("--on-download") for a in c.args):
        c.at_least(H, "aria2c runs a hook command")


def mail(c: Cmd) -> None:
    """mail/mailx/mutt/sendmail: sends its input (and attachments) to someone else."""
    c.facts.net_send = True
    c.at_least(H, f"{c.name} sends mail")
    o = c.opts("sacbrfqAiSeE", ("subject", "attach", "cc", "bcc", "from"))
    for attachment in o.all("a", "A", "attach") if c.name != "sendmail" else ():
        where = c.read(attachment, "attaches")
        if where.cls in places.SECRET_CLASSES or where.cls in (places.WISP, places.WISP_KEY, places.DOTFILE, places.HOME):
            c.at_least(D, f"mails {where.path} ({where.cls})")


RCLONE_UPLOADS = frozenset({"copy", "sync", "move", "copyto", "moveto", "bisync", "rcat"})
RCLONE_READS = frozenset({"ls", "lsd", "lsl", "lsf", "lsjson", "cat", "size", "about", "listremotes", "tree",
                          "check", "md5sum", "sha1sum", "hashsum", "version", "help", "ncdu"})


def rclone(c: Cmd) -> None:
    o = c.opts("", ("config", "include", "exclude", "filter", "transfers", "checkers", "bwlimit", "log-file",
                    "backup-dir", "min-age", "max-age", "filter-from", "include-from", "exclude-from"))
    words = o.operands
    verb = words[0] if words else ""
    if verb in RCLONE_READS:
        c.at_least(L, "rclone reads remote storage")
        return
    if verb not in RCLONE_UPLOADS:
        c.at_least(M if verb in ("config", "mkdir") else H, f"rclone {verb} changes remote storage")
        return
    c.at_least(M, f"rclone {verb} copies files")
    if verb in ("sync", "move", "moveto", "bisync"):
        c.at_least(H, f"rclone {verb} deletes files")
    if len(words) >= 3:
        _copy_across(c, words[1:-1], words[-1], "rclone")
        if not _remote(words[-1]):
            return
        for source in words[1:-1]:
            if not _remote(source) and c.place(source).cls in (places.SECRET, places.PROJECT_SECRET, places.HOME,
                                                               places.DOTFILE, places.WISP, places.WISP_KEY):
                c.at_least(D, f"copies {source} off this machine")


RULES = {
    "mail": mail, "mailx": mail, "mutt": mail, "sendmail": mail, "neomutt": mail, "s-nail": mail,
    "msmtp": mail, "swaks": mail, "rclone": rclone,
    "curl": curl, "wget": wget, "wget2": wget, "nc": nc, "ncat": nc, "netcat": nc, "socat": socat, "ssh": ssh,
    "autossh": ssh, "mosh": ssh, "scp": scp, "rsync": rsync, "sftp": ftp, "ftp": ftp, "lftp": ftp,
    "tftp": ftp, "telnet": telnet, "http": httpie, "https": httpie, "xh": httpie, "xhs": httpie,
    "ping": lookup, "ping6": lookup, "dig": lookup, "nslookup": lookup, "host": lookup,
    "traceroute": lookup, "tracepath": lookup, "whois": lookup, "mtr": lookup, "openssl": openssl,
    "aria2c": aria2, "axel": aria2, "gh": gh,
}
