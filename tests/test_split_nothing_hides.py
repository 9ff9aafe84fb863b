"""Issue 11 by class: code in every operand, redirects after heredoc markers, `case` through the scanner, words
bash builds differently, and no native crash. Lines where bash runs a command are also run under the recording
oracle (tests/oracle.py), so each table says what bash really does."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import Stubs, programs_of
from tiers import scaled
from wispsh.config import Config
from wispsh.model import Level
from wispsh.parse import scan
from wispsh.parse.split import split_line

DATA = Path(__file__).with_name("data")


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    return Stubs(tmp_path_factory.mktemp("stubs"), extra=("zz", "rm", "ls"))


def judge(line: str, tmp_path):
    from wispsh import pipeline

    home = tmp_path / "home"
    project = home / "project"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    return pipeline.judge(line, Config(path=home / ".wisp" / "config.json"), str(project), {"HOME": str(home)})


def level_of(line: str, tmp_path) -> Level:
    plan = judge(line, tmp_path)
    return max([j.verdict.level for j in plan.judged] + [plan.line_verdict.level])


# ---------------------------------------------------------------- code in every operand bash expands

# (operand form with CODE in it, whether bash runs CODE with x=abc set and y unset)
OPERANDS = [
    ("${x#CODE}", True), ("${x##CODE}", True), ("${x%CODE}", True), ("${x%%CODE}", True),
    ("${x/CODE/r}", True), ("${x//a/CODE}", True), ("${x/#CODE/r}", True), ("${x/%a/CODE}", True),
    ("${x^CODE}", True), ("${x^^CODE}", True), ("${x,CODE}", True), ("${x,,CODE}", True),
    ("${y:-CODE}", True), ("${y-CODE}", True), ("${y:=CODE}", True), ("${x:+CODE}", True), ("${x+CODE}", True),
    ("${x:CODE:1}", True), ("${x:0:CODE}", True), ("${a[CODE]}", True), ("${#a[CODE]}", True),
    ("${!a[CODE]}", True), ("${y:-${x#CODE}}", True), ("${x#${y:-CODE}}", True),
    ('"${x#CODE}"', True), ('"${y:-CODE}"', True), ('"${x/a/CODE}"', True),
    ("$((1+CODE))", True), ("$((a[CODE]))", True), ("$[a[CODE]]", True),
]
CARRIERS = ["$(zz)", "`zz`", "$(( $(zz) ))", "${y:-$(zz)}"]
CONTEXTS = ["echo W", "v=W", "for i in W; do :; done", "[[ W == q ]]", "if [ W ]; then :; fi", "( echo W )",
            "{ echo W; }", "case W in q) ;; esac", "cat <<< W", "declare v=W", "bash -c 'echo W'", "eval 'echo W'",
            "sh -c 'sh -c \"echo W\"'"]


def operand_lines() -> list[str]:
    lines = []
    for k, (form, _) in enumerate(OPERANDS):
        for j, carrier in enumerate(CARRIERS):
            context = CONTEXTS[(k + j) % len(CONTEXTS)]
            word = form.replace("CODE", carrier)
            if "'" in context and "'" in word:
                continue
            lines.append(context.replace("W", word))
    for form, _ in OPERANDS:     # each operand in every context once
        for context in CONTEXTS:
            lines.append(context.replace("W", form.replace("CODE", "$(zz)")))
    return lines


@pytest.mark.parametrize("line", operand_lines())
def test_code_in_an_operand_is_a_part(line):
    split = split_line(line)
    assert "zz" in programs_of(split), (line, [(p.text, p.origin) for p in split.parts], split.notes)


def test_bash_runs_the_code_of_those_operands(stubs):
    lines = operand_lines()
    ran = stubs.run(lines)
    runs = sum(1 for logged in ran if "zz" in logged)
    assert runs > len(lines) * 0.8, runs     # the table is about code bash runs: most of it does
    for line, logged in zip(lines, ran):
        assert set(logged) <= programs_of(split_line(line)), line


# Quoted data bash never expands: no part, and no note of missed code.
DATA_ONLY = [
    "echo '${x#$(zz)}'", "echo \"\\$(zz)\"", "echo ${x#'$(zz)'}", "echo \"${x#'$(zz)'}\"", "echo ${y:-'$(zz)'}",
    "echo ${x/a/'$(zz)'}", "cat <<'EOF'\n${x#$(zz)}\nEOF", "# ${x#$(zz)}", "echo $'$(zz)'",
]


@pytest.mark.parametrize("line", DATA_ONLY)
def test_quoted_data_is_not_code(line, stubs):
    assert stubs.run([line]) == [{}]
    split = split_line(line)
    assert "zz" not in programs_of(split), line
    assert not any("did not show as code" in n for n in split.notes), split.notes


def test_a_missed_place_is_a_note_and_the_parts_have_real_spans():
    line = "ls && echo ${x#$(zz -f)} done"
    split = split_line(line)
    hidden = [p for p in split.parts if p.argv[:1] == ("zz",)]
    assert hidden and line[hidden[0].span[0]:hidden[0].span[1]] == "zz -f"
    assert hidden[0].parent is not None and split.parts[hidden[0].parent].argv[0] == "echo"
    assert any("did not show as code" in n for n in split.notes)


def test_the_lexer_finds_every_place_of_code():
    sites = scan.code_sites("a ${x#$(b)} `c` <(d) >(e) \"$(f)\" '$(no)' $(( '$(g)' )) ${x:'$(h)'} a['$(i)']=1\n"
                            "cat <<E\n$(j)\nE\ncat <<'E'\n$(no)\nE\n")
    bodies = [s.origin + ":" + s.open_at.__str__() for s in sites]
    found = sorted({s.origin for s in sites})
    assert found == ["$()", "<()", ">()", "``"], bodies
    text = "a ${x#$(b)} `c` <(d) >(e) \"$(f)\" '$(no)' $(( '$(g)' )) ${x:'$(h)'} a['$(i)']=1\ncat <<E\n$(j)\nE\n"
    inner = [text[s.inner_start:s.inner_end] for s in scan.code_sites(text)]
    assert inner == ["b", "c", "d", "e", "f", "g", "h", "i", "j"], inner


# ---------------------------------------------------------------- redirects after heredoc markers

HEREDOC_ORDERS = [
    # (line, the redirects the part must carry)
    ("cat <<'EOF' >> ~/.bashrc\nx\nEOF", [("<<", "EOF"), (">>", "~/.bashrc")]),
    ("cat >> ~/.bashrc <<'EOF'\nx\nEOF", [(">>", "~/.bashrc"), ("<<", "EOF")]),
    ("cat <<EOF >~/.bashrc\nx\nEOF", [("<<", "EOF"), (">", "~/.bashrc")]),
    ("cat <<-EOF 2>/dev/null >> ~/.bashrc\n\tx\n\tEOF", [("<<-", "EOF"), (">", "/dev/null"), (">>", "~/.bashrc")]),
    ("cat <<A <<B > ~/.bashrc\na\nA\nb\nB", [("<<", "A"), ("<<", "B"), (">", "~/.bashrc")]),
    ("cat <<A > ~/.bashrc <<B\na\nA\nb\nB", [("<<", "A"), (">", "~/.bashrc"), ("<<", "B")]),
    ("tee -a <<'EOF' ~/.bashrc\nx\nEOF", [("<<", "EOF")]),      # ~/.bashrc is tee's argument
    ("cat <<'EOF' >>~/.bashrc | wc -l\nx\nEOF", [("<<", "EOF"), (">>", "~/.bashrc")]),
    ("cat <<'EOF' &> ~/.bashrc && ls\nx\nEOF", [("<<", "EOF"), ("&>", "~/.bashrc")]),
]


@pytest.mark.parametrize("line, expected", HEREDOC_ORDERS)
def test_every_redirect_of_a_command_whatever_its_order(line, expected):
    first = split_line(line).parts[0]
    got = [(r.op, r.target) for r in first.redirects]
    for item in expected:
        assert item in got, (line, got)


@pytest.mark.parametrize("line", [line for line, _ in HEREDOC_ORDERS] + [
    "x=$(cat <<EOF >> ~/.bashrc\nx\nEOF\n)", "echo \"$(cat <<'EOF' > ~/.bashrc\nx\nEOF\n)\"",
    "cat <<'EOF' | tee -a ~/.bashrc\nx\nEOF", "( cat <<'EOF' ) >> ~/.bashrc\nx\nEOF"])
def test_a_heredoc_into_a_shell_startup_file_is_dangerous(line, tmp_path):
    assert level_of(line, tmp_path) == Level.DANGEROUS, line


@pytest.mark.parametrize("line", ["cat <<'EOF' > notes.txt\nhello\nEOF", "cat > notes.txt <<'EOF'\nhello\nEOF",
                                  "cat <<EOF >> src/a.py\nprint(1)\nEOF", "cat <<A <<'B' > out/x.txt\na\nA\nb\nB"])
def test_a_heredoc_written_into_the_project_stays_at_most_moderate(line, tmp_path):
    assert level_of(line, tmp_path) <= Level.MODERATE, line


# ---------------------------------------------------------------- case, read by the fallback scanner

CASE_FORMS = [
    # (case text, the commands in it); each is also read with a flagging prefix, so the scanner reads it
    ('case "$n" in\n  ""|[0-9]*|*[!A-Za-z0-9_]*|PWD|OLDPWD) continue ;;\nesac', ["continue"]),
    ("case $x in a|b) rm x ;; c) ls ;; esac", ["rm", "ls"]),
    ("case $x in (a|b) rm x;; (*) ls;; esac", ["rm", "ls"]),
    ("case $x in\n a) rm x ;&\n b) ls ;;&\n *) pwd\nesac", ["rm", "ls", "pwd"]),
    ("case $x in a) case $y in b) rm x;; esac;; c) ls;; esac", ["rm", "ls"]),
    ("case $x in $(zz)|b) rm;; esac", ["zz", "rm"]),
    ("case $(zz) in a) ;; esac; ls", ["zz", "ls"]),
    ("x=$(case $y in a) echo 1;; *) echo 2;; esac); rm x", ["echo", "echo", "rm"]),
]
FLAGGING = "\\alias -p\n"       # tree-sitter reads `echo a⏎\alias` wrong; a line starting with \ after a word


@pytest.mark.parametrize("text, programs", CASE_FORMS)
@pytest.mark.parametrize("prefix", ["", "echo a\n" + FLAGGING, "coproc { :; }; "])
def test_case_patterns_are_never_parts(text, programs, prefix):
    split = split_line(prefix + text)
    got = [p.argv[0] for p in split.parts if p.argv and p.argv[0] not in ("echo", "alias", ":")
           or p.argv[:1] == ("echo",) and p.span[0] >= len(prefix)]
    assert sorted(got) == sorted(programs), (prefix + text, got, split.notes)


def test_the_scanner_reads_case_itself():
    segments = scan.scan(CASE_FORMS[0][0] + "\n" + CASE_FORMS[3][0])
    assert [s.words[0] for s in segments] == ["continue", "rm", "ls", "pwd"]


def test_codex_capture_script_has_no_case_pattern_part():
    script = (DATA / "codex-capture-0.171.0.sh").read_text()
    assert hashlib.sha256(script.encode()).hexdigest().startswith("6414b5f0a9e24341")   # agents-observed/codex.md
    split = split_line(script)
    programs = [p.argv[0] for p in split.parts if p.argv]
    for pattern in ('', '[0-9]*', '*[!A-Za-z0-9_]*', 'PWD', 'OLDPWD', '""'):
        assert pattern not in programs, programs
    assert "alias" in programs          # `\alias -p` is alias
    # tree-sitter's parse was rejected rightly: it reads `echo "…"⏎\alias -p` as one command (a word holding
    # the newline); the guard that says so stays, and the scanner reads the script
    assert any("a plain word holds a backtick or a newline" in n for n in split.notes)


def test_tree_sitter_misreads_a_line_that_starts_with_a_backslash():
    from wispsh.parse import tree

    source = tree.Source("echo a\n\\alias -p")
    root = tree.parse(source).root_node
    assert len(root.children) == 1      # one command: the misparse the guard catches (bash runs two)


# ---------------------------------------------------------------- words bash builds differently

WORDS = [
    # (line, the argv bash runs for its first command)
    ("$'rm\\x00ls' -rf x", ("rm", "-rf", "x")),
    ("$'r\\0m' x", ("r", "x")),
    ("$'rm\\x00ls'$'s' x", ("rms", "x")),
    ("{sh,} -c 'rm x'", ("sh", "-c", "rm x")),
    ("{r,}m x", ("rm", "m", "x")),
    ("{,r}m x", ("m", "rm", "x")),
    ("{r..r}m x", ("rm", "x")),
    ("r{m,} -f x", ("rm", "r", "-f", "x")),
    ("ls {a,b}{1..2}", ("ls", "a1", "a2", "b1", "b2")),
    ("rm -rf \"$HOME\"/{.ssh,.gnupg}", ("rm", "-rf", None, None)),
    ("echo '{a,b}' \"{a,b}\" \\{a,b}", ("echo", "{a,b}", "{a,b}", "{a,b}")),
    ("echo {01..03}", ("echo", "01", "02", "03")),
]


@pytest.mark.parametrize("line, argv", WORDS)
def test_words_bash_builds_differently(line, argv):
    assert split_line(line).parts[0].argv == argv


def test_those_words_run_what_bash_runs(stubs):
    lines = ["$'rm\\x00ls' x", "{r,}m x", "{r..r}m x", "{sh,} -c 'rm x'", "{l,}s"]
    for line, logged in zip(lines, stubs.run(lines)):
        assert logged and set(logged) <= programs_of(split_line(line)), (line, logged)


@pytest.mark.parametrize("line", ["rm -rf \"$HOME\"/{.ssh,.gnupg}", "$'rm\\x00ls' -rf ~/.ssh", "{r,}m -rf ~/.ssh",
                                  "{sh,} -c 'rm -rf ~/.ssh'"])
def test_those_words_are_judged_as_bash_runs_them(line, tmp_path):
    assert level_of(line, tmp_path) == Level.DANGEROUS, line


# ---------------------------------------------------------------- no native crash

CRASHERS = sorted(DATA.glob("crash*.bin"))
_SPLIT_ONCE = "import sys; from wispsh.parse.split import split_line; split_line(open(sys.argv[1]).read())"


@pytest.mark.parametrize("path", CRASHERS, ids=lambda p: p.name)
def test_the_crash_reproducers_never_crash(path):
    # the crash depended on the address layout: each run is a fresh process
    for run in range(scaled(12, 50)):
        done = subprocess.run([sys.executable, "-c", _SPLIT_ONCE, str(path)], capture_output=True, timeout=60)
        assert done.returncode == 0, (run, done.returncode, done.stderr[-500:])


def test_the_parser_never_reads_a_code_point_past_latin_1():
    from wispsh.parse import tree

    text = "echo {" + "\U0010fff0" + " x; echo {1..\u3000} é"
    source = tree.Source(text)
    assert max(source.data.decode("utf-8")) <= "\u00ff"
    assert len(source.data.decode("utf-8")) == len(text)
    assert source.between(0, len(source.data)) == text
    split = split_line(text)
    assert [p.text for p in split.parts] == ["echo {\U0010fff0 x", "echo {1..\u3000} é"]


# ---------------------------------------------------------------- red team: what bash runs, the gate must show

# Lines written to break the invariant (the bash manual's expansion chapter, GTFOBins-style carriers, builtins
# that evaluate or expand a quoted word again). `compgen -C CMD` and `compgen -W '$(CMD)'` were hidden.
REDTEAM = [
    "a[$(zz)]=1",
    "a=(1 2); echo ${a[$(zz)]}",
    "declare -a a; a['$(zz)']=1",
    "x='a[$(zz)]'; [[ $x -eq 1 ]]",
    "[[ 1 -eq a[$(zz)] ]]",
    "[[ 1 -eq 'a[$(zz)]' ]]",
    "declare -i n; n='a[$(zz)]'",
    "declare -i n='a[$(zz)]'",
    "printf -v 'a[$(zz)]' x",
    "test -v 'a[$(zz)]'",
    "[ -v 'a[$(zz)]' ]",
    "let 'a[$(zz)]=1'",
    "let a[\\$\\(zz\\)]=1",
    "(( a[$(zz)] ))",
    "(( 'a[$(zz)]' ))",
    "(( x = $(zz) ))",
    "for ((i=$(zz); i<1; i++)); do :; done",
    "f() { zz; }; f",
    "f() ( zz ); f",
    "trap 'zz' EXIT",
    "trap -- \"zz\" EXIT",
    "PS1='$(zz)'; echo ${PS1@P}",
    "PROMPT_COMMAND=zz",
    "y='$(zz)'; echo ${y@P}",
    "y='$(zz)'; echo \"${y@P}\"",
    "echo $\"$(zz)\"",
    "coproc zz",
    "coproc X { zz; }",
    "case $(zz) in *) ;; esac",
    "case x in $(zz)) ;; esac",
    "cat <<< $(zz)",
    "cat <<< \"$(zz)\"",
    "exec {fd}>$(zz)",
    "exec {fd}>\"$(zz)\"",
    "shopt -s expand_aliases; alias q=zz\nq",
    "x='a[$(zz)]'; echo ${!x}",
    "declare -n r='a[$(zz)]'; echo $r",
    "declare -n r='a[$(zz)]'; r=1",
    "y=1; x='y[$(zz)]'; unset \"$x\"",
    "mapfile -t a <<< 'a[$(zz)]'; echo $((a))",
    "wait 'a[$(zz)]'",
    "echo ${!a*} $(zz)",
    "eval \"zz\"",
    "eval $'zz'",
    "eval zz\\ x",
    "bash -c $'zz'",
    "sh -c \"zz\"' x'",
    "command eval 'zz'",
    "builtin eval 'zz'",
    "exec zz",
    "time zz",
    "! zz",
    "x=$(zz) true",
    "export x=$(zz)",
    "f() { local x=$(zz); }; f",
    "readonly x=`zz`",
    "typeset -a x=($(zz))",
    "x=([0]=$(zz))",
    "x=(['$(zz)']=1)",
    "declare -A m=(['$(zz)']=1)",
    "echo ${x:-`zz`}",
    "echo \"$(echo \"$(zz)\")\"",
    "cat <(zz)",
    "echo ${x//?/$(zz)}",
    "[[ $(zz) =~ x ]]",
    "[[ x =~ $(zz) ]]",
    "select x in $(zz); do break; done </dev/null",
    "cat <<EOF\n$(zz)\nEOF",
    "cat <<E\\OF\n$(zz)\nEOF",
    "cat <<EOF\n${x#$(zz)}\nEOF",
    "cat <<EOF\n`zz`\nEOF",
    "x=1; cat <<EOF\n$((x+$(zz)))\nEOF",
    "cat <<EOF\n${x:0:'$(zz)'}\nEOF",
    "z\\z",
    "\"z\"z",
    "z''z",
    "$'\\x7a\\x7a'",
    "$'\\172\\172'",
    "$'\\u007a'z",
    "echo a | xargs zz",
    "find /dev/null -exec zz \\;",
    "env -S 'zz'",
    "exec -a n zz",
    "script -qc zz /dev/null",
    "echo ${x@P} $(zz)",
    "x=(1); echo ${x[@]:$(zz)}",
    "echo ${x:${y:-$(zz)}}",
    "echo ${x: -$(zz)}",
    "echo $(( x[$(zz)] ))",
    "echo $[ $(zz) ]",
    "[[ -v a[$(zz)] ]]",
    "declare -p a[$(zz)]",
    "printf -v a[$(zz)] x",
    "read a[$(zz)] <<< x",
    "for x in a; do zz; done",
    "function f { zz; }; f",
    "f() { zz; } ; g() { f; }; g",
    "if [[ $(zz) ]]; then :; fi",
    "echo $(\nzz\n)",
    "echo `\nzz\n`",
    "echo $(# comment\nzz)",
    "echo $(case x in x) zz;; esac)",
    "echo \"$(case x in (x) zz;; esac)\"",
    "echo $((1)) $( (zz) )",
    "echo $((zz) )",
    "x=$((1))$(zz)",
    "echo ${x:-$(cat <<EOF\n$(zz)\nEOF\n)}",
    "echo ${#x[$(zz)]}",
    "zz=1; echo $zz; zz",
    "echo zz | bash",
    "bash <<< zz",
    "bash <<EOF\nzz\nEOF",
    "sh -s <<< 'zz'",
    "cat <<EOF | sh\nzz\nEOF",
    "echo $(echo ')' ; zz)",
    "echo $(case x in x) echo ;; esac; zz)",
    "echo \"$(echo \"\\\")\"; zz)\"",
    "echo $(: \\) ; zz)",
    "echo $(echo $((1)); zz)",
    "echo $(cat <<E\n)\nE\nzz)",
    "echo ${y:-$(echo }); zz)}",
    "echo $(echo `zz`)",
    "echo `echo \\`zz\\``",
    "echo $(echo a # ) zz\nzz)",
    "echo $\\\n(zz)",
    "ec\\\nho $(z\\\nz)",
    "echo $[1+$(zz)]",
    "time (zz)",
    "zz& zz&",
    "echo ${x#$(zz)}\u00e9",
    "\u00e9=1; echo ${x#$(zz)}",
    "echo {$(zz),b}",
    "echo ${x#{$(zz),}}",
    "[[ ${x#$(zz)} ]]",
    "echo ${x#\\$(zz)}",
    "echo ${x#\"$(zz)\"}",
    "echo \"${x#\"$(zz)\"}\"",
    "echo \"${x#\"'$(zz)'\"}\"",
    "echo ${x#'$(zz)'$(zz)}",
    "x=abc; echo ${x/b/\\`zz\\`}",
    "echo ${x/b/`zz`}",
    "echo ${x:-$'\\x24(zz)'}",
    "echo $((`zz`))",
    "echo $(( $(zz) ))",
    "echo $((  (1) + $(zz) ))",
    "echo $(((1) + $(zz)))",
    "(( $(zz) ))",
    "((1)) && zz",
    "echo $(( ( 1 ) )) $(zz)",
    "cat <<'E'; zz\nx\nE",
    "cat <<E; echo $(zz)\nx\nE",
    "cat <<A <<B; zz\na\nA\n$(zz)\nB",
    "cat <<-E\n\t$(zz)\n\tE",
    "x=$(cat <<E\n$(zz)\nE\n)",
    "f() { cat <<E\n$(zz)\nE\n}; f",
    "echo ${x:-\"${y:-$(zz)}\"}",
    "echo \"${x:-\"${y:-'$(zz)'}\"}\"",
    "echo \"${y:-\"${y:-'$(zz)'}\"}\"",
    "echo ${x+\"$(zz)\"}",
    "declare -a a=($(zz))",
    "a+=($(zz))",
    "a[$(zz)]+=1",
    "local -a x[$(zz)]=1",
    "echo ${a[@]/$(zz)/}",
    "echo ${@/$(zz)/}",
    "echo ${*#$(zz)}",
    "set -- a; echo ${1#$(zz)}",
    "set -- a; echo ${1:$(zz)}",
    "set -- a; echo ${@:$(zz)}",
    "echo ${#$(zz)}",
    "echo ${!x#$(zz)}",
    "echo ${x:?$(zz)}",
    "echo ${y:?$(zz)}",
    "echo ${y?$(zz)}",
    "printf '%s\\n' ${x/#a/$(zz)}",
    "echo ${x@Q}$(zz)",
    "echo \"${x^^[$(zz)]}\"",
    "echo ${x^^[$(zz)]}",
    "echo ${x,,@($(zz))}",
    "shopt -s extglob; echo ${x#@($(zz))}",
    "shopt -s extglob; echo ${x#+($(zz)|b)}",
    "echo ${x%%*($(zz))}",
    "case a in @($(zz))) ;; esac",
    "[[ a == $(zz) ]]",
    "[[ a == ${x#$(zz)} ]]",
    "[[ a == @(${x#$(zz)}) ]]",
    "[[ -f ${x#$(zz)} ]]",
    "[ -f ${x#$(zz)} ]",
    "test -f ${x#$(zz)}",
    "echo > ${x#$(zz)}",
    "echo >> \"${x%$(zz)}\"",
    "cat < ${x#$(zz)}",
    "exec 3< ${x#$(zz)}",
    "echo 2>&1 ${x#$(zz)}",
    "for i in 1; do echo; done > ${x#$(zz)}",
    "{ echo; } > ${x#$(zz)}",
    "( echo ) > ${x#$(zz)}",
    "f() { :; } > ${x#$(zz)}; f",
    "echo a | tee ${x#$(zz)}",
    "while read l; do :; done < ${x#$(zz)}",
    "if [ -n ${x#$(zz)} ]; then :; fi",
    "until [ ${x#$(zz)} ]; do break; done",
    "select i in ${x#$(zz)}; do break; done < /dev/null",
    "case ${x#$(zz)} in *) ;; esac",
    "case a in ${x#$(zz)}) ;; esac",
    "coproc ${x#$(zz)}",
    "time ${x#$(zz)}",
    "! ${x#$(zz)}",
    "${x#$(zz)}",
    "v=${x#$(zz)} echo",
    "v+=${x#$(zz)}",
    "export v=${x#$(zz)}",
    "alias a=${x#$(zz)}",
    "trap ${x#$(zz)} EXIT",
    "bash -c \"${x#$(zz)}\"",
    "eval ${x#$(zz)}",
    "echo $(( ${x#$(zz)} ))",
    "echo $(( ${#x}+${x#$(zz)} ))",
    "echo ${a[${x#$(zz)}]}",
    "echo <<< ${x#$(zz)}",
    "cat <<E\n${x#${y:-$(zz)}}\nE",
    "echo ${x#`echo \\`zz\\``}",
    "echo \"${x#`zz`}\"",
    "echo ${x#$(echo $(zz))}",
    "echo ${x#$( (zz) )}",
    "echo ${x#$({ zz; })}",
    "echo ${x#<(zz)}",
    "echo ${x#>(zz)}",
    "echo ${x:-<(zz)}",
    "echo ${x/<(zz)/}",
    "echo ${y:-$((1+$(zz)))}",
    "echo ${x:-$[$(zz)]}",
    "echo ${x:-${x:-${x:-${x#$(zz)}}}}",
    "echo ${x#${x#${x#${x#$(zz)}}}}",
    "compgen -C 'zz' x",
    "compgen -W '$(zz)' x",
    "compgen -W \"$(zz)\" x",
    "complete -C zz x; compgen -A command zz",
    "f() { zz; }; compgen -F f x",
    "x='$(zz)'; compgen -W \"$x\" y",
    "printf '%s' \"${x@Q}\" $(zz)",
    "echo $(<$(zz))",
    "exec 3<<<$(zz)",
    "read -r v <<< \"$(zz)\"",
    ": ${v:=$(zz)}",
    "[[ -v x[$(zz)] ]]",
    "getopts a $(zz)",
    "ulimit -n $(zz)",
    "cd $(zz)",
    "pushd $(zz)",
    "set -- $(zz)",
    "shift $(zz)",
    "return $(zz)",
    "exit $(zz)",
    "kill $(zz)",
    "echo ${x:-$( zz )}",
    "x=$'\\'$(zz)\\''; eval \"$x\"",
    "hash -p /usr/bin/zz ls 2>/dev/null; ls",
    "enable -n echo; echo",
    "fc -ln 2>/dev/null; zz",
    "FUNCNEST=1 zz",
    "IFS=z; zz",
    "x=$(zz)",
    "x=`zz`",
    "local -n x 2>/dev/null; zz",
    "echo \"${x:?$(zz)}\"",
    "echo ${x:1:$(zz)}",
    "a=(x); echo ${a[@]:0:$(zz)}",
    "echo ${x/#$(zz)}",
    "echo ${x/%$(zz)}",
    "echo ${x/$(zz)}",
    "echo \"${x/$(zz)}\""
]


def test_red_team_lines_hide_nothing(stubs):
    ran = stubs.run(REDTEAM)
    assert sum(1 for logged in ran if logged) > len(REDTEAM) * 0.8     # most of them run their command
    hidden = [(line, sorted(logged)) for line, logged in zip(REDTEAM, ran)
              if not set(logged) <= programs_of(split_line(line))]
    assert not hidden, hidden


@pytest.mark.parametrize("line", ["compgen -C 'zz' x", "compgen -W '$(zz)' x", "compgen -A file -C zz",
                                  "complete -W '`zz`' cmd"])
def test_completion_builtins_run_their_command_and_word_list(line):
    assert "zz" in programs_of(split_line(line)), line


_CRASHING_PARSER = r'''
import os, signal, sys
from wispsh.parse import tree, split
real = tree.parse
def parse(source):          # a parser that dies natively on some text, as tree-sitter-bash once did
    if source.code.startswith("CRASH_ME"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return real(source)
tree.parse = parse
split.guard_native_crashes()
result = split.split_line(sys.argv[1])
for part in result.parts:
    print(part.opaque, part.origin, repr(part.text))
print(result.ok, result.notes)
'''


@pytest.mark.parametrize("line, opaque_text", [
    ("CRASH_ME x", "CRASH_ME x"),                                         # the line itself
    ("ls; sh -c 'CRASH_ME rm'", "CRASH_ME rm"),                           # code the line holds
    ("echo a; bash -c 'x' ; eval 'CRASH_ME y'; sh -c 'pwd'", "CRASH_ME y"),   # one of several in a batch
])
def test_a_native_crash_of_the_parser_is_a_judged_part_not_a_signal(line, opaque_text):
    done = subprocess.run([sys.executable, "-c", _CRASHING_PARSER, line], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr          # this process lived: it never parsed what crashed
    rows = done.stdout.splitlines()
    assert f"True opaque {opaque_text!r}" in rows, rows
    assert "the parser crashed on this text (SIGSEGV): judged whole" in rows[-1]
    assert all(row.startswith("False") for row in rows[:-1] if opaque_text not in row), rows


_CRASHING_GATE = r'''
import os, signal, sys
from wispsh.parse import tree
real = tree.parse
def parse(source):
    if source.code.startswith("CRASH_ME"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return real(source)
tree.parse = parse
from wispsh.cli import sh
sys.exit(sh.main(["wispsh", "--explain", "--json", "-c", sys.argv[1]]))
'''


def test_the_gate_turns_the_guard_on(tmp_path):
    import json

    done = subprocess.run([sys.executable, "-c", _CRASHING_GATE, "ls; sh -c 'CRASH_ME rm -rf ~'"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode in (1, 2, 3), (done.returncode, done.stderr)     # a verdict, not a signal
    plan = json.loads(done.stdout)
    assert plan["verdict"] != "run"
    assert any("the parser crashed on this text (SIGSEGV)" in note for note in plan["parse"]["notes"])
    opaque = [p for p in plan["parts"] if p["text"] == "CRASH_ME rm -rf ~"]
    assert opaque and opaque[0]["level"] in ("high", "dangerous"), plan["parts"]


_EARLY_GUARD = r'''
import os, signal, sys
from wispsh.parse import tree, split
real = tree.parse
def parse(source):
    if source.code.startswith("CRASH_ME"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return real(source)
tree.parse = parse
forks = []
fork = os.fork
def counted():
    pid = fork()
    if pid:
        forks.append(pid)
    return pid
os.fork = counted
split.guard_native_crashes()
split.start_guard(sys.argv[1])          # as the gate does once it knows the line
result = split.split_line(sys.argv[2])
for part in result.parts:
    print(part.opaque, repr(part.text))
split.collect_guard()                   # as the gate does before it execs the shell
try:
    os.waitpid(-1, os.WNOHANG)
    print("a child is left")
except ChildProcessError:
    print("no child left")
print(len(forks), result.notes)
'''


@pytest.mark.parametrize("early, line, forks", [
    ("CRASH_ME x", "CRASH_ME x", 1),            # the early child is the guard: it died, the line is judged whole
    ("ls -la", "ls -la", 1),                    # it lived: its answer is used, no second fork
    ("ls -la", "CRASH_ME x", 2),                # started for other text: collected, and the line forked anew
])
def test_the_guard_started_early_is_the_same_guard(early, line, forks):
    done = subprocess.run([sys.executable, "-c", _EARLY_GUARD, early, line], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert rows[-2] == "no child left" and rows[-1].startswith(f"{forks} "), rows
    crashed = line.startswith("CRASH_ME")
    assert (f"True {line!r}" in rows) == crashed, rows
    assert ("the parser crashed on this text (SIGSEGV)" in rows[-1]) == crashed, rows


def test_the_gate_refuses_a_line_that_kills_the_parser_without_explain(tmp_path):
    gate = _CRASHING_GATE.replace('"--explain", "--json", ', "")
    env = {**os.environ, "WISP_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", gate, "CRASH_ME rm -rf ~"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 126, (done.returncode, done.stderr)           # refused: not a signal, not run
    assert done.stderr.startswith("wispsh:"), done.stderr


def test_the_invariant_names_only_the_outermost_places_a_walk_missed():
    from wispsh.parse import guards

    code = "a $(b $(c)) ${x#`d`} '$(no)'"
    every = {s.open_at for s in scan.code_sites(code)}
    assert guards.uncovered(code, every) == []
    missed = guards.uncovered(code, set())
    assert [code[s.inner_start:s.inner_end] for s in missed] == ["b $(c)", "d"]   # $(c) goes with its holder
    walked_outer = {code.index("$(b")}      # a walk that went into $(b …) but not into the $(c) inside it
    assert [code[s.inner_start:s.inner_end] for s in guards.uncovered(code, walked_outer)] == ["c", "d"]
