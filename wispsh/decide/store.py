"""Remembered answers: project and always approvals in `$WISP_HOME/approvals.json`, session and once grants
in the runtime dir, one file per session.

Every write holds the one lock file (`$WISP_HOME/wisp.lock`, fcntl) and replaces its file atomically (temp
file in the same directory, then rename), so concurrent agents lose nothing and a kill leaves the old file or
the new one. Under the lock only the read-modify-write itself: what a change needs (ids, the entry, imports)
is made before, and approvals and grants are not fsynced (200 people and agents granting at once would
queue behind 400 disk flushes; lock.py). After a power loss a file is then the old one, the new one, or, on a
filesystem that does not order a rename after its data, empty: read as corrupt, set aside, its approvals
ignored (fail closed: a grant lost, never one made up). The grant-signing key, written once, is fsynced.
Reads take no lock. A store that is not the user's own (foreign
owner, group/other-writable) is not trusted: its approvals are ignored and the reason is reported. A corrupt
approvals.json is set aside under a dated name before a fresh one is written. psutil and platformdirs are
imported only inside functions.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from wispsh.config import CONFIG_NAME, FIX, untrusted_reason
from wispsh.decide.lock import AUDIT_LOCK_NAME, LOCK_NAME, ensure_private_dir, locked  # (the store's lock)
from wispsh.model import Level
from wispsh.support.bounded import read_at_most

APPROVALS_NAME = "approvals.json"
GRANTS_DIR = "grants"
# Runtime grant files are signed with this key of the wisp home: a grant file in a runtime dir that a line
# run through the gate chose (XDG_RUNTIME_DIR=/tmp/x bash s.sh) or wrote by hand is not one of ours.
KEY_NAME = "grants.key"     # accepted: a line that reads it can sign (the rules must judge reading it)
MAX_STORE_BYTES = 16 << 20      # an approvals or grants file bigger than this is not read into memory
PERSISTED_SCOPES = ("project", "always")
RUNTIME_SCOPES = ("once", "session")
SCOPES = RUNTIME_SCOPES + PERSISTED_SCOPES
VERSION = 1


class StoreError(Exception):
    """The store cannot be written (not trusted, or the filesystem refused); the message says why."""


@dataclass(frozen=True)
class Approval:
    id: str
    pattern: str                    # "git commit *", "head *", or exact text
    scope: str                      # once | session | project | always
    level: Level                    # the level at grant: covers parts at this level or below
    source: str                     # the entry point that granted it
    created: float                  # epoch seconds
    expires: float | None = None    # epoch seconds (persisted scopes)
    directory: str | None = None    # project root (project scope)
    exact_text: bool = False        # a pre-ADR-0015 entry's exact `command`
    pre_verb: bool = False          # stored before ADR 0027 (no "verbKeys"): `git *` then meant every verb
    session: str | None = None      # session id (once/session scopes)
    granter: tuple[int, float] | None = None   # once: the granting process (pid, start time)
    turn: str | None = None         # once: WISP_TURN at grant
    # what the parts it was granted for did ("fetch", "change", "path.write.project"): it covers only parts that
    # do nothing else. None: stored without that record (before issue 27, or by hand): ordinary work only
    effects: tuple[str, ...] | None = None

    def to_json(self) -> dict:
        data: dict = {"id": self.id}
        data["command" if self.exact_text else "pattern"] = self.pattern
        if not (self.pre_verb or self.exact_text):
            data["verbKeys"] = True     # ADR 0027: `git *` written now means git with no verb
        data.update(scope=self.scope, directory=self.directory, level=str(self.level), source=self.source,
                    created=iso(self.created), expires=iso(self.expires) if self.expires is not None else None)
        if self.effects is not None:
            data["effects"] = list(self.effects)
        if self.scope in RUNTIME_SCOPES:
            data.update(session=self.session, granter=list(self.granter) if self.granter else None,
                        turn=self.turn)
        return data


@dataclass(frozen=True)
class Loaded:
    approvals: tuple[Approval, ...]
    problem: str | None = None      # why the file's approvals are ignored
    corrupt: bool = False


@dataclass(frozen=True)
class Standing:
    """The approvals that may apply here and now, and why any were ignored."""

    approvals: tuple[Approval, ...]
    notes: tuple[str, ...] = ()


# ---------------------------------------------------------------- time and ids


# Every write reads and writes back every entry under the lock: their times are converted once a process.
_ISO: dict[float, str] = {}
_PARSED: dict[str, float] = {}


def iso(t: float) -> str:
    found = _ISO.get(t)
    if found is None:
        found = _ISO[t] = datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return found


def parse_time(value) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        found = _PARSED.get(value)
        if found is None:
            stamp = datetime.fromisoformat(value)
            if stamp.tzinfo is None:
                stamp = stamp.replace(tzinfo=timezone.utc)
            found = _PARSED[value] = stamp.timestamp()
        return found
    if value is None:
        return None
    raise ValueError(f"not a time: {value!r}")


def new_id() -> str:
    import secrets

    return secrets.token_hex(6)


# ---------------------------------------------------------------- files


def write_atomic(path: Path, data: bytes, *, durable: bool = False) -> None:
    """Replace `path` with `data` so that any reader sees the old file or the new one, never a mix.

    `durable`: flushed to disk (the file, then its directory) before this returns; otherwise the kernel
    writes it back in its own time (see the module's note: what a power loss can leave)."""
    tmp = path.parent / f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _remove_stale_temps(directory: Path, name: str) -> None:
    """Temp files left by a writer killed mid-write (only called under the lock, when no one writes)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for entry in names:
        if entry.startswith(f".{name}.") and entry.endswith(".tmp"):
            try:
                os.unlink(directory / entry)
            except OSError:
                pass


# path -> (stat key, bytes): a long-lived reader (the `wisp run` supervisor) reads a store file again only
# when it changed; every write replaces the file (a new inode), so an unchanged key means unchanged bytes.
_READ_CACHE: dict[str, tuple[tuple, bytes]] = {}


def _stat_key(st: os.stat_result) -> tuple:
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_mode, st.st_uid)


def _read_private(path: Path, *also_check: Path) -> tuple[bytes | None, str | None]:
    """The bytes of `path` (None when missing) and why it is not trusted (None when it is)."""
    for thing in also_check:
        reason = untrusted_reason(thing)
        if reason:
            return None, reason
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        return None, None
    except OSError:
        before = None
    cached = _READ_CACHE.get(str(path))
    if before is not None and cached is not None and cached[0] == _stat_key(before) and stat.S_ISREG(before.st_mode):
        return cached[1], None                  # trusted when cached: owner and mode are part of the key
    try:    # O_NONBLOCK: a FIFO in place of a store file must not hang the gate
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, f"{path} is a symbolic link{FIX}replace it with the file itself (or remove it)"
        if exc.errno == errno.ENOTDIR:
            return None, f"{path.parent} is not a directory{FIX}move it aside; wispsh makes a new wisp home"
        return None, f"{path}: cannot read: {exc.strerror}{FIX}make it readable by you (chmod u+r {path})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):        # a directory or FIFO: never read (os.fdopen fails on one)
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            return None, f"{path} is {kind}{FIX}move it aside (mv {path} {path}.bad)"
        reason = untrusted_reason(path, st)
        if reason:
            return None, reason
        if st.st_size > MAX_STORE_BYTES:
            return None, (f"{path} is {st.st_size} bytes, over the limit of {MAX_STORE_BYTES}{FIX}move it aside "
                          f"(mv {path} {path}.bad)")
        os.set_blocking(fd, True)
        data = read_at_most(fd, MAX_STORE_BYTES)
        if len(data) == st.st_size:
            _READ_CACHE[str(path)] = (_stat_key(st), data)
        return data, None
    except OSError as exc:
        return None, f"{path}: cannot read: {exc.strerror}{FIX}see `wisp doctor`"
    finally:
        os.close(fd)


# ---------------------------------------------------------------- approvals.json (project, always)


def _entry(raw: object) -> Approval:
    if not isinstance(raw, dict):
        raise ValueError("an entry is not an object")
    exact_text = "pattern" not in raw and "command" in raw       # pre-ADR-0015: an exact command line
    pattern = raw.get("command") if exact_text else raw.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise ValueError("an entry has no pattern")
    ident, scope, directory = raw.get("id"), raw.get("scope"), raw.get("directory")
    if not isinstance(ident, str) or not ident:
        raise ValueError("an entry has no id")
    if scope not in PERSISTED_SCOPES:
        raise ValueError(f"entry {ident}: scope {scope!r} is not project or always")
    if scope == "project" and not (isinstance(directory, str) and os.path.isabs(directory)):
        raise ValueError(f"entry {ident}: a project approval needs an absolute directory")
    level = raw.get("level", "moderate")
    source = raw.get("source", "")
    if not isinstance(level, str) or not isinstance(source, str):
        raise ValueError(f"entry {ident}: level and source must be strings")
    created = parse_time(raw.get("created")) or 0.0
    return Approval(id=ident, pattern=pattern, scope=scope, level=Level.parse(level), source=source,
                    created=created, expires=parse_time(raw.get("expires")),
                    directory=directory if scope == "project" else None, exact_text=exact_text,
                    pre_verb=not exact_text and raw.get("verbKeys") is not True, effects=_effects(raw, ident))


def _effects(raw: dict, ident) -> tuple[str, ...] | None:
    """An entry's recorded effects: a list of strings, or none recorded (None: it covers ordinary work only)."""
    effects = raw.get("effects")
    if effects is None:
        return None
    if not isinstance(effects, list) or not all(isinstance(e, str) for e in effects):
        raise ValueError(f"entry {ident}: effects must be a list of strings")
    return tuple(effects)


def parse_approvals(data: bytes, *, at: float) -> tuple[Approval, ...]:
    """The unexpired approvals of an approvals.json; ValueError when it is not one."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"invalid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("approvals"), list):
        raise ValueError('not {"version": 1, "approvals": [...]}')
    entries = tuple(_entry(raw) for raw in doc["approvals"])
    return tuple(a for a in entries if a.expires is None or a.expires > at)


def read_persisted(home: Path, *, at: float | None = None) -> Loaded:
    path = home / APPROVALS_NAME
    data, problem = _read_private(path, home)
    if problem:
        return Loaded((), f"approvals not trusted: {problem}")
    if data is None:
        return Loaded(())
    try:
        return Loaded(parse_approvals(data, at=time.time() if at is None else at))
    except (ValueError, TypeError, OverflowError) as exc:
        return Loaded((), f"{path} is corrupt ({exc}); its approvals are ignored{FIX}it is set aside on the next "
                          f"approval, or move it aside now (mv {path} {path}.bad)", corrupt=True)


def _dump(approvals) -> bytes:
    """{"version": 1, "approvals": [...]}, one approval a line: each entry through json's C encoder (an indent
    for the whole document takes its pure-Python one, ten times slower, under the lock)."""
    rows = ",\n".join(f"    {_entry_json(a.to_json())}" for a in approvals)
    return (f'{{\n  "version": {VERSION},\n  "approvals": [\n' + rows + ("\n" if rows else "") + "  ]\n}\n"
            ).encode("utf-8")


def _entry_json(entry: dict) -> str:
    text = json.dumps(entry, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:          # a pattern holding an undecodable byte: kept exactly, as \\udcNN
        text = json.dumps(entry)
    return text


# ---------------------------------------------------------------- changing approvals.json: group commit
#
# Each change (an answer remembered, `wisp approvals add/revoke/clear`) is a small request file queued in
# `pending/`; whoever holds the lock next applies every request queued by then, in order, in one
# read-modify-write of approvals.json, and leaves each requester its result (`<request>.done`, a link to
# the batch's results). A requester waiting for the lock stops waiting as soon as its result is there. 200
# people and agents granting at once make a handful of writes, not 200 (each of which, on a loaded machine,
# could be preempted with the lock held). A request whose process has died unanswered is dropped; applying is
# idempotent by id (a holder killed between writing approvals.json and the results leaves its requests to be
# applied again, harmlessly).

PENDING_DIR = "pending"
STALE_SECONDS = 60.0            # a result nobody collected, a temp file nobody renamed


def _change(home: Path, op: dict) -> dict:
    """Apply one change (`op`, see _apply) to approvals.json, with every other change queued meanwhile;
    its result. StoreError or OSError when the store cannot be written."""
    queue = home / PENDING_DIR
    ensure_private_dir(home)
    ensure_private_dir(queue)
    if untrusted_reason(queue):            # not ours alone: apply just this one, under the lock, as before
        with locked(home):
            return _apply_batch(home, None, op)
    stem = f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(3).hex()}"
    request, done = queue / f"{stem}.op", queue / f"{stem}.done"
    temp = queue / f".{stem}.tmp"
    with open(temp, "x", encoding="utf-8") as fh:
        fh.write(json.dumps({**op, "pid": os.getpid()}))
    os.replace(temp, request)
    try:
        while True:
            with locked(home, until=done.exists) as held:
                if held and not done.exists() and request.exists():
                    try:
                        return _apply_batch(home, stem, op)
                    finally:    # under the lock: the next holder must not apply it again, nor leave it a result
                        request.unlink(missing_ok=True)     # nobody takes (seen once: a `.done` left behind)
            # the request first, then its result: a holder writes the result before it removes the request
            taken = not request.exists()
            if done.exists():
                result = json.loads(done.read_bytes()).get(stem, {"error": f"{done} holds no result of ours"})
                done.unlink()
                if "error" in result:
                    raise StoreError(result["error"])
                return result
            if taken:                           # gone without a result (never, unless removed): queued again
                _requeue(request, op)
    finally:
        try:
            request.unlink()
        except FileNotFoundError:
            pass


def _requeue(request: Path, op: dict) -> None:
    temp = request.with_name("." + request.name[:-3] + ".tmp")
    temp.write_text(json.dumps({**op, "pid": os.getpid()}), encoding="utf-8")
    os.replace(temp, request)


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _queued(queue: Path, mine: str | None) -> list[tuple[str, dict]]:
    """The requests waiting now, oldest first; dead requesters' dropped, stale leftovers removed."""
    found = []
    now = time.time()
    try:
        names = sorted(os.listdir(queue))
    except OSError:
        return []
    for name in names:
        path = queue / name
        if name.endswith(".op"):
            try:
                op = json.loads(path.read_bytes())
            except (OSError, ValueError):
                continue
            if name[:-3] == mine or _alive(op.get("pid")):
                found.append((name[:-3], op))
                continue
        try:                                # a dead requester's request, or a result or temp nobody took
            if not name.endswith(".op") and now - os.lstat(path).st_mtime < STALE_SECONDS:
                continue
            os.unlink(path)
        except OSError:
            pass
    return found


