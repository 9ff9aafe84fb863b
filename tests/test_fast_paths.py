"""The hot path's shortcuts give exactly what the general code gives (they exist only for speed).

Each shortcut in the splitter and the rules skips general work when a cheap test says it has nothing to do;
these properties compare the shortcut with the general code on generated input, so a shortcut that drifts
from what it stands for fails here, not in a corpus that happens to miss the case.
"""
from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import scaled

from wispsh.parse import words
from wispsh.policy import places
from wispsh.programs import wrappers

WORD_PIECES = ["'", '"', "a", "b", " ", "$", "`", "\\", "\n", "x.y", "{", "}", "*", "$(", ")", "$x"]
PATH_PIECES = ["a", "b", ".", "..", "/", "-", "x.py", ".env", "~", "*", "src"]


@settings(max_examples=scaled(800, 3000), deadline=None)
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=8))
def test_one_quoted_word_reads_as_the_decoder_reads_it(pieces):
    word = "".join(pieces)
    inner = words._one_quoted(word)
    if inner is None:
        return
    segments = words.decode(word)
    assert all(s.kind == words.LITERAL for s in segments)
    assert "".join(s.value for s in segments) == inner
    assert words.unquote(word) == inner and words.read_away(word) == inner


@settings(max_examples=scaled(600, 2000), deadline=None)
@given(st.lists(st.sampled_from(PATH_PIECES), min_size=1, max_size=6),
       st.sampled_from(["/", "/home/u/p", "/home/u/p/", "/home/u/./p", "/tmp"]))
def test_a_plain_relative_name_lands_where_normpath_says(pieces, cwd):
    from wispsh.policy.context import Context

    text = "".join(pieces)
    ctx = Context.for_process(cwd="/home/u/p", env={"HOME": "/home/u"})    # (nothing of it on disk: no links)
    expanded = places.expand_tilde(text, ctx, cwd)
    if any(c in expanded for c in "*?[") or places.UNKNOWN in expanded:
        return      # globs and text known only at run time take other roads
    want = posixpath.normpath(posixpath.join(cwd, expanded))
    if want.startswith("//"):
        want = "/" + want.lstrip("/")
    assert places._place(text, ctx, cwd).path == want


@settings(max_examples=scaled(600, 2000), deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["ls", "-l", "x", "A=1", "true", "grep", "/usr/bin/head",
                                                      "./run", "'rm'", "\\cat"])), max_size=5))
def test_a_command_with_no_wrapper_is_its_own_argv(argv):
    if not argv or wrappers.wrapper_grammar(argv[0]) is not None:
        return
    got = wrappers.unwrap(argv)
    assert got.command == tuple(argv) and got.wrappers == () and got.env == () and not got.runs_nothing
    assert not got.privileged and got.code is None and got.replace is None


def test_an_empty_argv_runs_nothing():
    assert wrappers.unwrap([]).runs_nothing


def test_the_gates_own_roots_are_measured_as_before():
    from wispsh.policy.context import Context

    ctx = Context.for_process(cwd="/home/u/p", env={"HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"})
    for path, cls in [(ctx.wisp_home, places.WISP), (ctx.wisp_home + "/grants.key", places.WISP_KEY),
                      (ctx.wisp_home + "/x/y", places.WISP), ("/run/user/7/wisp", places.WISP),
                      (places.GATE_PACKAGE + "/policy/places.py", places.WISP), (ctx.wisp_home + "x", places.DOTFILE),
                      ("/home/u/p/src/a.py", places.PROJECT), ("/home/u/p", places.PROJECT_ROOT),
                      ("/home/u", places.HOME), ("/home", places.ANCESTOR), ("/", places.ROOT)]:
        assert places.classify(path, ctx) == cls, path
    everything = Context.for_process(cwd="/srv", env={"HOME": "/home/u", "WISP_HOME": "/"})
    assert places.classify("/etc/passwd", everything) == places.WISP      # a wisp home at / owns everything


