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


def _when(when) -> str:
    return when.describe()


def _row(row, overrides: dict, origin: dict) -> dict:
    level = overrides.get(row.id)
    return {"id": row.id, "does": row.does, "level": str(level if level is not None else effects.level_of(row.does)),
            "says": row.says, "when": _when(row.when), "stop": row.stop, "examples": list(row.examples),
            "overridden": level is not None, "from": origin.get(row.id)}


def _on(effect) -> dict:
    select = effect.select if isinstance(effect.select, str) else " ".join(map(str, effect.select))
    return {"id": effect.id, "action": effect.action, "select": select, "when": _when(effect.when),
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


def render_show(found: dict) -> str:
    out = [f"{found['program']}: {found.get('doc') or ''}".rstrip(": "), f"  from {found['from']}"]
    if found.get("form") != "table":
        out.append(f"  {found['form']}")
        return "\n".join(out)
    if found.get("aliases"):
        out.append(f"  also named {', '.join(found['aliases'])}")

    def command(node: dict, prefix: str, depth: int) -> None:
        pad = "  " * depth
        for row in node["rows"]:
            mark = " (your level)" if row["overridden"] else ""
            out.append(f"{pad}{row['level']:<9} {row['id']}{mark}: {row['says']}  [{row['does']}; when {row['when']}]")
        for effect in node["on"]:
            out.append(f"{pad}{'by place':<9} {effect['id']}: {effect['action']} {effect['select']}"
                       + (f"  [when {effect['when']}]" if effect["when"] != "always" else ""))
        for kind in ("hook", "after"):
            if node[kind]:
                out.append(f"{pad}{'hook':<9} {node[kind]['name']}: {node[kind]['doc']}  "
                           f"[may record {', '.join(node[kind]['emits']) or 'path effects'}]")
        if node["read_only"]:
            out.append(f"{pad}{'safe':<9} read-only verbs: {' '.join(node['read_only'])}")
        for child in node["verbs"]:
            words = child["words"]
            out.append(f"{pad}{prefix} {words[0]}:" if len(words) == 1 else
                       f"{pad}{prefix} {' | '.join(words)}:")
            command(child, f"{prefix} {words[0]}", depth + 1)
        if node["default"]:
            row = node["default"]
            out.append(f"{pad}{row['level']:<9} {row['id']} (any other verb): {row['says']}")
        if node["no_verb"]:
            row = node["no_verb"]
            out.append(f"{pad}{row['level']:<9} {row['id']} (no verb): {row['says']}")

    command(found, found["program"], 1)
    return "\n".join(out)
