"""Readers and searchers: cat, head, grep, rg and their kin (what they open is read; whole trees when recursive),
the listers and namers that do not open files, and the readers whose options write or run: jq, yq, patch,
pandoc's filters, enscript, split.
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import ALWAYS, FIRST, OPERANDS, REST, Grammar, On, Program, Row, When, emits, programs


# ---------------------------------------------------------------- readers and searchers

# Readers: option letters that take a value, so the value is not read as a file.
READERS = {
    "cat": "", "tac": "", "nl": "bdfhilnsvw", "head": "nc", "tail": "ncsF", "wc": "", "md5sum": "", "sha1sum": "",
           "sha256sum": "", "sha512sum": "",
    "b2sum": "", "cksum": "", "sum": "", "od": "AjNSstw", "hexdump": "enNs", "strings": "nte", "file": "mfF",
    "stat": "cf", "ls": "ITwp", "tree": "LPIoH", "du": "dBt", "diff": "CULFIxSW", "cmp": "in", "comm": "",
    "cut": "bcdf", "paste": "d", "join": "12eojt", "fold": "w", "fmt": "wpg", "expand": "t",
    "unexpand": "t", "column": "csotRNEWHdl", "rev": "", "look": "t", "shuf": "inRo", "pr": "hlwoNs",
    "readlink": "", "realpath": "", "iconv": "ftco", "bat": "lmHr", "batcat": "lmHr", "getfacl": "",
    "lsattr": "", "namei": "", "csplit": "bfn", "ncdu": "oe", "exa": "L", "eza": "L", "dust": "dn",
}
# Their operands are names or data, not files they open.
NAMERS = {"basename": "s", "dirname": "", "tr": "", "numfmt": ""}     # test and [ are the interpreters'

READER_LONG_VALUES = ("lines", "bytes", "format", "printf", "width", "ignore", "time-style", "block-size", "output",
                      "suffix", "delimiter", "max-depth", "exclude")


# Listers: they show names, sizes and modes, not contents (listing secrets' names is low, reading them high).
LISTERS = frozenset({"ls", "tree", "du", "stat", "readlink", "realpath", "getfacl", "lsattr", "namei", "ncdu", "exa",
                     "eza", "dust", "file"})


@emits({"bat.pager": ["bat --pager 'sh -c id' f", "bat --pager 'less -RF' f"]})
def bat_pager(cmd, o) -> None:
    """bat --pager CMD: the pager it runs on its output (a plain pager shows it; any other command runs)."""
    from wispsh.programs.config_code import runs_command_option

    runs_command_option(cmd, o.all("pager"), "bat.pager", cmd.name)


def _reader(name: str, values: str) -> Program:
    writes = (On("write", ("option", "o", "output"), id=f"{name}.output", examples=(f"{name} -o out.txt f",)),) \
        if name in ("iconv", "shuf") else ()
    pager = name in ("bat", "batcat")
    action, what = ("list", "lists") if name in LISTERS else ("read", "reads")
    recursive = When(flag=("r", "recursive")) if name == "diff" else None     # diff -r compares whole trees
    if name == "file":      # -f F names the files to look at, -m F is a magic file: F's lines are echoed
        writes += (On("read", ("option", "f", "files-from", "m", "magic-file"), id="file.reads-list",
                      examples=("file -f ~/.ssh/id_rsa",)),)
    return Program(name, doc=f"{name}: {what} the files it is given",
                   grammar=Grammar(values=values, long_values=READER_LONG_VALUES + (("pager",) if pager else ())),
                   hook=bat_pager if pager else None,
                   on=(On(action, OPERANDS, id=f"{name}.{what}", recursive=recursive,
                          examples=(f"{name} README.md",) + ((f"{name} -r ~ /tmp/copy",) if recursive else ())),)
                   + writes)


READER_PROGRAMS = tuple(_reader(name, values) for name, values in READERS.items() if name != "csplit")
NAMER_PROGRAMS = tuple(Program(name, doc=f"{name}: prints what its words say", grammar=Grammar(values=values))
                       for name, values in NAMERS.items())

# Searchers: the first operand is a pattern (data) unless -e/-f gives it; the rest are files.
SEARCHERS = {"grep": "efmABCDd", "egrep": "efmABCDd", "fgrep": "efmABCDd", "rg": "efgmABCEMtTjr",
             "ag": "ABCGgmp", "ack": "ABCgm", "zgrep": "efmABCd", "git-grep": ""}
SEARCH_LONG_VALUES = ("regexp", "file", "glob", "max-count", "after-context", "before-context", "context",
                      "type", "type-not", "encoding", "max-columns", "threads", "replace", "sort", "sortr",
                      "ignore-file", "max-depth", "type-add", "colors", "pre", "pre-glob", "engine",
                      "include", "exclude", "exclude-dir", "label", "binary-files", "devices",
                      "directories", "color", "colour", "path-separator", "field-match-separator")
PATTERN_GIVEN = ("e", "regexp", "f", "file")


@emits({"search.pre": ["rg --pre ./x foo ."], "search.recurse-option": ["grep -d recurse AKIA ~"]})
def preprocessor(cmd, o) -> None:
    """rg --pre PROGRAM runs PROGRAM on every file it searches; an empty value turns it off. grep's `-d recurse`
    (`--directories=recurse`) is -r: its directories are read as whole trees."""
    pre = o.value("pre")
    if pre:
        cmd.does("run-code", "search.pre", f"{cmd.name} --pre runs {pre.replace(UNKNOWN, '…')} on every file")
    if o.value("d", "directories") == "recurse" and cmd.name in RECURSES_WITH_R:
        cmd.fired.add("search.recurse-option")
        for word in o.operands[0 if o.value(*PATTERN_GIVEN) is not None else 1:]:
            cmd.read_tree(word, "searches")


# Which searchers read whole trees: grep and its kin with -r; rg, ag, ack and git grep always. rg and ag skip
# dot-named entries (where the stores of your home are) unless told otherwise.
RECURSES_WITH_R = frozenset({"grep", "egrep", "fgrep", "zgrep"})
GREP_RECURSIVE = When(flag=("r", "R", "recursive", "dereference-recursive"))
SEARCH_HIDDEN = {"rg": (When(flag=("hidden", ".")), When(count=(("u", "unrestricted"), 2))),
                 "ag": (When(flag=("hidden", "u", "unrestricted")),)}


def _searcher(name: str, values: str) -> Program:
    recursive = GREP_RECURSIVE if name in RECURSES_WITH_R else ALWAYS
    hidden = SEARCH_HIDDEN.get(name)
    tree = f"{name} -r" if name in RECURSES_WITH_R else name
    return Program(name, doc=f"{name}: searches files for a pattern",
                   grammar=Grammar(values=values, long_values=SEARCH_LONG_VALUES,
                                   longs=("recursive", "dereference-recursive", "hidden", "unrestricted")),
                   on=(On("read", ("option", "f", "file"), id=f"{name}.pattern-file",
                          examples=(f"{name} {'-f' if 'f' in values else '--file'} pats.txt src",)),
                       On("read", REST, says="searches", when=When(no_value=PATTERN_GIVEN), id=f"{name}.files",
                          recursive=recursive, hidden=hidden,
                          examples=(f"{name} foo src", f"{tree} AKIA ~")),
                       On("read", OPERANDS, says="searches", when=When(value=PATTERN_GIVEN), id=f"{name}.files-e",
                          recursive=recursive, hidden=hidden,
                          examples=(f"{name} {'-e' if 'e' in values else '--regexp'} foo src",))),
                   hook=preprocessor)


SEARCHER_PROGRAMS = tuple(_searcher(name, values) for name, values in SEARCHERS.items())

JQ_GRAMMAR = Grammar(values="fL", long_values=("from-file", "arg", "argjson", "slurpfile", "rawfile", "indent", "tab",
                                              "args", "jsonargs"))
@emits({"jq.reads-file": ["jq -n --rawfile k ~/.ssh/id_rsa '$k'", "jq -n --slurpfile c creds.json '$c'"]})
def named_files(cmd, o) -> None:
    """`--rawfile NAME FILE` and `--slurpfile NAME FILE` read FILE into $NAME: two words, the grammar reads one."""
    args = list(o.args)
    for i, word in enumerate(args):
        if word in ("--rawfile", "--slurpfile") and i + 2 < len(args):
            cmd.fired.add("jq.reads-file")
            cmd.read(args[i + 2])


JQ = Program(
    "jq", aliases=("gojq",), doc="filters JSON; the first operand is the filter unless -f gives it",
    grammar=JQ_GRAMMAR, hook=named_files,
    on=(On("read", REST, when=When(no_value=("f", "from-file")), id="jq.files", examples=("jq .name package.json",)),
        On("read", OPERANDS, when=When(value=("f", "from-file")), id="jq.files-f", examples=("jq -f q.jq a.json",)),
        On("read", ("option", "f", "from-file"), id="jq.filter-file", examples=("jq -f q.jq a.json",))),
)
YQ = Program(
    "yq", doc="filters YAML; -i edits the files in place",
    grammar=JQ_GRAMMAR,
    on=(On("write", REST, when=When(flag=("i", "inplace")), says="edits", id="yq.edits",
           examples=("yq -i '.a = 1' ~/.config/x.yml",)),
        On("read", REST, when=When(unless=("i", "inplace", "f", "from-file")), id="yq.files",
           examples=("yq .a f.yml",))),
)

PATCH = Program(
    "patch", doc="applies a diff to files",
    grammar=Grammar(values="iodpDBVrFYzg", long_values=("input", "output", "directory", "strip", "reject-file",
                                                        "prefix", "suffix")),
    rows=(Row("patch.patches", "change", "patches files", examples=("patch -p1 < fix.diff",)),),
    on=(On("write", ("option", "o", "output"), id="patch.output", examples=("patch -o ~/.bashrc a d",)),
        On("write", FIRST, says="patches", id="patch.file", examples=("patch ~/.bashrc fix.diff",)),
        On("write", ("option", "d", "directory"), says="patches files in", id="patch.directory",
           examples=("patch -d ~ -p1",))),
)


@emits({"pandoc.filter": ["pandoc --filter pandoc-crossref a.md -o a.pdf"],
        "pandoc.filter-file": ["pandoc --filter ./f.py a.md", "pandoc --lua-filter /tmp/f.lua a.md"],
        "pandoc.defaults": ["pandoc -d /tmp/d.yaml a.md"]})
def pandoc_filters(cmd, o) -> None:
    """--filter PROG runs PROG on the document (a bare name is a program found on PATH or in pandoc's data
    directory; a path is that file), --lua-filter runs a Lua script, --defaults reads options (filters among
    them) from a file the gate does not read."""
    for program in o.all("F", "filter"):
        if "/" in program or UNKNOWN in program:
            cmd.fired.add("pandoc.filter-file")
            cmd.run_file(program, "pandoc --filter runs")
        else:
            cmd.does("run-project", "pandoc.filter", f"pandoc runs the filter program {program}")
    for script in o.all("L", "lua-filter"):
        cmd.fired.add("pandoc.filter-file")
        cmd.run_file(script, "pandoc --lua-filter runs")
    for defaults in o.all("d", "defaults"):
        cmd.does("run-code", "pandoc.defaults", f"pandoc takes its options from {defaults.replace(UNKNOWN, '…')}, "
                                                "which can name filters it runs")


PANDOC = Program(
    "pandoc", doc="converts documents; filters it is given run, and files it includes go into the output",
    grammar=Grammar(values="fFLtroHBAdVMc", long_values=(
        "from", "to", "read", "write", "output", "filter", "lua-filter", "defaults", "include-in-header",
        "include-before-body", "include-after-body", "template", "metadata-file", "variable", "metadata", "css",
        "data-dir", "resource-path", "extract-media", "reference-doc", "bibliography", "csl", "citation-abbreviations",
        "syntax-definition", "highlight-style", "abbreviations", "epub-cover-image", "epub-metadata",
        "epub-embed-font", "log", "pdf-engine", "pdf-engine-opt")),
    rows=(Row("pandoc.pdf-engine", "run-code", "pandoc runs the PDF engine program it is given",
              When(value=("pdf-engine",), unless=()), examples=("pandoc --pdf-engine=./x a.md -o a.pdf",)),),
    on=(On("read", OPERANDS, id="pandoc.inputs", examples=("pandoc a.md -o a.html",)),
        On("embed", ("option", "H", "include-in-header", "B", "include-before-body", "A", "include-after-body",
                     "metadata-file", "template", "css", "bibliography", "syntax-definition", "abbreviations"),
           id="pandoc.includes", says="puts into the document the contents of",
           examples=("pandoc -H ~/.ssh/id_rsa a.md -o a.html",)),
        On("write", ("option", "o", "output", "log", "extract-media"), id="pandoc.output",
           examples=("pandoc a.md -o ~/.bashrc",))),
    hook=pandoc_filters,
    examples={"pandoc README.md -o README.html": "moderate", "pandoc -H ~/.ssh/id_rsa a.md -o a.html": "high"},
)


ENSCRIPT = Program(
    "enscript", doc="formats text for printing; -I runs an input filter command",
    grammar=Grammar(values="oIpPMcfFLNtTsuUvX", long_values=("output", "filter", "printer", "media", "font",
                                                             "header-font", "title", "encoding")),
    rows=(Row("enscript.filter", "run-code", "enscript runs the input filter command it is given",
              When(value=("I", "filter")), examples=("enscript -I '/bin/sh >&2' /dev/null",)),),
    on=(On("write", ("option", "o", "p", "output"), id="enscript.output", examples=("enscript -o ~/.bashrc x",)),
        On("read", OPERANDS, id="enscript.reads", examples=("enscript notes.txt",))),
)


@emits({"split.filter": ["split --filter='sh -c x' f"], "split.writes": ["split -l 10 f part-"],
        "csplit.writes": ["csplit f 10"]})
def split_outputs(cmd, o) -> None:
    """split/csplit: the output prefix names the files written (`split f ~/.ssh/x` writes ~/.ssh/xaa)."""
    if cmd.name == "csplit":
        prefix = o.value("f", "prefix") or "xx"
        if o.operands:
            cmd.read(o.operands[0])
        cmd.fired.add("csplit.writes")
    else:
        if o.value("filter") is not None:
            cmd.does("run-code", "split.filter", "split --filter runs a shell command for every piece")
        prefix = o.operands[1] if len(o.operands) > 1 else "x"
        if o.operands and o.operands[0] != "-":
            cmd.read(o.operands[0])
        cmd.fired.add("split.writes")
    cmd.write(prefix + "aa" if not prefix.endswith("/") else prefix, "writes split files to")


SPLIT_ROWS = (Row("split.pieces", "change", "writes split files", examples=("split -l 10 f",)),)
SPLIT = Program("split", aliases=("gsplit",), doc="splits a file into pieces named by a prefix",
                grammar=Grammar(values="abdlnt", long_values=("lines", "bytes", "line-bytes", "number",
                                                              "suffix-length", "additional-suffix", "numeric-suffixes",
                                                              "hex-suffixes", "separator", "filter"),
                                optional=("numeric-suffixes", "hex-suffixes")),
                rows=SPLIT_ROWS, hook=split_outputs)
CSPLIT = Program("csplit", doc="splits a file at context lines",
                 grammar=Grammar(values="bfn", long_values=("prefix", "suffix-format", "digits")),
                 rows=(Row("csplit.pieces", "change", "writes split files", examples=("csplit f 10",)),),
                 hook=split_outputs)


PROGRAMS = programs(
    *READER_PROGRAMS, *NAMER_PROGRAMS, *SEARCHER_PROGRAMS, JQ, YQ, PATCH, SPLIT, CSPLIT, PANDOC, ENSCRIPT,
)
