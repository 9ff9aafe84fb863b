"""git: read-only, local-change, history-rewriting and remote verbs, and the config that makes git run
programs. The verb is the first word after git's global options (-C, -c, --git-dir, ...)."""
from __future__ import annotations

import os
import posixpath

from wispsh.model import Level
from wispsh.vocab import places
from wispsh.programs import config_code, git_repository
from wispsh.programs.config_code import CODE, OTHER, PLAIN
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import OPERANDS, Command, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re

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
    r"|uploadarchive\.allowunreachable|gc\..*hook|maintenance\..+|trailer\..+\.(command|cmd)|merge\.tool"
    r"|diff\.tool|mergetool\..+|difftool\..+|hook\..+|core\.alternaterefscommand|gpg\.ssh\.defaultkeycommand"
    r"|tar\..+\.command)$")
BENIGN_GLOBAL_KEYS = lazy_re(r"^(user\.|init\.defaultbranch|pull\.|push\.default|push\.autosetupremote|color\."
                             r"|core\.autocrlf|core\.quotepath|core\.eol|advice\.|fetch\.prune|rebase\.|merge\."
                             r"conflictstyle|diff\.algorithm|log\.|format\.|column\.|help\.|rerere\.)")


def _config_value_harmless(key: str, value: str | None) -> bool:
    if value is None or UNKNOWN in value:
        return False
    if config_code.alias_name(key) is not None and not value.lstrip().startswith("!"):
        return True     # an alias to another git command runs nothing new (it is judged as that command)
    return config_code.git_config(key, value)[0] == PLAIN   # `less -R`, `vim`, `core.fsmonitor=false`


def config_key_runs_code(key: str, value: str | None) -> bool:
    """True when setting key=value can make git run a program or talk to somewhere else."""
    key = key.lower()
    return (bool(CODE_KEYS.match(key)) or config_code.git_config(key, "x")[0] != config_code.NOT_CODE) \
        and not _config_value_harmless(key, value)


# ---------------------------------------------------------------- git's global options

# as the splitter reads them too (programs/config_code.py): one grammar for both
GLOBALS = Grammar(values=config_code.GIT_SHORT_VALUES, long_values=config_code.GIT_LONG_VALUES,
                  longs=config_code.GIT_LONGS, optional=config_code.GIT_OPTIONAL)
REACHES_OTHERS = ("reset", "clean", "checkout", "restore", "push", "branch", "stash")


@emits({"git.alias-code": ["git -c alias.x='!rm -rf ~' x", "git -c alias.y='!id' status"],
        "git.alias": ["git -c alias.x='reset --hard' x", "git -c alias.a=b -c alias.b=status a"],
        "git.config-runtime-key": ['git -c "$K"=x status'],
        "git.config-runs-code": ["git -c core.pager='sh -c x' log", "git -c core.fsmonitor=./hook status",
                                 "git -c core.hooksPath=/tmp/h commit", 'git -c core.pager="$P" log'],
        "git.config-plain": ["git -c core.editor=vim commit", "git -c core.fsmonitor=false status",
                             "git -c core.pager='less -R' log"],
        "git.exec-path": ["git --exec-path=/tmp/x status"], "git.git-dir": ["git --git-dir=/tmp/r/.git log"],
        "git.ext-transport": ["git fetch ext::sh"]})
def global_options(cmd, o):
    """-c KEY=VALUE that runs programs, --exec-path, --git-dir elsewhere; -C moves where git acts; an alias
    the line defines, when it is the verb (judged as what it expands to: a part of its own)."""
    aliases: dict[str, str] = {}
    for key_value in o.all("c") + [v + "=" + UNKNOWN for v in o.all("config-env")]:
        key, _, value = key_value.partition("=")
        if UNKNOWN in key:
            cmd.does("run-code", "git.config-runtime-key",
                     "git -c sets a config key known only at run time (it may run a program)")
            continue
        name = config_code.alias_name(key)
        if name is not None and UNKNOWN not in value:
            aliases[name] = value
            if value.lstrip().startswith("!") and name not in config_code.GIT_COMMANDS:   # git ignores those
                # `git -c alias.x='!rm -rf ~' x`: shell code (a git this one starts inherits the alias too)
                cmd.does("run-code", "git.alias-code", f"git's alias {name} runs shell code")
                cmd.runs_setting(value.lstrip()[1:], key_value, f"git's alias {name} runs")
            continue
        what, code = config_code.git_config(key, value) if UNKNOWN not in value else (OTHER, "")
        if what == PLAIN:
            cmd.fired.add("git.config-plain")
        elif what == CODE:
            # the command line is judged too: parts of their own (the splitter's), or here
            cmd.does("run-code", "git.config-runs-code", f"git -c {key}=… makes git run a program")
            cmd.runs_setting(code, key_value, f"git's {key} runs")
        elif config_key_runs_code(key, value):
            cmd.does("run-code", "git.config-runs-code", f"git -c {key}=… makes git run a program or go elsewhere")
    if o.value("exec-path") is not None:
        cmd.does("run-code", "git.exec-path", "git --exec-path runs git's helpers from another directory")
    physical = cmd.cwd                  # where git's chdir() goes: `-C link/..` is the link's target's parent
    for chdir in o.all("C"):
        if UNKNOWN not in chdir:
            physical = posixpath.join(physical, cmd.expand_tilde(chdir))
            where = cmd.place(chdir)
            if not where.unknown:
                cmd.cwd = where.path
    git_dir = o.value("git-dir")
    repository_code(cmd, o, git_dir, physical)
    if git_dir is not None and cmd.place(git_dir).cls not in (places.PROJECT, places.PROJECT_ROOT):
        # as GIT_DIR=…: that repository's config and hooks (fsmonitor, pager, hooks) can run programs
        cmd.does("run-code", "git.git-dir", "git --git-dir uses another repository's config, whose helpers can "
                                            "run programs")
    if any(a.startswith("ext::") or a.startswith("-") and "=ext::" in a for a in o.operands[1:]):
        cmd.does("run-code", "git.ext-transport", "the ext:: transport runs a command")
    verb = o.operands[0] if o.operands else ""
    alias = config_code.lookup_alias(aliases, verb) if aliases and UNKNOWN not in verb else None
    if alias is None:
        return None
    # `git -c alias.x='reset --hard' x`: git runs the expansion. The splitter made it a part of its own
    # (keyed and judged as `git reset --hard`); a definition it did not read is handed on here.
    cmd.fired.add("git.alias")
    defined = next(kv for kv in reversed(o.all("c")) if config_code.alias_name(kv.partition("=")[0]) in
                   (verb, verb.lower()))
    words = config_code.split_cmdline(alias.strip())
    if not alias.lstrip().startswith("!") and words and not cmd.splitter_saw(defined):
        at = len(cmd.args) - len(o.operands)
        cmd.delegate_to = ["git", *cmd.args[:at], *words, *o.operands[1:]]
    # the verb is the alias: nothing of git's own verb applies, unless it may be an installed git-NAME
    return None if verb in VERBS or verb in READ_ONLY else False


