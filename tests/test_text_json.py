"""support/text.dumps_line writes the audit's events without the json package: it must be json, byte for byte."""
import json

from hypothesis import given, settings, strategies as st

from tiers import scaled

from wispsh.support.text import dumps, dumps_line

# every kind of character an event can hold: controls, quotes, lone surrogates (undecodable bytes), separators
CHARS = st.characters(codec=None, categories=None) | st.sampled_from('"\\\x00\x1f\x7f\x85\u2028\u2029\udcff\ud800')
TEXT = st.text(CHARS, max_size=40) | st.text(CHARS, min_size=4090, max_size=4200)
SCALARS = (TEXT | st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(TEXT | st.integers() | st.booleans() | st.none(), inner, max_size=4),
                      max_leaves=12)


@settings(max_examples=scaled(60, 400), deadline=None)
@given(VALUES)
def test_dumps_line_is_json_dumps_byte_for_byte(value):
    assert dumps_line(value) == dumps(value, default=str)


def test_what_json_cannot_hold_goes_through_default():
    class Thing:
        def __str__(self):
            return 'a "thing"\n'
    value = {"x": Thing(), "y": (1.5, None), 3: {"z"}}
    assert dumps_line(value) == dumps(value, default=str)
    assert json.loads(dumps_line({"x": Thing()})) == {"x": 'a "thing"\n'}
