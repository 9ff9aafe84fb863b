"""Which programs run which of their words as code: one table, read by the splitter and by the rules.

Each row says: this program (and verb), at this place in its argv, runs these words, as this kind of code.
The splitter (parse/nested.py) turns a row into more parts: shell text is split again as a line, an argv
becomes a part of its own. The rules read the same rows (`carriers_of`, `runs_code`) to know that a part
hands code on, without a second list.

    Carrier("find", where=DELIMITED, markers=("-exec", "-execdir", "-ok", "-okdir"), ends=(";", "+"),
            kind=ARGV, origin="find -exec")

Kinds (what the words are):
  SHELL   shell text, split again as a line (`sh -c CODE`, `eval W…`, `trap CODE SIG`, `git rebase -x CODE`)
  ARGV    a command and its arguments, run without a shell (`find -exec CMD ;`, `uv run CMD`, `sudo CMD`)
  FILE    a file whose contents run (`sh FILE`, `source FILE`, `BASH_ENV=FILE`)
  STDIN   code read from standard input (`sh -s`, `bash` with no operand, `python -`)
  INLINE  code in the program's own language (`python -c`, `node -e`, `perl -e`): not split, judged whole
  ARITH   arithmetic text: a `$(…)` in a subscript runs even when quoted (`let 'a[$(cmd)]'`, `test -v`)
  PROMPT  a prompt string: its `$(…)` run whenever it is shown (PS1…PS4)
  EXPANDED  text bash expands once more: its `$(…)` run though the word was quoted (`compgen -W '$(cmd)'`)
  EXCMD   an editor command line: its `:!CMD`, `r !CMD`, `call system('CMD')` are SHELL text (vim -c, +CMD)
  COMMAND a command line a program runs (`man -P CMD`, `git difftool -x CMD`, PAGER, EDITOR,
          GIT_SSH_COMMAND): SHELL text, unless it names a plain pager or editor (programs/config_code.py)

Places (where the words are, after the program's own options and its verb):
  OPTION     the value of one of `options` (`-c CODE`, `-cCODE`, `--command=CODE`, clusters `-qc CODE`)
  REST       every word after the options (`operands_before` operands first: ssh's HOST); `joined` with spaces
  FIRST      the first operand, when there are at least `min_operands` and it is none of `unless`
  SHELL_LINE sh's own reading: with -c the first operand is SHELL text, else a FILE, or STDIN (-s, none)
  DELIMITED  the words after one of `markers` up to one of `ends` (find -exec … ;)
  VALUES     the VALUE of each NAME=VALUE operand (`alias ll='ls -l'`)
  OPERANDS   every operand (`let EXPR…`)
  CONFIG     settings given as options (`git -c KEY=VALUE`, `ssh -o Name=value`) whose value is a command line:
             `dialect` names how programs/config_code.py reads them; a value known only at run time where a
             command would be makes the part opaque
  ALIAS      `git -c alias.NAME=VALUE … NAME ARGS`: the command the alias expands to (a git command, or shell
             code after `!`), and each other alias the line defines
  PLUS       every `+CMD` operand (vim's `+{command}`, as `-c {command}`)

Plain classes with __slots__ (no dataclass machinery on the hot path). No levels here: how bad running the
code is, is the policy's business.
"""
from __future__ import annotations

from wispsh.programs import config_code, wrappers
from wispsh.vocab.shells import SPLIT_AS_SH

SHELL, ARGV, FILE, STDIN, INLINE, ARITH, PROMPT, EXPANDED, EXCMD, COMMAND = (
    "shell", "argv", "file", "stdin", "inline", "arith", "prompt", "expanded", "excmd", "command")
KINDS = (SHELL, ARGV, FILE, STDIN, INLINE, ARITH, PROMPT, EXPANDED, EXCMD, COMMAND)
OPTION, REST, FIRST, SHELL_LINE, DELIMITED, VALUES, OPERANDS, CONFIG, ALIAS, PLUS = (
    "option", "rest", "first", "shell-line", "delimited", "values", "operands", "config", "alias", "plus")
PLACES = (OPTION, REST, FIRST, SHELL_LINE, DELIMITED, VALUES, OPERANDS, CONFIG, ALIAS, PLUS)


