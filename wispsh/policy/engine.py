"""Risk rules: a Verdict for each part (what it itself does) and for the whole line.

A part's program is looked up in the program tables (programs/index.py says which family describes it; only
that family is loaded) and its table is run against the command (tables.py). What applies to every part -
redirections, variables, privilege, a program run from an odd place, loop ranges - is judged here. The parts
of a line are judged in order by sequence.py; whole-line rules live in line.py.
"""
from __future__ import annotations


from wispsh.model import Finding, Judged, Key, Level, Part, Verdict
from wispsh.policy import bindings, tables
from wispsh.policy import places, scripts
from wispsh.vocab import secrets
from wispsh.parse.words import expand_braces, read_away
from wispsh.policy.cmd import NO_IMAGES, Cmd, Facts, expand_word
from wispsh.policy.context import Context
from wispsh.policy.env import CODE_VARIABLES
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.wrappers import WRAPPERS, own_operands
from wispsh.support.lazyre import lazy_re

__all__ = ["Context", "judge", "analyse", "program", "all_programs"]

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

def program(name: str, ctx=None):
    """The table of `name`: a built-in family's (loaded on first use, programs/index.py says which family), else
    one of the user's own; None when the gate knows nothing of it."""
    from wispsh.programs import index

    found = index.described(name)
    if found is not None:
        return found
    return ctx.programs.get(name) if ctx is not None else None


def all_programs() -> dict:
    """Every built-in program by name (imports every family: for tests, `wisp rules`, the index itself)."""
    from wispsh.programs import index

    return index.every_program()


VERSIONED = lazy_re(r"^(python|pip|pypy|perl|ruby|php|node|lua|luajit|gcc|g\+\+|clang|tclsh|wish|pwsh|ruby"
                       r"|idle|pydoc|easy_install|java)[0-9][0-9.]*$")
SYSTEM_BIN_DIRS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/", "/usr/local/sbin/",
                   "/opt/homebrew/bin/", "/opt/homebrew/sbin/", "/snap/bin/", "/usr/libexec/", "/usr/lib/",
                   "/nix/store/", "/run/current-system/sw/bin/", "/usr/local/opt/")
HELP_WORDS = frozenset({"--help", "--version", "-help", "-version", "--usage"})
MAX_DELEGATIONS = 8
MAX_LOOP_VARIANTS = 16


def _program_name(name: str) -> str:
    name = name.rsplit("/", 1)[-1]
    if name.startswith("mkfs.") or name.startswith("fsck."):
        return name.split(".", 1)[0]
    match = VERSIONED.match(name) if name[-1:].isdigit() or name[-1:] == "." else None   # it ends [0-9.]
    if match:
        base = match.group(1)
        return base + "3" if base in ("python", "pip") and name[len(base):].startswith("3") else base
    return name


def _command_words(part: Part, key: Key) -> tuple[tuple, tuple]:
    """The essential command's words: static values (None at run time) and the same words as written."""
    command = tuple(key.command) if key is not None and key.command else tuple(part.argv)
    n = len(command)
    argv = tuple(part.argv)
    words = tuple(part.words)
    if n and n <= len(argv) and argv[len(argv) - n:] == command and len(words) == len(argv):
        return command, words[len(words) - n:]
    if n and n <= len(words) and all(v is None or v == w for v, w in zip(command, words[len(words) - n:])):
        return command, words[len(words) - n:]
    return command, tuple("" for _ in command)


def _resolve(command, written, subst) -> list[str]:
    args = []
    for value, text in zip(command, written):
        if value is not None:
            if value.startswith(("<(", ">(")) and value.endswith(")"):
                args.append(UNKNOWN)        # process substitution: a /dev/fd path known at run time
            elif value.startswith("~") and text[:1] in ("'", '"', "\\"):
                args.append("./" + value)   # a quoted tilde is a literal name
            elif "{" in value and "," in value and "}" in value and text[:1] not in ("'", '"'):
                args.extend(expand_braces(value) or [value])
            else:
                args.append(value)
        elif text:
            args.append(expand_word(text, subst))
        else:
            args.append(UNKNOWN)
    return args


_NAMES_USED = lazy_re(r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*)")
# variables the rules read without a `$NAME` in the part (`$(pwd)`, history, how an expansion splits)
READ_BY_NAME = ("PWD", "HISTFILE", "IFS", "CDPATH")
# POSIX's special builtins: an assignment before one stays set in posix mode (dash, `set -o posix`, a
# POSIXLY_CORRECT environment), where before any other command it is the command's alone
POSIX_SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly",
                                    "return", "set", "shift", "times", "trap", "unset"})


def _used_of(line_vars: dict, part: Part) -> dict:
    """The line's own variables that the part can read: those its words, redirects, assignments or heredoc
    name (`$x`, `${x…}`), and the few the rules look up by name. Not all of them: a line of thousands of
    assignments would copy every one into every later part (quadratic)."""
    texts = [*part.words, *(r.target_text or "" for r in part.redirects), *(a.text for a in part.assignments),
             part.stdin_code or ""]
    names = {*_NAMES_USED.findall("\n".join(texts)), *READ_BY_NAME}
    if len(names) >= len(line_vars):
        return line_vars
    return {name: line_vars[name] for name in names if name in line_vars}


def _uses_loop_var(written, loops) -> list:
    """The loops whose variable the command reads: its words expand it, or a rule reads it by name
    (`for HISTFILE in ~/.bashrc; do history -w; done`)."""
    found = []
    for loop in loops:
        needle = ("$" + loop.var, "${" + loop.var)
        if loop.var in READ_BY_NAME or any(needle[0] in w or needle[1] in w for w in written):
            found.append(loop)
    return found


