"""What a part hands on to run: the code and commands in its words, read from programs/code_carriers.py.

For each part the driver calls `read`: the part's variables that hold code (PROMPT_COMMAND, PS1, a quoted
`$(…)` kept in a variable), its wrappers (`sudo`, `env -S`, `su -c` via programs/wrappers.py), and the rows
of the code-carrier table for its program: shell text becomes a job (split again as a line, its parts under
this one), an argv becomes a part of its own (`find -exec CMD ;`, `uv run CMD`), arithmetic text gives the
`$(…)` bash runs there. A word known only at run time where code is makes the part opaque (judged whole).
One small reader per place (`where`) of the table; no program names below except the shells' stdin.
"""
from __future__ import annotations

from wispsh.parse import scan
from wispsh.parse.parts import Builder, RawPart, settle_program
from wispsh.programs import code_carriers as carriers
from wispsh.programs.code_carriers import ARGV, ARITH, COMMAND, EXCMD, EXPANDED, PROMPT, SHELL
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

_PROMPT_EXPANSION = lazy_re(r"\$\{[!#]?[A-Za-z_0-9]+(?:\[[^]]*\])?@P\}")   # ${x@P}: x's text run as a prompt
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Where `sh -c CODE` came from: a wrapper that builds it names it, else "sh -c".
_CODE_WRAPPERS = {"watch": "watch", "su": "su -c", "flock": "flock -c", "xargs": "xargs"}
_NO_VALUE = object()
_READ_BY_NAME = frozenset({row.program for row in carriers.CARRIERS} | _DECLARATIONS)
_SETTINGS = (carriers.CONFIG, carriers.ALIAS, carriers.PLUS)    # rows that read settings, not the command run


def _base(word: str | None) -> str:
    return (word or "").rsplit("/", 1)[-1]


def read(out: Builder, index: int) -> None:
    """Every piece of code and every command part `index` runs, added to `out`."""
    raw = out.parts[index]
    if raw.opaque:
        return
    for assignment in raw.assignments:
        _variable(out, index, assignment.name, assignment.value)
    if "@P}" in "".join(raw.words) and any(_PROMPT_EXPANSION.search(word) for word in raw.words):
        out.dynamic(index, "a ${…@P} prompt expansion (a variable's text run as code)")
        return
    argv = raw.argv
    if not argv:
        return
    from wispsh.programs import wrappers

    first = wrappers.program_name(argv[0])
    if first not in wrappers.WRAPPERS and first not in _READ_BY_NAME and first not in wrappers.COMMAND_RUNNERS:
        return      # most parts: a program that runs nothing given to it (no unwrapping to do)
    unwrapped = wrappers.unwrap(tuple(argv), raw.words if len(raw.words) == len(argv) else None)
    for assignment in unwrapped.env:        # `env PAGER=CMD man`, `sudo EDITOR=CMD visudo`
        _variable(out, index, assignment.name, assignment.value)
    if unwrapped.code is not None:
        out.enqueue(unwrapped.code, unwrapped.code_origin or "env -S", index)
    elif _env_split_string_dynamic(argv):
        out.dynamic(index, "env -S string")
    command = list(unwrapped.command)
    if not command:
        return
    program = _base(command[0])
    found_for: set[tuple] = set()   # verbs whose command was found: their later rows are not read
    verb_at: list[int] = []         # where the verb is, found once for the rows that name one
    for row in carriers.read_by_splitter(program):
        if row.kind in (SHELL, ARGV) and row.verb in found_for and row.where not in _SETTINGS:
            continue
        words = _after_verb(program, command, row.verb, verb_at)
        if words is None:
            continue
        if _READERS[row.where](out, index, raw, row, words, unwrapped) and row.kind in (SHELL, ARGV):
            found_for.add(row.verb)
    if program in wrappers.COMMAND_RUNNERS:
        inner = wrappers.command_run_by(command)
        if inner:
            _run_directly(out, index, raw, list(inner), program)
    if program in _DECLARATIONS:
        known = {a.name for a in raw.assignments}   # tree-sitter's reading; the fallback gives words only
        for value in command[1:]:
            if value is not None and "=" in value:
                name, _, text = value.partition("=")
                if name not in known:
                    _variable(out, index, name, text)


# ---------------------------------------------------------------- variables that hold code


