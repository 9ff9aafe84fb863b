"""wispsh.keys.key_for: approval keys (ADR 0015, ADR 0027, issue 4)."""
from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from wispsh import keys
from wispsh.keys import default_multiplexers, find_verb, key_for, load_multiplexers
from wispsh.model import Assignment, Part
from wispsh.support.resources import resource_path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path("/work/shared/corpus/levels-sample.jsonl")
if not CORPUS.exists():
    CORPUS = REPO.parent / "shared" / "corpus" / "levels-sample.jsonl"


def part(text: str, **fields) -> Part:
    """A Part as the splitter would give it; words starting with `$` are known only at run time."""
    written = shlex.split(text)
    argv = tuple(None if w.startswith("$") else w for w in written)
    fields.setdefault("argv", argv)
    return Part(text=text, span=(0, len(text)), **fields)


def pattern(text: str, **fields) -> str:
    return key_for(part(text, **fields)).pattern


# ---------------------------------------------------------------- the issue's table


@pytest.mark.parametrize("text, expected", [
    ("head -x 1 -y 2", "head *"),
    ("head -n 5", "head *"),
    ("sudo -u root -E -- env A=1 timeout -s KILL 5 nice -n 3 /usr/bin/head -n 5 f", "head *"),
    ("git commit -m x", "git commit *"),
    ("git -C app -c user.name=x commit", "git commit *"),
    ("git push", "git push *"),
    ("git", "git *"),
    ("cargo +nightly build", "cargo build *"),
    ("docker --context prod compose up", "docker compose *"),
    ("xargs -0 -I{} rm {}", "rm *"),
    ("exec -a ls rm -rf x", "rm *"),
    ("/usr/bin/head", "head *"),
    ("\\rm -rf x", "rm *"),
    ('"rm" -rf x', "rm *"),
])
def test_issue_table(text, expected):
    key = key_for(part(text))
    assert key.pattern == expected
    assert not key.exact


def test_command_v_runs_nothing():
    key = key_for(part("command -v rm"))
    assert key.runs_nothing
    assert key.command == ()
    assert key.program == "command" and key.pattern == "command *"


@pytest.mark.parametrize("line, nothing", [
    ('command -v "$X"', True),              # the mode is read before the word known only at run time
    ('chrt -p "$$"', True), ('taskset -p "$PID"', True), ('ionice -c 3 -p "$PID"', True),
    ('sudo -l "$CMD"', True), ('nice --help "$X"', True), ('prlimit -p "$PID"', True),
    ('command "$X"', False), ('command -p "$X"', False),    # these run what the word names
    ('chrt "$X" -p 1', False),              # the word may be an option, or the command: before the mode
    ('sudo "$X" -v', False), ('timeout "$T" ls', False),
])
def test_a_mode_that_runs_nothing_holds_whatever_a_later_word_is(line, nothing):
    from wispsh.programs import wrappers

    made = part(line)
    got = wrappers.unwrap(made.argv)
    assert got.runs_nothing == nothing, (line, made.argv, got.command)
    if not nothing:
        assert key_for(made).exact       # a program chosen at run time: asked about as the exact text


@pytest.mark.parametrize("made", [
    part("$X args", runtime_program=True),
    part("$X args"),                       # the splitter's flag or a None program: either makes it exact
    Part(text="$(which rm) -rf", span=(0, 15), argv=(None, "-rf"), runtime_program=True),
    part("python3 -c 'print(1)'"),
    part("source ./env.sh"),
    part(". ./env.sh"),
])
def test_exact_keys(made):
    key = key_for(made)
    assert key.exact
    assert key.pattern == made.text
    assert key.legacy is None


def test_runtime_program_has_no_program():
    assert key_for(part("$X args", runtime_program=True)).program is None
    assert key_for(part("sudo $X rm")).program is None


# ---------------------------------------------------------------- the key's other fields


def test_key_carries_what_unwrapping_found():
    made = part("sudo env B=2 timeout 5 rm -rf x",
                assignments=(Assignment("A", "1", "A=1"),))
    key = key_for(made)
    assert key.program == "rm"
    assert key.command == ("rm", "-rf", "x")
    assert key.wrappers == ("sudo", "env", "timeout")
    assert key.env == (Assignment("A", "1", "A=1"), Assignment("B", "2", "B=2"))
    assert key.privileged
    assert not key.runs_nothing


def test_runtime_assignment_under_env_uses_the_written_words():
    text = 'sudo env PATH="$PATH" timeout 60 rm -rf x'
    made = Part(text=text, span=(0, len(text)),
                argv=("sudo", "env", None, "timeout", "60", "rm", "-rf", "x"),
                words=("sudo", "env", 'PATH="$PATH"', "timeout", "60", "rm", "-rf", "x"))
    key = key_for(made)
    assert key.pattern == "rm *"
    assert key.env == (Assignment("PATH", None, 'PATH="$PATH"'),)


