"""The language of program descriptions: what a program does with its words, as rows of a table.

A `Program` is a `Command` with a name. A command has an option grammar, `rows` (a condition on the options
and operands, and the effect the program then has), `on` (what it does to the paths its operands name), an
optional `hook` for what a row cannot say (a refspec, a git config key, a sed script), and `verbs`: the
commands under it (`git push`, `docker compose up`). A row names its effect by kind ("publish", "discard",
"destroy", ...), never by level: how bad each kind is, is the policy's business (policy/effects.py), the one
place that says so. Every row has a stable id (`git.push.force`) and examples, checked by one generic test
(tests/test_rule_tables.py) for the built-in tables and when a user's table loads.

    Program("rm",
        grammar=Grammar(longs=("recursive", "force", ...)),
        rows=(Row("rm.no-preserve-root", "destroy", "recursive delete allowed to reach /",
                  when=When(flag=("no-preserve-root",)), examples=("rm -rf --no-preserve-root /",)),),
        on=(On("delete", OPERANDS, recursive=When(flag=("r", "R", "recursive")), id="rm.delete",
               examples=("rm -rf build",)),))

Plain classes with __slots__: the tables are built at import, on the hot path of a line that needs them.
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN, Options, read_options

# ---------------------------------------------------------------- the option grammar


class Grammar:
    """Which options take values; everything else is a flag or an operand (see grammar.read_options)."""

    __slots__ = ("values", "long_values", "longs", "optional", "stop")

    def __init__(self, values: str = "", long_values=(), longs=(), optional=(), stop: bool = False):
        self.values = values                # short options that take a value ("o" for sort -o F)
        self.long_values = tuple(long_values)   # long options that take a value (--output F, --output=F)
        self.longs = tuple(longs)           # long flags, for unique-prefix abbreviations
        self.optional = tuple(optional)     # long options whose value may only be attached (--in-place[=S])
        self.stop = stop                    # options end at the first operand (POSIX order)

    def read(self, args, stop: bool = False) -> Options:
        return read_options(args, self.values, self.long_values, self.longs, stop or self.stop, self.optional)


NO_OPTIONS = Grammar()

# ---------------------------------------------------------------- conditions


class When:
    """A condition on what a command was given. Every field that is set must hold (and)."""

    __slots__ = ("flag", "value", "unless", "no_value", "operands", "arg", "operand", "first", "count", "runtime",
                 "at_most", "last", "option", "equals", "starts", "contains", "place")

    def __init__(self, flag=(), value=(), unless=(), no_value=(), operands: bool | None = None, arg=(), operand=(),
                 first=(), count: tuple | None = None, runtime: bool | None = None, at_most: int | None = None,
                 last=(), *, option=(), equals=(), starts=(), contains=(), place=()):
        self.flag = tuple(flag)         # any of these options is present
        self.value = tuple(value)       # any of these options has a value
        self.unless = tuple(unless)     # ... and none of these options is present
        self.no_value = tuple(no_value)  # ... and none of these options has a value
        self.operands = operands        # there are operands (True) / there are none (False)
        self.arg = tuple(arg)           # a raw word starts with one of these ("--prune=now", "ext::")
        self.operand = tuple(operand)   # an operand is one of these
        self.first = tuple(first)       # the first operand is one of these
        self.count = count              # ((names...), n): these options given n times or more
        self.runtime = runtime          # some operand is known only at run time
        self.at_most = at_most          # at most this many operands
        self.last = tuple(last)         # the last operand starts with one of these (a copy's destination)
        # A value test: some value given to one of `option` passes every test set below (`--network=host`:
        # When(option=("network", "net"), equals=("host",))); {option} and {value} in a row's text name it.
        self.option = tuple(option)
        self.equals = tuple(equals)     # ... is one of these
        self.starts = tuple(starts)     # ... starts with one of these
        self.contains = tuple(contains)  # ... holds one of these
        self.place = tuple(place)       # ... names a path of one of these place classes (vocab/places.py)
        if (equals or starts or contains or place) and not option:
            raise ValueError("a value test names its options: When(option=(...), equals=...)")

    def holds(self, o: Options, args, cmd=None) -> bool:
        if self.option and self.matched(o, cmd) is None:
            return False
        if self.flag and not o.has(*self.flag):
            return False
        if self.value and not any(o.value(name) is not None for name in self.value):
            return False
        if self.unless and o.has(*self.unless):
            return False
        if self.no_value and any(o.value(name) is not None for name in self.no_value):
            return False
        if self.operands is not None and bool(o.operands) != self.operands:
            return False
        if self.arg and not any(a.startswith(self.arg) for a in args):
            return False
        if self.operand and not any(a in self.operand for a in o.operands):
            return False
        if self.first and not (o.operands and o.operands[0] in self.first):
            return False
        if self.count is not None and o.count(*self.count[0]) < self.count[1]:
            return False
        if self.runtime is not None and any(UNKNOWN in a for a in o.operands) != self.runtime:
            return False
        if self.at_most is not None and len(o.operands) > self.at_most:
            return False
        if self.last and not (o.operands and o.operands[-1].startswith(self.last)):
            return False
        return True

    def matched(self, o: Options, cmd=None) -> tuple[str, str] | None:
        """(option, value): the first value of `option` that passes the value tests, or None. A place test
        needs the command (its places are the policy's: cmd.place)."""
        for name, value in o.values:
            if name not in self.option:
                continue
            if self.equals and value not in self.equals:
                continue
            if self.starts and not value.startswith(self.starts):
                continue
            if self.contains and not any(part in value for part in self.contains):
                continue
            if self.place and (cmd is None or cmd.place(value).cls not in self.place):
                continue
            return name, value
        return None

    def value_of(self, o: Options, cmd=None) -> str | None:
        """The value the row's text names: the one the value test matched, else the first of `value` given."""
        if self.option:
            found = self.matched(o, cmd)
            return found[1] if found else None
        for name in self.value:
            found = o.value(name)
            if found is not None:
                return found
        return None

    def describe(self) -> str:
        said = []
        for field, words in (("flag", self.flag), ("value", self.value), ("unless", self.unless),
                             ("no value", self.no_value),
                             ("arg", self.arg), ("operand", self.operand), ("first", self.first)):
            if words:
                said.append(f"{field} {'|'.join(words)}")
        if self.option:
            tests = [f"{field} {'|'.join(words)}" for field, words in (("equals", self.equals), ("starts", self.starts),
                     ("contains", self.contains), ("place", self.place)) if words]
            said.append(f"option {'|'.join(self.option)}" + (f" {' '.join(tests)}" if tests else " given"))
        for field in ("operands", "count", "runtime", "at_most"):
            value = getattr(self, field)
            if value is not None:
                said.append(f"{field} {value}")
        return ", ".join(said) or "always"


ALWAYS = When()

# ---------------------------------------------------------------- rows


class Row:
    """When `when` holds, the command has the effect `does`, described by `says` (shown in --explain).

    `says` may name {cmd} (the command as far as its verbs: "git push"), {verb} (the last verb word),
    {value} (the value of the option `when` tested) and {option} (the option whose value a value test
    matched). `sets` marks facts the whole-line rules follow: "net_fetch", "net_send", "decoder",
    "stdin_interp", "interp", "runtime_code", "secret" (this command prints secrets: `says` is why), "builds"
    (it runs the build files of its directory: a Makefile, setup.py, package.json scripts, conftest.py - so
    that a line that writes one and then builds is seen to run it). `stop`: no later row, path effect, hook or
    verb of this command applies.
    """

    __slots__ = ("id", "does", "says", "when", "stop", "sets", "examples", "not_examples")

    def __init__(self, id: str, does: str, says: str, when: When = ALWAYS, *, stop: bool = False, sets=(),
                 examples=(), not_examples=()):
        self.id = id
        self.does = does
        self.says = says
        self.when = when
        self.stop = stop
        self.sets = tuple(sets)
        self.examples = tuple(examples)         # lines on which this row fires
        self.not_examples = tuple(not_examples)  # lines on which it must not


# What an `On` acts on, among the command's words.
OPERANDS = "operands"       # every operand
FIRST = "first"             # the first operand
REST = "rest"               # every operand after the first
LAST = "last"               # the last operand
SOURCES = "sources"         # cp-style: every operand but the destination (see DEST)
DEST = "dest"               # cp-style: the -t/--target-directory value, else the last of two or more operands
HERE = "here"               # the directory the command runs in (`unzip a.zip` extracts into it)


class On:
    """What the command does to the paths its words name: list, read, write, create, delete, mode, run, send,
    build (a project directory or build file whose code runs: `dotnet build D/x.csproj`, Cmd.build_in), unpack
    (a directory an archive is extracted into: `unzip a.zip -d ~`, Cmd.unpack_into), embed (a file whose
    contents go into what the command makes: `git commit -F F`, `git hash-object -w F`, `tar -cf x.tgz D`;
    Cmd.embed: a read, and a secret put there is copied where a later push takes it).

    The place decides the level (policy/effects.py path tables): `rm -rf ~` and `rm -rf build` differ only
    there. `select` is one of OPERANDS/FIRST/REST/LAST/SOURCES/DEST, or ("option", names...) for the values of
    options (`sort -o F`), or ("nth", i) for the operand at index i. `recursive` (delete, mode, read, embed) is a
    condition (or a tuple of them: any may hold): a recursive read of a tree that holds a secret store reads the
    store (`grep -r x ~`: Cmd.read_tree);
    `hidden` (a recursive read) the condition under which it reads dot-named entries too (rg --hidden; None:
    always). `into`: a copy's destination that is a
    directory receives each source under its own name. A program run through xargs gets one more operand,
    known only at run time (the words xargs appends), before its grammar reads its words. `send`: the file's
    contents leave the machine (`curl -T F`); `-` (or /dev/stdin) names the command's input.
    """

    __slots__ = ("action", "select", "recursive", "hidden", "id", "says", "when", "into", "examples", "not_examples")

    def __init__(self, action: str, select, *, id: str, says: str = "", recursive=None, hidden=None,
                 when: When = ALWAYS, into: bool = False, examples=(), not_examples=()):
        self.action = action
        self.select = select
        self.recursive = recursive
        self.hidden = hidden
        self.id = id
        self.says = says
        self.when = when
        self.into = into
        self.examples = tuple(examples)
        self.not_examples = tuple(not_examples)


# ---------------------------------------------------------------- commands and programs


class Command:
    """A command: its grammar, rows, path effects, hook, and the verbs under it."""

    __slots__ = ("grammar", "rows", "on", "hook", "after", "verbs", "read_only", "default", "no_verb", "examples",
                 "chdir", "manifest", "anywhere")

    def __init__(self, grammar: Grammar = NO_OPTIONS, rows=(), on=(), hook=None, after=None, verbs=None,
                 read_only=(), default: Row | None = None, no_verb: Row | None = None, examples=None, chdir=(),
                 manifest=(), anywhere: bool = False):
        self.grammar = grammar
        self.rows = tuple(rows)
        self.on = tuple(on)
        self.hook = hook                    # hook(cmd, options) for what rows cannot say; see `emits`
        self.after = after                  # hook(cmd, options) once the verbs under this one were judged
        self.verbs = dict(verbs or {})      # verb word -> Command
        self.read_only = frozenset(read_only)   # verbs that only read or print
        self.default = default              # the row of a verb not listed ({verb} names it)
        self.no_verb = no_verb              # the row when a verb was expected and none was given
        self.examples = dict(examples or {})    # line -> the exact level its part must get
        # options naming the directory the command works in, as after `cd DIR` (`make -C DIR`, `npm --prefix
        # DIR`), and options naming the build file of the project it works on (`cargo --manifest-path
        # DIR/Cargo.toml`: it works in DIR): the build files, scripts and tests it runs are that directory's
        self.chdir = tuple(chdir)
        self.manifest = tuple(manifest)
        # its options may stand after the verb too (npm's, cargo's, poetry's: `npm test --prefix DIR`): its
        # rows, path effects and `chdir` read every option of the words (up to `--`); the verb is still the
        # first operand, and the hook reads the options before it (those after are the verb's)
        self.anywhere = anywhere

    @property
    def has_verbs(self) -> bool:
        return bool(self.verbs or self.read_only or self.default)


class Program(Command):
    """A program the gate knows, by name (and aliases), with the family module that describes it."""

    __slots__ = ("name", "aliases", "doc")

    def __init__(self, name: str, *, aliases=(), doc: str = "", **command):
        super().__init__(**command)
        self.name = name
        self.aliases = tuple(aliases)
        self.doc = doc

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def verb(**command) -> Command:
    return Command(**command)


def emits(examples: dict):
    """Mark a hook with the rule ids it can record and example lines for each (checked like rows')."""
    def mark(function):
        function.emits = dict(examples)
        return function
    return mark


def programs(*items: Program) -> dict[str, Program]:
    """A family's table: every name and alias to its program. A name claimed twice is an error."""
    table: dict[str, Program] = {}
    for program in items:
        for name in program.names:
            if name in table:
                raise ValueError(f"program {name!r} is described twice in one family")
            table[name] = program
    return table
