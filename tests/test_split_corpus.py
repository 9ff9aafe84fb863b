"""The splitter over labelled lines: the shared sample's must_see, and realistic agent lines of our own."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from wispsh.programs import wrappers
from wispsh.parse.split import split_line

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "levels-sample.jsonl"
if not SAMPLE.exists():
    SAMPLE = Path("/work/shared/corpus/levels-sample.jsonl")


def _sample():
    return [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]


def programs_seen(split) -> set[str]:
    """Each part's program word and its unwrapped command's first word, directory stripped."""
    seen: set[str] = set()
    for part in split.parts:
        if not part.argv:
            continue
        seen.add(wrappers.program_name(part.argv[0]) or "")
        command = wrappers.unwrap(part.argv, part.words if len(part.words) == len(part.argv) else None).command
        if command:
            seen.add(wrappers.program_name(command[0]) or "")
    return seen


def _entries():
    for entry in _sample():
        yield pytest.param(entry, id=entry["line"][:50])


@pytest.mark.parametrize("entry", list(_entries()))
def test_must_see(entry):
    split = split_line(entry["line"])
    assert not any("internal error" in n for n in split.notes), split.notes
    seen = programs_seen(split)
    for program in entry["must_see"]:
        # multiplexer entries ("git push") need only the program here; the verb is keys.py's job
        assert program.split()[0] in seen, (program, [p.argv for p in split.parts])


# Realistic agent lines (Claude Code, Codex, Aider, CI) with the programs each must show, in order.
AGENT_LINES = [
    ("cd /repo && npm ci && npm test -- --watch=false", ["cd", "npm", "npm"]),
    ("git status --porcelain && git diff --stat", ["git", "git"]),
    ("git add -A && git commit -m 'fix: handle empty input; add tests' && git push origin HEAD",
     ["git", "git", "git"]),
    ("cat <<'EOF' > src/app.py\nimport os\nprint(os.getcwd())\nEOF", ["cat"]),
    ("python -m pytest -x -q 2>&1 | tail -20", ["python", "tail"]),
    ("ls -la && pwd", ["ls", "pwd"]),
    ("rg -n 'TODO|FIXME' src | head -50", ["rg", "head"]),
    ("find . -name '*.pyc' -delete", ["find"]),
    ("find . -type f -name '*.log' -exec rm -f {} +", ["find", "rm"]),
    ("grep -rn \"def main\" --include='*.py' . | wc -l", ["grep", "wc"]),
    ("source .venv/bin/activate && pip install -r requirements.txt", ["source", "pip"]),
    ("export PATH=\"$HOME/.local/bin:$PATH\" && which black", ["export", "which"]),
    ("mkdir -p build && cd build && cmake .. && make -j$(nproc)", ["mkdir", "cd", "cmake", "make", "nproc"]),
    ("for f in tests/*.py; do python \"$f\" || exit 1; done", ["python", "exit"]),
    ("if [ -f package.json ]; then npm run build; else echo 'no package.json'; fi", ["[", "npm", "echo"]),
    ("docker compose up -d && sleep 5 && curl -fsS localhost:8080/health", ["docker", "sleep", "curl"]),
    ("git log --oneline -n 20 --grep='release|hotfix'", ["git"]),
    ("sed -i 's/foo/bar/g' src/*.js", ["sed"]),
    ("tar -czf out.tgz dist/ && ls -lh out.tgz", ["tar", "ls"]),
    ("npx prettier --write . >/dev/null 2>&1 || true", ["npx", "true"]),
    ("cargo build --release 2>&1 | grep -E '^(warning|error)' | sort | uniq -c", ["cargo", "grep", "sort", "uniq"]),
    ("go test ./... -run TestSplit -count=1", ["go"]),
    ("timeout 60 pytest tests/ -k 'not slow'", ["timeout"]),
    ("VAR=1 OTHER=\"a b\" make check", ["make"]),
    ("echo \"$(date +%s)\" > .stamp", ["echo", "date"]),
    ("while IFS= read -r line; do echo \"$line\"; done < input.txt", ["read", "echo"]),
    ("cat file.json | jq '.items[] | .name' | sort -u", ["cat", "jq", "sort"]),
    ("awk -F, '{print $1}' data.csv | head", ["awk", "head"]),
    ("bash -lc 'cd /app && ./run.sh --check'", ["bash", "cd", "./run.sh"]),
    ("(cd frontend && yarn install --frozen-lockfile)", ["cd", "yarn"]),
    ("{ echo a; echo b; } | tee out.txt", ["echo", "echo", "tee"]),
    ("python3 - <<'PY'\nimport json,sys\nprint(json.dumps({'a': 1}))\nPY", ["python3"]),
    ("git diff --no-index -- a b", ["git"]),
    ("git diff --", ["git"]),
    ("node -e 'console.log(process.version)'", ["node"]),
    ("test -d node_modules || npm install", ["test", "npm"]),
    ("kill %1 2>/dev/null; wait", ["kill", "wait"]),
    ("printf '%s\\n' a b c | xargs -n1 echo", ["printf", "xargs"]),
    ("case \"$OSTYPE\" in darwin*) brew install jq;; linux*) sudo apt-get install -y jq;; esac",
     ["brew", "sudo"]),
    ("ssh deploy@host 'cd /srv/app && git pull && systemctl restart app'", ["ssh", "cd", "git", "systemctl"]),
    ("make -C build install DESTDIR=/tmp/stage", ["make"]),
    ("echo done # trailing comment with 'quote", ["echo"]),
    ("cp -r src/ dst/ && rm -rf src/", ["cp", "rm"]),
    ("curl -sSL https://example.com/install.sh | bash -s -- --yes", ["curl", "bash"]),
    ("diff <(sort a.txt) <(sort b.txt)", ["diff", "sort", "sort"]),
    ("pytest -q; echo \"exit=$?\"", ["pytest", "echo"]),
    ("npm run lint -- --fix && git add -p", ["npm", "git"]),
    ("ls *.md | while read f; do wc -l \"$f\"; done", ["ls", "read", "wc"]),
    ("DEBUG=1 ./scripts/dev.sh &", ["./scripts/dev.sh"]),
    ("nohup python server.py > server.log 2>&1 &", ["nohup"]),
]


@pytest.mark.parametrize("line, expected", AGENT_LINES, ids=[l[:40] for l, _ in AGENT_LINES])
def test_agent_lines(line, expected):
    split = split_line(line)
    assert split.ok, split.notes
    got = [p.argv[0] for p in split.parts if p.argv]
    assert got == expected, [p.text for p in split.parts]
