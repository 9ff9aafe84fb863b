"""How much of a long sweep one run does. The unit suite (scripts/test.sh: its 5-minute budget on 2 cores) runs a
sample of each fuzz, property and repetition test marked `long`; WISP_LONG=1 runs the full counts, the ones that
found the bugs (.ci/run's long stage after the unit suite: `WISP_LONG=1 pytest -m long`). A sample is the first
part of the same sequence (same seeds), so a failure in the sample is a failure of the full run too."""
from __future__ import annotations

import os

LONG = os.environ.get("WISP_LONG") == "1"


def scaled(sample: int, full: int) -> int:
    return full if LONG else sample
