"""The matcher: runs a program's table (programs/table.py) against one command and records its effects.

For each command node, from the program down through its verbs: read the options with the node's grammar,
fire every row whose condition holds (a `stop` row ends the node), apply the path effects, run the hook, then
descend into the verb the first operand names. The levels come from the policy (Cmd.does, Cmd's path
actions), never from the table.
"""
from __future__ import annotations

from wispsh.policy import places
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import DEST, FIRST, HERE, LAST, OPERANDS, REST, SOURCES, Command, On, Row

FACT_FLAGS = frozenset({"net_fetch", "net_send", "net_dev", "decoder", "stdin_interp", "interp", "runtime_code",
                        "deletes", "noop", "encrypts"})
PATH_VERBS = {"read": "reads", "list": "lists", "write": "writes", "create": "creates", "delete": "deletes",
              "mode": "changes the mode of", "run": "runs", "send": "sends", "build": "builds",
              "unpack": "extracts into", "embed": "puts the contents of"}


def run(cmd, node: Command, args, prefix: str) -> None:
    """Judge `args` (the words after the command's name or verb) by `node`."""
    o = node.grammar.read(args, stop=node.has_verbs)
    seen = node.grammar.read(args) if node.anywhere and node.has_verbs else o    # its options, wherever they stand
    if node.chdir or node.manifest:
        _works_in(cmd, node, seen, prefix)
    for row in node.rows:
        if row.when.holds(seen, args, cmd):
            fire(cmd, row, prefix, seen)
            if row.stop:
                return
    for effect in node.on:
        if effect.when.holds(seen, args, cmd):
            apply(cmd, effect, seen)
    if node.hook is not None and node.hook(cmd, o) is False:
        return      # the hook said nothing further applies
    if node.has_verbs:
        _verb(cmd, node, o, prefix)
    if node.after is not None:
        node.after(cmd, o)


def _works_in(cmd, node: Command, o: Options, prefix: str) -> None:
    """`make -C DIR`, `npm --prefix DIR`, `cargo --manifest-path DIR/Cargo.toml`: the command works in DIR, as
    after `cd DIR` (what it builds, runs or tests there is judged by that place when a row says it builds). A
    directory known only at run time is judged at once: whatever it builds there is unread."""
    for option, is_file in ((node.chdir, False), (node.manifest, True)):
        for value in o.all(*option) if option else ():
            where = cmd.place(value)
            if where.unknown:
                cmd.build_in(value, prefix)
                continue
            cmd.cwd = where.path.rsplit("/", 1)[0] or "/" if is_file else where.path


def _verb(cmd, node: Command, o: Options, prefix: str) -> None:
    if not o.operands:
        if node.no_verb is not None:
            fire(cmd, node.no_verb, prefix, o)
        return
    word, rest = o.operands[0], o.operands[1:]
    if UNKNOWN in word:
        cmd.does("run-code", f"{_id(prefix)}.runtime-verb", f"{prefix} with a verb known only at run time")
        return
    child = node.verbs.get(word)
    if child is not None:
        run(cmd, child, rest, f"{prefix} {word}")
    elif word in node.read_only:
        pass
    elif node.default is not None:
        fire(cmd, node.default, f"{prefix} {word}", o)


def fire(cmd, row: Row, prefix: str, o: Options) -> None:
    verb = prefix.rsplit(" ", 1)[-1]
    when = row.when
    matched = when.matched(o, cmd) if when.option else None
    option, value = matched if matched else ("", when.value_of(o) if when.value else None)
    says = row.says.format(cmd=prefix, verb=verb, value=(value or "").replace(UNKNOWN, "…"), option=option)
    if row.does != "nothing":
        cmd.does(row.does, row.id, says)
    else:
        cmd.fired.add(row.id)
    facts = cmd.facts
    for name in row.sets:
        if name == "secret":
            facts.secret_source = facts.secret_source or says
        elif name == "builds":
            # the build files of the directory it runs in; after a `cd DIR`, `make -C DIR`, `npm --prefix DIR`,
            # judged by that place
            if cmd.cwd == cmd.ctx.cwd:
                facts.builds.append(cmd.cwd)
            else:
                cmd.build_in(cmd.cwd, prefix)
        elif name in FACT_FLAGS:
            setattr(facts, name, True)
        else:
            raise ValueError(f"row {row.id}: unknown fact {name!r}")


def words(cmd, effect: On, o: Options) -> list[str]:
    """The words an effect acts on."""
    operands = o.operands
    select = effect.select
    if select == OPERANDS:
        return operands
    if select == FIRST:
        return operands[:1]
    if select == HERE:
        return ["."]
    if select == REST:
        return operands[1:]
    if select == LAST:
        return operands[-1:]
    if select in (SOURCES, DEST):
        target = o.value("t", "target-directory")
        if target is not None:
            return operands if select == SOURCES else [target]
        if len(operands) < 2:
            return [] if select == DEST else operands
        return operands[:-1] if select == SOURCES else operands[-1:]
    if isinstance(select, tuple) and select and select[0] == "option":
        return o.all(*select[1:])
    if isinstance(select, tuple) and select and select[0] == "nth":
        return operands[select[1]:select[1] + 1]
    raise ValueError(f"{effect.id}: unknown selection {select!r}")


def apply(cmd, effect: On, o: Options) -> None:
    targets = words(cmd, effect, o)
    if not targets:
        return
    cmd.fired.add(effect.id)
    action, says = effect.action, effect.says or PATH_VERBS.get(effect.action, effect.action)
    recursive = effect.recursive is not None and _any_holds(effect.recursive, o)
    if action == "write" and effect.into:
        sources = words(cmd, On("read", SOURCES, id=effect.id), o)
        into = o.value("t", "target-directory") is not None
        for dest in targets:
            cmd.write_into(dest, sources, says, into=into)
        return
    hidden = effect.hidden is None or _any_holds(effect.hidden, o)
    for word in targets:
        if action == "read":
            if recursive:
                cmd.read_tree(word, says, hidden)
            else:
                cmd.read(word, says)
        elif action == "embed":
            cmd.embed(word, says, recursive)
        elif action == "list":
            where = cmd.list_names(word, says)
            # what it prints: the names of a directory's entries (bare), else the names it was given
            cmd.facts.names.append("*" if not where.glob and (word.endswith("/") or places.is_directory(where))
                                   else word)
        elif action == "write":
            cmd.write(word, says)
        elif action == "create":
            cmd.create(word, says)
        elif action == "delete":
            cmd.delete(word, recursive)
        elif action == "mode":
            cmd.mode(word, recursive, says)
        elif action == "run":
            cmd.run_file(word, says)
        elif action == "send":
            cmd.send(word, says)
        elif action == "build":
            cmd.build_in(word, says)
        elif action == "unpack":
            cmd.unpack_into(word, says)
        else:
            raise ValueError(f"{effect.id}: unknown action {action!r}")


def _any_holds(condition, o: Options) -> bool:
    """A condition, or a tuple of them of which any may hold (rg reads hidden files with --hidden or -uu)."""
    if isinstance(condition, tuple):
        return any(c.holds(o, o.args) for c in condition)
    return condition.holds(o, o.args)


def _id(prefix: str) -> str:
    return prefix.replace(" ", ".")