def analyse(part: Part, key: Key | None, ctx: Context, cwd: str | None = None,
            line_vars: dict | None = None, found_file: str | None = None, fed_names=(),
            images: frozenset = NO_IMAGES) -> Cmd:
    """Judge one part: every finding, and the facts the whole-line rules need. `images`: the local image names
    the line built for certain before it (sequence.py)."""
    cwd = cwd or ctx.cwd
    subst = {"HOME": ctx.home, "PWD": cwd}
    if line_vars:
        subst.update(_used_of(line_vars, part))
    command, written = _command_words(part, key)
    # a loop variable in a redirection counts too: `for f in ~/.bashrc; do echo x >> "$f"; done`
    loops = _uses_loop_var(tuple(written) + tuple(r.target_text or "" for r in part.redirects), part.loops) \
        if part.loops else []
    if found_file is not None:
        # a find -exec command: {} stands for each file find finds
        command = tuple(w.replace("{}", found_file) if w is not None else None for w in command)
    if key is not None and "xargs" in key.wrappers and (fed_names or not loops):
        # what xargs reads becomes the command's words: the names the stage before prints, else words known
        # only at run time (appended, or standing for -I's replace string: `xargs -I{} cp {} backup/` writes
        # backup/, a known place)
        return _fed_through_xargs(part, key, ctx, cwd, subst, command, written, fed_names or (UNKNOWN,), images)
    if not loops:
        return _analyse_once(part, key, ctx, cwd, subst, command, written, images=images)
    # A loop variable: judge the command once for each thing it ranges over (`rm "$f"`, f in ~/* → rm ~/*).
    variants = [dict(subst)]
    for loop in loops:
        values = [UNKNOWN if w is None else places.expand_tilde(w, ctx, cwd) for w in loop.words] or [UNKNOWN]
        variants = [dict(v, **{loop.var: value}) for v in variants for value in values][:MAX_LOOP_VARIANTS]
    return _merged(_analyse_once(part, key, ctx, cwd, variant, command, written, images=images)
                   for variant in variants)


def _merged(cmds) -> Cmd:
    """One command judged several ways (each loop value, each name xargs is fed): the first reading with
    every reading's findings and facts."""
    merged = None
    for cmd in cmds:
        if merged is None:
            merged = cmd
        else:
            merged.found.extend(cmd.found)
            merge_facts(merged.facts, cmd.facts)
    return merged


def _xargs_replace(part: Part, key: Key) -> str | None:
    """The replace string of `xargs -I R` / `-i` / `--replace[=R]` (then xargs appends nothing), else None: as
    the wrappers' grammar reads it, from the first wrapper on (a clause keyword may stand before it)."""
    from wispsh.programs.wrappers import program_name, unwrap

    prefix = list(part.argv[:max(0, len(part.argv) - len(key.command))])
    first = next((i for i, word in enumerate(prefix) if key.wrappers and program_name(word) == key.wrappers[0]),
                 None)
    if first is None:
        return None
    return unwrap(prefix[first:] + list(key.command)).replace


def _fed_through_xargs(part, key, ctx, cwd, subst, command, written, names, images) -> Cmd:
    """`ls ~/.ssh/id_* | xargs cat`: the names the stage before prints are the words xargs gives the command
    (appended, or in place of its -I string); judged once for each (at most MAX_LOOP_VARIANTS), merged."""
    replace = _xargs_replace(part, key)

    def reading(name: str) -> Cmd:
        words, texts = command, written
        if replace is not None:     # -I: a word that holds the replace string is known only now (None in key)
            texts = tuple(t.replace(replace, name) for t in written)
            words = tuple(None if w is None or replace in t else w for w, t in zip(command, written))
        return _analyse_once(part, key, ctx, cwd, subst, words, texts, None if replace is not None else name,
                             images=images)

    return _merged(reading(name) for name in names[:MAX_LOOP_VARIANTS])


def merge_facts(into: Facts, other) -> None:
    """What `other` (Facts or their summary) found, added to `into`."""
    for name in ("net_fetch", "net_send", "net_dev", "decoder", "stdin_interp", "runtime_code", "interp", "deletes",
                 "encrypts"):
        setattr(into, name, getattr(into, name) or getattr(other, name))
    into.secret_source = into.secret_source or other.secret_source
    into.writes.extend(other.writes)
    into.builds.extend(other.builds)
    into.fetch_writes.extend(other.fetch_writes)
    into.runs.extend(other.runs)
    into.repo_files.extend(other.repo_files)
    into.sends.extend(other.sends)
    into.reads.extend(other.reads)
    into.images.extend(other.images)
    into.runs_images.extend(other.runs_images)


def _analyse_once(part, key, ctx, cwd, subst, command, written, xargs_word=UNKNOWN, images=NO_IMAGES) -> Cmd:
    cmd = Cmd("", [], part, key, ctx, cwd, subst)
    cmd.xargs_word = xargs_word
    cmd.images = images
    if part.opaque:
        cmd.does("run-code", "parse.opaque", "text the gate could not read as commands")
    if part.redirects:
        _judge_redirects(cmd, part, subst)
    _judge_assignments(cmd, part, key, ctx, cwd)
    if part.loops or key is not None and bindings.binds(part, key) or "${" in part.text:
        _judge_bindings(cmd, part, key)
    _judge_file_substitutions(cmd, part)
    if not command:
        if part.runtime_program:
            cmd.does("run-code", "program.runtime", "the program is chosen at run time")
        return cmd
    args = _resolve(command, written, subst)
    first = args[0]
    if part.runtime_program or command[0] is None and (UNKNOWN in first or not first):
        named = _named_program(first, written[0] if written else "", subst.get("IFS"))
        spelled = _ifs_spelling(written, subst) if named is None else None
        if spelled is not None:
            # `{curl,-sSfL,URL}${IFS}|${IFS}bash`: read with bash's own IFS the words are a command, judged as
            # itself; a program spelled so is hiding from a reader (no daily line does it), so never below high
            cmd.does("run-code", "program.ifs-spelling", f"spells its command with $IFS: read as bash reads it, "
                                                         f"it runs {spelled[0]}")
            named, args = spelled[:1], spelled
        if named is None:
            cmd.does("run-code", "program.runtime", "the program is chosen at run time")
            cmd.facts.runtime_code = True
            if "/" in first and UNKNOWN not in first:
                # `T=/tmp/i.sh; …; "$T"`: the line's own variable names the file that runs
                cmd.facts.runs.append(places.place(first, ctx, cwd).path)
            if any("://" in a for a in args[1:]):
                # `$X https://…`: a program chosen at run time, given a URL, may fetch it (then `| sh` runs it)
                cmd.facts.net_fetch = True
                cmd.facts.fetch_writes.extend(_redirect_writes(cmd, part))
            return cmd
        # `c=cu; c=${c}rl; $c URL`: the line's own variables name the program, judged as that program
        cmd.does("nothing", "program.named-by-variables", f"the line's own variables name the program: {named[0]}")
        args = named + args[1:]
        first = args[0]
    if key is not None and key.runs_nothing:
        if key.program in ("env", "printenv"):
            from wispsh.programs.interpreters import env_dump
            env_dump(cmd)       # bare `env` prints the environment
            _secret_to_file(cmd, part)
        return cmd
    name = _program_name(key.program if key is not None and key.program else first)
    cmd.name, cmd.args = name, args[1:]
    chdir = _wrapper_chdir(part, key, subst)
    if chdir:
        cmd.cwd = places.place(chdir, ctx, cwd).path
    _judge_program_path(cmd, first)
    _dispatch(cmd)
    if part.opaque and "code.line-variables" in cmd.fired:
        # `x=ls; eval $x`: the code the splitter could not see is the line's own variables', now judged
        cmd.found = [f for f in cmd.found if f.rule != "parse.opaque"]
    _after(cmd, part, key)
    return cmd


