"""Files: deleting, copying, moving, linking, changing modes, and the options that make readers write or run."""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd, normalize
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

RM_LONGS = ("recursive", "force", "dir", "interactive", "one-file-system", "no-preserve-root", "preserve-root",
            "verbose", "help", "version")


def _operands_or_stdin(c: Cmd, operands: list[str]) -> list[str]:
    """xargs appends words read from its input: an unknown operand."""
    return operands + [UNKNOWN] if c.via_xargs else operands


def rm(c: Cmd) -> None:
    o = c.opts(longs=RM_LONGS)
    recursive = o.has("r", "R", "recursive")
    if o.has("no-preserve-root"):
        c.at_least(D, "recursive delete allowed to reach /")
    targets = _operands_or_stdin(c, o.operands)
    c.at_least(M if targets else L, "deletes files")
    for word in targets:
        c.delete(word, recursive)


def rmdir(c: Cmd) -> None:
    for word in _operands_or_stdin(c, c.opts().operands):
        c.create(word, "removes the empty directory")


def _dest_and_sources(c: Cmd, short_values: str = "tS", long_values=("target-directory", "suffix")):
    o = c.opts(short_values, long_values)
    operands = _operands_or_stdin(c, o.operands)
    target = o.value("t", "target-directory")
    if target is not None:
        return o, target, operands
    if len(operands) >= 2:
        return o, operands[-1], operands[:-1]
    return o, (operands[0] if operands and c.name == "ln" else None), ([] if c.name == "ln" else operands)


def cp(c: Cmd) -> None:
    c.at_least(M, "copies files")
    o, dest, sources = _dest_and_sources(c)
    for word in sources:
        where = c.read(word)
        if where.cls == places.SECRET:
            c.facts.secret_copy = True
            c.at_least(H, f"copies {where.path} (secrets)")
    if dest is not None:
        c.write_into(dest, sources, "writes", into=o.value("t", "target-directory") is not None)


def mv(c: Cmd) -> None:
    c.at_least(M, "moves files")
    o, dest, sources = _dest_and_sources(c)
    for word in sources:
        c.delete(word, recursive=False)
    if dest is not None:
        c.write_into(dest, sources, "writes", into=o.value("t", "target-directory") is not None)


def ln(c: Cmd) -> None:
    c.at_least(L, "creates a link")
    o, dest, sources = _dest_and_sources(c)
    if dest is None:
        return
    single = len(o.operands) == 1 and o.value("t", "target-directory") is None
    if single:
        sources, dest = [dest], "."     # `ln -s target`: the link is made in the current directory
    else:
        c.write(dest, "replaces" if o.has("f", "force") else "creates a link at")
    dest_place = c.place(dest)
    into = single or o.value("t", "target-directory") is not None or len(sources) > 1 or (
        not o.has("n", "no-dereference", "T", "no-target-directory") and places.is_directory(dest_place))
    symbolic = o.has("s", "symbolic")
    for target in sources:
        if UNKNOWN in target:
            continue
        name = target.rstrip("/").rsplit("/", 1)[-1]
        link = dest_place.path.rstrip("/") + "/" + name if into else dest_place.path
        if symbolic and not target.startswith(("/", "~")):
            target = normalize(link.rsplit("/", 1)[0] + "/" + target)    # relative to the link's place
        where = c.place(target)
        if where.cls in (places.WISP, places.WISP_KEY):
            c.at_least(D, f"links to {where.path} (wisp's own files): writes through the link tamper with the gate")
        c.facts.links.append((link, where.path))


def install(c: Cmd) -> None:
    o, dest, sources = _dest_and_sources(c, "tSmogC", ("target-directory", "suffix", "mode", "owner", "group"))
    c.at_least(M, "installs files")
    if o.has("d", "directory"):
        for word in o.operands:
            c.create(word)
        return
    for word in sources:
        c.read(word)
    if dest is not None:
        c.write_into(dest, sources, "writes", into=o.value("t", "target-directory") is not None)
    mode = o.value("m", "mode") or ""
    if _setuid(mode):
        c.at_least(D, "installs a setuid program")


