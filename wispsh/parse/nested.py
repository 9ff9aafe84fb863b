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
from wispsh.programs.code_carriers import ARGV, ARITH, EXPANDED, PROMPT, SHELL
from wispsh.support.lazyre import lazy_re

_PROMPT_EXPANSION = lazy_re(r"\$\{[!#]?[A-Za-z_0-9]+(?:\[[^]]*\])?@P\}")   # ${x@P}: x's text run as a prompt
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Where `sh -c CODE` came from: a wrapper that builds it names it, else "sh -c".
_CODE_WRAPPERS = {"watch": "watch", "su": "su -c", "flock": "flock -c", "xargs": "xargs"}
_NO_VALUE = object()
_READ_BY_NAME = frozenset({row.program for row in carriers.CARRIERS} | _DECLARATIONS)


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
    if unwrapped.code is not None:
        out.enqueue(unwrapped.code, unwrapped.code_origin or "env -S", index)
    elif _env_split_string_dynamic(argv):
        out.dynamic(index, "env -S string")
    command = list(unwrapped.command)
    if not command:
        return
    program = _base(command[0])
    found_for: set[tuple] = set()   # verbs whose command was found: their later rows are not read
    for row in carriers.read_by_splitter(program):
        if row.kind in (SHELL, ARGV) and row.verb in found_for:
            continue
        words = _after_verb(program, command, row.verb)
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
    k, takes_code, reads_stdin = 0, False, False
    while k < len(args):
        arg = args[k]
        if arg is None:
            out.dynamic(index, "shell -c code" if takes_code else "a shell option")
            return True
        if arg in ("--", "-"):
            k += 1
            break
        if arg.startswith("--"):
            k += 2 if arg in row.takes_value else 1
            continue
        if len(arg) > 1 and arg[0] in "-+":
            cluster = arg[1:]
            if arg[0] == "-" and "c" in cluster:
                takes_code = True
            if arg[0] == "-" and "s" in cluster:
                reads_stdin = True
            k += 1
            k += sum(1 for ch in cluster if ch in "oO")   # -o NAME / +O NAME take the next word
            continue
        break
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
    for k, arg in enumerate(args):
        if skip_value:
            skip_value = False
            continue
        if arg is None or not arg.startswith("-") or arg == "-":
            if row.posix:
                return False
            continue
        if arg == "--":
            return False
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
            return False
        if row.kind in (ARITH, EXPANDED):
            _arithmetic(out, index, [code], row.origin)
        elif code is None:
            out.dynamic(index, f"{row.origin} code")
        else:
            out.enqueue(code, row.origin, index)   # type: ignore[arg-type]
        return True
    return False


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


_READERS = {
    carriers.SHELL_LINE: _shell_line, carriers.REST: _rest, carriers.OPTION: _option, carriers.FIRST: _first,
    carriers.DELIMITED: _delimited, carriers.VALUES: _values, carriers.OPERANDS: _operands,
}


# ---------------------------------------------------------------- helpers


def _arithmetic(out: Builder, index: int, values, origin: str = "arithmetic") -> None:
    """Text bash evaluates or expands once more: every $(…) and `…` in it runs, quoted or not."""
    for value in values:
        if value and ("$(" in value or "`" in value):
            for body in scan.substitution_bodies(value):
                out.enqueue(body, origin, index)


def _after_verb(program: str, command: list, verb: tuple[str, ...]) -> list | None:
    """The words after the program's verb (its global options skipped), None when the verb is not there;
    the words after the program when the row has no verb."""
    if not verb:
        return command[1:]
    from wispsh.keys import default_multiplexers

    takes = default_multiplexers().value_options.get(program, {})
    k, args = 1, command
    while k < len(args) and args[k] is not None and args[k].startswith("-") and args[k] != "--":
        k += 1 + (takes.get(args[k], 0) if "=" not in args[k] else 0)
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
