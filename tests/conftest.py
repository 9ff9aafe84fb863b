"""The whole suite runs with a wisp home and runtime dir of its own: no test reads or writes the real
user's ~/.wisp (approvals, audit log) or runtime grants, whatever a test forgets to set.

With WISP_CHECK_SKIPS=1 (set by .ci/run), every skip reason is printed at the end and the run fails when a
test skipped for a reason that `skip-allowlist.txt` does not allow (only what the machine lacks)."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

_ROOT = tempfile.mkdtemp(prefix="wispsh-tests-")
for _name, _sub in (("WISP_HOME", "wisp-home"), ("XDG_RUNTIME_DIR", "runtime")):
    _path = os.path.join(_ROOT, _sub)
    os.mkdir(_path, 0o700)
    os.environ[_name] = _path
os.environ.pop("WISP_SESSION", None)     # tests that need a session name set their own
# The plain mode's warm judges (one per runtime dir a test makes, started by the compiled client) end soon after
# their test instead of after the default idle time.
os.environ.setdefault("WISP_JUDGE_IDLE", "5")

ALLOWLIST = Path(__file__).with_name("skip-allowlist.txt")
AGENT_STAGE = Path(__file__).resolve().parent / "agents"


def pytest_ignore_collect(collection_path, config):
    """tests/agents (real clients, minutes, the registries) runs only when named on the command line."""
    path = Path(collection_path).resolve()
    if path != AGENT_STAGE and AGENT_STAGE not in path.parents:
        return None
    named = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    if any(n == AGENT_STAGE or AGENT_STAGE in n.parents or n in path.parents or n == path for n in named
           if n != AGENT_STAGE.parent):
        return None
    return True
_skips: list[tuple[str, str]] = []


def allowed_skip_reasons() -> list[re.Pattern]:
    lines = ALLOWLIST.read_text().splitlines()
    return [re.compile(line) for line in lines if line.strip() and not line.startswith("#")]


def skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        _skips.append((report.nodeid, skip_reason(report)))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if os.environ.get("WISP_CHECK_SKIPS") != "1":
        return
    allowed = allowed_skip_reasons()
    bad = [(node, why) for node, why in _skips if not any(p.fullmatch(why) for p in allowed)]
    terminalreporter.section(f"skips: {len(_skips)}, not allowlisted: {len(bad)}")
    for node, why in _skips:
        mark = "NOT ALLOWED " if (node, why) in bad else ""
        terminalreporter.write_line(f"{mark}{node}: {why}")
    if bad:
        terminalreporter.write_line(f"ci: {len(bad)} test(s) skipped for a reason not in {ALLOWLIST.name}")


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("WISP_CHECK_SKIPS") != "1":
        return
    allowed = allowed_skip_reasons()
    if any(not any(p.fullmatch(why) for p in allowed) for _, why in _skips) and session.exitstatus == 0:
        session.exitstatus = 1