def dd(c: Cmd) -> None:
    c.at_least(M, "copies raw data")
    for arg in c.args:
        key, eq, value = arg.partition("=")
        if not eq:
            continue
        if key == "of":
            c.write(value)
        elif key == "if":
            c.read(value)


def shred(c: Cmd) -> None:
    o = c.opts("nsu", ("iterations", "size", "remove", "random-source"), optional_long_values=("remove",))
    c.at_least(H, "destroys file contents beyond recovery")
    for word in _operands_or_stdin(c, o.operands):
        c.write(word, "destroys")
        c.delete(word, recursive=False)


def truncate(c: Cmd) -> None:
    o = c.opts("sr", ("size", "reference"))
    c.at_least(M, "changes file sizes")
    for word in _operands_or_stdin(c, o.operands):
        c.write(word, "truncates")


_SETUID_SYMBOLIC = lazy_re(r"[ugoa]*[+=][rwxXtugo]*s")


def _setuid(mode: str) -> bool:
    if _SETUID_SYMBOLIC.search(mode):
        return True
    digits = mode.lstrip("0")
    return bool(re.fullmatch(r"[2-7][0-7]{3}", digits))


def chmod(c: Cmd) -> None:
    o = c.opts(long_values=("reference",), longs=("recursive", "changes", "silent", "quiet", "verbose"))
    # chmod's modes look like options (-w, -x): read them as operands
    words = [a for a in c.args if a != "--"]
    recursive = o.has("R", "recursive")
    operands = [a for a in words if not re.fullmatch(r"-[Rcfv]+|--[a-z-]+(=.*)?", a)]
    if o.value("reference") is None and operands:
        mode, targets = operands[0], operands[1:]
    else:
        mode, targets = "", operands
    if _setuid(mode):
        c.at_least(D, "sets the setuid/setgid bit (runs as the file's owner)")
    c.at_least(M, "changes file modes")
    opens_up = bool(re.fullmatch(r"0*[0-7]?[0-7][0-7][2-7]", mode) or re.search(r"(^|,)[oa]*\+[rwx]*w|^\+?w|o\+r",
                                                                              mode))
    for word in _operands_or_stdin(c, targets):
        where = c.mode(word, recursive, "changes the mode of")
        if opens_up and where.cls in (places.SECRET, places.SYSTEM, places.WISP, places.WISP_KEY, places.DOTFILE, places.GIT_INTERNAL):
            c.at_least(D, f"opens {where.path} ({where.cls}) to other users")


def chown(c: Cmd) -> None:
    o = c.opts(long_values=("reference", "from"), longs=("recursive", "dereference", "no-dereference"))
    recursive = o.has("R", "recursive")
    operands = o.operands
    targets = operands if o.value("reference") is not None else operands[1:]
    c.at_least(M, "changes file owners")
    for word in _operands_or_stdin(c, targets):
        c.mode(word, recursive, "changes the owner of")


def chattr(c: Cmd) -> None:
    operands = [a for a in c.args if not a.startswith(("-R", "-V", "-f"))]
    recursive = "-R" in c.args
    c.at_least(H, "changes file attributes")
    for word in operands[1:]:
        c.mode(word, recursive, "changes the attributes of")


def tee(c: Cmd) -> None:
    o = c.opts(longs=("append", "ignore-interrupts", "output-error"))
    for word in o.operands:
        c.write(word, "appends to" if o.has("a", "append") else "writes")


def touch(c: Cmd) -> None:
    o = c.opts("rtd", ("reference", "date"))
    for word in o.operands:
        c.create(word, "touches")


def mkdir(c: Cmd) -> None:
    o = c.opts("m", ("mode", "context"))
    for word in _operands_or_stdin(c, o.operands):
        c.create(word)


