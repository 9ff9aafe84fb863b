"""Path classes: where a word points, after `~`, `$HOME`, `..` and the project root are understood.

A word known only at run time keeps UNKNOWN where its unknown text was; such a path is judged as the worst
place it could name. What an action on each class is worth is the policy's (effects.py), not this file's.
"""
from __future__ import annotations

import os
import posixpath
from stat import S_ISLNK      # (os imports stat: nothing new is loaded)

from wispsh.programs.grammar import UNKNOWN
from wispsh.support.record import Record

_set = object.__setattr__  # records set their fields once, in __init__

# ---------------------------------------------------------------- classes

HARMLESS = "harmless device"
NETDEV = "network socket"
WISP = "wisp's own files"
WISP_KEY = "the key that signs wisp's grants"   # reading it lets a line forge approvals
GIT_INTERNAL = "git hooks or config"
ROOT = "the root directory"
HOME = "your home directory"
ANCESTOR = "a directory holding your home or project"
PROJECT_ROOT = "the whole project"
PROJECT = "the project"
PROJECT_SECRET = "a secret file of the project"
PROJECT_CONFIG = "project config that tools obey (install sources)"
AGENT_CONTROL = "a file that steers an agent or tool (permissions, auto-run tasks, MCP servers, CI)"
AGENT_INSTRUCTIONS = "an agent's instruction file"
SECRET = "secrets"
DOTFILE = "your shell/tool config"
HOME_OTHER = "your home directory (outside the project)"
TEMP = "a temporary directory"
DEVICE = "a disk or memory device"
SYSTEM = "a system directory"
OUTSIDE = "outside the project"
UNKNOWN_PLACE = "a place known only at run time"
# the short name of each class in rule ids ("path.write.dotfile")
CLASS_IDS = {HARMLESS: "harmless-device", NETDEV: "network-socket", WISP: "wisp-home", WISP_KEY: "wisp-key",
             GIT_INTERNAL: "git-internal", ROOT: "root", HOME: "home", ANCESTOR: "ancestor",
             PROJECT_ROOT: "project-root", PROJECT: "project", PROJECT_SECRET: "project-secret",
             PROJECT_CONFIG: "project-config", AGENT_CONTROL: "control-file", AGENT_INSTRUCTIONS: "instructions", SECRET: "secret", DOTFILE: "dotfile", HOME_OTHER: "home-other",
             TEMP: "temp", DEVICE: "device", SYSTEM: "system", OUTSIDE: "outside", UNKNOWN_PLACE: "unknown"}

HARMLESS_PATHS = frozenset({
    "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/random",
    "/dev/urandom", "/dev/full", "/proc/self/fd/1", "/proc/self/fd/2",
})
SYSTEM_ROOTS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt", "/var",
                "/root", "/srv", "/sys", "/proc", "/snap", "/System", "/Library", "/private", "/nix", "/run",
                "/home", "/Users", "/mnt", "/media")
# System directories that hold whatever was put there, not the system's own code: add-on software, services'
# files, other users' homes, mounted media (Homebrew's and MacPorts' trees under /opt are package managers').
PUT_THERE = ("/opt/", "/srv/", "/mnt/", "/media/", "/home/", "/Users/")
PACKAGE_TREES = ("/opt/homebrew/", "/opt/local/")
DEVICE_PREFIXES = ("/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk",
                   "/dev/mapper/", "/dev/md", "/dev/loop", "/dev/mem", "/dev/kmem", "/dev/port", "/dev/dm-",
                   "/dev/rdisk", "/dev/sr", "/dev/fd0", "/proc/kcore")
