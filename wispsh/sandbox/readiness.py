"""Can `wisp run` work on this machine? bubblewrap present, user and pid namespaces allowed; if not, why and
what to do. `wisp run` refuses to start without it; `wisp doctor` reports the same in advance.

The answer comes from trying: bwrap is run once with the namespace flags `wisp run` uses, around `true`.
When that fails, the machine's settings say which restriction it was.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

PROBE_SECONDS = 10


class Readiness:
    """ok, what was found (or what is wrong), what to do about it, and what this bwrap supports."""

    __slots__ = ("ok", "detail", "fix", "bwrap", "disable_userns", "version")

    def __init__(self, ok: bool, detail: str, fix: str = "", bwrap: str | None = None,
                 disable_userns: bool = False, version: str = ""):
        self.ok, self.detail, self.fix, self.bwrap = ok, detail, fix, bwrap
        self.disable_userns, self.version = disable_userns, version

    def to_json(self) -> dict:
        return {"ok": self.ok, "detail": self.detail, "fix": self.fix, "bwrap": self.bwrap,
                "bwrap_version": self.version, "disable_userns": self.disable_userns}


INSTALL_FIX = ("install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install "
               "bubblewrap; Arch: sudo pacman -S bubblewrap), or use the per-agent SHELL/PATH recipes in the README")
SETUID_NOTE = ("inside, setuid programs (sudo, su, crontab) do not gain privilege, and root inside has no "
               "capabilities")


def _read(path: str) -> str | None:
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return None


def in_container() -> str | None:
    """A word for the container this runs in, or None."""
    if os.path.exists("/.dockerenv"):
        return "Docker"
    if os.path.exists("/run/.containerenv"):
        return "Podman"
    cgroup = _read("/proc/1/cgroup") or ""
    for word in ("docker", "kubepods", "containerd", "lxc"):
        if word in cgroup:
            return word
    return None


def why_not(stderr: str) -> tuple[str, str]:
    """(what restricts namespaces here, the fix), from the machine's settings and bwrap's message."""
    said = " ".join(stderr.split())[:300]
    if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return (f"AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, "
                f"Ubuntu 23.10+); bwrap said: {said}",
                "give bwrap its AppArmor profile (Ubuntu 24.04: sudo apt install apparmor-profiles && sudo cp "
                "/usr/share/apparmor/extra-profiles/bwrap-userns-restrict /etc/apparmor.d/ && sudo apparmor_parser "
                "-r /etc/apparmor.d/bwrap-userns-restrict), or allow them for everyone: sudo sysctl "
                "kernel.apparmor_restrict_unprivileged_userns=0")
    if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
        return (f"unprivileged user namespaces are off (kernel.unprivileged_userns_clone=0); bwrap said: {said}",
                "sudo sysctl kernel.unprivileged_userns_clone=1 (and in /etc/sysctl.d/ to keep it)")
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return (f"user namespaces are off (user.max_user_namespaces=0); bwrap said: {said}",
                "sudo sysctl user.max_user_namespaces=15000 (and in /etc/sysctl.d/ to keep it)")
    container = in_container()
    if container:
        return (f"this {container} container does not allow new namespaces; bwrap said: {said}",
                "start the container with namespaces allowed (Docker: --security-opt seccomp=unconfined "
                "--security-opt apparmor=unconfined, or --privileged), or use the per-agent SHELL/PATH recipes")
    return (f"bwrap cannot make the namespace; it said: {said}",
            "check that user namespaces are enabled (sysctl user.max_user_namespaces), or use the per-agent "
            "SHELL/PATH recipes in the README")


KNOBS = ("/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
         "/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces")


def _cache_key(bwrap: str) -> list:
    st = os.stat(bwrap)
    return [bwrap, st.st_mtime_ns, st.st_size, st.st_mode, os.getuid(), os.readlink("/proc/self/ns/user"),
            *(_read(k) for k in KNOBS)]


def check_cached(cache: str) -> Readiness:
    """check(), remembered in `cache` (a file in the private run directory) while this boot, this bwrap and the
    kernel's namespace settings stay as they were: three bwrap runs saved from every `wisp run`'s start. Only
    a success is remembered; anything unreadable means trying again."""
    import json

    bwrap = shutil.which("bwrap") or next((p for p in ("/usr/bin/bwrap", "/bin/bwrap") if os.access(p, os.X_OK)), None)
    try:
        key = _cache_key(bwrap) if bwrap else None
        with open(cache) as fh:
            saved = json.load(fh)
        if key is not None and saved.get("key") == key:
            got = saved["ready"]
            return Readiness(True, got["detail"], "", got["bwrap"], got["disable_userns"], got["bwrap_version"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    ready = check(bwrap)
    if ready.ok and bwrap:
        try:
            tmp = f"{cache}.{os.getpid()}"
            with open(tmp, "w") as fh:
                json.dump({"key": _cache_key(bwrap), "ready": ready.to_json()}, fh)
            os.replace(tmp, cache)
        except OSError:
            pass
    return ready


def check(bwrap: str | None = None) -> Readiness:
    """Whether `wisp run` can work here, found by trying."""
    if not sys.platform.startswith("linux"):
        return Readiness(False, f"wisp run needs Linux namespaces; this is {sys.platform}",
                         "on macOS use the per-agent SHELL/PATH recipes (wisp run for macOS is planned, see the "
                         "README)")
    bwrap = bwrap or shutil.which("bwrap") or next(
        (p for p in ("/usr/bin/bwrap", "/bin/bwrap") if os.access(p, os.X_OK)), None)
    if not bwrap:
        return Readiness(False, "bubblewrap (bwrap) is not installed", INSTALL_FIX)
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=PROBE_SECONDS,
                                 stdin=subprocess.DEVNULL).stdout.strip()
        helptext = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=PROBE_SECONDS,
                                  stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Readiness(False, f"{bwrap} does not run: {exc}", INSTALL_FIX, bwrap)
    for needed in ("--unshare-pid", "--die-with-parent", "--cap-drop", "--ro-bind", "--remount-ro", "--seccomp", "--perms"):
        if needed not in helptext:
            return Readiness(False, f"{bwrap} ({version or 'unknown version'}) has no {needed}",
                             "install a newer bubblewrap (0.4 or later)", bwrap, version=version)
    disable_userns = "--disable-userns" in helptext
    true = shutil.which("true") or "/bin/true"
    probe = [bwrap, "--unshare-user", *(["--disable-userns"] if disable_userns else []), "--unshare-pid",
             "--die-with-parent", "--cap-drop", "ALL", "--dev-bind", "/", "/", "--proc", "/proc", "--", true]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Readiness(False, f"{bwrap} did not finish a trial namespace: {exc}", INSTALL_FIX, bwrap,
                         version=version)
    if done.returncode != 0:
        detail, fix = why_not(done.stderr)
        return Readiness(False, detail, fix, bwrap, disable_userns, version)
    return Readiness(True, f"{bwrap} ({version}) makes user and pid namespaces here; {SETUID_NOTE}", "", bwrap,
                     disable_userns, version)