def sort(c: Cmd) -> None:
    o = c.opts("oTSkt", ("output", "temporary-directory", "buffer-size", "key", "field-separator",
                         "files0-from", "compress-program", "parallel", "sort", "random-source"))
    if o.value("compress-program"):
        c.at_least(H, "runs a compression program")
    out = o.value("o", "output")
    if out is not None:
        c.write(out)
    for word in o.operands:
        c.read(word)


def uniq(c: Cmd) -> None:
    o = c.opts("fsw", ("skip-fields", "skip-chars", "check-chars", "group", "all-repeated"))
    if o.operands:
        c.read(o.operands[0])
    if len(o.operands) > 1:
        c.write(o.operands[1])




_SED_TEXT_CMD = lazy_re(r"^\s*(?:(?:[0-9$]+|/(?:\\.|[^/])*/)(?:\s*,\s*(?:[0-9$]+|/(?:\\.|[^/])*/))?!?)?\s*"
                           r"[aic](?:\\|\s|$)")


def _sed_code_only(script: str) -> str:
    """The script without the text of a/i/c commands (text, not commands; it runs on to the line's end)."""
    kept = []
    in_text = False
    for line in script.split("\n"):
        if in_text:
            in_text = line.endswith("\\")
            continue
        pieces = line.split(";")
        code = []
        for piece in pieces:
            if _SED_TEXT_CMD.match(piece):
                in_text = line.endswith("\\")
                break
            code.append(piece)
        kept.append(";".join(code))
    return "\n".join(kept)


def sed(c: Cmd) -> None:
    o = c.opts("efl", ("expression", "file", "line-length", "in-place"), optional_long_values=("in-place",))
    scripts = o.all("e", "expression")
    operands = list(o.operands)
    if not scripts and not o.all("f", "file") and operands:
        scripts = [operands.pop(0)]
        if scripts == [""] and operands:       # BSD `sed -i '' SCRIPT FILE`: the '' is -i's suffix
            scripts = [operands.pop(0)]
    for script in o.all("f", "file"):
        c.read(script)
    if scripts:
        _sed_script(c, "\n".join(scripts))    # GNU sed joins -e scripts with newlines
    in_place = o.has("i", "in-place") or any(a.startswith("-i") or (a.startswith("-") and not a.startswith("--")
                                                                    and "i" in a[1:]) for a in c.args
                                             if a not in scripts)
    for word in _operands_or_stdin(c, operands) if in_place else operands:
        if in_place:
            c.write(word, "edits")
        else:
            c.read(word)


_SED_ADDRESS = lazy_re(r"^\s*(?:(?:[0-9$]+(?:~[0-9]+)?|/(?:\\.|[^/])*/I?|\\(.)(?:\\.|(?!\1).)*\1)"
                          r"(?:\s*,\s*(?:[0-9$+~]+|/(?:\\.|[^/])*/I?))?\s*!?)?\s*")
_SED_SUBST = lazy_re(r"s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)\s*(.*)$", re.S)


def _sed_script(c: Cmd, script: str) -> None:
    """Read a sed script command by command: e runs commands, w writes files, r reads them."""
    for line in _sed_code_only(script).split("\n"):
        for segment in _sed_segments(line):
            body = _SED_ADDRESS.sub("", segment, count=1).lstrip("{").strip()
            if not body:
                continue
            command, rest = body[0], body[1:].strip()
            if command == "s":
                m = _SED_SUBST.match(body)
                if not m:
                    continue
                flags, target = m.group(2), m.group(3).strip()
                if "e" in flags:
                    c.at_least(H, "sed runs the result as a command (s///e)")
                if "w" in flags and target:
                    c.write(target, "sed writes")
            elif command == "e":
                c.at_least(H, "sed runs a command (e)")
            elif command in "wW" and rest:
                c.write(rest, "sed writes")
            elif command in "rR" and rest:
                c.read(rest)
            if UNKNOWN in body:
                c.at_least(M, "sed script has text known only at run time")


