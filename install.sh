#!/bin/sh
# Install wispsh for the current user: a venv in the user's data directory, this checkout installed into
# it, `wispsh` and `wisp` linked into ~/.local/bin (or --prefix DIR), and shims named bash, sh and zsh.
# Idempotent: run it again to update. `install.sh --uninstall` removes what it made and nothing else
# (your ~/.wisp config, approvals and audit log stay).
set -eu

usage() {
    cat <<EOF
usage: install.sh [--prefix DIR] [--python PYTHON] [--find-links DIR --no-index] [--uninstall]
  --prefix DIR      where the wispsh and wisp commands are linked (default: ~/.local/bin)
  --python PYTHON   the Python (3.11+) to build the venv from (default: python3)
  --find-links DIR  also look for wheels in DIR; with --no-index, only there (offline installs)
  --uninstall       remove what install.sh made
EOF
}

prefix="$HOME/.local/bin"
python="${PYTHON:-python3}"
uninstall=0
pip_extra=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --python) [ $# -ge 2 ] || { usage >&2; exit 2; }; python="$2"; shift 2 ;;
        --find-links) [ $# -ge 2 ] || { usage >&2; exit 2; }; pip_extra="$pip_extra --find-links $2"; shift 2 ;;
        --no-index) pip_extra="$pip_extra --no-index"; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

checkout=$(cd "$(dirname "$0")" && pwd -P)
data_root="${XDG_DATA_HOME:-$HOME/.local/share}"
home_dir="$data_root/wispsh"        # everything install.sh makes lives here, plus two links in $prefix
venv="$home_dir/venv"
launchers="$home_dir/bin"
shims="$home_dir/shims"
manifest="$home_dir/installed"      # what install.sh made outside $home_dir: links, directories it created
shim_names="bash sh zsh"

# Directories we create outside $home_dir (and their missing parents) are recorded, so that --uninstall
# can remove them again if they are then empty.
created=""
make_dir() {
    dir="$1"
    while [ ! -d "$dir" ]; do
        created="$created
dir $dir"
        dir=$(dirname "$dir")
    done
    mkdir -p "$1"
}

