"""Every reason the gate gives names its rule (issue 12): on every line of the corpus, each reason of every part
and of the whole line in `--explain --json` (the same dict, built in process) carries a stable rule id."""
from __future__ import annotations

import json
import re

from test_levels_corpus import load_cases
from test_rules_support import make_place
from wispsh import pipeline
from wispsh.explain import plan_dict

RULE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*(\.[A-Za-z0-9][A-Za-z0-9_+-]*)+")   # env.PERL5OPT: a variable by name


def test_every_reason_on_every_corpus_line_has_a_rule_id(tmp_path):
    place = make_place(tmp_path)
    cases = load_cases()
    assert len(cases) > 1500
    missing, seen = [], set()
    for case in cases:
        plan = pipeline.judge(case["line"], place.config, str(place.project), place.env)
        data = json.loads(json.dumps(plan_dict(plan)))
        reasons = list(data["line_reasons"]) + [r for part in data["parts"] for r in part["reasons"]]
        for reason in reasons:
            rule = reason.get("rule")
            if not isinstance(rule, str) or not RULE_ID.fullmatch(rule):
                missing.append((case["_where"], reason))
            else:
                seen.add(rule)
    assert not missing, missing[:20]
    assert len(seen) > 300, len(seen)        # the corpus reaches the tables' rows, not one catch-all id