def _ifs_spelling(written, subst: dict) -> list[str] | None:
    """The words of a part whose program word is spelled with $IFS (and braces), read as bash reads them when
    the line sets no IFS of its own (bash does not take IFS from the environment): braces expanded, $IFS a
    space, then split. None unless every word is then static."""
    if "IFS" in subst or not written or "IFS" not in written[0]:
        return None
    words: list[str] = []
    for word in written:
        for piece in expand_braces(word):
            text = read_away(piece)
            if any(c in text for c in "$`*?[") or UNKNOWN in text:
                return None
            words.extend(text.split())
    return words or None


def _named_program(value: str, written: str, ifs: str | None = None) -> list[str] | None:
    """The words a program word the line's own variables made stands for (split as bash splits an unquoted
    expansion, by the line's own IFS when it sets one), or None when it is known only at run time (or is a
    glob)."""
    if not value or UNKNOWN in value or any(c in value for c in "*?[") or ifs is not None and UNKNOWN in ifs:
        return None
    if written[:1] in ("'", '"'):
        return [value]
    if ifs is not None:
        for ch in ifs:
            value = value.replace(ch, " ")
    # the words of an expansion are not tilde-expanded: `~` there names a directory called ~
    words = ["./" + w if w.startswith("~") else w for w in value.split()]
    return words or None


READ_FILE_SUBST = lazy_re(r"\$\(\s*<\s*([^()\s;&|]+)\s*\)")


def _judge_file_substitutions(cmd: Cmd, part: Part) -> None:
    """`$(<file)` reads a file without a command of its own (no part holds it): the part it sits in reads it."""
    if not part.assignments and "$(" not in "".join(part.words):
        return
    texts = [w for w in part.words if "$(" in w] + [a.text for a in part.assignments if "$(" in a.text]
    for text in texts:
        for m in READ_FILE_SUBST.finditer(text):
            target = expand_word(m.group(1), cmd.subst)
            cmd.read(target, "a $(<…) reads")


def _wrapper_chdir(part: Part, key: Key | None, subst: dict) -> str | None:
    """`env -C DIR cmd` / `sudo -D DIR cmd`: the command runs in DIR. Read as getopt reads them: a cluster
    (`-iC/x`, `-C/x`), a long option cut short (`--ch=/x`); UNKNOWN where the directory cannot be read for sure
    (a letter after another that may take it as its value, `sudo -R` and `--chroot`)."""
    if key is None or not key.wrappers or not ({"env", "sudo"} & set(key.wrappers)):
        return None
    argv = part.argv
    limit = len(argv) - len(key.command)
    for i in range(max(0, limit)):
        word = argv[i]
        if not word or word[0] != "-" or word == "-":
            continue
        if word == "--":
            return None
        after = argv[i + 1] if i + 1 < limit else None
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            chdir, chroot = "--chdir".startswith(name) and len(name) > 2, "--chroot".startswith(name) and len(name) > 2
            if chroot or chdir and name in ("--c", "--ch"):
                return UNKNOWN          # a root of its own, or a cut too short to tell from --chroot
            if chdir:
                return value if eq else (after if after is not None else UNKNOWN)
            continue
        letters = word[1:]
        at = next((k for k, ch in enumerate(letters) if ch in "CDR"), None)
        if at is None:
            continue
        if at == 0 and letters[0] != "R":
            return letters[1:] or (after if after is not None else UNKNOWN)
        return UNKNOWN
    return None


def _sudo_keeps(part: Part, key: Key | None) -> str:
    """`sudo --preserve-env=PATH,LD_PRELOAD cmd`: the variables that make programs run code, kept for root."""
    if key is None or "sudo" not in key.wrappers:
        return ""
    limit = len(part.argv) - len(key.command)
    for word in part.argv[:max(0, limit)]:
        if word and word.startswith("--preserve-env="):
            names = [n for n in word.split("=", 1)[1].split(",") if n]
            code = [n for n in names if n in CODE_VARIABLES or n.startswith(("LD_", "DYLD_", "BASH_FUNC_"))]
            if code:
                return ", ".join(code)
    return ""


def _after(cmd: Cmd, part: Part, key: Key | None) -> None:
    """What only shows once the program's rule has run: privilege, fetched output, fed-in names, sockets."""
    facts = cmd.facts
    if cmd.privileged:
        _judge_privilege(cmd)
    if facts.net_fetch:
        facts.fetch_writes.extend(_redirect_writes(cmd, part))
    if facts.secret_source and facts.net_send and facts.secret_source.startswith("reads") and (
            not cmd.via_xargs or any(r.op == "<" for r in part.redirects)):
        # through xargs, what it reads from a file (`xargs curl … < ~/.netrc`) becomes the command's words
        cmd.does("leak", "flow.secret-to-network", f"sends secrets to the network (it {facts.secret_source})")
    _secret_variables(cmd, part)
    _cloud_credentials(cmd, part)
    _steering_content(cmd, part, key)
    if facts.interp and facts.net_dev:
        cmd.does("backdoor", "flow.reverse-shell", "connects a shell or interpreter to a network socket (reverse shell)")
    _secret_to_file(cmd, part)
    _judge_wrapper_options(cmd, part, key)
    if cmd.via_xargs:
        fed = part.stdin_code or " ".join(r.target_text for r in part.redirects if r.op == "<<<")
        for token in fed.split()[:64]:
            token = token.strip("'\"")
            if not token or "/" not in token and not token.startswith("~"):
                continue
            where = places.place(token, cmd.ctx, cmd.cwd)
            if where.cls in places.SECRET_CLASSES:
                facts.secret_source = facts.secret_source or f"is fed the name of {where.path} ({where.cls})"
                if facts.net_send:
                    cmd.does("leak", "flow.secret-to-network", f"sends {where.path} ({where.cls}) to the network")


