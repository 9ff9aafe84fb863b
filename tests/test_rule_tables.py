"""Every row of every built-in program table carries examples, and they hold: each example line fires its row
(not_examples do not), each program example gets exactly its level, every effect kind is one the policy knows,
no id is used twice and no program is described twice. A row whose examples cannot fire it is a dead row."""
from __future__ import annotations

import pytest

from wispsh import keys
from wispsh.model import Level
from wispsh.parse.split import split_line
from wispsh.policy import effects, engine
from wispsh.policy.tables import PATH_VERBS
from wispsh.programs.table import Command, On, Row
from test_rules_support import make_place


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("tables"))


def all_programs():
    seen = {}
    for name, program in engine.all_programs().items():
        seen.setdefault(id(program), program)
    return list(seen.values())


def nodes(command: Command, prefix: str, seen=None):
    """(prefix, node) for a command and every verb under it; a node several verbs share, once."""
    seen = set() if seen is None else seen
    if id(command) in seen:
        return
    seen.add(id(command))
    yield prefix, command
    for word, child in command.verbs.items():
        yield from nodes(child, f"{prefix} {word}", seen)


def entries():
    """(program, prefix, what, item): every row, path effect and hook id, with where it sits. A verb table
    several programs share (npm's verbs under pnpm, yarn and bun) is checked once, with the first of them."""
    hooks_seen = set()
    nodes_seen = set()
    for program in all_programs():
        for prefix, node in nodes(program, program.name, nodes_seen):
            for row in node.rows:
                yield program, prefix, "row", row
            for effect in node.on:
                yield program, prefix, "on", effect
            for row in (node.default, node.no_verb):
                if row is not None:
                    yield program, prefix, "row", row
            for hook in (node.hook, node.after):
                if hook is not None and hook not in hooks_seen:
                    hooks_seen.add(hook)      # a hook several programs share is checked once
                    for rule, lines in getattr(hook, "emits", {}).items():
                        yield program, prefix, "hook", (rule, tuple(lines), hook)


def run(line: str, program, place):
    """The Cmd of the first part of `line` keyed to `program`."""
    for part in split_line(line).parts:
        key = keys.key_for(part)
        name = key.program if key.program else (key.command[0] if key.command else None)
        if name in program.names:
            return engine.analyse(part, key, place.ctx)
    raise AssertionError(f"{line!r} has no part run by {program.name}")


def fired_anywhere(line: str, place) -> set:
    """What fired for any part of `line` (a hook several programs share, or one reached by delegation)."""
    fired = set()
    for part in split_line(line).parts:
        fired |= engine.analyse(part, keys.key_for(part), place.ctx).fired
    return fired


ENTRIES = list(entries())


def _id(entry):
    program, prefix, what, item = entry
    return item[0] if what == "hook" else item.id


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_every_row_has_examples_that_fire_it(entry, place):
    program, prefix, what, item = entry
    if what == "hook":
        rule, lines, _ = item
        assert lines, f"{prefix}: the hook's {rule} has no example"
        for line in lines:
            fired = fired_anywhere(line, place)
            assert rule in fired, f"{rule}: its example {line!r} does not fire it (fired: {sorted(fired)})"
        return
    else:
        rule, lines, not_lines = item.id, item.examples, item.not_examples
        assert lines, f"{prefix}: {rule} has no example"
    for line in lines:
        fired = run(line, program, place).fired
        assert rule in fired, f"{rule}: its example {line!r} does not fire it (fired: {sorted(fired)})"
    for line in not_lines:
        fired = run(line, program, place).fired
        assert rule not in fired, f"{rule}: {line!r} must not fire it"


PROGRAM_EXAMPLES = [(program, line, level) for program in all_programs()
                    for _, node in nodes(program, program.name) for line, level in node.examples.items()]


@pytest.mark.parametrize("program,line,level", PROGRAM_EXAMPLES, ids=[e[1][:60] for e in PROGRAM_EXAMPLES])
def test_program_examples_get_their_level(program, line, level, place):
    cmd = run(line, program, place)
    got = engine.verdict_of(cmd).level
    assert got == Level.parse(level), f"{line!r}: {got}, want {level} ({[f.reason for f in cmd.found]})"


def test_every_effect_kind_is_the_policys():
    for program, prefix, what, item in ENTRIES:
        if what == "row":
            assert item.does in effects.EFFECTS, f"{item.id}: unknown effect kind {item.does!r}"
        if what == "on":
            assert item.action in PATH_VERBS, item.id


def test_no_rule_id_is_used_twice():
    # one row object shared by two commands (`git log` and `git diff` write --output alike) is one rule
    owners: dict[str, tuple] = {}
    for program, prefix, what, item in ENTRIES:
        rule = _id((program, prefix, what, item))
        owner = (prefix, id(item)) if what != "hook" else (prefix, None)
        first = owners.setdefault(rule, owner)
        same = first == owner or first[1] == owner[1] is not None or (None in (first[1], owner[1])
                                                                      and first[0] == prefix)
        assert same, f"{rule} is used by {first[0]} and {prefix}"


