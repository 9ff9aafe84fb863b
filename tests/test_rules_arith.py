"""Class 1 of issue 27: values bash evaluates as arithmetic (or as a variable's name) are code.

Built from the class, not its examples: every way a value holding a subscript can be made (literally, at run
time from `$d(`, `printf -v`/`\\x24`, `$'…'`, read from input or a file, a loop, `${x:=…}`), crossed with every
context that evaluates it (`$((x))`, `$[x]`, `((x))`, `[[ x -eq 1 ]]` and its operators, `let`, `${s:x}`,
subscripts, `declare -i`, `for ((…))`, `${!x}`, `-v`, `unset`, namerefs, `printf -v`/`read` into a name, a
heredoc, a child bash). The real bash is the oracle: each attack runs the stub `payload` there (its effect),
and the gate rates it high at least, naming line.arith-value or line.arith-name. The benign look-alikes
(numbers the gate can prove: literals, counters, clocks, `$#`, `${#a[@]}`) stay quiet. Sources: the bash
manual (Shell Arithmetic, Bash Conditional Expressions), Fedora's Defensive Coding guide (double expansion),
Stéphane Chazelas on unix.stackexchange 172103 and 627474.
"""
from __future__ import annotations

import os

import pytest

from oracle import Stubs
from wispsh.model import Level
from test_rules_support import describe, judge, make_place

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS
RULES = {"line.arith-value", "line.arith-name"}

# How x comes to hold `a[$(payload)]` (the oracle's work directory holds v.txt with that text).
VALUES = [
    "x='a[$(payload)]'",
    'd=$; x="a[$d(payload)]"',
    "printf -v x 'a[\\x24(payload)]'",
    "x=$(printf 'a[\\x24(payload)]')",
    "x=$'a[\\x24(payload)]'",
    "read -r x <<< 'a[$(payload)]'",
    "read -r x < v.txt",
    "for x in 'a[$(payload)]'; do :; done",
    "unset x; : ${x:='a[$(payload)]'}",
    "mapfile -t m < v.txt; x=${m[0]}",
]
# What evaluates it.
CONTEXTS = [
    "echo $((x))", "echo $(($x))", "echo $[x]", "((x))", "[[ x -eq 1 ]]", "[[ $x -gt 1 ]]", "[[ 1 -le x ]]",
    "let y=x", "s=abc; echo ${s:x}", "s=abc; echo ${s:0:x}", "b=(1 2); echo ${b[x]}", "b=(1 2); echo ${b[$x]}",
    "b[x]=1", "b=([x]=1)", "declare -i y=x", "declare -i y; y=x", "declare -i y; y+=$x",
    "for ((i=x; i<1; i++)); do :; done", "while ((x)); do break; done", "if ((x)); then :; fi",
    "case 1 in $((x))) ;; esac", "echo ${!x}", "[[ -v $x ]]", 'test -v "$x"', 'a=(1); unset "$x"',
    "declare -n r=$x; echo $r", 'printf -v "$x" 1', 'read "$x" <<< 1', 'declare "$x=1"', "y=x; echo $((y))",
    "cat <<E\n$((x))\nE", 'echo "$((x))"', "export x; bash -c 'echo $((x))'", "b=(1); echo ${#b[x]}",
    "echo $(( 1 + x * 2 ))",
]
# A value the environment or the line gives to a `declare -i` variable: evaluated as it is given.
INTEGER_BINDINGS = [
    "declare -i y; read y <<< 'a[$(payload)]'",
    "declare -i y; printf -v y %s 'a[$(payload)]'",
    "declare -i y; mapfile y < v.txt",
    "declare -i y; for y in 'a[$(payload)]'; do :; done",
    "x='a[$(payload)]'; declare -i y; : ${y:=$x}",
    "f() { local -i y=$1; }; f 'a[$(payload)]'",
]


def product(full: bool) -> list[str]:
    """Every value with every context (WISP_FULL_ARITH=1), else each context once with the literal value and
    with one built at run time, and each value with three contexts: every row and column of the product."""
    if full:
        return [f"{v}; {c}" for v in VALUES for c in CONTEXTS]
    lines = [f"{VALUES[k]}; {c}" for c in CONTEXTS for k in (0, 1 + CONTEXTS.index(c) % (len(VALUES) - 1))]
    lines += [f"{v}; {c}" for v in VALUES for c in ("echo $((x))", "[[ $x -gt 1 ]]", "echo ${!x}")]
    return list(dict.fromkeys(lines))


ATTACKS = product(os.environ.get("WISP_FULL_ARITH") == "1") + INTEGER_BINDINGS + [
    "x='3 a[$(payload)]'; echo $((x))",            # a number first does not stop it
    "x='1+a[$(payload)]'; echo $((x + 0))",
    "x=y; y='a[$(payload)]'; echo $((x))",         # a name's value is evaluated in turn
    "b=(1 'a[$(payload)]'); echo $((b[1]))",        # an array element's value
    "x='a[\"$(payload)\"]'; echo $((x))",
]

