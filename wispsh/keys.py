"""The approval key of a part (ADR 0015, ADR 0027): the program that actually runs, and for multiplexers its verb.

`sudo env A=1 timeout 5 /usr/bin/head -n 5` -> `head *`; `git -C app commit -m x` -> `git commit *`;
`$X args`, `python3 -c '…'`, `source ./env.sh` -> the exact text. Matching elsewhere is by key equality, so every
pattern built here is canonical: `PROGRAM *` or `PROGRAM VERB *`, or the part's text as written.
"""
from __future__ import annotations

from _collections_abc import Sequence  # collections.abc's own (loaded with os; no collections)

from wispsh.model import Key, Part
from wispsh.programs.code_carriers import EVAL_VERBS, INTERPRETERS, SOURCING, InlineCode
from wispsh.programs.wrappers import SYSTEM_DIRS, program_name, unwrap
from wispsh.support.lazyre import lazy_re
from wispsh.support.memo import cache
from wispsh.support.record import Record
from wispsh.vocab.shells import KEYED as KEYED_SHELLS

_set = object.__setattr__  # records set their fields once, in __init__

MULTIPLEXERS_FILE = "multiplexers.txt"
MULTIPLEXER_OPTIONS_FILE = "multiplexer-options.txt"


# Keywords that lead a clause (`do rm x` is `rm x`) and keywords that are never a command of their own.
CLAUSE_KEYWORDS = frozenset({"do", "then", "else", "elif", "if", "while", "until", "!", "{", "coproc"})
NEVER_A_COMMAND = frozenset({"done", "fi", "esac", "}", "in", "for", "case", "select", "function", ";;", ";&",
                             ";;&"})


# Environment variables whose value is code the program will load or run (`PERL5DB='exec "/bin/sh"' perl x`,
# `LD_PRELOAD=/tmp/x.so ls`): a part that sets one is code given inline, keyed by its exact text.
CODE_ENV = frozenset({
    "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PROMPT_COMMAND", "PERL5OPT", "PERL5DB",
    "NODE_OPTIONS", "RUBYOPT", "PYTHONSTARTUP", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR",
    "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS",
})


# How interpreters take code on their command line (`python -c`, `node -e`, `deno eval`) and which programs
# source a file: rows of the one code-carrier table (programs/code_carriers.py), read here for the key.
_DIGITS = lazy_re(r"0[xX][0-9a-fA-F]*|[0-9]*")  # `perl -0777`, `-0x1FF`, `-l015`
_VERB_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_VERB_REST = _VERB_FIRST | frozenset(".:@%+,-")


def _is_verb(word: str) -> bool:
    """A word that can be a verb: no `/`, `=`, leading `-`, expansion or glob. Without `re` (importing it is
    ~3 ms of a cold start, and `git status` needs no other pattern): as `^[A-Za-z0-9_][A-Za-z0-9_.:@%+,-]*$`
    matched, a trailing newline included (`$` matches before one)."""
    if word.endswith("\n"):
        word = word[:-1]
    return bool(word) and word[0] in _VERB_FIRST and _VERB_REST.issuperset(word)


# ---------------------------------------------------------------- the multiplexer table (data)


class Multiplexers(Record):
    """The multiplexers and what their global options do. The options may be given as a loader (`options`, a
    callable returning the four tables): then they are read on first use, so a line without a multiplexer
    (`cd src && grep -rn foo .`) never parses multiplexer-options.txt."""

    programs: frozenset[str]
    value_options: dict[str, dict[str, int]]        # program -> option -> values taken
    operations: dict[str, dict[str, str]]           # program -> option -> verb (pacman -S)
    config_options: dict[str, frozenset[str]]       # program -> options that load code
    harmless_config: dict[str, tuple[str, ...]]     # program -> harmless value prefixes

    FIELDS = ('programs', 'value_options', 'operations', 'config_options', 'harmless_config')
    __slots__ = ('programs', '_tables', '_load')

    def __init__(self, programs, value_options=None, operations=None, config_options=None,
                 harmless_config=None, *, options=None) -> None:
        _set(self, 'programs', programs)
        _set(self, '_load', options)
        _set(self, '_tables', None if options is not None else
             tuple({} if t is None else t for t in (value_options, operations, config_options, harmless_config)))

    def _options(self) -> tuple:
        if self._tables is None:
            _set(self, '_tables', self._load())
        return self._tables

    value_options = property(lambda self: self._options()[0])
    operations = property(lambda self: self._options()[1])
    config_options = property(lambda self: self._options()[2])
    harmless_config = property(lambda self: self._options()[3])