PRINTERS = frozenset({"echo", "printf", "print", "printenv"})
# Project files that are ordinary to edit, but that run code on install or build once they say so: what a line
# visibly writes into them (a heredoc, echo/printf words) is read for those keys.
STEERED_BY_CONTENT = {
    "package.json": lazy_re(r'"(?:pre|post)?(?:install|uninstall|prepare|prepublish(?:Only)?|prepack|postpack'
                            r'|publish|postpublish)"\s*:'),
    # an in-tree or unknown build backend, or build requirements from a URL or a repository; the standard
    # backends (setuptools, hatchling, poetry-core, flit, pdm, maturin, scikit-build, meson) are not
    "pyproject.toml": lazy_re(r"backend-path|build-backend\s*=\s*[\"'](?!(?:setuptools\.build_meta|hatchling\.build"
                              r"|poetry\.core\.masonry\.api|flit_core\.buildapi|pdm\.backend|maturin"
                              r"|scikit_build_core\.build|mesonpy|setuptools\.build_meta:__legacy__)[\"'])"
                              r"|requires\s*=\s*\[[^\]]*(?:@\s|git\+|://)|\[tool\.setuptools\.cmdclass"
                              r"|\[tool\.hatch\.build\.hooks"),
    "setup.cfg": lazy_re(r"cmdclass"),
    ".npmrc": lazy_re(r"registry\s*=|script-shell|node-options|onload-script|git\s*="),
}
STEERED_SAYS = {".npmrc": "writes .npmrc settings that change where npm installs from or what it runs"}


_PRINTF_ESCAPES = lazy_re(r"\\([nt\\])")


def _steering_content(cmd: Cmd, part: Part, key: Key | None) -> None:
    """`echo '{"scripts":{"postinstall":…}}' > package.json`: a lifecycle script is persistence; so is a
    makefile written with a recipe that is dangerous as code (the next `make` runs it)."""
    if not cmd.facts.writes:
        return
    names = {path.rsplit("/", 1)[-1] for path in cmd.facts.writes} & set(STEERED_BY_CONTENT)
    builds = [path for path in cmd.facts.writes if scripts.is_build_file(path)]
    if not names and not builds:
        return
    visible = [part.stdin_code or ""] + [r.target_text for r in part.redirects if r.op == "<<<"]
    if key is not None and key.program in ("echo", "printf") and key.command:
        words = [w for w in key.command[1:] if w is not None]
        visible += [_PRINTF_ESCAPES.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), "\\"), w)
                    for w in words] if key.program == "printf" or "-e" in words else words
    text = "\n".join(visible)
    for path in builds[:1]:
        before = len(cmd.found)
        scripts.judge_recipes(cmd, text, "recipe")
        if len(cmd.found) > before:
            found = cmd.found[before]
            del cmd.found[before:]
            reason = found.reason.removeprefix("recipe: ").removesuffix(" (in the script)")
            cmd.does("persist", "path.write.build-recipe", f"writes {path.rsplit('/', 1)[-1]} with a recipe the next "
                                                           f"build runs: {reason}")
    for name in sorted(names):
        if STEERED_BY_CONTENT[name].search(text):
            cmd.does("persist", "path.write.lifecycle-script",
                     STEERED_SAYS.get(name, f"writes {name} with a script that runs on install or build"))


def _cloud_credentials(cmd: Cmd, part: Part) -> None:
    """`curl http://169.254.169.254/latest/meta-data/iam/security-credentials/ROLE`: the instance metadata
    service hands this machine's cloud credentials to whoever asks (secrets.CLOUD_CREDENTIALS)."""
    facts = cmd.facts
    if not (facts.net_fetch or facts.net_send or facts.net_dev):
        return
    url = secrets.cloud_credentials(part.words)
    if url is None:
        return
    facts.secret_source = facts.secret_source or "reads cloud credentials from the instance metadata service"
    cmd.does("secret", "net.cloud-credentials", f"asks the instance metadata service for cloud credentials "
                                                f"({url[:80]})")


def _secret_variables(cmd: Cmd, part: Part) -> None:
    """A secret-named variable's value in a request goes to the network: to its own service that is using the
    credential, anywhere else a leak. Printed, it goes into the agent's context. Either way, it is a secret
    source for what the line does next (a pipe into curl)."""
    if cmd.name != "printenv" and not part.redirects and not (part.stdin_code and not part.stdin_quoted) and \
            "$" not in "".join(part.words):
        return      # no variable is used: most parts
    texts = list(part.words) + [r.target_text for r in part.redirects if r.op == "<<<"]
    if part.stdin_code and not part.stdin_quoted:
        texts.append(part.stdin_code)
    names = secrets.secret_variables("\n".join(texts))
    if cmd.name == "printenv":
        names += [a for a in cmd.args if secrets.SECRET_NAME.search(a) and a not in names]
    if not names:
        return
    facts = cmd.facts
    facts.secret_source = facts.secret_source or f"uses ${names[0]} (a secret-named variable)"
    if facts.net_send or facts.net_fetch or facts.net_dev:
        found = secrets.hosts(part.argv) or secrets.program_hosts(
            cmd.name, [a.text for a in part.assignments] + list(part.argv))
        mine = [h for h in found if all(secrets.belongs_to(name, h) for name in names)]
        if found and len(mine) == len(found):
            cmd.does("send", "flow.token-to-its-service", f"sends ${names[0]} to its own service ({mine[0]})")
        else:
            where = found[0] if found else "the network"
            cmd.does("leak", "flow.secret-variable-to-network",
                     f"sends ${names[0]} (a secret-named variable) to {where}")
    elif cmd.name in PRINTERS and part.pipeline is None and not any(
            r.op in WRITE_OPS for r in part.redirects):
        cmd.does("secret", "flow.prints-secret-variable",
                 f"prints ${names[0]} into the agent's context (a secret-named variable)")


