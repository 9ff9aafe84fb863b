"""Archives, encoders and compressors: tar, zip, unzip, 7z, xxd, base64 and the compressors. What they pack is
read (secrets packed are secrets read), what they unpack is written where they unpack it.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import FIRST, HERE, OPERANDS, Grammar, On, Program, Row, When, emits, programs


# ---------------------------------------------------------------- archives

TAR_SHORT_VALUES = "fCTXbLNVgHIKF"
TAR_LONG_VALUES = ("file", "directory", "to-command", "use-compress-program", "info-script", "new-volume-script",
                   "checkpoint-action", "rmt-command", "rsh-command", "files-from", "exclude", "transform",
                   "format", "owner", "group", "mode", "index-file", "label", "newer", "after-date",
                   "listed-incremental", "exclude-from", "strip-components", "xform", "blocking-factor",
                   "record-size", "tape-length", "starting-file", "newer-mtime", "mtime", "volno-file",
                   "suffix", "backup", "atime-preserve", "one-top-level", "sort", "warning", "occurrence",
                   "exclude-tag", "exclude-tag-all", "exclude-tag-under", "hole-detection", "quoting-style",
                   "xattrs-include", "xattrs-exclude", "pax-option", "checkpoint", "set-mtime-format")
TAR_GRAMMAR = Grammar(values=TAR_SHORT_VALUES, long_values=TAR_LONG_VALUES)


def _remote_archive(archive: str) -> bool:
    """GNU tar's `[user@]host:file` archive: on another machine (a colon before any slash)."""
    head = archive.split("/", 1)[0]
    return ":" in head and not archive.startswith(("/", ".", "~")) and UNKNOWN not in head


def _archives_secrets(cmd, where, archive: str | None) -> None:
    if where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SECRET, places.PROJECT_SECRET):
        cmd.facts.secret_source = cmd.facts.secret_source or f"archives {where.cls}"
        cmd.facts.secret_copy = cmd.facts.secret_copy or bool(archive and archive != "-")


@emits({"tar.removes": ["tar -cf /dev/null . --remove-files"],
        "tar.remote-archive": ["tar cvf user@host:/tmp/x.tar ~/.ssh/id_rsa --rsh-command=/bin/ssh"],
        "tar.extracts": ["tar -xzf a.tgz"], "tar.extracts-over": ["tar -xf a.tar -C /"],
        "tar.creates": ["tar -czf out.tgz src"], "tar.reads": ["tar -tf a.tar"]})
def tar_archive(cmd, o) -> None:
    """What tar reads, writes and extracts where; old-style `tar czf out.tgz dir` reads as `tar -czf`."""
    args = list(o.args)
    if args and not args[0].startswith("-") and UNKNOWN not in args[0]:
        o = TAR_GRAMMAR.read(["-" + args[0]] + args[1:])
    archive = o.value("f", "file")
    if o.has("x", "extract", "get"):
        cmd.does("change", "tar.extracts", "extracts an archive")
        where = cmd.unpack_into(o.value("C", "directory") or ".")
        if where.cls in (places.ROOT, places.SYSTEM, places.ANCESTOR):
            cmd.does("destroy", "tar.extracts-over", f"extracts over {where.cls}")
        if o.has("P", "absolute-names"):
            cmd.does("system", "tar.absolute-names", "extracts absolute paths anywhere")
        if archive and archive != "-":
            cmd.read(archive)
    elif o.has("c", "create", "r", "append", "u", "update", "A", "concatenate"):
        cmd.does("create", "tar.creates", "creates an archive")
        base = o.value("C", "directory")
        if archive and _remote_archive(archive) and not o.has("force-local"):
            # `tar cf host:/x.tar F` writes the archive on another machine (through rsh/ssh): F leaves
            cmd.fired.add("tar.remote-archive")
            for word in o.operands:
                cmd.send(word if base is None or word.startswith(("/", "~")) else f"{base}/{word}",
                         "archives to another machine")
            return None
        if archive and archive != "-":
            cmd.write(archive)
        removes = o.has("remove-files")
        for word in o.operands:
            path = word if base is None or word.startswith(("/", "~")) else f"{base}/{word}"
            where = cmd.read(path, "archives") if o.has("no-recursion") else cmd.embed(path, "archives", True)
            _archives_secrets(cmd, where, archive)
            if removes:                 # --remove-files deletes what it archived
                cmd.fired.add("tar.removes")
                cmd.delete(path, recursive=True)
    elif archive and archive != "-":
        cmd.fired.add("tar.reads")
        cmd.read(archive)
    return None