@pytest.mark.parametrize("text", ["sudo -v", "env", "timeout 5", "nice", "exec", "sudo -l rm"])
def test_forms_that_run_nothing_are_keyed_by_the_wrapper(text):
    key = key_for(part(text))
    assert key.runs_nothing and not key.exact
    assert key.pattern == f"{key.program} *"


# ---------------------------------------------------------------- multiplexers and their verbs


@pytest.mark.parametrize("text, expected", [
    ("git --no-pager show --stat HEAD", "git show *"),
    ("git --git-dir=../prod/.git --work-tree=../prod clean -ffdx", "git clean *"),
    ("git --git-dir ../prod/.git --work-tree ../prod clean", "git clean *"),
    ("git --namespace x -p status", "git status *"),
    ("git -C ../other-repo reset --hard HEAD~20", "git reset *"),
    ("git ./x", "git *"),                      # not a word: no verb
    ("git -- status", "git status *"),
    ("kubectl -n kube-system --context prod get pods", "kubectl get *"),
    ("kubectl --kubeconfig=k delete pods --all", "kubectl delete *"),
    ("kubectl -nkube-system logs x", "kubectl logs *"),
    ("npm --prefix app install", "npm install *"),
    ("npm config set registry https://evil.example/", "npm config *"),
    ("gh -R owner/repo pr list", "gh pr *"),
    ("aws --profile p --region eu-west-1 s3 ls", "aws s3 *"),
    ("terraform -chdir=infra plan -out=tfplan", "terraform plan *"),
    ("docker -H tcp://x --config c system prune -af", "docker system *"),
    ("cargo +nightly -Z unstable build", "cargo build *"),
    ("just --set a b build", "just build *"),  # a two-valued option
    ("pacman -Syu", "pacman -S *"),           # pacman's verb is its operation
    ("pacman --remove foo", "pacman -R *"),
    ("go run github.com/evil-example/tool@latest", "go run *"),
    ("npx prettier --write .", "npx prettier *"),
    ("deno run x.ts", "deno run *"),
    ("systemctl --user restart x", "systemctl restart *"),
    ("sudo -E apt-get -o Dpkg::Options::=--force-confold install x", "apt-get install *"),
])
def test_multiplexer_verbs(text, expected):
    key = key_for(part(text))
    assert key.pattern == expected
    assert key.legacy == f"{key.program} *"


def test_verbs_are_remembered_apart_and_never_by_prefix():
    assert pattern("git commit -m x") != pattern("git push")
    assert pattern("ls") == "ls *" and pattern("lsof") == "lsof *"
    assert pattern("git status") == pattern("git status --short") == "git status *"


def test_a_runtime_verb_is_exact():
    key = key_for(part("git $X origin"))
    assert key.exact and key.legacy is None and key.program == "git"


def test_multiplexer_inline_code_is_exact():
    for text in ("deno eval 'Deno.exit()'", "npx -c 'rm -rf x'", "bun -e 'x'"):
        key = key_for(part(text))
        assert key.exact and key.legacy is None, text


# ---------------------------------------------------------------- interpreters, shells, keywords


@pytest.mark.parametrize("text", [
    "python -c x", "python3 -c x", "python3.12 -Bc x", "pypy3 -c x",
    "node -e x", "node --eval x", "node --eval=x", "node -p x", "node -pe x",
    "perl -e x", "perl -E x", "perl -lane 'print $F[0]'", "perl -i.bak -pe s/a/b/ f", "perl -0777 -ne x",
    "ruby -e x", "ruby -rjson -e x", "php -r x", "lua -e x", "osascript -e x",
    "pwsh -NoProfile -Command x", "fish -c x",
    "bash -c $X", "sh -lc $X", "bash -c",      # non-literal or missing code
    "eval $X", "eval echo $X",
    "sudo source ./x", "deno eval x",
])
def test_inline_code_is_exact(text):
    assert key_for(part(text)).exact, text


@pytest.mark.parametrize("text, expected", [
    ("python3 script.py", "python3 *"),
    ("python3 -m http.server", "python3 *"),
    ("perl -i -n script.pl", "perl *"),
    ("node -r x y.js", "node *"),
    ("bash -c 'rm -rf x'", "bash *"),          # literal code: its commands are parts of their own
    ("sudo sh -c 'echo hi'", "sh *"),
    ("eval 'echo hi'", "eval *"),
    ("sudo bash", "bash *"),
    ("bash build.sh", "bash *"),
])
def test_interpreters_without_inline_code(text, expected):
    key = key_for(part(text))
    assert key.pattern == expected and not key.exact


@pytest.mark.parametrize("text", ["bash", "sh -s arg", "python3 -", "python3", "perl", "node", "sh -x",
                                  "ruby", "python3 -W ignore"])
def test_code_on_stdin_is_exact(text):
    assert key_for(part(text, stdin_code="rm -rf ~")).exact
    assert key_for(part(text, pipeline=0, stage=1)).exact
    assert not key_for(part(text, pipeline=0, stage=0)).exact


