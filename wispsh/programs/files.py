"""Files: deleting, copying, moving, linking, changing modes and owners, sort and uniq's outputs, and find's
expression. What each does to a path is judged by the place (the policy's path tables); the rows here say only
what the program does. sed and awk are programs/sed_awk.py, archives, encoders and compressors
programs/archives.py, the readers and searchers programs/readers.py.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import DEST, FIRST, OPERANDS, REST, SOURCES, Grammar, On, Program, Row, When, emits, programs
from wispsh.support.lazyre import lazy_re, re

RECURSIVE = When(flag=("r", "R", "recursive"))

# ---------------------------------------------------------------- delete, copy, move, link

RM = Program(
    "rm", aliases=("unlink",),
    doc="deletes files; -r deletes whole trees",
    grammar=Grammar(longs=("recursive", "force", "dir", "interactive", "one-file-system", "no-preserve-root",
                           "preserve-root", "verbose", "help", "version")),
    rows=(
        Row("rm.no-preserve-root", "destroy", "recursive delete allowed to reach /",
            When(flag=("no-preserve-root",)), examples=("rm -rf --no-preserve-root /tmp/x",)),
        Row("rm.deletes", "change", "deletes files", When(operands=True), examples=("rm f.txt",)),
    ),
    on=(On("delete", OPERANDS, recursive=RECURSIVE, id="rm.delete",
           examples=("rm -rf ~", "rm -rf ./build", "rm f.txt", "find . -name '*.o' | xargs rm")),),
    examples={"rm -rf ~": "dangerous", "rm -fr ~": "dangerous", "rm -r -f ~": "dangerous",
              "rm --recursive --force ~": "dangerous", "rm --rec --force ~": "dangerous",
              "rm -rf -- ~": "dangerous", 'rm -rf "$HOME"': "dangerous", "rm -rf /*": "dangerous",
              "rm -R ~": "dangerous", "rm -rf ./build": "high", "rm f.txt": "moderate"},
)

RMDIR = Program(
    "rmdir", doc="removes empty directories (judged as a delete: an empty ~/.ssh or hooks directory matters)",
    grammar=Grammar(longs=("ignore-fail-on-non-empty", "parents", "verbose")),
    on=(On("delete", OPERANDS, id="rmdir.removes", examples=("rmdir build/tmp", "rmdir ~/.config/x")),),
    examples={"rmdir build/tmp": "moderate", "rmdir ~/.ssh": "dangerous", "rmdir /tmp/x": "low"},
)


@emits({"cp.secret": ["cp ~/.ssh/id_rsa /tmp/k", "cp -r ~ /tmp/x"]})
def copies_secrets(cmd, o) -> None:
    """A secret copied somewhere a later upload or push can take it from (a whole tree that holds a secret
    store, copied recursively, copies the store)."""
    sources = [w for w in o.operands[:-1]] if o.value("t", "target-directory") is None else list(o.operands)
    recursive = o.has(*CP_RECURSIVE.flag)
    for word in sources:
        where = cmd.place(word)
        store = cmd.store_under(where) if recursive and where.cls != places.SECRET else None
        if where.cls == places.SECRET or store:
            cmd.facts.secret_copy = True
            cmd.does("secret", "cp.secret", f"copies {store or where.path} (secrets)")


COPY_GRAMMAR = Grammar(values="tS", long_values=("target-directory", "suffix"),
                       longs=("recursive", "archive", "dereference", "no-dereference", "force", "interactive"))
CP_RECURSIVE = When(flag=("r", "R", "a", "recursive", "archive"))

CP = Program(
    "cp", doc="copies files; the destination is judged by where each source lands",
    grammar=COPY_GRAMMAR,
    rows=(Row("cp.copies", "change", "copies files", examples=("cp a b",)),),
    on=(On("read", SOURCES, id="cp.sources", recursive=CP_RECURSIVE,
           examples=("cp ~/.bashrc bak", "cp -r ~/.config /tmp/c")),
        On("write", DEST, into=True, id="cp.dest", examples=("cp evil ~/.bashrc", "cp .bashrc ~", "cp a b"))),
    hook=copies_secrets,
    examples={"cp evil ~/.bashrc": "dangerous", "cp a b": "moderate", "cp hook .git/hooks/pre-commit": "dangerous"},
)

MV = Program(
    "mv", doc="moves files: the sources go away, the destination is written",
    grammar=COPY_GRAMMAR,
    rows=(Row("mv.moves", "change", "moves files", examples=("mv a b",)),),
    on=(On("delete", SOURCES, id="mv.sources", examples=("mv ~/.bashrc /tmp/x",)),
        On("write", DEST, into=True, id="mv.dest", examples=("mv /tmp/a.json ~/.wisp/approvals.json",))),
    examples={"mv a b": "moderate", "mv /tmp/a.json ~/.wisp/approvals.json": "dangerous"},
)


@emits({"ln.to-wisp": ["ln -s ~/.wisp w"], "ln.replaces": ["ln -sf /tmp/h .git/hooks/pre-push"],
        "ln.at": ["ln -s a ~/.bashrc"]})
def links(cmd, o) -> None:
    """Where the link is made, and what it points at: later writes through it land there."""
    operands = list(o.operands)
    target_dir = o.value("t", "target-directory")
    if target_dir is not None:
        dest, sources = target_dir, operands
    elif len(operands) >= 2:
        dest, sources = operands[-1], operands[:-1]
    elif operands:
        dest, sources = ".", operands      # `ln -s target`: the link is made in the current directory
    else:
        return
    single = len(operands) == 1 and target_dir is None
    if not single:
        forced = o.has("f", "force")
        where = cmd.write(dest, "replaces" if forced else "creates a link at")
        cmd.fired.add("ln.replaces" if forced else "ln.at")
    dest_place = cmd.place(dest)
    into = single or target_dir is not None or len(sources) > 1 or (
        not o.has("n", "no-dereference", "T", "no-target-directory") and cmd.is_directory(dest_place))
    symbolic = o.has("s", "symbolic")
    for target in sources:
        if UNKNOWN in target:
            continue
        name = target.rstrip("/").rsplit("/", 1)[-1]
        link = dest_place.path.rstrip("/") + "/" + name if into else dest_place.path
        if symbolic and not target.startswith(("/", "~")):
            target = _normalize(link.rsplit("/", 1)[0] + "/" + target)    # relative to the link's place
        where = cmd.place(target)
        if where.cls in (places.WISP, places.WISP_KEY):
            cmd.does("gate", "ln.to-wisp",
                     f"links to {where.path} (wisp's own files): writes through the link tamper with the gate")
        cmd.facts.links.append((link, where.path))


LN = Program(
    "ln", doc="makes links: the link's place is written, what it points at is where later writes land",
    grammar=Grammar(values="tS", long_values=("target-directory", "suffix"),
                    longs=("symbolic", "force", "no-dereference", "no-target-directory", "relative")),
    rows=(Row("ln.creates", "create", "creates a link", examples=("ln -s a b",)),),
    hook=links,
)


@emits({"install.setuid": ["install -m 4755 tool /usr/local/bin/tool"]})
def setuid_install(cmd, o) -> None:
    if _setuid(o.value("m", "mode") or ""):
        cmd.does("privilege", "install.setuid", "installs a setuid program")


INSTALL = Program(
    "install", doc="copies files into place (-d: makes directories), optionally setting modes",
    grammar=Grammar(values="tSmogC", long_values=("target-directory", "suffix", "mode", "owner", "group"),
                    longs=("directory",)),
    rows=(Row("install.installs", "change", "installs files", examples=("install -m 644 a b",)),),
    on=(On("create", OPERANDS, when=When(flag=("d", "directory")), id="install.dirs",
           examples=("install -d build/out",)),
        On("read", SOURCES, when=When(unless=("d", "directory")), id="install.sources",
           examples=("install a b",)),
        On("write", DEST, into=True, when=When(unless=("d", "directory")), id="install.dest",
           examples=("install evil ~/.bashrc",))),
    hook=setuid_install,
)


@emits({"dd.of": ["dd if=evil of=/dev/sda"], "dd.if": ["dd if=/dev/sda of=disk.img"]})
def dd_operands(cmd, o) -> None:
    """dd names its files as if=… and of=…, not as options."""
    for arg in o.operands:
        key, eq, value = arg.partition("=")
        if key == "of" and eq:
            cmd.fired.add("dd.of")
            cmd.write(value)
        elif key == "if" and eq:
            cmd.fired.add("dd.if")
            cmd.read(value)


DD = Program(
    "dd", doc="copies raw data between files and devices",
    rows=(Row("dd.copies", "change", "copies raw data", examples=("dd if=a of=b bs=1M",)),),
    hook=dd_operands,
    examples={"dd if=evil of=/dev/sda": "dangerous"},
)

SHRED = Program(
    "shred", doc="overwrites files so that their contents cannot be recovered",
    grammar=Grammar(values="ns", long_values=("iterations", "size", "remove", "random-source"),
                    optional=("remove",)),
    rows=(Row("shred.destroys", "discard", "destroys file contents beyond recovery", examples=("shred -u a",)),),
    on=(On("write", OPERANDS, id="shred.writes", says="destroys", examples=("shred ~/.bashrc",)),
        On("delete", OPERANDS, id="shred.deletes", examples=("shred -u a",))),
)

TRUNCATE = Program(
    "truncate", doc="changes file sizes (-s 0 empties a file)",
    grammar=Grammar(values="sr", long_values=("size", "reference")),
    rows=(Row("truncate.resizes", "change", "changes file sizes", examples=("truncate -s 0 log.txt",)),),
    on=(On("write", OPERANDS, id="truncate.writes", says="truncates",
           examples=("truncate -s 0 ~/.ssh/id_ed25519",)),),
)

SPONGE = Program(
    "sponge", doc="soaks up its input, then writes it to a file (-a appends)",
    rows=(Row("sponge.writes", "change", "writes its input to a file", examples=("sort f | sponge f",)),),
    on=(On("write", OPERANDS, when=When(flag=("a",)), says="appends to", id="sponge.appends",
           examples=("echo x | sponge -a ~/.bashrc",)),
        On("write", OPERANDS, when=When(unless=("a",)), id="sponge.dest", examples=("sort f | sponge f",))),
)

TEE = Program(
    "tee", doc="copies its input to files (-a appends)",
    grammar=Grammar(longs=("append", "ignore-interrupts", "output-error")),
    on=(On("write", OPERANDS, when=When(flag=("a", "append")), says="appends to", id="tee.appends",
           examples=("printf x | tee -a ~/.bashrc",)),
        On("write", OPERANDS, when=When(unless=("a", "append")), id="tee.writes",
           examples=("echo x | tee out.txt",))),
)

TOUCH = Program(
    "touch", doc="creates files or changes their times",
    grammar=Grammar(values="rtd", long_values=("reference", "date")),
    on=(On("create", OPERANDS, says="touches", id="touch.creates", examples=("touch ~/.ssh/x",)),),
)

MKDIR = Program(
    "mkdir", doc="creates directories",
    grammar=Grammar(values="m", long_values=("mode", "context")),
    on=(On("create", OPERANDS, id="mkdir.creates", examples=("mkdir -p build",)),),
    examples={"mkdir -p build": "low"},
)
MKFIFO = Program(
    "mkfifo", doc="creates named pipes (what runs through one is the line's business: policy/line.py)",
    grammar=Grammar(values="mZ", long_values=("mode", "context")),
    on=(On("create", OPERANDS, id="mkfifo.creates", examples=("mkfifo /tmp/f",)),),
    examples={"mkfifo /tmp/f": "low"},
)

# ---------------------------------------------------------------- modes and owners

_SETUID_SYMBOLIC = lazy_re(r"[ugoa]*[+=][rwxXtugo]*s")
_OPENS_UP = lazy_re(r"(^|,)[oa]*\+[rwx]*w|^\+?w|o\+r")
_MODE_OPTION = lazy_re(r"-[Rcfv]+|--[a-z-]+(=.*)?")


def _setuid(mode: str) -> bool:
    if _SETUID_SYMBOLIC.search(mode):
        return True
    return bool(re.fullmatch(r"[2-7][0-7]{3}", mode.lstrip("0")))


@emits({"chmod.setuid": ["chmod u+s /usr/bin/python3", "chmod 4755 ./tool"],
        "chmod.opens-up": ["chmod 666 ~/.wisp/approvals.json"], "chmod.modes": ["chmod +x x.sh"]})
def chmod_modes(cmd, o) -> None:
    """chmod's modes look like options (-w, -x): read them as operands."""
    operands = [a for a in o.args if a != "--" and not _MODE_OPTION.fullmatch(a)]
    if o.value("reference") is None and operands:
        mode, targets = operands[0], operands[1:]
    else:
        mode, targets = "", operands
    if _setuid(mode):
        cmd.does("privilege", "chmod.setuid", "sets the setuid/setgid bit (runs as the file's owner)")
    cmd.does("change", "chmod.modes", "changes file modes")
    opens_up = bool(re.fullmatch(r"0*[0-7]?[0-7][0-7][2-7]", mode) or _OPENS_UP.search(mode))
    recursive = o.has("R", "recursive")
    for word in targets:
        where = cmd.mode(word, recursive, "changes the mode of")
        if opens_up and where.cls in (places.SECRET, places.SYSTEM, places.WISP, places.WISP_KEY, places.DOTFILE,
                                      places.GIT_INTERNAL):
            cmd.does("weaken", "chmod.opens-up", f"opens {where.path} ({where.cls}) to other users")


