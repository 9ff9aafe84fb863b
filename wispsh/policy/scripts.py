"""Script files a command runs, read so that their text can be judged like code given on the line.

`bash deploy.sh`, `source env.sh`, `ed -s f < edit.ed`: the gate did not see that code, but when the file sits
in the project it can read it. The read is bounded and never blocks: a FIFO, a device or a file too big to
judge is not read, and a link that leads out of the project is judged where it leads.

How much the text counts: a project script is project code (moderate, like `make` or `pytest`), and real
scripts are full of what a line alone would make high (`"$@"`, `eval "$(pyenv init -)"`, PATH changes). So only
what is dangerous in plain text - `rm -rf ~`, `curl … | sh`, a write to ~/.bashrc, the gate's own files - raises
the part that runs it: that is what an agent would hide in a file it wrote earlier and then ran.
"""
from __future__ import annotations

import os
import stat

from wispsh.model import Finding, Level
from wispsh.policy import places
from wispsh.vocab.places import INPUT_WORDS
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

MAX_SCRIPT_BYTES = 64 * 1024

OK = "ok"
MISSING = "missing"         # no such file (yet: a line may write it before it runs it)
UNREADABLE = "unreadable"   # there, but not a small regular text file the gate may read
PROJECT = (places.PROJECT, places.PROJECT_ROOT)


def read_script(path: str) -> tuple[str, str | None]:
    """(status, text): (OK, text) for a small regular UTF-8 file, else (MISSING | UNREADABLE, None)."""
    try:
        # O_NONBLOCK: a FIFO planted as the script must not hang the gate
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return MISSING, None
    except OSError:
        return UNREADABLE, None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            return MISSING, None        # a directory runs nothing (the shell refuses it)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SCRIPT_BYTES:
            return UNREADABLE, None
        data = os.read(fd, MAX_SCRIPT_BYTES + 1)
    except OSError:
        return UNREADABLE, None
    finally:
        os.close(fd)
    if len(data) > MAX_SCRIPT_BYTES or b"\x00" in data:
        return UNREADABLE, None
    try:
        return OK, data.decode("utf-8")
    except UnicodeDecodeError:
        return UNREADABLE, None


def project_script(cmd, word: str) -> tuple[str, str | None, str]:
    """The text of the project file `word` names: (status, text, path). A word known only at run time, a
    file outside the project, or a link that leads out of it: (UNREADABLE, None, path)."""
    where = cmd.place(word)
    if UNKNOWN in word or where.cls not in PROJECT:
        return UNREADABLE, None, where.path
    if where.glob:
        return MISSING, None, where.path        # some file of the project: which one is known at run time
    real = os.path.realpath(where.path)
    if real != where.path and cmd.place(real).cls not in PROJECT:
        return UNREADABLE, None, real
    status, text = read_script(real)
    return status, text, real


def judge_script(cmd, word: str, what: str) -> str:
    """A shell script of the project that `cmd` runs or sources: its text judged as code (what is dangerous in
    it raises the part); one that exists but cannot be read is code the gate could not read. Returns the
    status, so that the caller knows whether the text was judged."""
    where = cmd.place(word)
    if not word or UNKNOWN in word or where.cls not in PROJECT:
        return UNREADABLE
    status, text, path = project_script(cmd, word)
    if status == MISSING:
        return status
    if status == UNREADABLE:
        if path != where.path:
            cmd.does("run-code", "script.link-out", f"{what} {word}, a link to {path} outside the project")
        else:
            cmd.does("run-code", "script.unreadable", f"{what} {word}, which the gate could not read "
                                                     f"(not a small text file)")
        return status
    judge_text(cmd, text, f"{what} {word}")
    return status


def judge_text(cmd, text: str, what: str) -> None:
    """Script text: its dangerous findings raise the part, named as the script's."""
    verdict = cmd.ctx.judge_code(text, cmd.ctx, cmd.cwd)
    if verdict.level >= Level.DANGEROUS:
        finding = verdict.findings[0]
        cmd.found.append(Finding(verdict.level, finding.rule, f"{what}: {finding.reason} (in the script)",
                                 finding.kind))


