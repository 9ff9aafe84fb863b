"""Package managers and build tools: registry installs are moderate; URLs, VCS and foreign paths are not."""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

_URL = lazy_re(r"^(https?|ftp|file)://|\s@\s*(https?|file)://|^[A-Za-z0-9_.-]+\s*@\s*(https?|git\+|file)")
_VCS = lazy_re(r"^(git|hg|svn|bzr)\+|^git://|^(github|gitlab|bitbucket|gist):|\.git(#.*)?$|^git@")


def _spec(c: Cmd, spec: str, tool: str, scoped_shorthand: bool = False) -> None:
    """One thing to install: a registry name, a URL, a VCS address or a path."""
    if UNKNOWN in spec:
        c.at_least(H, f"{tool} installs something known only at run time")
        return
    if _URL.search(spec) or (" @ " in spec and "://" in spec):
        c.at_least(D, f"{tool} installs from a URL ({spec}); its build scripts run unreviewed")
        return
    if _VCS.search(spec):
        c.at_least(D, f"{tool} installs from a repository ({spec}); its build scripts run unreviewed")
        return
    if scoped_shorthand and re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(#.*)?", spec):
        c.at_least(H, f"{tool} installs {spec} straight from GitHub")
        return
    if spec.startswith(("/", "./", "../", "~", "file:")) or spec in (".", "..") or \
            spec.endswith((".whl", ".tar.gz", ".zip", ".tgz", ".tar.bz2")):
        where = c.place(spec[5:] if spec.startswith("file:") else spec)
        if where.cls in (places.PROJECT, places.PROJECT_ROOT):
            c.at_least(M, f"{tool} installs the project's own code")
        else:
            c.at_least(H, f"{tool} installs code from {where.path}")
        return
    c.at_least(M, f"{tool} installs from the registry")


PIP_VALUES_SHORT = "rceiftCbd"
PIP_VALUES_LONG = ("requirement", "constraint", "editable", "index-url", "extra-index-url", "find-links",
                   "target", "prefix", "root", "src", "trusted-host", "platform", "python-version",
                   "implementation", "abi", "no-binary", "only-binary", "progress-bar", "upgrade-strategy",
                   "config-settings", "global-option", "install-option", "report", "cache-dir", "log",
                   "proxy", "cert", "client-cert", "timeout", "retries", "exists-action", "python", "group",
                   "dest", "d", "build", "uploaded-prior-to", "keyring-provider", "index")
PIP_READ_ONLY = frozenset({"list", "show", "freeze", "check", "search", "help", "inspect", "hash", "debug",
                           "completion", "--version", "-V", "index", "cache"})


GATE_PACKAGE = lazy_re(r"^wispsh(?:$|[\[<>=!~; @])", re.I)


def _touches_the_gate(c: Cmd, verb: str, words) -> None:
    """Installing, reinstalling or removing wispsh itself swaps the gate for another."""
    if verb in ("install", "uninstall", "remove", "upgrade", "reinstall", "add", "sync", "inject") and any(
            GATE_PACKAGE.match(w) for w in words):
        c.at_least(D, f"{c.name} {verb} changes the gate itself (the wispsh package)")


def pip(c: Cmd) -> None:
    o = c.opts(PIP_VALUES_SHORT, PIP_VALUES_LONG, stop_at_operand=True)
    verb = o.operands[0] if o.operands else None
    if verb is None or verb in PIP_READ_ONLY:
        return
    _touches_the_gate(c, verb, o.operands[1:])
    rest = c.opts(PIP_VALUES_SHORT, PIP_VALUES_LONG, args=o.operands[1:])
    _index_options(c, rest, "pip")
    if verb in ("install", "download", "wheel", "add", "sync", "compile"):
        for req in rest.all("r", "requirement", "c", "constraint"):
            c.read(req)
            c.at_least(M, f"pip installs what {req} lists")
        for editable in rest.all("e", "editable"):
            _spec(c, editable, "pip")
        for spec in rest.operands:
            _spec(c, spec, "pip")
        target = rest.value("t", "target", "prefix", "root")
        if target:
            c.write(target, "installs into")
        if not rest.operands and not rest.all("r", "requirement", "e", "editable"):
            c.at_least(M, f"pip {verb}")
    elif verb in ("uninstall", "remove"):
        c.at_least(M, "pip uninstalls packages")
    elif verb == "config":
        sub = rest.operands[0] if rest.operands else ""
        if sub in ("set", "unset", "edit"):
            c.at_least(H, "changes pip's configuration (where it installs from)")
    else:
        c.at_least(M, f"pip {verb}")


def _index_options(c: Cmd, o, tool: str) -> None:
    for name in ("i", "index-url", "extra-index-url", "f", "find-links", "trusted-host", "index", "registry",
                 "default-index", "source"):
        for value in o.all(name):
            c.at_least(H, f"{tool} installs from another index ({value.replace(UNKNOWN, '…')})")


def uv(c: Cmd) -> None:
    o = c.opts("p", ("python", "directory", "project", "config-file", "cache-dir", "color"), stop_at_operand=True)
    verb = o.operands[0] if o.operands else None
    rest = o.operands[1:]
    if verb == "tool" and rest:
        _touches_the_gate(c, rest[0], rest[1:])
    elif verb in ("add", "remove"):
        _touches_the_gate(c, verb, rest)
    if verb == "pip":
        c.delegate_to = ["pip", *rest]
    elif verb in ("add", "sync", "lock", "venv", "init", "remove", "export", "tree", "build", "python", "self",
                  "version", "cache", "format"):
        r = c.opts(PIP_VALUES_SHORT, PIP_VALUES_LONG + ("with", "extra", "group"), args=rest)
        _index_options(c, r, "uv")
        if verb == "add":
            for spec in r.operands:
                _spec(c, spec, "uv")
        elif verb not in ("tree", "version", "cache", "export"):
            c.at_least(M, f"uv {verb} changes the environment")
    elif verb == "run":
        c.at_least(M, "uv runs project code")
        r = c.opts("p", ("with", "python", "directory", "project", "extra", "group", "env-file", "index",
                         "with-requirements"), stop_at_operand=True, args=rest)
        for spec in r.all("with"):
            _spec(c, spec, "uv")
        if r.operands:
            c.delegate_to = list(r.operands)
    elif verb == "tool":
        sub = rest[0] if rest else ""
        if sub in ("install", "upgrade"):
            for spec in [a for a in rest[1:] if not a.startswith("-")][:1]:
                _spec(c, spec, "uv tool")
        elif sub == "run":
            c.at_least(M, "runs a tool from the registry")
        elif sub not in ("list", "dir"):
            c.at_least(M, f"uv tool {sub}")
    elif verb == "publish":
        c.at_least(H, "publishes a package")
    elif verb is not None:
        c.at_least(M, f"uv {verb}")


def pipx(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    if verb in ("list", "environment", "--version", None):
        return
    _touches_the_gate(c, verb, c.args[1:])
    c.at_least(M, f"pipx {verb}")
    if verb in ("install", "run", "inject", "upgrade"):
        o = c.opts("", ("spec", "index-url", "pip-args", "python", "suffix"), args=c.args[1:])
        _index_options(c, o, "pipx")
        for spec in o.all("spec") + o.operands[:1]:
            _spec(c, spec, "pipx")


def uvx(c: Cmd) -> None:
    c.at_least(M, "runs a tool from the registry")
    o = c.opts("", ("from", "with", "python", "index"), stop_at_operand=True)
    _index_options(c, o, "uvx")
    for spec in o.all("from", "with"):
        _spec(c, spec, "uvx")


def poetry(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    rest = c.args[1:]
    if verb in ("show", "check", "version", "env", "about", "list", "search", "--version", None):
        return
    if verb == "run":
        c.at_least(M, "poetry runs project code")
        if rest:
            c.delegate_to = list(rest)
    elif verb == "add":
        for spec in [a for a in rest if not a.startswith("-")]:
            _spec(c, spec, "poetry")
    elif verb == "publish":
        c.at_least(H, "publishes a package")
    elif verb in ("source", "config"):
        c.at_least(H if any(a in ("add", "repositories") or "repositor" in a for a in rest) else M,
                   f"changes poetry's {verb}")
    else:
        c.at_least(M, f"poetry {verb}")


NPM_READ_ONLY = frozenset({"ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "search", "help",
                           "doctor", "fund", "explain", "why", "root", "bin", "prefix", "query", "docs", "bugs",
                           "repo", "home", "--version", "-v", "version", "whoami", "ping", "licenses", "-h",
                           "--help", "config-get", "get", "audit", "sbom"})
NPM_INSTALL = frozenset({"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
                         "add", "ci", "clean-install", "install-clean", "update", "up", "upgrade", "udpate",
                         "install-test", "it", "install-ci-test", "cit"})
NPM_RUN = frozenset({"test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart", "build",
                     "rebuild", "rb", "dev", "lint", "format", "typecheck", "pack", "link", "ln", "init",
                     "create", "prune", "dedupe", "ddp", "uninstall", "remove", "rm", "r", "un", "unlink",
                     "version", "install-links", "serve", "preview", "watch", "check", "generate", "setup",
                     "why", "patch", "import", "upgrade-interactive"})
NPM_EXEC = frozenset({"exec", "x", "dlx"})
NPM_PUBLISH = frozenset({"publish", "unpublish", "deprecate", "dist-tag", "owner", "access", "team", "token",
                         "adduser", "login", "logout", "org", "star", "unstar", "hook", "npm-publish"})
NPM_VALUE_LONGS = ("registry", "prefix", "workspace", "w", "userconfig", "globalconfig", "cache", "tag",
                   "otp", "scope", "filter", "dir", "cwd", "C", "script-shell", "node-options")


def npm(c: Cmd) -> None:
    tool = c.name
    o = c.opts("wC", NPM_VALUE_LONGS, stop_at_operand=True)
    _index_options(c, o, tool)
    for shell_option in o.all("script-shell", "node-options"):
        c.at_least(H, f"{tool} runs scripts with {shell_option.replace(UNKNOWN, '…')}")
    verb = o.operands[0] if o.operands else None
    rest = o.operands[1:]
    after = c.opts("wC", NPM_VALUE_LONGS, args=rest)
    _index_options(c, after, tool)
    if verb is None:
        if tool in ("yarn", "bun", "pnpm") and not any(a in ("--version", "-v", "--help", "-h") for a in c.args):
            c.at_least(M, f"{tool} installs the project's dependencies")
        return
    if verb in NPM_READ_ONLY and not (verb == "version" and after.operands) and not (
            verb == "audit" and "fix" in rest):
        return
    if verb in NPM_INSTALL:
        specs = after.operands
        if not specs:
            c.at_least(M, f"{tool} installs the project's dependencies (their install scripts run)")
        for spec in specs:
            _spec(c, spec, tool, scoped_shorthand=True)
        return
    if tool in ("npx", "pnpx") or verb in NPM_EXEC:
        words = c.args if tool in ("npx", "pnpx") else rest
        for i, word in enumerate(words):     # -c/--call: a shell command line, judged by what it runs
            if word in ("-c", "--call") and i + 1 < len(words) or word.startswith("--call="):
                text = word.split("=", 1)[1] if word.startswith("--call=") else words[i + 1]
                if UNKNOWN in text:
                    c.at_least(H, f"{tool} --call runs a command known only at run time")
                else:
                    c.code_text(text, f"{tool} --call runs", at_least=H)
    if tool == "yarn" and verb == "exec" and rest:
        c.at_least(M, "yarn exec runs a command")
        c.code_text(" ".join(rest), "yarn exec runs", at_least=M)
        return
    if verb in NPM_EXEC or tool in ("npx", "bunx", "pnpx"):
        _npx(c, rest if verb in NPM_EXEC else o.operands, tool)
        return
    if verb in NPM_PUBLISH:
        c.at_least(H, f"{tool} {verb} publishes or changes your registry account")
        if verb == "unpublish":
            c.at_least(D, f"{tool} unpublish deletes a published package")
        return
    if verb in ("config", "c", "set"):
        sub = rest[0] if rest and verb != "set" else "set"
        key = (rest[1] if verb != "set" and len(rest) > 1 else (rest[0] if rest else "")).split("=", 1)[0]
        if sub in ("get", "list", "ls"):
            return
        if re.search(r"registry|script-shell|node-options|git|proxy|cafile|strict-ssl|ignore-scripts|prefix",
                     key):
            c.at_least(H, f"{tool} config changes {key} (where it installs from or what it runs)")
        else:
            c.at_least(M, f"changes {tool}'s config")
        return
    if verb == "audit":
        c.at_least(M, f"{tool} audit fix changes dependencies")
        return
    if verb == "set-script" or (verb == "pkg" and rest[:1] == ["set"] and any("scripts" in a for a in rest)):
        c.at_least(H, f"{tool} {verb} plants a script that later installs and builds run")
        return
    if verb in NPM_RUN:
        c.at_least(M, f"{tool} {verb} runs project code")
        return
    if tool in ("yarn", "pnpm", "bun") and UNKNOWN not in verb:
        c.at_least(M, f"{tool} {verb} runs a project script")
        return
    c.at_least(M, f"{tool} {verb}")


def _npx(c: Cmd, words: list[str], tool: str) -> None:
    o = c.opts("p", ("package", "call", "c"), stop_at_operand=True, args=words)
    c.at_least(M, f"{tool} runs a package from the registry")
    for spec in o.all("p", "package"):
        _spec(c, spec, tool, scoped_shorthand=True)
        c.at_least(H, f"{tool} fetches {spec} and runs one of its programs")
    if o.all("c", "call"):
        c.at_least(H, f"{tool} --call runs a shell command line")
    if o.operands:
        program = o.operands[0]
        from wispsh.programs.interpreters import SHELLS
        if program in SHELLS or program in ("node", "python", "python3", "perl", "ruby", "bash"):
            c.at_least(H, f"{tool} runs {program}, which runs anything")
        elif UNKNOWN in program:
            c.at_least(H, f"{tool} runs a program known only at run time")
        else:
            _spec(c, program, tool, scoped_shorthand=True)
        c.delegate_to = list(o.operands)


def cargo(c: Cmd) -> None:
    o = c.opts("Zp", ("config", "manifest-path", "target-dir", "color", "package", "features", "git", "path",
                      "branch", "tag", "rev", "registry", "index", "root", "bin", "example", "jobs", "profile",
                      "target", "version", "locked"), stop_at_operand=True)
    for config in o.all("config"):
        c.at_least(H, "cargo --config can set a program to run")
    verb = o.operands[0] if o.operands else None
    if verb in (None, "--version", "version", "help", "tree", "metadata", "search", "locate-project",
                "pkgid", "verify-project", "read-manifest", "info"):
        return
    r = c.opts("Zpj", ("config", "manifest-path", "target-dir", "color", "package", "features", "git", "path",
                       "branch", "tag", "rev", "registry", "index", "root", "bin", "example", "jobs", "profile",
                       "target", "version"), args=o.operands[1:])
    if verb in ("install", "add"):
        for url in r.all("git"):
            _spec(c, "git+" + url if not url.startswith("git") else url, "cargo")
        for path in r.all("path"):
            _spec(c, path if path.startswith(("/", ".", "~")) else "./" + path, "cargo")
        _index_options(c, r, "cargo")
        for spec in r.operands:
            _spec(c, spec, "cargo")
        if not (r.all("git", "path") or r.operands):
            c.at_least(M, f"cargo {verb}")
        root = r.value("root")
        if root:
            c.write(root, "installs into")
    elif verb in ("publish", "yank", "owner", "login", "logout"):
        c.at_least(H, f"cargo {verb} publishes or changes your registry account")
    else:
        c.at_least(M, f"cargo {verb} builds or runs project code")


def go(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    rest = c.args[1:]
    if verb in (None, "version", "help", "doc", "list", "vet-help"):
        return
    if verb == "env":
        if "-w" in rest or "-u" in rest:
            c.at_least(H, "go env -w changes go's settings (GOPROXY, GOFLAGS)")
        return
    if verb == "run":
        target = next((a for a in rest if not a.startswith("-")), "")
        if "@" in target or (re.match(r"[a-z0-9.-]+\.[a-z]{2,}/", target) and not target.startswith(".")):
            c.at_least(H, f"go run downloads and runs {target}")
            return
    if verb in ("install", "get"):
        for target in [a for a in rest if not a.startswith("-")]:
            remote = "@" in target or re.match(r"[a-z0-9.-]+\.[a-z]{2,}/", target)
            c.at_least(H if remote and verb == "install" else M, f"go {verb} fetches and builds {target}")
    flags = " ".join(rest)
    if "-toolexec" in flags or "-exec" in flags:
        c.at_least(H, f"go {verb} runs another program (-toolexec/-exec)")
    c.at_least(M, f"go {verb} builds or runs project code")


def gem(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    rest = c.args[1:]
    if verb in (None, "list", "search", "info", "query", "environment", "help", "contents", "specification",
                "which", "outdated", "--version", "-v"):
        return
    if verb == "open" or any(a in ("-e", "--editor") or a.startswith("--editor=") for a in rest):
        if any(a in ("-e", "--editor") or a.startswith("--editor=") for a in rest):
            c.at_least(H, "gem runs the editor command it is given (-e)")
            return
        c.at_least(M, "opens a gem in an editor")
        return
    if verb == "install":
        o = c.opts("s", ("source", "install-dir", "bindir"), args=rest)
        for src in o.all("s", "source"):
            c.at_least(H, f"gem installs from another source ({src})")
        for spec in o.operands:
            _spec(c, spec, "gem")
        return
    if verb in ("push", "yank", "owner", "signin"):
        c.at_least(H, f"gem {verb} publishes or changes your account")
        return
    if verb == "sources" and any(a in ("-a", "--add") for a in rest):
        c.at_least(H, "gem sources --add changes where gems install from")
        return
    c.at_least(M, f"gem {verb}")


def bundle(c: Cmd) -> None:
    verb = c.args[0] if c.args else "install"
    if verb in ("exec", "ex"):
        c.at_least(M, "bundle exec runs project code")
        if len(c.args) > 1:
            c.delegate_to = list(c.args[1:])
        return
    if verb in ("list", "show", "info", "outdated", "check", "version", "--version"):
        return
    c.at_least(M, f"bundle {verb}")


SYSTEM_READ_ONLY = frozenset({"search", "show", "list", "info", "policy", "depends", "rdepends", "madison",
                              "showpkg", "stats", "query", "provides", "whatprovides", "repolist", "check-update",
                              "-Q", "-Qi", "-Ql", "-Ss", "-Si", "-Qs", "--version", "help", "deps", "uses",
                              "outdated", "leaves", "desc", "home", "config", "doctor", "--help", "-h"})


def system_packages(c: Cmd) -> None:
    o = c.opts("ocSt", ("option", "config-file", "target-release", "root"))
    verb = o.operands[0] if o.operands else (c.args[0] if c.args else None)
    if verb is None or verb in SYSTEM_READ_ONLY:
        return
    for option in o.all("o", "option"):
        if re.search(r"(Pre|Post)-Invoke|Pager|Post-Invoke-Success|DPkg::", option, re.I):
            c.at_least(H, f"{c.name} -o {option} runs a command")
    if c.name == "brew":
        if verb in ("tap", "tap-new"):
            c.at_least(H, "brew tap adds another formula source")
        elif verb in ("install", "reinstall", "upgrade"):
            for spec in o.operands[1:]:
                _spec(c, spec, "brew")
            c.at_least(M, f"brew {verb}")
        elif verb == "services":
            c.at_least(H, "starts or stops background services")
        else:
            c.at_least(M, f"brew {verb}")
        return
    if verb in ("update", "makecache", "refresh", "-Sy"):
        c.at_least(M, f"{c.name} refreshes the package index")
        return
    if c.name in ("pacman", "yay", "paru") and verb.startswith("-Q"):
        return
    if any(a.startswith(("http://", "https://")) or a.endswith((".deb", ".rpm", ".apk", ".pkg.tar.zst"))
           for a in o.operands[1:]):
        c.at_least(D, f"{c.name} installs a package file from outside the distribution (its scripts run as root)")
    c.at_least(H, f"{c.name} {verb} changes the system's packages")


def dpkg(c: Cmd) -> None:
    if any(a in ("-l", "-L", "-S", "-s", "--list", "--listfiles", "--search", "--status", "-p", "--print-avail",
                 "--get-selections", "-c", "--contents", "-I", "--info", "--version", "--print-architecture")
           for a in c.args):
        return
    if any(a in ("-i", "--install", "--unpack") or re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", a) for a in c.args):
        c.at_least(D, f"{c.name} -i installs a package file (its scripts run as root)")
    c.at_least(H, f"{c.name} changes the system's packages")


def rpm(c: Cmd) -> None:
    if any(a in ("--eval", "-E") or a.startswith("--eval=") for a in c.args) and any("%(" in a or "%{lua" in a
                                                                                   for a in c.args):
        c.at_least(H, "rpm --eval runs a shell command (%(…))")
        return
    if any(a.startswith("-q") or a in ("--query", "--eval", "-E", "--version", "--showrc") for a in c.args):
        return
    c.at_least(H, "rpm changes the system's packages")


def make(c: Cmd) -> None:
    o = c.opts("fCIjlOoWE", ("file", "makefile", "directory", "include-dir", "jobs", "load-average", "eval",
                             "old-file", "new-file", "what-if", "assume-old", "assume-new", "output-sync",
                             "debug", "shuffle"))
    c.at_least(M, f"{c.name} runs the project's build")
    if o.all("eval", "E"):
        c.at_least(H, f"{c.name} --eval runs make code given on the line")
    for makefile in o.all("f", "file", "makefile"):
        if makefile == "-":
            c.facts.stdin_interp = True
            c.at_least(H, f"{c.name} reads its makefile from its input")
        else:
            c.run_file(makefile, f"{c.name} runs the recipes of")
    for directory in o.all("C", "directory"):
        where = c.place(directory)
        if where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.at_least(H, f"{c.name} runs the build in {where.path}")
    for assignment in o.operands:
        if "=" in assignment:
            name = assignment.split("=", 1)[0]
            if name in ("SHELL", "MAKESHELL", ".SHELLFLAGS") or "$(shell" in assignment:
                c.at_least(H, f"{c.name} {name}=… changes the shell recipes run with")


def hooks_installer(c: Cmd) -> None:
    verb = c.args[0] if c.args else "run"
    if verb in ("install", "init", "install-hooks") or c.name == "husky" and verb in ("install", "init"):
        c.at_least(H, f"{c.name} {verb} installs git hooks that run on every commit")
    else:
        c.at_least(M, f"{c.name} runs the project's hooks")


def conda(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    if verb in (None, "list", "info", "search", "--version", "env"):
        if verb == "env" and len(c.args) > 1 and c.args[1] in ("create", "update", "remove"):
            c.at_least(M, "conda changes environments")
        return
    if verb == "run":
        c.at_least(M, "conda runs a command in an environment")
        inner = c.opts("np", ("name", "prefix", "cwd"), stop_at_operand=True, args=c.args[1:]).operands
        c.delegate_to = list(inner) or None
        return
    o = c.opts("c", ("channel",), args=c.args[1:])
    for channel in o.all("c", "channel"):
        if channel not in ("conda-forge", "defaults", "bioconda", "pytorch", "nvidia"):
            c.at_least(H, f"conda installs from channel {channel}")
    if verb == "config":
        c.at_least(H, "changes conda's configuration")
    c.at_least(M, f"conda {verb}")


def composer(c: Cmd) -> None:
    verb = c.args[0] if c.args else "install"
    if verb in ("show", "info", "outdated", "licenses", "depends", "why", "search", "validate", "--version"):
        return
    if verb in ("config", "global") and any("repositor" in a or "secure-http" in a for a in c.args):
        c.at_least(H, "composer config changes where it installs from")
    c.at_least(M, f"composer {verb}")


def publish_tool(c: Cmd) -> None:
    verb = c.args[0] if c.args else ""
    if verb in ("upload", "publish", "push", "release"):
        c.at_least(H, f"{c.name} publishes a package")
    else:
        c.at_least(M, f"{c.name} {verb}")


def quiet_tool(c: Cmd) -> None:
    """Linters that only read."""


RULES = {
    "pip": pip, "pip3": pip, "pip2": pip, "uv": uv, "pipx": pipx, "uvx": uvx, "poetry": poetry, "pdm": poetry,
    "hatch": poetry, "rye": poetry, "npm": npm, "pnpm": npm, "yarn": npm, "bun": npm, "npx": npm, "bunx": npm,
    "pnpx": npm, "cargo": cargo, "go": go, "gem": gem, "bundle": bundle, "bundler": bundle,
    "apt": system_packages, "apt-get": system_packages, "aptitude": system_packages, "yum": system_packages,
    "dnf": system_packages, "microdnf": system_packages, "zypper": system_packages, "pacman": system_packages,
    "yay": system_packages, "paru": system_packages, "apk": system_packages, "emerge": system_packages,
    "snap": system_packages, "flatpak": system_packages, "port": system_packages, "brew": system_packages,
    "pkg": system_packages, "xbps-install": system_packages, "nix-env": system_packages,
    "add-apt-repository": lambda c: c.at_least(H, "adds a package repository"),
    "apt-key": lambda c: c.at_least(H, "trusts a package signing key") if any(
        a in ("add", "adv") for a in c.args) else None,
    "dpkg": dpkg, "rpm": rpm, "make": make, "gmake": make, "bmake": make, "pre-commit": hooks_installer,
    "husky": hooks_installer, "lefthook": hooks_installer, "conda": conda, "mamba": conda, "micromamba": conda,
    "composer": composer, "apt-cache": quiet_tool, "apt-file": quiet_tool, "apt-mark": lambda c: c.at_least(
        M, "marks packages") if c.args[:1] not in (["showhold"], ["showmanual"], ["showauto"]) else None, "twine": publish_tool, "shellcheck": quiet_tool, "hadolint": quiet_tool,
}