# Under home: secret stores (reading leaks, writing plants access).
HOME_SECRETS = (".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json", ".netrc",
                ".git-credentials", ".pypirc", ".password-store", ".vault-token", ".npmrc",
                ".cargo/credentials", ".cargo/credentials.toml", ".terraform.d/credentials.tfrc.json",
                ".config/op", ".local/share/keyrings", ".pgpass", ".my.cnf", ".config/hub", ".gem/credentials",
                ".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
                ".config/microsoft-edge", "Library/Application Support/Google/Chrome", "Library/Keychains",
                "Library/Cookies", ".thunderbird", ".config/Signal", ".electrum", ".bitcoin", ".ethereum",
                ".config/solana", ".config/rclone", ".s3cfg", ".boto", ".dockercfg", ".config/doctl",
                ".config/heroku", ".netlify", ".vercel", ".config/gcloud", ".claude/.credentials.json",
                ".codex/auth.json", ".gemini/oauth_creds.json", ".qwen/oauth_creds.json",
                ".config/github-copilot/hosts.json", ".config/github-copilot/apps.json", ".local/share/opencode/auth.json",
                ".aider.conf.yml.secret", ".config/gh/hosts.yml", ".config/op/config", ".docker/config.json",
                # browsers' profiles where snap, flatpak and other vendors keep them
                "snap/firefox/common/.mozilla", ".var/app/org.mozilla.firefox/.mozilla",
                ".var/app/com.google.Chrome/config/google-chrome", ".var/app/org.chromium.Chromium/config/chromium",
                ".config/vivaldi", ".config/opera", "Library/Application Support/Firefox",
                "Library/Application Support/Microsoft Edge", "Library/Application Support/BraveSoftware",
                "Library/Safari")
SECRET_NAMES = frozenset({"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ed25519_sk", "id_ecdsa_sk",
                          "authorized_keys", "known_hosts", ".env", "credentials", "credentials.json", ".netrc",
                          ".pgpass", "shadow", "gshadow", "master.key", "secrets.yml", "secrets.yaml",
                          "service-account.json", ".git-credentials", ".htpasswd", "environ", ".bash_history",
                          ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
                          ".node_repl_history", ".sh_history", ".histfile", "id_rsa.key", ".env.local",
                          ".env.production", "key4.db", "key3.db", "cookies.sqlite", "signons.sqlite",
                          "Login Data", "Login Data For Account"})     # (browsers' password and cookie stores)
# Project files that make tools fetch from elsewhere.
PROJECT_CONFIG_NAMES = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", "pip.conf", "pip.ini",
                                  ".bunfig.toml", "bunfig.toml", ".gitattributes", ".gitmodules", ".mise.toml",
                                  ".tool-versions", "uv.toml", "poetry.toml", ".condarc"})
PROJECT_CONFIG_DIRS = ("/.cargo/config",)
# Files that change what an agent may do or what a tool runs on its own (permissions, auto-run tasks, MCP
# servers, CI that runs on push, hooks): writing one is persistence, like ~/.bashrc. Matched on the path
# relative to the project (a name, or a directory prefix ending in "/").
# Agents' project config among them: opencode's opencode.json(c) and .opencode/ (permissions, MCP servers, agents
# with their own permissions, plugins and tools that are code), Crush's crush.json, Amp's .amp/settings.json,
# Aider's .aider.conf.yml (test and lint commands it runs), Codex's .codex/, Gemini's settings and extensions
# (MCP servers), Cursor's hooks, Zed's context servers, Roo's and Kiro's MCP servers and hooks.
CONTROL_NAMES = frozenset({".mcp.json", ".envrc", ".pnpmfile.cjs", ".pre-commit-config.yaml", ".gitlab-ci.yml",
                           ".travis.yml", "azure-pipelines.yml", "bitbucket-pipelines.yml", ".aider.conf.yml",
                           "Jenkinsfile", ".replit", ".lefthook.yml", "lefthook.yml", "opencode.json",
                           "opencode.jsonc", "crush.json", ".crush.json"})