def _items(path) -> list[str]:
    """A one-item-a-line file: blank lines and `#` comments dropped."""
    items = []
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    for raw in text.splitlines():
        item = raw.split("#", 1)[0].strip()
        if item:
            items.append(item)
    return items


def load_multiplexers(programs_file, options_file=None) -> Multiplexers:
    """Read the multiplexer list and, when given, their global options that take values (on first use)."""
    programs = frozenset(_items(programs_file))
    if options_file is None:
        return Multiplexers(programs)
    return Multiplexers(programs, options=lambda: _read_options(options_file))


def _read_options(options_file) -> tuple[dict, dict, dict, dict]:
    value_options: dict[str, dict[str, int]] = {}
    operations: dict[str, dict[str, str]] = {}
    config_options: dict[str, frozenset[str]] = {}
    harmless_config: dict[str, tuple[str, ...]] = {}
    for line in _items(options_file):
        head, _, rest = line.partition(":")
        head_words = head.split()
        program = head_words[0]
        if head_words[1:] == ["@ops"]:
            for group in rest.split():
                names = group.split("|")
                for name in names:
                    operations.setdefault(program, {})[name] = names[0]
            continue
        if head_words[1:] == ["@config"]:
            config_options[program] = config_options.get(program, frozenset()) | frozenset(rest.split())
            continue
        if head_words[1:] == ["@harmless-config"]:
            harmless_config[program] = harmless_config.get(program, ()) + tuple(w.lower() for w in rest.split())
            continue
        for token in rest.split():
            name, _, count = token.partition(":")
            value_options.setdefault(program, {})[name] = int(count or 1)
    return value_options, operations, config_options, harmless_config


@cache
def default_multiplexers() -> Multiplexers:
    """The shipped table (Resources/, in the checkout or the installed wheel), read once."""
    from wispsh.support.resources import resource_path

    return load_multiplexers(resource_path(MULTIPLEXERS_FILE), resource_path(MULTIPLEXER_OPTIONS_FILE))


# ---------------------------------------------------------------- the verb

_RUNTIME = object()  # the verb's place holds a word known only at run time


def find_verb(program: str, args: Sequence[str | None], table: Multiplexers) -> str | None | object:
    """The multiplexer's verb: the first word after the program that is not an option, an option's value or a
    toolchain selector (`+nightly`), if it looks like a word. `_RUNTIME` when that place is known only at run time."""
    value_options = table.value_options.get(program, {})
    operations = table.operations.get(program, {})
    i = 0
    while i < len(args):
        word = args[i]
        if word is None:
            return _RUNTIME
        if word == "--":
            i += 1
            if i < len(args) and args[i] is None:
                return _RUNTIME
            return args[i] if i < len(args) and _is_verb(args[i] or "") else None
        if operations and word.startswith("-") and len(word) > 1:
            if word in operations:
                return operations[word]
            if not word.startswith("--"):
                for letter in word[1:]:
                    if "-" + letter in operations:
                        return operations["-" + letter]
        if word.startswith("-") and len(word) > 1:
            i += 1 + (value_options.get(word, 0) if "=" not in word else 0)
            continue
        if word.startswith("+") and len(word) > 1:   # cargo +nightly
            i += 1
            continue
        return word if _is_verb(word) else None
    return None


def loads_code(program: str, args: Sequence[str | None], table: Multiplexers) -> bool:
    """True when a global option before the verb gives the program configuration that can run code (`git -c
    core.fsmonitor=…`, `git --exec-path=DIR`), or a value known only at run time; harmless values aside."""
    config = table.config_options.get(program)
    if not config:
        return False
    value_options = table.value_options.get(program, {})
    harmless = table.harmless_config.get(program, ())
    i = 0
    while i < len(args):
        word = args[i]
        if word is None:
            return False   # the verb's place: find_verb makes the key exact
        if word == "--" or not word.startswith("-") or len(word) < 2:
            return False
        takes = value_options.get(word, 0) if "=" not in word else 0
        name, eq, attached = word.partition("=") if word.startswith("--") else (word[:2], word[2:] != "", word[2:])
        if name in config:
            if eq:
                value: str | None | object = attached
            elif word in config and takes:
                value = args[i + 1] if i + 1 < len(args) else ""
            else:
                value = ""   # `git --exec-path` alone prints the path
            if value is None:
                return True
            if value and not (isinstance(value, str) and value.lower().startswith(harmless)):
                return True
        i += 1 + takes
    return False