# A wrapper's own options that open files: (wrapper, option) -> what it does with the value.
WRAPPER_FILE_OPTIONS = {
    ("strace", "-o"): "write", ("strace", "--output"): "write", ("ltrace", "-o"): "write",
    ("ltrace", "--output"): "write", ("time", "-o"): "write", ("time", "--output"): "write",
    ("xargs", "-a"): "read", ("xargs", "--arg-file"): "read", ("strace", "-E"): "env", ("strace", "--env"): "env",
    ("ltrace", "-F"): "read", ("ltrace", "--config"): "read", ("env", "-u"): "unset", ("env", "--unset"): "unset",
    ("sshpass", "-f"): "password", ("logsave", 0): "write", ("fakeroot", "-s"): "write", ("fakeroot", "-i"): "read",
    ("fakeroot", "-l"): "run", ("fakeroot", "--lib"): "run", ("fakeroot", "--faked"): "run", ("rlwrap", "-H"): "write",
    ("rlwrap", "--history-filename"): "write", ("rlwrap", "-l"): "write", ("rlwrap", "--logfile"): "write",
    ("rlwrap", "-f"): "read", ("rlwrap", "--file"): "read", ("rlwrap", "-z"): "run", ("rlwrap", "--filter"): "run",
    ("nocache", "-D"): "write", ("chpst", "-e"): "envdir", ("envdir", 0): "envdir", ("faketime", "--date-prog"): "run",
}
WRAPPER_NAMES = frozenset(name for name, _ in WRAPPER_FILE_OPTIONS)


def _wrapper_options(part: Part, key: Key | None) -> list[tuple[str, str]]:
    """(what, value) for the file options of the wrappers in front of the command (`strace -o F ls`)."""
    if key is None or not key.wrappers or not (WRAPPER_NAMES & set(key.wrappers)):
        return []
    argv = part.argv
    limit = len(argv) - len(key.command) if key.command else len(argv)
    found = []
    wrapper = None
    i = 0
    while i < limit:
        word = argv[i]
        i += 1
        if word is None:
            continue
        name = word.rsplit("/", 1)[-1]
        if name in WRAPPER_NAMES and not word.startswith("-"):
            wrapper = name
            what = WRAPPER_FILE_OPTIONS.get((name, 0))      # its own first operand (logsave's LOGFILE)
            operands = own_operands(argv[i - 1:limit]) if what is not None else ()
            if operands:
                found.append((what, operands[0] if operands[0] is not None else UNKNOWN))
            continue
        if wrapper is None or not word.startswith("-") or word == "-":
            continue
        head, eq, attached = word.partition("=")
        what = WRAPPER_FILE_OPTIONS.get((wrapper, head))
        if what is not None:
            if eq:
                found.append((what, attached))
            elif i < limit:
                value = argv[i]
                found.append((what, value if value is not None else UNKNOWN))
                i += 1
            continue
        if word.startswith("--"):
            continue
        for j in range(1, len(word)):
            what = WRAPPER_FILE_OPTIONS.get((wrapper, "-" + word[j]))
            if what is None:
                continue
            if j + 1 < len(word):
                found.append((what, word[j + 1:]))
            elif i < limit:
                value = argv[i]
                found.append((what, value if value is not None else UNKNOWN))
                i += 1
            break
    return found


def _judge_wrapper_options(cmd: Cmd, part: Part, key: Key | None) -> None:
    for what, value in _wrapper_options(part, key):
        if what == "write":
            cmd.write(value, "the wrapper writes")
        elif what == "read":
            where = cmd.read(value)
            if where.cls in places.SECRET_CLASSES and (cmd.facts.net_send or cmd.facts.net_fetch):
                cmd.does("leak", "flow.secret-to-network", f"feeds {where.path} ({where.cls}) to a command that reaches the network")
        elif what == "password":     # the password a wrapper types for the command: used, not sent anywhere else
            cmd.read(value, "reads the password it types from")
        elif what == "unset":
            if value.startswith("WISP_"):
                cmd.does("gate", "env.wisp", f"removes {value}, which changes the gate itself")
        elif what == "env":
            name, _, text = value.partition("=")
            cmd.sets_variable(name, text if UNKNOWN not in text else None, value)
        elif what == "run":         # a library it preloads, a program it runs for the command (fakeroot --lib)
            cmd.run_file(value, "the wrapper loads or runs")
        elif what == "envdir":      # every file of DIR becomes a variable: LD_PRELOAD, PATH, BASH_ENV among them
            where = cmd.read(value)
            cmd.does("steer", "wrapper.envdir", f"sets the command's environment from the files of {where.path} "
                                                f"(any variable: LD_PRELOAD, PATH, BASH_ENV)")


def _secret_to_file(cmd: Cmd, part: Part) -> None:
    """`cat ~/.ssh/id_rsa > /tmp/k`, `env > e.txt`: a later upload of that file sends the secret."""
    facts = cmd.facts
    if facts.secret_source and places.UNKNOWN_PLACE not in facts.secret_source and any(
            r.op in STDOUT_FILE_OPS and r.fd in (None, "1") and (r.target or "") not in places.HARMLESS_PATHS
            for r in part.redirects):
        facts.secret_copy = True


def _redirect_writes(cmd: Cmd, part: Part) -> list[str]:
    """The files its output is redirected into; a target in a variable (`> "$T"`) as the line's own variables
    make it (`T=$(mktemp)`: the same variable names the same file), when they do."""
    found = []
    for redirect in part.redirects:
        if redirect.op not in WRITE_OPS:
            continue
        target = redirect.target
        if target is None and redirect.target_text and "$" in redirect.target_text:
            target = expand_word(redirect.target_text, cmd.subst)
            if UNKNOWN in target:
                continue
        if target and not target.isdigit():
            found.append(places.place(target, cmd.ctx, cmd.cwd).path)
    return found