CONTROL_PATHS = (".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/", ".cursor/mcp.json",
                 ".cursor/environment.json", ".cursor/hooks.json", ".gemini/settings.json", ".gemini/extensions/",
                 ".vscode/settings.json", ".vscode/tasks.json", ".vscode/launch.json", ".vscode/mcp.json",
                 ".github/workflows/", ".github/actions/", ".husky/", ".devcontainer/", ".codex/", ".continue/",
                 ".windsurf/mcp", ".qwen/settings.json", ".idea/", ".circleci/", ".buildkite/", ".git-hooks/",
                 ".githooks/", ".opencode/", ".amp/", ".zed/settings.json", ".roo/mcp.json", ".kiro/settings/",
                 ".kiro/hooks/")
# Directories whose contents are control files: writing the directory (`cp -r x/.claude .`) writes them.
CONTROL_DIRS = frozenset({".claude", ".cursor", ".gemini", ".vscode", ".github", ".github/workflows", ".husky",
                          ".devcontainer", ".codex", ".continue", ".qwen", ".windsurf", ".circleci", ".buildkite",
                          ".githooks", ".git-hooks", ".opencode", ".amp", ".zed", ".roo", ".kiro"})
# Python runs these at every start, from wherever they are on its path (a project on PYTHONPATH included).
PYTHON_STARTUP = frozenset({"sitecustomize.py", "usercustomize.py"})
# An agent's instructions: what it reads as its standing orders (high to write: it steers the next turn).
INSTRUCTION_NAMES = frozenset({"AGENTS.md", "AGENT.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md",
                               "GEMINI.md", "QWEN.md", "CRUSH.md", ".cursorrules", ".windsurfrules", ".clinerules",
                               ".rules", ".goosehints", "CONVENTIONS.md", "copilot-instructions.md"})
# (matched with the path's own slash too: `.claude/commands` names the directory `.claude/commands/` does)
INSTRUCTION_PATHS = (".cursor/rules/", ".claude/commands/", ".claude/agents/", ".claude/skills/",
                     ".github/instructions/", ".clinerules/", ".windsurf/rules/", ".gemini/commands/",
                     ".github/prompts/", ".qwen/commands/", ".qwen/agents/", ".roo/rules/", ".kiro/steering/",
                     ".junie/")
SECRET_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".kdbx", ".keystore", ".jks", ".gpg", ".asc", ".ppk")
SYSTEM_SECRETS = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh/ssh_host_", "/root/.ssh",
                  "/var/run/secrets", "/run/secrets", "/etc/ssl/private")
# Home places without a dot that still run things on their own: ~/bin is on PATH (a `sudo` there shadows the
# real one), launchd agents start at login.
HOME_CONFIG = ("bin/", "Library/LaunchAgents/", "Library/LaunchDaemons/", "Library/Preferences/",
               "Library/Application Support/Code/User/", "Library/Scripts/", ".config/")
# Home dot-directories that are caches, not config: writing there plants nothing that runs.
HOME_CACHES = frozenset({".cache", ".npm", ".yarn", ".m2", ".gradle", ".pnpm-store", ".nuget", ".ivy2", ".sbt",
                         ".cpan", ".rustup", ".gem", ".pub-cache", ".hex", ".mix", ".conda", ".bun",
                         ".lesshst", ".wget-hsts", ".viminfo"})


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/") or root == "/"


# Certificates and public halves are meant to be shared: a .pem named like one is not a secret.
PUBLIC_HINTS = ("cert", "crt", "chain", "ca-", "ca.", "bundle", "pub", "public")
# Inside ~/.ssh: the client config and the public halves steer ssh but hold no secret (writing them still does).
SSH_NOT_SECRET = ("config", "known_hosts", "authorized_keys", "environment", "rc")