def _sed_segments(line: str) -> list[str]:
    """Split on `;` outside s/// patterns; w/r/a/i/c take the rest of the line."""
    out, i, n, start = [], 0, len(line), 0
    while i < n:
        ch = line[i]
        if ch == "s" and i + 1 < n and line[i + 1] not in " ;\n" and line[start:i].strip("0123456789$,/!{} ") == "":
            delim = line[i + 1]
            count, j = 0, i + 2
            while j < n and count < 2:
                if line[j] == "\\":
                    j += 2
                    continue
                if line[j] == delim:
                    count += 1
                j += 1
            i = j
            continue
        if ch in "wWrRaic" and line[start:i].strip("0123456789$,!{} ") == "" or ch in "wWrRaic" and \
                _SED_ADDRESS.sub("", line[start:i]) == "":
            out.append(line[start:])
            return out
        if ch == ";":
            out.append(line[start:i])
            start = i + 1
        i += 1
    out.append(line[start:])
    return out


_AWK_STRING = lazy_re(r'"(?:\\.|[^"\\])*"')
_AWK_REDIRECT = lazy_re(r'\bprintf?\b[^;}]*?(>>?|\|&?)\s*("(?:\\.|[^"\\])*"|[^;}\s]+)')
_AWK_CODE = lazy_re(r"\bsystem\s*\(|\|\s*&|\|\s*getline|@load|\benviron\b", re.I)


def awk(c: Cmd) -> None:
    o = c.opts("fvFiEl", ("file", "assign", "field-separator", "include", "exec", "load", "source"))
    operands = list(o.operands)
    edits = False
    for loaded in o.all("l", "load", "i", "include"):
        if loaded in ("inplace", "inplace.awk") and c.name in ("awk", "gawk"):
            edits = True        # gawk's in-place extension: the files it reads are rewritten
            continue
        c.at_least(H, f"awk loads {loaded}")
    programs = o.all("f", "file", "E", "exec")
    if programs:
        for program in programs:
            c.run_file(program, "awk runs")
    elif operands:
        program = operands.pop(0)
        if UNKNOWN in program:
            c.at_least(H, "awk program known only at run time")
        else:
            _awk_program(c, program)
    for word in operands:
        if "=" not in word:
            if edits:
                c.write(word, "awk -i inplace edits")
            else:
                c.read(word)


def _awk_program(c: Cmd, program: str) -> None:
    for m in _AWK_REDIRECT.finditer(program):
        op, target = m.group(1), m.group(2)
        if op.startswith("|"):
            c.at_least(H, "awk program pipes into a command")
        elif target.startswith('"'):
            c.write(target[1:-1], "awk writes")
        else:
            c.at_least(H, "awk program writes to a file named at run time")
    code = _AWK_STRING.sub('""', program)       # text inside strings is data
    if _AWK_CODE.search(code) or re.search(r'""\s*\|', code):
        c.at_least(H, "awk program runs commands")


FIND_VALUE_TESTS = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype",
    "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
    "-cmin", "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth", "-links", "-inum", "-samefile",
    "-lname", "-ilname", "-used", "-fstype", "-context", "-printf", "-newermt", "-regextype", "-D",
    "-files0-from",
})
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
FIND_WRITE = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})


