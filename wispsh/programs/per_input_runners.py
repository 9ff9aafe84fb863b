"""Runners of a command for each thing they find, read, pick or see change: fd -x/-X, GNU parallel, fzf's
bindings, entr, conky's text and ranger's commands. The command is judged with the worst input it could get.
"""
from __future__ import annotations

import shlex

from wispsh.vocab import places
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs
from wispsh.support.lazyre import lazy_re, re
from wispsh.programs.runners import delegate_words


# ---------------------------------------------------------------- fd

FD_GRAMMAR = Grammar(values="etEdSocj", long_values=(
    "extension", "type", "exclude", "max-depth", "min-depth", "exact-depth", "size", "changed-within",
    "changed-before", "owner", "base-directory", "search-path", "color", "threads", "max-results", "max-buffer-time",
    "path-separator", "ignore-file", "format", "batch-size", "and", "newer", "older", "hyperlink"))
FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})
FD_PLACEHOLDERS = ("{}", "{/}", "{//}", "{.}", "{/.}")
SENSITIVITY = (places.PROJECT, places.PROJECT_ROOT, places.TEMP, places.OUTSIDE, places.HOME_OTHER, places.SYSTEM,
               places.DOTFILE, places.PROJECT_SECRET, places.SECRET, places.ANCESTOR, places.HOME, places.ROOT)


def _sensitivity(cls: str) -> int:
    return SENSITIVITY.index(cls) if cls in SENSITIVITY else len(SENSITIVITY)


def _fill(word: str, found: str, root: str) -> str:
    return word.replace("{//}", root).replace("{/.}", found).replace("{/}", found).replace(
        "{.}", found).replace("{}", found)


@emits({"fd.searches": ["fd -e py", "fd foo src", "fd . ~"], "fd.ignore-file": ["fd --ignore-file ~/.ssh/x foo"],
        "fd.exec": ["fd -e txt -x rm {}", "fd . ~ -X rm -rf"], "fd.exec-runtime": ['fd -x "$X"', "fd -x"]})
def fd_search(cmd, o: Options) -> None:
    """fd [pattern] [path…] [-x/-X command…]: reads directory trees; -x runs a command on every match, with {}
    standing for what fd finds under the most sensitive root it searches."""
    args = list(o.args)
    command = None
    for marker in FD_EXEC:
        if marker in args:
            at = args.index(marker)
            end = next((k for k in range(at + 1, len(args)) if args[k] in (";", "\\;")), len(args))
            command, args = args[at + 1:end], args[:at] + args[end + 1:]
            break
    o = FD_GRAMMAR.read(args)
    roots = o.operands[1:] + o.all("search-path", "base-directory") or ["."]
    extensions = o.all("e", "extension")
    suffix = "." + extensions[0].lstrip(".") if len(extensions) == 1 else ""
    for root in roots:
        cmd.fired.add("fd.searches")
        cmd.read(root, "searches")
        cmd.facts.names.append(root.rstrip("/") + "/*" + suffix if root != "/" else "/*" + suffix)
    for ignore in o.all("ignore-file"):
        cmd.fired.add("fd.ignore-file")
        cmd.read(ignore)
    if command is None:
        return
    if not command:
        cmd.runs_runtime_code("fd.exec-runtime", "fd runs a command known only at run time")
        return
    worst = max(roots, key=lambda r: _sensitivity(cmd.place(r).cls))
    found = worst.rstrip("/") + "/*" + suffix if worst != "/" else "/*" + suffix
    words = [_fill(word, found, worst) for word in command]
    if not any(p in word for word in command for p in FD_PLACEHOLDERS):
        words.append(found)
    delegate_words(cmd, words, "fd.exec", "fd")


FD = Program("fd", aliases=("fdfind",), doc="finds files; -x/-X runs a command on what it finds", hook=fd_search,
             examples={"fd -e py": "safe", "fd . ~ -X rm -rf": "dangerous", "fd -e py -x wc -l": "safe"})

# ---------------------------------------------------------------- GNU parallel