def _is_secret_name(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    if name in SECRET_NAMES or (name.startswith(".env.") or name.endswith(".env") and len(name) > 4) and not any(
            hint in name for hint in (".example", ".sample", ".template", ".dist", "example.", "sample.")):
        return True
    if name.startswith(("id_rsa", "id_ed25519", "id_ecdsa", "id_dsa")) and not name.endswith(".pub"):
        return True
    if name.endswith(SECRET_SUFFIXES) and not name.endswith(".pub"):
        return not (name.endswith((".pem", ".crt")) and any(h in name.lower() for h in PUBLIC_HINTS))
    return path.startswith("/proc/") and name in ("environ", "mem")     # a process's environment or memory


_SECRET_SAMPLES = tuple(SECRET_NAMES) + ("id_rsa", "id_ed25519", "id_ecdsa", "server.key", "cert.pem", "a.p12",
                                          ".env.local", "credentials")


def glob_could_be_secret(pattern: str) -> bool:
    """Whether a file-name glob (`id_*`, `.env*`, `*.pem`, `*secret*`) can name a secret. A glob that fixes
    only an extension (`*.json`, `*.yaml`, `*.toml`) names every file of that kind: it is a secret's when the
    extension marks secrets (`*.pem`, `*.key`, `*.env`), not because some secret (credentials.json) happens to
    have the extension too."""
    if pattern in ("*", "*.*"):
        return False
    stem, dot, extension = pattern.rpartition(".")
    if dot and extension and not stem.strip("*?") and "*" in stem and not any(c in extension for c in "*?[/"):
        return _is_secret_name("x." + extension)
    from fnmatch import fnmatchcase
    return any(fnmatchcase(name, pattern) for name in _SECRET_SAMPLES)


# The gate's own code (this package, wherever it is installed, an editable checkout included): a line that
# writes it changes the gate, as one that writes the wisp home does.
GATE_PACKAGE = posixpath.dirname(posixpath.dirname(posixpath.abspath(__file__)))


class _Roots:
    """What classify measures every path of a context against, worked out once a context."""

    __slots__ = ("gate", "under_gate", "gate_is_root", "project_inside")

    def __init__(self, ctx) -> None:
        gate = frozenset((ctx.wisp_home, *ctx.runtime_dirs, GATE_PACKAGE))   # the gate's home, runtime, code
        self.gate, self.under_gate, self.gate_is_root = gate, tuple(root + "/" for root in gate), "/" in gate
        project = ctx.project_root
        # "project/": a path under it is neither an ancestor of home nor of the project (home is not inside it)
        usable = project != "/" and not _under(ctx.home, project)
        self.project_inside = project + "/" if usable else None


_ROOTS: dict = {}


def _roots(ctx) -> _Roots:
    key = (ctx.wisp_home, ctx.runtime_dirs, ctx.home, ctx.project_root)
    found = _ROOTS.get(key)
    if found is None:
        if len(_ROOTS) >= 256:          # a warm judge serves many projects: keep it bounded
            _ROOTS.clear()
        found = _ROOTS[key] = _Roots(ctx)
    return found


def classify(path: str, ctx) -> str:
    """The class of an absolute, normalised path."""
    if path in HARMLESS_PATHS or path.startswith(("/dev/fd/", "/dev/pts/")):
        return HARMLESS
    if path.startswith(("/dev/tcp/", "/dev/udp/")):
        return NETDEV
    if path.endswith("/grants.key") and path == posixpath.join(ctx.wisp_home, "grants.key"):
        return WISP_KEY
    roots = _roots(ctx)
    if path in roots.gate or path.startswith(roots.under_gate) or roots.gate_is_root:   # _under any of them
        return WISP
    padded = path + "/"
    if "/.git/hooks/" in padded or path.endswith("/.git/config") or "/.git/info/attributes" in padded:
        return GIT_INTERNAL
    inside = roots.project_inside
    if inside is None or not path.startswith(inside):       # (inside the project: none of the next three)
        if path == "/":
            return ROOT
        if path == ctx.home:
            return HOME
        if _under(ctx.home, path) or (path != ctx.project_root and _under(ctx.project_root, path)):
            return ANCESTOR
    home = ctx.home
    project = ctx.project_root
    if inside is not None and (path == project or path.startswith(inside)):
        if _is_secret_name(path):
            return PROJECT_SECRET
        name = path.rsplit("/", 1)[-1]
        rel = path[len(project) + 1:]
        if name in CONTROL_NAMES or rel.startswith(CONTROL_PATHS) or (rel + "/").startswith(CONTROL_PATHS) or \
                rel in CONTROL_DIRS or name in PYTHON_STARTUP or name.endswith(".pth"):
            return AGENT_CONTROL
        if name in INSTRUCTION_NAMES or (rel + "/").startswith(INSTRUCTION_PATHS):
            return AGENT_INSTRUCTIONS
        if name in PROJECT_CONFIG_NAMES or any(d in path + "/" for d in PROJECT_CONFIG_DIRS):
            return PROJECT_CONFIG
        return PROJECT_ROOT if path == project else PROJECT
    if path.startswith(SYSTEM_SECRETS):
        return SECRET
    if _under(path, home):
        rel = path[len(home) + 1:]
        if rel.startswith(".ssh/") and (rel[5:] in SSH_NOT_SECRET or rel.endswith(".pub")):
            return DOTFILE      # read: low; written: persistence (a ProxyCommand, a planted key)
        if rel.startswith(HOME_SECRETS) and (rel + "/").startswith(tuple(s + "/" for s in HOME_SECRETS)):
            return SECRET
        if _is_secret_name(path):
            return SECRET
        first = rel.split("/", 1)[0]
        if first.startswith(".") and first not in HOME_CACHES or (rel + "/").startswith(HOME_CONFIG):
            return DOTFILE
        return HOME_OTHER
    if _is_secret_name(path):
        return SECRET
    for temp in ctx.temp_dirs:
        if path.startswith(temp + "/"):
            return TEMP
    if path in ctx.temp_dirs:
        return ANCESTOR     # the temp directory itself holds everyone's scratch
    if path.startswith(DEVICE_PREFIXES):
        return DEVICE
    if path.startswith("/dev/"):
        return DEVICE
    if path.startswith(SYSTEM_ROOTS) and (path + "/").startswith(tuple(r + "/" for r in SYSTEM_ROOTS)):
        return SYSTEM
    if path.count("/") == 1:
        return SYSTEM       # a file right under / (/swapfile, /.autorelabel) is the system's
    return OUTSIDE


def system_code(where) -> bool:
    """Whether a place is the system's own code (running it is as ordinary as running `ls`): a system
    directory, but not one of those that hold whatever was put there."""
    path = where.path + "/"
    return where.cls == SYSTEM and (not path.startswith(PUT_THERE) or path.startswith(PACKAGE_TREES))


# ---------------------------------------------------------------- words to places


class Place(Record):
    path: str           # absolute, normalised (for an unknown start: the known tail)
    cls: str
    glob: bool          # names every entry of a directory (`dir/*`)
    unknown: bool       # some of it is known only at run time
    whole_unknown: bool  # nothing but an unknown value (and maybe a glob or slash): could be `/` or `~`

    __slots__ = FIELDS = ('path', 'cls', 'glob', 'unknown', 'whole_unknown')

    def __init__(self, path, cls, glob, unknown, whole_unknown) -> None:
        _set(self, 'path', path)
        _set(self, 'cls', cls)
        _set(self, 'glob', glob)
        _set(self, 'unknown', unknown)
        _set(self, 'whole_unknown', whole_unknown)

    def __str__(self) -> str:
        return self.path


def expand_tilde(word: str, ctx, cwd: str) -> str:
    if not word.startswith("~"):
        return word
    head, slash, rest = word[1:].partition("/")
    if head == "":
        base = ctx.home
    elif head == "+":
        base = cwd
    elif head == "-":
        base = UNKNOWN          # $OLDPWD: wherever the line was before
    else:
        base = "/home/" + head  # another user's home
    return base + (slash + rest if slash else "")


MAX_REMEMBERED_PLACES = 100_000


def place(word: str, ctx, cwd: str) -> Place:
    """Where a path word points. UNKNOWN inside the word marks run-time text."""
    memo = ctx.places
    found = memo.get((word, cwd))
    if found is None:
        if len(memo) >= MAX_REMEMBERED_PLACES:
            memo.clear()
        found = memo[(word, cwd)] = _place(word, ctx, cwd)
    return found


_NORMAL: dict = {}      # directory -> whether posixpath.normpath leaves it as it is


def _normal(directory: str) -> bool:
    found = _NORMAL.get(directory)
    if found is None:
        if len(_NORMAL) >= MAX_REMEMBERED_PLACES:
            _NORMAL.clear()
        found = _NORMAL[directory] = directory.startswith("/") and posixpath.normpath(directory) == directory
    return found


def _place(word: str, ctx, cwd: str) -> Place:
    text = expand_tilde(word, ctx, cwd)
    glob = False
    if UNKNOWN in text:
        head = text.split(UNKNOWN, 1)[0]
        tail = text.rsplit(UNKNOWN, 1)[1]
        whole = head == "" and tail.strip("/*.") == ""
        if head and "/" in head:
            # `/srv/app/$X` or `build/$X`: the worst it can name is the directory before the unknown text
            base = head.rsplit("/", 1)[0] or "/"
            resolved = posixpath.normpath(posixpath.join(cwd, base))
            return Place(resolved, classify(resolved, ctx), True, True, False)
        if whole:
            return Place("?", UNKNOWN_PLACE, bool(tail), True, True)
        # `$X/.ssh/id_rsa`: judged by what the known tail names wherever it lands. A tail with no slash
        # (`$X.ts`) only ends a name: it names no place of its own, unless it ends a secret's name
        if tail and not tail.startswith("/") and "/" not in tail:
            name_only = posixpath.normpath("/" + tail)
            if _is_secret_name(name_only):
                return Place(name_only, SECRET, False, True, False)
            return Place(name_only, UNKNOWN_PLACE, False, True, False)
        tail_path = posixpath.normpath("/" + tail.lstrip("/")) if tail else "/"
        for cls_probe in (posixpath.join(ctx.home, tail.lstrip("/")),):
            cls = classify(posixpath.normpath(cls_probe), ctx)
            if cls in (SECRET, DOTFILE, GIT_INTERNAL, WISP, WISP_KEY, PROJECT_SECRET):
                return Place(tail_path, cls, False, True, False)
        if "/.git/hooks/" in tail_path + "/" or tail_path.endswith("/.git/config"):
            return Place(tail_path, GIT_INTERNAL, False, True, False)
        leaf = tail_path.rsplit("/", 1)[-1]
        if leaf in PYTHON_STARTUP or leaf.endswith(".pth"):
            # `"$(python3 -m site --user-site)"/usercustomize.py`: code every python start runs
            return Place(tail_path, DOTFILE, False, True, False)
        if tail_path.startswith(("/wisp/", "/.wisp/")) or tail_path in ("/wisp", "/.wisp"):
            return Place(tail_path, WISP, False, True, False)
        if _is_secret_name(tail_path):
            return Place(tail_path, SECRET, False, True, False)
        return Place(tail_path, UNKNOWN_PLACE, False, True, False)
    if "*" in text or "?" in text or "[" in text:
        glob = True
        # the directory part before the first glob character is what the glob ranges over
        cut = min(i for i in (text.find("*"), text.find("?"), text.find("[")) if i >= 0)
        head = text[:cut]
        base = (head.rsplit("/", 1)[0] or "/") if "/" in head else ""
        rest = head.rsplit("/", 1)[-1] + text[cut:]      # the whole last name: `.env*`, `id_*`
        resolved = posixpath.normpath(posixpath.join(cwd, base or "."))
        if "/" in rest.strip("/"):
            # `dir/*/x`: the glob is a directory level; the worst it names is inside `dir`
            inner = rest.rsplit("/", 1)[1]
            probe = posixpath.join(resolved, "x", inner) if inner and not any(c in inner for c in "*?[") else resolved
            cls = classify(posixpath.normpath(probe), ctx)
            return Place(resolved, cls, True, False, False)
        # `~/.ssh/id_*`: classify a name the glob could match
        name = rest.replace("*", "x").replace("?", "x")
        probe = posixpath.normpath(posixpath.join(resolved, name)) if not name.startswith("[") else resolved
        cls = classify(probe, ctx)
        dir_cls = classify(resolved, ctx)
        if dir_cls in (ROOT, HOME, ANCESTOR) and "/" not in rest:
            if glob_could_be_secret(rest) and cls in (HOME_OTHER, OUTSIDE, DOTFILE, SECRET, SYSTEM):
                return Place(probe, SECRET, True, False, False)     # `~/*.pem`: the keys in your home
            return Place(resolved, dir_cls, True, False, False)
        if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP, DOTFILE) and glob_could_be_secret(rest):
            cls = PROJECT_SECRET if cls == PROJECT else SECRET
        if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP, PROJECT_SECRET, SECRET, DOTFILE, SYSTEM, WISP, WISP_KEY,
                   GIT_INTERNAL, DEVICE):
            if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP):
                # every entry of the directory: its worst entry decides (home's dotfiles, the project's .git)
                dir_cls = classify(resolved, ctx)
                if dir_cls in (HOME, ROOT, ANCESTOR, SYSTEM, SECRET, DOTFILE, WISP, WISP_KEY):
                    return Place(resolved, dir_cls, True, False, False)
            return Place(probe, cls, True, False, False)
        return Place(resolved, classify(resolved, ctx), True, False, False)
    if text and text[0] != "/" and "//" not in text and text[-1] != "/" and "/." not in "/" + text and \
            _normal(cwd):
        # a plain relative name (`src/f.py`) in a normalised directory: no `.`, `..` or empty step for
        # normpath to take away
        resolved = (cwd if cwd != "/" else "") + "/" + text
    else:
        resolved = posixpath.normpath(posixpath.join(cwd, text)) if text else cwd
    if resolved.startswith("//"):
        resolved = "/" + resolved.lstrip("/")
    cls = classify(resolved, ctx)
    linked = _through_links(resolved, cls, ctx)
    if linked is not None:
        return Place(linked[0], linked[1], False, False, False)
    return Place(resolved, cls, False, False, False)


