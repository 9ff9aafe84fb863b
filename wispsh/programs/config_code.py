"""Settings whose value a program runs as a command line: which keys, variables and options, and the code in them.

`git -c core.pager='less; curl … | sh' log` runs `less; curl … | sh` with the shell; `ssh -o ProxyCommand=CMD`,
`MANPAGER=CMD man`, `git -c alias.x='reset --hard' x` and vim's `-c ':!CMD'` are the same: code given as a
setting. This module says which settings those are and what code a value holds, so that the splitter
(parse/nested.py, through the rows of programs/code_carriers.py) makes parts of the code, and the rules (git,
ssh, man, editors, policy/env.py) know which values they were. No levels here, and no imports beyond the
option reader: the splitter reads it for every git, ssh and vim part.

A value is one of:
  NOT_CODE  the key holds no command (user.name, color.ui)
  PLAIN     a command, but a plain tool given no code: a known pager or editor with simple flags (`less -R`,
            `vim`, `code --wait`), a boolean (`core.fsmonitor=false`), nothing (`core.pager=`)
  CODE      shell text the program runs: split as a line of its own
  OTHER     a command in a form that is not shell text (`credential.helper=store` runs git-credential-store)
"""
from __future__ import annotations

from wispsh.programs.grammar import read_options
from wispsh.support.lazyre import lazy_re, re

NOT_CODE, PLAIN, CODE, OTHER = "not-code", "plain", "code", "other"

# ---------------------------------------------------------------- plain tools

# Pagers and editors that, given only simple flags, show or edit the file they are handed and run nothing else.
PAGERS = frozenset({"less", "more", "most", "cat", "head", "tail", "bat", "batcat", "delta", "moar", "ov", "lv",
                    "pg", "diff-so-fancy", "diff-highlight", "true", "false", ":"})
EDITORS = frozenset({"vim", "vi", "nvim", "gvim", "mvim", "nano", "pico", "emacs", "emacsclient", "micro", "hx",
                     "helix", "kak", "code", "codium", "code-insiders", "cursor", "subl", "mate", "gedit", "kate",
                     "zed", "joe", "jed", "ne", "mcedit", "notepad", "TextEdit"})
# Flags of those tools that take no value and run nothing (less's letters without the ones that take a
# value or write: b h j k o O p P t T x y z # D; the editors' wait/new-window/terminal flags).
_PAGER_FLAGS = lazy_re(r"^-[+]?[FRSXrifMNJWQqsEeaBcCdgGHlLmnuUVwK~]+$|^--(?:paging|color|colour|theme|style|"
                       r"plain|dark|light|side-by-side|line-numbers|navigate|quit-if-one-screen|no-init|"
                       r"RAW-CONTROL-CHARS|raw-control-chars|chop-long-lines|ignore-case|LONG-PROMPT|"
                       r"squeeze-blank-lines|no-pager|wrap|tabs)(?:=[\w-]+)?$")
_EDITOR_FLAGS = frozenset({"-w", "--wait", "-nw", "-n", "--new-window", "-f", "--nofork", "--no-fork", "-W",
                           "--no-wait", "-r", "--reuse-window", "--tty"})


def plain_tool(value: str) -> bool:
    """`less -R`, `vim`, `code --wait`, `cat`, ``: a known pager or editor with flags that run nothing."""
    words = value.split()
    if not words:
        return True
    if any(ch in value for ch in "'\"\\$`;&|<>(){}*?[]!#~\n"):
        return False
    name = words[0].rsplit("/", 1)[-1]
    if words[0].startswith(("/", "./", "../")) and not words[0].startswith(("/usr/bin/", "/bin/", "/usr/local/bin/",
                                                                          "/opt/homebrew/bin/")):
        return False            # a program of that name somewhere else is not that program
    if name in PAGERS:
        return all(_PAGER_FLAGS.match(w) for w in words[1:])
    if name in EDITORS:
        return all(w in _EDITOR_FLAGS for w in words[1:])
    return False


# ---------------------------------------------------------------- git config keys