TAR_RUNS = {"to-command": "pipes every member into a command", "use-compress-program": "runs a program",
            "I": "runs a compression program", "info-script": "runs a script", "F": "runs a script",
            "new-volume-script": "runs a script", "rmt-command": "runs a remote-tape program",
            "rsh-command": "runs a remote shell program"}

TAR = Program(
    "tar", aliases=("gtar", "bsdtar"), doc="creates, lists and extracts archives; some options run programs",
    grammar=TAR_GRAMMAR,
    rows=tuple(Row(f"tar.runs-{name}", "run-code", f"tar {why} ({'--' if len(name) > 1 else '-'}{name})",
                   When(value=(name,)),
                   examples=(f"tar -cf a.tar {'--' + name + '=./x' if len(name) > 1 else '-' + name + ' ./x'} src",))
               for name, why in TAR_RUNS.items()) + (
        Row("tar.checkpoint-action", "run-code", "tar runs a command at checkpoints",
            When(arg=("--checkpoint-action=exec",)), examples=("tar -cf a.tar --checkpoint=1 "
                                                               "--checkpoint-action=exec=sh src",)),),
    hook=tar_archive,
    examples={"tar -xzf a.tgz": "moderate", "tar -czf out.tgz src": "moderate", "tar -tf a.tar": "safe",
              "tar xf dot.tar -C ~": "dangerous", "tar -xf a.tar -C build": "moderate"},
)


@emits({"zip.test-command": ["zip -T -TT 'sh -c id' a.zip f"], "zip.tests": ["zip -T a.zip"],
        "zip.creates": ["zip -r out.zip src"], "zip.encrypts": ["zip -e out.zip f", "zip -P pw out.zip f"],
        "zip.moves": ["zip -m out.zip f"]})
def zip_archive(cmd, o) -> None:
    if o.value("TT", "unzip-command") is not None or "-TT" in o.args:
        cmd.does("run-code", "zip.test-command", "zip runs a test command (-TT)")
    if len(o.operands) == 1 and o.has("T") and not o.has("d", "@", "m", "F", "u", "f", "g"):
        cmd.fired.add("zip.tests")
        cmd.read(o.operands[0])       # `zip -T a.zip` tests the archive
        return
    cmd.does("create", "zip.creates", "creates an archive")
    if o.has("e", "encrypt") or o.value("P", "password") is not None:
        cmd.fired.add("zip.encrypts")
        cmd.facts.encrypts = True
    if o.operands:
        archive = o.operands[0]
        if archive != "-":
            cmd.write(archive)
        for word in o.operands[1:]:
            _archives_secrets(cmd, cmd.embed(word, "archives", o.has("r", "R", "recurse-paths")), archive)
            if o.has("m", "move"):      # -m: the originals are deleted once archived
                cmd.fired.add("zip.moves")
                cmd.delete(word, recursive=o.has("r", "recurse-paths"))


ZIP = Program("zip", doc="creates zip archives",
              grammar=Grammar(values="tbnxiPZ", long_values=("unzip-command", "temp-path", "password", "exclude",
                                                             "include", "suffixes"),
                              longs=("encrypt", "move", "recurse-paths")),
              hook=zip_archive)

UNZIP = Program(
    "unzip", doc="extracts zip archives (-l/-v/-t/-p only list, test or print)",
    grammar=Grammar(values="dxP", long_values=("password",)),
    rows=(Row("unzip.lists", "nothing", "lists or tests the archive", When(flag=("l", "v", "t", "Z", "p", "c")),
              stop=True, examples=("unzip -l a.zip",)),
          Row("unzip.extracts", "change", "extracts an archive", examples=("unzip a.zip",))),
    on=(On("unpack", ("option", "d"), id="unzip.into", examples=("unzip a.zip -d ~", "unzip a.zip -d out")),
        On("unpack", HERE, when=When(unless=("d",)), id="unzip.here",
           examples=("unzip a.zip",)),
        On("read", FIRST, id="unzip.archive", examples=("unzip ~/secrets.zip",))),
)


@emits({"7z.reads": ["7z l a.7z"], "7z.extracts": ["7z x a.7z"], "7z.extracts-over": ["7z x a.7z -o/"],
        "7z.changes": ["7z a out.7z src"], "7z.encrypts": ["7z a -psecret out.7z src"],
        "7z.moves": ["7z a -sdel out.7z src"]})
