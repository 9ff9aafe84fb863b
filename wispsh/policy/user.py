"""The user's own rule tables: `$WISP_HOME/rules/*.toml`, the form of the built-in tables, as data.

A table can teach the gate a program it does not know, and set the level of any finding by its rule id:

    schema = 1

    [levels]
    "git.push" = "moderate"              # my pushes go to my own fork

    [[program]]
    name = "frobnicate"
    read_only = ["list", "status"]
    default = { id = "frobnicate.verb", does = "change", says = "{cmd} changes frobs" }

    [program.verbs.nuke]
    row = [{ id = "frobnicate.nuke", does = "destroy", says = "deletes every frob",
             examples = ["frobnicate nuke --all"] }]

Policy lives with the user: tables come only from the wisp home, never from a project, and are trusted only
when the user's own and not writable by others. A table that cannot be read or is wrong refuses every line
(a ConfigError naming the file and line). The gate's own rules (`gate.*`, writes to the wisp home, `WISP_*`
variables) cannot be lowered. Examples are checked when a table changes (pipeline.check_user_rules).
"""
from __future__ import annotations

import os
import stat

from wispsh.config import ConfigError, untrusted_reason
from wispsh.model import Level
from wispsh.policy import effects
from wispsh.support.lazyre import lazy_re, re

SCHEMA = 1
RULES_DIR = "rules"
MAX_TABLE_BYTES = 1 << 20
# compiled on first use: every line imports this module, few have tables to read
ID = lazy_re(r"[a-z0-9][a-z0-9_.+-]*\Z")
NAME = lazy_re(r"[A-Za-z0-9_.+-][A-Za-z0-9_.+-]*\Z")
# Findings a user table may not lower: the gate's own integrity.
PROTECTED = lazy_re(r"(gate\.|path\.[a-z-]+\.wisp-(home|key)\Z|env\.WISP_|ln\.to-wisp\Z)")

TOP_KEYS = {"schema", "levels", "program"}
COMMAND_KEYS = {"values", "long_values", "longs", "optional", "stop", "row", "on", "verbs", "read_only", "default",
                "no_verb", "examples"}
PROGRAM_KEYS = COMMAND_KEYS | {"name", "aliases", "doc"}
ROW_KEYS = {"id", "does", "says", "when", "stop", "sets", "examples", "not_examples", "level"}
ON_KEYS = {"action", "select", "id", "says", "recursive", "when", "into", "examples", "not_examples"}
WHEN_KEYS = {"flag", "value", "unless", "no_value", "operands", "arg", "operand", "first", "count", "runtime",
             "at_most", "option", "equals", "starts", "contains", "place"}
SELECTIONS = {"operands", "first", "rest", "last", "sources", "dest", "here"}
ACTIONS = {"list", "read", "write", "create", "delete", "mode", "run", "build", "unpack", "embed"}


class UserRules:
    """What the user's tables say: programs by name, level overrides by rule id, and where each came from."""

    __slots__ = ("programs", "overrides", "files", "origin", "digest")

    def __init__(self, programs=None, overrides=None, files=(), origin=None, digest: str = ""):
        self.programs = dict(programs or {})    # name -> Program
        self.overrides = dict(overrides or {})  # rule id -> Level
        self.files = tuple(files)
        self.origin = dict(origin or {})        # rule id or program name -> "file:line"
        self.digest = digest                    # of every table's bytes, for the example cache

    def multiplexers(self) -> frozenset[str]:
        """Programs with verbs: their approval key names the verb (`frobnicate nuke *`)."""
        return frozenset(name for name, program in self.programs.items() if program.has_verbs)


EMPTY = UserRules()
_loaded: dict = {}


def rules_dir(config) -> str:
    return os.path.join(config.home, RULES_DIR)