def find(c: Cmd) -> None:
    args = c.args
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
            # the command is a part of its own, judged with {} standing for what find finds
            while i < n and args[i] not in (";", "+"):
                i += 1
            i += 1
        elif word in FIND_WRITE:
            if i < n:
                c.write(args[i], f"find {word} writes")
            i += 2 if word == "-fprintf" else 1
        elif word == "-delete":
            deleting = True
        elif word in FIND_VALUE_TESTS:
            filtered = filtered or word not in ("-maxdepth", "-mindepth", "-D", "-regextype")
            i += 1
        elif word.startswith("-") and word[1:2].isalpha() and word not in ("-print", "-print0", "-ls", "-prune",
                                                                             "-quit", "-depth", "-xdev",
                                                                             "-mount", "-empty", "-true",
                                                                             "-false", "-follow", "-not",
                                                                             "-and", "-or", "-a", "-o",
                                                                             "-readable", "-writable",
                                                                             "-executable", "-nouser",
                                                                             "-nogroup", "-daystart",
                                                                             "-ignore_readdir_race"):
            c.at_least(M, f"find option {word} is not understood")
    # what {} stands for: `find ~ -name .bashrc` finds ~/.bashrc; without one plain name, anything under start
    leaf = names[0] if len(names) == 1 and "/" not in names[0] and UNKNOWN not in names[0] else "*"
    for start in starts:
        where = c.place(start)
        found = start.rstrip("/") + "/" + leaf if start not in ("/",) else "/" + leaf
        if deleting and filtered and where.cls in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.facts.deletes = True
            c.at_least(M, f"deletes the files it finds under {start}")
            c.facts.found_under.append(found)
            continue
        c.facts.found_under.append(found)
        if where.cls in (places.ROOT, places.HOME, places.ANCESTOR, places.SYSTEM):
            c.facts.lists_big = where.cls
        if where.cls in places.SECRET_CLASSES or (where.cls in (places.HOME, places.ROOT, places.ANCESTOR) and (
                not names or any(places.glob_could_be_secret(name.rsplit("/", 1)[-1]) for name in names))):
            c.facts.secret_source = c.facts.secret_source or f"finds files under {where.cls} (secrets among them)"
        if deleting:
            where = c.delete(start, recursive=not filtered)
            if where.cls in (places.ROOT, places.HOME, places.ANCESTOR, places.SYSTEM):
                c.at_least(D, f"deletes files found under {where.cls}")
            c.at_least(M, "deletes the files it finds")
        else:
            c.read(start, "searches")


TAR_SHORT_VALUES = "fCTXbLNVgHIKF"
TAR_LONG_VALUES = ("file", "directory", "to-command", "use-compress-program", "info-script", "new-volume-script",
                   "checkpoint-action", "rmt-command", "rsh-command", "files-from", "exclude", "transform",
                   "format", "owner", "group", "mode", "index-file", "label", "newer", "after-date",
                   "listed-incremental", "exclude-from", "strip-components", "xform", "blocking-factor",
                   "record-size", "tape-length", "starting-file", "newer-mtime", "mtime", "volno-file",
                   "suffix", "backup", "atime-preserve", "one-top-level", "sort", "warning", "occurrence",
                   "exclude-tag", "exclude-tag-all", "exclude-tag-under", "hole-detection", "quoting-style",
                   "xattrs-include", "xattrs-exclude", "pax-option", "checkpoint", "set-mtime-format")
TAR_RUNS = {"to-command": "pipes every member into a command", "use-compress-program": "runs a program",
            "I": "runs a compression program", "info-script": "runs a script", "F": "runs a script",
            "new-volume-script": "runs a script", "rmt-command": "runs a remote-tape program",
            "rsh-command": "runs a remote shell program"}


