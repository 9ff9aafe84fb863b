"""Which family describes each program: the one table the engine reads to load only the families a line's
programs need. Made by `python -m wispsh.programs.index` from the modules of programs/ that hold PROGRAMS (the
families are found, not listed by hand); a test fails when it is stale, and when two families claim one name.

A stale index cannot make a program unknown: a name it does not know (or one its family no longer has) is
looked up again in the index the families make now, checked once a process against the sources' sizes and
times (one directory listing) and kept in __pycache__; only when a source changed are the families imported.
"""
from __future__ import annotations

import marshal
import os
import sys

MARK = "\n# ---- " + "generated: do not edit by hand (python -m wispsh.programs.index)\n"
HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "__pycache__", f"index.{sys.implementation.cache_tag}.marshal")
_loaded: dict = {}
_current: dict | None = None        # the index the families make now (name -> family), once checked


def table(family: str) -> dict:
    found = _loaded.get(family)
    if found is None:
        found = _loaded[family] = _module(family).PROGRAMS
    return found


def described(name: str):
    """The description of `name` by the family that holds it, or None."""
    family = FAMILY.get(name)
    if family is not None:
        found = table(family).get(name)
        if found is not None:
            return found
    family = current().get(name)         # not in this file's index: is it stale?
    return table(family)[name] if family is not None else None


def family_of(name: str) -> str | None:
    """The family that describes `name` (this file's index, else the one the families make now), or None."""
    return FAMILY.get(name) or current().get(name)


def _module(family: str):
    """wispsh.programs.<family>, imported (as importlib.import_module would, without importing importlib)."""
    name = f"wispsh.programs.{family}"
    __import__(name)
    return sys.modules[name]


