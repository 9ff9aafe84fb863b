"""git: read-only, local-change, history-rewriting and remote verbs, and the config that makes git run programs."""
from __future__ import annotations


from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.policy.env import HARMLESS_VALUES
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                           "--config-env", "--list-cmds", "--attr-source"})
# Config keys whose value git runs as a program, or that send git somewhere else.
CODE_KEYS = lazy_re(
    r"^(core\.(pager|editor|fsmonitor|sshcommand|hookspath|askpass|gitproxy|worktree|attributesfile)"
    r"|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+"
    r"|credential\..*helper|credential\.helper|gpg\.program|gpg\..+\.program|pager\..+|alias\..+"
    r"|uploadpack\.packobjectshook|remote\..+\.(receivepack|uploadpack|proxy)|interactive\.difffilter"
    r"|include\.path|includeif\..+\.path|init\.templatedir|web\.browser|browser\..+\.(cmd|path)"
    r"|man\..+\.(cmd|path)|sendemail\..+|difftool\..+\.(cmd|path)|mergetool\..+\.(cmd|path)"
    r"|url\..+\.(insteadof|pushinsteadof)|protocol\..*allow|http\.proxy|https?\..*proxy|core\.sshcommand"
    r"|safe\.directory|submodule\..+\.update|receive\.procreceiverefs|core\.fsmonitorhookversion"
    r"|uploadarchive\.allowunreachable|gc\..*hook|maintenance\..+|trailer\..+\.command|merge\.tool"
    r"|diff\.tool|mergetool\..+|difftool\..+)$")
BENIGN_GLOBAL_KEYS = lazy_re(r"^(user\.|init\.defaultbranch|pull\.|push\.default|push\.autosetupremote|color\."
                                r"|core\.autocrlf|core\.quotepath|core\.eol|advice\.|fetch\.prune|rebase\.|merge\."
                                r"conflictstyle|diff\.algorithm|log\.|format\.|column\.|help\.|rerere\.)")

READ_ONLY = frozenset({
    "status", "log", "show", "diff", "blame", "annotate", "describe", "rev-parse", "rev-list", "ls-files",
    "ls-tree", "cat-file", "shortlog", "grep", "whatchanged", "name-rev", "merge-base", "for-each-ref",
    "show-ref", "show-branch", "count-objects", "fsck", "verify-commit", "verify-tag", "var", "help",
    "version", "check-ignore", "check-attr", "check-ref-format", "cherry", "range-diff", "diff-tree",
    "diff-files", "diff-index", "request-pull", "get-tar-commit-id", "check-mailmap", "verify-pack",
    "show-index", "ls-remote", "interpret-trailers", "hash-object", "stripspace", "column", "bugreport",
})
LOCAL_CHANGE = frozenset({
    "add", "commit", "merge", "rebase", "cherry-pick", "revert", "mv", "rm", "apply", "am", "init", "notes",
    "worktree", "submodule", "sparse-checkout", "gc", "prune", "repack", "maintenance", "lfs", "bisect",
    "replace", "update-index", "update-ref", "symbolic-ref", "read-tree", "write-tree", "commit-tree",
    "pack-refs", "remote", "fetch", "pull", "clone", "format-patch", "mktag", "mktree", "merge-file",
    "hook", "fast-import", "fast-export", "bundle", "difftool", "mergetool", "citool", "gui", "svn", "p4",
    "stage", "unpack-objects", "index-pack", "pack-objects", "prune-packed", "archive", "rerere", "restore",
    "switch", "checkout", "reset", "stash", "clean", "branch", "tag", "config", "push", "reflog", "mailinfo",
    "mailsplit", "multi-pack-index", "commit-graph", "filter-branch", "filter-repo", "scalar", "credential",
    "send-email", "daemon", "instaweb", "http-backend", "upload-pack", "receive-pack", "shell",
    "quiltimport", "cvsimport", "archimport", "imap-send", "fsmonitor--daemon", "help", "whatchanged",
})


def _config_value_harmless(key: str, value: str | None) -> bool:
    if value is None or UNKNOWN in value:
        return False
    if key.startswith("alias.") and not value.lstrip().startswith("!"):
        return True     # an alias to another git command runs nothing new
    if key in ("core.pager", "core.editor", "sequence.editor") or key.startswith("pager."):
        return value.strip() in HARMLESS_VALUES or value.strip() in ("false", "true")
    if key == "core.hookspath":
        return False
    return False