def _variable(out: Builder, index: int, name: str, value: str | None) -> None:
    """PROMPT_COMMAND is code; PS0-PS4 expand $(…) when shown (PS4 under `set -x`), quoted or not. Any other
    `x='a[$(rm -rf ~)]'`: a $(…) kept literal in a variable runs wherever bash later evaluates the text
    (`${x@P}`, `${!x}`, `$((x))`, `[[ $x -eq 1 ]]`): judged as code where it is stored."""
    if value is None:
        return
    kind = carriers.VARIABLES.get(name)
    if kind == SHELL:
        out.enqueue(value, "prompt", index)
        return
    if kind == COMMAND:     # PAGER, EDITOR, GIT_SSH_COMMAND: the command line a program runs
        from wispsh.programs import config_code

        what, code = config_code.variable(name, value)
        if what == config_code.CODE:
            out.enqueue(code, name, index)
        return
    if "$(" not in value and "`" not in value:
        return
    bodies = scan.substitution_bodies(value)
    if kind == PROMPT:
        if bodies:
            out.enqueue("\n".join(bodies), "prompt", index)
        return
    for body in bodies:
        out.enqueue(body, "stored code", index)


# ---------------------------------------------------------------- the readers, one per place


def _shell_line(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """sh's own command line: `-c CODE [NAME ARGS]`, a script file, or code on stdin (`-s`, no operand)."""
    k, takes_code, reads_stdin, noexec, interactive = 0, False, False, False, False
    while k < len(args):
        arg = args[k]
        if arg is None:
            if not (takes_code and noexec and not interactive):     # `bash -n -c "$X"` runs none of it
                out.dynamic(index, "shell -c code" if takes_code else "a shell option")
            return True
        if arg in ("--", "-"):
            k += 1
            break
        if arg.startswith("--"):
            noexec = noexec or arg in ("--noexec", "--no-exec", "--no-execute")
            k += 2 if arg in row.takes_value else 1
            continue
        if len(arg) > 1 and arg[0] in "-+":
            cluster = arg[1:]
            if arg[0] == "-" and "c" in cluster:
                takes_code = True
            if arg[0] == "-" and "s" in cluster:
                reads_stdin = True
            interactive = interactive or arg[0] == "-" and "i" in cluster
            if "n" in cluster:
                noexec = arg[0] == "-"     # the last of -n / +n wins
            if "o" in cluster and k + 1 < len(args) and args[k + 1] == "noexec":
                noexec = arg[0] == "-"
            k += 1
            k += sum(1 for ch in cluster if ch in "oO")   # -o NAME / +O NAME take the next word
            continue
        break
    if noexec and not interactive:
        return True     # `bash -n`: it reads its code (-c, a file, its input) and runs none of it
    if takes_code:
        if k >= len(args):
            return False
        code = args[k]
        if code is None:
            out.dynamic(index, "shell -c code")
        elif "xargs" in unwrapped.wrappers and _xargs_replaces(raw.argv):
            out.dynamic(index, "shell -c code with xargs replacement")
        else:
            wrappers = unwrapped.wrappers
            out.enqueue(code, _CODE_WRAPPERS.get(wrappers[-1], "sh -c") if wrappers else "sh -c", index)
        return True
    if k < len(args) and not reads_stdin:
        return False   # a script file: not code we can read
    if raw.stdin_code is not None:
        heredoc = any(r.op in ("<<", "<<-") for r in raw.redirects)
        out.enqueue(raw.stdin_code, "heredoc" if heredoc else "here-string", index)
        return True
    if raw.pipeline is not None and raw.stage > 0:
        feeder = _stage(out, raw.pipeline, raw.stage - 1)
        if feeder is not None:
            fed = out.parts[feeder]
            feeder_program = _base(fed.argv[0]) if fed.argv else ""
            if feeder_program == "echo" and all(a is not None for a in fed.argv):
                words = [a for a in fed.argv[1:] if a not in ("-n", "-e", "-E")]
                out.enqueue(" ".join(words), "pipe", index)
                return True
            if feeder_program == "cat" and fed.stdin_code is not None and len(fed.argv) == 1:
                out.enqueue(fed.stdin_code, "pipe", index)
                return True
    return False


def _rest(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """The words after the carrier's options (and operands that are not code): joined shell text, or argv."""
    k = 0
    while k < len(args):
        word = args[k]
        if word is None:
            if row.own_options or not args[k:]:
                break
            break
        if word in row.skip:
            k += 1
            continue
        if not row.own_options:
            if word == "--" and k == 0:
                k += 1
            break
        if word == "--":
            k += 1
            break
        if not word.startswith("-") or word == "-":
            break
        name, eq, _ = word.partition("=")
        k += 1 + (1 if (word in row.takes_value or name in row.takes_value) and not eq else 0)
    if k < len(args) and args[k] is None and row.own_options and row.kind != ARGV:
        out.dynamic(index, f"{row.origin}'s argument")
        return True
    rest = args[k + row.operands_before:]
    if k + row.operands_before > len(args) or not rest:
        return False
    if row.kind == ARGV:
        _run_directly(out, index, raw, list(rest), row.origin)
    elif any(w is None for w in rest):
        out.dynamic(index, f"{row.origin}'s command")
    else:
        out.enqueue(" ".join(rest) if row.joined else rest[0], row.origin, index)
    return True


def _option(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """The first value of one of the row's options is code: `-c CODE`, `-cCODE`, `-qc CODE` (getopt
    clusters), `--command CODE`, `--command=CODE`."""
    short = {o[1] for o in row.options if len(o) == 2}
    skip_value = False
    found = False
    for k, arg in enumerate(args):
        if skip_value:
            skip_value = False
            continue
        if arg is None or not arg.startswith("-") or arg == "-":
            if row.posix:
                return found
            continue
        if arg == "--":
            return found
        following = args[k + 1] if k + 1 < len(args) else _NO_VALUE
        if arg.startswith("--"):
            name, eq, attached = arg.partition("=")
            if name not in row.options:
                skip_value = name in row.takes_value and not eq
                continue
            code = attached if eq else following
        else:
            at = next((j for j in range(1, len(arg)) if arg[j] in short), None)
            if at is None:
                skip_value = arg in row.takes_value
                continue
            code = arg[at + 1:] or following
        if code is _NO_VALUE:
            return found
        if arg.startswith("--") and not eq or not arg.startswith("--") and not arg[at + 1:]:
            skip_value = True       # the value was the next word
        if row.kind in (ARITH, EXPANDED):
            _arithmetic(out, index, [code], row.origin)
        elif code is None:
            out.dynamic(index, f"{row.origin} code")
        elif row.kind == EXCMD:
            _editor_commands(out, index, code, row.origin)  # type: ignore[arg-type]
        elif row.kind == COMMAND:   # a pager or tool command line: a plain `cat`, `less -R` runs nothing more
            from wispsh.programs import config_code

            what, text = config_code.command_line(code)  # type: ignore[arg-type]
            if what == config_code.CODE:
                out.enqueue(text, row.origin, index)
        else:
            out.enqueue(code, row.origin, index)   # type: ignore[arg-type]
        if not row.every:
            return True
        found = True
    return found


def _first(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """The first operand is code: `trap CODE SIGNAL…`."""
    if row.kind not in (SHELL, ARGV):
        return False
    rest = args[1:] if args[:1] == ["--"] else args
    if len(rest) < row.min_operands or not rest or rest[0] in row.unless:
        return False
    if rest[0] is None:
        out.dynamic(index, f"{row.origin}'s code")
    else:
        out.enqueue(rest[0], row.origin, index)
    return True


def _delimited(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """The words after a marker up to a terminator are a command of their own: `find -exec CMD {} ;`."""
    offset = len(raw.argv) - len(args)
    written = raw.words[offset:] if offset >= 0 and len(raw.words) == len(raw.argv) else \
        [a if a is not None else "?" for a in args]
    found = False
    k = 0
    while k < len(args):
        if args[k] in row.markers:
            end = k + 1
            while end < len(args) and args[end] not in row.ends:
                end += 1
            argv, words = args[k + 1:end], written[k + 1:end]
            if argv:
                extra = RawPart(" ".join(words), raw.span, list(argv), list(words), origin=row.origin,
                                parent=index, code_depth=raw.code_depth, loops=raw.loops, context=raw.context,
                                local=raw.local)
                settle_program(extra)
                out.add(extra)
                found = True
            k = end + 1
        else:
            k += 1
    return found


def _values(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """The VALUE of each NAME=VALUE operand is code: `alias ll='ls -l'`."""
    found = False
    for value in args:
        if value is not None and "=" in value and not value.startswith("-"):
            out.enqueue(value.split("=", 1)[1], row.origin, index)
            found = True
    return found


def _operands(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """Every operand is arithmetic text: the $(…) in it run, quoted or not (`let 'a[$(cmd)]=1'`)."""
    if row.kind == ARITH:
        _arithmetic(out, index, args)
    return False


def _config(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """Settings given as options whose value is a command line (`git -c core.pager=CMD`, `ssh -o
    ProxyCommand=CMD`): programs/config_code.py says which, and the code is split. A setting written with a
    word known only at run time, where a command would be, makes the part opaque."""
    if not _mentions(args, row.options):
        return False        # no setting option (most git parts of a line: `git status`, `git log -5`)
    from wispsh.programs import config_code

    texts = _placeholders(raw, args)
    for value in _settings(row, texts, config_code):
        if value.startswith(UNKNOWN):
            key = _literal_key(value[len(UNKNOWN):], row.dialect)
            if key is None or _is_code_key(key, row.dialect, config_code):
                out.dynamic(index, f"{row.origin} {key or 'setting'}")
            continue
        if row.dialect == "git":
            key, _, text = value.partition("=")
            what, code = config_code.git_config(key, text)
        else:
            _, what, code = config_code.ssh_option(value)
        if what == config_code.CODE:
            out.enqueue(code, row.origin, index)
    return False


def _mentions(args: list, options: tuple[str, ...]) -> bool:
    """Whether some word could be one of `options` as getopt reads it (`-c`, `-cX`, a cluster `-pc`, `--config`,
    `--config=X`), or is known only at run time: a cheap test before reading the options."""
    letters = [o[1] for o in options if len(o) == 2]
    longs = tuple(o for o in options if o[:2] == "--")
    for w in args:
        if w is None:
            return True
        if w[:1] != "-" or len(w) < 2:
            continue
        if w[1] == "-":
            if longs and w.startswith(longs):
                return True
        elif any(letter in w for letter in letters):
            return True
    return False


def _settings(row, texts: list[str], config_code) -> list[str]:
    """The values of the row's setting options (`-c`, `-o`), read with the program's option grammar."""
    from wispsh.programs.grammar import read_options

    if row.dialect == "git" and not row.verb:
        configs, _ = config_code.git_globals(texts)
        return configs
    shorts = "".join(o[1] for o in row.takes_value + row.options if len(o) == 2)
    longs = tuple(o[2:] for o in row.takes_value + row.options if o.startswith("--"))
    o = read_options(texts, shorts, longs, (), row.posix)
    names = [o[2:] if o.startswith("--") else o[1:] for o in row.options]
    return o.all(*names)


def _placeholders(raw: RawPart, args: list) -> list[str]:
    """`args` with each word known only at run time as UNKNOWN followed by the word as written."""
    if all(a is not None for a in args):
        return list(args)
    offset = len(raw.argv) - len(args)
    written = raw.words[offset:] if offset >= 0 and len(raw.words) == len(raw.argv) else ["" for _ in args]
    return [a if a is not None else UNKNOWN + w for a, w in zip(args, written)]


def _literal_key(written: str, dialect: str) -> str | None:
    """The key of a setting written with an expansion (`core.pager="$P"`): the text before `=` (or a blank for
    ssh), when that part is literal; None when the key itself is known only at run time."""
    text = written.lstrip("'\"")
    cut = [i for i in (text.find("="), text.find(" ") if dialect == "ssh" else -1) if i > 0]
    key = text[:min(cut)] if cut else text
    if not key or any(ch in key for ch in "$`'\"\\"):
        return None
    return key


def _is_code_key(key: str, dialect: str, config_code) -> bool:
    if dialect == "git":
        return config_code.git_config(key, "x")[0] != config_code.NOT_CODE
    return key.lower() in config_code.SSH_COMMAND_OPTIONS


def _alias(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """`git -c alias.NAME=VALUE … NAME ARGS` runs the alias: a part for the git command it expands to (the
    alias's words, then ARGS), or the shell code after `!` (ARGS appended, as git passes them). An alias the
    line defines and does not name may still run (git passes -c on to the git commands it starts: `rebase
    -x 'git NAME'`), so each is a part too, once. An alias known only at run time makes the part opaque."""
    if not _mentions(args, ("-c", "--config-env")):
        return False
    from wispsh.programs import config_code

    texts = _placeholders(raw, args)
    configs, verb_at = config_code.git_globals(texts)
    aliases: dict[str, str] = {}
    unknown: set[str] = set()
    for entry in configs + _config_env(texts[:verb_at] if verb_at >= 0 else texts):
        if entry.startswith(UNKNOWN):
            key = _literal_key(entry[len(UNKNOWN):], "git")
            name = config_code.alias_name(key) if key is not None else None
            if name is not None:
                unknown.add(name)
            continue
        key, _, value = entry.partition("=")
        name = config_code.alias_name(key)
        if name is not None:
            aliases[name] = value
    if not aliases and not unknown:
        return False
    verb = args[verb_at] if verb_at >= 0 else None
    followed: set[str] = set()
    if verb is not None and verb not in config_code.GIT_COMMANDS:
        if verb in unknown or verb.lower() in unknown:
            out.dynamic(index, f"git alias {verb}")
            return False
        value = config_code.lookup_alias(aliases, verb)
        if value is not None:
            followed, loops = _chain(aliases, verb, config_code)
            if not loops:   # git refuses an alias loop: nothing runs
                _expand(out, index, raw, row, args, verb_at, value, aliases, config_code)
    if not raw.origin.startswith(row.origin):    # the line's own git: each alias it defines and did not name
        for name, value in aliases.items():
            if name not in followed and name not in config_code.GIT_COMMANDS:  # git ignores those
                _expand(out, index, raw, row, args, -1, value, aliases, config_code)
    return False


def _config_env(words: list) -> list[str]:
    """`--config-env=KEY=ENVVAR` / `--config-env KEY=ENVVAR`: KEY's value comes from the environment."""
    found = []
    for k, word in enumerate(words):
        if word.startswith("--config-env="):
            key = word[len("--config-env="):].partition("=")[0]
        elif word == "--config-env" and k + 1 < len(words):
            key = words[k + 1].partition("=")[0]
        else:
            continue
        found.append(UNKNOWN + key + "=")
    return found


def _chain(aliases: dict[str, str], verb: str, config_code) -> tuple[set[str], bool]:
    """The aliases `git VERB` goes through (a → b → reset), and whether they loop (a → b → a)."""
    seen: set[str] = set()
    name: str | None = verb
    while name is not None and len(seen) < config_code.MAX_ALIAS_STEPS:
        value = config_code.lookup_alias(aliases, name)
        key = name if name in aliases else name.lower()
        if value is None:
            break
        if key in seen:
            return seen, True
        seen.add(key)
        words = config_code.split_cmdline(value) if not value.lstrip().startswith("!") else None
        if not words:
            break
        _, at = config_code.git_globals(words)
        name = words[at] if at >= 0 else None
    return seen, False


def _expand(out: Builder, index: int, raw: RawPart, row, args: list, verb_at: int, value: str,
            aliases: dict[str, str], config_code) -> None:
    """One step of an alias: git's options before the verb (its `-c` dropped: read on this part already;
    the aliases kept while the expansion names another), the alias's words, the verb's arguments."""
    if raw.code_depth + 1 > config_code.MAX_ALIAS_STEPS:
        out.dynamic(index, "git aliases nested too deep")
        return
    written = raw.words[len(raw.words) - len(args):] if len(raw.words) >= len(args) and \
        len(raw.words) == len(raw.argv) else ["?" if a is None else a for a in args]
    rest = args[verb_at + 1:] if verb_at >= 0 else []
    rest_written = list(written[verb_at + 1:]) if verb_at >= 0 else []
    text = value.strip()
    if text.startswith("!"):
        out.enqueue(" ".join([text[1:]] + rest_written), row.origin, index)
        return
    words = config_code.split_cmdline(text)
    if not words:
        return      # an open quote: git refuses the alias, nothing runs
    _, at = config_code.git_globals(words)
    again = at >= 0 and config_code.lookup_alias(aliases, words[at]) is not None
    import shlex

    argv: list = ["git"]
    shown: list[str] = ["git"]
    head = args[:verb_at] if verb_at >= 0 else []
    k = 0
    while k < len(head):
        word = head[k]
        pair = 2 if word == "-c" else 1 if word is not None and word.startswith("-c") else 0
        if pair:
            entry = (head[k + 1] if k + 1 < len(head) else None) if pair == 2 else word[2:]
            key = (entry or "").partition("=")[0]
            if again and entry is not None and config_code.alias_name(key) is not None:
                argv.extend(head[k:k + pair])
                shown.extend(written[k:k + pair])
            k += pair
            continue
        argv.append(word)
        shown.append(written[k])
        k += 1
    argv.extend(words)
    shown.extend(shlex.quote(w) for w in words)
    argv.extend(rest)
    shown.extend(rest_written)
    extra = RawPart(" ".join(shown), raw.span, argv, shown, origin=row.origin, parent=index,
                    code_depth=raw.code_depth + 1, loops=raw.loops, context=raw.context, local=raw.local)
    settle_program(extra)
    out.add(extra)


def _plus(out: Builder, index: int, raw: RawPart, row, args: list, unwrapped) -> bool:
    """Every `+CMD` operand is an editor command (vim's `+{command}`)."""
    for word in args:
        if word is not None and word.startswith("+") and len(word) > 1:
            _editor_commands(out, index, word[1:], row.origin)
        elif word == "--":
            break
    return False


def _editor_commands(out: Builder, index: int, text: str, origin: str) -> None:
    from wispsh.programs import config_code

    for shell in config_code.ex_shell(text)[0]:
        if shell.strip():
            out.enqueue(shell, origin, index)


_READERS = {
    carriers.SHELL_LINE: _shell_line, carriers.REST: _rest, carriers.OPTION: _option, carriers.FIRST: _first,
    carriers.DELIMITED: _delimited, carriers.VALUES: _values, carriers.OPERANDS: _operands,
    carriers.CONFIG: _config, carriers.ALIAS: _alias, carriers.PLUS: _plus,
}


# ---------------------------------------------------------------- helpers


def _arithmetic(out: Builder, index: int, values, origin: str = "arithmetic") -> None:
    """Text bash evaluates or expands once more: every $(…) and `…` in it runs, quoted or not."""
    for value in values:
        if value and ("$(" in value or "`" in value):
            for body in scan.substitution_bodies(value):
                out.enqueue(body, origin, index)


def _verb_at(program: str, command: list) -> int:
    """Where the program's verb is in `command` (its global options skipped)."""
    from wispsh.keys import default_multiplexers

    takes = default_multiplexers().value_options.get(program, {})
    k, args = 1, command
    while k < len(args) and args[k] is not None and args[k].startswith("-") and args[k] != "--":
        k += 1 + (takes.get(args[k], 0) if "=" not in args[k] else 0)
    return k


def _after_verb(program: str, command: list, verb: tuple[str, ...], at: list) -> list | None:
    """The words after the program's verb (its global options skipped), None when the verb is not there;
    the words after the program when the row has no verb. `at` holds the verb's place once it is known."""
    if not verb:
        return command[1:]
    if not at:
        at.append(_verb_at(program, command))
    k, args = at[0], command
    if k >= len(args) or args[k] != verb[0]:
        return None
    rest = args[k + 1:]
    for word in verb[1:]:
        while rest and rest[0] is not None and rest[0].startswith("-"):
            rest = rest[1:]
        if rest[:1] != [word]:
            return None
        rest = rest[1:]
    return rest


def _run_directly(out: Builder, index: int, raw: RawPart, inner: list, origin: str) -> None:
    """A part for the command another program runs with exec (its words are argv, not code)."""
    offset = len(raw.argv) - len(inner)
    words = raw.words[offset:] if 0 <= offset and len(raw.words) == len(raw.argv) \
        and raw.argv[offset:] == inner else [a if a is not None else "?" for a in inner]
    extra = RawPart(" ".join(words), raw.span, list(inner), list(words), origin=origin, parent=index,
                    code_depth=raw.code_depth, loops=raw.loops, context=raw.context, local=raw.local)
    settle_program(extra)
    out.add(extra)


def _stage(out: Builder, pipeline: int, stage: int) -> int | None:
    for k in range(len(out.parts) - 1, -1, -1):
        p = out.parts[k]
        if p.pipeline == pipeline and p.stage == stage:
            return k
    return None


def _xargs_replaces(argv: list) -> bool:
    return any(a is not None and (a.startswith("-I") or a.startswith("-i") or a.startswith("--replace"))
               for a in argv)


def _env_split_string_dynamic(argv: list) -> bool:
    if not argv or _base(argv[0]) != "env":
        return False
    for k, a in enumerate(argv[1:], 1):
        if a in ("-S", "--split-string") and k + 1 < len(argv) and argv[k + 1] is None:
            return True
    return False