def _apply_batch(home: Path, mine: str | None, op: dict) -> dict:
    """Under the lock: every queued change (and `op`, ours, named `mine` in the queue) applied in one write."""
    path = home / APPROVALS_NAME
    _remove_stale_temps(home, APPROVALS_NAME)
    queue = home / PENDING_DIR
    batch = _queued(queue, mine) if mine is not None else []
    if not any(stem == mine for stem, _ in batch):
        batch.append((mine, op))
    loaded = read_persisted(home)
    if loaded.problem and not loaded.corrupt:
        raise StoreError(loaded.problem)   # each requester meets it in turn: the others' requests stay queued
    if loaded.corrupt:
        aside = home / f"{APPROVALS_NAME}.corrupt-{datetime.now(timezone.utc):%Y%m%dT%H%M%S.%fZ}"
        os.rename(path, aside)
        from wispsh.decide import audit
        try:
            audit.append_locked(home, [audit.event("store.corrupt", line="", decision="set-aside",
                                                   reasons=[loaded.problem, f"kept as {aside.name}"])])
        except OSError:
            pass                    # the store is mended all the same; doctor reports the audit
    entries = list(loaded.approvals)
    results = {}
    for stem, change in batch:
        entries, results[stem] = _apply(entries, change)
    write_atomic(path, _dump(entries))
    _hand_out(queue, {stem: r for stem, r in results.items() if stem != mine and stem is not None})
    return results[mine]


