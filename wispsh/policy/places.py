"""Path classes: where a word points, after `~`, `$HOME`, `..` and the project root are understood.

A word known only at run time keeps UNKNOWN where its unknown text was; such a path is judged as the worst
place it could name. What an action on each class is worth is the policy's (effects.py), not this file's.
"""
from __future__ import annotations

import os
import posixpath
from stat import S_ISLNK      # (os imports stat: nothing new is loaded)

from wispsh.programs.grammar import UNKNOWN
from wispsh.support.record import Record
from wispsh.vocab.places import (HARMLESS, NETDEV, WISP, WISP_KEY, GIT_INTERNAL, ROOT, HOME, ANCESTOR, PROJECT_ROOT,
    PROJECT, PROJECT_SECRET, PROJECT_CONFIG, AGENT_CONTROL, AGENT_INSTRUCTIONS, SECRET, DOTFILE, HOME_OTHER, TEMP,
    DEVICE, SYSTEM, OUTSIDE, UNKNOWN_PLACE, HARMLESS_PATHS, SYSTEM_ROOTS, PUT_THERE, PACKAGE_TREES, DEVICE_PREFIXES,
    HOME_SECRETS, PROJECT_CONFIG_NAMES, PROJECT_CONFIG_DIRS, CONTROL_NAMES, CONTROL_PATHS, CONTROL_DIRS,
    PYTHON_STARTUP, INSTRUCTION_NAMES, INSTRUCTION_PATHS, SYSTEM_SECRETS, HOME_CONFIG, HOME_CACHES, is_under,
    SSH_NOT_SECRET, is_secret_name, glob_could_be_secret,
    SECRET_CLASSES, CLASS_IDS)  # noqa: F401  (the policy's modules read these two as places.X)

_set = object.__setattr__  # records set their fields once, in __init__

# The gate's own code (this package, wherever it is installed, an editable checkout included): a line that
# writes it changes the gate, as one that writes the wisp home does.
GATE_PACKAGE = posixpath.dirname(posixpath.dirname(posixpath.abspath(__file__)))


class _Roots:
    """What classify measures every path of a context against, worked out once a context."""

    __slots__ = ("gate", "under_gate", "gate_is_root", "project_inside")

    def __init__(self, ctx) -> None:
        gate = frozenset((ctx.wisp_home, *ctx.runtime_dirs, GATE_PACKAGE))   # the gate's home, runtime, code
        self.gate, self.under_gate, self.gate_is_root = gate, tuple(root + "/" for root in gate), "/" in gate
        project = ctx.project_root
        # "project/": a path under it is neither an ancestor of home nor of the project (home is not inside it)
        usable = project != "/" and not is_under(ctx.home, project)
        self.project_inside = project + "/" if usable else None


_ROOTS: dict = {}


def _roots(ctx) -> _Roots:
    key = (ctx.wisp_home, ctx.runtime_dirs, ctx.home, ctx.project_root)
    found = _ROOTS.get(key)
    if found is None:
        if len(_ROOTS) >= 256:          # a warm judge serves many projects: keep it bounded
            _ROOTS.clear()
        found = _ROOTS[key] = _Roots(ctx)
    return found


