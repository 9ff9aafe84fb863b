"""dotnet and nuget: builds, tools, sources and the project files they run."""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.sources import host_of, index_is_known
from wispsh.programs.table import FIRST, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.vocab import places

# ---------------------------------------------------------------- dotnet and nuget


@emits({"dotnet.source.foreign": ["dotnet add package Foo --source https://nuget.example.net/v3/index.json",
                                  "dotnet restore -s https://x.example/v3/index.json",
                                  "dotnet tool install -g x --add-source https://x.example/v3"],
        "dotnet.source.known": ["dotnet restore --source https://api.nuget.org/v3/index.json"],
        "dotnet.source.local": ["dotnet restore --source ./packages"],
        "dotnet.source.outside": ["dotnet add package Foo -s /tmp/feed"],
        "dotnet.source.runtime": ['dotnet restore --source "$FEED"']})
def dotnet_sources(cmd, o) -> None:
    """--source/--add-source/--nuget-source: where NuGet packages come from; a feed other than nuget.org serves
    packages whose build targets and tools run unreviewed."""
    short = () if cmd.args[:1] in (["test"], ["vstest"]) else ("s",)      # dotnet test -s is --settings
    for value in o.all(*short, "source", "add-source", "nuget-source"):
        if UNKNOWN in value:
            cmd.does("run-code", "dotnet.source.runtime", f"{cmd.name} installs from a feed known only at run time")
        elif index_is_known(value):
            cmd.does("install", "dotnet.source.known", f"{cmd.name} installs from {host_of(value)}")
        elif "://" not in value:
            where = cmd.place(value)
            if where.cls in (places.PROJECT, places.PROJECT_ROOT):
                cmd.does("run-project", "dotnet.source.local",
                         f"{cmd.name} installs packages from the project's {value}")
            else:
                cmd.does("install-outside", "dotnet.source.outside", f"{cmd.name} installs packages from {where.path}")
        else:
            cmd.does("install-foreign", "dotnet.source.foreign", f"{cmd.name} installs from the feed {value}: what it "
                                                                 f"serves runs unreviewed")


@emits({"dotnet.nuget.source-foreign": ["dotnet nuget add source https://nuget.example.net/v3/index.json -n x",
                                        "dotnet nuget update source x --source https://evil.example/v3"],
        "dotnet.nuget.source": ["dotnet nuget add source https://api.nuget.org/v3/index.json -n org",
                                "dotnet nuget add source ./local-feed -n local"]})
def nuget_source_config(cmd, o) -> None:
    """`dotnet nuget add|update source URL`: every later restore may come from URL."""
    for url in o.operands[:1] + o.all("s", "source"):
        if UNKNOWN in url or "://" in url and not index_is_known(url):
            cmd.does("install-foreign", "dotnet.nuget.source-foreign",
                     f"adds the package feed {url.replace(UNKNOWN, '…')}: "
                                                                       f"every later restore may install from it")
            return
    cmd.does("steer", "dotnet.nuget.source", "changes where NuGet packages come from")


DOTNET_BUILD_GRAMMAR = Grammar(values="scfortvpa", long_values=(
    "source", "configuration", "framework", "output", "runtime", "verbosity", "property", "arch", "os", "project",
    "launch-profile", "packages", "configfile", "version-suffix"))
DOTNET_BUILD_ROW = Row("dotnet.builds", "run-project", "{cmd} builds or runs the project (its MSBuild targets run)",
                       sets=("builds",), examples=("dotnet build -c Release", "dotnet run", "dotnet restore",
                                                   "dotnet publish -c Release"))
# `dotnet run --project P` (a directory or a project file): its build works there
DOTNET_BUILDS = verb(grammar=DOTNET_BUILD_GRAMMAR, hook=dotnet_sources, rows=(DOTNET_BUILD_ROW,), manifest=("project",))
# `dotnet build [PROJECT|SOLUTION]`: the project named is what builds
DOTNET_BUILDS_PATH = verb(grammar=DOTNET_BUILD_GRAMMAR, hook=dotnet_sources, rows=(DOTNET_BUILD_ROW,), on=(
    On("build", FIRST, id="dotnet.build.project", says="dotnet build",
       examples=("dotnet build /tmp/x/x.csproj", "dotnet publish src/App/App.csproj")),))
DOTNET_TESTS = verb(grammar=Grammar(values="scfolrdv", long_values=(
    "settings", "configuration", "framework", "output", "logger", "results-directory", "diag", "verbosity", "filter",
    "collect", "source", "blame-hang-timeout")), hook=dotnet_sources, rows=(
    Row("dotnet.test", "run-project", "{cmd} builds and runs the project's tests", sets=("builds",),
        examples=("dotnet test --filter Category=Unit",)),), on=(
    On("build", FIRST, id="dotnet.test.project", says="dotnet test",
       examples=("dotnet test /tmp/x", "dotnet test tests/App.Tests")),))