def judge_config_key(key: str, value: str | None) -> bool:
    """True when setting key=value can make git run a program or talk to somewhere else."""
    key = key.lower()
    return bool(CODE_KEYS.match(key)) and not _config_value_harmless(key, value)


def git(c: Cmd) -> None:
    args = c.args
    i, n = 0, len(args)
    other_repo = None
    while i < n:
        arg = args[i]
        if not arg.startswith("-") or arg == "--":
            break
        name, eq, value = arg.partition("=")
        if arg.startswith("-c") and not arg.startswith("--") and len(arg) > 2:   # attached: -ckey=value
            name, eq, value = "-c", "", arg[2:]
            i += 1
        elif name in GLOBAL_VALUES and not eq:
            value = args[i + 1] if i + 1 < n else ""
            i += 2
        else:
            i += 1
        if name == "-c" or name == "--config-env":
            key, _, val = value.partition("=")
            if name == "--config-env":
                val = UNKNOWN
            if UNKNOWN in key:
                c.at_least(H, "git -c sets a config key known only at run time (it may run a program)")
            elif judge_config_key(key, val):
                c.at_least(H, f"git -c {key}=… makes git run a program or go elsewhere")
        elif name == "--exec-path" and eq:
            c.at_least(H, "git --exec-path runs git's helpers from another directory")
        elif name in ("-p", "--paginate"):
            c.at_least(H, "git -p runs the configured pager program")
        elif name in ("-C", "--git-dir", "--work-tree"):
            where = c.place(value)
            if where.cls not in (places.PROJECT, places.PROJECT_ROOT):
                other_repo = where
            if name == "-C" and UNKNOWN not in value:
                c.cwd = where.path if not where.unknown else c.cwd
            if name == "--git-dir" and where.cls not in (places.PROJECT, places.PROJECT_ROOT):
                # as GIT_DIR=…: that repository's config and hooks (fsmonitor, pager, hooks) can run programs
                c.at_least(H, "git --git-dir uses another repository's config, whose helpers can run programs")
    verb = args[i] if i < n else None
    rest = list(args[i + 1:])
    if verb is None:
        return
    if UNKNOWN in verb:
        c.at_least(H, "git verb known only at run time")
        return
    if rest and rest[-1] in ("--help", "-h") and len(rest) == 1:
        return
    if any(a.startswith("ext::") or a.startswith("-") and "=ext::" in a for a in rest):
        c.at_least(H, "the ext:: transport runs a command")
    handler = VERBS.get(verb)
    if handler is not None:
        handler(c, rest)
    elif verb in READ_ONLY:
        pass
    elif verb in LOCAL_CHANGE:
        c.at_least(M, f"git {verb} changes the repository")
    else:
        c.at_least(M, f"git {verb} is not a known git command (it may be an alias)")
    if other_repo is not None and c.level() >= M:
        c.at_least(max(c.level(), H), f"acts on another repository ({other_repo.path})")
        if c.level() >= H and verb in ("reset", "clean", "checkout", "restore", "push", "branch", "stash"):
            c.at_least(D, f"destroys work in another repository ({other_repo.path})")


def _opts(c: Cmd, rest, short_values="", long_values=(), longs=()):
    return c.opts(short_values, long_values, longs, args=rest)


def _output(c: Cmd, rest) -> None:
    o = _opts(c, rest, "", ("output", "output-directory"))
    for out in o.all("output"):
        c.write(out, "git writes")
    if any(a == "--ext-diff" for a in rest):
        c.at_least(M, "runs the configured external diff program")


def _log(c: Cmd, rest) -> None:
    _output(c, rest)


def _grep(c: Cmd, rest) -> None:
    if any(a.startswith(("--open-files-in-pager", "-O")) for a in rest):
        c.at_least(H, "git grep runs a pager program on the files")


