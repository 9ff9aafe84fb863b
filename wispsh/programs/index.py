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
    'archives': (
        '7z 7za 7zr 7zz base32 base64 basenc bsdtar bunzip2 bzcat bzip2 gtar gunzip gzip tar unxz unzip '
        'unzstd xxd xz xzcat zcat zip zstd zstdcat'
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
    'confinement': (
        'aa-audit aa-complain aa-disable aa-enforce aa-status aa-unconfined apparmor_parser apparmor_status '
        'auditctl augenrules aulast aulastlog aureport ausearch capsh getenforce getsebool ldconfig '
        'matchpathcon nsenter run-parts seinfo semanage sesearch sestatus setenforce setsebool '
        'start-stop-daemon unshare update-alternatives'
    ),
    'containers': (
        'docker docker-compose helm k kubectl minikube nerdctl oc podman podman-compose'
    ),
    'credentials': (
        'age bw ccencrypt ccrypt detect-secrets dumpsterdiver gcore ggshield gitleaks gopass gpg gpg2 hashcat '
        'impacket-secretsdump john keepassxc-cli keyctl keyring kingfisher kwallet-query laZagne lazagne '
        'lpass mimipenguin noseyparker np pass pypykatz rage ripsecrets secret-tool secretsdump.py security '
        'ssh-add ssh-keygen trufflehog unshadow vault'
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
    'editors': (
        'code code-insiders codium cursor ed emacs emacsclient eview evim ex gview gvim gvimdiff helix hx kak '
        'micro nano nvim nvim-qt red rview rvim subl vi view vim vimdiff vimx'
    ),
    'files': (
        'chattr chgrp chmod chown cp dd find gfind install ln mkdir mkfifo mv rm rmdir setfacl shred sort '
        'sponge tee touch truncate uniq unlink'
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
        '. [ [[ alias ash bash busybox-sh csh dash declare elvish enable env eval export fc fish hash history '
        'ion ksh ksh93 let local loksh mapfile mksh nu oksh pdksh posh printenv printf rbash rc read '
        'readarray readonly sash set sh source tcsh test trap typeset unset xonsh yash zsh'
    ),
    'language_packages': (
        'bundle bundler cargo composer conda gem go mamba micromamba twine'
    ),
    'languages': (
        'Invoke-Expression Invoke-RestMethod Invoke-WebRequest R Rscript bpftrace clisp dc deno expect ghc '
        'gm4 gnuplot groovy guile iex irb irm iwr jjs jrunscript jshell julia kotlin lua luajit m4 node '
        'nodejs octave octave-cli osascript perl php powershell pwsh racket ruby runghc runhaskell sbcl scala '
        'slsh tclsh wish'
    ),
    'migrations': (
        'alembic atlas dbmate diesel drizzle-kit flyway knex liquibase mikro-orm mix prisma rails rake '
        'sequelize sequelize-cli sqlx supabase typeorm'
    ),
    'mise_nix': (
        'chronic dbus-run-session dotenv envchain firejail mise nix nix-shell proxychains proxychains4 rtx '
        'setpriv sg ssh-agent torify torsocks xvfb-run'
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
    'pagers': (
        'gdb gio-open ld-linux-aarch64.so.1 ld-linux-x86-64.so.2 ld-linux.so.2 ld-musl-aarch64.so.1 '
        'ld-musl-x86_64.so.1 ld.so less lldb man more most open pdb pdb3 xdg-open'
    ),
    'per_input_runners': (
        'conky entr fd fdfind fzf parallel ranger'
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
    'provisioners': (
        'ansible ansible-config ansible-console ansible-doc ansible-inventory ansible-lint ansible-playbook '
        'ansible-pull puppet'
    ),
    'python': (
        'pypy pypy3 python python2 python3'
    ),
    'python_packages': (
        'hatch pdm pip pip2 pip3 pipx poetry rye uv uvx'
    ),
    'readers': (
        'ack ag b2sum basename bat batcat cat cksum cmp column comm csplit cut diff dirname du dust egrep '
        'enscript exa expand eza fgrep file fmt fold getfacl git-grep gojq grep gsplit head hexdump iconv '
        'join jq look ls lsattr md5sum namei ncdu nl numfmt od pandoc paste patch pr readlink realpath rev rg '
        'sha1sum sha256sum sha512sum shuf split stat strings sum tac tail tr tree unexpand wc yq zgrep'
    ),
    'releases': (
        'changeset flit gh-pages goreleaser jsr lerna ovsx pod release-it semantic-release vsce wasm-pack'
    ),
    'runners': (
        'aws-vault direnv doppler infisical op perf pipenv script systemd-run valgrind'
    ),
    'sed_awk': (
        'awk busybox-awk gawk gsed mawk nawk sed'
    ),
    'ssh': (
        'autossh ftp lftp mosh rsync scp sftp smbclient ssh ssh-copy-id telnet tftp'
    ),
    'storage': (
        'azcopy croc ffsend rclone s3cmd wormhole'
    ),
    'system': (
        'addgroup adduser arpspoof at atq atrm badblocks batch blkdiscard bore cfdisk chfn chisel chpasswd '
        'chsh cloudflared crontab cryptsetup delgroup deluser diskutil doas dscl dseditgroup ettercap fdisk '
        'firewall-cmd format frpc gdisk gpasswd groupadd groupdel groupmod halt hdparm hostname hostnamectl '
        'hydra init insmod ip6tables ip6tables-restore iptables iptables-restore kexec kill killall killall5 '
        'launchctl localectl localtunnel loginctl losetup lsmod lt lvremove machinectl masscan mdadm mke2fs '
        'mkfs mkswap modinfo modprobe mount newfs newgrp nft ngrok nmap nvme parted passwd pfctl pkexec pkill '
        'poweroff pvremove rc-service reboot rmmod run0 runuser sdparm service setcap setuid sfdisk sgdisk '
        'shutdown skill slay su sudo sudoedit swapoff swapon sysadminctl sysctl systemctl tailscale tcpdump '
        'telinit timedatectl tshark ufw umount useradd userdel usermod vgremove vipw visudo wipefs zpool'
    ),
    'task_runners': (
        'go-task husky just lefthook nox pre-commit py.test pytest task tox'
    ),
    'terminals': (
        'alacritty foot ghostty gnome-terminal kitty konsole lxterm lxterminal mate-terminal rxvt screen st '
        'terminator tilix tmux urxvt urxvtc uxterm x-terminal-emulator xfce4-terminal xterm'
    ),
    'verbs': (
        'ansible-galaxy ansible-vault asdf cabal corepack dart defaults flutter git-lfs glab gradle gradlew '
        'hg incus ip jj journalctl k3d kind lxc multipass mvn mvnw nmcli opam packer pm2 pyenv rbenv rustup '
        'stack svn swift tea vagrant'
    ),
}
FAMILY: dict[str, str] = {name: family for family, names in _NAMES.items() for name in names.split()}