def load(config) -> UserRules:
    """The user's tables for this config's wisp home (read once per process and directory state)."""
    where = rules_dir(config)
    try:
        st = os.stat(where)
    except FileNotFoundError:
        return EMPTY
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read: {exc.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise ConfigError(f"{where}: not a directory (user rule tables go in it)")
    reason = untrusted_reason(where, st)
    if reason:
        raise ConfigError(f"{where}: not trusted: {reason}")
    names = sorted(n for n in os.listdir(where) if n.endswith(".toml") and not n.startswith("."))
    state = (where, st.st_mtime_ns, tuple((n, os.stat(os.path.join(where, n)).st_mtime_ns) for n in names))
    found = _loaded.get(state)
    if found is None:
        found = _loaded[state] = _load_files([os.path.join(where, n) for n in names])
    return found


def _load_files(paths) -> UserRules:
    import hashlib

    from wispsh.programs import index

    programs, overrides, origin = {}, {}, {}
    digest = hashlib.sha256()
    for path in paths:
        text = read_table(path)
        digest.update(path.encode() + b"\0" + text.encode() + b"\0")
        found_programs, found_levels, found_origin = parse_table(text, path)
        for name, program in found_programs.items():
            if name in programs:
                raise ConfigError(f"{found_origin[name]}: program {name!r} is already described by "
                                  f"{origin[name]}")
            if index.family_of(name) is not None:
                raise ConfigError(f"{found_origin[name]}: {name!r} is a program the gate knows; set the levels of "
                                  f"its rules under [levels] instead (`wisp rules show {name}` lists them)")
            programs[name] = program
        for rule, level in found_levels.items():
            overrides[rule] = level
        origin.update(found_origin)
    return UserRules(programs, overrides, paths, origin, digest.hexdigest())


def read_table(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path}: not a regular file")
        reason = untrusted_reason(path, st)
        if reason:
            raise ConfigError(f"{path}: not trusted: {reason}")
        data = fh.read(MAX_TABLE_BYTES + 1)
    if len(data) > MAX_TABLE_BYTES:
        raise ConfigError(f"{path}: over {MAX_TABLE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None


# ---------------------------------------------------------------- parsing one table


class _Table:
    """One file being read: its text (for line numbers) and what it found."""

    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.origin: dict[str, str] = {}

    def where(self, *needles: str) -> str:
        """file:line of the first line that holds every needle (the key or id an error is about)."""
        for number, line in enumerate(self.text.splitlines(), 1):
            if all(n in line for n in needles if n):
                return f"{self.path}:{number}"
        return f"{self.path}:1"

    def fail(self, message: str, *needles: str):
        raise ConfigError(f"{self.where(*needles)}: {message}")

    def keys(self, data, allowed: set, what: str, *needles: str) -> None:
        if not isinstance(data, dict):
            self.fail(f"{what} must be a table", *needles)
        for key in data:
            if key not in allowed:
                self.fail(f"{what}: unknown key {key!r} (known: {', '.join(sorted(allowed))})", key, *needles[:0])

    def strings(self, value, what: str, *needles: str) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{what} must be a list of strings", *needles)
        return tuple(value)


def parse_table(text: str, path: str):
    """(programs by name, level overrides by rule id, origin of each) of one table, or a ConfigError."""
    import tomllib

    from wispsh.programs.table import programs as named

    table = _Table(text, path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"{path}:{at.group(1) if at else 1}: not valid TOML: {exc}") from None
    table.keys(data, TOP_KEYS, "the table")
    if data.get("schema") != SCHEMA:
        table.fail(f"schema = {SCHEMA} is required (this gate reads schema {SCHEMA})", "schema")
    overrides: dict[str, Level] = {}
    levels = data.get("levels", {})
    table.keys(levels, set(levels) if isinstance(levels, dict) else set(), "[levels]", "[levels]")
    for rule, level in levels.items():
        overrides[rule] = _level(table, rule, level)
        table.origin[rule] = table.where(rule)
    programs_data = data.get("program", [])
    if not isinstance(programs_data, list):
        table.fail("program must be an array of tables ([[program]])", "program")
    made = []
    for entry in programs_data:
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not NAME.match(name):
            table.fail(f"a program needs a name (a plain word), not {name!r}", "name")
        table.keys(entry, PROGRAM_KEYS, f"program {name}", f'"{name}"')
        made.append(_program(table, entry, name, overrides))
        table.origin[name] = table.where("name", f'"{name}"')
    try:
        found = named(*made)
    except ValueError as exc:
        table.fail(str(exc))
    return found, overrides, table.origin


def _level(table: _Table, rule: str, value) -> Level:
    if not isinstance(rule, str) or not ID.match(rule):
        table.fail(f"{rule!r} is not a rule id (like git.push.force)", str(rule))
    try:
        level = Level.parse(value) if isinstance(value, str) else None
    except ValueError:
        level = None
    if level is None:
        table.fail(f"{rule}: the level must be one of safe, low, moderate, high, dangerous, not {value!r}", rule)
    if PROTECTED.match(rule) and level < Level.DANGEROUS:
        table.fail(f"{rule} protects the gate itself and cannot be lowered", rule)
    return level


def _program(table: _Table, entry: dict, name: str, overrides: dict):
    from wispsh.programs.table import Program

    fields = _command_fields(table, entry, name, overrides)
    return Program(name, aliases=table.strings(entry.get("aliases", []), f"{name}: aliases", "aliases"),
                   doc=str(entry.get("doc", "")), **fields)


def _command(table: _Table, entry: dict, prefix: str, overrides: dict):
    from wispsh.programs.table import Command

    table.keys(entry, COMMAND_KEYS, prefix, prefix.rsplit(" ", 1)[-1])
    return Command(**_command_fields(table, entry, prefix, overrides))


def _command_fields(table: _Table, entry: dict, prefix: str, overrides: dict) -> dict:
    from wispsh.programs.table import Grammar

    values = entry.get("values", "")
    if not isinstance(values, str):
        table.fail(f"{prefix}: values must be a string of option letters", "values")
    grammar = Grammar(values=values,
                      long_values=table.strings(entry.get("long_values", []), f"{prefix}: long_values", "long_values"),
                      longs=table.strings(entry.get("longs", []), f"{prefix}: longs", "longs"),
                      optional=table.strings(entry.get("optional", []), f"{prefix}: optional", "optional"),
                      stop=bool(entry.get("stop", False)))
    rows = entry.get("row", [])
    if not isinstance(rows, list):
        table.fail(f"{prefix}: row must be a list of tables", "row")
    on = entry.get("on", [])
    if not isinstance(on, list):
        table.fail(f"{prefix}: on must be a list of tables", "on")
    verbs = entry.get("verbs", {})
    if not isinstance(verbs, dict):
        table.fail(f"{prefix}: verbs must be a table of verb -> command", "verbs")
    examples = entry.get("examples", {})
    if not isinstance(examples, dict) or not all(isinstance(k, str) for k in examples):
        table.fail(f"{prefix}: examples must be a table of line -> level", "examples")
    for line, level in examples.items():
        try:
            Level.parse(level)
        except (ValueError, AttributeError):
            table.fail(f"{prefix}: example {line!r} has no level (safe … dangerous)", line)
    return dict(
        grammar=grammar,
        rows=tuple(_row(table, row, prefix, overrides) for row in rows),
        on=tuple(_on(table, item, prefix) for item in on),
        verbs={word: _command(table, child, f"{prefix} {word}", overrides) for word, child in verbs.items()},
        read_only=table.strings(entry.get("read_only", []), f"{prefix}: read_only", "read_only"),
        default=_row(table, entry["default"], prefix, overrides) if "default" in entry else None,
        no_verb=_row(table, entry["no_verb"], prefix, overrides) if "no_verb" in entry else None,
        examples=dict(examples),
    )


def _row(table: _Table, entry, prefix: str, overrides: dict):
    from wispsh.programs.table import Row

    rule = entry.get("id") if isinstance(entry, dict) else None
    if not isinstance(rule, str) or not ID.match(rule):
        table.fail(f"{prefix}: every row needs an id (like {prefix.replace(' ', '.')}.finding)", "id")
    table.keys(entry, ROW_KEYS, f"row {rule}", rule)
    does = entry.get("does")
    if does not in effects.EFFECTS:
        table.fail(f"row {rule}: does = {does!r} is not an effect the policy knows "
                   f"({', '.join(sorted(effects.EFFECTS))})", rule)
    says = entry.get("says")
    if not isinstance(says, str) or not says.strip():
        table.fail(f"row {rule}: says (a short sentence for the dialog) is required", rule)
    if "level" in entry:
        overrides[rule] = _level(table, rule, entry["level"])
    table.origin[rule] = table.where(rule)
    return Row(rule, does, says, _when(table, entry.get("when", {}), rule), stop=bool(entry.get("stop", False)),
               sets=table.strings(entry.get("sets", []), f"row {rule}: sets", rule),
               examples=table.strings(entry.get("examples", []), f"row {rule}: examples", rule),
               not_examples=table.strings(entry.get("not_examples", []), f"row {rule}: not_examples", rule))


def _on(table: _Table, entry, prefix: str):
    from wispsh.programs.table import On

    rule = entry.get("id") if isinstance(entry, dict) else None
    if not isinstance(rule, str) or not ID.match(rule):
        table.fail(f"{prefix}: every path effect needs an id", "id")
    table.keys(entry, ON_KEYS, f"on {rule}", rule)
    if entry.get("action") not in ACTIONS:
        table.fail(f"on {rule}: action must be one of {', '.join(sorted(ACTIONS))}", rule)
    select = entry.get("select", "operands")
    if isinstance(select, dict) and set(select) == {"option"}:
        select = ("option", *table.strings(select["option"], f"on {rule}: select.option", rule))
    elif select not in SELECTIONS:
        table.fail(f"on {rule}: select must be one of {', '.join(sorted(SELECTIONS))} or {{option = [...]}}", rule)
    table.origin[rule] = table.where(rule)
    return On(entry["action"], select, id=rule, says=str(entry.get("says", "")),
              recursive=_when(table, entry["recursive"], rule) if "recursive" in entry else None,
              when=_when(table, entry.get("when", {}), rule), into=bool(entry.get("into", False)),
              examples=table.strings(entry.get("examples", []), f"on {rule}: examples", rule),
              not_examples=table.strings(entry.get("not_examples", []), f"on {rule}: not_examples", rule))


def _when(table: _Table, entry, rule: str):
    from wispsh.programs.table import When

    table.keys(entry, WHEN_KEYS, f"{rule}: when", rule)
    fields = {}
    for key in ("flag", "value", "unless", "no_value", "arg", "operand", "first", "option", "equals", "starts",
                "contains", "place"):
        if key in entry:
            fields[key] = table.strings(entry[key], f"{rule}: when.{key}", rule)
    if "place" in fields:       # by the short names rule ids use ("secret", "dotfile", "home", ...)
        from wispsh.vocab.places import CLASS_IDS

        by_id = {short: cls for cls, short in CLASS_IDS.items()}
        unknown = [name for name in fields["place"] if name not in by_id]
        if unknown:
            table.fail(f"{rule}: when.place {unknown[0]!r} is not a place class ({', '.join(sorted(by_id))})", rule)
        fields["place"] = [by_id[name] for name in fields["place"]]
    if any(key in fields for key in ("equals", "starts", "contains", "place")) and "option" not in fields:
        table.fail(f"{rule}: when.equals, starts, contains and place test the values of when.option: name it", rule)
    for key in ("operands", "runtime"):
        if key in entry:
            if not isinstance(entry[key], bool):
                table.fail(f"{rule}: when.{key} must be true or false", rule)
            fields[key] = entry[key]
    if "at_most" in entry:
        if not isinstance(entry["at_most"], int) or isinstance(entry["at_most"], bool):
            table.fail(f"{rule}: when.at_most must be a number", rule)
        fields["at_most"] = entry["at_most"]
    return When(**fields)