def _push(c: Cmd, rest) -> None:
    o = _opts(c, rest, "o", ("repo", "receive-pack", "exec", "push-option", "recurse-submodules"),
              ("force", "force-with-lease", "force-if-includes", "mirror", "delete", "prune", "tags", "all",
               "dry-run", "follow-tags", "set-upstream", "no-verify", "atomic", "porcelain", "quiet", "verbose"))
    if o.has("n", "dry-run"):
        c.at_least(L, "git push --dry-run only shows what would be pushed")
        return
    c.at_least(H, "publishes commits to a remote")
    c.facts.net_send = True
    if o.value("receive-pack", "exec") is not None:
        c.at_least(H, "git push runs a receive-pack program")
    if o.has("f", "force"):
        c.at_least(D, "force push overwrites the remote's history")
    if o.has("mirror"):
        c.at_least(D, "mirror push overwrites and deletes every remote ref")
    if o.has("d", "delete"):
        c.at_least(D, "deletes branches on the remote")
    if o.has("prune"):
        c.at_least(D, "deletes remote branches that are not local")
    if o.has("force-with-lease", "force-if-includes") and not o.has("f", "force"):
        c.at_least(H, "rewrites the remote's history (bounded by the lease)")
    for refspec in o.operands[1:]:
        if refspec.startswith("+"):
            c.at_least(D, f"'{refspec}' force-pushes (the + refspec)")
        elif refspec.startswith(":"):
            c.at_least(D, f"'{refspec}' deletes a remote branch")
        elif UNKNOWN in refspec:
            c.at_least(H, "pushes a ref known only at run time")


