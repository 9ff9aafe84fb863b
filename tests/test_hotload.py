"""The modules bundle (support/hotload.py): a module comes from it only while its source is the one the bundle
was made from; anything else (an edited or new module, a bundle that is cut short, garbage, or another
Python's) is the ordinary import. Each case runs in a fresh interpreter on a copy of the package."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

PROBE = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    from wispsh.support import hotload
    finder = hotload.install()
    from wispsh.parse import split
    import wispsh.model
    print("finder", finder is not None)
    for name in ("wispsh.parse.split", "wispsh.model", "wispsh.parse.words", "wispsh.support.lazyre"):
        print(name, type(sys.modules[name].__spec__.loader).__name__, sys.modules[name].__file__)
    print("stale", sorted(finder.stale) if finder else None)
    print("parts", [p.text for p in split.split_line("a | b; c").parts])
""")


@pytest.fixture()
def copy(tmp_path):
    root = tmp_path / "pkg"
    shutil.copytree(REPO / "wispsh", root / "wispsh", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "Resources", root / "Resources")
    return root


def probe(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-I", "-c", PROBE, str(root)], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


def build(root: Path) -> Path:
    code = "import sys; sys.path.insert(0, sys.argv[1]); from wispsh.support import hotload; print(hotload.build())"
    done = subprocess.run([sys.executable, "-I", "-c", code, str(root)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())


def test_modules_come_from_the_bundle_and_work(copy):
    assert probe(copy)["finder"] == "False"                 # none yet: the ordinary import
    path = build(copy)
    assert path.parent == copy / "wispsh" / "__pycache__"
    seen = probe(copy)
    assert seen["finder"] == "True" and seen["stale"] == "[]"
    assert seen["wispsh.parse.split"].startswith("_Loader ") and seen["wispsh.model"].startswith("_Loader ")
    assert seen["wispsh.parse.split"].endswith(str(copy / "wispsh" / "parse" / "split.py"))   # __file__ as ever
    assert seen["parts"] == "['a', 'b', 'c']"


def test_an_edited_module_is_imported_from_its_source(copy):
    build(copy)
    words = copy / "wispsh" / "parse" / "words.py"
    words.write_text(words.read_text() + "\nEDITED = True\n")
    seen = probe(copy)
    assert seen["wispsh.parse.words"].startswith("SourceFileLoader ")        # not the bundle's old code
    assert seen["wispsh.model"].startswith("_Loader ")                       # the others still are
    assert "wispsh.parse.words" in seen["stale"]


def test_a_module_the_bundle_does_not_know_is_imported_and_noted(copy):
    build(copy)
    (copy / "wispsh" / "support" / "brand_new.py").write_text("X = 1\n")
    code = PROBE.replace('print("finder"', 'import wispsh.support.brand_new\nprint("finder"')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-I", "-c", code, str(copy)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "wispsh.support.brand_new" in done.stdout.split("stale ", 1)[1].splitlines()[0]


@pytest.mark.parametrize("damage", ["garbage", "cut", "magic"])
def test_a_damaged_bundle_is_ignored(copy, damage):
    path = build(copy)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a bundle at all")
    elif damage == "cut":
        path.write_bytes(data[: len(data) // 2])        # the index reads, the code of later modules is gone
    else:
        path.write_bytes(data.replace(b"wispsh-modules/1", b"wispsh-modules/0", 1))
    seen = probe(copy)
    assert seen["parts"] == "['a', 'b', 'c']"
    if damage == "cut":                                 # what it still holds is used, the rest imported as ever
        assert seen["finder"] == "True" and seen["wispsh.model"].startswith("_Loader ")
        assert seen["wispsh.support.lazyre"].startswith("SourceFileLoader ")      # its code lies past the cut
    else:
        assert seen["finder"] == "False"


def test_the_gate_writes_the_bundle_when_missing_or_behind(copy, tmp_path):
    gate = ("import sys; sys.path.insert(0, sys.argv[1]); from wispsh.cli.sh import main; "
            "sys.exit(main(['wispsh', '-c', 'true']))")
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "WISP_HOME": str(tmp_path / "h")}

    def run():
        done = subprocess.run([sys.executable, "-I", "-c", gate, str(copy)], capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL, timeout=60)
        assert done.returncode == 0, done.stderr

    bundle = copy / "wispsh" / "__pycache__" / f"modules.{sys.implementation.cache_tag}.bundle"
    run()
    assert bundle.exists()
    assert probe(copy)["stale"] == "[]"
    words = copy / "wispsh" / "parse" / "words.py"
    words.write_text(words.read_text() + "\nEDITED = True\n")
    assert "wispsh.parse.words" in probe(copy)["stale"]
    run()                                   # it found words.py newer than the bundle: written again
    assert probe(copy)["stale"] == "[]"
    env["PYTHONDONTWRITEBYTECODE"] = "1"    # not under -I (as for .pyc files): the console script's case
    bundle.unlink()
    done = subprocess.run([sys.executable, "-c", gate, str(copy)], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0 and not bundle.exists(), done.stderr