def _hand_out(queue: Path, results: dict) -> None:
    """Leave each requester its result, `<stem>.done`: one file of the batch's results, hard-linked under
    each requester's name (a link and an unlink a request under the lock, not a file written each: a holder
    preempted on a loaded machine keeps the queue waiting for every syscall it makes)."""
    if not results:
        return
    shared = queue / f".{next(iter(results))}.results"
    try:
        shared.write_text(json.dumps(results), encoding="utf-8")
    except OSError:
        return                      # each requester applies its own again (idempotent): no result is lost
    for stem in results:
        try:
            try:
                os.link(shared, queue / f"{stem}.done")
            except FileExistsError:
                pass                # a result left by a holder that died before removing the request
            except OSError:         # no hard links here: a file of its own
                temp = queue / f".{stem}.done.tmp"
                temp.write_text(json.dumps({stem: results[stem]}), encoding="utf-8")
                os.replace(temp, queue / f"{stem}.done")
            os.unlink(queue / f"{stem}.op")
        except OSError:
            pass                    # its requester applies it again itself (idempotent): no result is lost
    try:
        os.unlink(shared)           # the links keep the results
    except OSError:
        pass


def _apply(entries: list[Approval], op: dict) -> tuple[list[Approval], dict]:
    """One change to the list of approvals: (the new list, the result for its requester).

    grant {entry}: add it. add {entry}: add it unless one of the same pattern, scope and project already
    covers its level (result `duplicate`), replacing those that cover less (`replaced`). revoke {id}: remove
    it (`removed`). clear {scope}: remove every one of that scope, or all (`count`)."""
    kind = op.get("op")
    if kind in ("grant", "add"):
        made = _entry(op["entry"])
        if any(a.id == made.id for a in entries):
            return entries, {"added": True}             # applied already (a holder died before the results)
        if kind == "grant":
            return entries + [made], {"added": True}
        same = [a for a in entries if not a.exact_text and a.pattern == made.pattern and a.scope == made.scope
                and a.directory == made.directory]
        covering = [a for a in same if a.level >= made.level]
        if covering:
            return entries, {"duplicate": covering[0].to_json()}
        return [a for a in entries if a not in same] + [made], \
            {"added": True, "replaced": same[0].to_json() if same else None}
    if kind == "revoke":
        kept = [a for a in entries if a.id != op["id"]]
        return kept, {"removed": len(kept) != len(entries)}
    if kind == "clear":
        scope = op.get("scope")
        kept = [a for a in entries if not (scope is None or a.scope == scope)]
        return kept, {"count": len(entries) - len(kept)}
    raise ValueError(f"not a change of approvals.json: {kind!r}")


