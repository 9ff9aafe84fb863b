"""The differential suite against the real bash and dash (tests/differential.py): a fixed sample here, every
time; the whole set (3,342 cases) with WISP_DIFFERENTIAL=all, or `python bench/bench_differential.py`."""
from __future__ import annotations

import os

import pytest

import differential

SAMPLE = 48


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    root = tmp_path_factory.mktemp("differential")
    return differential.Runner(differential.launcher(root / "launcher"), root)


def chosen() -> list:
    if os.environ.get("WISP_DIFFERENTIAL") == "all":
        return differential.cases()
    return differential.sample(SAMPLE)


def test_the_cases_are_a_few_thousand_across_the_manual():
    everything = differential.cases()
    groups = {c.group for c in everything}
    assert len(everything) > 3000 and {"signals", "pipelines", "syntax", "closed", "heredocs", "arithmetic",
                                       "expansions", "args", "exit", "redirections"} <= groups
    assert sum(c.shell == "sh" for c in everything) > 1000
    assert [repr(c) for c in differential.sample(SAMPLE)] == [repr(c) for c in differential.sample(SAMPLE)]


def test_allowed_lines_run_exactly_as_in_the_real_shell(runner):
    results = runner.all(chosen(), workers=2)
    report = differential.summary(results)
    assert report["unstable"] == 0, [repr(r["case"]) for r in results if not r["stable"]]
    # refused: only a syntax error run without --yes where something could run before the error
    assert all(not r["case"].yes and r["case"].group == "syntax" for r in report["refusals"]), \
        [repr(r["case"]) for r in report["refusals"]]
    assert not report["differences"], "\n".join(differential.describe(r) for r in report["differences"])