CHMOD = Program(
    "chmod", doc="changes file modes",
    grammar=Grammar(long_values=("reference",), longs=("recursive", "changes", "silent", "quiet", "verbose")),
    hook=chmod_modes,
    examples={"chmod +x x.sh": "moderate", "chmod u+s /usr/bin/python3": "dangerous",
              "chmod -R 777 ~": "dangerous"},
)

CHOWN = Program(
    "chown", aliases=("chgrp",), doc="changes file owners",
    grammar=Grammar(long_values=("reference", "from"), longs=("recursive", "dereference", "no-dereference")),
    rows=(Row("chown.owners", "change", "changes file owners", examples=("chown me f",)),),
    on=(On("mode", REST, recursive=When(flag=("R", "recursive")), when=When(unless=("reference",)),
           says="changes the owner of", id="chown.targets", examples=("chown -R me ~",)),
        On("mode", OPERANDS, recursive=When(flag=("R", "recursive")), when=When(flag=("reference",)),
           says="changes the owner of", id="chown.like", examples=("chown --reference=a b",))),
)


@emits({"chattr.targets": ["chattr +i ~/.bashrc"]})
def attribute_targets(cmd, o) -> None:
    operands = [a for a in o.args if not a.startswith(("-R", "-V", "-f"))]
    for word in operands[1:]:
        cmd.fired.add("chattr.targets")
        cmd.mode(word, "-R" in o.args, "changes the attributes of")


