"""The supervisor's lazily walked Here: `me` without the walk is the walk's `me` (what session starts and
grants compare), for a real process."""
import os
import subprocess
import sys

from wispsh.decide import session
from wispsh.sandbox.judge import LazyHere


def test_me_without_the_walk_is_the_walks_me():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lazy = LazyHere(child.pid, {})
        quick = lazy.me
        assert lazy._value is None                      # not walked for it
        assert quick == session.here_of(child.pid, {}).me
        assert lazy.session is not None                 # anything else walks, and then agrees
        assert lazy.me == quick
    finally:
        child.kill()
        child.wait()


def test_me_of_a_gone_process_is_none():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    if not os.path.exists(f"/proc/{child.pid}"):      # (its pid not taken again meanwhile)
        assert LazyHere(child.pid, {}).me is None
