"""The package is a pipeline: no import circle anywhere (function-level imports included), no import that goes
up the layers (docs/architecture.md's table of layers), and every module has its row in the architecture table."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "wispsh"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every wispsh module `name` imports, at any depth of its code (function-level imports too)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found.update(t for t in targets if t in known and t != name)
    # importing a submodule runs its packages' __init__ first; they are leaves here (docstrings only)
    return found


@functools.cache
def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports_of(name, path, set(mods)) for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]; counter[0] += 1
                    stack.append(child); on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop(); on_stack.discard(top); component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_anywhere():
    found = cycles(graph())
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_package_inits_hold_no_code():
    # a package's __init__ runs on every import of its modules: docstring only keeps the hot path honest
    for name, path in modules().items():
        if path.name == "__init__.py" and name != "wispsh":
            body = ast.parse(path.read_text()).body
            assert all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) for n in body), name


def test_every_module_has_its_row_in_the_architecture_table():
    table = (REPO / "docs" / "architecture.md").read_text()
    rows = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            rows.add(line.split("`")[1])
    missing = []
    for name, path in modules().items():
        rel = str(path.relative_to(PACKAGE))
        if rel not in rows and f"wispsh/{rel}" not in rows:
            missing.append(rel)
    assert not missing, f"modules without a row in docs/architecture.md: {missing}"
    stale = [row for row in rows if row.endswith(".py") and not (PACKAGE / row.removeprefix("wispsh/")).exists()]
    assert not stale, f"rows for modules that no longer exist: {stale}"


# ---------------------------------------------------------------- layers: imports go down only

DOC = REPO / "docs" / "architecture.md"


def layers() -> dict[str, int]:
    """The table of layers in docs/architecture.md: each folder (`cli/`) or top module (`invoke.py`) and its
    number, 1 on top."""
    found = {}
    for line in DOC.read_text().splitlines():
        row = re.match(r"\| (\d+) \| `([^`]+)` \|", line)
        if row:
            found[row.group(2)] = int(row.group(1))
    return found


def layer_of(module: str) -> str | None:
    """`wispsh.cli.sh` -> `cli/`, `wispsh.invoke` -> `invoke.py`; the package itself (its version) is no layer."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    return f"{parts[1]}/" if (PACKAGE / parts[1]).is_dir() else f"{parts[1]}.py"


def up_imports(edges: dict[str, set[str]], ranks: dict[str, int]) -> list[str]:
    """Every import from a layer to its own number or a smaller one that is not its own layer (a package's
    __init__ is no import: they hold docstrings only, test_package_inits_hold_no_code)."""
    bad = []
    for importer, targets in sorted(edges.items()):
        for target in sorted(targets):
            here, there = layer_of(importer), layer_of(target)
            if here is None or there is None or here == there or (PACKAGE / target.split(".", 1)[-1]
                                                                 .replace(".", "/")).is_dir():
                continue
            if ranks[there] <= ranks[here]:
                bad.append(f"{importer} -> {target} ({here} is layer {ranks[here]}, {there} is {ranks[there]})")
    return bad


def test_every_folder_and_top_module_has_its_layer():
    ranks = layers()
    wanted = {layer_of(name) for name in modules()} - {None}
    assert wanted - set(ranks) == set(), f"folders or modules with no layer in docs/architecture.md"
    assert set(ranks) - wanted == set(), f"layers for folders or modules that no longer exist"
    assert sorted(ranks.values()) == list(range(1, len(ranks) + 1)), "one folder or module a layer, numbered"


def test_no_import_goes_up_a_layer():
    bad = up_imports(graph(), layers())
    assert bad == [], "imports that go up the layers (docs/architecture.md):\n" + "\n".join(bad)


# Up-imports the code held before the layers were tested (issue 31), each of which must be caught.
EARLIER = [
    ("wispsh.programs.git", "wispsh.policy.places"),          # place classes read from the policy
    ("wispsh.programs.interpreters", "wispsh.policy.scripts"),  # judge_script called by a description
    ("wispsh.programs.containers", "wispsh.policy.secrets"),
    ("wispsh.invoke", "wispsh.cli.shell"),
    ("wispsh.sandbox.judge", "wispsh.cli.shell"),
    ("wispsh.agents.shims", "wispsh.cli.shell"),
    ("wispsh.agents.shims", "wispsh.flow"),
    ("wispsh.agents.shims", "wispsh.realshell"),
    ("wispsh.flow", "wispsh.cli.explain"),                    # the plan rendered by an entry point's module
    ("wispsh.decide.session", "wispsh.realshell"),
    ("wispsh.sandbox.supervisor", "wispsh.session.inside"),
]


@pytest.mark.parametrize("importer,target", EARLIER, ids=[f"{a}->{b}" for a, b in EARLIER])
def test_each_earlier_up_import_would_fail(importer, target):
    ranks = layers()
    found = up_imports({importer: {target}}, ranks)
    assert len(found) == 1 and found[0].startswith(f"{importer} -> {target} "), found


def test_a_same_layer_or_downward_import_passes():
    ranks = layers()
    assert up_imports({"wispsh.policy.engine": {"wispsh.programs.table", "wispsh.policy.places",
                                                 "wispsh.vocab.places", "wispsh.model"}}, ranks) == []


def test_every_import_from_a_package_names_one_of_its_modules():
    # a package's __init__ holds only its docstring: `from wispsh.cli import shell` must name a module that is
    # there (a module moved or removed leaves a function-level import that fails only when it runs)
    mods = modules()
    packages = {name for name, path in mods.items() if path.name == "__init__.py"}
    missing = []
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in packages:
                missing += [f"{name}: from {node.module} import {a.name}" for a in node.names
                            if f"{node.module}.{a.name}" not in mods and not (node.module == "wispsh"
                                                                            and a.name == "__version__")]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                missing += [f"{name}: {t}" for t in targets if t.startswith("wispsh.") and t not in mods]
    assert missing == [], "imports of modules that are not there:\n" + "\n".join(missing)