class Carrier:
    """One row: `program` (with `verb`, words after the program's global options) runs words as `kind`."""

    __slots__ = ("program", "verb", "where", "kind", "origin", "options", "takes_value", "own_options", "posix",
                 "joined", "skip", "operands_before", "min_operands", "unless", "markers", "ends", "via", "why",
                 "example", "every", "dialect")

    def __init__(self, program: str, *, where: str, kind: str, origin: str = "", verb: tuple[str, ...] = (),
                 options: tuple[str, ...] = (), takes_value: tuple[str, ...] = (), own_options: bool = False,
                 posix: bool = False, joined: bool = False,
                 skip: tuple[str, ...] = (), operands_before: int = 0, min_operands: int = 0,
                 unless: tuple[str, ...] = (), markers: tuple[str, ...] = (), ends: tuple[str, ...] = (),
                 via: str = "", why: str = "", example: tuple[str, str] | None = None, every: bool = False,
                 dialect: str = ""):
        assert where in PLACES and kind in KINDS, (program, where, kind)
        self.program = program
        self.verb = verb                    # ("submodule", "foreach"): options between the words are skipped
        self.where = where
        self.kind = kind
        self.origin = origin or " ".join((program,) + verb + options[:1])   # what the parts it gives say
        self.options = options              # OPTION: the options whose value is the code
        self.takes_value = takes_value      # the carrier's options that take a value (skipped with it)
        self.own_options = own_options      # REST: leading `-…` words are the carrier's options, not code
        self.posix = posix                  # OPTION: options end at the first operand (`printf FMT -v` is data)
        self.joined = joined                # REST: the words are joined with spaces into one text
        self.skip = skip                    # flags before the code that are the carrier's (foreach --recursive)
        self.operands_before = operands_before  # REST: operands that are not code (ssh's HOST)
        self.min_operands = min_operands    # FIRST: fewer operands run nothing (`trap CODE` alone prints)
        self.unless = unless                # FIRST: first operands that are not code (`trap - INT`)
        self.markers = markers              # DELIMITED: the words that open the command
        self.ends = ends                    # DELIMITED: the words that close it
        self.via = via                      # "wrappers": the row restates programs/wrappers.py (read there)
        self.why = why
        self.example = example              # (a line, the program of the part the row gives): checked by a test
        self.every = every                  # OPTION: every value of the options is code, not only the first
        self.dialect = dialect              # CONFIG: how the settings read ("git" -c KEY=VALUE, "ssh" -o Name=value)

    def __repr__(self) -> str:
        return f"Carrier({self.program!r}, {' '.join(self.verb)!r}, {self.where}, {self.kind})"


SHELL_VALUE_OPTIONS = ("-o", "+o", "-O", "+O", "--rcfile", "--init-file")
_COMPLETION_VALUES = ("-A", "-G", "-W", "-F", "-C", "-X", "-P", "-S", "-o")
FIND_EXEC = ("-exec", "-execdir", "-ok", "-okdir")
SSH_VALUES = tuple("-" + c for c in "BbcDEeFIiJLlmOopPQRSWw")
_SSH_LIKE = {"ssh": SSH_VALUES, "autossh": SSH_VALUES + ("-M",), "scp": tuple("-" + c for c in "cFiJloPSX"),
             "sftp": tuple("-" + c for c in "BbcDFiJloPRSs")}
_GIT_GLOBAL_VALUES = tuple("-" + c for c in config_code.GIT_SHORT_VALUES) + tuple(
    "--" + name for name in config_code.GIT_LONG_VALUES)
_CLONE_VALUES = ("-u", "--upload-pack", "-o", "--origin", "-j", "--jobs", "--template", "--depth", "-b", "--branch",
                 "--reference", "--separate-git-dir", "--filter", "--server-option", "-c", "--config")
_MAN_VALUES = tuple("-" + c for c in "CMmSseLRpEr") + ("--config-file", "--manpath", "--systems", "--sections",
                                                       "--extension", "--locale", "--encoding", "--preprocessor",
                                                       "--prompt")
VIMS = ("vim", "vi", "nvim", "gvim", "ex", "vimdiff", "view", "rvim", "nvi")
_VIM_VALUES = ("-S", "-s", "-u", "-U", "-w", "-W", "-i", "--startuptime", "--log", "-T", "-t", "-q", "-r",
               "--servername", "--remote-send", "--remote-expr", "-l", "--listen")