# A link on disk can lead an innocent-looking path into these: judge the path by where it lands.
LINK_TARGETS = frozenset({WISP, WISP_KEY, SECRET, DOTFILE, GIT_INTERNAL, DEVICE, HOME, ROOT})
# Classes where a write already is as bad as it gets: a link out of them leads nowhere worse.
GRAVE = frozenset({WISP, WISP_KEY, GIT_INTERNAL, SECRET, DOTFILE, DEVICE, SYSTEM})
# Whole trees a write into is bad but bounded; a link from one of them to another changes nothing.
BROAD = frozenset({HOME, ROOT, ANCESTOR})
LINK_SYSTEM_ROOTS = ("/etc/", "/usr/", "/bin/", "/sbin/", "/boot/", "/lib", "/root/", "/var/spool/cron")
_REAL_ANCHORS: dict = {}


def _through_links(resolved: str, cls: str, ctx) -> tuple[str, str] | None:
    """(path, class) where a symlink makes `resolved` land in a more sensitive place; None when it does not."""
    if cls in (HARMLESS, NETDEV, WISP, WISP_KEY, DEVICE) or not resolved.startswith("/") or resolved.startswith(
            ("/proc/", "/sys/", "/dev/")):
        return None
    try:
        real = _realpath(resolved, ctx)
    except (OSError, ValueError):
        return None
    if real == resolved:
        return None
    logical = _logical(real, ctx)
    if logical == resolved:
        return None
    landed = classify(logical, ctx)
    if landed == cls:
        return None
    if landed in LINK_TARGETS or landed == SYSTEM and (logical + "/").startswith(LINK_SYSTEM_ROOTS):
        if cls not in GRAVE and (cls not in BROAD or landed not in BROAD):
            return logical, landed
    return None