# The files of a directory that make it a repository (bare, or a linked worktree's git dir) or change what one
# runs; a line that writes one of them and then runs git there is judged by what it wrote (policy/line.py).
REPOSITORY_FILES = ("HEAD", "config", "config.worktree", "commondir", "hooks/")


# Verbs that run no hook; and the hooks the index-writing readers can run (git status and git diff refresh
# the index: post-index-change). Any other verb may run any hook (githooks(5): commits, merges, checkouts,
# pushes, reference-transaction on every ref update).
HOOKLESS = frozenset({"log", "show", "cat-file", "rev-parse", "ls-files", "ls-tree", "blame", "annotate",
                      "shortlog", "describe", "grep", "rev-list", "for-each-ref", "show-ref", "ls-remote",
                      "name-rev", "whatchanged", "version", "help", "var", "count-objects", "check-ignore",
                      "check-attr", "merge-base", "cherry", "show-branch", "verify-commit", "verify-tag"})
HOOKS_OF = {"status": frozenset({"post-index-change"}), "diff": frozenset({"post-index-change"})}


def repository_code(cmd, o, git_dir_option: str | None, physical: str) -> None:
    """The repository git will use, found on disk as git finds it (programs/git_repository.py). One that a
    line could have made without being asked, in a temporary directory or as a new directory in the project
    or the home, runs what its config and hooks say (`core.fsmonitor`, `core.sshCommand`, a post-index-change
    hook): so those are judged. The project's own repository, and one where making files is asked about, are
    the user's (an agent that moves its own working directory into a repository it made is not seen here).
    The files git reads as a repository on the way there are the part's facts (`repo_files`)."""
    if any(UNKNOWN in chdir for chdir in o.all("C")):
        cmd.does("run-code", "git.repository.runtime",
                 "git uses the repository of a directory known only at run time (its config and hooks may run "
                 "programs)")
        return
    start = cmd.place(".")
    if start.unknown or UNKNOWN in start.path:  # after a cd known only at run time: which one is not known
        return
    named = git_dir_option if git_dir_option is not None else cmd.ctx.env.get("GIT_DIR")
    if named is not None and UNKNOWN in named:
        return                                  # (--git-dir known only at run time: judged as --git-dir)
    if named:
        git_dir, looked = os.path.realpath(cmd.place(named).path), []
    else:
        git_dir, looked = git_repository.discover(physical)
    files = cmd.facts.repo_files
    for here in looked:
        files += [posixpath.join(here, ".git"), posixpath.join(here, ".git") + "/", posixpath.join(here, "HEAD")]
    if git_dir is not None:
        files += [posixpath.join(git_repository.common_dir(git_dir), name) for name in REPOSITORY_FILES]
    if git_dir is None or _users_own(cmd, git_dir):
        return
    where = cmd.place(git_dir).cls
    made = f"a repository in {where}, which a line could have made"
    hooks = git_repository.hooks_dir(git_dir)
    for path in git_repository.config_files(git_dir):
        entries = git_repository.config_entries(path)
        if entries is git_repository.UNREADABLE:
            cmd.does("run-code", "git.repository.unreadable",
                     f"git reads {path}, which the gate cannot read as git does (it may make git run programs)")
            continue
        for key, value in entries:
            if key == "core.hookspath" and value:   # the hooks are there (relative: to the work tree's top)
                top = looked[-1] if looked and git_dir.startswith(looked[-1] + "/") else git_dir
                hooks = os.path.realpath(posixpath.join(top, value))
            elif config_key_runs_code(key, value):
                shown = "" if value is None else f" = {value[:60]}"
                cmd.does("run-code", "git.repository.config-code", f"git runs what {path} sets ({key}{shown}): {made}")
                break
    verb = o.operands[0] if o.operands else ""
    if verb in HOOKLESS:
        return
    found = git_repository.hooks(hooks)
    if verb in HOOKS_OF:
        found = [name for name in found if name in HOOKS_OF[verb]]
    if found:
        cmd.does("run-code", "git.repository.hooks", f"git runs the hooks in {hooks} ({', '.join(found[:4])}): {made}")


def _users_own(cmd, git_dir: str) -> bool:
    """The project's own repository (the one the agent was started in: its hooks and config are the
    project's), or one where a line cannot make files without being asked."""
    ctx = cmd.ctx
    own, _ = git_repository.discover(ctx.project_root)     # (real paths, as git_dir is)
    if own is not None:
        common = git_repository.common_dir(own)
        if git_dir in (own, common) or git_dir.startswith(common + "/"):
            return True
    cls = cmd.place(git_dir).cls
    return ctx.path_level("create", cls, "git.repository") >= Level.MODERATE


def other_repository(cmd, o) -> str | None:
    """The repository -C/--git-dir/--work-tree points at when it is not this project."""
    for name in ("C", "git-dir", "work-tree"):
        for value in o.all(name):
            where = cmd.place(value)
            if where.cls not in (places.PROJECT, places.PROJECT_ROOT):
                return where.path
    return None


# ---------------------------------------------------------------- verbs

OUTPUT = On("write", ("option", "output"), says="git writes", id="git.output",
            examples=("git log --output=~/.bashrc",))
EXT_DIFF = Row("git.ext-diff", "run-project", "runs the configured external diff program", When(flag=("ext-diff",)),
               examples=("git diff --ext-diff",))
SHOWING = Grammar(long_values=("output", "output-directory", "format", "pretty", "stat"), longs=("ext-diff",))