def _runner(program: str, verb: str, takes_value: str = "", code: str = "") -> tuple[Carrier, ...]:
    """`uv run CMD`, `npm exec -c CODE`: the command after the verb's options is a part of its own, so an
    approval of `uv run pytest` (keyed `uv run *`) never covers `uv run rm -rf ~`."""
    values = tuple(takes_value.split())
    option = f"{values[0]} v " if values else ""
    rows = [Carrier(program, verb=(verb,), where=REST, kind=ARGV, takes_value=values, own_options=True,
                    origin=f"{program} {verb}", example=(f"{program} {verb} {option}rm -rf x", "rm"))]
    if code:
        rows.insert(0, Carrier(program, verb=(verb,), where=OPTION, kind=SHELL, options=tuple(code.split()),
                               takes_value=values, posix=True, origin=f"{program} {verb}",
                               example=(f"{program} {verb} {code.split()[0]} 'rm -rf x'", "rm")))
    return tuple(rows)


_UV_VALUES = ("--with --with-editable --with-requirements -p --python --package --extra --group --only-group "
              "--no-group --env-file --directory --project --index --default-index --index-url --extra-index-url "
              "-f --find-links --config-file --cache-dir --color")

CARRIERS: tuple[Carrier, ...] = (
    # ---- the shell and its builtins
    *(Carrier(shell, where=SHELL_LINE, kind=SHELL, takes_value=SHELL_VALUE_OPTIONS, origin="sh -c",
              why="-c CODE NAME ARGS: the first operand is the code; else a script file; -s or none: stdin",
              example=(f"{shell} -xc 'rm x' n", "rm"))
      for shell in SPLIT_AS_SH),
    Carrier("eval", where=REST, kind=SHELL, joined=True, origin="eval", why="its words, joined, are code",
            example=("eval -- rm '-rf x'", "rm")),
    Carrier("trap", where=FIRST, kind=SHELL, min_operands=2, unless=("-", "-p", "-l", ""), origin="trap",
            why="trap CODE SIGNAL…: the code runs when the signal (or EXIT, DEBUG, ERR) comes",
            example=("trap -- 'rm x' EXIT", "rm")),
    Carrier("mapfile", where=OPTION, kind=SHELL, options=("-C",), takes_value=("-d", "-n", "-O", "-s", "-u", "-c"),
            origin="mapfile -C", why="the callback is evaluated every -c lines",
            example=("mapfile -c 1 -C 'rm x' a < f", "rm")),
    Carrier("readarray", where=OPTION, kind=SHELL, options=("-C",), takes_value=("-d", "-n", "-O", "-s", "-u", "-c"),
            origin="mapfile -C", example=("readarray -C 'rm x' a < f", "rm")),
    Carrier("alias", where=VALUES, kind=SHELL, origin="alias",
            why="with expand_aliases, a later line runs the alias's text as code",
            example=("alias ll='rm x'", "rm")),
    Carrier("source", where=FIRST, kind=FILE, min_operands=1), Carrier(".", where=FIRST, kind=FILE, min_operands=1),
    *(row for name in ("compgen", "complete") for row in (
        Carrier(name, where=OPTION, kind=SHELL, options=("-C",), takes_value=_COMPLETION_VALUES, origin=f"{name} -C",
                why="the command is run to list completions (compgen: at once; complete: when completing)",
                example=(f"{name} -W w -C 'rm x' w", "rm")),
        Carrier(name, where=OPTION, kind=EXPANDED, options=("-W",), takes_value=_COMPLETION_VALUES,
                origin=f"{name} -W", why="the word list is expanded again: its $(…) run, quoted or not",
                example=(f"{name} -W '$(rm x)' w", "rm")))),
    # builtins that evaluate a word as arithmetic or a subscript: a $(…) there runs, quoted or not
    *(Carrier(name, where=OPERANDS, kind=ARITH, origin="arithmetic",
              example=(f"{name} 'a[$(rm x)]'" + (" ]" if name == "[" else " ]]" if name == "[[" else ""), "rm"))
      for name in ("test", "[", "[[", "let", "declare", "typeset", "local", "export", "readonly", "read", "unset",
                   "wait", "mapfile", "readarray")),
    Carrier("printf", where=OPTION, kind=ARITH, options=("-v",), posix=True, origin="arithmetic",
            why="the -v NAME's subscript is evaluated; the format and arguments are data",
            example=("printf -v 'a[$(rm x)]' %s y", "rm")),
    # ---- programs that run a command line given to them
    Carrier("ssh", where=REST, kind=SHELL, joined=True, operands_before=1, own_options=True, origin="ssh",
            takes_value=tuple("-" + c for c in "bcDEeFIiJLlmOopQRSWwB"),
            why="ssh HOST CMD…: the words after the host, joined, are run by the remote user's shell",
            example=("ssh -p 22 host rm -rf x", "rm")),
    Carrier("find", where=DELIMITED, kind=ARGV, markers=FIND_EXEC, ends=(";", "+"), origin="find -exec",
            example=("find . -name x -execdir rm {} +", "rm")),
    Carrier("git", verb=("submodule", "foreach"), where=REST, kind=SHELL, joined=True,
            skip=("--recursive", "-q", "--quiet"), origin="git submodule foreach",
            example=("git -C d submodule --quiet foreach --recursive 'rm x'", "rm")),
    Carrier("git", verb=("rebase",), where=OPTION, kind=SHELL, options=("-x", "--exec"), origin="git rebase --exec",
            takes_value=("-s", "--strategy", "-X", "--strategy-option", "--onto", "-C", "--whitespace", "-S"),
            example=("git rebase -i --exec 'rm x' main", "rm")),
    Carrier("git", verb=("bisect", "run"), where=REST, kind=SHELL, joined=True, origin="git bisect run",
            example=("git bisect run rm x", "rm")),
    Carrier("script", where=OPTION, kind=SHELL, options=("-c", "--command"), origin="script",
            example=("script -q -c 'rm x' /dev/null", "rm")),
    Carrier("tar", where=OPTION, kind=SHELL, origin="tar",
            options=("--to-command", "--use-compress-program", "-I", "--info-script", "--new-volume-script", "-F"),
            takes_value=("-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from"),
            example=("tar -xf a.tar --to-command='rm x'", "rm")),
    # ---- settings whose value is a command line (programs/config_code.py says which keys, options, values)
    Carrier("git", where=CONFIG, kind=SHELL, options=("-c",), takes_value=_GIT_GLOBAL_VALUES, dialect="git",
            origin="git -c", why="-c KEY=VALUE before the verb: core.pager, core.editor, core.sshCommand, "
                                 "core.fsmonitor, diff.external, difftool.*.cmd, … run VALUE with the shell",
            example=("git -C d -c user.name=x -c core.pager='rm x' log", "rm")),
    Carrier("git", verb=("clone",), where=CONFIG, kind=SHELL, options=("-c", "--config"), takes_value=_CLONE_VALUES,
            dialect="git", origin="git clone -c", why="the clone's own config is set before it fetches",
            example=("git clone --depth 1 -c core.sshCommand='rm x' https://x.example/r", "rm")),
    Carrier("git", where=ALIAS, kind=ARGV, options=("-c",), takes_value=_GIT_GLOBAL_VALUES, origin="git alias",
            why="git NAME runs the alias's expansion: a git command (with NAME's arguments), or shell code "
                "after `!`; an alias defined and not named may still run (a git the command starts inherits it)",
            example=("git -c alias.x='!rm x' x", "rm")),
    Carrier("git", verb=("difftool",), where=OPTION, kind=COMMAND, options=("-x", "--extcmd"),
            takes_value=("-t", "--tool"),
            origin="git difftool -x", why="the command runs for each changed file (with $LOCAL and $REMOTE)",
            example=("git difftool -y -x 'rm x' HEAD", "rm")),
    *(Carrier(name, where=CONFIG, kind=SHELL, options=("-o",), takes_value=values, posix=True, dialect="ssh",
              origin=f"{name} -o", why="ProxyCommand, LocalCommand, KnownHostsCommand and RemoteCommand are "
                                       "command lines (ssh_config(5))",
              example=(f"{name} -o 'ProxyCommand=rm x' " + ("f host:" if name in ("scp",) else "host"), "rm"))
      for name, values in _SSH_LIKE.items()),
    Carrier("man", where=OPTION, kind=COMMAND, options=("-P", "--pager"), takes_value=_MAN_VALUES, origin="man -P",
            why="man runs its pager command on the formatted page", example=("man -P 'rm x' ls", "rm")),
    *(row for name in VIMS for row in (
        Carrier(name, where=OPTION, kind=EXCMD, options=("-c", "--cmd"), takes_value=_VIM_VALUES, every=True,
                origin=f"{name} -c", why="editor commands: `:!CMD`, `r !CMD`, `call system('CMD')` run a shell",
                example=(f"{name} -c 'silent !rm x' -c q f", "rm")),
        Carrier(name, where=PLUS, kind=EXCMD, origin=f"{name} +", why="+CMD is -c CMD",
                example=(f"{name} '+!rm x' f", "rm")))),
    *_runner("uv", "run", _UV_VALUES),
    *_runner("poetry", "run", "-C --directory -P --project"),
    *_runner("pdm", "run", "-p --project"),
    *_runner("hatch", "run", "-e --env"),
    *_runner("pipx", "run", "--spec --python --pip-args --index-url"),
    *_runner("conda", "run", "-n --name -p --prefix --cwd"),
    *_runner("mamba", "run", "-n --name -p --prefix --cwd"),
    *_runner("npm", "exec", "-p --package -w --workspace", "-c --call"),
    *_runner("npm", "x", "-p --package -w --workspace", "-c --call"),
    *_runner("pnpm", "exec", "-C --dir -F --filter", "-c"),
    *_runner("pnpm", "dlx", "--package"),
    *_runner("yarn", "exec"),
    *_runner("bun", "x", "-p --package"),
    *_runner("bundle", "exec", "--gemfile"),
    *_runner("mise", "exec", "-C --cd -j --jobs", "-c --command"),
    *_runner("mise", "x", "-C --cd -j --jobs", "-c --command"),
)