@settings(max_examples=scaled(800, 3000), deadline=None)
@given(st.text(alphabet="abA.-1", min_size=1, max_size=3), st.text(alphabet="abA.-_/ \n1", max_size=12))
def test_a_name_in_the_projects_config_is_found_as_the_pattern_found_it(word, text):
    import re

    from wispsh.programs import sources

    pattern = re.compile(r"(?<![A-Za-z0-9._-])" + re.escape(word) + r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9])", re.I)
    lowered, needle = text.lower(), word.lower()
    found, at = False, lowered.find(needle)
    while at >= 0 and not found:
        found = sources._whole_name(lowered, at, at + len(needle))
        at = lowered.find(needle, at + 1)
    assert found == (pattern.search(text) is not None)


def test_every_record_lists_its_fields_in_the_order_of_its_init():
    """replace() builds a record positionally from FIELDS: a field out of order swaps two values silently."""
    import importlib
    import inspect
    import pkgutil

    import wispsh
    from wispsh.support.record import Record

    for info in pkgutil.walk_packages(wispsh.__path__, "wispsh."):
        importlib.import_module(info.name)
    records, todo = [], list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        records.append(cls)
        todo.extend(cls.__subclasses__())
    assert len(records) > 20
    for cls in records:
        if "__init__" not in vars(cls):
            continue        # (inherits its parent's, checked there)
        parameters = list(inspect.signature(cls.__init__).parameters)[1:]
        assert tuple(parameters[:len(cls.FIELDS)]) == tuple(cls.FIELDS), cls.__name__


# ---------------------------------------------------------------- checks written without `re`
# Importing `re` is ~3 ms of a cold start (its compiler and the flag enum): the checks below replaced a
# pattern (or guard one with a needle) so that common lines (`git status`, `mkdir -p`, `python -m pytest`,
# `test -d`, `printf x`) import none. Each is compared with the pattern it stands for.

VERB_PIECES = ["status", "a", "Z", "0", "_", ".", ":", "@", "%", "+", ",", "-", "/", "=", "$", "*", "\n", " ", "é",
               "\u212a", "\t"]


@settings(max_examples=scaled(1500, 6000), deadline=None)
@given(st.lists(st.sampled_from(VERB_PIECES), max_size=5))
def test_a_verb_is_the_word_the_verb_pattern_matched(pieces):
    import re

    from wispsh import keys

    word = "".join(pieces)
    assert keys._is_verb(word) == bool(re.match(r"^[A-Za-z0-9_][A-Za-z0-9_.:@%+,-]*$", word))


@settings(max_examples=scaled(1500, 6000), deadline=None)
@given(st.lists(st.sampled_from(["python", "pypy", "py", "thon", "3", "1", ".", "x", "-", "\n", " ", "\u0663"]),
                max_size=4))
def test_a_python_name_is_the_name_the_pattern_matched(pieces):
    import re

    from wispsh import keys

    name = "".join(pieces)
    assert keys._python_name(name) == bool(re.match(r"^(python|pypy)[0-9.]*$", name))


def test_plain_text_is_what_the_printable_ascii_pattern_matched():
    import re

    from wispsh.support import text

    plain = re.compile(r"[ -~]*")
    for code in range(0x110000):         # both tests are of each character alone: every character decides
        ch = chr(code)
        assert (ch.isascii() and ch.isprintable()) == bool(plain.fullmatch(ch)), hex(code)
    assert text.shown("git status --short") == "git status --short"
    assert text.shown("a\x1bb\x7f") == "a\\x1bb\\x7f"


TEXT_PIECES = st.one_of(st.sampled_from(["a", "…", "\x7f", "\x9f", "\xa0", "\u2028", "\u2029", "\ud800", "\udcff",
                                          "\udfff", "\ue000", "é", "\u212a", '"', "\\", "\n"]),
                        st.characters(min_codepoint=0x7E, max_codepoint=0xE001), st.text(max_size=3))