def _cd_target(cmd: Cmd, name: str) -> str:
    """Where a cd, pushd or popd leaves the shell, or UNKNOWN: `cd -`, `popd`, `pushd` alone and `pushd +1` go
    where the line before left the shell; a relative name is looked for in $CDPATH first when it is set (in
    the line's environment or by the line: `CDPATH=~ cd .ssh` is ~/.ssh); `-P` resolves links before `..`;
    and a relative name from a directory known only at run time is known only then."""
    args = list(cmd.args)
    options = [a for a in args if a.startswith("-") and a not in ("-", "--")]
    operands = [a for a in args if a == "-" or not a.startswith("-")]
    if name == "popd" or name == "pushd" and (not operands or operands[0][:1] in "+-" or "-n" in options):
        return UNKNOWN
    target = operands[0] if operands else "~"
    if target == "-" or UNKNOWN in target or any("P" in a for a in options) and ".." in target \
            or any(c in target for c in "*?[{"):       # a glob: the directory it matches at run time
        return UNKNOWN
    if not target.startswith(("/", "~")):
        cdpath = cmd.subst.get("CDPATH", cmd.ctx.env.get("CDPATH"))
        if any(a.name == "CDPATH" for a in cmd.part.assignments):
            cdpath = UNKNOWN        # `CDPATH=~ cd x`: set for this cd alone
        if UNKNOWN in cmd.cwd or cdpath and not target.startswith(("./", "../")) and target not in (".", ".."):
            return UNKNOWN
    return places.place(target, cmd.ctx, cmd.cwd).path


def _dispatch(cmd: Cmd) -> None:
    for _ in range(MAX_DELEGATIONS):
        name = cmd.name
        if name == "busybox" or name == "toybox":
            if not cmd.args:
                return
            cmd.name, cmd.args = _program_name(cmd.args[0]), cmd.args[1:]
            continue
        if cmd.args and cmd.args[-1] in HELP_WORDS and all(a in HELP_WORDS for a in cmd.args) or (
                len(cmd.args) == 2 and cmd.args[1] in HELP_WORDS and not cmd.args[0].startswith("-")
                and name in ("git", "npm", "docker", "kubectl", "cargo", "go", "pip", "pip3", "uv", "apt",
                             "systemctl", "terraform", "helm", "gh", "yarn", "pnpm", "podman", "aws")):
            return      # prints help or a version: runs nothing
        if name in ("cd", "pushd", "popd"):
            cmd.facts.cd_to = _cd_target(cmd, name)
            return
        table = program(name, cmd.ctx)
        if table is not None:
            if cmd.via_xargs and cmd.xargs_word is not None:
                cmd.args = list(cmd.args) + [cmd.xargs_word]    # xargs appends the words it reads
            tables.run(cmd, table, cmd.args, name)
        elif UNKNOWN in name:
            cmd.does("run-code", "program.runtime", "the program is chosen at run time")
        else:
            cmd.does("unknown", "program.unknown", f"{name} is not a program the gate knows")
            cmd.unknown_reads()
        words = cmd.delegate_to
        if not words:
            return
        cmd.delegate_to = None
        if UNKNOWN in words[0]:
            cmd.does("run-code", "program.runtime", "runs a program known only at run time")
            return
        _judge_program_path(cmd, words[0])
        cmd.name, cmd.args = _program_name(words[0]), list(words[1:])
        cmd.delegated = True
    cmd.does("run-code", "program.too-deep", "too many nested wrappers to follow")


def _judge_program_path(cmd: Cmd, first: str) -> None:
    """`/tmp/cat` is not cat: a program run from outside the system's directories is judged by its place."""
    if "/" not in first or UNKNOWN in first:
        return
    where = places.place(first, cmd.ctx, cmd.cwd)
    if where.cls in (places.SYSTEM,) and (where.path + "/").startswith(SYSTEM_BIN_DIRS) or \
            where.path.startswith(SYSTEM_BIN_DIRS):
        return
    cmd.facts.runs.append(where.path)
    if where.cls in (places.PROJECT, places.PROJECT_ROOT):
        cmd.does("run-project", "program.project", "runs a program of the project")
    elif where.cls == places.DOTFILE and "/.local/bin/" in where.path + "/" or "/.cargo/bin/" in where.path or \
            "/node_modules/.bin/" in where.path or "/.venv/bin/" in where.path:
        cmd.does("run-project", "program.user-tool", f"runs {where.path}")
    else:
        cmd.does("run-code", "program.odd-place", f"runs a program from {where.path} ({where.cls})")


PRIVILEGED_WRAPPERS = frozenset(name for name, grammar in WRAPPERS.items() if grammar.privileged)
# `sudo -n true`, `doas true`: whether a password is needed (or cached), and nothing else runs
CREDENTIAL_CHECKS = frozenset({"true", ":", "false"})


def _judge_privilege(cmd: Cmd) -> None:
    """Root makes a change unbounded (levels.md: "takes privilege" is dangerous): a command rated moderate or
    above (it changes things, runs code, reads a secret) run as root is dangerous; one that only reads is high,
    since root reads every secret. `sudo -n true` only checks the credential."""
    if cmd.name in CREDENTIAL_CHECKS and not cmd.args and not cmd.found:
        cmd.does("inspect", "privilege.check", f"checks whether root is available ({cmd.name} runs as root)")
        return
    worst = max(cmd.found, key=lambda f: f.level, default=None)
    steered = any(f.level >= H and ("PATH" in f.reason or "sets " in f.reason or "LD_" in f.reason) for f in cmd.found)
    by = next((w for w in cmd.key.wrappers if w in PRIVILEGED_WRAPPERS), "sudo") if cmd.key is not None else "sudo"
    cmd.does("root", "privilege.root", f"runs as root ({by})")
    if steered:
        cmd.does("privilege", "privilege.root-env", "runs as root with variables that change what runs")
    kept = _sudo_keeps(cmd.part, cmd.key)
    if kept:
        cmd.does("privilege", "privilege.root-keeps-env", f"sudo keeps {kept} for root: the caller decides what runs")
    from wispsh.programs.interpreters import SHELLS
    if cmd.facts.interp and cmd.level() >= M or cmd.name in SHELLS:
        cmd.does("privilege", "privilege.root-shell", f"a root {cmd.name}: anything can run as root")
        return
    escape = next((f for f in cmd.found if f.kind == "run-code" and f.level >= H
                   and not f.rule.startswith(("path.run.", "program."))), None)
    if escape is not None:
        # `sudo awk 'BEGIN{system("/bin/sh")}'`, `sudo vim -c ':!sh'`, `sudo tar --checkpoint-action=exec=…`
        cmd.does("privilege", "privilege.root-escape", f"runs commands or code as root ({escape.reason})")
    elif worst is not None and worst.level >= M:
        cmd.does("privilege", "privilege.root-change", f"runs as root, where nothing bounds it: {worst.reason}")


WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
STDOUT_FILE_OPS = frozenset({">", ">>", ">|", "&>", "&>>"})
READ_OPS = frozenset({"<"})


def _judge_redirects(cmd: Cmd, part: Part, subst: dict) -> None:
    for redirect in part.redirects:
        op = redirect.op
        if op in ("<<", "<<-", "<<<", "<&"):
            continue
        target = redirect.target
        if target is None:
            target = expand_word(redirect.target_text, subst) if redirect.target_text else UNKNOWN
        if op in (">&", "<&") and (target.isdigit() or target == "-"):
            continue        # duplicating a descriptor, not a file
        if op in WRITE_OPS:
            where = cmd.write(target, "redirect writes")
            if where.cls == places.NETDEV:
                cmd.facts.net_dev = True
                cmd.facts.net_send = True
            if op == "<>":
                cmd.read(target)
        elif op in READ_OPS:
            cmd.read(target, "reads")


# builtins that only split what they read: an IFS given to them alone changes no command (mapfile -C runs one)
IFS_READERS = frozenset({"read", "mapfile", "readarray"})


def _only_splits_input(part: Part) -> bool:
    argv = part.argv
    if not argv or argv[0] not in IFS_READERS:
        return False
    return not any(w is None or UNKNOWN in w or argv[0] != "read" and w[:1] == "-" and "C" in w for w in argv[1:])


def _judge_assignments(cmd: Cmd, part: Part, key: Key | None, ctx: Context, cwd: str) -> None:
    if not part.assignments and (key is None or not key.env):
        return
    seen = set()
    assignments = list(part.assignments) + (list(key.env) if key is not None else [])
    for assignment in assignments:
        if assignment.text in seen:
            continue
        seen.add(assignment.text)
        if assignment.name in PROJECT_PATH_VARIABLES and _inside_project(assignment.value, ctx, cwd):
            cmd.does("run-project", f"env.{assignment.name}", f"{assignment.name} points inside the project")
        elif assignment.name == "IFS" and assignment in part.assignments and _only_splits_input(part):
            continue    # `IFS= read -r line`, `IFS=, read -r a b`: it splits what read reads; nothing runs
        else:   # the splitter read these (parse/nested.py): a command line they name is parts of its own
            cmd.sets_variable(assignment.name, assignment.value, assignment.text, split=True)
        base = assignment.name.split("[", 1)[0]
        if part.argv:
            if assignment in part.assignments and part.argv[0] in POSIX_SPECIAL_BUILTINS:
                cmd.facts.assigns[base] = UNKNOWN   # posix mode keeps it (sh is dash): `x=rm :` sets x for good
            continue
        if base != assignment.name or assignment.text.startswith(assignment.name + "+="):
            cmd.facts.assigns[base] = UNKNOWN       # `x[0]=rm` is what $x reads; `x+=s` appends
            continue
        value = assignment.value
        if value is None:
            # `D="$HOME/.config"`: what the line's own known variables make of it, else unknown
            written = assignment.text.split("=", 1)[1] if "=" in assignment.text else ""
            known = expand_word(written, cmd.subst) if written and "$(" not in written and "`" not in written \
                else _substitution_value(written, ctx, cwd)
            cmd.facts.assigns[assignment.name] = known if UNKNOWN not in known else UNKNOWN
            if UNKNOWN not in known:
                _stored_code(cmd, assignment.name, known)
        else:
            cmd.facts.assigns[assignment.name] = places.expand_tilde(value, ctx, cwd) if value.startswith("~") \
                else value.replace(":~", ":" + ctx.home)


def _judge_bindings(cmd: Cmd, part: Part, key: Key | None) -> None:
    """The variables the part binds by any form but `NAME=value` (policy/bindings.py: a loop around it, read,
    printf -v, mapfile, getopts, ${NAME:=word}, a declaration): each judged as `NAME=value` is (a variable
    that steers a program, whatever bound it), and kept for the parts after it (Facts.assigns: `read
    HISTFILE < f; history -w` writes what f names). A loop's variable is the loop's own (engine: variants)."""
    seen = set()
    for b in bindings.of_part(part, key):
        if b.how in ("assignment", "prefix"):
            continue        # _judge_assignments
        if b.name == bindings.RUNTIME_NAME:
            if ("runtime", b.how) not in seen:
                seen.add(("runtime", b.how))
                cmd.does("steer", "env.runtime-name", f"{b.how} binds a variable whose name is known only at run time "
                                                      "(it may be PATH, BASH_ENV or any variable that steers a program)")
            continue
        value = b.value
        if value is None and b.written is not None and "$" in b.written:
            known = expand_word(b.written, cmd.subst)
            value = known if UNKNOWN not in known else None
        if (b.name, value) in seen:
            continue
        seen.add((b.name, value))
        if b.how == "nameref":
            _nameref(cmd, b.name, value)
            cmd.facts.namerefs += [b.name, value.split("[", 1)[0] if value else "*"]
            continue
        if b.how not in bindings.DECLARERS and b.how != "unset":
            # (a declaration's NAME=value the builtin's own rule judges; unset binds nothing that runs). An
            # element too: `printf -v 'BASH_CMDS[ls]' /bin/rm` sets what ls runs, `PATH[0]=…` is PATH
            name = b.name if b.subscript is None else f"{b.name}[{b.subscript}]"
            shown = b.written if b.written is not None else "…"
            cmd.sets_variable(name, value, f"{name}={shown}", how=b.how)
        if value is not None and b.how != "for" and (b.value is None or b.how not in bindings.DECLARERS):
            _stored_code(cmd, b.name, value)
        if b.how == "default":  # `${X:=ls}` gives X ls only where X is unset or empty: the line must know it
            before = cmd.subst.get(b.name)
            value = value if before == "" else before if before and b.subscript is None else None
        if b.how != "for":      # (an element, `x[0]=rm`, is what $x reads too)
            cmd.facts.assigns[b.name] = UNKNOWN if value is None or b.subscript is not None else value