def _reset(c: Cmd, rest) -> None:
    o = _opts(c, rest, longs=("hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "pathspec-from-file"))
    if o.has("hard"):
        c.at_least(D, "git reset --hard discards uncommitted work irreversibly")
    elif o.has("merge", "keep"):
        c.at_least(H, "git reset moves the branch and may drop changes")
    else:
        c.at_least(M, "git reset moves the branch or unstages")


def _clean(c: Cmd, rest) -> None:
    o = _opts(c, rest, "e", ("exclude",), ("force", "dry-run", "interactive", "quiet"))
    if o.has("n", "dry-run"):
        c.at_least(L, "git clean -n only lists")
        return
    forced = o.count("f", "force")
    if forced >= 2:
        c.at_least(D, "git clean -ff also deletes nested repositories")
    if forced or o.has("i", "interactive"):
        c.at_least(H, "deletes untracked files" + (" and ignored ones" if o.has("x", "X") else ""))
    else:
        c.at_least(L, "git clean without -f refuses to delete")


def _checkout(c: Cmd, rest) -> None:
    o = _opts(c, rest, "bB", ("orphan", "conflict", "pathspec-from-file"), ("force", "ours", "theirs",
                                                                              "discard-changes"))
    if o.has("f", "force", "discard-changes") or "--" in rest or "." in o.operands:
        c.at_least(H, "discards uncommitted changes to files")
    else:
        c.at_least(M, "switches branches or files")


def _restore(c: Cmd, rest) -> None:
    o = _opts(c, rest, "s", ("source", "pathspec-from-file"), ("staged", "worktree"))
    if o.has("S", "staged") and not o.has("W", "worktree"):
        c.at_least(M, "unstages changes")
    else:
        c.at_least(H, "discards uncommitted changes to files")


def _stash(c: Cmd, rest) -> None:
    sub = rest[0] if rest and not rest[0].startswith("-") else "push"
    if sub in ("list", "show"):
        return
    if sub in ("clear", "drop"):
        c.at_least(H, f"git stash {sub} throws stashed work away")
    else:
        c.at_least(M, f"git stash {sub} changes the work tree")


def _branch(c: Cmd, rest) -> None:
    o = _opts(c, rest, "utm", ("set-upstream-to", "track", "contains", "no-contains", "merged", "no-merged",
                                "sort", "format", "points-at"),
              ("delete", "force", "move", "copy", "list", "all", "remotes", "show-current", "verbose"))
    if o.has("D") or (o.has("d", "delete") and o.has("f", "force")):
        c.at_least(H, "force-deletes a branch (unmerged commits are lost)")
    elif o.has("d", "delete", "m", "M", "move", "c", "C", "copy", "u", "set-upstream-to", "unset-upstream"):
        c.at_least(M, "changes branches")
    elif o.operands and not o.has("l", "list", "contains", "merged", "no-merged", "points-at"):
        c.at_least(L, "creates a branch")


def _tag(c: Cmd, rest) -> None:
    o = _opts(c, rest, "mFulnu", ("message", "file", "local-user", "sort", "contains", "points-at", "format"),
              ("delete", "force", "list", "annotate", "sign"))
    if o.has("d", "delete", "f", "force"):
        c.at_least(M, "deletes or moves a tag")
    elif o.operands and not o.has("l", "list", "contains", "points-at", "n"):
        c.at_least(L, "creates a tag")


def _config(c: Cmd, rest) -> None:
    o = _opts(c, rest, "f", ("file", "blob", "type", "default", "comment", "value"),
              ("global", "system", "local", "worktree", "get", "get-all", "get-regexp", "list", "add",
               "unset", "unset-all", "replace-all", "edit", "show-origin", "show-scope", "name-only",
               "rename-section", "remove-section", "get-urlmatch", "null", "includes", "all"))
    operands = list(o.operands)
    sub = operands[0] if operands and operands[0] in ("get", "set", "unset", "list", "edit", "rename-section",
                                                       "remove-section") else None
    if sub:
        operands.pop(0)
    reading = (sub in ("get", "list") or o.has("get", "get-all", "get-regexp", "l", "list", "get-urlmatch")
               or (sub is None and len(operands) <= 1 and not o.has("unset", "unset-all", "edit", "e",
                                                                      "rename-section", "remove-section")))
    if reading:
        return
    scope_global = o.has("global", "system")
    target = o.value("f", "file")
    if target:
        c.write(target, "git config writes")
    if o.has("e", "edit") or sub == "edit":
        c.at_least(H if scope_global else M, "opens git config in an editor")
        return
    key = operands[0] if operands else ""
    value = operands[1] if len(operands) > 1 else None
    if UNKNOWN in key:
        c.at_least(H, "sets a git config key known only at run time")
    elif judge_config_key(key, value) and not (sub == "unset" or o.has("unset", "unset-all")):
        c.at_least(D, f"sets {key}, which makes git run a program or go elsewhere, in "
                      f"{'your global git config' if scope_global else 'the repository config'}")
    if scope_global:
        if BENIGN_GLOBAL_KEYS.match(key.lower()):
            c.at_least(M, f"changes your global git config ({key})")
        else:
            c.at_least(H, f"changes your global git config ({key})")
    else:
        c.at_least(M, f"changes the repository config ({key})")


def _fetch_like(c: Cmd, rest, verb: str) -> None:
    o = _opts(c, rest, "uoj", ("upload-pack", "origin", "template", "config", "depth", "branch", "jobs",
                               "reference", "separate-git-dir", "filter", "server-option"))
    c.at_least(M, f"git {verb} reads the network and changes the repository")
    if o.value("u", "upload-pack") is not None:
        c.at_least(H, f"git {verb} --upload-pack runs a program")
    if o.value("template") is not None:
        c.at_least(H, "git clone --template installs hooks from a directory")
    for entry in o.all("config"):
        key, _, val = entry.partition("=")
        if judge_config_key(key, val):
            c.at_least(H, f"clone config {key} makes git run a program or go elsewhere")
    if any(a.startswith("ext::") for a in o.operands):
        c.at_least(H, "the ext:: transport runs a command")
    if verb == "clone" and len(o.operands) > 1:
        c.write(o.operands[1], "clones into")


def _rebase(c: Cmd, rest) -> None:
    o = _opts(c, rest, "xsX", ("exec", "strategy", "strategy-option", "onto"))
    c.at_least(M, "rewrites local history")
    if o.all("x", "exec"):
        c.at_least(H, "git rebase --exec runs a shell command after each commit")


FILTER_OPTIONS = ("--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter",
                  "--commit-filter", "--tag-name-filter")


def _filter_branch(c: Cmd, rest) -> None:
    c.at_least(H, "rewrites all history and runs the filter commands it is given")
    for i, arg in enumerate(rest[:-1]):
        if arg in FILTER_OPTIONS and UNKNOWN not in rest[i + 1]:
            c.code_text(rest[i + 1], f"git filter-branch {arg} runs", at_least=H)


def _reflog(c: Cmd, rest) -> None:
    if rest and rest[0] in ("expire", "delete"):
        c.at_least(H, "git reflog expire/delete drops the history that recovers lost work")


def _gc(c: Cmd, rest) -> None:
    c.at_least(M, "git gc repacks the repository")
    if any(a.startswith("--prune=now") or a == "--prune=all" for a in rest):
        c.at_least(H, "git gc --prune=now drops unreachable commits for good")


def _update_ref(c: Cmd, rest) -> None:
    c.at_least(H if "-d" in rest else M, "changes refs directly")


def _submodule(c: Cmd, rest) -> None:
    c.at_least(M, "changes submodules")
    if rest and rest[0] == "foreach":
        c.at_least(H, "git submodule foreach runs a shell command in each submodule")


def _bisect(c: Cmd, rest) -> None:
    if rest and rest[0] in ("log", "view", "visualize", "terms"):
        return
    c.at_least(M, "git bisect checks out commits")
    if rest and rest[0] == "run":
        if len(rest) > 1 and UNKNOWN not in rest[1]:
            c.delegate_to = list(rest[1:])      # its words are a command: judge that command
        else:
            c.at_least(H, "git bisect run runs a command known only at run time")


def _difftool(c: Cmd, rest) -> None:
    o = _opts(c, rest, "xt", ("extcmd", "tool"))
    c.at_least(M, "git difftool runs the configured diff tool")
    if o.value("x", "extcmd") is not None:
        c.at_least(H, "git difftool --extcmd runs the command it is given")


def _init(c: Cmd, rest) -> None:
    o = _opts(c, rest, "", ("template", "separate-git-dir", "object-format", "ref-format", "shared",
                            "initial-branch"))
    c.at_least(M, "git init creates a repository")
    if o.value("template") is not None:
        c.at_least(H, "git init --template installs hooks from a directory")


def _credential(c: Cmd, rest) -> None:
    c.at_least(H, "git credential prints stored passwords")
    c.facts.secret_source = "prints stored git credentials"


def _worktree(c: Cmd, rest) -> None:
    c.at_least(M, "changes worktrees")
    if rest and rest[0] == "remove" and any(a in ("-f", "--force") for a in rest):
        c.at_least(H, "removes a worktree with its uncommitted changes")


def _archive(c: Cmd, rest) -> None:
    o = _opts(c, rest, "o", ("output", "remote", "exec", "format", "prefix"))
    if o.value("exec") is not None:
        c.at_least(H, "git archive --exec runs a program")
    out = o.value("o", "output")
    if out:
        c.write(out, "git archive writes")


def _format_patch(c: Cmd, rest) -> None:
    o = _opts(c, rest, "o", ("output-directory",))
    c.at_least(L, "writes patch files")
    out = o.value("o", "output-directory")
    if out:
        c.write(out, "writes patches into")


def _remote(c: Cmd, rest) -> None:
    if not rest or rest[0] in ("-v", "show", "get-url", "--verbose"):
        return
    c.at_least(M, "changes git remotes")


def _daemon(c: Cmd, rest) -> None:
    c.at_least(H, "serves the repository to the network")


def _send_email(c: Cmd, rest) -> None:
    c.at_least(H, "sends mail")
    c.facts.net_send = True


VERBS = {
    "log": _log, "diff": _output, "show": _output, "whatchanged": _log, "grep": _grep, "push": _push,
    "reset": _reset, "clean": _clean, "checkout": _checkout, "restore": _restore, "switch": _checkout,
    "stash": _stash, "branch": _branch, "tag": _tag, "config": _config, "fetch": lambda c, r: _fetch_like(c, r,
                                                                                                          "fetch"),
    "pull": lambda c, r: _fetch_like(c, r, "pull"), "clone": lambda c, r: _fetch_like(c, r, "clone"),
    "ls-remote": lambda c, r: (c.at_least(H, "git ls-remote --upload-pack runs a program")
                               if any(a.startswith(("--upload-pack", "-u")) for a in r) else c.at_least(
                                   L, "asks a remote for its refs")),
    "rebase": _rebase, "filter-branch": _filter_branch, "filter-repo": _filter_branch, "reflog": _reflog,
    "gc": _gc, "update-ref": _update_ref, "submodule": _submodule, "bisect": _bisect, "credential": _credential,
    "credential-store": _credential, "credential-cache": _credential, "worktree": _worktree,
    "archive": _archive, "format-patch": _format_patch, "remote": _remote, "daemon": _daemon,
    "instaweb": _daemon, "send-email": _send_email, "http-backend": _daemon, "difftool": _difftool,
    "init": _init,
}

RULES = {"git": git}
