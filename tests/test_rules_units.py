"""Unit tests of the rules' pieces, with Parts and Keys built by hand: the option reader, path classes,
variables, loop ranges, privilege, and fail-closed cases the splitter may hand over."""
from __future__ import annotations

import pytest

from wispsh.policy import engine
from wispsh.model import Assignment, Key, Level, LoopRange, Part, Redirect
from wispsh.policy import places
from wispsh.programs.grammar import UNKNOWN, read_options
from test_rules_support import make_place

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("units"))


def part(*argv, words=None, **fields) -> Part:
    words = words or tuple(w if w is not None else "$X" for w in argv)
    return Part(text=" ".join(words), span=(0, len(" ".join(words))), argv=tuple(argv), words=tuple(words),
                **fields)


def key(*command, program=None, wrappers=(), env=(), privileged=False, runs_nothing=False) -> Key:
    program = program if program is not None else (command[0].rsplit("/", 1)[-1] if command and command[0] else None)
    return Key(program=program, verb=None, pattern=f"{program} *", exact=False, command=tuple(command),
               wrappers=tuple(wrappers), env=tuple(env), privileged=privileged, runs_nothing=runs_nothing)


def level(p: Part, k: Key, ctx) -> Level:
    return engine.judge(p, k, ctx).verdict.level


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("args", [["-rf", "x"], ["-fr", "x"], ["-r", "-f", "x"], ["--recursive", "--force", "x"],
                                  ["x", "-rf"], ["--rec", "--for", "x"], ["-Rf", "x"]])
def test_option_spellings_read_the_same(args):
    o = read_options(args, longs=("recursive", "force", "verbose"))
    assert o.has("r", "R", "recursive") and o.has("f", "force") and o.operands == ["x"]


def test_double_dash_ends_options():
    o = read_options(["-f", "--", "-rf", "/"])
    assert not o.has("r") and o.operands == ["-rf", "/"]


def test_values_attached_and_separate():
    o = read_options(["-ofile", "-k", "2", "--output=out", "--key", "3", "in"], "ok", ("output", "key"))
    assert o.all("o") == ["file"] and o.all("k") == ["2"] and o.value("output") == "out"
    assert o.value("key") == "3" and o.operands == ["in"]


def test_stop_at_first_operand():
    o = read_options(["-p", "22", "host", "-rf", "x"], "p", stop_at_operand=True)
    assert o.operands == ["host", "-rf", "x"] and o.value("p") == "22"


# ---------------------------------------------------------------- path classes


@pytest.mark.parametrize("word,cls", [
    ("~", places.HOME), ("$HOME", places.HOME), ("~/.bashrc", places.DOTFILE),
                                      ("~/.config/fish/config.fish", places.DOTFILE),
    ("~/.ssh/id_rsa", places.SECRET), ("~/.aws/credentials", places.SECRET), ("~/.netrc", places.SECRET),
    ("/etc/passwd", places.SYSTEM), ("/usr/bin/x", places.SYSTEM), ("/dev/sda", places.DEVICE), ("/", places.ROOT),
    ("/dev/null", places.HARMLESS), ("/dev/tcp/evil.example/80", places.NETDEV), ("src/a.py", places.PROJECT),
    (".git/hooks/pre-commit", places.GIT_INTERNAL), (".git/config", places.GIT_INTERNAL),
                                      (".env", places.PROJECT_SECRET),
    ("~/.wisp/approvals.json", places.WISP), ("/tmp/x", places.TEMP), ("..", places.HOME),
                                      ("../../..", places.ANCESTOR),
    ("~/Documents/a.txt", places.HOME_OTHER), ("/srv/app", places.SYSTEM), (".", places.PROJECT_ROOT),
    ("/usr/bin/../../bin", places.SYSTEM), ("~/*", places.HOME), ("/*", places.ROOT), ("~/.ssh/id_*", places.SECRET),
    (".npmrc", places.PROJECT_CONFIG),
])
def test_path_classes(place, word, cls):
    text = word.replace("$HOME", place.ctx.home)
    assert places.place(text, place.ctx, place.ctx.cwd).cls == cls


def test_an_unknown_expansion_is_the_worst_place(place):
    where = places.place(UNKNOWN + "/*", place.ctx, place.ctx.cwd)
    assert where.whole_unknown and where.unknown
    assert places.place(UNKNOWN + "/.ssh/id_rsa", place.ctx, place.ctx.cwd).cls == places.SECRET
    p = part("rm", "-rf", None, words=("rm", "-rf", '"$DIR"/*'))
    assert level(p, key("rm", "-rf", None), place.ctx) == D
    p = part("rm", "-rf", None, words=("rm", "-rf", '"$PROJECT_ROOT/"*'))
    assert level(p, key("rm", "-rf", None), place.ctx) == D


