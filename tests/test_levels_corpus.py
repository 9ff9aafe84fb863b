"""The labelled corpora: the shared sample and every tests/corpus/*.jsonl, judged end to end.

Done-when (issues 5, 13): every attack reaches its min_level (every `dangerous` one dangerous or denied); at
most 2% of benign cases (category "benign") exceed their max_level. "Reached" is the max of the part levels,
the line level and a deny. A case may name the rule it expects (`rule`): some finding of the line carries
that id. Per-category figures and every miss are printed (pytest -s, or on failure).
"""
from __future__ import annotations

import glob
import json
import os
from collections import defaultdict

import pytest

from wispsh.model import Level
from test_rules_support import describe, here, judge, make_place

SAMPLE = "/work/shared/corpus/levels-sample.jsonl"
SAMPLE_IN_TREE = os.path.join(os.path.dirname(here()), "..", "shared", "corpus", "levels-sample.jsonl")


def corpus_files() -> list[str]:
    found = []
    for candidate in (SAMPLE, os.path.normpath(SAMPLE_IN_TREE)):
        if os.path.exists(candidate):
            found.append(candidate)
            break
    found.extend(sorted(glob.glob(os.path.join(here(), "corpus", "*.jsonl"))))
    return found


def load_cases() -> list[dict]:
    cases = []
    for path in corpus_files():
        with open(path, encoding="utf-8") as fh:
            for number, raw in enumerate(fh, 1):
                if raw.strip():
                    case = json.loads(raw)
                    case["_where"] = f"{os.path.basename(path)}:{number}"
                    cases.append(case)
    return cases


def test_corpus_meets_the_thresholds(tmp_path, capsys):
    cases = load_cases()
    assert len(cases) >= 122, f"the sample corpus was not found (looked in {corpus_files()})"
    place = make_place(tmp_path)
    per_category = defaultdict(lambda: [0, 0])          # category -> [ok, total]
    misses = []
    attacks = attacks_ok = benign = benign_over = 0
    dangerous_missed = []
    for case in cases:
        outcome = judge(case["line"], place)
        category = case.get("category", "?")
        if category == "benign":
            benign += 1
            ok = "max_level" not in case or outcome.reached <= Level.parse(case["max_level"])
            benign_over += not ok
        else:
            attacks += 1
            want = Level.parse(case["min_level"])
            ok = outcome.reached >= want
            attacks_ok += ok
            if want == Level.DANGEROUS and not ok:
                dangerous_missed.append(case)
        rule = case.get("rule")
        if rule is not None and ok:
            ids = {f.rule for j in outcome.parts for f in j.verdict.findings} | {f.rule for f in outcome.line.findings}
            ok = rule in ids
            attacks_ok -= not ok and category != "benign"
        per_category[category][0] += ok
        per_category[category][1] += 1
        if not ok:
            misses.append(f"{case['_where']} [{category}] {case['line']!r}: reached {outcome.reached}, want "
                          f"{case.get('min_level') if category != 'benign' else '<= ' + case.get('max_level', '?')}"
                          + (f" by rule {rule}" if rule else "") + f"\n{describe(outcome)}")
    report = [f"{len(cases)} cases from {', '.join(os.path.basename(p) for p in corpus_files())}"]
    for category in sorted(per_category):
        ok, total = per_category[category]
        report.append(f"  {category:14} {ok:4}/{total:<4} {100.0 * ok / total:6.1f}%")
    attack_rate = attacks_ok / attacks if attacks else 1.0
    benign_rate = benign_over / benign if benign else 0.0
    report.append(f"attacks reaching min_level: {attacks_ok}/{attacks} = {100 * attack_rate:.1f}% (need 100%)")
    report.append(f"benign above max_level: {benign_over}/{benign} = {100 * benign_rate:.1f}% (need <= 2%)")
    report.append(f"dangerous attacks not dangerous: {len(dangerous_missed)} (need 0)")
    report.extend(["misses:"] + misses if misses else ["misses: none"])
    text = "\n".join(report)
    with capsys.disabled():
        print("\n" + text)
    assert not dangerous_missed, text
    assert attacks_ok == attacks, text
    assert benign_rate <= 0.02, text


@pytest.mark.parametrize("field", ["line", "category"])
def test_every_case_is_well_formed(field):
    for case in load_cases():
        assert isinstance(case.get(field), str), case
        assert ("min_level" in case) or ("max_level" in case), case
        for key in ("min_level", "max_level"):
            if key in case:
                Level.parse(case[key])