# How a key's value runs: "code" shell text, "switch" a boolean or else shell text, "bang" shell text after
# a leading `!` (else a helper name), "program" a program git runs (its path, judged as a command line).
# `*` is a subsection (a tool, a driver, a remote name). Sources: git-config(1), gitattributes(5), githooks(5).
GIT_CODE_KEYS = {
    "core.editor": "code", "core.pager": "code", "sequence.editor": "code", "core.sshcommand": "code",
    "core.fsmonitor": "switch", "core.alternaterefscommand": "code", "core.askpass": "program",
    "core.gitproxy": "code", "diff.external": "code", "diff.*.command": "code", "diff.*.textconv": "code",
    "merge.*.driver": "code", "filter.*.clean": "code", "filter.*.smudge": "code", "filter.*.process": "code",
    "difftool.*.cmd": "code", "mergetool.*.cmd": "code", "difftool.*.path": "program",
    "mergetool.*.path": "program", "pager.*": "switch", "gpg.program": "program", "gpg.*.program": "program",
    "gpg.ssh.defaultkeycommand": "code", "uploadpack.packobjectshook": "code", "gc.recentobjectshook": "code",
    "hook.*.command": "code", "trailer.*.cmd": "code", "trailer.*.command": "code", "man.*.cmd": "code",
    "man.*.path": "program", "browser.*.cmd": "code", "browser.*.path": "program",
    "interactive.difffilter": "code", "tar.*.command": "code", "sendemail.tocmd": "code",
    "sendemail.cccmd": "code", "sendemail.headercmd": "code", "sendemail.*.tocmd": "code",
    "sendemail.*.cccmd": "code", "sendemail.*.headercmd": "code", "credential.helper": "bang",
    "credential.*.helper": "bang", "submodule.*.update": "bang",
}
GIT_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})
# The values of `submodule.<name>.update` that name a git command rather than shell code.
_SUBMODULE_UPDATES = frozenset({"checkout", "rebase", "merge", "none"})


_WILD_KEYS: list | None = None


def _git_how(key: str) -> str | None:
    """How the value of `key` runs (GIT_CODE_KEYS), None when it holds no command."""
    global _WILD_KEYS
    lowered = key.lower()
    how = GIT_CODE_KEYS.get(lowered)
    if how is not None or "." not in lowered:
        return how
    if _WILD_KEYS is None:
        _WILD_KEYS = [(re.compile("^" + pattern.replace(".", r"\.").replace("*", ".+") + "$"), found)
                      for pattern, found in GIT_CODE_KEYS.items() if "*" in pattern]
    return next((found for pattern, found in _WILD_KEYS if pattern.match(lowered)), None)


def git_config(key: str, value: str) -> tuple[str, str]:
    """(what the value is, the shell code in it) for `git -c KEY=VALUE` (git-config(1) keys)."""
    how = _git_how(key)
    if how is None:
        return NOT_CODE, ""
    text = value.strip()
    if how == "bang":
        if text.startswith("!"):
            return CODE, text[1:]
        if not text or key.lower().startswith("submodule.") and text in _SUBMODULE_UPDATES:
            return PLAIN, ""
        return OTHER, ""
    if how == "switch" and text.lower() in GIT_BOOLEANS:
        return PLAIN, ""
    if plain_tool(text):
        return PLAIN, ""
    return CODE, text


# ---------------------------------------------------------------- git's options and aliases

# git's global options (git(1)): which take a value, as the rules' grammar reads them (programs/git.py).
GIT_SHORT_VALUES = "Cc"
GIT_LONG_VALUES = ("git-dir", "work-tree", "namespace", "super-prefix", "config-env", "list-cmds", "attr-source")
GIT_LONGS = ("paginate", "no-pager", "bare", "no-replace-objects", "literal-pathspecs", "exec-path", "html-path",
             "man-path", "info-path", "version", "help", "no-optional-locks", "no-lazy-fetch", "no-advice",
             "glob-pathspecs", "noglob-pathspecs", "icase-pathspecs")
GIT_OPTIONAL = ("exec-path",)

