"""Tools that publish packages and releases from the project (vsce, ovsx, changesets, lerna, semantic-release,
goreleaser, jsr, flit, wasm-pack, CocoaPods' trunk, gh-pages, release-it): publishing is high, taking a
published thing down is dangerous (others depend on it), a dry run only looks. Each from its own command
reference. (npm, pnpm, yarn, bun, cargo, gem, twine, poetry, uv and dotnet publish are the package families' (python_packages, node_packages, language_packages, dotnet).)"""
from __future__ import annotations

from wispsh.programs.delegate import hand_on
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb

VERSIONS = ("--version", "-V", "-v", "version", "--help", "-h", "help")
PUBLISHES = "{cmd} publishes where others see it"


def publishing(name: str, doc: str, publish: tuple, *, builds=(), changes=(), removes=(), logins=(), reads=(),
               fetches=(), default: str = "unknown", dry=("dry-run",), dry_kind: str = "nothing",
               grammar: Grammar | None = None, **more) -> Program:
    """A tool by its verbs: `publish` ones publish (a dry run only looks), `builds` run the project's build
    scripts, `changes` write the project's files, `removes` take published things down, `logins` store a
    registry token, `fetches` download; `reads` only print."""
    grammar = grammar or Grammar(longs=dry)
    table = {}
    for word in publish:
        looks = Row(f"{name}.{word}.dry-run", dry_kind, "{cmd} only builds or shows what it would publish", When(flag=dry),
                    stop=True, examples=(f"{name} {word} --{dry[0]}",))
        table[word] = verb(grammar=grammar, rows=(looks, Row(f"{name}.{word}", "publish", PUBLISHES,
                                                             examples=(f"{name} {word}",))))
    for words, does, says in ((builds, "run-project", "{cmd} runs the project's build and its scripts"),
                              (changes, "change", "{cmd} changes the project's files"),
                              (removes, "destroy", "{cmd} takes a published package down: whoever depends on it "
                                                   "breaks"),
                              (logins, "credentials", "{cmd} stores a registry token"),
                              (fetches, "fetch", "{cmd} downloads from its registry")):
        for word in words:
            table[word] = verb(rows=(Row(f"{name}.{word}", does, says, examples=(f"{name} {word}",)),))
    return Program(name, doc=doc, verbs=table, read_only=VERSIONS + tuple(reads),
                   default=Row(f"{name}.verb", default, "{cmd}", examples=(f"{name} frobnicate",)), **more)


# code.visualstudio.com/api/working-with-extensions/publishing-extension (package and publish run the
# vscode:prepublish script)
VSCE = publishing("vsce", "publishes VS Code extensions to the Marketplace", ("publish",), builds=("package",),
                  removes=("unpublish",), logins=("login",), reads=("ls", "show", "search", "ls-publishers",
                                                                    "verify-pat", "logout"))
# github.com/eclipse/openvsx/wiki/Publishing-Extensions
OVSX = publishing("ovsx", "publishes VS Code extensions to Open VSX", ("publish", "create-namespace"),
                  logins=("login",), fetches=("get",), reads=("verify-pat", "logout"))
# github.com/changesets/changesets/tree/main/packages/cli
CHANGESET = publishing("changeset", "changesets: versions and publishes a monorepo's packages", ("publish",),
                       changes=("init", "add", "version", "pre", "tag"), reads=("status",), default="change")
# lerna.js.org/docs/api-reference/commands: `lerna version` commits, tags and pushes by default
LERNA = publishing("lerna", "lerna: versions, publishes and runs a monorepo's packages", ("publish", "version"),
                   builds=("run", "bootstrap", "add", "link"), changes=("init", "create", "import", "clean", "repair"),
                   reads=("changed", "list", "ls", "la", "ll", "diff", "info"), default="run-project")


@emits({"lerna.exec": ["lerna exec -- rm -rf dist", "lerna exec --parallel -- npm test"]})
def lerna_exec(cmd, o) -> None:
    """`lerna exec [options] -- CMD…` runs CMD in every package: judged as that command."""
    words = list(o.args)
    if "--" in words:
        hand_on(cmd, words[words.index("--") + 1:], "lerna.exec")


LERNA.verbs["exec"] = verb(hook=lerna_exec, rows=(Row("lerna.exec.runs", "run-project", "{cmd} runs a command in "
                                                      "every package", examples=("lerna exec ls",)),))