PUSH = verb(
    grammar=Grammar(values="o", long_values=("repo", "receive-pack", "exec", "push-option", "recurse-submodules"),
                    longs=("force", "force-with-lease", "force-if-includes", "mirror", "delete", "prune", "tags",
                           "all", "dry-run", "follow-tags", "set-upstream", "no-verify", "atomic", "porcelain",
                           "quiet", "verbose")),
    rows=(
        Row("git.push.dry-run", "inspect", "git push --dry-run only shows what would be pushed",
            When(flag=("n", "dry-run")), stop=True, examples=("git push --dry-run", "git push -n --force")),
        Row("git.push", "publish", "publishes commits to a remote", sets=("net_send",),
            examples=("git push", "git push origin main")),
        Row("git.push.receive-pack", "run-code", "git push runs a receive-pack program",
            When(value=("receive-pack", "exec")), examples=("git push --receive-pack=./x origin",)),
        Row("git.push.force", "destroy", "force push overwrites the remote's history", When(flag=("f", "force")),
            examples=("git push --force", "git push -f origin main", "git push origin main --force")),
        Row("git.push.mirror", "destroy", "mirror push overwrites and deletes every remote ref",
            When(flag=("mirror",)), examples=("git push --mirror",)),
        Row("git.push.delete", "destroy", "deletes branches on the remote", When(flag=("d", "delete")),
            examples=("git push origin --delete main",)),
        Row("git.push.prune", "destroy", "deletes remote branches that are not local", When(flag=("prune",)),
            examples=("git push --prune origin",)),
        # like --force, the commits it replaces are gone from the remote; the lease only checks that the
        # remote holds none this clone has not seen
        Row("git.push.lease", "destroy", "rewrites the remote's history (the lease only guards against "
                                         "overwriting work not seen here)",
            When(flag=("force-with-lease", "force-if-includes"), unless=("f", "force")),
            examples=("git push --force-with-lease",), not_examples=("git push --force-with-lease --force",)),
    ),
    examples={"git push --force": "dangerous", "git push origin +main": "dangerous", "git push": "high",
              "git push --force-with-lease": "dangerous", "git push -n --force": "low"},
)


@emits({"git.push.plus-refspec": ["git push origin +main", "git push origin +refs/heads/main:refs/heads/main"],
        "git.push.colon-refspec": ["git push origin :main"], "git.push.runtime-ref": ['git push origin "$B"']})
def push_refspecs(cmd, o) -> None:
    """Refspec prefixes the option grammar cannot see: `+main` forces, `:main` deletes."""
    for refspec in o.operands[1:]:
        if refspec.startswith("+"):
            cmd.does("destroy", "git.push.plus-refspec", f"'{refspec}' force-pushes (the + refspec)")
        elif refspec.startswith(":"):
            cmd.does("destroy", "git.push.colon-refspec", f"'{refspec}' deletes a remote branch")
        elif UNKNOWN in refspec:
            cmd.does("publish", "git.push.runtime-ref", "pushes a ref known only at run time")


PUSH.hook = push_refspecs

# A commit named by the remote: resetting to it throws away every local commit as well as the uncommitted work.
REMOTE_REFS = ("origin/", "upstream/", "refs/remotes/", "FETCH_HEAD", "@{u}", "@{upstream}", "@{push}")


@emits({"git.reset.hard-remote": ["git reset --hard origin/main", "git reset --hard @{u}",
                                  "git reset --hard FETCH_HEAD"]})
def reset_target(cmd, o) -> None:
    """`git reset --hard` discards uncommitted work (high, levels.md); to a commit the remote names it also
    drops the local commits, with the work: the shape agents wipe a morning's work with (dangerous)."""
    if o.has("hard") and o.operands and (o.operands[0].startswith(REMOTE_REFS) or o.operands[0].endswith(
            ("@{u}", "@{upstream}", "@{push}"))):
        cmd.does("destroy", "git.reset.hard-remote", f"git reset --hard {o.operands[0]} discards the local commits "
                                                     "and the uncommitted work")