def _outside_system_dirs(word: str | None) -> str | None:
    """The program's path as bash reads it when it names a file outside the system's directories, else None."""
    if word is None or "/" not in word.rstrip("/"):
        return None
    path = word.rstrip("/")
    directory = path.rsplit("/", 1)[0]
    while "//" in directory:
        directory = directory.replace("//", "/")
    return None if directory in SYSTEM_DIRS else path


def _process_substitution_script(part: Part, program: str) -> bool:
    """`bash <(curl …)`, `python <(…)`: the program runs code that a pipe hands it."""
    if program not in KEYED_SHELLS and _interpreter(program) is None:
        return False
    return any(w.startswith(("<(", ">(")) for w in part.words[1:])


# ---------------------------------------------------------------- interpreters


def _python_name(program: str) -> bool:
    """python, python3, python3.12, pypy3, ...: `^(python|pypy)[0-9.]*$` as re matched it (a trailing newline
    too), without importing re for every `python -m pytest`."""
    if program.endswith("\n"):
        program = program[:-1]
    head = "python" if program.startswith("python") else "pypy" if program.startswith("pypy") else None
    return head is not None and _VERSION_CHARS.issuperset(program[len(head):])


_VERSION_CHARS = frozenset("0123456789.")


def _interpreter(program: str) -> InlineCode | None:
    if _python_name(program):
        return INTERPRETERS["python"]
    return INTERPRETERS.get(program)


def _shell_code(args: Sequence[str | None]) -> tuple[bool, str | None | object]:
    """For `sh [options] [-c CODE | SCRIPT | -s]`: (given -c, the code word or None when missing)."""
    has_c = False
    i = 0
    while i < len(args):
        word = args[i]
        if word is None:
            return has_c, _RUNTIME
        if word == "--":
            i += 1
            break
        if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if (word.startswith("-") or word.startswith("+")) and len(word) > 1:
            if not word.startswith("--") and "c" in word[1:]:
                has_c = True
            i += 1
            continue
        break
    if i >= len(args):
        return has_c, None
    return has_c, (_RUNTIME if args[i] is None else args[i])


_SHELL_VALUE_OPTIONS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def _reads_stdin_code(program: str, args: Sequence[str | None]) -> bool:
    """True when the interpreter or shell takes its program from stdin: no script operand, `-`, or `sh -s`."""
    spec = _interpreter(program) or InlineCode()
    i = 0
    while i < len(args):
        word = args[i]
        if word is None or word == "-":
            return True   # `-`, or unknowable and maybe `-`
        if word == "--":
            return i + 1 >= len(args) or args[i + 1] == "-"
        if not (word.startswith("-") and len(word) > 1):
            return False  # a script file: stdin is its data
        if program in KEYED_SHELLS and not word.startswith("--") and "s" in word[1:]:
            return True
        if word in _SHELL_VALUE_OPTIONS or word in spec.long_value:
            i += 2
            continue
        if not word.startswith("--"):
            holds, takes_next = _read_cluster(word, spec)
            if holds == "stop":
                return False  # `python -m MODULE`
            i += 1 if takes_next else 0
        i += 1
    return True


def _read_cluster(word: str, spec: InlineCode) -> tuple[str | None, bool]:
    """Walk one cluster of short options (`-lane`, `-i.bak`, `-0777`, `-W ignore`).
    Returns (what it holds: "code", "stop" or None, whether its last option's value is the next word)."""
    j = 1
    while j < len(word):
        letter = word[j]
        if letter in spec.short_code:
            return "code", False
        if letter in spec.short_stop:
            return "stop", False
        if letter in spec.short_optional:
            return None, False
        if letter in spec.short_value:
            return None, j == len(word) - 1
        j += 1
        if letter in spec.short_digits:
            j = _DIGITS.match(word, j).end()  # type: ignore[union-attr]
    return None, False


def _inline_code(program: str, args: Sequence[str | None], spec: InlineCode) -> bool:
    """True when `args` give the interpreter code on its command line (`-c`, `-e`, `--eval=…`, `-ne`)."""
    i = 0
    while i < len(args):
        word = args[i]
        if word is None or word == "--" or not word.startswith("-") or word == "-":
            return False
        probe = word.lower() if spec.fold_case else word
        name = probe.partition("=")[0]
        if name in spec.long_code:
            return True
        if probe.startswith("--") or (spec.fold_case and len(probe) > 2):
            i += 2 if name in spec.long_value and "=" not in probe else 1
            continue
        holds, takes_next = _read_cluster(probe, spec)
        if holds is not None:
            return holds == "code"
        i += 2 if takes_next else 1
    return False