def classify(path: str, ctx) -> str:
    """The class of an absolute, normalised path."""
    if path in HARMLESS_PATHS or path.startswith(("/dev/fd/", "/dev/pts/")):
        return HARMLESS
    if path.startswith(("/dev/tcp/", "/dev/udp/")):
        return NETDEV
    if path.endswith("/grants.key") and path == posixpath.join(ctx.wisp_home, "grants.key"):
        return WISP_KEY
    roots = _roots(ctx)
    if path in roots.gate or path.startswith(roots.under_gate) or roots.gate_is_root:   # _under any of them
        return WISP
    padded = path + "/"
    if "/.git/hooks/" in padded or path.endswith("/.git/config") or "/.git/info/attributes" in padded:
        return GIT_INTERNAL
    inside = roots.project_inside
    if inside is None or not path.startswith(inside):       # (inside the project: none of the next three)
        if path == "/":
            return ROOT
        if path == ctx.home:
            return HOME
        if is_under(ctx.home, path) or (path != ctx.project_root and is_under(ctx.project_root, path)):
            return ANCESTOR
    home = ctx.home
    project = ctx.project_root
    if inside is not None and (path == project or path.startswith(inside)):
        if is_secret_name(path):
            return PROJECT_SECRET
        name = path.rsplit("/", 1)[-1]
        rel = path[len(project) + 1:]
        if name in CONTROL_NAMES or rel.startswith(CONTROL_PATHS) or (rel + "/").startswith(CONTROL_PATHS) or \
                rel in CONTROL_DIRS or name in PYTHON_STARTUP or name.endswith(".pth"):
            return AGENT_CONTROL
        if name in INSTRUCTION_NAMES or (rel + "/").startswith(INSTRUCTION_PATHS):
            return AGENT_INSTRUCTIONS
        if name in PROJECT_CONFIG_NAMES or any(d in path + "/" for d in PROJECT_CONFIG_DIRS):
            return PROJECT_CONFIG
        return PROJECT_ROOT if path == project else PROJECT
    if path.startswith(SYSTEM_SECRETS):
        return SECRET
    if is_under(path, home):
        rel = path[len(home) + 1:]
        if rel.startswith(".ssh/") and (rel[5:] in SSH_NOT_SECRET or rel.endswith(".pub")):
            return DOTFILE      # read: low; written: persistence (a ProxyCommand, a planted key)
        if rel.startswith(HOME_SECRETS) and (rel + "/").startswith(tuple(s + "/" for s in HOME_SECRETS)):
            return SECRET
        if is_secret_name(path):
            return SECRET
        first = rel.split("/", 1)[0]
        if first.startswith(".") and first not in HOME_CACHES or (rel + "/").startswith(HOME_CONFIG):
            return DOTFILE
        return HOME_OTHER
    if is_secret_name(path):
        return SECRET
    for temp in ctx.temp_dirs:
        if path.startswith(temp + "/"):
            return TEMP
    if path in ctx.temp_dirs:
        return ANCESTOR     # the temp directory itself holds everyone's scratch
    if path.startswith(DEVICE_PREFIXES):
        return DEVICE
    if path.startswith("/dev/"):
        return DEVICE
    if path.startswith(SYSTEM_ROOTS) and (path + "/").startswith(tuple(r + "/" for r in SYSTEM_ROOTS)):
        return SYSTEM
    if path.count("/") == 1:
        return SYSTEM       # a file right under / (/swapfile, /.autorelabel) is the system's
    return OUTSIDE


def system_code(where) -> bool:
    """Whether a place is the system's own code (running it is as ordinary as running `ls`): a system
    directory, but not one of those that hold whatever was put there."""
    path = where.path + "/"
    return where.cls == SYSTEM and (not path.startswith(PUT_THERE) or path.startswith(PACKAGE_TREES))


# ---------------------------------------------------------------- words to places


class Place(Record):
    path: str           # absolute, normalised (for an unknown start: the known tail)
    cls: str
    glob: bool          # names every entry of a directory (`dir/*`)
    unknown: bool       # some of it is known only at run time
    whole_unknown: bool  # nothing but an unknown value (and maybe a glob or slash): could be `/` or `~`

    __slots__ = FIELDS = ('path', 'cls', 'glob', 'unknown', 'whole_unknown')

    def __init__(self, path, cls, glob, unknown, whole_unknown) -> None:
        _set(self, 'path', path)
        _set(self, 'cls', cls)
        _set(self, 'glob', glob)
        _set(self, 'unknown', unknown)
        _set(self, 'whole_unknown', whole_unknown)

    def __str__(self) -> str:
        return self.path


def expand_tilde(word: str, ctx, cwd: str) -> str:
    if not word.startswith("~"):
        return word
    head, slash, rest = word[1:].partition("/")
    if head == "":
        base = ctx.home
    elif head == "+":
        base = cwd
    elif head == "-":
        base = UNKNOWN          # $OLDPWD: wherever the line was before
    else:
        base = "/home/" + head  # another user's home
    return base + (slash + rest if slash else "")


MAX_REMEMBERED_PLACES = 100_000


def place(word: str, ctx, cwd: str) -> Place:
    """Where a path word points. UNKNOWN inside the word marks run-time text."""
    memo = ctx.places
    found = memo.get((word, cwd))
    if found is None:
        if len(memo) >= MAX_REMEMBERED_PLACES:
            memo.clear()
        found = memo[(word, cwd)] = _place(word, ctx, cwd)
    return found


_NORMAL: dict = {}      # directory -> whether posixpath.normpath leaves it as it is


def _normal(directory: str) -> bool:
    found = _NORMAL.get(directory)
    if found is None:
        if len(_NORMAL) >= MAX_REMEMBERED_PLACES:
            _NORMAL.clear()
        found = _NORMAL[directory] = directory.startswith("/") and posixpath.normpath(directory) == directory
    return found