DOTNET_INSTALLS = verb(grammar=Grammar(values="svf", long_values=("source", "add-source", "version", "framework",
                                                                  "nuget-source", "tool-path", "configfile")),
                       hook=dotnet_sources, rows=(
    Row("dotnet.install", "install", "{cmd} installs packages from the registry",
        examples=("dotnet add package Newtonsoft.Json", "dotnet tool install -g dotnet-ef", "dotnet workload install x",
                  "dotnet new install Some.Templates")),))
DOTNET_CHANGES = verb(rows=(Row("dotnet.changes", "change", "{cmd} changes the project's files",
                                examples=("dotnet sln add x.csproj", "dotnet clean", "dotnet remove package x")),))
DOTNET = Program(
    "dotnet", doc=".NET's CLI: builds, tests, packages and NuGet feeds",
    verbs={
        **dict.fromkeys(("run", "watch", "build-server"), DOTNET_BUILDS),
        **dict.fromkeys(("build", "restore", "publish", "pack", "msbuild"), DOTNET_BUILDS_PATH),
        **dict.fromkeys(("test", "vstest"), DOTNET_TESTS),
        "add": verb(verbs={"package": DOTNET_INSTALLS}, default=Row("dotnet.add", "change", "{cmd} changes the "
                                                                   "project's references", examples=(
                                                                       "dotnet add reference ../lib/lib.csproj",))),
        **dict.fromkeys(("remove", "sln", "clean", "migrate"), DOTNET_CHANGES),
        "new": verb(verbs={"install": DOTNET_INSTALLS, "update": DOTNET_INSTALLS, "uninstall": DOTNET_CHANGES},
                    read_only=("list", "search", "details", "--list"),
                    default=Row("dotnet.new.creates", "change", "{cmd} creates project files from a template",
                                examples=("dotnet new console -n x",)),
                    no_verb=Row("dotnet.new.lists", "nothing", "lists the templates", examples=("dotnet new",))),
        "tool": verb(verbs={**dict.fromkeys(("install", "update", "restore"), DOTNET_INSTALLS),
                            "run": verb(rows=(Row("dotnet.tool.run", "run-project", "{cmd} runs a tool the project "
                                                  "installed", examples=("dotnet tool run dotnet-ef",)),)),
                            "uninstall": DOTNET_CHANGES},
                     read_only=("list", "search")),
        "workload": verb(verbs=dict.fromkeys(("install", "update", "restore", "repair"), DOTNET_INSTALLS),
                         read_only=("list", "search"),
                         default=Row("dotnet.workload", "change", "{cmd} changes the installed workloads",
                                     examples=("dotnet workload clean",))),
        "nuget": verb(
            verbs={"push": verb(rows=(Row("dotnet.nuget.push", "publish", "{cmd} publishes a package",
                                          sets=("net_send",), examples=("dotnet nuget push x.nupkg -k K",)),)),
                   "delete": verb(rows=(Row("dotnet.nuget.delete", "destroy", "{cmd} deletes or unlists a published "
                                            "package", examples=("dotnet nuget delete X 1.0.0",)),)),
                   **dict.fromkeys(("add", "update"), verb(verbs={"source": verb(
                       grammar=Grammar(values="nsup", long_values=("name", "source", "username", "password",
                                                                   "configfile")),
                       hook=nuget_source_config)})),
                   **dict.fromkeys(("remove", "enable", "disable", "trust"), verb(rows=(
                       Row("dotnet.nuget.steers", "steer", "{cmd} changes where NuGet packages come from or whom "
                           "it trusts", examples=("dotnet nuget disable source nuget.org",)),))),
                   "locals": verb(rows=(Row("dotnet.nuget.locals", "change", "{cmd} clears NuGet's caches",
                                            examples=("dotnet nuget locals all --clear",)),))},
            read_only=("list", "verify", "why", "config"), default=Row("dotnet.nuget.verb", "unknown", "{cmd}",
                                                                       examples=("dotnet nuget sign x.nupkg",))),
        "user-secrets": verb(verbs={"list": verb(rows=(Row("dotnet.user-secrets.list", "secret", "prints the "
                                                       "project's user secrets", sets=("secret",),
                                                       examples=("dotnet user-secrets list",)),))},
                             default=Row("dotnet.user-secrets", "local-config", "{cmd} changes the project's user "
                                         "secrets", examples=("dotnet user-secrets set Key value",))),
        "dev-certs": verb(grammar=Grammar(values="ep", long_values=("export-path", "password", "format")), rows=(
            Row("dotnet.dev-certs.check", "nothing", "checks the development certificate", When(flag=("check",)),
                stop=True, examples=("dotnet dev-certs https --check",)),
            Row("dotnet.dev-certs.trust", "steer", "{cmd} --trust makes this machine trust a certificate",
                When(flag=("trust",)), examples=("dotnet dev-certs https --trust",)),
            Row("dotnet.dev-certs", "local-config", "{cmd} manages the development certificate",
                examples=("dotnet dev-certs https --clean",))),
            on=(On("write", ("option", "e", "export-path"), id="dotnet.dev-certs.export",
                   examples=("dotnet dev-certs https -ep ~/.ssh/cert.pfx",)),)),
        "ef": verb(verbs={"database": verb(
            verbs={"drop": verb(rows=(Row("dotnet.ef.drop", "destroy", "dotnet ef database drop deletes the database",
                                          examples=("dotnet ef database drop --force",)),))},
            default=Row("dotnet.ef.database", "data", "{cmd} changes the database's schema",
                        examples=("dotnet ef database update",)))},
            default=Row("dotnet.ef", "run-project", "{cmd} builds and runs the project's EF tooling",
                        sets=("builds",), examples=("dotnet ef migrations add Init",))),
        "format": verb(rows=(Row("dotnet.format.check", "nothing", "dotnet format --verify-no-changes only reports",
                                 When(flag=("verify-no-changes",)), stop=True,
                                 examples=("dotnet format --verify-no-changes",)),
                             Row("dotnet.format", "change", "dotnet format rewrites the project's files",
                                 examples=("dotnet format",)))),
    },
    read_only=("--info", "--version", "--list-sdks", "--list-runtimes", "help", "list", "sdk", "-h", "--help"),
    default=Row("dotnet.app", "run-project", "{cmd} runs an app or a tool of the project",
                examples=("dotnet app.dll",)),
    examples={"dotnet build -c Release": "moderate", "dotnet test": "moderate", "dotnet --info": "safe",
              "dotnet add package Foo --source https://nuget.example.net/v3/index.json": "dangerous",
              "dotnet user-secrets list": "high"},
)