def tar(c: Cmd) -> None:
    args = list(c.args)
    if args and not args[0].startswith("-") and UNKNOWN not in args[0]:
        args[0] = "-" + args[0]      # old style: `tar czf out.tgz dir`
    o = c.opts(TAR_SHORT_VALUES, TAR_LONG_VALUES, args=args)
    for name, why in TAR_RUNS.items():
        if o.value(name) is not None:
            c.at_least(H, f"tar {why} ({'--' if len(name) > 1 else '-'}{name})")
    action = o.value("checkpoint-action") or ""
    if action.startswith("exec") or "exec=" in action:
        c.at_least(H, "tar runs a command at checkpoints")
    archive = o.value("f", "file")
    if o.has("x", "extract", "get"):
        c.at_least(M, "extracts an archive")
        target = o.value("C", "directory") or "."
        where = c.write(target, "extracts into")
        if where.cls in (places.ROOT, places.SYSTEM, places.ANCESTOR):
            c.at_least(D, f"extracts over {where.cls}")
        if o.has("P", "absolute-names"):
            c.at_least(H, "extracts absolute paths anywhere")
        if archive and archive != "-":
            c.read(archive)
    elif o.has("c", "create", "r", "append", "u", "update", "A", "concatenate"):
        c.at_least(L, "creates an archive")
        if archive and archive != "-":
            c.write(archive)
        base = o.value("C", "directory")
        for word in o.operands:
            where = c.read(word if base is None or word.startswith(("/", "~")) else f"{base}/{word}", "archives")
            if where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SECRET, places.PROJECT_SECRET):
                c.facts.secret_source = c.facts.secret_source or f"archives {where.cls}"
                c.facts.secret_copy = bool(archive and archive != "-")
    else:
        if archive and archive != "-":
            c.read(archive)


def zip_(c: Cmd) -> None:
    o = c.opts("tbnxiPZ", ("unzip-command", "temp-path", "password", "exclude", "include", "suffixes"))
    if o.value("TT", "unzip-command") is not None or "-TT" in c.args:
        c.at_least(H, "zip runs a test command (-TT)")
    only_tests = len(o.operands) == 1 and o.has("T") and not o.has("d", "@", "m", "F", "u", "f", "g")
    if only_tests:
        c.read(o.operands[0])       # `zip -T a.zip` tests the archive
        return
    c.at_least(L, "creates an archive")
    if o.operands:
        if o.operands[0] != "-":
            c.write(o.operands[0])
        for word in o.operands[1:]:
            where = c.read(word, "archives")
            if where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SECRET, places.PROJECT_SECRET):
                c.facts.secret_source = c.facts.secret_source or f"archives {where.cls}"
                c.facts.secret_copy = o.operands[0] != "-"


def unzip(c: Cmd) -> None:
    o = c.opts("dxP", ("password",))
    if o.has("l", "v", "t", "Z", "p", "c"):
        return
    c.at_least(M, "extracts an archive")
    c.write(o.value("d") or ".", "extracts into")
    if o.operands:
        c.read(o.operands[0])


def xxd(c: Cmd) -> None:
    o = c.opts("cglsonC", ("cols", "len", "seek", "name"))
    if o.has("r", "revert"):
        c.facts.decoder = True
    if o.operands:
        c.read(o.operands[0])
    if len(o.operands) > 1:
        c.write(o.operands[1])


def base64(c: Cmd) -> None:
    o = c.opts("w", ("wrap",))
    if o.has("d", "D", "decode"):
        c.facts.decoder = True
    for word in o.operands:
        where = c.read(word)


def decompress(c: Cmd) -> None:
    o = c.opts("S", ("suffix",))
    if c.name in ("zcat", "gunzip", "bzcat", "xzcat", "unxz", "bunzip2", "zstdcat", "unzstd") or \
            o.has("d", "decompress"):
        c.facts.decoder = True
    writes_in_place = not o.has("c", "stdout", "to-stdout", "t", "test", "l", "list") and \
        c.name not in ("zcat", "bzcat", "xzcat", "zstdcat")
    for word in o.operands:
        if writes_in_place:
            c.write(word, "replaces")
        else:
            c.read(word)