# goreleaser.com/cmd/goreleaser_release: --snapshot (or --skip=publish) builds without publishing
GORELEASER = publishing("goreleaser", "builds and publishes Go releases", ("release",), builds=("build",),
                        changes=("init",), reads=("check", "healthcheck", "jsonschema", "completion"),
                        dry=("snapshot", "skip-publish"), dry_kind="run-project", grammar=Grammar(longs=("snapshot", "skip-publish", "clean")))
# jsr.io/docs/publishing-packages
JSR = publishing("jsr", "JSR, the JavaScript registry: publishes and adds packages", ("publish",),
                 changes=("add", "remove", "i", "install"))
# flit.pypa.io/en/stable/cmdline.html
FLIT = publishing("flit", "flit: builds and publishes Python packages", ("publish",), builds=("build", "install"),
                  changes=("init",))
# rustwasm.github.io/wasm-pack/book/commands
WASM_PACK = publishing("wasm-pack", "builds and publishes Rust WebAssembly packages to npm", ("publish",),
                       builds=("build", "test", "pack"), changes=("new",), logins=("login", "adduser"))
# guides.cocoapods.org/terminal/commands.html: `pod trunk push` publishes a pod, `trunk delete` takes one down
POD = publishing("pod", "CocoaPods: installs pods; trunk publishes them", (), builds=("install", "update", "lib",
                                                                                   "spec"),
                 changes=("init", "deintegrate"), reads=("search", "list", "outdated", "env", "ipc", "cache"),
                 default="install")
POD.verbs["trunk"] = verb(
    verbs={"push": verb(grammar=Grammar(longs=("dry-run",)), rows=(
               Row("pod.trunk.push", "publish", PUBLISHES, examples=("pod trunk push x.podspec",)),)),
           "delete": verb(rows=(Row("pod.trunk.delete", "destroy", "{cmd} takes a published pod down",
                                    examples=("pod trunk delete x 1.0",)),)),
           "deprecate": verb(rows=(Row("pod.trunk.deprecate", "publish", PUBLISHES,
                                       examples=("pod trunk deprecate x",)),)),
           "register": verb(rows=(Row("pod.trunk.register", "credentials", "{cmd} stores a trunk session token",
                                      examples=("pod trunk register a@b.c",)),))},
    read_only=("me", "info"),
    default=Row("pod.trunk.verb", "publish", "{cmd}", examples=("pod trunk add-owner x a@b.c",)))
POD.verbs["repo"] = verb(verbs={"push": verb(rows=(Row("pod.repo.push", "publish", PUBLISHES,
                                                       examples=("pod repo push specs x.podspec",)),))},
                         read_only=("list",),
                         default=Row("pod.repo", "change", "{cmd} changes the local spec repositories",
                                     examples=("pod repo add x https://x.example/specs.git",)))


def whole_tool(name: str, doc: str, dry=(), values=()) -> Program:
    """A tool that publishes when run (no verbs): a dry run only looks."""
    looks = (Row(f"{name}.dry-run", "nothing", "{cmd} only shows what it would publish", When(flag=tuple(dry)),
                 stop=True, examples=(f"{name} --{dry[0]}",)),) if dry else ()
    return Program(name, doc=doc, grammar=Grammar(values="".join(v for v in values if len(v) == 1),
                                                  long_values=tuple(v for v in values if len(v) > 1),
                                                  longs=tuple(d for d in dry if len(d) > 1)),
                   rows=looks + (Row(f"{name}.publishes", "publish", PUBLISHES, examples=(name,)),))


# semantic-release.gitbook.io, github.com/tschaub/gh-pages, github.com/release-it
WHOLE_TOOLS = (whole_tool("semantic-release", "versions, tags and publishes a release from the commit history",
                          dry=("dry-run", "d")),
               whole_tool("gh-pages", "pushes a directory to the repository's gh-pages branch (a published site)",
                          values=("d", "dist", "b", "branch", "r", "repo", "m", "message")),
               whole_tool("release-it", "versions, tags and publishes a release", dry=("dry-run", "d")))

PROGRAMS = programs(VSCE, OVSX, CHANGESET, LERNA, GORELEASER, JSR, FLIT, WASM_PACK, POD, *WHOLE_TOOLS)