NUGET_SOURCE_WORDS = frozenset({"-source", "-s", "-src", "-fallbacksource", "--source"})


@emits({"nuget.source.foreign": ["nuget install Foo -Source https://nuget.example.net/v3/index.json",
                                 "nuget sources add -Name x -Source https://evil.example/v3",
                                 "nuget restore x.sln -source https://x.example/feed"],
        "nuget.push": ["nuget push x.nupkg -ApiKey K"], "nuget.delete": ["nuget delete X 1.0"],
        "nuget.install": ["nuget install Foo", "nuget restore x.sln"],
        "nuget.config": ["nuget config -Set repositoryPath=/tmp/p", "nuget sources remove -Name x",
                         "nuget setapikey K"]})
def nuget_command(cmd, o) -> None:
    """nuget.exe: options are one dash and any case (`-Source`, `-source`); the first word is the command."""
    args = list(o.args)
    words = [a for a in args if not a.startswith("-")]
    command = words[0].lower() if words else ""
    sources = [args[i + 1] for i, a in enumerate(args[:-1]) if a.lower() in NUGET_SOURCE_WORDS]
    if command in ("push", "add", "init"):
        cmd.facts.net_send = command == "push"
        cmd.does("publish", "nuget.push", f"nuget {command} publishes a package")
        return
    if command == "delete":
        cmd.does("destroy", "nuget.delete", "nuget delete deletes or unlists a published package")
        return
    if command in ("list", "search", "help", "spec", "locals", "verify", "") or command == "sources" and any(
            w.lower() == "list" for w in words[1:2]):
        return
    for url in sources:
        if UNKNOWN in url or "://" in url and not index_is_known(url):
            cmd.does("install-foreign", "nuget.source.foreign", f"nuget {command} uses the feed "
                                                                f"{url.replace(UNKNOWN, '…')}: what it serves runs "
                                                                f"unreviewed")
            return
    if command in ("install", "restore", "update"):
        cmd.does("install", "nuget.install", f"nuget {command} installs packages from the registry")
    else:
        cmd.does("steer", "nuget.config", f"nuget {command} changes NuGet's sources or settings")


NUGET = Program("nuget", doc="NuGet's own CLI (nuget.exe): install, restore, sources, push", hook=nuget_command,
                examples={"nuget list Foo": "safe", "nuget install Foo -Source https://x.example/v3": "dangerous"})



PROGRAMS = programs(DOTNET, NUGET)