# Readers: option letters that take a value, so the value is not read as a file.
READERS = {
    "cat": "", "tac": "", "nl": "bdfhilnsvw", "head": "nc", "tail": "ncsF", "less": "bhjkopPtTxyz#",
    "more": "n", "most": "", "wc": "", "md5sum": "", "sha1sum": "", "sha256sum": "", "sha512sum": "",
    "b2sum": "", "cksum": "", "sum": "", "od": "AjNSstw", "hexdump": "enNs", "strings": "nte", "file": "mfF",
    "stat": "cf", "ls": "ITwp", "tree": "LPIoH", "du": "dBt", "diff": "CULFIxSW", "cmp": "in", "comm": "",
    "cut": "bcdf", "tr": "", "paste": "d", "join": "12eojt", "fold": "w", "fmt": "wpg", "expand": "t",
    "unexpand": "t", "column": "csotRNEWHdl", "rev": "", "look": "t", "shuf": "inRo", "split": "abdlnt",
    "readlink": "", "realpath": "", "basename": "s", "dirname": "", "test": "", "[": "", "pr": "hlwoNs",
    "iconv": "ftco", "bat": "lmHr", "batcat": "lmHr", "view": "", "getfacl": "", "lsattr": "", "namei": "",
    "wc.": "", "csplit": "bfn", "numfmt": "", "ncdu": "oe", "exa": "L", "eza": "L", "dust": "dn",
}
# Searchers: the first operand is a pattern (data), the rest are files.
SEARCHERS = {"grep": "efmABCDd", "egrep": "efmABCDd", "fgrep": "efmABCDd", "rg": "efgmABCEMtTjr",
             "ag": "ABCGgmp", "ack": "ABCgm", "zgrep": "efmABCd", "git-grep": ""}
SEARCH_LONG_VALUES = ("regexp", "file", "glob", "max-count", "after-context", "before-context", "context",
                      "type", "type-not", "encoding", "max-columns", "threads", "replace", "sort", "sortr",
                      "ignore-file", "max-depth", "type-add", "colors", "pre", "pre-glob", "engine",
                      "include", "exclude", "exclude-dir", "label", "binary-files", "devices",
                      "directories", "color", "colour", "path-separator", "field-match-separator")


def sponge(c: Cmd) -> None:
    o = c.opts()
    c.at_least(M, "writes its input to a file")
    for word in o.operands:
        c.write(word, "appends to" if o.has("a") else "writes")


def splitter(c: Cmd) -> None:
    """split/csplit: the output prefix names the files written (`split f ~/.ssh/x` writes ~/.ssh/xaa)."""
    c.at_least(M, "writes split files")
    if c.name == "csplit":
        o = c.opts("bfn", ("prefix", "suffix-format", "digits"))
        prefix = o.value("f", "prefix") or "xx"
        if o.operands:
            c.read(o.operands[0])
    else:
        o = c.opts("abdlnt", ("lines", "bytes", "line-bytes", "number", "suffix-length",
                             "additional-suffix", "numeric-suffixes", "hex-suffixes", "separator", "filter"),
                   optional_long_values=("numeric-suffixes", "hex-suffixes"))
        if o.value("filter") is not None:
            c.at_least(H, "split --filter runs a shell command for every piece")
        prefix = o.operands[1] if len(o.operands) > 1 else "x"
        if o.operands and o.operands[0] != "-":
            c.read(o.operands[0])
    c.write(prefix + "aa" if not prefix.endswith("/") else prefix, "writes split files to")


def sevenzip(c: Cmd) -> None:
    """7z/7za/7zz: `x`/`e` extract (-oDIR), `a`/`u`/`d` change an archive, `l`/`t` only read."""
    verb = c.args[0] if c.args else ""
    rest = c.args[1:]
    outputs = [a[2:] for a in rest if a.startswith("-o")]
    operands = [a for a in rest if not a.startswith("-")]
    if verb in ("l", "t", "i", "h", "b", ""):
        for word in operands[:1]:
            c.read(word)
        return
    if verb in ("x", "e"):
        c.at_least(M, "extracts an archive")
        where = c.write(outputs[-1] if outputs else ".", "extracts into")
        if where.cls in (places.ROOT, places.SYSTEM, places.ANCESTOR, places.HOME):
            c.at_least(D if where.cls != places.HOME else H, f"extracts over {where.cls}")
        for word in operands[:1]:
            c.read(word)
        return
    c.at_least(M, f"{c.name} {verb} changes an archive")
    if operands:
        c.write(operands[0])
        for word in operands[1:]:
            where = c.read(word, "archives")
            if where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SECRET, places.PROJECT_SECRET):
                c.facts.secret_source = c.facts.secret_source or f"archives {where.cls}"
                c.facts.secret_copy = True