PARALLEL_VALUES = frozenset({"-j", "--jobs", "-P", "--max-procs", "-S", "--sshlogin", "--sshloginfile", "--slf",
                             "-a", "--arg-file", "-d", "--delimiter", "-I", "--colsep", "-C", "-n", "--max-args",
                             "-N", "-L", "--max-lines", "--joblog", "--results", "--res", "--tmpdir",
                             "--workdir", "--wd", "--env", "--halt", "--delay", "--timeout", "--retries", "-E",
                             "--tag-string", "--memfree", "--load", "--nice", "--block", "--basefile", "--bf",
                             "--return", "--transfer-file", "--tf", "--termseq", "--rpl", "--sqlmaster",
                             "--sqlworker", "--sqlandworker", "--shebang-wrap", "--ssh", "--controlmaster"})
PARALLEL_REMOTE = frozenset({"-S", "--sshlogin", "--sshloginfile", "--slf"})
PARALLEL_WRITES = frozenset({"--joblog", "--results", "--res", "--sqlmaster", "--sqlandworker"})
PARALLEL_READS = frozenset({"-a", "--arg-file", "--sshloginfile", "--slf"})
PARALLEL_CODE = frozenset({"--ssh", "--rpl"})       # a program it runs to reach hosts; perl replacement code
PARALLEL_SEPARATORS = frozenset({":::", "::::", ":::+", "::::+"})
PARALLEL_PLACEHOLDERS = ("{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}")
MAX_PARALLEL_VALUES = 8
RUN_TIME_INPUT = '"$PARALLEL_INPUT"'        # a name the gate cannot know: judged as the worst it could be


def _parallel_value(cmd, value: str) -> str:
    if UNKNOWN in value:
        return RUN_TIME_INPUT
    if value.startswith("~"):
        value = cmd.expand_tilde(value)     # the shell expanded it before parallel saw it
    return shlex.quote(value)


@emits({"parallel.remote": ["parallel -S host echo ::: a"],
        "parallel.writes": ["parallel --joblog ~/.bashrc echo ::: a"],
        "parallel.reads": ["parallel -a list.txt echo"], "parallel.code-option": ["parallel --ssh ./x -S h echo ::: a"],
        "parallel.perl": ["parallel echo '{= $_=qx(id) =}' ::: a"],
        "parallel.runtime": ['parallel "$X" ::: a'], "parallel.lines": ["parallel ::: 'ls' 'pwd'"],
        "parallel.input-lines": ["echo ls | parallel", "parallel :::: cmds.txt"],
        "parallel.runs": ["parallel -j4 gzip ::: a b", "parallel rm {} ::: a b"]})
def parallel_command(cmd, o: Options) -> None:
    """GNU parallel: the command words are joined and run by a shell, once for each input; with no command, each
    input is a command line. {= … =} in the command is perl code."""
    args = list(o.args)
    i, n = 0, len(args)
    remote = False
    while i < n and args[i].startswith("-") and args[i] not in PARALLEL_SEPARATORS:
        head, eq, attached = args[i].partition("=")
        takes = head in PARALLEL_VALUES and not eq and len(args[i]) <= len(head)
        value = attached if eq else (args[i + 1] if takes and i + 1 < n else "")
        if head in PARALLEL_REMOTE:
            remote = True
        if head in PARALLEL_WRITES and value:
            cmd.fired.add("parallel.writes")
            cmd.write(value, f"parallel {head} writes")
        elif head in PARALLEL_READS and value:
            cmd.fired.add("parallel.reads")
            cmd.read(value)
        elif head in PARALLEL_CODE:
            cmd.does("run-code", "parallel.code-option", f"parallel {head} runs code it is given")
        i += 2 if takes else 1
    command = []
    while i < n and args[i] not in PARALLEL_SEPARATORS:
        command.append(args[i])
        i += 1
    values, from_files = [], False
    while i < n:
        separator = args[i]
        i += 1
        while i < n and args[i] not in PARALLEL_SEPARATORS:
            if separator.startswith("::::"):
                from_files = True
                cmd.read(args[i])
            elif len(values) < MAX_PARALLEL_VALUES:
                values.append(args[i])
            i += 1
    if remote:
        cmd.facts.net_send = True
        cmd.does("remote", "parallel.remote", "parallel runs commands on other machines (--sshlogin)")
    if any(UNKNOWN in word for word in command):
        cmd.runs_runtime_code("parallel.runtime", "parallel runs a command known only at run time")
        return
    text = " ".join(command)
    if "{=" in text:
        cmd.does("run-code", "parallel.perl", "parallel runs the perl code in {= … =}")
    if not command:
        if values and not from_files:
            cmd.fired.add("parallel.lines")
            for value in values:
                cmd.code_text(value, "parallel runs", at_least="run-project")
        else:
            cmd.runs_runtime_code("parallel.input-lines", "parallel runs command lines from its input")
        return
    cmd.does("run-project", "parallel.runs", f"parallel runs {command[0]}")
    inputs = [_parallel_value(cmd, v) for v in values] if values and not from_files else [RUN_TIME_INPUT]
    for value in inputs:
        if any(p in text for p in PARALLEL_PLACEHOLDERS):
            line = text
            for placeholder in PARALLEL_PLACEHOLDERS:
                line = line.replace(placeholder, value)
        else:
            line = f"{text} {value}"
        cmd.code_text(line, "parallel runs", at_least="run-project")