# Every git command (git's command-list.txt and the builtins of git.c): an alias of one of these names is
# ignored by git (the command runs). An installed git-NAME (git-lfs) wins over an alias NAME too; the rules
# judge a verb their tables know as itself as well as the alias (programs/git.py).
GIT_COMMANDS = frozenset("""
add am annotate apply archimport archive backfill bisect blame branch bugreport bundle cat-file check-attr
check-ignore check-mailmap check-ref-format checkout checkout--worker checkout-index cherry cherry-pick citool
clean clone column commit commit-graph commit-tree config count-objects credential credential-cache
credential-cache--daemon credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff
diff-files diff-index diff-pairs diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch
fmt-merge-msg for-each-ref for-each-repo format-patch format-rev fsck fsck-objects fsmonitor--daemon gc
get-tar-commit-id grep gui hash-object help history hook http-backend http-fetch http-push imap-send
index-pack init init-db instaweb interpret-trailers last-modified log ls-files ls-remote ls-tree mailinfo
mailsplit maintenance merge merge-base merge-file merge-index merge-one-file merge-ours merge-recursive
merge-recursive-ours merge-recursive-theirs merge-subtree merge-tree mergetool mktag mktree multi-pack-index
mv name-rev notes p4 pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push
quiltimport range-diff read-tree rebase receive-pack reflog refs remote remote-ext remote-fd repack replace
replay repo request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack sh-i18n sh-setup
shell shortlog show show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule
submodule--helper svn switch symbolic-ref tag unpack-file unpack-objects update-index update-ref
update-server-info upload-archive upload-archive--writer upload-pack url-parse var verify-commit verify-pack
verify-tag version whatchanged worktree write-tree scalar gitk
""".split())
MAX_ALIAS_STEPS = 16    # aliases of aliases followed; beyond, the command is judged whole


def split_cmdline(text: str) -> list[str] | None:
    """Words of an alias, split as git's split_cmdline does: blanks separate, quotes and backslashes quote.
    None when a quote is left open (git refuses the alias)."""
    words: list[str] = []
    current: list[str] = []
    started = False
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"' and i < len(text):
                current.append(text[i])
                i += 1
            else:
                current.append(ch)
            continue
        if ch in " \t\n":
            if started:
                words.append("".join(current))
                current, started = [], False
            continue
        started = True
        if ch in "'\"":
            quote = ch
        elif ch == "\\" and i < len(text):
            current.append(text[i])
            i += 1
        else:
            current.append(ch)
    if quote:
        return None
    if started:
        words.append("".join(current))
    return words


def alias_name(key: str) -> str | None:
    """The alias a config key defines: `alias.co` (matched without case) or `alias.<name>.command` (exact)."""
    section, dot, rest = key.partition(".")
    if not dot or section.lower() != "alias" or not rest:
        return None
    if rest.lower().endswith(".command") and len(rest) > len(".command"):
        return rest[:-len(".command")]
    return rest.lower() if "." not in rest else None


def lookup_alias(aliases: dict[str, str], verb: str) -> str | None:
    """The definition git uses for `git VERB`, or None (no such alias, or VERB is a git command)."""
    if verb in GIT_COMMANDS:
        return None
    found = aliases.get(verb)
    return found if found is not None else aliases.get(verb.lower())


def git_globals(args: list) -> tuple[list[str], int]:
    """git's words read as git reads them (and as the rules' grammar does): each `-c KEY=VALUE` among the
    global options, and where the verb is in `args` (-1: none)."""
    o = read_options(args, GIT_SHORT_VALUES, GIT_LONG_VALUES, GIT_LONGS, True, GIT_OPTIONAL)
    return o.all("c"), (len(args) - len(o.operands) if o.operands else -1)


# ---------------------------------------------------------------- ssh -o

# ssh_config(5) options whose value is a command line run with the user's shell (RemoteCommand: on the other
# machine, as `ssh HOST CMD` is). `none` turns each off.
SSH_COMMAND_OPTIONS = frozenset({"proxycommand", "localcommand", "knownhostscommand", "remotecommand"})