def test_a_script_xargs_appends_is_exact():
    assert key_for(part("xargs bash")).exact
    assert key_for(part("xargs -0 python3")).exact
    assert not key_for(part("xargs bash x.sh")).exact
    assert not key_for(part("xargs rm")).exact


@pytest.mark.parametrize("text", ["bash x.sh", "python3 x.py", "cat", "python3 -m json.tool"])
def test_data_on_stdin_is_not_code(text):
    assert not key_for(part(text, stdin_code="data")).exact
    assert not key_for(part(text, pipeline=0, stage=2)).exact


def test_code_carried_in_the_environment_is_exact():
    made = part("perl /dev/null", assignments=(Assignment("PERL5DB", 'exec "/bin/sh"', "PERL5DB='exec \"/bin/sh\"'"),))
    assert key_for(made).exact and key_for(made).program == "perl"
    assert key_for(part("env LD_PRELOAD=/tmp/x.so ls")).exact
    assert key_for(part("sudo GIT_SSH_COMMAND=x git fetch")).exact
    assert not key_for(part("env LANG=C ls")).exact


def test_shell_keywords_are_never_keys():
    assert pattern("do rm x") == "rm *"
    assert pattern("then if ! rm x") == "rm *"
    assert pattern("coproc rm -rf x") == "rm *"
    for text in ("do", "done", "fi", "then", "}", "esac", "for f in x"):
        key = key_for(part(text))
        assert key.exact and key.program is None, text


def test_opaque_and_empty_parts_are_exact():
    key = key_for(part("rm -rf $(", opaque=True))
    assert key.exact and key.pattern == "rm -rf $(" and key.program == "rm"
    assign = key_for(Part(text="x=1", span=(0, 3), argv=(), assignments=(Assignment("x", "1", "x=1"),)))
    assert assign.exact and assign.program is None and assign.env == (Assignment("x", "1", "x=1"),)


# ---------------------------------------------------------------- the multiplexer list is data


def test_multiplexer_list_loads_from_the_checkout():
    assert Path(resource_path(keys.MULTIPLEXERS_FILE)) == REPO / "Resources" / "multiplexers.txt"
    table = default_multiplexers()
    issue_list = ("git gh glab hg svn cargo rustup go npm npx pnpm yarn bun deno pip pip3 pipx uv poetry conda "
                  "mamba gem bundle composer docker podman kubectl helm kind minikube terraform tofu pulumi aws "
                  "gcloud az fly vercel wrangler firebase brew apt apt-get dnf yum pacman snap flatpak systemctl "
                  "launchctl dotnet mvn gradle just nix openssl ip").split()
    assert set(issue_list) <= table.programs
    assert table.value_options["git"]["-C"] == 1
    assert default_multiplexers() is table     # read once


def test_adding_a_line_changes_keys_without_code(tmp_path):
    programs = tmp_path / "multiplexers.txt"
    options = tmp_path / "multiplexer-options.txt"
    shutil.copy(resource_path(keys.MULTIPLEXERS_FILE), programs)
    shutil.copy(resource_path(keys.MULTIPLEXER_OPTIONS_FILE), options)
    made = part("frobctl --home /x launch now")
    assert key_for(made, load_multiplexers(programs, options)).pattern == "frobctl *"

    with programs.open("a") as f:
        f.write("frobctl   # a program added by a reviewer\n")
    table = load_multiplexers(programs, options)
    assert "frobctl" in table.programs
    assert key_for(part("frobctl launch now"), table).pattern == "frobctl launch *"
    assert key_for(made, table).pattern == "frobctl *"     # `/x` is --home's value, but that is not known yet

    with options.open("a") as f:
        f.write("frobctl: --home\n")
    assert key_for(made, load_multiplexers(programs, options)).pattern == "frobctl launch *"
    assert key_for(made).pattern == "frobctl *"     # the shipped table is unchanged


def test_find_verb_skips_options_values_and_selectors():
    table = load_multiplexers(resource_path(keys.MULTIPLEXERS_FILE), resource_path(keys.MULTIPLEXER_OPTIONS_FILE))
    assert find_verb("git", ["-C", "a", "-c", "k=v", "--bare", "commit"], table) == "commit"
    assert find_verb("cargo", ["+nightly", "build"], table) == "build"
    assert find_verb("git", ["-C", "a"], table) is None
    assert find_verb("git", ["a=b"], table) is None


# ---------------------------------------------------------------- the corpus, through the real splitter


def _corpus() -> list[dict]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_corpus_must_see_is_some_parts_program_or_verb():
    from wispsh.parse.split import split_line

    misses = []
    for case in _corpus():
        seen = set()
        for made in split_line(case["line"]).parts:
            key = key_for(made)
            if key.program:
                seen.add(key.program)
                if key.verb and not key.exact:
                    seen.add(key.pattern.removesuffix(" *"))
        missing = [m for m in case["must_see"] if m not in seen]
        if missing:
            misses.append((case["line"], missing, sorted(seen)))
    assert not misses, misses
    assert len(_corpus()) >= 100