def _runs_code_as_written(part: Part, program: str, args: Sequence[str | None], wrappers: Sequence[str]) -> bool:
    """The part hands code to an interpreter in a way only its exact text describes."""
    if program in SOURCING:
        return True
    if program == "eval":
        return any(word is None for word in args)
    # code on stdin (heredoc, here-string, pipe), or a script or code that xargs appends at run time
    fed_stdin = part.stdin_code is not None or (part.pipeline is not None and part.stage > 0) or "xargs" in wrappers
    if program in KEYED_SHELLS and program not in INTERPRETERS:
        has_c, code = _shell_code(args)
        if has_c:
            return code is None or code is _RUNTIME
        return fed_stdin and _reads_stdin_code(program, args)
    spec = _interpreter(program)
    if spec is not None:
        if _inline_code(program, args, spec):
            return True
        if program in KEYED_SHELLS:   # fish, pwsh: `-c` was looked for above
            return fed_stdin and _reads_stdin_code(program, args)
        return fed_stdin and program != "npx" and _reads_stdin_code(program, args)
    return False


# ---------------------------------------------------------------- the key


def _exact(part: Part, program: str | None, **fields) -> Key:
    return Key(program=program, verb=fields.pop("verb", None), pattern=part.text, exact=True, **fields)


def key_for(part: Part, multiplexers: Multiplexers | None = None) -> Key:
    """The approval key of `part`. `multiplexers` defaults to the shipped table (tests pass another)."""
    table = multiplexers if multiplexers is not None else default_multiplexers()
    argv = list(part.argv)
    while argv and argv[0] in CLAUSE_KEYWORDS:
        argv.pop(0)   # a clause is its command: `do rm x` is `rm x`; a keyword is never a key of its own
    if not argv or argv[0] in NEVER_A_COMMAND:
        return _exact(part, None, env=part.assignments, runs_nothing=not argv and not part.opaque)

    unwrapped = unwrap(argv, part.words[len(part.argv) - len(argv):] if part.words else None)
    common = dict(
        command=unwrapped.command, wrappers=unwrapped.wrappers, env=part.assignments + unwrapped.env,
        privileged=unwrapped.privileged, runs_nothing=unwrapped.runs_nothing,
    )
    if part.opaque:   # judged whole: the exact text, with the program named where the words show it
        shown = unwrapped.command[0] if unwrapped.command else argv[0]
        return _exact(part, None if part.runtime_program else program_name(shown), **common)
    if unwrapped.runs_nothing:
        # `command -v rm`, `sudo -v`, `env`: the wrapper itself is what runs
        program = unwrapped.wrappers[-1] if unwrapped.wrappers else program_name(argv[0])
        return Key(program=program, verb=None, pattern=f"{program} *", exact=False, **common)

    command = unwrapped.command
    program = program_name(command[0])
    if part.runtime_program or not program:
        return _exact(part, None, **common)
    if common["env"] and any(assignment.name in CODE_ENV for assignment in common["env"]):  # type: ignore[union-attr]
        return _exact(part, program, **common)
    args = command[1:]
    local = _outside_system_dirs(command[0])
    if local is not None:
        # `./ls`, `/tmp/cat`: not the system's ls or cat. The key keeps the path, so an approval of `cat` never
        # covers a script that merely shares its name (and `./git` has no verbs of git's).
        if _runs_code_as_written(part, program, args, unwrapped.wrappers):
            return _exact(part, program, **common)
        return Key(program=program, verb=None, pattern=f"{local} *", exact=False, **common)
    if program in table.programs:
        verb = find_verb(program, args, table)
        if verb is _RUNTIME:
            return _exact(part, program, **common)
        if program in EVAL_VERBS and verb in EVAL_VERBS[program]:
            return _exact(part, program, verb=verb, **common)
        if _runs_code_as_written(part, program, args, unwrapped.wrappers) or loads_code(program, args, table):
            return _exact(part, program, **common)
        pattern = f"{program} {verb} *" if verb else f"{program} *"
        return Key(program=program, verb=verb, pattern=pattern, exact=False, legacy=f"{program} *",
                   **common)  # type: ignore[arg-type]
    if _runs_code_as_written(part, program, args, unwrapped.wrappers) or _process_substitution_script(part, program):
        return _exact(part, program, **common)
    return Key(program=program, verb=None, pattern=f"{program} *", exact=False, **common)