def _nameref(cmd: Cmd, name: str, target: str | None) -> None:
    """`declare -n r=BASH_ENV`: r is another name for BASH_ENV, and what r is given later (by any form) steers
    what BASH_ENV steers; a target known only at run time may be any variable."""
    from wispsh.policy.env import judge_variable, variable_rule

    if target is None or not bindings.NAME.fullmatch(target.split("[", 1)[0]):
        cmd.does("steer", "env.runtime-name", f"declare -n makes {name} a name for a variable known only at run "
                                              "time (it may be PATH, BASH_ENV or any variable that steers a program)")
        return
    base = target.split("[", 1)[0]
    found = judge_variable(base, None, f"{base}=$(…)", cmd.place)
    if found is not None:
        rule = variable_rule(base)
        cmd.found.append(Finding(cmd.ctx.overrides.get(rule, max(found[0], H)), rule,
                                 f"declare -n makes {name} another name for {base}: what {name} is given, {found[1]}",
                                 "env"))


def _stored_code(cmd: Cmd, name: str, value: str) -> None:
    """`d=$; x="a[$d(rm -rf ~)]"`, `printf -v x 'a[\\x24(…)]'`: a value built at run time that holds a $(…) or
    backticks runs them wherever bash later evaluates its text (`$((x))`, `[[ $x -eq 1 ]]`, `${!x}`, a prompt):
    judged as code where it is stored, as the splitter judges one written literally (parse/nested.py)."""
    if "$(" not in value and "`" not in value:
        return
    from wispsh.parse import scan

    for body in scan.substitution_bodies(value)[:4]:
        if body.strip():
            cmd.code_text(body, f"{name} holds code that runs where bash evaluates it", at_least=Level.HIGH)


MKTEMP = lazy_re(r"""^["']?\$\(\s*mktemp((?:\s+[-\w.=/]+)*)\s*\)["']?$""")


def _substitution_value(written: str, ctx: Context, cwd: str) -> str:
    """What a `$(…)` assigned to a variable prints, when the gate can know it: mktemp makes a fresh file in the
    temporary directory (or under the directory or template it is given); printf and echo of static words
    print them (`x=$(printf 'a[\\x24(…)]')`: text built at run time, judged where it is stored)."""
    m = MKTEMP.match(written)
    if m is None:
        return _printed_value(written)
    words = m.group(1).split()
    tmp = (ctx.env.get("TMPDIR") or "/tmp").rstrip("/") or "/tmp"
    template, base, in_tmp = None, None, False
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-p", "--tmpdir") and i + 1 < len(words):
            base = words[i + 1]
            i += 2
            continue
        if word.startswith("--tmpdir=") or word.startswith("-p") and len(word) > 2:
            base = word.split("=", 1)[1] if "=" in word else word[2:]
        elif word == "-t" or word.startswith("-") and "t" in word[1:] and not word.startswith("--"):
            in_tmp = True
        elif not word.startswith("-"):
            template = word
        i += 1
    name = (template or "tmp.XXXXXXXXXX").replace("X", "x")
    if "/" in name:
        return places.expand_tilde(name, ctx, cwd) if name.startswith("~") else name
    if base is not None:
        return base.rstrip("/") + "/" + name
    return f"{tmp}/{name}" if in_tmp or template is None else f"{cwd}/{name}"


PRINTED = lazy_re(r"""^"?\$\(\s*(printf|echo)\s+([^$`|;&<>]*)\)"?$""")


def _printed_value(written: str) -> str:
    m = PRINTED.match(written)
    if m is None:
        return UNKNOWN
    import shlex

    try:
        words = shlex.split(m.group(2))
    except ValueError:
        return UNKNOWN
    if m.group(1) == "printf":
        return bindings.printf_output(words[0], words[1:]).rstrip("\n") if words else UNKNOWN
    escapes = False
    while words and words[0] in ("-e", "-n", "-E", "-ne", "-en"):
        escapes = escapes or "e" in words.pop(0)
    text = " ".join(words)
    return bindings.printf_output(text.replace("%", "%%"), []) if escapes else text


PROJECT_PATH_VARIABLES = frozenset({"PYTHONPATH", "NODE_PATH", "PERL5LIB", "RUBYLIB", "PERLLIB", "CLASSPATH",
                                    "GOPATH"})


def _inside_project(value: str | None, ctx: Context, cwd: str) -> bool:
    if not value:
        return False
    for entry in value.split(":"):
        if not entry:
            continue
        where = places.place(entry, ctx, cwd)
        if where.cls not in (places.PROJECT, places.PROJECT_ROOT):
            return False
    return True


def verdict_of(cmd: Cmd) -> Verdict:
    return worst(cmd.found)


_NOTHING_FOUND = Verdict(S, ())


def worst(found) -> Verdict:
    """The verdict of a list of findings: the worst level, with up to four distinct findings at it."""
    if not found:
        return _NOTHING_FOUND
    level = max(f.level for f in found)
    kept: list[Finding] = []
    for f in found:
        if f.level == level and all(f.reason != k.reason for k in kept):
            kept.append(f)
    effects = tuple({(f.effect, f.level): None for f in found if f.level > S})     # every effect, once
    return Verdict(level, tuple(kept[:4]), effects)


def judge(part: Part, key: Key, ctx: Context) -> Judged:
    """One part judged: its verdict, and the facts the whole-line rules follow (carried in the Judged)."""
    cmd = analyse(part, key, ctx)
    return Judged(part, key, verdict_of(cmd), cmd.facts.summary())