def reader(c: Cmd) -> None:
    values = READERS.get(c.name, "")
    o = c.opts(values, ("lines", "bytes", "format", "printf", "width", "ignore", "time-style", "block-size",
                        "output", "suffix", "delimiter", "max-depth", "exclude"))
    out = o.value("output") if c.name in ("iconv", "shuf") else None
    if c.name in ("iconv", "shuf") and o.value("o"):
        out = o.value("o")
    if out:
        c.write(out)
    if c.name in ("basename", "dirname", "tr", "test", "[", "numfmt"):
        return      # their operands are names and data, not files opened
    for word in o.operands:
        c.read(word)


def searcher(c: Cmd) -> None:
    o = c.opts(SEARCHERS.get(c.name, ""), SEARCH_LONG_VALUES)
    pre = o.value("pre")
    if pre is not None and pre != "":
        c.at_least(H, f"{c.name} --pre runs {pre.replace(UNKNOWN, '…')} on every file")
    operands = list(o.operands)
    if not o.all("e", "regexp", "f", "file") and operands:
        operands.pop(0)     # the pattern: data
    for pattern_file in o.all("f", "file"):
        c.read(pattern_file)
    for word in operands:
        c.read(word, "searches")


def jq(c: Cmd) -> None:
    o = c.opts("fL", ("from-file", "arg", "argjson", "slurpfile", "rawfile", "indent", "tab", "args",
                      "jsonargs"))
    operands = list(o.operands)
    if c.name == "yq" and (o.has("i", "inplace")):
        for word in operands[1:]:
            c.write(word, "edits")
        return
    if not o.all("f", "from-file") and operands:
        operands.pop(0)
    for word in operands:
        c.read(word)


def patch(c: Cmd) -> None:
    o = c.opts("iodpDBVrFYzg", ("input", "output", "directory", "strip", "reject-file", "prefix", "suffix"))
    c.at_least(M, "patches files")
    out = o.value("o", "output")
    if out:
        c.write(out)
    for word in o.operands[:1]:
        c.write(word, "patches")
    directory = o.value("d", "directory")
    if directory:
        c.write(directory, "patches files in")


RULES = {
    "rm": rm, "unlink": rm, "rmdir": rmdir, "cp": cp, "mv": mv, "ln": ln, "install": install, "dd": dd,
    "shred": shred, "truncate": truncate, "chmod": chmod, "chown": chown, "chgrp": chown, "chattr": chattr,
    "setfacl": chattr, "tee": tee, "touch": touch, "mkdir": mkdir, "sort": sort, "uniq": uniq, "sed": sed,
    "gsed": sed, "awk": awk, "gawk": awk, "mawk": awk, "nawk": awk, "busybox-awk": awk, "find": find,
    "gfind": find, "tar": tar, "gtar": tar, "bsdtar": tar, "zip": zip_, "unzip": unzip, "xxd": xxd,
    "base64": base64, "base32": base64, "basenc": base64, "gzip": decompress, "gunzip": decompress,
    "zcat": decompress, "bzip2": decompress, "bunzip2": decompress, "bzcat": decompress, "xz": decompress,
    "unxz": decompress, "xzcat": decompress, "zstd": decompress, "unzstd": decompress, "zstdcat": decompress,
    "jq": jq, "yq": jq, "gojq": jq, "patch": patch,
}
RULES.update({name: reader for name in READERS})
RULES.update({"sponge": sponge, "split": splitter, "csplit": splitter, "gsplit": splitter, "7z": sevenzip,
              "7za": sevenzip, "7zz": sevenzip, "7zr": sevenzip})
RULES.update({name: searcher for name in SEARCHERS})