CHATTR = Program(
    "chattr", aliases=("setfacl",), doc="changes file attributes and access lists",
    rows=(Row("chattr.attributes", "system", "changes file attributes", examples=("chattr +i f",)),),
    hook=attribute_targets,
)

# ---------------------------------------------------------------- readers that can write or run

SORT = Program(
    "sort", doc="sorts lines; -o writes a file, --compress-program runs one",
    grammar=Grammar(values="oTSkt", long_values=("output", "temporary-directory", "buffer-size", "key",
                                                 "field-separator", "files0-from", "compress-program", "parallel",
                                                 "sort", "random-source")),
    rows=(Row("sort.compress-program", "run-code", "runs a compression program", When(value=("compress-program",)),
              examples=("sort --compress-program=./x f",)),),
    on=(On("write", ("option", "o", "output"), id="sort.output", examples=("sort -o ~/.bashrc list",)),
        On("read", OPERANDS, id="sort.reads", examples=("sort f",))),
)

UNIQ = Program(
    "uniq", doc="drops repeated lines; a second operand is the file it writes",
    grammar=Grammar(values="fsw", long_values=("skip-fields", "skip-chars", "check-chars", "group", "all-repeated")),
    on=(On("read", FIRST, id="uniq.reads", examples=("uniq f",)),
        On("write", ("nth", 1), id="uniq.writes", examples=("uniq a ~/.bashrc",), not_examples=("uniq a",))),
)