def _place(word: str, ctx, cwd: str) -> Place:
    text = expand_tilde(word, ctx, cwd)
    if UNKNOWN in cwd and not text.startswith("/"):
        text = UNKNOWN + "/" + text     # from a directory known only at run time: as `$D/name`
    glob = False
    if UNKNOWN in text:
        head = text.split(UNKNOWN, 1)[0]
        tail = text.rsplit(UNKNOWN, 1)[1]
        whole = head == "" and tail.strip("/*.") == ""
        if head and "/" in head:
            # `/srv/app/$X` or `build/$X`: the worst it can name is the directory before the unknown text
            base = head.rsplit("/", 1)[0] or "/"
            resolved = posixpath.normpath(posixpath.join(cwd, base))
            return Place(resolved, classify(resolved, ctx), True, True, False)
        if whole:
            return Place("?", UNKNOWN_PLACE, bool(tail), True, True)
        # `$X/.ssh/id_rsa`: judged by what the known tail names wherever it lands. A tail with no slash
        # (`$X.ts`) only ends a name: it names no place of its own, unless it ends a secret's name
        if tail and not tail.startswith("/") and "/" not in tail:
            name_only = posixpath.normpath("/" + tail)
            if is_secret_name(name_only):
                return Place(name_only, SECRET, False, True, False)
            return Place(name_only, UNKNOWN_PLACE, False, True, False)
        tail_path = posixpath.normpath("/" + tail.lstrip("/")) if tail else "/"
        for cls_probe in (posixpath.join(ctx.home, tail.lstrip("/")),):
            cls = classify(posixpath.normpath(cls_probe), ctx)
            if cls in (SECRET, DOTFILE, GIT_INTERNAL, WISP, WISP_KEY, PROJECT_SECRET):
                return Place(tail_path, cls, False, True, False)
        if "/.git/hooks/" in tail_path + "/" or tail_path.endswith("/.git/config"):
            return Place(tail_path, GIT_INTERNAL, False, True, False)
        leaf = tail_path.rsplit("/", 1)[-1]
        if leaf in PYTHON_STARTUP or leaf.endswith(".pth"):
            # `"$(python3 -m site --user-site)"/usercustomize.py`: code every python start runs
            return Place(tail_path, DOTFILE, False, True, False)
        if tail_path.startswith(("/wisp/", "/.wisp/")) or tail_path in ("/wisp", "/.wisp"):
            return Place(tail_path, WISP, False, True, False)
        if is_secret_name(tail_path):
            return Place(tail_path, SECRET, False, True, False)
        return Place(tail_path, UNKNOWN_PLACE, False, True, False)
    if "*" in text or "?" in text or "[" in text:
        named = _glob_place(text, ctx, cwd)
        if named.cls not in (TEMP, PROJECT, HOME_OTHER, OUTSIDE):
            return named        # (a broad or grave class already: `/*` is the root, `~/*` the home)
        matched = _worst_match(text, ctx, cwd)
        return matched if matched is not None and write_level(matched.cls, ctx) > write_level(named.cls, ctx) \
            else named
    return _plain_place(text, ctx, cwd)


MAX_GLOB_MATCHES = 64


def write_level(cls: str, ctx):
    """The level of a write into a place of class `cls` (the context's, its overrides included)."""
    return ctx.path_level("write", cls, f"path.write.{CLASS_IDS[cls]}")


def _worst_match(text: str, ctx, cwd: str) -> "Place | None":
    """The worst place a glob matches on disk now (`/tmp/x/hom?/.bashrc` is a home's startup file where the
    home lies in /tmp; `/tmp/runtime-*/wisp` the gate's own state): the pattern read as a name alone does
    not say. Hidden names only where the pattern spells the dot, as bash matches them."""
    if UNKNOWN in cwd:
        return None
    import glob as globbing      # (imports re: only a line with a glob pays it)
    from itertools import islice

    worst, level = None, None
    for path in islice(globbing.iglob(posixpath.join(cwd, text)), MAX_GLOB_MATCHES):
        path = posixpath.normpath(path)
        cls = classify(path, ctx)
        found = write_level(cls, ctx)
        if level is None or found > level:
            worst, level = Place(path, cls, True, False, False), found
    return worst


