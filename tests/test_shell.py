"""shell.py: argv -> Invocation, checked word by word and against what the real bash does with the same argv."""
import shutil
import subprocess

import pytest

from wispsh import invocation as shell

BASH = shutil.which("bash")


def parse(*argv, tty=False):
    return shell.parse(list(argv), stdin_is_tty=tty)


# (argv after argv[0], expected line, expected args ($0 $1 ...), expected options passed on, login)
COMMAND_SHAPES = [
    (["-c", "echo hi"], "echo hi", (), (), False),
    (["-c", "-l", "echo hi"], "echo hi", (), ("-l",), True),                 # Claude Code
    (["-lc", "echo hi"], "echo hi", (), ("-l",), True),                      # Codex
    (["-l", "-c", "echo hi", "opencode", "/tmp"], "echo hi", ("opencode", "/tmp"), ("-l",), True),  # opencode
    (["-i", "-c", "echo hi"], "echo hi", (), ("-i",), False),                # Aider
    (["--norc", "--noprofile", "-c", "echo hi"], "echo hi", (), ("--norc", "--noprofile"), False),  # Copilot
    (["-ec", "false; echo no"], "false; echo no", (), ("-e",), False),
    (["-xc", "echo x"], "echo x", (), ("-x",), False),
    (["-cx", "echo x"], "echo x", (), ("-x",), False),
    (["-c", "-e", "-u", "echo a", "n"], "echo a", ("n",), ("-e", "-u"), False),
    (["-o", "pipefail", "-c", "echo p"], "echo p", (), ("-o", "pipefail"), False),
    (["+o", "posix", "-c", "echo p"], "echo p", (), ("+o", "posix"), False),
    (["-co", "pipefail", "echo p"], "echo p", (), ("-o", "pipefail"), False),
    (["-O", "extglob", "-c", "echo p"], "echo p", (), ("-O", "extglob"), False),
    (["--login", "-c", "echo p"], "echo p", (), ("--login",), True),
    (["-login", "-c", "echo p"], "echo p", (), ("-login",), True),           # bash takes one-dash long options
    (["--rcfile", "/dev/null", "-c", "echo p"], "echo p", (), ("--rcfile", "/dev/null"), False),
    (["-rcfile", "/dev/null", "-c", "echo p"], "echo p", (), ("-rcfile", "/dev/null"), False),
    (["-c", "--", "-x is the line"], "-x is the line", (), (), False),
    (["-c", "-", "echo dash", "zero"], "echo dash", ("zero",), (), False),
    (["-c", "+e", "echo p"], "echo p", (), ("+e",), False),
    (["-sc", "echo s", "a"], "echo s", ("a",), ("-s",), False),
]


@pytest.mark.parametrize("words,line,args,options,login", COMMAND_SHAPES)
def test_command_shapes(words, line, args, options, login):
    inv = parse("bash", *words)
    assert inv.mode == shell.COMMAND
    assert (inv.line, inv.args, inv.options, inv.login) == (line, args, options, login)
    assert inv.command_argv() == ("bash", *options, "-c", *(("--",) if line[:1] in ("-", "+") else ()), line, *args)


