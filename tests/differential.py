"""The differential suite: lines through `wispsh --yes -c CODE [NAME ARGS]` against the real shell's own
`bash -c CODE [NAME ARGS]` (and `sh -c` = dash, through a wisp home whose shell.default is /usr/bin/sh).

Each case runs on both sides in the same scratch directory (made afresh from the same fixture for each run),
with the same environment, stdin and closed descriptors; what is compared: the exit status (or the signal
that ended the process), stdout, stderr, byte for byte, and the files the case left in its directory. The
real shell runs each case twice: a case whose two real runs differ is unstable (it reads the clock or a pid)
and is not counted. Refused lines (wispsh's 126 `wispsh: not run:`) are counted apart: `--yes` answers every
question, so with it only a deny pattern refuses; the syntax-error cases run without `--yes` (nobody to ask),
where a line the real shell reports before running any of it runs, and one where something could run first
is refused.

How the cases are made (`cases()`, deterministic): one table per part of the bash manual (quoting, the
expansions, arithmetic, redirections, here-documents, compound commands, functions, traps, subshells,
pipelines and PIPESTATUS, set -e/-u/-o pipefail, signals and exit statuses, $0 and the -c NAME ARGS forms,
builtins, error messages, syntax errors, closed descriptors), each crossed with its fillers (words in every
quoting, each expansion operator on set, empty and unset variables, random arithmetic trees, every signal).
The POSIX rows run under dash too.

Known, documented differences (docs/exactness.md), which no case looks at: the variables wispsh adds to the
shell's environment (WISP_DEPTH, WISP_GATED, the nested token WISP_ALLOWED), and the argv in
/proc/PID/cmdline when the caller's options were written otherwise (`-lc` is passed as `-l -c`).
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BASH = shutil.which("bash") or "/bin/bash"
SH = "/usr/bin/sh" if os.path.exists("/usr/bin/sh") else "/bin/sh"
SECONDS = 10


class Case:
    __slots__ = ("shell", "code", "args", "stdin", "closed", "yes", "group")

    def __init__(self, shell: str, code: str, args=(), stdin: bytes = b"", closed=(), yes: bool = True,
                 group: str = ""):
        self.shell, self.code, self.args, self.stdin = shell, code, tuple(args), stdin
        self.closed, self.yes, self.group = tuple(closed), yes, group

    def __repr__(self) -> str:
        extra = "".join([f" args={list(self.args)}" if self.args else "", f" stdin={self.stdin!r}" if self.stdin
                         else "", f" closed={list(self.closed)}" if self.closed else "",
                         "" if self.yes else " (no --yes)"])
        return f"[{self.group}] {self.shell} -c {self.code!r}{extra}"


# ---------------------------------------------------------------- the tables

PRELUDE = "x=abc; y=; unset z; n=12; s='a b  c'; p='*.txt'; "
BASH_PRELUDE = PRELUDE + "arr=(one 'two three' '' four); declare -A m=([k]=v [a b]=c); ref=x; "

WORDS = ["plain", "'single quoted'", '"double $x"', "\"$s\"", "$s", "a\\ b", "\\$x", "'$x'", "\"'\"", "'\"'",
         "\"\"", "''", "a\"b\"'c'd", "\\\\", "\"\\\\\"", "'\\'", "\"a\\\"b\"", "*.txt", "\"*.txt\"", "?.txt",
         "[ab].txt", "$p", "\"$p\"", "~", "~/x", "\"~\"", "x~", "$y", "\"$y\"", "$z", "${x}y", "$x$n", "\"$x\"$n",
         "\\*", "a#b", "#c", "\"#\"", "=x", "a=b", "--", "-n", "-e", "$((1+2))", "\"$((n*2))\"", "$(echo sub)",
         "\"$(echo 'a  b')\"", "`echo back`", "\"`echo back`\"", "$(printf '%s' \"$s\")", "'a\nb'", "\"a\nb\""]
BASH_WORDS = ["$'t\\tu'", "$'\\x41\\101'", "$'it\\'s'", "$\"msg\"", "{a,b}", "{1..3}", "{a..c}", "x{,y}",
              "\"{a,b}\"", "{a,b}{1,2}", "{01..3}", "{z..x}", "{1..7..3}", "${arr[1]}", "\"${arr[@]}\"",
              "${arr[@]}", "\"${arr[*]}\"", "${#arr[@]}", "${!arr[@]}", "\"${m[k]}\"", "${m[a b]}", "${!ref}",
              "$'\\u00e9'", "@(a|b)", "**"]

# ${…} operators, each on a set, an empty and an unset variable (POSIX first, then bash's)
POSIX_EXPANSIONS = ["${V}", "${V-w}", "${V:-w}", "${V=w}", "${V:=w}", "${V+w}", "${V:+w}", "${#V}", "${V#a}",
                    "${V##*b}", "${V%c}", "${V%%b*}", "${V#*}", "${V%\"c\"}", "${V-'a  b'}", "${V:-$n}",
                    "${V:-\"$s\"}", "${V:-$(echo sub)}", "${V:-`echo back`}", "${V#\"a\"}", "${V:+\"$V\"}"]
BASH_EXPANSIONS = ["${V/b/B}", "${V//[ab]/_}", "${V/#a/A}", "${V/%c/C}", "${V^}", "${V^^}", "${V,,}", "${V~~}",
                   "${V:1}", "${V:1:1}", "${V: -1}", "${V:0:-1}", "${V@Q}", "${V@U}", "${V@L}", "${V@u}",
                   "${V@a}", "${!V}", "${V/b}", "${V:$((1)):1}", "${V/b/\"&\"}"]

ARITH_OPS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]
BASH_ARITH_OPS = ["**", ","]

SIGNALS = ["HUP", "INT", "QUIT", "ABRT", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "XFSZ",
           "XCPU", "VTALRM", "PROF", "WINCH", "CHLD", "CONT", "URG", "SYS", "TRAP", "BUS", "FPE"]

# (code, posix?) rows written by hand, by part of the manual
HAND = {
    "pipelines": [
        ("yes | head -1; echo ${PIPESTATUS[*]}", False),
        ("while :; do echo x; done | head -1", True),
        ("yes | head -n 3 | tail -1", True),
        ("seq 1 100000 | head -2; echo ${PIPESTATUS[@]}", False),
        ("false | true; echo $? ${PIPESTATUS[*]}", False),
        ("true | false; echo $?", True),
        ("set -o pipefail; false | true; echo $?", False),
        ("set -o pipefail; yes | head -1 >/dev/null; echo $?", False),
        ("! true; echo $?", True),
        ("! false | false; echo $?", True),
        ("echo a |& cat", False),
        ("{ echo out; echo err >&2; } 2>&1 | sort", True),
        ("shopt -s lastpipe; echo v | read w; echo \"$w\"", False),
        ("echo v | read w; echo \"[$w]\"", True),
        ("printf '%s\\n' b a c | sort -r | head -2", True),
        ("yes | (head -1; exit 3); echo ${PIPESTATUS[*]}", False),
        ("cat /dev/zero | head -c 3 | od -An -c", True),
        ("(trap '' PIPE; yes | head -1); echo ${PIPESTATUS[*]}", False),
        ("trap - PIPE; yes | head -1; echo ${PIPESTATUS[*]}", False),
        ("for i in 1 2 3; do echo $i; done | tac", True),
        ("time_=1; echo $time_ | cat", True),
        ("echo a | { read -r l; echo \"got $l\"; }", True),
        ("seq 3 | while read -r i; do echo \"<$i>\"; done", True),
        ("yes | head -c 10000 >/dev/null; echo $?", True),
        ("exec 3>&1; echo x >&3; exec 3>&-", True),
    ],
    "signals": [
        ("grep '^Sig\\(Ign\\|Blk\\)' /proc/self/status", True),
        ("grep '^SigIgn' /proc/$$/status", True),
        ("trap -p", True),
        ("trap 'echo caught' PIPE; kill -PIPE $$; echo after", True),
        ("trap 'echo caught' TERM; kill -TERM $$; echo after", True),
        ("trap 'echo int' INT; kill -INT $$; echo after", True),
        ("trap '' TERM; kill -TERM $$; echo survived", True),
        ("trap 'echo bye' EXIT; echo hi", True),
        ("trap 'echo bye $?' EXIT; exit 4", True),
        ("trap 'echo err $?' ERR; false; echo next", False),
        ("set -E; trap 'echo err' ERR; f() { false; }; f; echo $?", False),
        ("trap 'echo ret' RETURN; f() { :; }; f", False),
        ("ulimit -f 1; { yes > big; } 2>/dev/null; echo $?; rm -f big", True),       # SIGXFSZ (its report
        ("ulimit -f 1; { (yes > big2); } 2>/dev/null; echo $?; rm -f big2", True),   # names a pid: not shown)
        ("sh -c 'kill -TERM $$'; echo $?", True),
        ("bash -c 'kill -PIPE $$'; echo $?", True),
        ("{ (kill -USR1 $BASHPID); } 2>/dev/null; echo $?", False),
        ("sleep 5 & kill -TERM $!; wait $!; echo $?", True),
        ("trap 'echo usr1' USR1; kill -USR1 $$; echo done", True),
        ("trap '' INT; trap -p INT", True),
        ("trap 'echo a' HUP; trap - HUP; trap -p", True),
        ("kill -l 9; kill -l 15", True),
        ("trap 'echo chld' CHLD; true & wait; echo end", False),
        ("exec 2>/dev/null; kill -PIPE $$", True),
    ],
    "exit": [
        ("exit 0", True), ("exit 1", True), ("exit 255", True), ("exit 256", True), ("exit 257", True),
        ("exit -1", True), ("exit 3 4", False), ("exit abc", True), ("false", True), ("true", True),
        ("no_such_command_x", True), ("./no_such_file", True), ("/", True), ("sub", True), ("cd /nonexistent", True),
        ("return 3", True), ("f() { return 7; }; f; echo $?", True), ("(exit 9); echo $?", True),
        ("{ exit 5; }; echo never", True), ("echo $(exit 3)$?", True), ("x=$(exit 6); echo $?", True),
        ("break; echo after", True), ("continue; echo after", True), ("set -e; false; echo no", True),
        ("set -e; false || echo handled; echo yes", True), ("set -e; if false; then :; fi; echo ok", True),
        ("set -e; f() { false; echo in-f; }; f || echo caught", True), ("set -e; (false); echo no", True),
        ("set -e; x=$(false); echo no", True), ("set -e; ! false; echo yes", True), ("set -e; false && echo a; echo b", True),
        ("set -u; echo $undefined_var", True), ("set -u; echo ${undefined_var-default}", True),
        ("set -u; echo ${#undefined_var}", True), ("set -u; a=(); echo ${a[@]}", False), ("set -o nounset; echo $1", True),
        ("set -eu; echo \"${1:-none}\"", True), ("set -x; echo traced", True), ("set -v; echo verbose", True),
        ("set -o errexit -o pipefail; false | true; echo no", False), ("set -n; echo never", True),
        ("set -f; echo *.txt", True), ("set -C; echo a > a.txt; echo $?", True), ("set -C; echo a >| a.txt; cat a.txt", True),
        ("shopt -s failglob; echo *.none; echo after", False), ("shopt -s nullglob; echo [*.none]", False),
        ("set -o posix; echo $POSIXLY_CORRECT; shopt -o posix", False), ("echo $-", True), ("set -a; v=1; env | grep ^v=", True),
    ],
    "params": [
        ("echo \"$0|$1|$2|$#|$*\"", True), ("echo \"$@\"", True), ("for a; do echo \"<$a>\"; done", True),
        ("for a in \"$@\"; do echo \"<$a>\"; done", True), ("for a in $*; do echo \"<$a>\"; done", True),
        ("shift; echo \"$1 $#\"", True), ("shift 5; echo $?", True), ("set -- a 'b c'; echo $# \"$2\"", True),
        ("echo ${10} ${11}", True), ("echo \"$#\"; set --; echo \"$#\"", True), ("IFS=:; echo \"$*\"", True),
        ("IFS=; echo \"$*\"", True), ("echo $$ >/dev/null; echo ${#$}-$ >/dev/null; echo ok", True),
        ("echo $?", True), ("false; echo $?", True), ("echo \"$BASH_EXECUTION_STRING\"", False),
        ("echo $BASH_ARGV0", False), ("echo \"${BASH_SOURCE[0]}|${FUNCNAME[0]}|$LINENO\"", False),
        ("f() { echo \"$0 $1 ${FUNCNAME[0]}\"; }; f x", False), ("echo $SHLVL", True), ("echo $BASH", False),
        ("echo $BASH_VERSION", False), ("echo ${SHELL-unset}", True), ("unset SHELL; bash -c 'echo $SHELL'", False),
        ("echo $HOME", True), ("echo $PWD", True), ("cd /; echo $OLDPWD $PWD", True), ("echo $IFS | od -c | head -1", True),
        ("echo \"$_\"", True), ("echo a b; echo \"$_\"", True), ("echo $PPID >/dev/null && echo ppid", True),
        ("echo ${#0}", True), ("echo \"${0##*/}\"", True), ("echo \"${@:2}\"", False), ("echo \"${@: -1}\"", False),
        ("printf '[%s]' \"$@\"; echo", True), ("printf '[%s]' \"$*\"; echo", True), ("printf '[%s]' $@; echo", True),
        ("echo $OPTIND; getopts ab: o -a -b x; echo $o $OPTIND", True), ("RANDOM=7; echo $RANDOM $RANDOM", False),
        ("echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)", False), ("echo ${#BASH_VERSINFO[@]}", False),
        ("echo $MACHTYPE | grep -c -", False), ("echo $HOSTTYPE $OSTYPE", False), ("echo $EUID $UID | wc -w", False),
        ("echo $BASHOPTS", False), ("echo $SHELLOPTS", False), ("echo $PS4 $PS2", True), ("echo ${PS1-unset}", True),
    ],
    "compound": [
        ("if true; then echo t; else echo f; fi", True), ("if false; then echo t; elif true; then echo e; fi", True),
        ("if ! false; then echo n; fi", True), ("i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done", True),
        ("i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i", True),
        ("for i in a b c; do [ $i = b ] && continue; echo $i; done", True),
        ("for i in 1 2 3; do for j in x y; do [ $j = y ] && break 2; echo $i$j; done; done", True),
        ("for ((i=0; i<3; i++)); do echo $i; done", False), ("for ((;;)); do break; done; echo out", False),
        ("case abc in a*) echo a;; *) echo other;; esac", True), ("case x in [xy]) echo xy;; esac", True),
        ("case 'a b' in 'a b') echo quoted;; esac", True), ("case z in a|b) echo ab;; *) echo dflt;; esac", True),
        ("case a in a) echo 1;& b) echo 2;; c) echo 3;; esac", False),
        ("case a in a) echo 1;;& *) echo 2;; esac", False), ("case $x in (abc) echo paren;; esac", True),
        ("( echo sub; exit 2 ); echo $?", True), ("{ echo grp; }; echo $?", True), ("(x=inner); echo \"$x\"", True),
        ("{ x=inner; }; echo \"$x\"", True), ("f() { echo \"f $*\"; }; f 1 2", True), ("function g { echo g; }; g", False),
        ("f() { local v=l; echo $v; }; v=g; f; echo $v", False), ("f() { v=changed; }; v=g; f; echo $v", True),
        ("f() { return $1; }; f 3; echo $?", True), ("f() { echo $#; }; f a b c", True),
        ("f() { f2() { echo inner; }; }; f; f2", True), ("f() (echo subshell-body); f", True),
        ("f() { echo \"$@\"; } >out.txt; f a; cat out.txt", True), ("fact() { [ $1 -le 1 ] && echo 1 && return; echo $(( $1 * $(fact $(( $1 - 1 ))) )); }; fact 5", True),
        ("[[ abc == a* ]] && echo glob", False), ("[[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}", False),
        ("[[ -n $y ]] || echo empty", False), ("[ -f a.txt ] && echo file", True), ("[ -d sub ] && echo dir", True),
        ("test 1 -eq 1 -a 2 -gt 1 && echo and", True), ("[ abc \\< abd ] && echo less", True),
        ("(( 3 > 2 )) && echo bigger", False), ("select v in a b; do echo $v; break; done <<< 2", False),
        ("coproc { echo co; }; read -r l <&${COPROC[0]}; echo $l", False), ("x=1; { x=2; } | cat; echo $x", True),
        ("if (exit 3); then :; else echo $?; fi", True), ("while false; do :; done; echo $?", True),
        ("for i in; do echo never; done; echo $?", True), ("case x in esac; echo $?", True),
    ],
    "redirections": [
        ("echo a > f.out; cat f.out", True), ("echo a >> a.txt; cat a.txt", True), ("cat < a.txt", True),
        ("cat < missing.txt", True), ("echo x > sub", True), ("echo err >&2", True), ("echo both 2>&1 >/dev/null", True),
        ("{ echo o; echo e >&2; } >/dev/null 2>&1; echo $?", True), ("ls missing 2>&1 | sed 's/^ls: //'", True),
        ("exec 3>fd3.out; echo three >&3; exec 3>&-; cat fd3.out", True), ("exec 4<a.txt; read -r l <&4; echo $l", True),
        ("echo x >&-", True), ("echo x 1>&-; echo $?", True), ("cat <&-", True), ("read v <&-; echo $?", True),
        ("echo x >&5", True), ("echo a > 'sp ace.out'; ls *.out", True), ("echo > $y", True), ("echo > $s", False),
        ("exec {fd}>named.out; echo named >&$fd; exec {fd}>&-; cat named.out", False), ("cat <> a.txt", True),
        ("echo a 2>/dev/null 1>&2 | cat; echo ${PIPESTATUS[0]}", False), ("cat <<< 'here string'", False),
        ("cat <<< $s", False), ("tr a-z A-Z <<< \"$x\"", False), ("echo a >/dev/full; echo $?", True),
        ("printf x > /dev/stdout", True), ("echo x &> both.out; cat both.out", False), ("echo x &>> both.out; cat both.out", False),
        ("ls nothing >& err.out; cat err.out | wc -l", False), ("echo a > f1 > f2; cat f1 f2 | wc -c", True),
        ("echo $(< a.txt)", False), ("x=$(cat < a.txt); echo \"$x\"", True), ("cat a.txt b.txt 2>&1 > /dev/null", True),
        ("2>/dev/null echo pre", True), ("> empty.out; wc -c < empty.out", True), ("echo x 3>&1 1>&2 2>&3 | cat", True),
        ("exec >/dev/null; echo gone; echo err >&2", True), ("exec 2>&1; echo err >&2", True),
    ],
    "heredocs": [
        ("cat <<EOF\nhello $x\nEOF", True), ("cat <<'EOF'\nhello $x\nEOF", True), ("cat <<\"EOF\"\n$x `x`\nEOF", True),
        ("cat <<\\EOF\n$x\nEOF", True), ("cat <<-EOF\n\tindented\n\tEOF", True), ("cat <<EOF\n$(echo sub) $((1+1))\nEOF", True),
        ("cat <<EOF\n\\$x \\\\ \\`\nEOF", True), ("cat <<A; cat <<B\na\nA\nb\nB", True), ("cat <<EOF | tr a-z A-Z\nup\nEOF", True),
        ("cat <<EOF >h.out\nfile\nEOF\ncat h.out", True), ("while read -r l; do echo \"<$l>\"; done <<EOF\n1\n2\nEOF", True),
        ("cat <<EOF\nunterminated", True), ("cat <<EOF\n'q' \"d\"\nEOF", True), ("cat << EOF\nspace\nEOF", True),
        ("f() { cat; }; f <<EOF\nto f\nEOF", True), ("cat <<EOF\n${x:-w} ${z:-w}\nEOF", True),
        ("cat <<'E'\n$(rm -rf nothing)\nE", True), ("x=$(cat <<EOF\ninside\nEOF\n); echo $x", True),
        ("cat <<E1 <<E2\none\nE1\ntwo\nE2", True), ("cat <<EOF\nline \\\ncontinued\nEOF", True),
    ],
    "builtins": [
        ("printf '%d %x %o %e\\n' 42 255 8 1.5", True), ("printf '%5s|%-5s|%.2s\\n' a b cde", True),
        ("printf '%q\\n' 'a b' \"it's\"", False), ("printf '%b\\n' 'a\\tb'", True), ("printf '%s\\n'", True),
        ("printf '%d\\n' abc", True), ("printf '%c%c\\n' ab cd", True), ("printf '%08.3f\\n' 3.14159", True),
        ("printf -v out '%s-%s' a b; echo $out", False), ("echo -n n; echo -e 'e\\tx'; echo -E 'E\\t'", False),
        ("echo 'a\\nb'", True), ("read -r a b <<< 'one two three'; echo \"$b\"", False),
        ("IFS=, read -r a b <<< 'x,y,z'; echo \"$a|$b\"", False), ("mapfile -t l < a.txt; echo ${#l[@]} ${l[1]}", False),
        ("type echo cd ls | sed 's/ is .*//'", True), ("type -t echo; type -t if; type -t ls", False),
        ("command -v ls; command -v echo", True), ("hash ls; hash -t ls", False), ("pwd; cd sub; pwd; cd -", True),
        ("pushd sub >/dev/null; dirs; popd >/dev/null; dirs", False), ("alias ll='ls -l'; alias", True),
        ("shopt -s expand_aliases\nalias say=echo\nsay aliased", False), ("declare -i i=3+4; echo $i", False),
        ("declare -a a=(1 2); declare -p a", False), ("readonly r=1; r=2; echo $r", True), ("x=1; unset x; echo ${x-gone}", True),
        ("export e=1; sh -c 'echo $e'", True), ("eval 'echo evaluated $x'", True), ("eval 'a=1; echo $a'", True),
        ("echo 'echo sourced $1' > s.sh; . ./s.sh arg", True), ("echo 'return 4' > r.sh; . ./r.sh; echo $?", True),
        ("exec echo replaced; echo never", True), ("command echo c; builtin echo b", False), ("enable -n echo; echo x", False),
        ("let 'a = 2 + 3' 'b = a * 2'; echo $a $b", False), ("getopts 'a:' o -a val; echo $o $OPTARG", True),
        ("sleep 0 & wait $!; echo $?", True), ("false & wait $!; echo $?", True), ("wait; echo $?", True),
        ("ulimit -n >/dev/null; echo $?", True), ("umask; umask 077; umask", True), ("umask -S", True),
        ("times >/dev/null; echo $?", True), ("shopt -p extglob nullglob", False), ("set -o | grep -c o", True),
        ("compgen -A builtin | head -3", False), ("caller; echo $?", False), ("printf '%s\\n' {a..c}", False),
        ("true; : ; echo colon $?", True), ("[ ]; echo $?", True), ("[ -z '' ]; echo $?", True), ("test; echo $?", True),
        ("kill -0 $$; echo $?", True), ("jobs; echo $?", True), ("fc -l 2>&1 | head -1; echo $?", False),
        ("history | head -1; echo $?", False), ("help cd | head -1", False), ("shift 0; echo $#", True),
        ("local x=1", False), ("declare -f nosuch; echo $?", False), ("unset -f nosuch; echo $?", True),
        ("printf '%s\\n' *", True), ("echo *.txt", True), ("echo [ab]*", True), ("echo sub/*", True),
        ("shopt -s dotglob; echo *", False), ("shopt -s globstar; echo **/*.txt", False),
        ("shopt -s extglob\necho !(a).txt", False), ("echo ~root | grep -c /", True), ("cd; pwd", True),
        ("echo $(( $(wc -l < a.txt) + 1 ))", True), ("wc -c a.txt b.txt", True), ("cat a.txt | sort | uniq -c", True),
    ],
    "errors": [
        ("echo ${x!}", False), ("echo ${", True), ("echo ${x:?gone}", True), ("echo ${z:?}", True), ("echo ${z?msg}", True),
        ("readonly v=1; unset v; echo $?", True), ("declare -r q=1; q=2", False), ("f=1; f() { :; }; unset f; f; echo $?", True),
        ("echo $((1/0))", True), ("echo $((08))", True), ("echo $((1 +))", True), ("echo $(( 2 ** -1 ))", False),
        ("a=(1 2); echo ${a[x y]}", False), ("cd a.txt", True), ("cd ''; echo $?", True), (". ./missing.sh", True),
        ("source; echo $?", False), ("shift x", True), ("set -Z", True), ("set -o nosuch", True), ("shopt -s nosuch", False),
        ("declare -Z", False), ("trap 'echo' NOSIG", True), ("kill -NOSIG $$", True), ("kill 999999", True),
        ("wait 999999; echo $?", True), ("exec /nonexistent; echo after", True), ("exec nosuchcmd", True),
        ("ulimit -x 2>&1 | head -1", True), ("printf '%z' 1", True), ("getopts", True), ("read -t abc v", False),
        ("local v", False), ("return", True), ("break 0", True), ("exit x y", True), ("echo a | exit 5; echo $?", True),
        ("x=$(no_such_cmd_y); echo $?", True), ("chmod -x a.txt; ./a.txt; echo $?", True), ("./sub; echo $?", True),
        ("echo '#!/bin/sh' > e.sh; ./e.sh; echo $?", True), ("printf 'echo ran\\n' > n.sh; chmod +x n.sh; ./n.sh", True),
        ("typeset -i t=abc; echo $t", False), ("arr=(1 2); arr[x]=3; echo ${arr[@]}", False),
        ("echo \"${undefined_arr[@]}\"", False), ("unset 'a[1'; echo $?", False), ("hash nosuchprog", False),
    ],
}

SYNTAX_ERRORS = ["if then", "fi", "then echo x", "echo a; fi", "echo a; if then", "done", "(", ")", "echo a )",
                 "{ ;}", "case x in", "case x in a) echo a", "for i in; do", "while; do echo x; done",
                 "echo $(", "echo \"unterminated", "echo 'unterminated", "echo ${x", "a && && b", "a | | b",
                 "| x", "&& x", "echo a &&", "f() {", "f() }", "if true; then echo a; fi fi", "echo a; ;; b",
                 "echo `", "echo $((", "[[ a", "function", "select", "echo >", "echo a >&", "cat <", "a=(",
                 "echo a\nif then", "echo a\n)", "echo a; echo b\nfi", "if true; then echo a; fi\nfi",
                 "cat <<EOF\nx\nEOF\nif then", "rm -f a.txt\nif then", "echo 'a\nb' ; if then", "x() { echo a\n}}",
                 "echo a \\\nfi", "echo $(echo a\nif then)"]
POSIX_SYNTAX = SYNTAX_ERRORS[:35] + ["echo a\nif then", "echo a\n)", "if true; then echo a; fi\nfi"]

CLOSED_LINES = [("echo x", True), ("echo x >&2", True), ("cat", True), ("read v; echo $?", True),
                ("echo x; echo y >&2; echo $?", True), ("ls /proc/self/fd", True), ("printf x; echo $?", True),
                ("exec 3>&1; echo three >&3", True), ("echo x 2>/dev/null; echo $? >&2", True),
                ("yes | head -1", True), ("echo hi > o.out; cat o.out >&2", True), ("[ -t 0 ]; echo $?", True),
                ("true", True), ("exit 3", True), ("no_such_cmd", True), ("echo ${BASH_VERSION%%.*} >&2", False)]

ARG_SETS = [(), ("name",), ("name", "a"), ("name", "a b", "c"), ("-", "x"), ("n m", ""), ("--", "-x"),
            ("name", "*", "$x"), ("name", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")]


# ---------------------------------------------------------------- generated rows


def _word_rows(rng: random.Random, count: int, bash: bool) -> list[str]:
    pool = WORDS + (BASH_WORDS if bash else [])
    prelude = BASH_PRELUDE if bash else PRELUDE
    rows = []
    for _ in range(count):
        words = " ".join(rng.choice(pool) for _ in range(rng.randint(1, 4)))
        rows.append(prelude + "printf '<%s>\\n' " + words)
    return rows


def _expansion_rows(bash: bool) -> list[str]:
    forms = POSIX_EXPANSIONS + (BASH_EXPANSIONS if bash else [])
    prelude = BASH_PRELUDE if bash else PRELUDE
    rows = []
    for form in forms:
        for var in ("x", "y", "z"):
            use = form.replace("V", var)
            rows.append(prelude + f"printf '<%s>' {use}; printf '<%s>' \"{use}\"; echo \" {var}=${{{var}-unset}}\"")
    return rows


def _arith(rng: random.Random, depth: int, bash: bool) -> str:
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(["1", "2", "7", "0", "n", "x1", "-3", "0x1f", "010", "2#101", "$n", "${n}"])
    ops = ARITH_OPS + (BASH_ARITH_OPS if bash else [])
    kind = rng.random()
    if kind < 0.12:
        return f"({_arith(rng, depth - 1, bash)})"
    if kind < 0.2:
        return f"$(( {_arith(rng, depth - 1, bash)} ))"
    if kind < 0.26:
        return f"{rng.choice(['-', '!', '~'])}{_arith(rng, depth - 1, bash)}"
    if kind < 0.3:
        return f"{_arith(rng, depth - 1, bash)} ? {_arith(rng, depth - 1, bash)} : {_arith(rng, depth - 1, bash)}"
    if kind < 0.34 and bash:
        return rng.choice(["i++", "++i", "i--", "i+=2", "i*=3", "i=5"])
    if kind < 0.37:
        return f"$(echo {rng.randint(0, 9)})"
    op = rng.choice(ops)
    right = _arith(rng, depth - 1, bash)
    if op in ("/", "%") and right in ("0", "x1"):
        right = "3"
    if op == "**":
        right = rng.choice(["2", "3"])
    return f"{_arith(rng, depth - 1, bash)} {op} {right}"


def _arith_rows(rng: random.Random, count: int, bash: bool) -> list[str]:
    rows = []
    for k in range(count):
        expr = _arith(rng, 3, bash)
        prelude = "n=6; x1=4; i=1; "
        if k % 3 == 0:
            rows.append(prelude + f"echo $(( {expr} )); echo ${{i-}}")
        elif k % 3 == 1 and bash:
            rows.append(prelude + f"(( {expr} )); echo $? $i")
        else:
            rows.append(prelude + f"v=$(( {expr} )); echo \"v=$v\"")
    return rows


def _signal_rows(bash: bool) -> list[str]:
    rows = []
    for sig in SIGNALS:
        rows.append(f"kill -{sig} $$; echo after-{sig}")
        rows.append(f"{{ sh -c 'kill -{sig} $$'; }} 2>/dev/null; echo status $?")   # the report names a pid
        if sig not in ("KILL",):
            rows.append(f"trap 'echo trapped-{sig}' {sig}; kill -{sig} $$; echo after")
            rows.append(f"trap '' {sig}; kill -{sig} $$; echo ignored")
        if bash:
            rows.append(f"{{ (kill -{sig} $BASHPID); }} 2>/dev/null; echo $?")
    return rows


def _nesting_rows(rng: random.Random, count: int, bash: bool) -> list[str]:
    """Substitutions inside substitutions: $(…), backticks with their escapes, quotes, arithmetic."""
    def make(depth: int) -> str:
        if depth == 0 or rng.random() < 0.3:
            return rng.choice(["echo leaf", "printf x", "echo \"a  b\"", "echo $x", "echo '$x'"])
        inner = make(depth - 1)
        kind = rng.randrange(5)
        if kind == 0:
            return f"echo $({inner})"
        if kind == 1:       # a backtick nested as bash wants it written: \\, \` and \$ escaped once more
            return "echo `" + inner.replace("\\", "\\\\").replace("`", "\\`").replace("$", "\\$") + "`"
        if kind == 2:
            return f"echo \"$({inner})\""
        if kind == 3:
            return f"echo \"<$({inner})>\" $(( 1 + $(( 2 * 3 )) ))"
        return f"{inner}; echo $({inner} | tr a-z A-Z)"
    return [PRELUDE + make(rng.randint(1, 4)) for _ in range(count)]


# ---------------------------------------------------------------- all cases


def cases() -> list[Case]:
    """Every case, in a fixed order (the same on every machine)."""
    rng = random.Random(2026)
    out: list[Case] = []
    for group, rows in HAND.items():
        for code, posix in rows:
            out.append(Case("bash", code, group=group))
            if posix:
                out.append(Case("sh", code, group=group))
    for args in ARG_SETS:
        for code, posix in HAND["params"][:12]:
            out.append(Case("bash", code, args, group="args"))
            if posix:
                out.append(Case("sh", code, args, group="args"))
    out += [Case("bash", c, group="words") for c in _word_rows(rng, 600, True)]
    out += [Case("sh", c, group="words") for c in _word_rows(rng, 250, False)]
    out += [Case("bash", c, group="expansions") for c in _expansion_rows(True)]
    out += [Case("sh", c, group="expansions") for c in _expansion_rows(False)]
    out += [Case("bash", c, group="arithmetic") for c in _arith_rows(rng, 450, True)]
    out += [Case("sh", c, group="arithmetic") for c in _arith_rows(rng, 150, False)]
    out += [Case("bash", c, group="signals") for c in _signal_rows(True)]
    out += [Case("sh", c, group="signals") for c in _signal_rows(False)]
    out += [Case("bash", c, group="nesting") for c in _nesting_rows(rng, 200, True)]
    out += [Case("sh", c, group="nesting") for c in _nesting_rows(rng, 60, False)]
    for code in SYNTAX_ERRORS:
        out.append(Case("bash", code, yes=False, group="syntax"))
        out.append(Case("bash", code, group="syntax"))
    for code in POSIX_SYNTAX:
        out.append(Case("sh", code, yes=False, group="syntax"))
    for closed in ((0,), (1,), (2,), (0, 1), (1, 2), (0, 2), (0, 1, 2)):
        for code, posix in CLOSED_LINES:
            out.append(Case("bash", code, closed=closed, group="closed"))
            if posix:
                out.append(Case("sh", code, closed=closed, group="closed"))
    for code in ("read a; echo \"<$a>\"", "cat", "mapfile -t l; echo ${#l[@]}", "while read -r l; do echo $l; done",
                 "head -1; cat"):
        for data in (b"one\ntwo\n", b"", b"no newline", b"a\0b\n"):
            out.append(Case("bash", code, stdin=data, group="stdin"))
            if "mapfile" not in code:
                out.append(Case("sh", code, stdin=data, group="stdin"))
    return out


def sample(count: int, seed: int = 26) -> list[Case]:
    """A fixed sample: the same `count` cases each time, drawn across every group."""
    everything = cases()
    groups: dict[str, list[Case]] = {}
    for case in everything:
        groups.setdefault(case.group, []).append(case)
    rng = random.Random(seed)
    picked: list[Case] = []
    names = sorted(groups)
    while len(picked) < count:
        for name in names:
            pool = groups[name]
            if pool and len(picked) < count:
                picked.append(pool.pop(rng.randrange(len(pool))))
    return picked


# ---------------------------------------------------------------- running


def _fixture(directory: Path) -> None:
    if directory.exists():
        shutil.rmtree(directory)
    (directory / "sub").mkdir(parents=True)
    (directory / "home").mkdir()
    (directory / "a.txt").write_text("one\ntwo\nthree\n")
    (directory / "b.txt").write_text("b\n")
    (directory / "sub" / "c.txt").write_text("c\n")
    (directory / "space name.txt").write_text("s\n")


def _snapshot(directory: Path) -> list[tuple[str, bytes]]:
    files = []
    for root, dirs, names in os.walk(directory):
        dirs.sort()
        for name in sorted(names):
            path = Path(root) / name
            try:
                data = path.read_bytes() if path.is_file() and path.stat().st_size < 1 << 16 else b"<big>"
            except OSError:
                data = b"<unreadable>"
            files.append((str(path.relative_to(directory)), data))
    return files


def _run(argv: list[str], executable: str, case: Case, directory: Path, env: dict) -> tuple:
    _fixture(directory)
    env = dict(env, HOME=str(directory / "home"))
    if case.closed:     # closed by a bash in between, which then execs the side with argv[0] as given
        closes = " ".join(f"{fd}<&-" if fd == 0 else f"{fd}>&-" for fd in case.closed)
        argv = [BASH, "-c", f'exec {closes}; exec -a "$0" "$@"', argv[0], executable, *argv[1:]]
        executable = BASH
    try:
        done = subprocess.run(argv, executable=executable, cwd=directory, env=env, input=case.stdin,
                              capture_output=True, timeout=SECONDS)
        result = (done.returncode, done.stdout, done.stderr)
    except subprocess.TimeoutExpired as exc:
        result = ("timeout", exc.stdout, exc.stderr)
    return result + (_snapshot(directory),)


class Runner:
    """Runs cases on both sides. `wispsh`: the gate's launcher (install.sh's form)."""

    def __init__(self, wispsh: str, root: Path):
        self.wispsh, self.root = wispsh, root
        base = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TERM": "dumb", "USER": os.environ.get("USER", "user")}
        self.env = base
        self.homes = {}
        for shell in ("bash", "sh"):
            home = root / f"wisp-{shell}"
            home.mkdir(parents=True, exist_ok=True)
            home.chmod(0o700)
            config = {"shell": {"default": SH}} if shell == "sh" else {}
            import json

            (home / "config.json").write_text(json.dumps(config))
            run = root / f"run-{shell}"
            run.mkdir(exist_ok=True)
            run.chmod(0o700)
            self.homes[shell] = dict(base, WISP_HOME=str(home), XDG_RUNTIME_DIR=str(run))

    def one(self, case: Case, worker: int) -> dict:
        directory = self.root / f"w{worker}" / "case"
        real_shell = BASH if case.shell == "bash" else SH
        env = self.homes[case.shell]            # the same environment on both sides, WISP_HOME included
        real = _run([case.shell, "-c", case.code, *case.args], real_shell, case, directory, env)
        again = _run([case.shell, "-c", case.code, *case.args], real_shell, case, directory, env)
        argv = [self.wispsh, *(["--yes"] if case.yes else []), "-c", case.code, *case.args]
        gate = _run(argv, self.wispsh, case, directory, self.homes[case.shell])
        refused = gate[0] == 126 and b"wispsh: not run:" in (gate[2] or b"")
        return {"case": case, "real": real, "gate": gate, "stable": real == again, "same": real == gate,
                "refused": refused}

    def all(self, chosen: list[Case], workers: int = 2) -> list[dict]:
        slots = list(range(workers))
        import threading

        lock = threading.Lock()

        def work(case):
            with lock:
                slot = slots.pop()
            try:
                return self.one(case, slot)
            finally:
                with lock:
                    slots.append(slot)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(work, chosen))


def launcher(directory: Path) -> str:
    """The launcher install.sh lays (`wisp shims install --shell wispsh DIR`), running this checkout."""
    wisp = Path(sys.executable).with_name("wisp")
    subprocess.run([str(wisp), "shims", "install", "--quiet", "--shell", "wispsh", str(directory)], check=True)
    return str(directory / "wispsh")


def summary(results: list[dict]) -> dict:
    stable = [r for r in results if r["stable"]]
    allowed = [r for r in stable if not r["refused"]]
    return {"cases": len(results), "unstable": len(results) - len(stable), "refused": len(stable) - len(allowed),
            "allowed": len(allowed), "differences": [r for r in allowed if not r["same"]],
            "refusals": [r for r in stable if r["refused"]]}


def describe(result: dict) -> str:
    case, real, gate = result["case"], result["real"], result["gate"]
    lines = [repr(case)]
    for what, k in (("status", 0), ("stdout", 1), ("stderr", 2), ("files", 3)):
        if real[k] != gate[k]:
            lines.append(f"  {what}: bash {real[k]!r}\n  {'':{len(what)}}  gate {gate[k]!r}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    chosen = cases() if "--sample" not in argv else sample(int(argv[argv.index("--sample") + 1]))
    if "--group" in argv:
        chosen = [c for c in chosen if c.group in argv[argv.index("--group") + 1].split(",")]
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    with tempfile.TemporaryDirectory(prefix="wisp-diff-") as tmp:
        root = Path(tmp)
        given = argv[argv.index("--wispsh") + 1] if "--wispsh" in argv else None
        runner = Runner(given or launcher(root / "launcher"), root)
        results = runner.all(chosen, workers)
    report = summary(results)
    groups: dict[str, int] = {}
    for r in results:
        groups[r["case"].group] = groups.get(r["case"].group, 0) + 1
    print(f"cases {report['cases']} (bash {sum(r['case'].shell == 'bash' for r in results)}, "
          f"sh {sum(r['case'].shell == 'sh' for r in results)}); by group: "
          + ", ".join(f"{k} {v}" for k, v in sorted(groups.items())))
    print(f"unstable (the real shell differs from itself) {report['unstable']}; refused {report['refused']}; "
          f"allowed {report['allowed']}; differences on allowed lines {len(report['differences'])}")
    for r in results:
        if not r["stable"]:
            print("unstable:", repr(r["case"]))
    for r in report["refusals"]:
        print("refused:", repr(r["case"]), (r["gate"][2] or b"").decode(errors="replace").strip()[:200])
    for r in report["differences"]:
        print(describe(r))
    return 1 if report["differences"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