# Variables whose value is code: assigned anywhere (a prefix, `env A=1`, a declaration, `export`), bash or the
# program it starts runs it later.
VARIABLES: dict[str, str] = {
    "PROMPT_COMMAND": SHELL,        # run before each prompt
    "PS0": PROMPT, "PS1": PROMPT, "PS2": PROMPT, "PS3": PROMPT, "PS4": PROMPT,   # PS4 under `set -x`
    "BASH_ENV": FILE, "ENV": FILE,  # read by every non-interactive bash / interactive sh started later
    **{name: COMMAND for name in sorted(config_code.COMMAND_VARIABLES)},     # a pager, an editor, a helper
}


def _wrapper_rows() -> tuple[Carrier, ...]:
    """The wrappers of programs/wrappers.py, restated as rows (the splitter reads them through unwrap())."""
    rows: list[Carrier] = []
    for name, grammar in wrappers.WRAPPERS.items():
        for option in grammar.options:
            if option.effect == wrappers.CODE:
                rows.append(Carrier(name, where=OPTION, kind=SHELL, options=option.names, via="wrappers"))
            elif option.effect == wrappers.SPLIT:
                rows.append(Carrier(name, where=OPTION, kind=ARGV, options=option.names, via="wrappers",
                                    why="the string is split into words: more options, assignments, a command"))
        kind = SHELL if grammar.joins_code else ARGV
        rows.append(Carrier(name, where=REST, kind=kind, joined=grammar.joins_code, own_options=True,
                            via="wrappers"))
    for name in wrappers.COMMAND_RUNNERS:
        rows.append(Carrier(name, where=REST, kind=ARGV, own_options=True, via="wrappers",
                            why="runs the command after its options; judged as itself, its command a part"))
    return tuple(rows)