@pytest.mark.parametrize("words,line,args,options,login", COMMAND_SHAPES)
def test_the_rebuilt_argv_runs_what_bash_runs(words, line, args, options, login, tmp_path):
    """The real bash, given the original argv and our rebuilt one, runs the same thing (the line we gate)."""
    marker_line = f'{line}; echo "[$0|$*|$-]"'
    original = [w if w != line else marker_line for w in words]
    rebuilt = parse("bash", *original).command_argv()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    want = subprocess.run(["bash", *original], executable=BASH, capture_output=True, env=env,
                          stdin=subprocess.DEVNULL, cwd=tmp_path)
    got = subprocess.run(list(rebuilt), executable=BASH, capture_output=True, env=env,
                         stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert b"[" in got.stdout or got.returncode != 0


def test_script_mode():
    inv = parse("bash", "-e", "deploy.sh", "a", "b")
    assert (inv.mode, inv.script, inv.args, inv.options) == (shell.SCRIPT, "deploy.sh", ("a", "b"), ("-e",))
    assert inv.source_argv("/dev/fd/5") == ("bash", "-e", "-c", ". /dev/fd/5", "deploy.sh", "a", "b")


def test_script_after_double_dash_may_start_with_a_dash():
    inv = parse("sh", "--", "-weird.sh")
    assert (inv.mode, inv.script) == (shell.SCRIPT, "-weird.sh")


def test_stdin_and_interactive_modes():
    assert parse("bash").mode == shell.STDIN
    assert parse("bash", tty=True).mode == shell.INTERACTIVE
    inv = parse("bash", "-s", "a", "b")
    assert (inv.mode, inv.args) == (shell.STDIN, ("a", "b"))
    assert inv.source_argv("/dev/fd/4") == ("bash", "-c", ". /dev/fd/4", "bash", "a", "b")
    inv = parse("bash", "-es", "-o", "posix", "-s", "a")
    assert inv.options == ("-e", "-o", "posix")  # -s goes (the text reaches the shell another way); args stay
    inv = parse("bash", "-s", "a", tty=True)
    assert inv.mode == shell.INTERACTIVE and inv.passthrough_argv() == ("bash", "-s", "a")
    assert parse("bash", "-i", tty=True).passthrough_argv() == ("bash", "-i")


def test_a_line_never_means_stdin_even_when_stdin_is_not_a_terminal():
    assert parse("bash", "-c", "true", tty=False).mode == shell.COMMAND


@pytest.mark.parametrize("words", [["-c"], ["-lc"], ["-c", "--"], ["--version"], ["--help"], ["-version"]])
def test_runs_that_only_print_or_fail_pass_through_unchanged(words):
    inv = parse("bash", *words)
    assert inv.mode == shell.PASSTHROUGH
    assert inv.passthrough_argv() == ("bash", *words)


def test_unknown_options_are_passed_on_never_dropped():
    inv = parse("bash", "--frobnicate", "-Q", "-c", "echo x")
    assert inv.options == ("--frobnicate", "-Q")
    assert inv.command_argv() == ("bash", "--frobnicate", "-Q", "-c", "echo x")
    assert parse("zsh", "-l", "--no-rcs", "-c", "x").options == ("-l", "--no-rcs")


@pytest.mark.parametrize("argv0,called,real,dash", [
    ("bash", "bash", "bash", False),
    ("/home/u/.local/share/wispsh/shims/bash", "bash", "bash", False),
    ("-bash", "bash", "bash", True),
    ("-zsh", "zsh", "zsh", True),
    ("sh", "sh", "sh", False),
    ("dash", "dash", "dash", False),
    ("ksh", "ksh", "ksh", False),
    ("/usr/local/bin/wispsh", "wispsh", None, False),
    ("something-else", "something-else", None, False),
])
def test_the_name_picks_the_shell(argv0, called, real, dash):
    inv = parse(argv0, "-c", "true")
    assert (inv.called_as, inv.shell_name, inv.login) == (called, real, dash)
    assert inv.argv0 == argv0 and inv.command_argv()[0] == argv0  # the login dash is kept


def test_wispsh_own_options_only_before_sh_options_and_only_as_wispsh():
    inv = parse("wispsh", "--yes", "--explain", "--json", "-c", "ls")
    assert (inv.yes, inv.explain, inv.json, inv.line) == (True, True, True, "ls")
    assert inv.shell_words == ("-c", "ls")
    assert parse("wispsh", "--version", "-c", "rm -rf /").mode == shell.VERSION
    late = parse("wispsh", "-l", "--yes", "-c", "ls")  # after an sh option it is the shell's (bash refuses it)
    assert not late.yes and "--yes" in late.options
    shim = parse("bash", "--yes", "-c", "ls")        # a shim named bash behaves as bash
    assert not shim.yes and shim.options == ("--yes",)
    assert parse("bash", "--version").mode == shell.PASSTHROUGH


def test_usage_errors():
    with pytest.raises(shell.UsageError):
        parse("wispsh", "--json", "-c", "ls")
    with pytest.raises(shell.UsageError):
        parse("wispsh", "--explain", tty=True)
    with pytest.raises(shell.UsageError):
        shell.parse([], stdin_is_tty=False)