def _realpath(path: str, ctx) -> str:
    """os.path.realpath(path), its directory's real path taken once a line (a long line names many files in
    few directories): the leaf is looked at on its own, and only a leaf that is itself a link is resolved whole."""
    parent, name = path.rsplit("/", 1)
    parent = parent or "/"
    known = ctx.real_dirs
    real_parent = known.get(parent)
    if real_parent is None:
        if len(known) >= MAX_REMEMBERED_PLACES:
            known.clear()
        real_parent = known[parent] = os.path.realpath(parent)
    if not name:
        return real_parent
    try:
        if S_ISLNK(os.lstat(path).st_mode):
            return os.path.realpath(path)
    except OSError:
        pass                            # as realpath does: a leaf that cannot be looked at is taken as named
    return real_parent.rstrip("/") + "/" + name


def _logical(real: str, ctx) -> str:
    """A real path written back in the line's own terms (home, project and wisp home may be links too)."""
    for anchor in (ctx.wisp_home, ctx.project_root, ctx.home, *ctx.temp_dirs):
        real_anchor = _REAL_ANCHORS.get(anchor)
        if real_anchor is None:
            try:
                real_anchor = _REAL_ANCHORS[anchor] = os.path.realpath(anchor)
            except (OSError, ValueError):
                real_anchor = _REAL_ANCHORS[anchor] = anchor
        if real_anchor != anchor and _under(real, real_anchor) and real_anchor != "/":
            return anchor + real[len(real_anchor):]
    return real