# ---------------------------------------------------------------- interpreters (INLINE): read by keys.py


class InlineCode:
    """How an interpreter is told to run code given on its command line (`python -c CODE`)."""

    __slots__ = ("short_code", "long_code", "short_value", "short_stop", "short_optional", "short_digits",
                 "long_value", "fold_case")

    def __init__(self, code: str = "", longs: str = "", value: str = "", stop: str = "", long_value: str = "",
                 fold_case: bool = False, optional: str = "", digits: str = ""):
        self.short_code = code              # letters whose option's value is code (`-c`, `-e`; clusters `-ne`)
        self.long_code = frozenset(longs.split())
        self.short_value = value            # letters that take a value (attached, or the next word)
        self.short_stop = stop              # letters after which the rest is not the interpreter's (`python -m`)
        self.short_optional = optional      # letters whose value is the rest of the cluster (`perl -i.bak`)
        self.short_digits = digits          # letters followed by optional digits (`perl -l -0777`)
        self.long_value = frozenset(long_value.split())
        self.fold_case = fold_case          # pwsh: `-Command`, `-c`, `-EncodedCommand` in any case


_PYTHON = InlineCode("c", value="WXQ", stop="m")
INTERPRETERS: dict[str, InlineCode] = {
    "python": _PYTHON, "pypy": _PYTHON,  # also python3, python3.12, pypy3 (keys._interpreter)
    "node": InlineCode("ep", "--eval --print", "r", long_value="--require --import --loader --experimental-loader"),
    "nodejs": InlineCode("ep", "--eval --print", "r", long_value="--require --import --loader"),
    "bun": InlineCode("ep", "--eval --print", long_value="--cwd --config"),
    "perl": InlineCode("eE", value="I", optional="iFxdDCMmV", digits="l0"),
    "ruby": InlineCode("e", value="rICE", optional="ixWKTF", digits="0"),
    "php": InlineCode("rBRE", "--run", "cdfzt"),
    "lua": InlineCode("e", value="l"), "luajit": InlineCode("e", value="l"),
    "osascript": InlineCode("e", value="ls"),
    "Rscript": InlineCode("e"), "R": InlineCode("e"),
    "npx": InlineCode("c", "--call", "p", long_value="--package"),
    "pwsh": InlineCode("c", "-command -encodedcommand -ec -e -enc", fold_case=True),
    "powershell": InlineCode("c", "-command -encodedcommand -ec -e -enc", fold_case=True),
    "fish": InlineCode("c", "--command", "C", long_value="--init-command"),
}
# Subcommands that take code: `deno eval CODE`.
EVAL_VERBS: dict[str, frozenset[str]] = {"deno": frozenset({"eval"})}
SOURCING = frozenset({"source", "."})


