"""The gate's own code is the gate's files: a line that writes, replaces or deletes anything in the installed
package (an editable checkout, a venv, the modules bundle of support/hotload.py) is judged as one that writes
the wisp home, however it gets there."""
from __future__ import annotations

import os

import pytest

import wispsh
from test_rules_support import judge, make_place
from wispsh.model import Level

PACKAGE = os.path.dirname(os.path.abspath(wispsh.__file__))
CHANGES = [
    "echo 'import os' >> {pkg}/cli/sh.py",
    "cp /tmp/evil.bundle {pkg}/__pycache__/modules.cpython-311.bundle",
    "sed -i 's/DANGEROUS/SAFE/' {pkg}/policy/effects.py",
    "rm -rf {pkg}/policy",
    "ln -sf /tmp/x.py {pkg}/policy/places.py",
    "tee {pkg}/programs/files.py < /tmp/x",
    "mv /tmp/x.py {pkg}/keys.py",
]


@pytest.mark.parametrize("line", CHANGES)
def test_changing_the_gates_code_is_dangerous(line, tmp_path):
    outcome = judge(line.format(pkg=PACKAGE), make_place(tmp_path))
    assert outcome.reached == Level.DANGEROUS, line


def test_reading_the_gates_code_is_at_most_low(tmp_path):
    assert judge(f"cat {PACKAGE}/cli/sh.py", make_place(tmp_path)).reached <= Level.LOW