def sevenzip_verbs(cmd, o) -> None:
    """7z/7za/7zz: `x`/`e` extract (-oDIR), `a`/`u`/`d` change an archive, `l`/`t` only read."""
    verb = o.args[0] if o.args else ""
    rest = o.args[1:]
    outputs = [a[2:] for a in rest if a.startswith("-o")]
    operands = [a for a in rest if not a.startswith("-")]
    if verb in ("l", "t", "i", "h", "b", ""):
        cmd.fired.add("7z.reads")
        for word in operands[:1]:
            cmd.read(word)
        return
    if verb in ("x", "e"):
        cmd.does("change", "7z.extracts", "extracts an archive")
        where = cmd.unpack_into(outputs[-1] if outputs else ".")
        if where.cls in (places.ROOT, places.SYSTEM, places.ANCESTOR):
            cmd.does("destroy", "7z.extracts-over", f"extracts over {where.cls}")
        for word in operands[:1]:
            cmd.read(word)
        return
    cmd.does("change", "7z.changes", f"{cmd.name} {verb} changes an archive")
    if any(a.startswith("-p") for a in rest):
        cmd.fired.add("7z.encrypts")
        cmd.facts.encrypts = True
    if operands:
        cmd.write(operands[0])
        for word in operands[1:]:
            _archives_secrets(cmd, cmd.embed(word, "archives", True), operands[0])
            if "-sdel" in rest:         # the originals are deleted once archived
                cmd.fired.add("7z.moves")
                cmd.delete(word, recursive=True)


SEVENZIP = Program("7z", aliases=("7za", "7zz", "7zr"), doc="7-Zip archives", hook=sevenzip_verbs)

# ---------------------------------------------------------------- encoders and compressors

XXD = Program(
    "xxd", doc="hex dumps; -r turns a dump back into bytes",
    grammar=Grammar(values="cglsonC", long_values=("cols", "len", "seek", "name")),
    rows=(Row("xxd.reverts", "nothing", "decodes hidden text", When(flag=("r", "revert")), sets=("decoder",),
              examples=("xxd -r -p hex.txt",)),),
    on=(On("read", FIRST, id="xxd.reads", examples=("xxd f",)),
        On("write", ("nth", 1), id="xxd.writes", examples=("xxd -r dump ~/.bashrc",))),
)

BASE64 = Program(
    "base64", aliases=("base32", "basenc"), doc="encodes and decodes base64",
    grammar=Grammar(values="w", long_values=("wrap",)),
    rows=(Row("base64.decodes", "nothing", "decodes hidden text", When(flag=("d", "D", "decode")),
              sets=("decoder",), examples=("base64 -d blob",)),),
    on=(On("read", OPERANDS, id="base64.reads", examples=("base64 ~/.ssh/id_rsa",)),),
)

DECOMPRESS_GRAMMAR = Grammar(values="S", long_values=("suffix",))
TO_STDOUT = When(flag=("c", "stdout", "to-stdout", "t", "test", "l", "list"))


def _compressor(name: str, aliases=(), *, decodes: bool) -> Program:
    """gzip and friends replace each file with its (de)compressed form, unless -c/-t/-l."""
    rows = (Row(f"{name}.decodes", "nothing", "decodes hidden text", When(flag=("d", "decompress")),
                sets=("decoder",), examples=(f"{name} -d f",)),) if not decodes else (
        Row(f"{name}.decodes", "nothing", "decodes hidden text", sets=("decoder",), examples=(f"{name} f",)),)
    return Program(name, aliases=aliases, doc=f"{name}: (de)compresses files", grammar=DECOMPRESS_GRAMMAR,
                   rows=rows,
                   on=(On("read", OPERANDS, when=TO_STDOUT, id=f"{name}.reads", examples=(f"{name} -c f",)),
                       On("write", OPERANDS, when=When(unless=TO_STDOUT.flag), says="replaces", id=f"{name}.replaces",
                          examples=(f"{name} f",))))


def _catter(name: str, aliases=()) -> Program:
    return Program(name, aliases=aliases, doc=f"{name}: prints decompressed files", grammar=DECOMPRESS_GRAMMAR,
                   rows=(Row(f"{name}.decodes", "nothing", "decodes hidden text", sets=("decoder",),
                             examples=(f"{name} f.gz",)),),
                   on=(On("read", OPERANDS, id=f"{name}.reads", examples=(f"{name} f.gz",)),))


COMPRESSORS = (
    _compressor("gzip", decodes=False), _compressor("bzip2", decodes=False), _compressor("xz", decodes=False),
    _compressor("zstd", decodes=False), _compressor("gunzip", decodes=True), _compressor("bunzip2", decodes=True),
    _compressor("unxz", decodes=True), _compressor("unzstd", decodes=True),
    _catter("zcat"), _catter("bzcat"), _catter("xzcat"), _catter("zstdcat"),
)


PROGRAMS = programs(TAR, ZIP, UNZIP, SEVENZIP, XXD, BASE64, *COMPRESSORS)
