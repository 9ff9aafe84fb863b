"""What `wispsh -c LINE` imports before it execs the real shell, for lines below the threshold: every agent
command pays for it (bench/bench_startup.py measures the time; this checks the class of the cost, which
does not depend on the machine). Run as the shims run it: python -I -S, the checkout and site-packages on
sys.path, the real exec replaced by a report of sys.modules."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

PROBE = r"""
import os, sys
sys.path[:0] = [sys.argv[1]] + sys.argv[2].split(os.pathsep)
sys.argv = ["wispsh", "-c", sys.argv[3]]
def report(path, argv, env):
    sys.stdout.write(repr({"shell": path, "modules": sorted(sys.modules)}))
    sys.stdout.flush()
    os._exit(0)
os.execve = report
from wispsh.cli.sh import main
main()
"""

# Not below the threshold: each is a costly import (or a family of them) the gate's hot path does without.
HEAVY = ("dataclasses", "inspect", "ast", "dis", "tokenize", "typing", "pathlib", "urllib", "urllib.parse", "enum",
         "functools", "collections", "operator",
         "ipaddress", "datetime", "json", "shlex", "contextlib", "importlib", "importlib.machinery", "warnings",
         "fnmatch", "hashlib", "tempfile", "signal", "threading", "subprocess", "click", "psutil",
         "platformdirs", "socket", "wispsh.decide.store", "wispsh.agents.harness", "wispsh.classifier",
         "wispsh.ask.collect", "wispsh.ask.dialog")

SAFE_LINES = ("true", "cd src && grep -rn foo . | head -20", "echo a; ls -la >/dev/null; pwd", "wc -l README.md",
              "git status", "git diff --stat && git log -1 --oneline", "mkdir -p build && test -d build",
              "printf x; tail -n 50 README.md",
              # longer than an audit excerpt: cut with an ellipsis, stored once with its digest
              " && ".join(["echo a", "ls -la", "pwd", "git status --short", "cat README.md", "head -3 README.md",
                           "wc -l README.md", "grep -c wisp README.md", "date", "whoami", "uname -a", "true", "env",
                           "ls", "printf x", "git log -1 --oneline", "git diff --stat", "which bash", "id",
                           "test -d .", "basename /a/b"]) + " >/dev/null")


def site_packages() -> str:
    import sysconfig

    return os.pathsep.join(sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}))


@pytest.mark.parametrize("line", SAFE_LINES)
def test_an_all_safe_line_imports_nothing_heavy(tmp_path, line):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "WISP_HOME": str(tmp_path / "w")}
    (tmp_path / "src").mkdir()
    for _ in range(2):          # the first run in a new wisp home makes its signing key (the secrets module)
        done = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE, str(REPO), site_packages(), line],
                              capture_output=True, text=True, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL,
                              timeout=60)
        assert done.returncode == 0, done.stderr
    seen = ast.literal_eval(done.stdout)
    assert os.path.basename(seen["shell"]) in ("bash", "sh"), seen["shell"]     # it ran: the line was allowed
    loaded = set(seen["modules"])
    heavy = sorted(name for name in HEAVY if name in loaded or any(m.startswith(name + ".") for m in loaded))
    assert not heavy, f"imported on the hot path: {heavy}"
    # no regex is needed for these lines: modules import `re` as `from wispsh.support.lazyre import re`
    assert "re" not in loaded and "re._compiler" not in loaded


def test_the_stand_in_flags_are_re_s_own():
    import re

    from wispsh.support import lazyre

    for name in ("A", "I", "L", "M", "S", "U", "X", "ASCII", "IGNORECASE", "LOCALE", "MULTILINE", "DOTALL",
                 "UNICODE", "VERBOSE"):
        assert getattr(lazyre.re, name) == int(getattr(re, name)), name
    assert lazyre.re.escape("a.b") == re.escape("a.b") and lazyre.re.compile is re.compile