# ---------------------------------------------------------------- find

FIND_VALUE_TESTS = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype",
    "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
    "-cmin", "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth", "-links", "-inum", "-samefile",
    "-lname", "-ilname", "-used", "-fstype", "-context", "-printf", "-newermt", "-regextype", "-D",
    "-files0-from",
})
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})   # the command is a part of its own (splitter)
FIND_WRITE = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})
FIND_PLAIN = frozenset({"-print", "-print0", "-ls", "-prune", "-quit", "-depth", "-xdev", "-mount", "-empty",
                        "-true", "-false", "-follow", "-not", "-and", "-or", "-a", "-o", "-readable", "-writable",
                        "-executable", "-nouser", "-nogroup", "-daystart", "-ignore_readdir_race"})


@emits({"find.writes": ["find . -fprint ~/.bashrc"], "find.unknown-option": ["find . -frobnicate"],
        "find.deletes-filtered": ["find . -name '*.o' -delete"], "find.deletes": ["find ~ -delete"],
        "find.deletes-broad": ["find / -delete"], "find.searches": ["find . -name '*.py'"]})
def find_expression(cmd, o) -> None:
    """Start paths, then an expression: tests filter, -delete deletes, -fprint writes; {} of an -exec command
    stands for what find finds (facts.found_under, read by the whole-line rules)."""
    args = o.args
    i, n = 0, len(args)
    while i < n and args[i] in ("-H", "-L", "-P") or (i < n and args[i].startswith("-O")):
        i += 1
    starts = []
    while i < n and not args[i].startswith(("-", "(", "!", ")")) and args[i] != ",":
        starts.append(args[i])
        i += 1
    starts = starts or ["."]
    filtered = deleting = False
    names = [args[j + 1] for j in range(i, n - 1) if args[j] in ("-name", "-iname", "-path", "-ipath",
                                                                 "-wholename", "-regex")]
    while i < n:
        word = args[i]
        i += 1
        if word in FIND_EXEC:
            while i < n and args[i] not in (";", "+"):
                i += 1
            i += 1
        elif word in FIND_WRITE:
            if i < n:
                cmd.fired.add("find.writes")
                cmd.write(args[i], f"find {word} writes")
            i += 2 if word == "-fprintf" else 1
        elif word == "-delete":
            deleting = True
        elif word in FIND_VALUE_TESTS:
            filtered = filtered or word not in ("-maxdepth", "-mindepth", "-D", "-regextype")
            i += 1
        elif word.startswith("-") and word[1:2].isalpha() and word not in FIND_PLAIN:
            cmd.does("unknown", "find.unknown-option", f"find option {word} is not understood")
    # what {} stands for: `find ~ -name .bashrc` finds ~/.bashrc; without one plain name, anything under start
    leaf = names[0] if len(names) == 1 and "/" not in names[0] and UNKNOWN not in names[0] else "*"
    for start in starts:
        where = cmd.place(start)
        found = start.rstrip("/") + "/" + leaf if start not in ("/",) else "/" + leaf
        store = cmd.store_under(where) if leaf == "*" else None
        if store is not None:
            found = store + "/*"        # what it finds under a tree that holds a secret store: the store's files too
        cmd.facts.found_under.append(found)
        cmd.facts.names.append(found)       # what it prints, for `| xargs cmd`
        if deleting and filtered and where.cls in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            cmd.facts.deletes = True
            cmd.does("change", "find.deletes-filtered", f"deletes the files it finds under {start}")
            continue
        if where.cls in (places.ROOT, places.HOME, places.ANCESTOR, places.SYSTEM):
            cmd.facts.lists_big = where.cls
        if where.cls in places.SECRET_CLASSES or (where.cls in (places.HOME, places.ROOT, places.ANCESTOR) and (
                not names or any(places.glob_could_be_secret(name.rsplit("/", 1)[-1]) for name in names))):
            cmd.facts.secret_source = cmd.facts.secret_source or f"finds files under {where.cls} (secrets among them)"
        if deleting:
            where = cmd.delete(start, recursive=not filtered)
            if where.cls in (places.ROOT, places.HOME, places.ANCESTOR, places.SYSTEM):
                cmd.does("destroy", "find.deletes-broad", f"deletes files found under {where.cls}")
            cmd.does("change", "find.deletes", "deletes the files it finds")
        else:
            cmd.fired.add("find.searches")
            cmd.list_names(start, "searches")


FIND = Program("find", aliases=("gfind",), doc="searches a tree; -delete deletes, -fprint writes, -exec runs",
               hook=find_expression,
               examples={"find . -name '*.py'": "safe", "find / -delete": "dangerous"})


def _normalize(path: str) -> str:
    import posixpath
    return posixpath.normpath(path)


PROGRAMS = programs(
    RM, RMDIR, CP, MV, LN, INSTALL, DD, SHRED, TRUNCATE, SPONGE, TEE, TOUCH, MKDIR, MKFIFO, CHMOD, CHOWN, CHATTR,
    SORT, UNIQ, FIND,
)
