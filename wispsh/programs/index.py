"""Which family describes each program: the one table the engine reads to load only the families a line's
programs need. Made by `python -m wispsh.programs.index` from the families' PROGRAMS; a test fails when it is
stale, and when two families claim one name."""
from __future__ import annotations

import sys

FAMILIES = ("files", "git", "interpreters", "runners", "gate", "network", "databases", "packages", "system",
            "cloud", "containers", "verbs", "printing", "agent_clis", "migrations",
            "releases")
MARK = "\n# ---- " + "generated: do not edit by hand (python -m wispsh.programs.index)\n"
_loaded: dict = {}


def table(family: str) -> dict:
    found = _loaded.get(family)
    if found is None:
        found = _loaded[family] = _module(family).PROGRAMS
    return found


def _module(family: str):
    """wispsh.programs.<family>, imported (as importlib.import_module would, without importing importlib)."""
    name = f"wispsh.programs.{family}"
    __import__(name)
    return sys.modules[name]


def every_program() -> dict:
    """Every program by name, from every family; a name two families claim is an error."""
    found: dict = {}
    for family in FAMILIES:
        for name, described in table(family).items():
            if name in found:
                raise ValueError(f"program {name!r} is described by two families ({FAMILY.get(name)} and {family})")
            found[name] = described
    return found


def generate() -> str:
    """This module's text with FAMILY rebuilt from the families themselves."""
    claimed: dict[str, str] = {}
    for family in FAMILIES:
        for name in _module(family).PROGRAMS:
            if name in claimed:
                raise ValueError(f"program {name!r} is described by {claimed[name]} and {family}")
            claimed[name] = family
    with open(__file__, encoding="utf-8") as fh:
        head = fh.read().partition(MARK)[0]
    names: dict[str, list[str]] = {family: [] for family in FAMILIES}
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
    'git': (
        'git'
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
    'runners': (
        'alacritty aws-vault chronic conky dbus-run-session direnv doppler dotenv entr envchain fd fdfind '
        'firejail foot fzf ghostty gnome-terminal infisical kitty konsole lxterm lxterminal mate-terminal '
        'mise nix nix-shell op parallel perf pipenv proxychains proxychains4 ranger rtx rxvt screen script '
        'setpriv sg ssh-agent st systemd-run terminator tilix tmux torify torsocks urxvt urxvtc uxterm '
        'valgrind x-terminal-emulator xfce4-terminal xterm xvfb-run'
    ),
    'gate': (
        'wisp wispsh'
    ),
    'network': (
        'ab aria2c autossh axel azcopy borg caddy croc curl curlie darkhttpd delv dig drill elinks fetch '
        'ffsend ftp getent gh grpcurl host hping hping3 http http-server https kdig lftp links links2 lp lpr '
        'lynx mail mailx miniserve mosh msmtp mtr mutt nc ncat neomutt netcat nslookup openssl openvpn ping '
        'ping6 rclone restic rsync s-nail s3cmd scp sendmail sftp simple-http-server smbclient socat ssh '
        'ssh-copy-id sshfs swaks telnet tftp tracepath traceroute updog w3m websocat wget wget2 whois '
        'wormhole xh xhs'
    ),
    'databases': (
        'clickhouse-client clusterdb cqlsh createdb createuser dropdb dropuser duckdb etcdctl keydb-cli '
        'litecli mariadb mariadb-admin mariadb-dump mongo mongodump mongoexport mongoimport mongorestore '
        'mongosh mycli mysql mysqladmin mysqldump mysqlimport pg_dump pg_dumpall pg_restore pgcli psql '
        'redis-cli reindexdb sqlcmd sqlite sqlite3 usql vacuumdb valkey-cli'
    ),
    'packages': (
        'actionlint add-apt-repository apk apt apt-cache apt-file apt-get apt-key apt-mark aptitude autopep8 '
        'bandit biome black bmake brew bun bundle bundler bunx c++ cargo cc checkov clang clang++ '
        'clang-format codespell composer conda cspell dnf dotnet dpkg emerge eslint etex flake8 flatpak g++ '
        'gcc gem gmake go go-task gofmt goimports golangci-lint hadolint hatch husky isort just latex latexmk '
        'lefthook lualatex luatex make mamba markdownlint markdownlint-cli2 markdownlint-cli2-fix microdnf '
        'micromamba mypy nix-env nox npm npx nuget pacman paru pdflatex pdftex pdm pip pip2 pip3 pipx pkg '
        'platex pnpm pnpx poetry port pre-commit prettier py.test pycodestyle pydocstyle pyflakes pylint '
        'pyright pytest rpm ruff rustfmt rye shellcheck shfmt snap stylelint task tex tflint tox tsc twine '
        'uplatex uv uvx vulture xbps-install xelatex xetex yapf yarn yay yum zypper'
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
    'cloud': (
        'aws az doctl eksctl firebase fly flyctl gcloud gsutil heroku netlify pulumi terraform terragrunt '
        'tofu vercel wrangler'
    ),
    'containers': (
        'docker docker-compose helm k kubectl minikube nerdctl oc podman podman-compose'
    ),
    'verbs': (
        'ansible-galaxy ansible-vault asdf cabal corepack dart defaults flutter git-lfs glab gradle gradlew '
        'hg incus ip jj journalctl k3d kind lxc multipass mvn mvnw nmcli opam packer pm2 pyenv rbenv rustup '
        'stack svn swift tea vagrant'
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
    'agent_clis': (
        'aider amp claude codex copilot crush cursor-agent droid gemini goose interpreter kiro-cli mini '
        'opencode q qwen'
    ),
    'migrations': (
        'alembic atlas dbmate diesel drizzle-kit flyway knex liquibase mikro-orm mix prisma rails rake '
        'sequelize sequelize-cli sqlx supabase typeorm'
    ),
    'releases': (
        'changeset flit gh-pages goreleaser jsr lerna ovsx pod release-it semantic-release vsce wasm-pack'
    ),
}
FAMILY: dict[str, str] = {name: family for family, names in _NAMES.items() for name in names.split()}