def _glob_place(text: str, ctx, cwd: str) -> Place:
    """What a glob names, from the pattern alone: the directory it ranges over, a name it could match."""
    # the directory part before the first glob character is what the glob ranges over
    cut = min(i for i in (text.find("*"), text.find("?"), text.find("[")) if i >= 0)
    head = text[:cut]
    base = (head.rsplit("/", 1)[0] or "/") if "/" in head else ""
    rest = head.rsplit("/", 1)[-1] + text[cut:]      # the whole last name: `.env*`, `id_*`
    resolved = posixpath.normpath(posixpath.join(cwd, base or "."))
    if "/" in rest.strip("/"):
        # `dir/*/x`: the glob is a directory level; the worst it names is inside `dir`
        inner = rest.rsplit("/", 1)[1]
        probe = posixpath.join(resolved, "x", inner) if inner and not any(c in inner for c in "*?[") else resolved
        cls = classify(posixpath.normpath(probe), ctx)
        return Place(resolved, cls, True, False, False)
    # `~/.ssh/id_*`: classify a name the glob could match
    name = rest.replace("*", "x").replace("?", "x")
    probe = posixpath.normpath(posixpath.join(resolved, name)) if not name.startswith("[") else resolved
    cls = classify(probe, ctx)
    dir_cls = classify(resolved, ctx)
    if dir_cls in (ROOT, HOME, ANCESTOR) and "/" not in rest:
        if glob_could_be_secret(rest) and cls in (HOME_OTHER, OUTSIDE, DOTFILE, SECRET, SYSTEM):
            return Place(probe, SECRET, True, False, False)     # `~/*.pem`: the keys in your home
        return Place(resolved, dir_cls, True, False, False)
    if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP, DOTFILE) and glob_could_be_secret(rest):
        cls = PROJECT_SECRET if cls == PROJECT else SECRET
    if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP, PROJECT_SECRET, SECRET, DOTFILE, SYSTEM, WISP, WISP_KEY,
               GIT_INTERNAL, DEVICE):
        if cls in (PROJECT, HOME_OTHER, OUTSIDE, TEMP):
            # every entry of the directory: its worst entry decides (home's dotfiles, the project's .git)
            dir_cls = classify(resolved, ctx)
            if dir_cls in (HOME, ROOT, ANCESTOR, SYSTEM, SECRET, DOTFILE, WISP, WISP_KEY):
                return Place(resolved, dir_cls, True, False, False)
        return Place(probe, cls, True, False, False)
    return Place(resolved, classify(resolved, ctx), True, False, False)


def _plain_place(text: str, ctx, cwd: str) -> Place:
    if text and text[0] != "/" and "//" not in text and text[-1] != "/" and "/." not in "/" + text and \
            _normal(cwd):
        # a plain relative name (`src/f.py`) in a normalised directory: no `.`, `..` or empty step for
        # normpath to take away
        resolved = (cwd if cwd != "/" else "") + "/" + text
    else:
        resolved = posixpath.normpath(posixpath.join(cwd, text)) if text else cwd
    if resolved.startswith("//"):
        resolved = "/" + resolved.lstrip("/")
    cls = classify(resolved, ctx)
    linked = _through_links(resolved, cls, ctx)
    if linked is not None:
        return Place(linked[0], linked[1], False, False, False)
    return Place(resolved, cls, False, False, False)


# A link on disk can lead an innocent-looking path into these: judge the path by where it lands.
LINK_TARGETS = frozenset({WISP, WISP_KEY, SECRET, DOTFILE, GIT_INTERNAL, DEVICE, HOME, ROOT})
# Classes where a write already is as bad as it gets: a link out of them leads nowhere worse.
GRAVE = frozenset({WISP, WISP_KEY, GIT_INTERNAL, SECRET, DOTFILE, DEVICE, SYSTEM})
# Whole trees a write into is bad but bounded; a link from one of them to another changes nothing.
BROAD = frozenset({HOME, ROOT, ANCESTOR})
LINK_SYSTEM_ROOTS = ("/etc/", "/usr/", "/bin/", "/sbin/", "/boot/", "/lib", "/root/", "/var/spool/cron")
_REAL_ANCHORS: dict = {}