# Build files whose recipes are shell lines a build runs (make's, just's): what the line writes into one is the
# next build's code, and what one holds is the code `make` runs.
BUILD_FILES = frozenset({"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", ".justfile"})
_RECIPE_PREFIX = "@-+"
_MAKE_SHELL = lazy_re(r"\$[({]shell\s+((?:[^()]|\([^()]*\))*)[)}]")
# make's own expansions in a recipe (`$(BUILD)`, `${CC}`, `$(wildcard *.c)`, `$@`, `$<`): text make puts there
# before the shell reads the line; read as one plain word (not as `$(…)` code, nor as a place known only at run
# time: `rm -rf $(BUILD)` is every makefile's clean), so that only what is dangerous as written raises
_MAKE_REF = lazy_re(r"\$(?:\([^()]*\)|\{[^{}]*\}|[@<^?*+|%])")


def is_build_file(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name in BUILD_FILES or name.endswith(".mk")


def _recipe_line(line: str) -> str:
    """A recipe line as the shell gets it: its `@`/`-`/`+` prefixes off, make's expansions as a plain word
    (innermost first: `$(dir $(X))`), `$$` as `$`."""
    text = line.strip().lstrip(_RECIPE_PREFIX).replace("$$", "\0")
    for _ in range(4):
        text, count = _MAKE_REF.subn("MAKE_EXPANSION", text)
        if not count:
            break
    return text.replace("\0", "$")


def build_recipes(text: str) -> str:
    """The shell lines of a makefile's (or justfile's) recipes: the indented lines after a `target:` line and
    the text after `target: ;` (_recipe_line), and the commands of `$(shell …)`; continued lines joined."""
    out, in_rule = [], False
    for raw in text.replace("\\\n", " ").split("\n"):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t":
            if in_rule:
                out.append(_recipe_line(line))
            continue
        in_rule = ":" in line and not line.split(":", 1)[0].rstrip().endswith(("?", "+", "!")) and \
            not line.split(":", 1)[1].startswith("=")
        if in_rule and ";" in line.split(":", 1)[1]:
            out.append(_recipe_line(line.split(":", 1)[1].split(";", 1)[1]))
    # `X := $(shell CMD)` anywhere: make runs CMD while it reads the makefile
    out += (m.group(1).replace("$$", "$") for m in _MAKE_SHELL.finditer(text))
    return "\n".join(out)


def judge_recipes(cmd, text: str, what: str) -> None:
    """A makefile's recipes judged as the build's code (what is dangerous in them raises the part)."""
    recipes = build_recipes(text)
    if recipes.strip():
        judge_text(cmd, recipes, what)


def script_file(cmd, word: str, what: str, judge, rule: str) -> None:
    """A script a tool is told to run by an option (`sed -f F`, `awk -f F`): its text is judged by `judge(text)`
    (the tool's own reading of it: sed's `e`/`w`/`r`, awk's system()) when the gate can read it - a file of the
    project, a heredoc or here-string fed to `-f -`; else it is code the gate cannot read, judged as running F:
    a project file not there (yet) is project code (moderate; a line that writes it first is the line rules'),
    its input, a pipe (`/dev/fd/N`, `<(…)`), a file known only at run time or one outside the project high.
    Every file is recorded as run (facts.runs)."""
    part = cmd.part
    cmd.fired.add(rule)
    if word in INPUT_WORDS:
        if part is not None and part.stdin_code is not None and part.stdin_quoted:
            judge(part.stdin_code)          # a quoted heredoc or here-string: its text, as written
        else:
            cmd.facts.stdin_interp = True
            cmd.does("run-code", "path.run.stdin", f"{what} a script from its input")
        return
    where = cmd.place(word)
    if UNKNOWN in word or where.cls not in PROJECT:
        if UNKNOWN in word:
            cmd.facts.runtime_code = True   # `-f <(curl …)`, `-f "$S"`: the script is text known only at run time
        cmd.run_file(word, what)            # a pipe, a run-time name, a file outside the project
        return
    status, text, path = project_script(cmd, word)
    cmd.facts.runs.append(where.path)
    if status == OK:
        judge(text)
    elif status == MISSING:
        cmd.does("run-project", "path.run.project", f"{what} {word}, a project file the gate could not read "
                                                    f"(not there yet)")
    elif path != where.path:
        cmd.does("run-code", "script.link-out", f"{what} {word}, a link to {path} outside the project")
    else:
        cmd.does("run-code", "script.unreadable", f"{what} {word}, which the gate could not read (not a small "
                                                  f"text file)")
