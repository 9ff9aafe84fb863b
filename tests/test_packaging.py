"""`pip install .` in a fresh venv gives wispsh and wisp; Resources load installed and from the checkout."""
import os
import shutil
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BASE_PYTHON = getattr(sys, "_base_executable", None) or shutil.which("python3")
HEAVY = ("click", "psutil", "platformdirs")


def copy_sources(dest: Path) -> Path:
    """The files a build needs (an in-tree build would leave build/ behind in the checkout)."""
    dest.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, dest / name)
    for name in ("wispsh", "Resources"):
        shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("pkg")
    src = copy_sources(root / "src")
    env_dir = root / "venv"
    # A fresh venv; this test's pip installs into it (`pip --python`), which skips the slow ensurepip.
    subprocess.run([BASE_PYTHON, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install",
                    "--quiet", "--no-cache-dir", "--disable-pip-version-check", str(src)], check=True)
    return env_dir, src


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, **kw)


def test_console_scripts_are_installed(venv, tmp_path):
    venv, _ = venv
    for name in ("wispsh", "wisp"):
        done = run([str(venv / "bin" / name), "--version"], cwd=tmp_path)
        assert done.returncode == 0 and done.stdout.startswith(f"{name} "), done.stderr


def test_every_module_and_resource_is_shipped(venv):
    venv, src = venv  # compared with the copy that was built: teammates may add files meanwhile
    site = Path(run([str(venv / "bin" / "python"), "-c", "import wispsh, os; print(os.path.dirname("
                     "wispsh.__file__))"], cwd="/").stdout.strip())
    assert site.is_dir() and REPO not in site.parents
    checkout = {p.relative_to(src / "wispsh") for p in (src / "wispsh").rglob("*.py")}
    installed = {p.relative_to(site) for p in site.rglob("*.py") if "__pycache__" not in p.parts}
    assert checkout <= installed, f"not shipped: {sorted(map(str, checkout - installed))}"
    resources = {p.name for p in (src / "Resources").iterdir() if p.is_file()}
    assert resources and resources <= {p.name for p in (site / "Resources").iterdir()}


RESOURCE_PROBE = ("from wispsh.support import resources; print(resources.resources_dir()); "
                  "print(len(resources.read_lines('multiplexers.txt')))")


def test_resources_load_when_installed(venv, tmp_path):
    venv, _ = venv
    done = run([str(venv / "bin" / "python"), "-I", "-c", RESOURCE_PROBE], cwd=tmp_path)
    where, count = done.stdout.split()
    assert done.returncode == 0 and Path(where).parent.name == "wispsh" and "site-packages" in where
    assert int(count) > 0


def test_resources_load_from_the_checkout(tmp_path):
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); " + RESOURCE_PROBE
    done = run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path)
    where, count = done.stdout.split()
    assert done.returncode == 0 and Path(where) == REPO / "Resources" and int(count) > 0


def test_the_hot_path_imports_stay_light(tmp_path):
    """`wispsh -c true`, gate included, up to the exec: no click, psutil, platformdirs (wisp is click's)."""
    import sysconfig

    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    code = (f"import sys; sys.path[:0] = {[str(REPO), *site]!r}; sys.argv = ['wispsh', '-c', 'true']; "
            "from wispsh.cli.sh import main; main()")
    home = tmp_path / "wisp"
    home.mkdir(mode=0o700)
    done = run([sys.executable, "-I", "-S", "-X", "importtime", "-c", code], cwd=tmp_path,
               env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "WISP_HOME": str(home)})
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert done.returncode == 0 and "wispsh.cli.sh" in imported and "wispsh.flow" in imported
    assert not {m for m in imported if m.split(".")[0] in HEAVY}
    assert os.path.getsize(REPO / "wispsh" / "__init__.py") < 2000  # the console script imports it first


# The multiplexer list is read from the installed package (site-packages), not from a checkout.
WHEEL_CHECK = textwrap.dedent("""
    import json, sys
    import wispsh.keys as keys
    from wispsh.model import Part
    from wispsh.support.resources import resource_path
    def key(text, argv):
        return keys.key_for(Part(text=text, span=(0, len(text)), argv=tuple(argv))).pattern
    print(json.dumps({
        "module": keys.__file__,
        "list": str(resource_path(keys.MULTIPLEXERS_FILE)),
        "git": key("git -C app commit -m x", ["git", "-C", "app", "commit", "-m", "x"]),
        "docker": key("docker --context prod compose up", ["docker", "--context", "prod", "compose", "up"]),
        "head": key("sudo head -n 5", ["sudo", "head", "-n", "5"]),
    }))
""")


def test_the_multiplexer_list_ships_in_the_package(venv, tmp_path):
    venv, _ = venv
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    out = subprocess.run([str(venv / "bin" / "python"), "-I", "-c", WHEEL_CHECK], check=True, capture_output=True,
                         text=True, cwd=tmp_path, env=env).stdout
    got = json.loads(out)
    assert got["module"].startswith(str(venv))
    assert got["list"].startswith(str(venv)) and got["list"].endswith("wispsh/Resources/multiplexers.txt")
    assert (got["git"], got["docker"], got["head"]) == ("git commit *", "docker compose *", "head *")