# ---------------------------------------------------------------- runtime grants (once, session)


def runtime_dir(env=None) -> Path:
    from wispsh.config import runtime_dir as where

    return where(env)


def _runtime_grant(raw: dict, session_id: str) -> Approval:
    granter = raw.get("granter")
    return Approval(id=raw["id"], pattern=raw["pattern"], scope=raw["scope"], level=Level.parse(raw["level"]),
                    source=raw.get("source", ""), created=parse_time(raw.get("created")) or 0.0,
                    session=session_id, granter=(int(granter[0]), float(granter[1])) if granter else None,
                    turn=raw.get("turn"), effects=_effects(raw, raw["id"]))


def _grant_key(home: Path, *, create: bool) -> bytes | None:
    """The wisp home's key for signing runtime grants (made under the lock when `create`); None when missing
    or not trusted."""
    path = home / KEY_NAME
    data, problem = _read_private(path, home)
    if data is None and problem is None and create:
        import secrets

        write_atomic(path, secrets.token_hex(32).encode(), durable=True)
        data, problem = _read_private(path, home)
    if problem or not data or len(data) < 32:
        return None
    return data


def ensure_grant_key(home: Path) -> Path:
    """Make the grant-signing key now if it is missing (`wisp run` hides it inside its namespace); its path."""
    with locked(home):
        _grant_key(home, create=True)
    return home / KEY_NAME


