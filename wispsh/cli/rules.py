"""`wisp rules check FILE` and `wisp rules show PROGRAM`: validate a user rule table, and print what the gate
knows of a program (its rows, their effects and levels, its verbs, and which file said so)."""
from __future__ import annotations

import inspect
import os

from wispsh.config import ConfigError, Config, load_config
from wispsh.policy import effects


def check(path: str) -> dict:
    """The problems of one table (schema, then its examples run against the real pipeline)."""
    from wispsh import pipeline
    from wispsh.policy import user

    result = {"file": os.path.abspath(path), "ok": False, "problems": [], "programs": [], "levels": {}}
    try:
        text = user.read_table(path)
        programs, levels, origin = user.parse_table(text, path)
        from wispsh.programs import index
        for name in programs:
            if index.family_of(name) is not None:
                raise ConfigError(f"{origin[name]}: {name!r} is a program the gate knows; set the levels of its "
                                  f"rules under [levels] instead")
    except ConfigError as exc:
        result["problems"].append(str(exc))
        return result
    rules = user.UserRules(programs, levels, (path,), origin)
    try:
        config = load_config()
    except ConfigError:
        config = None
    from wispsh.policy import engine
    ctx = engine.Context.for_process(cwd=os.getcwd(), env=dict(os.environ), config=config, overrides=levels,
                                     judge_code=pipeline.judge_code, programs=programs)
    result["problems"] = pipeline.check_user_rules(rules, ctx)
    result["programs"] = sorted({p.name for p in programs.values()})
    result["levels"] = {rule: str(level) for rule, level in levels.items()}
    result["ok"] = not result["problems"]
    return result


def _options(names) -> str:
    shown = [("-" if len(name) == 1 else "--") + name for name in names]
    return "/".join(shown) if len(shown) <= 2 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _listed(words, quote: bool = False) -> str:
    return " or ".join(f"`{w}`" if quote else w for w in words)


def _times(n: int) -> str:
    return "once or more" if n == 1 else "twice or more" if n == 2 else f"{n} times or more"


# A condition's fields (programs/table.When), as a person reads each one set
WHEN_WORDS = (
    ("flag", lambda v: f"given {_options(v)}"),
    ("value", lambda v: f"with a value for {_options(v)}"),
    ("unless", lambda v: f"without {_options(v)}"),
    ("no_value", lambda v: f"without a value for {_options(v)}"),
    ("operands", lambda v: "with operands" if v else "with no operands"),
    ("arg", lambda v: f"a word starting {_listed(v, True)}"),
    ("operand", lambda v: f"an operand {_listed(v, True)}"),
    ("first", lambda v: f"the first operand {_listed(v, True)}"),
    ("count", lambda v: f"{_options(v[0])} given {_times(v[1])}"),
    ("runtime", lambda v: "an operand known only at run time" if v else "every operand known as written"),
    ("at_most", lambda v: f"at most {v} operand{'s' if v != 1 else ''}"),
    ("last", lambda v: f"the last operand starting {_listed(v, True)}"),
)


def _when(when) -> str:
    """A row's condition as a person reads it: "given -f/--force twice or more, with operands"."""
    said = [say(getattr(when, field)) for field, say in WHEN_WORDS if getattr(when, field) not in ((), None)]
    return ", ".join(said) or "always"


SELECTS = {"operands": "its operands", "first": "its first operand", "rest": "its operands after the first",
           "last": "its last operand", "sources": "what it copies", "dest": "where it copies to",
           "here": "the directory it runs in"}


def _select(select) -> str:
    if isinstance(select, str):
        return SELECTS.get(select, select)
    kind, *names = select
    if kind == "option":
        return f"the value of {_options(names)}"
    if kind == "nth":
        return f"operand {int(names[0]) + 1}"
    return " ".join(map(str, select))


def _row(row, overrides: dict, origin: dict) -> dict:
    level = overrides.get(row.id)
    return {"id": row.id, "does": row.does, "level": str(level if level is not None else effects.level_of(row.does)),
            "says": row.says, "when": _when(row.when), "stop": row.stop, "examples": list(row.examples),
            "overridden": level is not None, "from": origin.get(row.id)}


def _on(effect) -> dict:
    return {"id": effect.id, "action": effect.action, "select": _select(effect.select), "when": _when(effect.when),
            "level": "by the place (policy/effects.py path tables)", "examples": list(effect.examples)}


def _hook(hook) -> dict | None:
    if hook is None:
        return None
    doc = " ".join((inspect.getdoc(hook) or "").split())
    return {"name": hook.__name__, "doc": doc.split(". ")[0].rstrip("."),
            "emits": sorted(getattr(hook, "emits", {}))}


