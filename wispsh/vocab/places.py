"""Places by name: the classes a path falls in, and which file names and paths are which kind.

The vocabulary the program descriptions and the policy share: a description names classes
(`places.SECRET_CLASSES`); where a word points in a line's context is policy/places.py's, and what an
action on each class is worth is policy/effects.py's.
"""
from __future__ import annotations

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
             PROJECT_CONFIG: "project-config", AGENT_CONTROL: "control-file", AGENT_INSTRUCTIONS: "instructions",
             SECRET: "secret", DOTFILE: "dotfile", HOME_OTHER: "home-other",
             TEMP: "temp", DEVICE: "device", SYSTEM: "system", OUTSIDE: "outside", UNKNOWN_PLACE: "unknown"}

# The words that name a command's own input (`sed -f -`), and the pipes bash hands a process substitution as.
INPUT_WORDS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
# the classes whose reading leaks a secret
SECRET_CLASSES = frozenset({SECRET, PROJECT_SECRET, WISP_KEY})

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
                ".config/github-copilot/hosts.json", ".config/github-copilot/apps.json",
                ".local/share/opencode/auth.json",
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


def is_under(path: str, root: str) -> bool:
    """`path` is `root` or inside it (by name: no link is followed)."""
    return path == root or path.startswith(root.rstrip("/") + "/")


# Certificates and public halves are meant to be shared: a .pem named like one is not a secret.
PUBLIC_HINTS = ("cert", "crt", "chain", "ca-", "ca.", "bundle", "pub", "public")
# Inside ~/.ssh: the client config and the public halves steer ssh but hold no secret (writing them still does).
SSH_NOT_SECRET = ("config", "known_hosts", "authorized_keys", "environment", "rc")


def is_secret_name(path: str) -> bool:
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
        return is_secret_name("x." + extension)
    from fnmatch import fnmatchcase
    return any(fnmatchcase(name, pattern) for name in _SECRET_SAMPLES)
