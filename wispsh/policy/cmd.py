"""What a family rule works on: one command, its words resolved, and what it found so far."""
from __future__ import annotations

import posixpath
from _operator import attrgetter, itemgetter

from wispsh.model import Finding, Level
from wispsh.policy import places
from wispsh.parse.words import expand_word  # noqa: F401  (the one word decoder; engine imports it from here)
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

_VAR = lazy_re(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


class Facts:
    """What the whole-line rules need to know about a part."""

    __slots__ = ("secret_source", "net_fetch", "net_send", "net_dev", "decoder", "stdin_interp",
                 "runtime_code", "writes", "fetch_writes", "runs", "noop", "cd_to", "assigns", "interp",
                 "deletes", "lists_big", "found_under", "secret_copy", "links", "builds", "sends", "reads", "names",
                 "images", "runs_images", "removes", "encrypts", "namerefs", "repo_files")

    def __init__(self) -> None:
        self.secret_source = ""         # why this part emits secrets ("" when it does not)
        self.net_fetch = False          # prints what it fetched from the network
        self.net_send = False           # sends data (its stdin or a file) over the network
        self.net_dev = False            # opens a /dev/tcp socket
        self.decoder = False            # decodes hidden text (base64 -d, xxd -r)
        self.stdin_interp = False       # runs code read from its stdin
        self.runtime_code = False       # runs code given as a word known only at run time (sh -c "$(…)")
        self.writes: list[str] = []     # files it writes
        self.fetch_writes: list[str] = []   # files it writes with what it fetched from the network
        self.runs: list[str] = []       # files it runs
        self.noop = False
        self.cd_to: str | None = None
        self.assigns: dict[str, str] = {}
        self.interp = False             # an interpreter or shell
        self.deletes = False            # deletes files
        self.lists_big = ""             # lists everything under / or ~ (for `find / | xargs rm`)
        self.found_under: list[str] = []    # find's start paths, for the {} of its -exec commands
        self.secret_copy = False        # copies a secret somewhere a later push or upload can take it
        self.links: list[tuple[str, str]] = []  # symlinks it makes: (link path, the path it points at)
        self.builds: list[str] = []     # directories whose build files it runs (make, pip install ., npm test)
        self.sends: list[str] = []      # what it sends off the machine: absolute paths of files, "-" its input
        self.reads: list[str] = []      # files whose contents it reads
        self.names: list[str] = []      # path names it prints (ls F, find D, fd): what `| xargs cmd` is given
        # local image names it (re)defines, in order: (name, what the name now stands for: "" an image built from
        # the project, another name (`docker tag SRC NAME`), "?" anything else (pulled, loaded, removed)); the
        # name "*" for every name. A name is "NAME:TAG STORE" (programs/containers.py local_image)
        self.images: list[tuple[str, str]] = []
        self.runs_images: list[str] = []    # local image names it runs by tag (a build before it may have made them)
        self.removes: list[str] = []    # paths it deletes (or moves away): what has no restore point if ignored
        self.encrypts = False           # encrypts the files it reads (with a key or passphrase of its caller's)
        self.namerefs: list[str] = []   # names `declare -n` ties to another (and those it ties them to; "*": any)
        self.repo_files: list[str] = []     # files git reads as the repository it uses ("dir/": anything under)

    def summary(self) -> "FactsSummary":
        values = _FACT_VALUES(self)
        if not any(values) and self.cd_to is None:
            return NO_FACTS
        values = list(values)
        for i in _LIST_FACTS:           # frozen: the summary outlives the part's Facts
            values[i] = tuple(values[i])
        for i in _DICT_FACTS:
            values[i] = dict(values[i])
        return tuple.__new__(FactsSummary, values)


FACT_NAMES = Facts.__slots__
# A part's facts kept for the line: one small immutable record, shared when there is nothing to say.


class FactsSummary(tuple):
    """FACT_NAMES in order, as a namedtuple of them (without collections.namedtuple's import and class
    building: this module is on the path of every line)."""

    __slots__ = ()

    def __new__(cls, *values):
        if len(values) != len(FACT_NAMES):
            raise TypeError(f"FactsSummary takes {len(FACT_NAMES)} values, not {len(values)}")
        return tuple.__new__(cls, values)

    def __repr__(self) -> str:
        return "FactsSummary(" + ", ".join(f"{name}={value!r}" for name, value in zip(FACT_NAMES, self)) + ")"


for _index, _name in enumerate(FACT_NAMES):
    setattr(FactsSummary, _name, property(itemgetter(_index)))
del _index, _name
_EMPTY = Facts()
_FACT_VALUES = attrgetter(*FACT_NAMES)
_LIST_FACTS = tuple(i for i, name in enumerate(FACT_NAMES) if isinstance(getattr(_EMPTY, name), list))
_DICT_FACTS = tuple(i for i, name in enumerate(FACT_NAMES) if isinstance(getattr(_EMPTY, name), dict))
NO_FACTS = FactsSummary(*(() if isinstance(v, list) else {} if isinstance(v, dict) else v
                          for v in (getattr(_EMPTY, name) for name in FACT_NAMES)))


NO_IMAGES: frozenset = frozenset()


class Cmd:
    """One command being judged: program name, resolved args, and the findings."""

    __slots__ = ("name", "args", "part", "key", "ctx", "cwd", "found", "facts", "subst", "privileged",
                 "via_xargs", "xargs_word", "delegate_to", "delegated", "fired", "images")

    def __init__(self, name, args, part, key, ctx, cwd, subst, facts=None):
        self.name = name
        self.args = args
        self.part = part
        self.key = key
        self.ctx = ctx
        self.cwd = cwd
        self.subst = subst
        self.found: list[Finding] = []
        self.facts = facts or Facts()
        self.privileged = bool(key is not None and key.privileged)
        self.via_xargs = bool(key is not None and "xargs" in key.wrappers)
        self.xargs_word: str | None = UNKNOWN   # the word xargs appends (a name the stage before prints; None: -I)
        self.delegate_to: list[str] | None = None     # words of a command this one runs (busybox rm …)
        self.delegated = False      # judging words a rule handed on: the splitter did not see them as a part
        self.fired: set[str] = set()    # ids of the table rows that applied (the table tests read them)
        self.images = NO_IMAGES     # local image names the line built for certain before this command (sequence.py)

    def code_text(self, text: str, what: str, at_least: Level | str | tuple = Level.SAFE) -> None:
        """Shell code the splitter did not see as parts (`unshare sh -c '…'`): split and judge it here.
        `at_least`: the part is at least as bad as this effect kind (or `(kind, rule id)`: the user may set that
        rule's level), ranked by the policy; a description names kinds, never levels."""
        if not isinstance(at_least, Level):
            kind, rule = (at_least, "") if isinstance(at_least, str) else at_least
            at_least = self.ctx.level_of(kind, rule)
        verdict = self.ctx.judge_code(text, self.ctx, self.cwd)
        level = max(verdict.level, at_least)
        if level > Level.SAFE:
            reason = verdict.reasons[0] if verdict.reasons and verdict.level >= at_least else "runs it"
            rule = verdict.rules[0] if verdict.findings and verdict.level >= at_least else "code.runs"
            self.fired.add(rule)
            self.found.append(Finding(level, rule, f"{what}: {reason}", "run-code"))

    def splitter_saw(self, word: str) -> bool:
        """Whether the splitter read `word` as written in this command's part (a static word, or one attached
        to its option: `-oProxyCommand=…`), so that the code it holds is parts of their own already. A word a
        rule handed on, or one the line's own variables made, was not: the rule judges that code itself."""
        part = self.part
        if self.delegated or part is None:
            return False
        argv = part.argv
        if word in argv:
            return True
        n = len(word)
        for w in argv:
            if w is not None and len(w) > n and w[0] == "-" and w.endswith(word):
                head = w[:len(w) - n]       # `-o`, `-vo`, `--extcmd=`
                long_form = head[:2] == "--" and head[-1] == "=" and head[2:-1].replace("-", "").isalpha()
                if head[1:].isalpha() or long_form:
                    return True
        return False

    def runs_setting(self, code: str, word: str, what: str) -> None:
        """The command line a setting holds (a pager, an editor, a proxy command, an alias): judged here,
        unless the splitter made parts of it from `word`."""
        if not self.splitter_saw(word):
            self.code_text(code, what)

    # ------------------------------------------------------------ findings

    def sets_variable(self, name: str, value: str | None, text: str, split: bool = False, how: str = "") -> bool:
        """`NAME=value` given to what runs: the policy's table of variables that make programs run code
        (policy/env.py) says how bad. A command line it names (PAGER, EDITOR, GIT_SSH_COMMAND) is judged too:
        `split` when the splitter made parts of it, else here. True when it found something.

        `how`: the form that binds it when it is not `NAME=value` (`read`, `for`, `printf -v`, …: the variable
        model, policy/bindings.py); such a form binding text known only at run time to a variable that steers
        a program is code the gate cannot read (at least high)."""
        from wispsh.policy.env import judge_variable, variable_rule

        found = judge_variable(name, value, text, self.place)
        if found is not None:
            level, reason = found
            if how and value is None:
                level, reason = max(level, Level.HIGH), f"{how} binds {name} to text known only at run time: {reason}"
            elif how:
                reason = f"{reason} ({how} binds it)"
            rule = variable_rule(name.split("[", 1)[0].rstrip("+") or "unknown")
            self.found.append(Finding(self.ctx.overrides.get(rule, level), rule, reason, "env"))
        if not split and value is not None and UNKNOWN not in value:
            from wispsh.programs import config_code

            what, code = config_code.variable(name, value)
            if what == config_code.CODE:
                self.code_text(code, f"{name} runs")
                return True
        return found is not None

    def does(self, kind: str, rule: str, says: str) -> None:
        """An effect of this command: the policy (effects.py, and the user's overrides) gives its level."""
        self.fired.add(rule)
        self.found.append(Finding(self.ctx.level_of(kind, rule), rule, says, kind))

    def runs_runtime_code(self, rule: str, says: str) -> None:
        """It runs code known only at run time (a `$VAR`, a `$(…)`, a pipe): the effect, and the fact the
        line's rules read (Facts.runtime_code: what a pipe or a fetch feeds it runs, policy/line.py)."""
        self.facts.runtime_code = True
        self.does("run-code", rule, says)

    def level(self) -> Level:
        return max((f.level for f in self.found), default=Level.SAFE)

    # ------------------------------------------------------------ places

    def place(self, word: str) -> places.Place:
        return places.place(word, self.ctx, self.cwd)

    def expand_tilde(self, word: str) -> str:
        """`word` with the `~` the shell expands already expanded (for a program that sees it so)."""
        return places.expand_tilde(word, self.ctx, self.cwd)

    @staticmethod
    def is_directory(where: places.Place) -> bool:
        return places.is_directory(where)

    def store_under(self, where: places.Place, hidden: bool = True) -> str | None:
        """A secret store inside the tree `where` names (policy/places.store_under), or None."""
        return places.store_under(where, self.ctx, hidden)

    # ------------------------------------------------------------ scripts the command runs (policy/scripts.py)

    def judge_script(self, word: str, what: str) -> str:
        """A project shell script this command runs or sources, its text judged as code; returns the status."""
        from wispsh.policy.scripts import judge_script
        return judge_script(self, word, what)

    def project_script(self, word: str) -> tuple[str, str | None, str]:
        """(status, text, path) of the project file `word` names; text only for one the gate may read."""
        from wispsh.policy.scripts import project_script
        return project_script(self, word)

    def judge_recipes(self, text: str, what: str) -> None:
        """A makefile's text: its recipes judged as shell code (policy/scripts.judge_recipes)."""
        from wispsh.policy.scripts import judge_recipes
        judge_recipes(self, text, what)

    def script_file(self, word: str, what: str, judge, rule: str) -> None:
        """A script a tool runs by an option (`sed -f F`): its text handed to `judge`, else judged as run."""
        from wispsh.policy.scripts import script_file
        script_file(self, word, what, judge, rule)

    def _apply(self, action: str, word: str, verb: str, tree_unknown_dangerous: bool = False,
               column: str | None = None) -> places.Place:
        """The finding for `action` on the place `word` names (rule path.ACTION.CLASS), at the level of the
        policy's `column` for that place (the action's own, unless it is a kind of another: embed reads)."""
        where = self.place(word)
        rule = f"path.{action}.{places.CLASS_IDS[where.cls]}"
        level = self.ctx.path_level(column or action, where.cls, rule)
        if tree_unknown_dangerous and where.whole_unknown:
            level = Level.DANGEROUS
        if level > Level.SAFE:
            self.found.append(Finding(level, rule, f"{verb} {_describe(where, word)}", f"path:{action}"))
        return where

    def write(self, word: str, verb: str = "writes") -> places.Place:
        where = self._apply("write", word, verb)
        self.facts.writes.append(where.path)
        return where

    def write_into(self, dest: str, sources, verb: str = "writes", into: bool = False,
                   contents_slash: bool = False) -> None:
        """A copy's destination: when it is a directory, each source lands at dest/name.

        `cp .bashrc ~` writes ~/.bashrc; `cp -r dotfiles/. ~` (or rsync's `dotfiles/`) writes names the gate
        cannot see into dest - in your home directory those may be your shell config.
        """
        where = self.write(dest, verb)
        if not (into or dest.endswith("/") or where.cls in (places.HOME, places.ROOT, places.ANCESTOR)
                or len(sources) > 1 or places.is_directory(where)):
            return
        for source in sources:
            if UNKNOWN in source or "://" in source:
                continue
            trimmed = source.rstrip("/")
            name = trimmed.rsplit("/", 1)[-1]
            if name in ("", ".", "..", "*") or contents_slash and source.endswith("/") or name.startswith("*"):
                if where.cls in (places.HOME, places.ROOT, places.ANCESTOR):
                    self.does("persist", "path.copy-contents-home", f"copies a directory's contents into "
                                                                    f"{where.cls} (it may overwrite your shell config)")
                continue
            self.write(where.path.rstrip("/") + "/" + name, verb)

    def unpack_into(self, word: str, verb: str = "extracts into") -> places.Place:
        """An archive extracted into a directory: names the gate cannot see land there. In your home (or / or a
        directory holding it) they may overwrite your shell config, as `cp -r dotfiles/. ~` may."""
        where = self.write(word, verb)
        if where.cls in (places.HOME, places.ROOT, places.ANCESTOR):
            self.does("persist", "path.unpack-into-home", f"extracts an archive into {where.cls} (it may overwrite "
                                                          "your shell config)")
        return where

    def create(self, word: str, verb: str = "creates") -> places.Place:
        return self._apply("create", word, verb)

    def read(self, word: str, verb: str = "reads", action: str = "read") -> places.Place:
        where = self._apply(action, word, verb, column="read")
        self.facts.reads.append(where.path)
        public_key = where.path.endswith(".pub") and not where.glob     # ~/.ssh/id_ed25519.pub is meant to be shared
        if (where.cls in places.SECRET_CLASSES and not public_key or where.whole_unknown) and \
                not self.facts.secret_source:
            self.facts.secret_source = f"reads {_describe(where, word)}"
        if where.cls == places.NETDEV:
            self.facts.net_dev = True
        return where

    def read_tree(self, word: str, verb: str = "reads", hidden: bool = True, action: str = "read") -> places.Place:
        """Every file under a directory (`grep -r`, `rg`, `tar c`, `cp -r`): a tree that holds a secret store
        (your home, /, ~/.config, /etc) reads that store too, so it is judged as reading the secrets there
        (path.read-tree.secret); any other tree as reading the directory. `hidden=False`: the reader skips
        dot-named entries, so a store behind one is not read."""
        where = self.place(word)
        store = places.store_under(where, self.ctx, hidden) if where.cls not in places.SECRET_CLASSES else None
        if store is None:
            return self.read(word, verb, action)
        rule = "path.read-tree.secret"
        level = self.ctx.path_level("read", places.SECRET, rule)
        shown = store.replace(self.ctx.home, "~", 1) if store.startswith(self.ctx.home + "/") else store
        self.found.append(Finding(level, rule, f"{verb} every file under {_describe(where, word)}, the secrets "
                                               f"in {shown} among them", "path:read"))
        self.facts.reads.append(where.path)
        if not self.facts.secret_source:
            self.facts.secret_source = f"reads every file under {_describe(where, word)} (secrets among them)"
        return places.Place(store, places.SECRET, True, False, False)

    def embed(self, word: str, verb: str = "puts the contents of", recursive: bool = False) -> places.Place:
        """A file whose contents go into what the command makes - a commit or tag message, an object in the
        repository, an archive member: a read (the place decides: path.embed.CLASS at the read's level), and a
        secret put there is copied where a later push or upload takes it (facts.secret_copy)."""
        where = self.read_tree(word, verb, action="embed") if recursive else self.read(word, verb, "embed")
        if where.cls in places.SECRET_CLASSES:
            self.facts.secret_copy = True
        return where

    def unknown_reads(self) -> None:
        """A program the gate does not know, given a secret's path (an operand, an option's value `--x=F`, a
        response file `@F`, a `file://F` URL), can print it: it is judged as reading it (GTFOBins' file-read
        of hundreds of tools). Other paths say nothing of what it does with them."""
        for word in self.args:
            if UNKNOWN in word or "/" not in word and "." not in word:
                continue
            path = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
            path = path[1:] if path.startswith("@") else path[7:] if path.startswith("file://") else path
            if path and not path.startswith("-") and "://" not in path and \
                    self.place(path).cls in places.SECRET_CLASSES:
                self.read(path, f"{self.name} is given")

    def list_names(self, word: str, verb: str = "lists") -> places.Place:
        """Names, sizes, modes of what a path holds; not its contents."""
        where = self._apply("list", word, verb)
        if where.cls == places.NETDEV:
            self.facts.net_dev = True
        return where

    def send(self, word: str, verb: str = "sends") -> places.Place | None:
        """A file whose contents this command sends off the machine (`curl -T F`, `scp F host:`), or `-`, its input.

        The place decides the level (effects.SEND): a project file is high; a secret, your shell config, the
        gate's files or a whole home is dangerous. Facts: net_send, and `sends` names what goes (a path, "-").
        """
        facts = self.facts
        facts.net_send = True
        if word in STDIN_WORDS:
            facts.sends.append("-")
            self.does("send", "path.send.input", f"{verb} its input off this machine")
            return None
        where = self.read(word, verb)
        facts.sends.append(where.path)
        rule = f"path.send.{places.CLASS_IDS[where.cls]}"
        level = self.ctx.path_level("send", where.cls, rule)
        if where.path.endswith(".pub") and not where.glob and where.cls in (places.SECRET, places.DOTFILE):
            rule = "path.send.public-key"      # ~/.ssh/id_ed25519.pub is meant to be shared
            level = min(level, self.ctx.level_of("send", rule))
        if level > Level.SAFE:
            self.found.append(Finding(level, rule, f"{verb} {_describe(where, word)} off this machine", "path:send"))
        return where

    def delete(self, word: str, recursive: bool) -> places.Place:
        self.facts.deletes = True
        if recursive:
            where = self._apply("delete-tree", word, "recursive delete of", tree_unknown_dangerous=True)
        else:
            where = self._apply("delete", word, "deletes")
        if where.unknown:
            self.facts.removes.append(UNKNOWN)
        elif where.glob or any(c in word for c in "*?["):      # the pattern, as the shell will expand it
            self.facts.removes.append(posixpath.join(self.cwd, places.expand_tilde(word, self.ctx, self.cwd)))
        else:
            self.facts.removes.append(where.path)
        return where

    def mode(self, word: str, recursive: bool, verb: str) -> places.Place:
        where = self._apply("mode", word, verb)
        if recursive and (where.cls in (places.ROOT, places.HOME, places.ANCESTOR, places.SYSTEM)
                          or where.whole_unknown):
            self.does("destroy", "path.mode-tree", f"{verb} everything under {_describe(where, word)}")
        return where

    def run_file(self, word: str, what: str = "runs") -> places.Place:
        """A script or program file it runs: project code and the system's own are moderate, anything else
        (temp, home, /opt, /srv, another user's home) high."""
        where = self.place(word)
        self.facts.runs.append(where.path)
        if where.cls in (places.PROJECT, places.PROJECT_ROOT):
            self.does("run-project", "path.run.project", f"{what} project code")
        elif where.cls == places.HARMLESS and (where.path == "/dev/stdin" or where.path.startswith("/dev/fd/")):
            # its input, or a pipe (`< <(cmd)`, `-f <(cmd)`): what another command prints
            self.does("run-code", "path.run.stdin", f"{what} code from its input")
            self.facts.stdin_interp = True
        elif places.system_code(where):
            self.does("run-project", "path.run.system", f"{what} {where.path}")
        else:
            self.does("run-code", "path.run.outside", f"{what} code from {_describe(where, word)}")
        return where

    def build_in(self, word: str, what: str) -> places.Place:
        """A tool that runs the code of a directory (its build files, scripts or tests: `make -C D`, `npm
        --prefix D run build`, `cargo --manifest-path D/Cargo.toml`, `go run D`, `pytest D`, a build after `cd
        D`): the project's own is what its row says (run-project); the system's build trees are moderate;
        anywhere else (temp, home, /opt, a place known only at run time) it runs code from there (high)."""
        where = self.place(word)
        self.facts.builds.append(where.path)
        cls = where.cls
        if cls in (places.PROJECT, places.PROJECT_ROOT):
            return where
        if places.system_code(where):
            self.does("run-project", "path.build.system", f"{what} runs the build files of {where.path}")
        else:
            self.does("run-code", "path.build.outside", f"{what} runs the code in {_describe(where, word)}")
        return where


STDIN_WORDS = frozenset({"-", "", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _describe(where: places.Place, word: str) -> str:
    shown = word.replace(UNKNOWN, "…")
    cls = where.cls
    if cls in (places.ROOT, places.HOME, places.WISP, places.WISP_KEY, places.SECRET, places.DOTFILE, places.GIT_INTERNAL,
               places.SYSTEM, places.DEVICE, places.ANCESTOR, places.UNKNOWN_PLACE, places.PROJECT_SECRET):
        if cls in (places.ROOT, places.HOME):
            return cls
        return f"{shown} ({cls})"
    if cls == places.PROJECT_ROOT:
        return "the whole project"
    return shown if cls in (places.PROJECT, places.TEMP, places.HARMLESS) else f"{shown} ({cls})"