BENIGN = [
    "echo $((i+1))", "i=0; while (( i < 3 )); do i=$((i+1)); done", "for ((i=0; i<10; i++)); do echo $i; done",
    "n=$(wc -l < f.txt); [[ $n -gt 3 ]] && echo big", "[[ $# -gt 0 ]] || echo none", "[[ $? -ne 0 ]] && echo fail",
    "count=$(grep -c TODO src/a.py); echo $((count + 1))", "start=$(date +%s); make; echo $(( $(date +%s) - start ))",
    "for i in {1..5}; do echo $((i*i)); done", "for i in $(seq 1 5); do echo $((i*2)); done",
    "n=${#arr[@]}; echo $((n-1))", "echo ${s:0:3}", "echo ${PATH:0:10}", 'echo "${arr[0]}"',
    "echo ${arr[$((n-1))]}", "x=5; echo $((x*2))", "let i++", "((count++))", "(( n > 0 )) && echo positive",
    'n=$(cat f.txt); [ "$n" -gt 3 ] && echo big', 'read -r n < f.txt; [ "$n" -eq 1 ]', "declare -i n=5",
    "jobs=$(nproc); make -j$((jobs+1))", "c=$(git rev-list --count HEAD); echo $((c+1))",
    '[[ ${#name} -gt 3 ]] && echo long', 'for v in HOME USER; do echo "${!v}"; done', "[[ -v HOME ]] && echo set",
    'echo "$((RANDOM % 10))"', 'lines=$(wc -l < f.txt); echo "$((lines / 2))"', "printf -v pad '%05d' 42",
    'IFS=, read -r a b <<< "1,2"; echo $((a+b))', "sleep $((RANDOM % 3))",
    "head -n $(( $(wc -l < f.txt) / 2 )) f.txt", '[[ "$x" == "y" ]]', "x=$(( $(date +%s) / 60 ))",
    "n=$(ls | wc -l); echo $((n))", "uid=$(id -u); [[ $uid -eq 0 ]] && echo root",
          "s=$(stat -c %s f.txt); echo $((s/1024))",
    "v=${x//[!0-9]/}; echo $((v))", "for ((i=${#a[@]}-1; i>=0; i--)); do echo ${a[i]}; done", "echo $(( 16#ff ))",
    "rc=$?; exit $rc", "f() { return 1; }; f", "exit $?", "printf '%d\\n' 42", "a=(1 2 3); echo ${a[1]}",
]


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("arith"))


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    stubs = Stubs(tmp_path_factory.mktemp("arith-oracle"), extra=("payload",))
    (stubs.work / "v.txt").write_text("a[$(payload)]\n")
    return dict(zip(ATTACKS, stubs.run(ATTACKS)))


@pytest.mark.parametrize("line", ATTACKS)
def test_the_attack_runs_in_bash_and_is_asked(line, place, ran):
    assert ran[line]["payload"] >= 1, f"bash did not run the payload of {line!r}: not a member of the class"
    outcome = judge(line, place)
    assert outcome.reached >= H, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"
    assert RULES & {f.rule for f in outcome.line.findings}, f"{line!r}: no arith finding\n{describe(outcome)}"


@pytest.mark.parametrize("line", BENIGN)
def test_numbers_the_gate_can_prove_stay_quiet(line, place):
    outcome = judge(line, place)
    assert not RULES & {f.rule for f in outcome.line.findings}, f"{line!r}\n{describe(outcome)}"
    assert outcome.reached <= M, f"{line!r} reached {outcome.reached}\n{describe(outcome)}"


@pytest.mark.parametrize("line", [
    '[ "$x" -eq 1 ]', 'test "$x" -gt 1', "printf '%s' \"$x\"",
])
def test_what_bash_does_not_evaluate_is_not_a_context(line, place, tmp_path):
    """test/[ compare numbers without evaluating them (bash 5.2; checked here against the real bash)."""
    stubs = Stubs(tmp_path, extra=("payload",))
    full = "x='a[$(payload)]'; " + line
    assert stubs.run([full])[0]["payload"] == 0
    assert not RULES & {f.rule for f in judge(line, place).line.findings}


def test_the_environment_value_is_part_of_the_proof(tmp_path):
    """A variable the line does not bind is what the environment holds: a number is proven, text is not."""
    numbers = make_place(tmp_path / "a")
    numbers.env["n"] = "12"
    text = make_place(tmp_path / "b")
    text.env["n"] = "a[$(id)]"
    from wispsh import pipeline

    for place, want in ((numbers, False), (text, True)):
        place.ctx = pipeline.rules_context(str(place.project), place.env, place.config)
        found = RULES & {f.rule for f in judge("echo $((n + 1))", place).line.findings}
        assert bool(found) == want


def test_a_value_built_at_run_time_is_judged_where_it_is_stored(place):
    """The code in the subscript, once the line's own variables make it: judged as code (here a delete)."""
    for line in ('d=$; x="a[$d(rm -rf ~/c)]"', "printf -v x 'a[\\x24(rm -rf ~/c)]'",
                 "x=$(printf 'a[\\x24(rm -rf ~/c)]')"):
        outcome = judge(line + "; echo $((x))", place)
        assert any(f.rule.startswith("path.delete-tree.") for j in outcome.parts for f in j.verdict.findings), \
            describe(outcome)