def _command(node, overrides: dict, origin: dict) -> dict:
    rows = list(node.rows)
    return {
        "rows": [_row(r, overrides, origin) for r in rows],
        "on": [_on(e) for e in node.on],
        "hook": _hook(node.hook),
        "after": _hook(node.after),
        "read_only": sorted(node.read_only),
        "default": _row(node.default, overrides, origin) if node.default else None,
        "no_verb": _row(node.no_verb, overrides, origin) if node.no_verb else None,
        "verbs": _verbs(node, overrides, origin),
    }


def _verbs(node, overrides: dict, origin: dict) -> list[dict]:
    """The verbs under a command; verbs that share one description are listed together."""
    shared: dict[int, list[str]] = {}
    children = {}
    for word, child in sorted(node.verbs.items()):
        shared.setdefault(id(child), []).append(word)
        children[id(child)] = child
    return [{"words": words, **_command(children[key], overrides, origin)} for key, words in shared.items()]


def show(name: str, config: Config | None) -> dict | None:
    """What the gate knows of `name`, or None when it knows nothing."""
    import importlib

    from wispsh.policy import user
    from wispsh.programs import index

    rules = user.load(config) if config is not None else user.EMPTY
    family = index.family_of(name)
    if family is not None:
        program = index.table(family)[name]
        source = importlib.import_module(f"wispsh.programs.{family}").__file__
    elif name in rules.programs:
        program = rules.programs[name]
        source = rules.origin.get(program.name)
    else:
        return None
    return {"program": program.name, "aliases": list(program.aliases), "doc": program.doc, "from": source,
            "form": "table", "examples": dict(program.examples), **_command(program, rules.overrides, rules.origin)}


WIDTH = 80
COLUMN = 10                         # the level column, then the row


def _says(text: str, cmd: str) -> str:
    """A row's text with its placeholders filled as the command's own words: {cmd} the command as far as its
    verbs, {verb} and {value} the words a line gives them."""
    return text.replace("{cmd}", cmd).replace("{verb}", "VERB").replace("{value}", "VALUE")


def render_show(found: dict, width: int = WIDTH) -> str:
    """What the gate knows of a program, for a person: at most `width` columns (a word longer than a row, a
    path, keeps a row of its own), every placeholder filled."""
    import textwrap

    def wrap(text: str, width: int, indent: str = "    ") -> str:
        lead = text[:len(text) - len(text.lstrip(" "))]
        return "\n".join(textwrap.wrap(text, width, subsequent_indent=lead + indent, break_long_words=False,
                                        break_on_hyphens=False)) or text

    out = [wrap(f"{found['program']}: {found.get('doc') or ''}".rstrip(": "), width),
           f"  from {found['from']}"]                     # one path: a row of its own, however long
    if found.get("form") != "table":
        out.append(f"  {found['form']}")
        return "\n".join(out)
    if found.get("aliases"):
        out.append(wrap(f"  also named {', '.join(found['aliases'])}", width))

    def put(pad: str, head: str, text: str) -> None:
        first = f"{pad}{head:<{COLUMN - 1}} "
        rows = textwrap.wrap(text, width - len(first), break_long_words=False, break_on_hyphens=False) or [""]
        out.append(first + rows[0])
        out.extend(" " * len(first) + row for row in rows[1:])

    def command(node: dict, cmd: str, depth: int) -> None:
        pad = "  " * depth
        for row in node["rows"]:
            mark = " (your level)" if row["overridden"] else ""
            put(pad, row["level"], f"{row['id']}{mark}: {_says(row['says'], cmd)}  [{row['does']}; "
                                   f"{'when ' + row['when'] if row['when'] != 'always' else 'always'}]")
        for effect in node["on"]:
            put(pad, "by place", f"{effect['id']}: {effect['action']} {effect['select']}"
                + (f"  [when {effect['when']}]" if effect["when"] != "always" else ""))
        for kind in ("hook", "after"):
            if node[kind]:
                put(pad, "hook", f"{node[kind]['name']}: {_says(node[kind]['doc'], cmd)}  "
                                 f"[may record {', '.join(node[kind]['emits']) or 'path effects'}]")
        if node["read_only"]:
            put(pad, "safe", f"read-only verbs: {' '.join(node['read_only'])}")
        for child in node["verbs"]:
            words = child["words"]
            out.append(wrap(f"{pad}{cmd} {' | '.join(words)}:", width, indent="    "))
            command(child, f"{cmd} {words[0] if len(words) == 1 else '|'.join(words) if len(words) <= 3 else 'VERB'}",
                    depth + 1)
        if node["default"]:
            row = node["default"]
            put(pad, row["level"], f"{row['id']} (any other verb): {_says(row['says'], cmd + ' VERB')}")
        if node["no_verb"]:
            row = node["no_verb"]
            put(pad, row["level"], f"{row['id']} (no verb): {_says(row['says'], cmd)}")

    command(found, found["program"], 1)
    return "\n".join(out)