@settings(max_examples=scaled(1500, 6000), deadline=None)
@given(st.lists(TEXT_PIECES, max_size=6))
def test_the_json_and_byte_checks_answer_as_their_patterns_do(pieces):
    import re

    from wispsh.support import text as support_text

    value = "".join(pieces)
    assert support_text.has_bytes(value) == bool(re.search("[\ud800-\udfff]", value))
    assert support_text._safe_json(value) == re.sub("[\x7f-\x9f\u2028\u2029\ud800-\udfff]",
                                                    support_text._escape, value)


REDACT_NAMES = ["password", "PASSWD", "pass", "Token", "secret", "api-key", "APIKEY", "access-token", "auth-token",
                "stat", "oneline", "pas", "tok", "MYSQL_PWD", "api_KEY", "\u212aey", "ſecret", "p", "authorization",
                "pa…ss", "…token", "\u212aey…"]     # … is what a cut text ends with: its needles still hold
REDACT_PROGRAMS = ["", "git log ", "mysql ", "mariadb-dump ", "mkdir ", "sshpass ", "curl https://u:"]


@settings(max_examples=scaled(2000, 8000), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(REDACT_PROGRAMS), st.sampled_from(["--", "-", ""]),
                          st.sampled_from(REDACT_NAMES), st.sampled_from(["=", " ", "", ": "]),
                          st.sampled_from(["v", "'a b'", '"x"', "@h", ""])), min_size=1, max_size=3))
def test_the_redactions_needles_skip_only_text_their_pattern_leaves_alone(segments):
    from wispsh.decide import audit

    text = " ".join("".join(segment) for segment in segments)
    want = text
    for _needles, pattern, replacement in audit.REDACTIONS:     # every pattern run, no needle asked
        want = pattern.sub(replacement, want)
    if audit._MYSQL_FAMILY.search(want):
        want = audit._ATTACHED_P.sub(rf"\g<1>{audit.HIDDEN}", want)
    assert audit.redact(text) == want


_PLACE: list = []


def _place():
    if not _PLACE:
        import tempfile
        from pathlib import Path

        from test_rules_support import make_place

        _PLACE.append(make_place(Path(tempfile.mkdtemp(prefix="fast-paths-"))))
    return _PLACE[0]


@settings(max_examples=scaled(600, 2000), deadline=None)
@given(st.sampled_from(["test", "read -r", "declare", "let", "printf -v"]),
       st.lists(st.sampled_from(["[", "]", "$(", "`", "a", "x=", "$", "(", ")", " ", "1"]), max_size=6))
def test_a_subscript_that_runs_code_is_found_as_the_pattern_found_it(builtin, pieces):
    import re

    from test_rules_support import judge

    arg = "".join(pieces)
    rules = {f.rule for j in judge(f"{builtin} '{arg}' x", _place()).parts for f in j.verdict.findings}
    runs = "$(" in arg or "`" in arg
    want = bool(re.search(r"\[[^\]]*(\$\(|`)", arg)) or builtin == "let" and runs
    assert ("builtin.subscript" in rules) == want, (builtin, arg, rules)


@settings(max_examples=scaled(800, 3000), deadline=None)
@given(st.lists(st.sampled_from([" ", "\t", "\r", "\n", "\v", "a", ";", " " * 30, "\n" * 20, "\t" * 40]),
                max_size=8))
def test_blank_padding_is_found_as_the_pattern_found_it(pieces):
    from wispsh.policy import line

    text = "".join(pieces)
    if text.count(";") >= 16:
        return          # the pattern is asked then, whatever the blanks
    shortcut = sum(map(text.count, " \t\r\n")) >= 64 and line._BLANK_RUN in text.translate(line._BLANKS)
    assert shortcut == bool(line.PAD_SPACE.search(text))


def test_a_printf_format_without_a_conversion_evaluates_nothing():
    from wispsh.policy import arith

    assert arith._printf_numbers_args(("printf", "x", "1"), ("printf", "x", "1")) == []
    assert arith._printf_numbers_args(("printf", "%d", "$x"), ("printf", "%d", "$x")) != []
    assert arith._printf_numbers_args(("printf", "-v", "v", "%x", "y"), ("printf", "-v", "v", "%x", "y")) != []