def is_directory(where: Place) -> bool:
    """Whether a known path names a directory on disk now (a copy into it lands at dir/name)."""
    if where.unknown or where.glob or not where.path.startswith("/"):
        return False
    try:
        return os.path.isdir(where.path)
    except (OSError, ValueError):
        return False


SECRET_CLASSES = frozenset({SECRET, PROJECT_SECRET, WISP_KEY})

# The secret stores a whole tree can hold, by where they are (HOME_SECRETS under the home, SYSTEM_SECRETS as
# they are): a recursive read of a directory that holds one reads that store too (`grep -r key ~`, `tar c /etc`).
# The project's own secrets (a .env) are not named here: they are found by name, file by file.
SYSTEM_STORES = tuple(s.rstrip("_") for s in SYSTEM_SECRETS)


def store_under(where: Place, ctx, hidden: bool = True) -> str | None:
    """A secret store (a path) that lies inside the tree `where` names, or None. `hidden=False`: the reader
    skips hidden entries (rg and ag without --hidden), so a store behind a dot-named directory is not read."""
    if where.unknown or not where.path.startswith("/"):
        return None
    top = where.path.rstrip("/") + "/" if where.path != "/" else "/"
    home = ctx.home.rstrip("/") + "/"
    for store in (home + s for s in HOME_SECRETS):
        if store.startswith(top) and store != top.rstrip("/") and (
                hidden or not any(step.startswith(".") for step in store[len(top):].split("/"))):
            return store
    for store in SYSTEM_STORES:
        if store.startswith(top) and (hidden or not any(step.startswith(".") for step in store[len(top):].split("/"))):
            return store
    return _other_homes_store(top, hidden)


# Where the machine's homes are (every user's, not only this one's): a tree over one of them, or over one home
# in it, reads the stores of each home there (`grep -r … /home`, `rg -uuu … /Users`).
HOMES_DIRS = ("/home/", "/Users/", "/var/home/", "/export/home/")


def _other_homes_store(top: str, hidden: bool) -> str | None:
    for homes in HOMES_DIRS:
        if homes.startswith(top):               # /home itself, or a parent of it (/var/ for /var/home)
            home = homes + "*/"
        elif top.startswith(homes) and top.count("/") == homes.count("/") + 1:
            home = top                          # one user's home: /home/alice/
        else:
            continue
        for store in HOME_SECRETS:
            if store.startswith("Library/") and homes != "/Users/":
                continue                        # macOS's stores live only in macOS's homes
            if hidden or not any(step.startswith(".") for step in store.split("/")):
                return home + store
    return None