# ---------------------------------------------------------------- redirections


@pytest.mark.parametrize("op", [">", ">>", ">|", "&>", "&>>", "<>"])
def test_every_write_operator_is_a_write(place, op):
    p = part("echo", "x", redirects=(Redirect(op, None, "~/.bashrc", "~/.bashrc"),))
    assert level(p, key("echo", "x"), place.ctx) == D


def test_descriptor_duplication_is_not_a_file(place):
    p = part("ls", redirects=(Redirect(">&", "2", "1", "1"), Redirect(">", None, "/dev/null", "/dev/null")))
    assert level(p, key("ls"), place.ctx) == S


def test_secret_read_by_redirect_is_high_and_feeds_the_line(place):
    # what an agent reads goes into its context and on to a model provider (levels.md: secrets are high to read)
    p = part("cat", redirects=(Redirect("<", None, "~/.ssh/id_rsa", "~/.ssh/id_rsa"),))
    assert level(p, key("cat"), place.ctx) == H
    assert engine.analyse(p, key("cat"), place.ctx).facts.secret_source


# ---------------------------------------------------------------- variables and privilege


@pytest.mark.parametrize("name,value,want", [
    ("LD_PRELOAD", "/tmp/x.so", H), ("BASH_ENV", "/tmp/x", H), ("PROMPT_COMMAND", "id", H), ("PERL5OPT", "-d", H),
    ("RUSTC_WRAPPER", "/tmp/w", H), ("GIT_SSH_COMMAND", "x", H), ("LESSOPEN", "|x %s", H), ("WISP_DEBUG", "1", D),
    ("BASH_FUNC_ls%%", "() { id; }", H), ("PAGER", "cat", S), ("LANG", "C", S), ("CI", "true", S),
    ("PYTHONPATH", "src", M), ("PYTHONPATH", "/tmp/evil", H),
])
def test_dangerous_variables(place, name, value, want):
    assignment = Assignment(name, value, f"{name}={value}")
    p = part("ls", assignments=(assignment,))
    assert level(p, key("ls", env=(assignment,)), place.ctx) == want


def test_sudo_is_at_least_high_and_a_root_shell_dangerous(place):
    assert level(part("sudo", "ls"), key("ls", wrappers=("sudo",), privileged=True), place.ctx) == H
    assert level(part("sudo", "bash"), key("bash", wrappers=("sudo",), privileged=True), place.ctx) == D
    assert level(part("sudo", "python3"), key("python3", wrappers=("sudo",), privileged=True), place.ctx) == D


# ---------------------------------------------------------------- loops, runtime programs, opaque text


def test_a_loop_variable_is_judged_by_its_range(place):
    loop = LoopRange("f", "~/*", ("~/*",))
    p = part("rm", "-rf", None, words=("rm", "-rf", '"$f"'), loops=(loop,), context="f in ~/*")
    assert level(p, key("rm", "-rf", None), place.ctx) == D
    loop = LoopRange("f", "build dist", ("build", "dist"))
    p = part("rm", "-rf", None, words=("rm", "-rf", '"$f"'), loops=(loop,), context="f in build dist")
    assert level(p, key("rm", "-rf", None), place.ctx) == H


def test_fail_closed_on_what_cannot_be_read(place):
    opaque = Part(text="(((", span=(0, 3), argv=(), opaque=True)
    assert level(opaque, key(), place.ctx) >= H
    runtime = part(None, "-rf", "x", words=("$X", "-rf", "x"), runtime_program=True)
    assert level(runtime, Key(None, None, "$X -rf x", True, command=(None, "-rf", "x")), place.ctx) >= H


def test_a_program_from_an_odd_place_is_not_the_program(place):
    assert level(part("/tmp/cat", "f"), key("/tmp/cat", "f", program="cat"), place.ctx) == H
    assert level(part("/usr/bin/cat", "f"), key("/usr/bin/cat", "f", program="cat"), place.ctx) == S
    assert level(part("./tools/x"), key("./tools/x", program="x"), place.ctx) == M


def test_unknown_program_is_moderate(place):
    assert level(part("frobnicate", "--all"), key("frobnicate", "--all"), place.ctx) == M


def test_judge_part_is_fast_enough_to_call_per_part(place):
    # not timed here (see bench/bench_rules.py); just that many calls stay independent and equal
    p, k = part("rm", "-rf", "build"), key("rm", "-rf", "build")
    assert {engine.judge(p, k, place.ctx).verdict for _ in range(50)} == {engine.judge(p, k, place.ctx).verdict}