# Agent and shell settings that may name the shims or the launcher (the README's recipes): install.sh writes
# none of them, so --uninstall changes none; it lists each one that still points at what it removes.
pointing_here() {
    config_home="${XDG_CONFIG_HOME:-$HOME/.config}"
    for file in "$HOME/.claude/settings.json" "$HOME/.claude/settings.local.json" \
        "$config_home/opencode/opencode.json" "$config_home/opencode/opencode.jsonc" "$HOME/.codex/config.toml" \
        "$HOME/.gemini/settings.json" "$HOME/.qwen/settings.json" "$HOME/.aider.conf.yml" \
        "$HOME/.continue/config.json" "$HOME/.continue/config.yaml" "$config_home/goose/config.yaml" \
        "$HOME/.profile" "$HOME/.bash_profile" "$HOME/.bash_login" "$HOME/.bashrc" "$HOME/.zshenv" \
        "$HOME/.zprofile" "$HOME/.zshrc" "$config_home/fish/config.fish"; do
        [ -f "$file" ] || continue
        grep -n -F -e "$home_dir" -e "$prefix/wispsh" "$file" 2>/dev/null | while IFS=: read -r number _; do
            echo "  $file:$number"
        done
    done
    login=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f7)
    case "$login" in
        "$home_dir"/*|"$prefix/wispsh") echo "  your login shell (chsh): $login" ;;
    esac
}

if [ "$uninstall" = 1 ]; then
    if [ ! -f "$manifest" ]; then
        echo "wispsh is not installed here (no $manifest)"
        exit 0
    fi
    still=$(pointing_here)
    # Links first, then directories deepest first; only what the manifest lists, and only if still ours.
    while IFS=' ' read -r kind path; do
        if [ "$kind" = link ] && [ -L "$path" ]; then
            case "$(readlink "$path")" in "$home_dir"/*) rm -f "$path" ;; esac
        fi
    done < "$manifest"
    rm -rf "$venv" "$launchers" "$shims" "$home_dir/src"
    dirs=$(sed -n 's/^dir //p' "$manifest" | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-)
    rm -f "$manifest"
    rmdir "$home_dir" 2>/dev/null || true
    echo "$dirs" | while IFS= read -r dir; do
        [ -n "$dir" ] && rmdir "$dir" 2>/dev/null || true
    done
    echo "wispsh uninstalled (your settings in ${WISP_HOME:-~/.wisp} were left alone)"
    if [ -n "$still" ]; then
        echo "These settings of yours still name what was removed (install.sh did not write them; change them,"
        echo "or the agent will not start its shell):"
        echo "$still"
    fi
    exit 0
fi

"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || {
    echo "install.sh: $python is not Python 3.11 or newer (use --python)" >&2; exit 1; }

make_dir "$data_root"
make_dir "$prefix"
mkdir -p "$home_dir"
touch "$manifest"
[ -n "$created" ] && printf '%s\n' "$created" | sed '/^$/d' >> "$manifest"

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"

# Build from a clean copy of the sources: an in-tree build would leave build/ in the checkout and could
# ship stale modules from it.
src="$home_dir/src"
rm -rf "$src"
mkdir -p "$src"
cp -R "$checkout/pyproject.toml" "$checkout/wispsh" "$checkout/Resources" "$src/"
for extra in README.md LICENSE; do
    [ -f "$checkout/$extra" ] && cp "$checkout/$extra" "$src/"
done
find "$src" -name __pycache__ -type d -prune -exec rm -rf {} +
# shellcheck disable=SC2086  # pip_extra is a list of words
# (pip always rebuilds and reinstalls a project given as a directory: a second run updates it)
PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install --quiet --no-cache-dir $pip_extra "$src"
rm -rf "$src"

# The launcher and the shims: tiny scripts that start Python with -I -S and the venv's site-packages,
# laid by `wisp shims install` (wispsh/shims.py), the one implementation of them. Run with -I so that no
# PYTHONPATH of the installing user decides which wispsh the shims point at.
venv_wisp() { "$venv/bin/python" -I -c 'from wispsh.cli.wisp import cli; cli(prog_name="wisp")' "$@"; }
# The gate's modules in one file (support/hotload.py), from the .pyc files pip just wrote: every start-up reads
# it instead of importing sixty modules one by one. The gate writes it again if it is ever behind a source.
"$venv/bin/python" -I -c 'from wispsh.support import hotload; hotload.build()' || \
    echo "install.sh: the modules bundle was not written (wispsh imports its modules one by one)" >&2
# The compiled client (wispsh/native/client.c) built with the system compiler: the launchers and shims laid next
# have it in front; without a compiler they stay Python launchers (`wisp doctor` says which is in front).
"$venv/bin/python" -I -m wispsh.native.build >/dev/null || \
    echo "install.sh: the compiled client was not built (no C compiler?): the Python launchers are in front" >&2
venv_wisp shims install --quiet --shell wispsh "$launchers"
# shellcheck disable=SC2086  # shim_names is a list of words
venv_wisp shims install --quiet $(printf -- '--shell %s ' $shim_names) "$shims"

link() {  # link NAME TARGET into $prefix, never over a file that is not ours
    dest="$prefix/$1"
    if [ -e "$dest" ] || [ -L "$dest" ]; then
        if [ ! -L "$dest" ]; then
            echo "install.sh: $dest exists and is not a link made by install.sh; left alone" >&2
            return 0
        fi
        case "$(readlink "$dest")" in
            "$home_dir"/*) ;;
            *) echo "install.sh: $dest links elsewhere; left alone" >&2; return 0 ;;
        esac
    fi
    ln -sfn "$2" "$dest"
    grep -qxF "link $dest" "$manifest" 2>/dev/null || echo "link $dest" >> "$manifest"
}
link wispsh "$launchers/wispsh"
link wisp "$venv/bin/wisp"

"$prefix/wispsh" --version >/dev/null || { echo "install.sh: the installed wispsh does not start" >&2; exit 1; }

# The PATH line for the user's own shell, offered (never written) when $prefix is not on PATH.
path_line() {
    case "$prefix" in
        "$HOME"/*) shown="\$HOME/${prefix#"$HOME"/}" ;;
        *) shown="$prefix" ;;
    esac
    case "$(basename "${SHELL:-sh}")" in
        bash) echo "echo 'export PATH=\"$shown:\$PATH\"' >> ~/.bashrc" ;;
        zsh) echo "echo 'export PATH=\"$shown:\$PATH\"' >> ~/.zshrc" ;;
        fish) echo "fish_add_path '$prefix'" ;;
        *) echo "echo 'PATH=\"$shown:\$PATH\"; export PATH' >> ~/.profile" ;;
    esac
}
case ":$PATH:" in
    *":$prefix:"*) on_path="" ;;
    *) on_path="
$prefix is not on your PATH. For your shell ($(basename "${SHELL:-sh}")), add it with:
  $(path_line)
then open a new terminal (or use the full paths above)." ;;
esac

cat <<EOF
wispsh $("$prefix/wispsh" --version | cut -d' ' -f2) installed.
  commands:  $prefix/wispsh, $prefix/wisp
  shims:     $shims/{$(echo $shim_names | tr ' ' ',')}
Use it for an agent in one of two ways:
  SHELL=$shims/bash  <agent>              (agents that start \$SHELL)
  PATH=$shims:\$PATH  <agent>              (agents that look bash/sh up on PATH)
Check with: wisp doctor     Remove with: $checkout/install.sh --uninstall$on_path
EOF