PARALLEL = Program("parallel", doc="runs a command line for each input, through a shell", hook=parallel_command,
                   examples={"parallel rm -rf ::: ~ /tmp/x": "dangerous", "parallel -j4 gzip ::: a b": "moderate"})

# ---------------------------------------------------------------- pickers and watchers that run command strings

# fzf actions whose argument is a shell command (`--bind 'enter:execute(CMD)'`); `{}`, `{q}`, `{+}` … stand for
# the items (quoted by fzf), so they are words known only at run time, not code.
FZF_COMMAND_ACTIONS = lazy_re(r"(?:execute|execute-silent|become|reload|reload-sync|preview|change-preview|"
                              r"transform|transform-[a-z-]+|bg-transform(?:-[a-z-]+)?)"
                              r"(?:\((.*?)\)|\[(.*?)\]|\{(.*?)\}|<(.*?)>|:(.*))(?=\+|,|$)", re.S)
FZF_PLACEHOLDER = lazy_re(r"\{[+sfnrq0-9.,\-]*\}")


@emits({"fzf.runs": ["fzf --preview 'cat {}'", "fzf --bind 'enter:execute(vim {})'", "fzf --bind 'start:reload(ls)'"],
        "fzf.runtime": ['fzf --preview "$P"']})
def fzf_commands(cmd, o: Options) -> None:
    """fzf runs its --preview command, and the commands of --bind actions (execute, become, reload, transform,
    …), in a shell ($SHELL -c), for the focused items - `start:` and `load:` bindings and the preview without
    a keypress. Each is code of its own, judged as such (the items it is given are words known only at run
    time)."""
    texts = list(o.all("preview"))
    for binding in o.all("bind"):
        for m in FZF_COMMAND_ACTIONS.finditer(binding):
            texts.append(next(g for g in m.groups() if g is not None))
    for text in texts:
        if UNKNOWN in text:
            cmd.runs_runtime_code("fzf.runtime", "fzf runs a command known only at run time")
            continue
        if not text.strip():
            continue
        cmd.does("session", "fzf.runs", f"fzf runs '{text[:40]}' in a shell")
        cmd.code_text(FZF_PLACEHOLDER.sub('"$FZF_ITEM"', text), "fzf runs")


FZF = Program(
    "fzf", doc="an interactive picker; its preview and bound commands run in a shell",
    grammar=Grammar(values="qdm", long_values=("preview", "bind", "query", "filter", "delimiter", "nth", "with-nth",
                                               "preview-window", "height", "layout", "prompt", "header", "expect",
                                               "color", "tiebreak", "with-shell", "listen", "walker-root")),
    rows=(Row("fzf.shell", "run-code", "fzf --with-shell runs its commands with the shell command it is given",
              When(value=("with-shell",)), examples=("fzf --with-shell 'python3 -c' --preview x",)),
          Row("fzf.listen", "expose", "fzf --listen takes actions (commands among them) from an HTTP port",
              When(flag=("listen", "listen-unsafe")), examples=("fzf --listen 6266",))),
    hook=fzf_commands,
    examples={"fzf": "safe", "fzf --preview 'bat --color=always {}'": "moderate",
              "fzf --bind 'start:execute(rm -rf ~)'": "dangerous"},
)