def _signature(key: bytes, who: dict, grants: list) -> str:
    import hashlib
    import hmac

    body = json.dumps({"session": who, "grants": grants}, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, body.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()


def _read_session_file(path: Path, home: Path) -> tuple[dict | None, tuple[Approval, ...], str | None]:
    """(the session's description, its grants, why they are ignored). Only files signed with the home's key
    for this very session name count."""
    data, problem = _read_private(path, path.parent.parent, path.parent)
    if problem or data is None:
        return None, (), problem
    try:
        doc = json.loads(data.decode("utf-8"))
        who = doc["session"]
        key = _grant_key(home, create=False)
        import hmac

        if key is None or not isinstance(doc.get("mac"), str) or not hmac.compare_digest(
                doc["mac"], _signature(key, who, doc["grants"])):
            return None, (), f"{path} is not signed by {home / KEY_NAME}; its grants are ignored"
        if who.get("id") + ".json" != path.name:
            return None, (), f"{path} holds the grants of another session; they are ignored"
        grants = tuple(_runtime_grant(g, who["id"]) for g in doc["grants"])
        if any(g.scope not in RUNTIME_SCOPES for g in grants):
            raise ValueError("a grant with a persisted scope")
        return who, grants, None
    except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as exc:
        return None, (), f"{path} is corrupt ({exc}); its grants are ignored"


def _write_session_file(path: Path, who: dict, grants, home: Path) -> None:
    """Write (or remove, when empty) one session's grants, signed. The caller holds the lock."""
    if not grants:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        return
    key = _grant_key(home, create=True)
    if key is None:
        raise StoreError(f"{home / KEY_NAME} cannot be made or is not trusted")
    listed = [g.to_json() for g in grants]
    doc = {"version": VERSION, "session": who, "grants": listed, "mac": _signature(key, who, listed)}
    write_atomic(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def _session_json(sess) -> dict:
    return {"id": sess.id, "pid": sess.pid, "started": sess.started, "name": sess.name, "agent": sess.agent}


def _session_alive(who: dict) -> bool:
    from wispsh.decide import session

    if who.get("pid") is None:                  # named by the harness: lives as long as the runtime dir
        return True
    return session.alive(int(who["pid"]), float(who["started"]))


def _grant_alive(grant: Approval) -> bool:
    from wispsh.decide import session

    if grant.scope != "once" or grant.turn or grant.granter is None:
        return True
    return session.alive(*grant.granter)


def sweep(home: Path, env=None) -> int:
    """Remove the grants of dead sessions and once grants whose granting process is gone. Under the lock."""
    removed = 0
    with locked(home):
        gdir = runtime_dir(env) / GRANTS_DIR
        _remove_stale_temps_all(gdir)
        removed = _sweep_unlocked(gdir, home)
    return removed


def _remove_stale_temps_all(gdir: Path) -> None:
    try:
        names = os.listdir(gdir)
    except OSError:
        return
    for entry in names:
        if entry.startswith(".") and entry.endswith(".tmp"):
            try:
                os.unlink(gdir / entry)
            except OSError:
                pass


def _sweep_unlocked(gdir: Path, home: Path) -> int:
    removed = 0
    try:
        names = sorted(n for n in os.listdir(gdir) if n.endswith(".json"))
    except OSError:
        return 0
    for entry in names:
        path = gdir / entry
        who, grants, problem = _read_session_file(path, home)
        if problem or who is None:
            continue                            # not ours to judge (untrusted) or already gone
        if not _session_alive(who):
            os.unlink(path)
            removed += len(grants)
            continue
        keep = tuple(g for g in grants if _grant_alive(g))
        if len(keep) != len(grants):
            _write_session_file(path, who, keep, home)
            removed += len(grants) - len(keep)
    return removed


def _prepare_runtime(env) -> Path:
    from wispsh.config import private_runtime_dir

    try:
        rdir = private_runtime_dir(env, create=True)
    except OSError as exc:
        raise StoreError(str(exc)) from None
    ensure_private_dir(rdir)
    ensure_private_dir(rdir / GRANTS_DIR)
    for thing in (rdir, rdir / GRANTS_DIR):
        reason = untrusted_reason(thing)
        if reason:
            raise StoreError(f"runtime grants not trusted: {reason}")
    return rdir / GRANTS_DIR


def store_error(exc: OSError, path: Path) -> StoreError:
    """An OSError met writing the store, as one line naming the file and what to do."""
    import errno

    if isinstance(exc, StoreError):
        return exc
    from wispsh.decide.lock import LockStuck

    if isinstance(exc, LockStuck):
        return StoreError(str(exc))
    why = exc.strerror or str(exc)
    named = exc.filename or path
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        fix = "free space on its filesystem and retry"
    elif exc.errno == errno.EROFS:
        fix = "its filesystem is read-only: remount it read-write, or set WISP_HOME to a writable directory"
    elif exc.errno in (errno.EACCES, errno.EPERM):
        fix = "make the wisp home yours and writable (see `wisp doctor`)"
    elif exc.errno in (errno.ENOTDIR, errno.EISDIR):
        fix = "see `wisp doctor`: a file of the wisp home is of the wrong kind"
    else:
        fix = "see `wisp doctor`"
    return StoreError(f"cannot write {named}: {why}; {fix}")


# ---------------------------------------------------------------- what the gate and the CLI call


def grant(home: Path, *, pattern: str, scope: str, level: Level, source: str, cwd: str, env=None,
          persist_days: float = 30.0, here=None, exact_text: bool = False, ident: str | None = None,
          effects=None) -> Approval:
    """Remember one answer (under `ident` when given), with the effects of what it was given for (None: no
    record, ordinary work only). Raises StoreError when the store cannot be written."""
    effects = tuple(effects) if effects is not None else None
    from wispsh.decide import session

    env = os.environ if env is None else env
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    now = time.time()
    if scope in PERSISTED_SCOPES:
        if level >= Level.DANGEROUS:
            raise ValueError("a dangerous verdict is never persisted")
        made = Approval(id=ident or new_id(), pattern=pattern, scope=scope, level=level, source=source,
                        created=now, expires=now + persist_days * 86400,
                        directory=session.project_root(cwd) if scope == "project" else None,
                        exact_text=exact_text, effects=effects)
        try:
            _change(home, {"op": "grant", "entry": made.to_json()})
        except OSError as exc:
            raise store_error(exc, home / APPROVALS_NAME) from None
        return made
    here = here or session.here(env)
    granter = None
    if scope == "once":        # the process that execs the line (the `wisp run` supervisor's: the one inside)
        granter = here.me
        if granter is None:
            pid = os.getpid()
            granter = (pid, session.start_time(pid) or 0.0)
    made = Approval(id=ident or new_id(), pattern=pattern, scope=scope, level=level, source=source, created=now,
                    session=here.session.id, granter=granter,
                    turn=(env.get("WISP_TURN") or None) if scope == "once" else None, effects=effects)
    import hashlib  # noqa: F401  (the signatures' modules, loaded before the lock: nothing is imported under it)
    import hmac  # noqa: F401
    try:
        with locked(home):
            gdir = _prepare_runtime(env)
            _sweep_unlocked(gdir, home)
            path = gdir / f"{here.session.id}.json"
            who, grants, problem = _read_session_file(path, home)
            if problem and os.path.exists(path) and "corrupt" not in problem and "signed" not in problem:
                raise StoreError(problem)
            if made.turn:
                # a new turn ends the once grants of the turns before it (a forged old WISP_TURN finds none).
                # Accepted: until the new turn's first grant, forging the old WISP_TURN (a WISP_ assignment,
                # rated dangerous) still finds the old turn's grants.
                grants = tuple(g for g in grants if not (g.scope == "once" and g.turn and g.turn != made.turn))
            _write_session_file(path, who or _session_json(here.session), grants + (made,), home)
    except OSError as exc:
        raise store_error(exc, runtime_dir(env) / GRANTS_DIR) from None
    return made


def standing(home: Path, *, cwd: str, env=None, here=None, at: float | None = None) -> Standing:
    """The approvals that may cover a part run now in `cwd` by this session. Reads only."""
    from wispsh.decide import session

    env = os.environ if env is None else env
    notes: list[str] = []
    loaded = read_persisted(home, at=at)
    if loaded.problem:
        notes.append(loaded.problem)
    root = session.project_root(cwd)
    found = [a for a in loaded.approvals if a.scope == "always" or a.directory == root]
    here = here or session.here(env)
    try:
        gdir = runtime_dir(env) / GRANTS_DIR
        problem = untrusted_reason(gdir.parent) or untrusted_reason(gdir)
    except OSError as exc:
        problem = f"runtime dir: {exc.strerror or exc}"
    if problem:
        notes.append(f"session grants not trusted: {problem}")
    else:
        who, grants, problem = _read_session_file(gdir / f"{here.session.id}.json", home)
        if problem:
            notes.append(problem)
        turn = env.get("WISP_TURN") or None
        # "beneath the line": a process below the granting one, or the same process after an exec in place
        ancestors = set(here.ancestors) | ({here.me} if here.me else set())
        for g in grants:
            beneath = g.granter is not None and _is_ancestor(g.granter, ancestors)
            if g.scope == "session" or (g.turn and g.turn == turn) or beneath:
                found.append(g)
    return Standing(tuple(found), tuple(notes))


def _is_ancestor(granter: tuple[int, float], ancestors: set[tuple[int, float]]) -> bool:
    pid, started = granter
    return any(p == pid and abs(s - started) < 0.05 for p, s in ancestors)


def all_approvals(home: Path, env=None) -> Standing:
    """Every approval: approvals.json, and the grants of live sessions (for `wisp approvals list`)."""
    env = os.environ if env is None else env
    loaded = read_persisted(home)
    found = list(loaded.approvals)
    notes = [loaded.problem] if loaded.problem else []
    gdir = runtime_dir(env) / GRANTS_DIR
    try:
        names = sorted(n for n in os.listdir(gdir) if n.endswith(".json"))
    except OSError:
        names = []
    for entry in names:
        who, grants, problem = _read_session_file(gdir / entry, home)
        if problem:
            notes.append(problem)
        elif who is not None and _session_alive(who):
            found.extend(g for g in grants if _grant_alive(g))
    return Standing(tuple(found), tuple(notes))


class Duplicate(StoreError):
    """The approval asked for is stored already; `.existing` is the one that covers it."""

    def __init__(self, existing: Approval):
        self.existing = existing
        super().__init__(f"already stored as {existing.id} ({existing.scope}, up to {existing.level}"
                         f"{', ' + existing.directory if existing.directory else ''}): nothing added")


def add(home: Path, *, pattern: str, scope: str, level: Level, directory: str | None, source: str,
        persist_days: float) -> tuple[Approval, Approval | None]:
    """Store a project/always approval by hand: (the new one, the one it replaced or None).

    Refuses a duplicate: one of the same pattern, scope and project that already covers `level` raises
    Duplicate. One that covers less (granted at a lower level) is replaced by the new one, in the same
    write, so that following the refusal's advice (`--level high`) always takes effect."""
    if scope not in PERSISTED_SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    if level >= Level.DANGEROUS:
        raise ValueError("a dangerous verdict is never persisted")
    now = time.time()
    made = Approval(id=new_id(), pattern=pattern, scope=scope, level=level, source=source, created=now,
                    expires=now + persist_days * 86400, directory=directory if scope == "project" else None)
    try:
        result = _change(home, {"op": "add", "entry": made.to_json()})
    except StoreError:
        raise
    except OSError as exc:
        raise store_error(exc, home / APPROVALS_NAME) from None
    if "duplicate" in result:
        raise Duplicate(_entry(result["duplicate"]))
    return made, (_entry(result["replaced"]) if result.get("replaced") else None)


def find(home: Path, prefix: str, env=None) -> list[Approval]:
    """Every approval (standing or runtime) whose id starts with `prefix`."""
    found = all_approvals(home, env).approvals
    exact = [a for a in found if a.id == prefix]
    return exact or [a for a in found if prefix and a.id.startswith(prefix)]


def revoke(home: Path, approval_id: str, env=None) -> bool:
    """Remove one approval by its full id, wherever it is. True when it was found. StoreError when the
    store cannot be written."""
    try:
        if any(a.id == approval_id for a in read_persisted(home).approvals):
            if _change(home, {"op": "revoke", "id": approval_id})["removed"]:
                return True
        return _change_runtime(home, env, lambda g: g.id != approval_id) > 0
    except StoreError:
        raise
    except OSError as exc:
        raise store_error(exc, home / APPROVALS_NAME) from None


def clear(home: Path, env=None, scope: str | None = None) -> int:
    """Remove every approval (of one scope). Returns how many went. StoreError when it cannot write."""
    try:
        return _clear(home, env, scope)
    except StoreError:
        raise
    except OSError as exc:
        raise store_error(exc, home / APPROVALS_NAME) from None


def _clear(home: Path, env, scope: str | None) -> int:
    count = 0
    if scope in (None, "project", "always"):
        if os.path.lexists(home / APPROVALS_NAME):
            count += _change(home, {"op": "clear", "scope": scope})["count"]
    if scope in (None, "session", "once"):
        count += _change_runtime(home, env, lambda g: scope is not None and g.scope != scope
                                 and not (scope == "session" and g.scope == "once"))
    return count


def _change_runtime(home: Path, env, keep) -> int:
    """Keep only the runtime grants for which keep(grant) is true; how many were removed."""
    removed = 0
    gdir = runtime_dir(env) / GRANTS_DIR
    if not gdir.is_dir():
        return 0
    with locked(home):
        for entry in sorted(n for n in os.listdir(gdir) if n.endswith(".json")):
            who, grants, problem = _read_session_file(gdir / entry, home)
            if problem or who is None:
                continue
            kept = tuple(g for g in grants if keep(g))
            if len(kept) != len(grants):
                _write_session_file(gdir / entry, who, kept, home)
                removed += len(grants) - len(kept)
    return removed


def trust_problems(home: Path, env=None) -> list[str]:
    """Why parts of the wisp home (or the runtime dir) are not trusted or cannot be read, each with its fix
    after config.FIX; empty when all are fine. The very checks the gate makes when it reads them (`wisp
    doctor` shows these)."""
    from wispsh.config import fallback_runtime_dir, runtime_problem

    problems = []
    for path in (home, home / CONFIG_NAME, home / "audit.jsonl", home / LOCK_NAME, home / AUDIT_LOCK_NAME):
        reason = untrusted_reason(path)
        if reason:
            problems.append(reason)
    if not any(p.startswith(str(home) + " ") for p in problems):
        loaded = read_persisted(home)
        if loaded.problem:
            problems.append(loaded.problem.removeprefix("approvals not trusted: "))
        _, problem = _read_private(home / KEY_NAME)
        if problem:
            problems.append(problem)
    rdir = runtime_dir(env)
    for path in (rdir.parent, rdir, rdir / GRANTS_DIR):
        if path == rdir.parent and rdir != fallback_runtime_dir(env):
            continue                    # $XDG_RUNTIME_DIR itself is the login's, not wisp's to judge
        reason = runtime_problem(path)
        if reason:
            problems.append(f"runtime dir not private: {reason}{FIX}set XDG_RUNTIME_DIR to a directory of "
                            "yours (mode 700), or chmod 700 it if it is yours")
    return list(dict.fromkeys(problems))