RESET = verb(
    grammar=Grammar(longs=("hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "pathspec-from-file")),
    rows=(
        Row("git.reset.hard", "discard", "git reset --hard discards uncommitted work",
            When(flag=("hard",)), examples=("git reset --hard", "git reset --hard HEAD~1")),
        Row("git.reset.merge", "discard", "git reset moves the branch and may drop changes",
            When(flag=("merge", "keep"), unless=("hard",)), examples=("git reset --keep HEAD~1",)),
        Row("git.reset", "change", "git reset moves the branch or unstages", When(unless=("hard", "merge", "keep")),
            examples=("git reset HEAD~1",)),
    ),
    hook=reset_target,
)

CLEAN = verb(
    grammar=Grammar(values="e", long_values=("exclude",), longs=("force", "dry-run", "interactive", "quiet")),
    rows=(
        Row("git.clean.dry-run", "inspect", "git clean -n only lists", When(flag=("n", "dry-run")), stop=True,
            examples=("git clean -n",)),
        Row("git.clean.nested", "destroy", "git clean -ff also deletes nested repositories",
            When(count=(("f", "force"), 2)), examples=("git clean -ffdx",)),
        Row("git.clean.force", "discard", "deletes untracked files", When(flag=("f", "force", "i", "interactive")),
            examples=("git clean -fdx", "git clean -f")),
        Row("git.clean.refuses", "inspect", "git clean without -f refuses to delete",
            When(unless=("f", "force", "i", "interactive")), examples=("git clean -d",)),
    ),
)

CHECKOUT = verb(
    grammar=Grammar(values="bB", long_values=("orphan", "conflict", "pathspec-from-file"),
                    longs=("force", "ours", "theirs", "discard-changes")),
    rows=(
        Row("git.checkout.discards", "discard", "discards uncommitted changes to files",
            When(flag=("f", "force", "discard-changes")), examples=("git checkout -f main",)),
        Row("git.checkout.paths", "discard", "discards uncommitted changes to files",
            When(operand=("--", ".")), examples=("git checkout -- .", "git checkout .")),
        Row("git.checkout", "change", "switches branches or files", examples=("git checkout main", "git switch dev")),
    ),
)


@emits({"git.checkout.paths": ["git checkout -- src/a.py"],
        "git.checkout.writes": ["git checkout origin/feature -- .claude/settings.json"]})
def checkout_paths(cmd, o) -> None:
    """`git checkout [TREE] -- PATH…` writes PATH from the index or TREE: judged by where it lands (the grammar
    eats `--`; the raw words keep it)."""
    if "--" not in o.args:
        return
    if "git.checkout.paths" not in cmd.fired and "git.checkout.discards" not in cmd.fired:
        cmd.does("discard", "git.checkout.paths", "discards uncommitted changes to files")
    for path in o.args[o.args.index("--") + 1:]:
        cmd.fired.add("git.checkout.writes")
        cmd.write(path, "git checkout writes")


CHECKOUT.hook = checkout_paths


@emits({"git.restore.writes": ["git restore --source origin/x -- .mcp.json", "git restore .envrc"]})
def restore_paths(cmd, o) -> None:
    """`git restore PATH…` rewrites each PATH in the work tree (unless only the index, --staged)."""
    if o.has("S", "staged") and not o.has("W", "worktree"):
        return
    for path in o.operands:
        cmd.fired.add("git.restore.writes")
        cmd.write(path, "git restore writes")


RESTORE = verb(
    grammar=Grammar(values="s", long_values=("source", "pathspec-from-file"), longs=("staged", "worktree")),
    rows=(
        Row("git.restore.staged", "change", "unstages changes", When(flag=("S", "staged"), unless=("W", "worktree")),
            stop=True, examples=("git restore --staged src/app.py",)),
        Row("git.restore", "discard", "discards uncommitted changes to files", examples=("git restore src/app.py",)),
    ),
    hook=restore_paths,
)

STASH = verb(
    read_only=("list", "show"),
    verbs={
        "drop": verb(rows=(Row("git.stash.drop", "discard", "git stash drop throws stashed work away",
                               examples=("git stash drop",)),)),
        "clear": verb(rows=(Row("git.stash.clear", "discard", "git stash clear throws stashed work away",
                                examples=("git stash clear",)),)),
    },
    default=Row("git.stash.change", "change", "{cmd} changes the work tree", examples=("git stash pop",)),
    no_verb=Row("git.stash", "change", "git stash changes the work tree", examples=("git stash",)),
)

BRANCH = verb(
    grammar=Grammar(values="utm", long_values=("set-upstream-to", "track", "contains", "no-contains", "merged",
                                               "no-merged", "sort", "format", "points-at"),
                    longs=("delete", "force", "move", "copy", "list", "all", "remotes", "show-current", "verbose",
                           "unset-upstream")),
    rows=(
        Row("git.branch.force-delete", "discard", "force-deletes a branch (unmerged commits are lost)",
            When(flag=("D",)), stop=True, examples=("git branch -D old",)),
        Row("git.branch.force-delete-long", "discard", "force-deletes a branch (unmerged commits are lost)",
            When(flag=("d", "delete"), count=(("f", "force"), 1)), stop=True, examples=("git branch -d -f old",)),
        Row("git.branch.change", "change", "changes branches",
            When(flag=("d", "delete", "m", "M", "move", "c", "C", "copy", "u", "set-upstream-to", "unset-upstream")),
            stop=True, examples=("git branch -d old", "git branch -m a b")),
        Row("git.branch.create", "create", "creates a branch",
            When(operands=True, unless=("l", "list", "contains", "merged", "no-merged", "points-at")),
            examples=("git branch feature",), not_examples=("git branch", "git branch --list x")),
    ),
)

def MESSAGE_FILE(rule: str, example: str, options=("F", "file")) -> On:
    """The file a commit, tag, merge or note message is read from (`-F FILE`, `--file=FILE`, a template): its
    contents go into the repository, where a later push takes them (`-F -` reads the input)."""
    return On("embed", ("option", *options), id=rule, says="puts into the message the contents of",
              examples=(example,))


TAG = verb(
    grammar=Grammar(values="mFulnu", long_values=("message", "file", "local-user", "sort", "contains", "points-at",
                                                  "format"),
                    longs=("delete", "force", "list", "annotate", "sign")),
    rows=(
        Row("git.tag.change", "change", "deletes or moves a tag", When(flag=("d", "delete", "f", "force")), stop=True,
            examples=("git tag -d v1",)),
        Row("git.tag.create", "create", "creates a tag",
            When(operands=True, unless=("l", "list", "contains", "points-at", "n")), examples=("git tag v1",)),
    ),
    on=(MESSAGE_FILE("git.tag.message-file", "git tag -a -F ~/.ssh/id_rsa v1"),),
)

CONFIG_GRAMMAR = Grammar(values="f", long_values=("file", "blob", "type", "default", "comment", "value"),
                         longs=("global", "system", "local", "worktree", "get", "get-all", "get-regexp", "list", "add",
                                "unset", "unset-all", "replace-all", "edit", "show-origin", "show-scope", "name-only",
                                "rename-section", "remove-section", "get-urlmatch", "null", "includes", "all"))
CONFIG_SUBS = ("get", "set", "unset", "list", "edit", "rename-section", "remove-section")


@emits({"git.config.file": ["git config -f ~/.gitconfig user.name x"],
        "git.config.file-read": ["git config -f ~/.aws/credentials --get default.aws_secret_access_key"],
        "git.config.edit-global": ["git config --global --edit"], "git.config.edit": ["git config --edit"],
        "git.config.runtime-key": ['git config "$K" x'],
        "git.config.runs-code": ["git config core.fsmonitor ./x", "git config --global core.pager 'sh -c x'"],
        "git.config.global": ["git config --global alias.co checkout"],
        "git.config.global-benign": ["git config --global user.name Me"],
        "git.config.local": ["git config user.name Me"]})
def config_change(cmd, o) -> None:
    """Reading config is a read; setting a key that makes git run a program is dangerous in any scope."""
    operands = list(o.operands)
    sub = operands.pop(0) if operands and operands[0] in CONFIG_SUBS else None
    reading = (sub in ("get", "list") or o.has("get", "get-all", "get-regexp", "l", "list", "get-urlmatch")
               or (sub is None and len(operands) <= 1 and not o.has("unset", "unset-all", "edit", "e",
                                                                      "rename-section", "remove-section")))
    if reading:
        for target in o.all("f", "file"):
            if target != "-":
                cmd.fired.add("git.config.file-read")
                cmd.read(target, "git config prints the settings of")
        return
    scope_global = o.has("global", "system")
    target = o.value("f", "file")
    if target:
        cmd.fired.add("git.config.file")
        cmd.write(target, "git config writes")
    if o.has("e", "edit") or sub == "edit":
        if scope_global:
            cmd.does("steer", "git.config.edit-global", "opens your global git config in an editor")
        else:
            cmd.does("change", "git.config.edit", "opens git config in an editor")
        return
    key = operands[0] if operands else ""
    value = operands[1] if len(operands) > 1 else None
    if UNKNOWN in key:
        cmd.does("run-code", "git.config.runtime-key", "sets a git config key known only at run time")
    elif config_key_runs_code(key, value) and not (sub == "unset" or o.has("unset", "unset-all")):
        where = "your global git config" if scope_global else "the repository config"
        cmd.does("persist", "git.config.runs-code", f"sets {key}, which makes git run a program or go elsewhere, "
                                                    f"in {where}")
    if scope_global:
        if BENIGN_GLOBAL_KEYS.match(key.lower()):
            cmd.does("change", "git.config.global-benign", f"changes your global git config ({key})")
        else:
            cmd.does("steer", "git.config.global", f"changes your global git config ({key})")
    else:
        cmd.does("change", "git.config.local", f"changes the repository config ({key})")


CONFIG = verb(grammar=CONFIG_GRAMMAR, hook=config_change)

FETCH_GRAMMAR = Grammar(values="uojc", long_values=("upload-pack", "origin", "template", "config", "depth", "branch",
                                                   "jobs", "reference", "separate-git-dir", "filter", "server-option"))


def _fetching(name: str, clone: bool = False) -> Command:
    rows = (
        Row(f"git.{name}", "fetch", f"git {name} reads the network and changes the repository", sets=("net_fetch",),
            examples=(f"git {name}" + (" https://example.com/r.git" if clone else ""),)),
        Row(f"git.{name}.upload-pack", "run-code", f"git {name} --upload-pack runs a program",
            When(value=("u", "upload-pack")), examples=(f"git {name} --upload-pack=./x origin",)),
    )
    if clone:
        rows += (Row("git.clone.template", "run-code", "git clone --template installs hooks from a directory",
                     When(value=("template",)), examples=("git clone --template=/tmp/t https://x.example/r",)),)
    on = (On("write", ("nth", 1), says="clones into", id="git.clone.into",
             examples=("git clone https://x.example/r ~/.config/x",)),) if clone else ()
    return verb(grammar=FETCH_GRAMMAR, rows=rows, on=on, hook=clone_config, after=cloned if clone else None)


@emits({"git.clone.downloads": ["git clone https://x.example/r.git /tmp/r"]})
def cloned(cmd, o) -> None:
    """What a fresh clone holds came from the network: running it later in the line runs downloaded code."""
    if not o.operands:
        return
    url = o.operands[0]
    dest = o.operands[1] if len(o.operands) > 1 else url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    dest = dest[:-4] if dest.endswith(".git") and len(o.operands) == 1 else dest
    if dest and UNKNOWN not in dest:
        cmd.fired.add("git.clone.downloads")
        cmd.facts.fetch_writes.append(cmd.place(dest).path.rstrip("/") + "/")


@emits({"git.clone.config": ["git clone -c core.sshCommand=./x https://x.example/r"]})
def clone_config(cmd, o) -> None:
    for entry in o.all("config", "c"):
        key, _, value = entry.partition("=")
        if config_key_runs_code(key, value):
            cmd.does("run-code", "git.clone.config", f"clone config {key} makes git run a program or go elsewhere")
            what, code = config_code.git_config(key, value) if UNKNOWN not in entry else (OTHER, "")
            if what == CODE:
                cmd.runs_setting(code, entry, f"the clone's {key} runs")


REBASE = verb(
    grammar=Grammar(values="xsX", long_values=("exec", "strategy", "strategy-option", "onto")),
    rows=(Row("git.rebase", "change", "rewrites local history", examples=("git rebase main",)),
          Row("git.rebase.exec", "run-code", "git rebase --exec runs a shell command after each commit",
              When(value=("x", "exec")), examples=("git rebase -x 'make test' main",))),
)

FILTER_OPTIONS = ("env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter",
                  "tag-name-filter")


@emits({"git.filter-branch.code": ["git filter-branch --tree-filter 'rm -rf ~' HEAD"]})
def filter_commands(cmd, o) -> None:
    for name in FILTER_OPTIONS:
        for text in o.all(name):
            if UNKNOWN not in text:
                cmd.fired.add("git.filter-branch.code")
                cmd.code_text(text, f"git filter-branch --{name} runs", at_least="run-code")


FILTER_BRANCH = verb(
    grammar=Grammar(long_values=FILTER_OPTIONS + ("subdirectory-filter", "original", "state-branch")),
    rows=(Row("git.filter-branch", "discard", "rewrites all history and runs the filter commands it is given",
              examples=("git filter-branch --msg-filter cat HEAD",)),),
    hook=filter_commands,
)

REFLOG = verb(
    read_only=("show", "exists"),
    verbs={word: verb(rows=(Row(f"git.reflog.{word}", "discard",
                                "git reflog expire/delete drops the history that recovers lost work",
                                examples=(f"git reflog {word} --all",)),)) for word in ("expire", "delete")},
)

GC = verb(
    grammar=Grammar(long_values=("prune",), optional=("prune",)),
    rows=(Row("git.gc", "change", "git gc repacks the repository", examples=("git gc",)),
          Row("git.gc.prune-now", "discard", "git gc --prune=now drops unreachable commits for good",
              When(arg=("--prune=now", "--prune=all")), examples=("git gc --prune=now",))),
)

# `git submodule` alone, status and summary only show; the rest change the submodules (update fetches them)
SUBMODULE = verb(
    verbs={"foreach": verb(rows=(Row("git.submodule.foreach", "run-code",
                                     "git submodule foreach runs a shell command in each submodule",
                                     examples=("git submodule foreach 'git pull'",)),))},
    read_only=("status", "summary"),
    default=Row("git.submodule", "change", "{cmd} changes submodules",
                examples=("git submodule update --init", "git submodule sync")),
    no_verb=Row("git.submodule.status", "nothing", "shows the submodules' status", examples=("git submodule",)),
)


@emits({"git.bisect.run-runtime": ['git bisect run "$T"'], "git.bisect.run": ["git bisect run make test"]})
def bisect_run(cmd, o) -> None:
    """`git bisect run CMD ARGS`: its words are a command, judged as that command."""
    if o.operands and UNKNOWN not in o.operands[0]:
        cmd.fired.add("git.bisect.run")
        cmd.delegate_to = list(o.operands)
    else:
        cmd.does("run-code", "git.bisect.run-runtime", "git bisect run runs a command known only at run time")


BISECT = verb(
    read_only=("log", "view", "visualize", "terms"),
    rows=(Row("git.bisect", "change", "git bisect checks out commits", examples=("git bisect start",)),),
    verbs={"run": verb(grammar=Grammar(stop=True), hook=bisect_run)},
    default=Row("git.bisect.verb", "nothing", "{cmd} moves the bisection", examples=("git bisect good",)),
)


def difftool_command(cmd, o) -> None:
    """The command -x/--extcmd gives: parts of its own (the splitter's), or judged here."""
    for text in o.all("x", "extcmd"):
        if UNKNOWN not in text and config_code.command_line(text)[0] == CODE:
            cmd.runs_setting(text, text, "git difftool -x runs")


DIFFTOOL = verb(
    grammar=Grammar(values="xt", long_values=("extcmd", "tool")),
    rows=(Row("git.difftool", "run-project", "git difftool runs the configured diff tool", examples=("git difftool",)),
          Row("git.difftool.extcmd", "run-code", "git difftool --extcmd runs the command it is given",
              When(value=("x", "extcmd")), examples=("git difftool -x 'sh -c x'",))),
    hook=difftool_command,
)

INIT = verb(
    grammar=Grammar(long_values=("template", "separate-git-dir", "object-format", "ref-format", "shared",
                                 "initial-branch")),
    rows=(Row("git.init", "change", "git init creates a repository", examples=("git init",)),
          Row("git.init.template", "run-code", "git init --template installs hooks from a directory",
              When(value=("template",)), examples=("git init --template=/tmp/t",))),
)

CREDENTIAL = verb(rows=(Row("git.credential", "secret", "git credential prints stored passwords",
                            sets=("secret",), examples=("git credential fill",)),))

WORKTREE = verb(
    read_only=("list",),
    verbs={"remove": verb(grammar=Grammar(longs=("force",)),
                          rows=(Row("git.worktree.remove-force", "discard",
                                    "removes a worktree with its uncommitted changes", When(flag=("f", "force")),
                                    examples=("git worktree remove -f ../w",)),
                                Row("git.worktree.remove", "change", "removes a worktree",
                                    When(unless=("f", "force")), examples=("git worktree remove ../w",))))},
    default=Row("git.worktree.verb", "change", "{cmd} changes worktrees", examples=("git worktree add ../w",)),
)

ARCHIVE = verb(
    grammar=Grammar(values="o", long_values=("output", "remote", "exec", "format", "prefix", "add-file",
                                             "add-virtual-file")),
    rows=(Row("git.archive.exec", "run-code", "git archive --exec runs a program", When(value=("exec",)),
              examples=("git archive --remote=x --exec=./y HEAD",)),),
    on=(On("write", ("option", "o", "output"), says="git archive writes", id="git.archive.output",
           examples=("git archive -o ~/.bashrc HEAD",)),
        On("embed", ("option", "add-file"), says="adds to the archive", id="git.archive.add-file",
           examples=("git archive --add-file=$HOME/.aws/credentials -o x.zip HEAD",))),
)

FORMAT_PATCH = verb(
    grammar=Grammar(values="o", long_values=("output-directory",)),
    rows=(Row("git.format-patch", "create", "writes patch files", examples=("git format-patch -1",)),),
    on=(On("write", ("option", "o", "output-directory"), says="writes patches into", id="git.format-patch.into",
           examples=("git format-patch -o ~/.ssh -1",)),),
)

REMOTE = verb(
    grammar=Grammar(longs=("verbose",)),
    read_only=("show", "get-url"),
    default=Row("git.remote.change", "local-config", "changes git remotes",
                examples=("git remote add origin https://x.example/r",)),
)

LS_REMOTE = verb(
    grammar=Grammar(values="u", long_values=("upload-pack",)),
    rows=(Row("git.ls-remote.upload-pack", "run-code", "git ls-remote --upload-pack runs a program",
              When(value=("u", "upload-pack")), stop=True, examples=("git ls-remote --upload-pack=./x origin",)),
          Row("git.ls-remote", "inspect", "asks a remote for its refs", examples=("git ls-remote origin",))),
)

SERVES = verb(rows=(Row("git.serves", "expose", "serves the repository to the network", examples=("git daemon",)),))
SEND_EMAIL = verb(grammar=Grammar(long_values=("to", "cc", "bcc", "from", "subject", "in-reply-to", "smtp-server",
                                              "smtp-server-port", "smtp-user", "smtp-pass", "smtp-encryption",
                                              "to-cmd", "cc-cmd", "header-cmd", "identity", "reply-to")),
                  rows=(Row("git.send-email", "send", "sends mail", sets=("net_send",),
                            examples=("git send-email 0001.patch",)),
                        Row("git.send-email.command", "run-code", "git send-email runs the program it is given",
                            When(value=("to-cmd", "cc-cmd", "header-cmd")),
                            examples=("git send-email --to-cmd=./who 0001.patch",))),
                  on=(On("send", OPERANDS, id="git.send-email.files", says="mails",
                         examples=("git send-email --to=a@x.example ~/.ssh/id_rsa",)),))

READ_ONLY = frozenset({
    "status", "describe", "rev-parse", "rev-list", "ls-files", "ls-tree", "cat-file",
    "shortlog", "name-rev", "merge-base", "for-each-ref", "show-ref", "show-branch", "count-objects", "fsck",
    "verify-commit", "verify-tag", "var", "help", "version", "check-ignore", "check-attr", "check-ref-format",
    "cherry", "range-diff", "diff-tree", "diff-files", "diff-index", "request-pull", "get-tar-commit-id",
    "check-mailmap", "verify-pack", "show-index", "stripspace", "column", "bugreport",
})
SHOW_VERB = verb(grammar=SHOWING, rows=(EXT_DIFF,), on=(OUTPUT,))
@emits({"git.diff.outside": ["git diff /dev/null ~/.ssh/id_rsa"]})
def diff_outside(cmd, o) -> None:
    """`git diff A B` where a path lies outside the repository is `git diff --no-index A B` (git says so): both
    files are read and printed."""
    paths = [w for w in o.operands if w not in ("--",)]
    if o.has("no-index") or len(paths) != 2 or any(".." in w and "/" not in w for w in paths):
        return
    places_of = [cmd.place(w) for w in paths]
    if any(not w.unknown and w.cls not in (places.PROJECT, places.PROJECT_ROOT, places.GIT_INTERNAL)
           for w in places_of):
        cmd.fired.add("git.diff.outside")
        for word in paths:
            cmd.read(word)


DIFF_VERB = verb(grammar=Grammar(long_values=SHOWING.long_values, longs=SHOWING.longs + ("no-index",)),
                 rows=(EXT_DIFF,),
                 on=(OUTPUT, On("read", OPERANDS, when=When(flag=("no-index",)), id="git.diff.no-index",
                                examples=("git diff --no-index /dev/null ~/.aws/credentials",))),
                 hook=diff_outside)


@emits({"git.grep.pager": ["git grep -O foo"], "git.grep.no-index": ["git grep --no-index AKIA ~"]})
def grep_pager(cmd, o) -> None:
    """-O runs a pager on the files; --no-index searches the files of any directory (whole trees), not the
    repository's."""
    if any(a.startswith(("--open-files-in-pager", "-O")) for a in o.args):
        cmd.does("run-code", "git.grep.pager", "git grep runs a pager program on the files")
    if "--no-index" in o.args:
        cmd.fired.add("git.grep.no-index")
        given = o.value("e", "f")
        for word in o.operands[0 if given is not None else 1:]:
            cmd.read_tree(word, "searches")


# Verbs that change the repository and nothing else: one row says so for all of them.
LOCAL_CHANGE = frozenset({
    "add", "commit", "merge", "cherry-pick", "revert", "mv", "rm", "apply", "am", "notes", "sparse-checkout",
    "prune", "repack", "maintenance", "lfs", "replace", "update-index", "symbolic-ref", "read-tree", "write-tree",
    "commit-tree", "pack-refs", "mktag", "mktree", "merge-file", "hook", "fast-import", "fast-export", "bundle",
    "mergetool", "citool", "gui", "svn", "p4", "stage", "unpack-objects", "index-pack", "pack-objects",
    "prune-packed", "rerere", "mailinfo", "mailsplit", "multi-pack-index", "commit-graph", "scalar",
    "upload-pack", "receive-pack", "shell", "quiltimport", "cvsimport", "archimport", "imap-send",
    "fsmonitor--daemon",
})
CHANGES = verb(default=None, rows=(Row("git.change", "change", "{cmd} changes the repository",
                                       examples=("git commit -m x", "git merge dev")),))
# `git rm -rf DIR` deletes the files of the work tree and their uncommitted changes (-f lets it), as `rm -rf`
# does; --cached only unstages, -n only lists
RM = verb(
    grammar=Grammar(long_values=("pathspec-from-file",),
                    longs=("force", "cached", "dry-run", "quiet", "ignore-unmatch", "sparse", "pathspec-file-nul")),
    rows=(
        Row("git.rm.dry-run", "inspect", "git rm -n only lists", When(flag=("n", "dry-run")), stop=True,
            examples=("git rm -rn --force .",)),
        Row("git.rm.cached", "change", "git rm --cached only unstages", When(flag=("cached",)), stop=True,
            examples=("git rm --cached -rf x",)),
        Row("git.rm.force-tree", "discard", "git rm -rf deletes files and their uncommitted changes",
            When(flag=("r",), count=(("f", "force"), 1)), stop=True,
            examples=("git rm -rf .", "git rm -r --force src/", "git rm -f -r x"),
            not_examples=("git rm -r src/", "git rm -f x")),
        CHANGES.rows[0],
    ),
)

VERBS = {
    "log": SHOW_VERB, "diff": DIFF_VERB, "show": SHOW_VERB, "whatchanged": SHOW_VERB,
    "grep": verb(grammar=Grammar(values="efABCm", long_values=("max-depth", "threads", "open-files-in-pager"),
                                 optional=("open-files-in-pager",)), hook=grep_pager),
    "push": PUSH, "reset": RESET, "clean": CLEAN, "checkout": CHECKOUT, "switch": CHECKOUT, "restore": RESTORE,
    "stash": STASH, "branch": BRANCH, "tag": TAG, "config": CONFIG,
    "fetch": _fetching("fetch"), "pull": _fetching("pull"), "clone": _fetching("clone", clone=True),
    "ls-remote": LS_REMOTE, "rebase": REBASE, "filter-branch": FILTER_BRANCH, "filter-repo": FILTER_BRANCH,
    "reflog": REFLOG, "gc": GC,
    "update-ref": verb(rows=(Row("git.update-ref.delete", "discard", "deletes a ref directly", When(flag=("d",)),
                                 stop=True, examples=("git update-ref -d refs/heads/x",)),
                             Row("git.update-ref", "change", "changes refs directly",
                                 examples=("git update-ref refs/heads/x HEAD",)))),
    "submodule": SUBMODULE, "bisect": BISECT, "credential": CREDENTIAL, "credential-store": CREDENTIAL,
    "credential-cache": CREDENTIAL, "worktree": WORKTREE, "archive": ARCHIVE, "format-patch": FORMAT_PATCH,
    "remote": REMOTE, "daemon": SERVES, "instaweb": SERVES, "http-backend": SERVES, "send-email": SEND_EMAIL,
         "difftool": DIFFTOOL, "init": INIT,
}
VERBS.update({word: CHANGES for word in LOCAL_CHANGE if word not in ("add", "apply", "am", "rm")})
VERBS["rm"] = RM
COMMIT_VALUES = Grammar(values="mFtcC", long_values=("message", "file", "template", "reuse-message", "reedit-message",
                                                    "author", "date", "cleanup", "fixup", "squash", "trailer",
                                                    "pathspec-from-file", "gpg-sign"),
                        optional=("gpg-sign",))
VERBS["commit"] = verb(grammar=COMMIT_VALUES, rows=CHANGES.rows,
                       on=(MESSAGE_FILE("git.commit.message-file", "git commit -F ~/.ssh/id_rsa",
                                        ("F", "file", "t", "template")),))
VERBS["merge"] = verb(grammar=Grammar(values="mFsX", long_values=("message", "file", "strategy", "strategy-option",
                                                                  "into-name", "cleanup", "gpg-sign"),
                                      optional=("gpg-sign",)),
                      rows=CHANGES.rows, on=(MESSAGE_FILE("git.merge.message-file", "git merge -F ~/.netrc dev"),))
VERBS["commit-tree"] = verb(grammar=Grammar(values="pmFS", long_values=("gpg-sign",), optional=("gpg-sign",)),
                            rows=CHANGES.rows,
                            on=(MESSAGE_FILE("git.commit-tree.message-file",
                                             "git commit-tree -F ~/.netrc HEAD^{tree}"),))
NOTE_CHANGES = verb(grammar=Grammar(values="mFcC", long_values=("message", "file", "reuse-message", "reedit-message",
                                                               "ref")),
                    rows=(Row("git.notes.change", "change", "{cmd} changes the notes of commits",
                              examples=("git notes add -m x HEAD",)),),
                    on=(MESSAGE_FILE("git.notes.message-file", "git notes add -F ~/.ssh/id_rsa HEAD"),))
VERBS["notes"] = verb(grammar=Grammar(long_values=("ref",)), read_only=("list", "show", "get-ref"),
                      verbs={"add": NOTE_CHANGES, "append": NOTE_CHANGES},
                      default=Row("git.notes.verb", "change", "{cmd} changes the notes of commits",
                                  examples=("git notes remove HEAD",)),
                      no_verb=Row("git.notes.lists", "nothing", "git notes lists the notes",
                                  examples=("git notes",)))


VERBS["hash-object"] = verb(
    grammar=Grammar(values="t", long_values=("path", "type"), longs=("stdin", "stdin-paths", "literally")),
    on=(On("embed", OPERANDS, when=When(flag=("w",)), id="git.hash-object.stores",
           says="stores in the repository (git cat-file prints it back) the contents of",
           examples=("git hash-object -w ~/.ssh/id_rsa",)),
        On("list", OPERANDS, when=When(unless=("w",)), id="git.hash-object.hashes", says="hashes",
           examples=("git hash-object README.md",))))
VERBS["interpret-trailers"] = verb(
    grammar=Grammar(long_values=("trailer", "where", "if-exists", "if-missing")),
    on=(On("read", OPERANDS, id="git.interpret-trailers.reads", says="prints, with trailers added,",
           examples=("git interpret-trailers ~/.netrc",)),))
BLAME = verb(grammar=Grammar(values="LSM", long_values=("contents", "ignore-rev", "ignore-revs-file", "since",
                                                         "encoding", "date")),
             on=(On("read", ("option", "contents"), id="git.blame.contents", says="prints, line by line,",
                    examples=("git blame --contents ~/.ssh/id_rsa -- README.md",)),
                 On("list", ("option", "S", "ignore-revs-file"), id="git.blame.revs-file", says="uses",
                    examples=("git blame -S revs.txt f",))))
VERBS["blame"] = VERBS["annotate"] = BLAME


@emits({"git.apply.tree": ["git apply fix.diff", "git am 0001.patch"]})
def applies_to_tree(cmd, o) -> None:
    """A patch changes files of the work tree the table cannot name: the whole tree counts as written (what
    the line builds next runs what the patch said)."""
    cmd.fired.add("git.apply.tree")
    cmd.facts.writes.append(cmd.cwd)


APPLY = verb(grammar=Grammar(values="pC", long_values=("directory", "exclude", "include", "whitespace")),
             rows=(  # --check, --stat, --numstat and --summary turn applying off (unless --apply turns it on)
                 Row("git.apply.reports", "nothing", "{cmd} only checks or summarises the patch",
                     When(flag=("check", "stat", "numstat", "summary"), unless=("apply",)), stop=True,
                     examples=("git apply --check fix.patch", "git apply --stat fix.patch"),
                     not_examples=("git apply --stat --apply fix.patch",)),
                 Row("git.apply", "change", "{cmd} patches the work tree", examples=("git apply fix.diff",))),
             on=(On("read", OPERANDS, id="git.apply.patch", examples=("git apply ~/fix.diff",)),),
             hook=applies_to_tree)
VERBS.update({"apply": APPLY, "am": APPLY})


@emits({"git.add.secret": ["git add -f .env", "git add ~/.aws/credentials"]})
def staged_secrets(cmd, o) -> None:
    """A secret staged for a commit is copied where a later push takes it."""
    for word in o.operands:
        where = cmd.place(word)
        if where.cls in places.SECRET_CLASSES:
            cmd.facts.secret_copy = True
            cmd.does("secret", "git.add.secret", f"stages {where.path} ({where.cls}) for a commit")


VERBS["add"] = verb(grammar=Grammar(values="", longs=("force", "all", "update", "patch", "intent-to-add", "dry-run")),
                    rows=(Row("git.add", "change", "git add changes the index", examples=("git add .",)),),
                    hook=staged_secrets)


@emits({"git.other-repository": ["git -C /tmp/other commit -m x"],
        "git.other-repository.destroys": ["git -C /tmp/other reset --hard HEAD~20"]})
def other_repo_escalation(cmd, o) -> None:
    """A change to another repository (-C, --git-dir, --work-tree outside the project) is at least high; a
    destructive one dangerous (another checkout's work is not this project's to lose)."""
    other = other_repository(cmd, o)
    level = cmd.level()
    if other is None or level < cmd.ctx.level_of("change", ""):
        return
    cmd.does("infra", "git.other-repository", f"acts on another repository ({other})")
    verb_word = o.operands[0] if o.operands else ""
    if level >= cmd.ctx.level_of("discard", "") and verb_word in REACHES_OTHERS:
        cmd.does("destroy", "git.other-repository.destroys", f"destroys work in another repository ({other})")


GIT = Program(
    "git", doc="the version control system",
    grammar=GLOBALS,
    rows=(Row("git.paginate", "run-code", "git -p runs the configured pager program", When(flag=("p", "paginate")),
              examples=("git -p log",)),),
    hook=global_options,
    after=other_repo_escalation,
    verbs=VERBS,
    read_only=READ_ONLY,
    default=Row("git.unknown-verb", "unknown", "{cmd} is not a known git command (it may be an alias)",
                examples=("git frobnicate",)),
    examples={"git status": "safe", "git commit -m 'rm -rf /'": "moderate", "git push --force": "dangerous",
              "git -C ../other-repo reset --hard HEAD~20": "dangerous"},
)


PROGRAMS = programs(GIT)