def _inline_rows() -> tuple[Carrier, ...]:
    rows = []
    for name, spec in INTERPRETERS.items():
        options = tuple("-" + c for c in spec.short_code) + tuple(sorted(spec.long_code))
        rows.append(Carrier(name, where=OPTION, kind=INLINE, options=options, via="keys"))
    for name, verbs in EVAL_VERBS.items():
        rows.extend(Carrier(name, verb=(verb,), where=FIRST, kind=INLINE, min_operands=1, via="keys")
                    for verb in sorted(verbs))
    return tuple(rows)


_ALL: tuple[Carrier, ...] | None = None
_BY_PROGRAM: dict[str, tuple[Carrier, ...]] | None = None


def all_carriers() -> tuple[Carrier, ...]:
    """Every row: the splitter's own, the wrappers restated, the interpreters' inline code."""
    global _ALL
    if _ALL is None:
        _ALL = CARRIERS + _wrapper_rows() + _inline_rows()
    return _ALL


def carriers_of(program: str) -> tuple[Carrier, ...]:
    """The rows for `program` (its base name), in table order."""
    global _BY_PROGRAM
    if _BY_PROGRAM is None:
        table: dict[str, list[Carrier]] = {}
        for row in all_carriers():
            table.setdefault(row.program, []).append(row)
        _BY_PROGRAM = {name: tuple(rows) for name, rows in table.items()}
    return _BY_PROGRAM.get(program, ())


_SPLITTER: dict[str, tuple[Carrier, ...]] = {}
for _row in CARRIERS:
    _SPLITTER.setdefault(_row.program, ())
    _SPLITTER[_row.program] += (_row,)
del _row


def read_by_splitter(program: str) -> tuple[Carrier, ...]:
    """The rows the splitter reads itself (not the wrappers' or interpreters' restated rows)."""
    return _SPLITTER.get(program, ())


def runs_code(program: str, kinds: tuple[str, ...] = (SHELL, ARGV, FILE, STDIN, INLINE)) -> bool:
    """Whether `program` has any row of these kinds (a quick test for the rules)."""
    return any(row.kind in kinds for row in carriers_of(program))