def _stamps() -> tuple:
    """(file, size, mtime) of every module of programs/: what the families say can change only with these."""
    found = []
    with os.scandir(HERE) as entries:
        for entry in entries:
            if entry.name.endswith(".py") and entry.name != "index.py":
                st = entry.stat()
                found.append((entry.name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(found))


def current() -> dict:
    """name -> family as the families say now: from the cache when the sources are those it was made from,
    else made again (every family imported) and the cache written (when it can be: else made each process)."""
    global _current
    if _current is None:
        stamps = _stamps()
        try:
            with open(CACHE, "rb") as fh:
                cached_stamps, cached = marshal.load(fh)
        except (OSError, EOFError, ValueError, TypeError):
            cached_stamps, cached = None, None
        if cached_stamps == stamps and isinstance(cached, dict):
            _current = cached
        else:
            _current = claims()
            _write_cache(stamps, _current)
    return _current


def _write_cache(stamps: tuple, found: dict) -> None:
    tmp = f"{CACHE}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(CACHE), exist_ok=True)
        with open(tmp, "wb") as fh:
            marshal.dump((stamps, found), fh)
        os.replace(tmp, CACHE)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def families() -> tuple[str, ...]:
    """The modules of programs/ that describe programs (hold PROGRAMS), by file name."""
    names = sorted(entry[:-3] for entry in os.listdir(HERE) if entry.endswith(".py") and entry not in (
        "index.py", "__init__.py"))
    return tuple(name for name in names if hasattr(_module(name), "PROGRAMS"))


def claims() -> dict[str, str]:
    """name -> family, from every family's PROGRAMS; a name two families claim is an error."""
    claimed: dict[str, str] = {}
    for family in families():
        for name in _module(family).PROGRAMS:
            if name in claimed:
                raise ValueError(f"program {name!r} is described by {claimed[name]} and {family}")
            claimed[name] = family
    return claimed


def every_program() -> dict:
    """Every program by name, from every family; a name two families claim is an error."""
    return {name: table(family)[name] for name, family in claims().items()}


def generate() -> str:
    """This module's text with FAMILY rebuilt from the families themselves."""
    claimed = claims()
    with open(__file__, encoding="utf-8") as fh:
        head = fh.read().partition(MARK)[0]
    names: dict[str, list[str]] = {family: [] for family in families()}
    for name, family in sorted(claimed.items()):
        if not name or any(c.isspace() for c in name):
            raise ValueError(f"program {name!r} of {family}: a program name has no blank")
        names[family].append(name)
    # one string of names a family (the compiler joins its lines): a few constants to unmarshal at start-up,
    # not a thousand strings
    lines = "".join(f"    {family!r}: (\n{_wrapped(listed)}    ),\n" for family, listed in names.items() if listed)
    return (f"{head}{MARK}_NAMES = {{\n{lines}}}\n"
            "FAMILY: dict[str, str] = {name: family for family, names in _NAMES.items() for name in names.split()}\n")


def _wrapped(names: list[str], width: int = 110) -> str:
    rows, row = [], []
    for name in names:
        if row and len(" ".join(row + [name])) + 10 > width:
            rows.append(" ".join(row) + " ")
            row = []
        row.append(name)
    rows.append(" ".join(row))
    return "".join(f"        {text!r}\n" for text in rows)


if __name__ == "__main__":
    text = generate()
    with open(__file__, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"{__file__}: {text.count(chr(10))} lines")

# ---- generated: do not edit by hand (python -m wispsh.programs.index)
_NAMES = {
    'agent_clis': (
        'aider amp claude codex copilot crush cursor-agent droid gemini goose interpreter kiro-cli mini '
        'opencode q qwen'
    ),
    'builds': (
        'apt-file autopep8 bandit biome black bmake c++ cc checkov clang clang++ clang-format codespell '
        'eslint etex flake8 g++ gcc gmake gofmt goimports golangci-lint isort latex latexmk lualatex luatex '
        'make markdownlint markdownlint-cli2 markdownlint-cli2-fix mypy pdflatex pdftex platex prettier '
        'pycodestyle pydocstyle pyflakes pylint pyright ruff rustfmt shellcheck shfmt stylelint tex tflint '
        'tsc uplatex vulture xelatex xetex yapf'
    ),
    'cloud': (
        'aws az doctl eksctl firebase fly flyctl gcloud gsutil heroku netlify pulumi terraform terragrunt '
        'tofu vercel wrangler'
    ),
    'containers': (
        'docker docker-compose helm k kubectl minikube nerdctl oc podman podman-compose'
    ),
    'databases': (
        'clickhouse-client clusterdb cqlsh createdb createuser dropdb dropuser duckdb etcdctl keydb-cli '
        'litecli mariadb mariadb-admin mariadb-dump mongo mongodump mongoexport mongoimport mongorestore '
        'mongosh mycli mysql mysqladmin mysqldump mysqlimport pg_dump pg_dumpall pg_restore pgcli psql '
        'redis-cli reindexdb sqlcmd sqlite sqlite3 usql vacuumdb valkey-cli'
    ),
    'dotnet': (
        'dotnet nuget'
    ),
    'files': (
        '7z 7za 7zr 7zz ack ag awk b2sum base32 base64 basename basenc bat batcat bsdtar bunzip2 busybox-awk '
        'bzcat bzip2 cat chattr chgrp chmod chown cksum cmp column comm cp csplit cut dd diff dirname du dust '
        'egrep enscript exa expand eza fgrep file find fmt fold gawk getfacl gfind git-grep gojq grep gsed '
        'gsplit gtar gunzip gzip head hexdump iconv install join jq ln look ls lsattr mawk md5sum mkdir '
        'mkfifo mv namei nawk ncdu nl numfmt od pandoc paste patch pr readlink realpath rev rg rm rmdir sed '
        'setfacl sha1sum sha256sum sha512sum shred shuf sort split sponge stat strings sum tac tail tar tee '
        'touch tr tree truncate unexpand uniq unlink unxz unzip unzstd wc xxd xz xzcat yq zcat zgrep zip zstd '
        'zstdcat'
    ),
    'gate': (
        'wisp wispsh'
    ),
    'gh': (
        'gh'
    ),
    'git': (
        'git'
    ),
    'http': (
        'aria2c axel caddy curl curlie darkhttpd elinks fetch grpcurl http http-server https links links2 '
        'lynx miniserve simple-http-server updog w3m wget wget2 xh xhs'
    ),
    'interpreters': (
        '. Invoke-Expression Invoke-RestMethod Invoke-WebRequest R Rscript [ [[ alias ash bash bpftrace '
        'busybox-sh clisp code code-insiders codium csh cursor dash dc declare deno ed elvish emacs '
        'emacsclient enable env eval eview evim ex expect export fc fish gdb ghc gio-open gm4 gnuplot groovy '
        'guile gview gvim gvimdiff hash helix history hx iex ion irb irm iwr jjs jrunscript jshell julia kak '
        'kotlin ksh ksh93 ld-linux-aarch64.so.1 ld-linux-x86-64.so.2 ld-linux.so.2 ld-musl-aarch64.so.1 '
        'ld-musl-x86_64.so.1 ld.so less let lldb local loksh lua luajit m4 man mapfile micro mksh more most '
        'nano node nodejs nu nvim nvim-qt octave octave-cli oksh open osascript pdb pdb3 pdksh perl php posh '
        'powershell printenv printf pwsh pypy pypy3 python python2 python3 racket rbash rc read readarray '
        'readonly red ruby runghc runhaskell rview rvim sash sbcl scala set sh slsh source subl tclsh tcsh '
        'test trap typeset unset vi view vim vimdiff vimx wish xdg-open xonsh yash zsh'
    ),
    'language_packages': (
        'bundle bundler cargo composer conda gem go mamba micromamba twine'
    ),
    'migrations': (
        'alembic atlas dbmate diesel drizzle-kit flyway knex liquibase mikro-orm mix prisma rails rake '
        'sequelize sequelize-cli sqlx supabase typeorm'
    ),
    'network': (
        'ab borg delv dig drill getent host hping hping3 kdig lp lpr mail mailx msmtp mtr mutt nc ncat '
        'neomutt netcat nslookup openssl openvpn ping ping6 restic s-nail sendmail socat sshfs swaks '
        'tracepath traceroute websocat whois'
    ),
    'node_packages': (
        'bun bunx npm npx pnpm pnpx yarn'
    ),
    'packages': (
        'actionlint add-apt-repository apk apt apt-cache apt-get apt-key apt-mark aptitude brew cspell dnf '
        'dpkg emerge flatpak hadolint microdnf nix-env pacman paru pkg port rpm snap xbps-install yay yum '
        'zypper'
    ),
    'printing': (
        ': apropos arch bc bg break btop builtin caffeinate cal caller clinfo col colordiff colrm command '
        'compgen continue cowsay csvlook date delta df diff3 difft dirs disown dmesg dmidecode echo eglinfo '
        'es2_info exec exit expr factor false fastfetch fbset fc-list fg figlet findmnt free fx getconf '
        'getopts gh-status glow glxinfo gron groups help htop hwinfo id ifconfig info infocmp inotifywait '
        'inotifywatch inxi ionice iostat jless jobs jot jsonlint last lastb lastlog ldd locale logname '
        'lsb_release lsblk lscpu lshw lsipc lsirq lslocks lsmem lsns lsof lspci lsusb md5 mktemp mlr '
        'mountpoint mpstat ncal neofetch netstat nice nm nohup notify-send nproc nvidia-smi objdump otool '
        'pbcopy pbpaste pgrep popd ps pwd readelf renice return say screenfetch sdiff seq setopt shasum shift '
        'shopt size sleep ss stdbuf stty sw_vers sync system_profiler systemd-detect-virt '
        'termux-clipboard-get tidy time timeout times tldr top tput true ts tsort tty tvservice type ulimit '
        'umask unalias uname units unsetopt uptime users uuidgen vcgencmd vmstat w wait watch whatis whence '
        'where whereis which who whoami wl-copy wl-paste xclip xdpyinfo xmllint xprop xrandr xsel xset '
        'yamllint yes'
    ),
    'python_packages': (
        'hatch pdm pip pip2 pip3 pipx poetry rye uv uvx'
    ),
    'releases': (
        'changeset flit gh-pages goreleaser jsr lerna ovsx pod release-it semantic-release vsce wasm-pack'
    ),
    'runners': (
        'alacritty aws-vault chronic conky dbus-run-session direnv doppler dotenv entr envchain fd fdfind '
        'firejail foot fzf ghostty gnome-terminal infisical kitty konsole lxterm lxterminal mate-terminal '
        'mise nix nix-shell op parallel perf pipenv proxychains proxychains4 ranger rtx rxvt screen script '
        'setpriv sg ssh-agent st systemd-run terminator tilix tmux torify torsocks urxvt urxvtc uxterm '
        'valgrind x-terminal-emulator xfce4-terminal xterm xvfb-run'
    ),
    'ssh': (
        'autossh ftp lftp mosh rsync scp sftp smbclient ssh ssh-copy-id telnet tftp'
    ),
    'storage': (
        'azcopy croc ffsend rclone s3cmd wormhole'
    ),
    'system': (
        'aa-audit aa-complain aa-disable aa-enforce aa-status aa-unconfined addgroup adduser age ansible '
        'ansible-config ansible-console ansible-doc ansible-inventory ansible-lint ansible-playbook '
        'ansible-pull apparmor_parser apparmor_status arpspoof at atq atrm auditctl augenrules aulast '
        'aulastlog aureport ausearch badblocks batch blkdiscard bore bw capsh ccencrypt ccrypt cfdisk chfn '
        'chisel chpasswd chsh cloudflared crontab cryptsetup delgroup deluser detect-secrets diskutil doas '
        'dscl dseditgroup dumpsterdiver ettercap fdisk firewall-cmd format frpc gcore gdisk getenforce '
        'getsebool ggshield gitleaks gopass gpasswd gpg gpg2 groupadd groupdel groupmod halt hashcat hdparm '
        'hostname hostnamectl hydra impacket-secretsdump init insmod ip6tables ip6tables-restore iptables '
        'iptables-restore john keepassxc-cli kexec keyctl keyring kill killall killall5 kingfisher '
        'kwallet-query laZagne launchctl lazagne ldconfig localectl localtunnel loginctl losetup lpass lsmod '
        'lt lvremove machinectl masscan matchpathcon mdadm mimipenguin mke2fs mkfs mkswap modinfo modprobe '
        'mount newfs newgrp nft ngrok nmap noseyparker np nsenter nvme parted pass passwd pfctl pkexec pkill '
        'poweroff puppet pvremove pypykatz rage rc-service reboot ripsecrets rmmod run-parts run0 runuser '
        'sdparm secret-tool secretsdump.py security seinfo semanage service sesearch sestatus setcap '
        'setenforce setsebool setuid sfdisk sgdisk shutdown skill slay ssh-add ssh-keygen start-stop-daemon '
        'su sudo sudoedit swapoff swapon sysadminctl sysctl systemctl tailscale tcpdump telinit timedatectl '
        'trufflehog tshark ufw umount unshadow unshare update-alternatives useradd userdel usermod vault '
        'vgremove vipw visudo wipefs zpool'
    ),
    'task_runners': (
        'go-task husky just lefthook nox pre-commit py.test pytest task tox'
    ),
    'verbs': (
        'ansible-galaxy ansible-vault asdf cabal corepack dart defaults flutter git-lfs glab gradle gradlew '
        'hg incus ip jj journalctl k3d kind lxc multipass mvn mvnw nmcli opam packer pm2 pyenv rbenv rustup '
        'stack svn swift tea vagrant'
    ),
}
FAMILY: dict[str, str] = {name: family for family, names in _NAMES.items() for name in names.split()}
