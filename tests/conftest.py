"""The whole suite runs with a wisp home and runtime dir of its own: no test reads or writes the real
user's ~/.wisp (approvals, audit log) or runtime grants, whatever a test forgets to set."""
from __future__ import annotations

import os
import tempfile

_ROOT = tempfile.mkdtemp(prefix="wispsh-tests-")
for _name, _sub in (("WISP_HOME", "wisp-home"), ("XDG_RUNTIME_DIR", "runtime")):
    _path = os.path.join(_ROOT, _sub)
    os.mkdir(_path, 0o700)
    os.environ[_name] = _path
os.environ.pop("WISP_SESSION", None)     # tests that need a session name set their own