@emits({"entr.shell": ["ls *.py | entr -s 'make test'"], "entr.runs": ["ls *.c | entr make"]})
def entr_command(cmd, o: Options) -> None:
    """entr UTILITY ARGS… runs the utility each time a file it watches changes (`-s`: the one argument is a
    shell command); `/_` stands for the file that changed."""
    words = [w.replace("/_", '"$ENTR_FILE"') if w == "/_" else w for w in o.operands]
    if o.has("s") and words:
        if UNKNOWN in words[0]:
            cmd.runs_runtime_code("entr.shell", "entr runs a shell command known only at run time")
            return
        cmd.fired.add("entr.shell")
        cmd.code_text(words[0], "entr runs")
        return
    delegate_words(cmd, words, "entr.runs", "entr")


ENTR = Program("entr", doc="runs a command when files change", grammar=Grammar(stop=True), hook=entr_command,
               examples={"ls *.py | entr -s 'rm -rf ~'": "dangerous"})

CONKY_EXEC = lazy_re(r"\$\{(?:exec|execi|execp|execpi|execbar|execgauge|execgraph|texeci|pre_exec|execibar|"
                     r"execigauge|execigraph)\s+(?:[0-9.]+\s+)?([^}]*)\}")


@emits({"conky.exec": ["conky -t '${exec id}'"], "conky.config": ["conky -c /tmp/conkyrc"],
        "conky.lua": ["conky -t '${lua_parse x}'"]})
def conky_text(cmd, o: Options) -> None:
    """conky -t TEXT shows TEXT, whose ${exec CMD} (execi, execp, …) run CMD in a shell again and again; -c
    FILE is a config file (its text can run commands and Lua)."""
    for text in o.all("t", "text"):
        for command in CONKY_EXEC.findall(text):
            if UNKNOWN in command:
                cmd.does("run-code", "conky.exec", "conky runs a command known only at run time")
            else:
                cmd.does("session", "conky.exec", f"conky runs '{command[:40]}' in a shell, again and again")
                cmd.code_text(command, "conky ${exec} runs")
        if "${lua" in text:
            cmd.does("run-code", "conky.lua", "conky runs Lua code it is given")
    for config in o.all("c", "config"):
        cmd.fired.add("conky.config")
        cmd.run_file(config, "conky runs the config")


CONKY = Program("conky", doc="a system monitor whose text and config can run commands",
                grammar=Grammar(values="ctuxyapXi", long_values=("config", "text", "interval", "alignment", "pause",
                                                                 "display", "window-id", "lua")),
                hook=conky_text)


@emits({"ranger.shell": ["ranger --cmd='shell rm -rf ~'"], "ranger.command": ["ranger --cmd='set show_hidden true'"]})
def ranger_commands(cmd, o: Options) -> None:
    """ranger --cmd=CMD runs a ranger command at start: `shell CMD` (and `!CMD`) runs a shell command."""
    cmd.does("session", "ranger.command", "ranger starts a file manager session")
    for text in o.all("cmd"):
        body = text.strip()
        shell = body[1:] if body.startswith("!") else body.split(None, 1)[1] if body.startswith("shell ") else None
        if shell is None:
            continue
        while shell.startswith("-") and " " in shell:
            shell = shell.split(None, 1)[1]         # `shell -f CMD`, `shell -p CMD`
        if UNKNOWN in shell:
            cmd.does("run-code", "ranger.shell", "ranger runs a shell command known only at run time")
        else:
            cmd.does("session", "ranger.shell", f"ranger runs '{shell[:40]}' in a shell")
            cmd.code_text(shell, "ranger shell runs")


RANGER = Program("ranger", doc="a terminal file manager; --cmd runs its commands at start",
                 grammar=Grammar(long_values=("cmd", "choosefile", "choosefiles", "choosedir", "selectfile", "datadir",
                                              "confdir", "copy-config", "logfile")),
                 on=(On("write", ("option", "choosefile", "choosefiles", "choosedir", "logfile"), id="ranger.writes",
                        examples=("ranger --choosefile=~/.bashrc",)),),
                 hook=ranger_commands)


PROGRAMS = programs(FD, PARALLEL, FZF, ENTR, CONKY, RANGER)
