"""Installing the real agent clients from their registries, pinned (pins.json) or the newest, cached in the
work tree under `.agents-cache/` (git-ignored) between runs.

    from install import install, pins
    exe = install("codex")                  # the pinned version; returns the executable's absolute path
    exe = install("codex", version="latest")
    python tests/agents/install.py [--latest] [CLIENT...]     # install (in parallel), print the paths

npm clients: `npm install --prefix .agents-cache/npm/<client>-<version> <package>@<version>` (native binaries
come inside the packages: Codex's, opencode's and Claude Code's platform packages). PyPI clients: a venv of
their own at `.agents-cache/pypi/<client>-<version>`. An install that fails raises InstallError with the
registry client's last lines. `version("codex", exe)` asks the installed client for its version.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = Path(os.environ.get("WISP_AGENTS_CACHE", REPO / ".agents-cache"))
PINS = HERE / "pins.json"
TIMEOUT = 900


class InstallError(Exception):
    pass


def pins() -> dict:
    return json.loads(PINS.read_text())["clients"]


def newest(client: str) -> str:
    spec = pins()[client]
    if spec["registry"] == "npm":
        out = subprocess.run(["npm", "view", spec["package"], "version"], capture_output=True, text=True, timeout=120)
        if out.returncode:
            raise InstallError(f"npm view {spec['package']}: {out.stderr.strip()[-400:]}")
        return out.stdout.strip()
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", spec["package"]], capture_output=True,
                         text=True, timeout=180)
    for line in out.stdout.splitlines():
        if line.startswith(spec["package"]) and "(" in line:
            return line.split("(", 1)[1].split(")", 1)[0]
    raise InstallError(f"pip index versions {spec['package']}: {out.stderr.strip()[-400:]}")


def _run(argv, log: Path) -> None:
    with open(log, "w") as fh:
        proc = subprocess.run(argv, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    if proc.returncode:
        raise InstallError(f"{' '.join(argv)} failed ({proc.returncode}):\n" + log.read_text()[-1500:])


def install(client: str, version: str | None = None) -> str:
    """The installed client's executable (installed first when missing)."""
    spec = pins()[client]
    version = version or spec["version"]
    if version == "latest":
        version = newest(client)
    if spec["registry"] == "npm":
        where = CACHE / "npm" / f"{client}-{version}"
        exe = where / "node_modules" / ".bin" / spec["bin"]
        if not exe.exists():
            shutil.rmtree(where, ignore_errors=True)
            where.mkdir(parents=True)
            _run(["npm", "install", "--prefix", str(where), "--no-audit", "--no-fund", "--no-update-notifier",
                  f"{spec['package']}@{version}"], where.parent / f"{client}-{version}.log")
    else:
        where = CACHE / "pypi" / f"{client}-{version}"
        exe = where / "bin" / spec["bin"]
        if not exe.exists():
            shutil.rmtree(where, ignore_errors=True)
            where.parent.mkdir(parents=True, exist_ok=True)
            log = where.parent / f"{client}-{version}.log"
            _run([sys.executable, "-m", "venv", str(where)], log)
            _run([str(where / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                  f"{spec['package']}=={version}"], log)
    if not exe.exists():
        raise InstallError(f"{client} {version}: installed, but {exe} is missing")
    return str(exe)


def client_version(client: str, exe: str) -> str:
    """The installed client's version: a PyPI client's from its package metadata in its own venv (mini's
    `--help` prints usage, not a version), an npm client's from `--version`."""
    spec = pins()[client]
    if spec["registry"] == "pypi":
        python = str(Path(exe).parent / "python")
        out = subprocess.run([python, "-c", "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))",
                              spec["package"]], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        return f"{spec['package']} {out.stdout.strip()}" if out.returncode == 0 else out.stderr.strip()[-200:]
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                         env=dict(os.environ, NO_COLOR="1", DISABLE_AUTOUPDATER="1"))
    text = (out.stdout + out.stderr).strip()
    return text.splitlines()[0] if text else ""


def main(argv: list[str]) -> int:
    latest = "--latest" in argv
    names = [a for a in argv if not a.startswith("--")] or list(pins())
    failed = 0
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(install, name, "latest" if latest else None) for name in names}
        for name, future in futures.items():
            try:
                print(f"{name}: {future.result()}")
            except (InstallError, subprocess.TimeoutExpired) as exc:
                failed += 1
                print(f"{name}: NOT INSTALLED: {exc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