def ssh_option(option: str) -> tuple[str, str, str]:
    """(the option's name in lower case, what its value is, the code) for one `-o Name=value` / `-o 'Name value'`."""
    text = option.strip()
    cut = min((text.find(sep) for sep in ("=", " ", "\t") if sep in text), default=-1)
    if cut < 0:
        return text.lower(), NOT_CODE, ""
    name, value = text[:cut].lower(), text[cut:].lstrip(" \t")
    if value.startswith("="):
        value = value[1:].lstrip(" \t")
    if name not in SSH_COMMAND_OPTIONS:
        return name, NOT_CODE, ""
    if value.lower() in ("none", ""):
        return name, PLAIN, ""
    return name, CODE, value


# ---------------------------------------------------------------- variables that name a command

# Variables whose value programs run as a command line (git, man, less, sudo, ssh, systemctl, gh, kubectl, …).
COMMAND_VARIABLES = frozenset({
    "PAGER", "MANPAGER", "GIT_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND",
    "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_PROXY_COMMAND",
    "SYSTEMD_PAGER", "GH_PAGER", "GH_EDITOR", "KUBE_EDITOR", "PSQL_PAGER", "FCEDIT", "SVN_EDITOR", "LESSOPEN",
    "LESSCLOSE", "BAT_PAGER", "DELTA_PAGER",
    # the helpers other tools run by their manuals: a password command (restic, borg, rclone), the remote shell
    # of a copy (rsync, borg, cvs, svn), a pager or editor (crash, systemd, sudoedit, hg), a browser
    "RESTIC_PASSWORD_COMMAND", "BORG_PASSCOMMAND", "RCLONE_PASSWORD_COMMAND", "RSYNC_RSH", "RSYNC_CONNECT_PROG",
    "BORG_RSH", "CVS_RSH", "SVN_SSH", "CRASHPAGER", "SYSTEMD_EDITOR", "SUDO_EDITOR", "HGEDITOR", "BROWSER",
})


def command_line(text: str) -> tuple[str, str]:
    """(what it is, the code) for a command line a program is given to run (`man -P CMD`, `PAGER=CMD`)."""
    text = text.strip()
    return (PLAIN, "") if plain_tool(text) else (CODE, text)


def runs_command_option(cmd, texts, rule: str, who: str) -> None:
    """The command lines an option gives a program to run (`bat --pager CMD`, `fzf --preview CMD`): a plain
    pager or editor shows text; anything else runs code, judged as that code (parts of its own, or here); text
    known only at run time is code the gate cannot read."""
    from wispsh.programs.grammar import UNKNOWN

    for text in texts:
        if UNKNOWN in text:
            cmd.does("run-code", rule, f"{who} runs a command known only at run time")
            continue
        what, code = command_line(text)
        if what == PLAIN:
            cmd.fired.add(rule)
            continue
        cmd.does("run-code", rule, f"{who} runs the command it is given")
        cmd.runs_setting(code, text, f"{who} runs")


def variable(name: str, value: str) -> tuple[str, str]:
    """(what the value is, the code) for one of COMMAND_VARIABLES set to `value`."""
    if name not in COMMAND_VARIABLES:
        return NOT_CODE, ""
    text = value.strip()
    if name in ("LESSOPEN", "LESSCLOSE"):
        text = text.lstrip("-|")     # `|lesspipe %s`, `||cmd`, `-|cmd`: the same command, piped
    return command_line(text)


# ---------------------------------------------------------------- vim's ex commands

_EX_QUIT = frozenset({"q", "q!", "qa", "qa!", "qall", "qall!", "quit", "quit!", "quitall", "quitall!", "wq",
                      "wq!", "wqa", "wqa!", "wqall", "wqall!", "x", "x!", "xa", "xa!", "xit", "xall", "cq", "cq!",
                      "close", "only", ""})
_EX_MODIFIERS = lazy_re(r"^(?:sil(?:ent)?!?|uns(?:ilent)?|keepalt|keepj(?:umps)?|noa(?:utocmd)?|lockm(?:arks)?|"
                        r"kee(?:pmarks)?|vert(?:ical)?|to(?:pleft)?|bo(?:tright)?|abo(?:veleft)?|bel(?:owright)?|"
                        r"tab|hid(?:e)?|conf(?:irm)?|sandbox|sb)(?=[\s!]|$)\s*")