def _through_links(resolved: str, cls: str, ctx) -> tuple[str, str] | None:
    """(path, class) where a symlink makes `resolved` land in a more sensitive place; None when it does not."""
    if cls in (HARMLESS, NETDEV, WISP, WISP_KEY, DEVICE) or not resolved.startswith("/") or resolved.startswith(
            ("/proc/", "/sys/", "/dev/")):
        return None
    try:
        real = _realpath(resolved, ctx)
    except (OSError, ValueError):
        return None
    if real == resolved:
        return None
    logical = _logical(real, ctx)
    if logical == resolved:
        return None
    landed = classify(logical, ctx)
    if landed == cls:
        return None
    if landed in LINK_TARGETS or landed == SYSTEM and (logical + "/").startswith(LINK_SYSTEM_ROOTS):
        if cls not in GRAVE and (cls not in BROAD or landed not in BROAD):
            return logical, landed
    return None


def _realpath(path: str, ctx) -> str:
    """os.path.realpath(path), its directory's real path taken once a line (a long line names many files in
    few directories): the leaf is looked at on its own, and only a leaf that is itself a link is resolved whole."""
    parent, name = path.rsplit("/", 1)
    parent = parent or "/"
    known = ctx.real_dirs
    real_parent = known.get(parent)
    if real_parent is None:
        if len(known) >= MAX_REMEMBERED_PLACES:
            known.clear()
        real_parent = known[parent] = os.path.realpath(parent)
    if not name:
        return real_parent
    try:
        if S_ISLNK(os.lstat(path).st_mode):
            return os.path.realpath(path)
    except OSError:
        pass                            # as realpath does: a leaf that cannot be looked at is taken as named
    return real_parent.rstrip("/") + "/" + name


def _logical(real: str, ctx) -> str:
    """A real path written back in the line's own terms (home, project and wisp home may be links too)."""
    for anchor in (ctx.wisp_home, ctx.project_root, ctx.home, *ctx.temp_dirs):
        real_anchor = _REAL_ANCHORS.get(anchor)
        if real_anchor is None:
            try:
                real_anchor = _REAL_ANCHORS[anchor] = os.path.realpath(anchor)
            except (OSError, ValueError):
                real_anchor = _REAL_ANCHORS[anchor] = anchor
        if real_anchor != anchor and is_under(real, real_anchor) and real_anchor != "/":
            return anchor + real[len(real_anchor):]
    return real


def is_directory(where: Place) -> bool:
    """Whether a known path names a directory on disk now (a copy into it lands at dir/name)."""
    if where.unknown or where.glob or not where.path.startswith("/"):
        return False
    try:
        return os.path.isdir(where.path)
    except (OSError, ValueError):
        return False



# The secret stores a whole tree can hold, by where they are (HOME_SECRETS under the home, SYSTEM_SECRETS as
# they are): a recursive read of a directory that holds one reads that store too (`grep -r key ~`, `tar c /etc`).
# The project's own secrets (a .env) are not named here: they are found by name, file by file.
SYSTEM_STORES = tuple(s.rstrip("_") for s in SYSTEM_SECRETS)


def store_under(where: Place, ctx, hidden: bool = True) -> str | None:
    """A secret store (a path) that lies inside the tree `where` names, or None. `hidden=False`: the reader
    skips hidden entries (rg and ag without --hidden), so a store behind a dot-named directory is not read."""
    if where.unknown or not where.path.startswith("/"):
        return None
    top = where.path.rstrip("/") + "/" if where.path != "/" else "/"
    home = ctx.home.rstrip("/") + "/"
    for store in (home + s for s in HOME_SECRETS):
        if store.startswith(top) and store != top.rstrip("/") and (
                hidden or not any(step.startswith(".") for step in store[len(top):].split("/"))):
            return store
    for store in SYSTEM_STORES:
        if store.startswith(top) and (hidden or not any(step.startswith(".") for step in store[len(top):].split("/"))):
            return store
    return _other_homes_store(top, hidden)


# Where the machine's homes are (every user's, not only this one's): a tree over one of them, or over one home
# in it, reads the stores of each home there (`grep -r … /home`, `rg -uuu … /Users`).
HOMES_DIRS = ("/home/", "/Users/", "/var/home/", "/export/home/")


def _other_homes_store(top: str, hidden: bool) -> str | None:
    for homes in HOMES_DIRS:
        if homes.startswith(top):               # /home itself, or a parent of it (/var/ for /var/home)
            home = homes + "*/"
        elif top.startswith(homes) and top.count("/") == homes.count("/") + 1:
            home = top                          # one user's home: /home/alice/
        else:
            continue
        for store in HOME_SECRETS:
            if store.startswith("Library/") and homes != "/Users/":
                continue                        # macOS's stores live only in macOS's homes
            if hidden or not any(step.startswith(".") for step in store.split("/")):
                return home + store
    return None