def test_a_program_described_twice_is_an_error():
    from wispsh.programs.table import Program, programs
    with pytest.raises(ValueError, match="described twice"):
        programs(Program("x"), Program("y", aliases=("x",)))


def test_a_dead_row_fails(place):
    # a row behind a `stop` row that always fires can never apply: its example shows it
    from wispsh.programs.table import Program, When
    from wispsh.policy import tables
    dead = Row("t.dead", "change", "never", examples=("t x",))
    program = Program("t", rows=(Row("t.stop", "nothing", "stops", stop=True), dead))
    cmd = run("rm x", engine.program("rm"), place)
    cmd.fired.clear()
    tables.run(cmd, program, ["x"], "t")
    assert "t.dead" not in cmd.fired and "t.stop" in cmd.fired
    assert When(flag=("f",)).describe() == "flag f"


@pytest.mark.parametrize("words,fires", [
    (["--network=host", "x"], True), (["--net", "host", "x"], True), (["--network", "bridge", "x"], False),
    (["--network", "bridge", "--net=host", "x"], True), (["x", "--network=host"], True),
    (["--mount", "src=/root/.ssh", "x"], False), (["--key", "~/.ssh/id_rsa", "x"], True),
    (["--key", "./k.pem.example", "x"], False), (["--tag", "v2-beta", "x"], True), (["--tag", "beta", "x"], False),
])
def test_a_row_tests_an_options_value(place, words, fires):
    # equals (one of), starts, contains and a place class, on any value the named options were given
    from wispsh.policy import tables
    from wispsh.programs.table import Grammar, Program, When
    from wispsh.vocab import places
    program = Program("t", grammar=Grammar(long_values=("network", "net", "mount", "key", "tag")), rows=(
        Row("t.host", "expose", "{option}={value}", When(option=("network", "net"), equals=("host", "container"))),
        Row("t.key", "secret", "reads {value}", When(option=("key",), place=places.SECRET_CLASSES)),
        Row("t.tag", "change", "tags {value}", When(option=("tag",), starts=("v",), contains=("-beta",)))))
    cmd = run("rm x", engine.program("rm"), place)
    cmd.fired.clear()
    cmd.found.clear()
    tables.run(cmd, program, words, "t")
    assert bool(cmd.fired) == fires, cmd.fired
    if "t.host" in cmd.fired:
        assert cmd.found[0].reason in ("network=host", "net=host")
    with pytest.raises(ValueError, match="names its options"):
        When(equals=("host",))
    assert When(option=("net",), equals=("host",)).describe() == "option net equals host"


def test_the_index_is_fresh():
    # the engine loads only the families a line's programs need, by programs/index.py; it must say what the
    # families say (regenerate with `python -m wispsh.programs.index`)
    from wispsh.programs import index
    with open(index.__file__, encoding="utf-8") as fh:
        assert fh.read() == index.generate(), "programs/index.py is stale: python -m wispsh.programs.index"


STALE_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from wispsh import pipeline, config
from wispsh.programs import index
plan = pipeline.judge(sys.argv[2], config.Config(path='/nonexistent/c.json'), '/tmp', {})
print(plan.verdict, index._current is not None, 'wispsh.programs.cloud' in sys.modules)
"""


def test_a_program_the_index_does_not_list_yet_is_still_known(tmp_path):
    # forgetting `python -m wispsh.programs.index` must not make a new program unknown: a name the index does
    # not know is looked up in the families as they are now (once a process, then from a cache)
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import wispsh
    copy = tmp_path / "wispsh"
    shutil.copytree(Path(wispsh.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.bundle"))
    (tmp_path / "Resources").symlink_to(Path(wispsh.__file__).parent.parent / "Resources")
    (copy / "programs" / "extra.py").write_text(
        "from wispsh.programs.table import Program, Row, programs\n"
        "PROGRAMS = programs(Program('brandnew', rows=(Row('brandnew.go', 'destroy', 'wipes it all'),)))\n")

    def run(line):
        done = subprocess.run([sys.executable, "-c", STALE_PROBE, str(tmp_path), line], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert run("brandnew") == ["ask", "True", "True"]           # made from the families: all imported once
    assert run("brandnew") == ["ask", "True", "False"]          # then from the cache: none imported for it
    assert run("ls -la") == ["run", "False", "False"]           # a name the index lists is not checked at all
    (copy / "programs" / "extra.py").write_text("PROGRAMS = {}\n")
    assert run("brandnew")[1:] == ["True", "True"]               # a source changed: made again


def test_a_line_loads_only_the_families_it_needs():
    import subprocess
    import sys
    probe = ("import sys; from wispsh import pipeline, config; "
             "pipeline.judge('rm -rf build', config.Config(path='/nonexistent/c.json'), '/tmp', {}); "
             "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('wispsh.programs.')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    loaded = set(eval(out))
    assert "files" in loaded and not loaded & {"cloud", "containers", "databases", "network", "packages"}, loaded