_EX_RANGE = lazy_re(r"^(?:[\d.$%,;+\-]|'[a-zA-Z<>])*")
_EX_READ_WRITE = lazy_re(r"^(?:r(?:e(?:a(?:d)?)?)?\s*|w(?:r(?:i(?:t(?:e)?)?)?)?\s+)!(.*)$", re.S)
_EX_TERMINAL = lazy_re(r"^ter(?:m(?:i(?:n(?:a(?:l)?)?)?)?)?!?\s+(\S.*)$", re.S)
_EX_EXECUTE = lazy_re(r"""^exe(?:c(?:u(?:t(?:e)?)?)?)?\s+(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")\s*$""", re.S)
_EX_SYSTEM = lazy_re(r"""\b(?:system|systemlist)\(\s*(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")\s*[,)]""")
_EX_OTHER_LANGUAGE = lazy_re(r"^(?:py(?:thon)?3?|pyx|pythonx|py3do|pydo|pyf(?:ile)?|py3f(?:ile)?|lua(?:do|file)?|"
                             r"perl(?:do)?|rub(?:y)?(?:do|file)?|tcl(?:do|file)?|mz(?:scheme)?|mzf(?:ile)?)\b")
_EX_CALLS = lazy_re(r"\b(?:system|systemlist|jobstart|termopen|libcall|libcallnr|py3?eval|pyxeval|luaeval|"
                    r"perleval|rubyeval|execute|feedkeys|writefile|delete|rename|mkdir|setline|"
                    r"timer_start|job_start|ch_open)\(")


def _unquote_vim(single: str | None, double: str | None) -> str:
    if single is not None:
        return single.replace("''", "'")
    text = double or ""
    return text.replace('\\"', '"').replace("\\\\", "\\")


def _next_bar(text: str) -> int:
    """Where the next `|` outside quotes separates ex commands (-1: none)."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                continue
        elif ch in "'\"":
            quote = ch
        elif ch == "|":
            return i
    return -1


def ex_shell(command: str, depth: int = 0) -> tuple[list[str], bool]:
    """The shell text an ex command line runs (`:!CMD`, `silent !CMD`, `r !CMD`, `w !CMD`, `:terminal CMD`,
    `call system('CMD')`, `exe "!CMD"`), and whether it holds anything else besides quitting."""
    shells: list[str] = []
    other = False
    text = command
    while True:
        text = text.lstrip(" \t:")
        text = _EX_RANGE.sub("", text, count=1).lstrip(" \t")
        while True:
            stripped = _EX_MODIFIERS.sub("", text, count=1)
            if stripped == text:
                break
            text = stripped
        if text.startswith("!"):
            shells.append(text[1:])     # `:!cmd | more`: the bar is the shell's
            return shells, other
        m = _EX_READ_WRITE.match(text) or _EX_TERMINAL.match(text)
        if m:
            shells.append(m.group(1))
            return shells, other
        bar = _next_bar(text)
        one, text = (text, "") if bar < 0 else (text[:bar], text[bar + 1:])
        one = one.strip()
        m = _EX_EXECUTE.match(one)
        if m and depth < 3:
            inner, rest = ex_shell(_unquote_vim(m.group(1), m.group(2)), depth + 1)
            shells.extend(inner)
            other = other or rest
        elif _EX_OTHER_LANGUAGE.match(one):
            other = True            # `:py import os; os.system(…)`, `:lua …`: another language's code
        elif _EX_CALLS.search(one):
            found = [_unquote_vim(m.group(1), m.group(2)) for m in _EX_SYSTEM.finditer(one)]
            shells.extend(found)
            # a call other than system('literal') (a list, a variable, another function): code we cannot read
            other = other or len(found) != len(_EX_CALLS.findall(one))
        elif one not in _EX_QUIT:
            other = True
        if bar < 0:
            return shells, other
