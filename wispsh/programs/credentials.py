"""Keys, keyrings and password stores (gpg, age, the OS keychains, pass, vault, ssh-add, ssh-keygen), credential
dumpers, and the secret hunters that read whole trees for keys: what prints a secret is a secret read, what
changes a store is local configuration.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re


# ---------------------------------------------------------------- keys, keyrings and password stores

SECURITY = Program(
    "security", doc="macOS keychains and authorization rights",
    verbs={**dict.fromkeys(("find-generic-password", "find-internet-password", "dump-keychain", "export"), verb(rows=(
        Row("security.reads-passwords", "secret", "reads passwords from the keychain", sets=("secret",),
            examples=("security find-generic-password -s x -w",)),))),
        "authorizationdb": verb(verbs={"write": verb(rows=(
            Row("security.authorizationdb", "privilege", "changes who may take an administrator right",
                examples=("security authorizationdb write system.privilege.admin allow",)),))}, read_only=("read",))},
    default=Row("security.uses", "local-config", "uses the macOS security tool",
                examples=("security unlock-keychain",)),
)


@emits({"gpg.output": ["gpg --output ~/.bashrc -d x.gpg", "gpg -o out.txt -d x.gpg"]})
def gpg_output(cmd, o) -> None:
    """-o/--output writes a file (- is standard output)."""
    for out in o.all("o", "output"):
        if out != "-":
            cmd.fired.add("gpg.output")
            cmd.write(out)


GPG = Program(
    "gpg", aliases=("gpg2",), doc="GnuPG",
    grammar=Grammar(values="ourRfk", long_values=("output", "recipient", "local-user", "homedir", "keyring",
                                                  "default-key", "passphrase", "passphrase-fd", "passphrase-file",
                                                  "pinentry-mode", "cipher-algo", "compress-algo", "digest-algo",
                                                  "trust-model", "recipient-file", "hidden-recipient", "status-fd",
                                                  "logger-fd", "command-fd", "set-filename", "comment")),
    rows=(Row("gpg.exports-secret", "secret", "exports private keys",
              When(flag=("export-secret-keys", "export-secret-subkeys", "export-ssh-key")), sets=("secret",),
              examples=("gpg --export-secret-keys",)),
          Row("gpg.keyring", "local-config", "changes your keyring", When(flag=(
              "import", "recv-keys", "delete-secret-keys", "delete-keys", "gen-key", "full-generate-key", "edit-key",
              "sign-key", "lsign-key")), examples=("gpg --import key.asc",)),
          Row("gpg.decrypts", "inspect", "decrypts data", When(flag=("d", "decrypt")), examples=("gpg -d x.gpg",)),
          Row("gpg.encrypts", "create", "encrypts files (an encrypted copy beside each, or -o)",
              When(flag=("c", "e", "symmetric", "encrypt"), unless=("d", "decrypt")), sets=("encrypts",),
              examples=("gpg -c notes.txt", "gpg -e -r a@x.example f.txt")),
          Row("gpg.homedir", "local-config", "gpg uses another keyring home", When(value=("homedir",)),
              examples=("gpg --homedir /tmp/g --list-keys",))),
    on=(On("read", OPERANDS, when=When(flag=("c", "e", "symmetric", "encrypt", "s", "sign", "clearsign")),
           id="gpg.input", says="gpg reads", examples=("gpg -c ~/notes.txt",)),),
    hook=gpg_output,
)
AGE = Program(
    "age", aliases=("rage",), doc="encrypts or decrypts files (age)",
    grammar=Grammar(values="oriRj", long_values=("output", "recipient", "identity", "recipients-file", "plugin"),
                    longs=("decrypt", "encrypt", "passphrase", "armor")),
    rows=(Row("age.decrypts", "inspect", "decrypts data", When(flag=("d", "decrypt")),
              examples=("age -d -i key.txt x.age",)),
          Row("age.encrypts", "create", "encrypts a file", When(unless=("d", "decrypt")), sets=("encrypts",),
              examples=("age -p -o x.age x",))),
    on=(On("read", OPERANDS, id="age.input", says="age reads", examples=("age -p -o x.age ~/x",)),
        On("write", ("option", "o", "output"), id="age.output", examples=("age -p -o ~/x.age x",)),
        On("read", ("option", "i", "identity"), id="age.identity", examples=("age -d -i ~/.ssh/id_ed25519 x.age",))),
)
CCRYPT = Program(
    "ccrypt", aliases=("ccencrypt",), doc="encrypts files in place (each FILE is replaced by FILE.cpt)",
    grammar=Grammar(values="KkE", long_values=("key", "keyfile", "envvar", "suffix"),
                    longs=("decrypt", "encrypt", "cat", "recursive", "force")),
    rows=(Row("ccrypt.decrypts", "inspect", "decrypts files", When(flag=("d", "decrypt", "c", "cat")), stop=True,
              examples=("ccrypt -d x.cpt", "ccrypt -c x.cpt")),
          Row("ccrypt.encrypts", "change", "encrypts files in place: each original is replaced", sets=("encrypts",),
              examples=("ccrypt notes.txt",))),
    on=(On("read", OPERANDS, when=When(unless=("d", "decrypt", "c", "cat")), id="ccrypt.input",
           examples=("ccrypt ~/notes.txt",)),
        On("delete", OPERANDS, when=When(unless=("d", "decrypt", "c", "cat")), recursive=When(flag=("r", "recursive")),
           id="ccrypt.replaces", examples=("ccrypt -r ~",))),
)
KEYRINGS = Program(
    "secret-tool", aliases=("bw", "keyctl"), doc="password stores and secret managers",
    rows=(Row("keyring.reads", "secret", "{cmd} reads stored secrets", sets=("secret",),
              examples=("secret-tool lookup service x", "bw get password x")),),
)

LPASS = Program(
    "lpass", doc="LastPass's CLI",
    verbs={**dict.fromkeys(("show", "export"), verb(rows=(Row("lpass.shows", "secret", "{cmd} prints stored passwords",
                                                             sets=("secret",), examples=("lpass show x",)),)))},
    read_only=("ls", "status", "--version", "help"),
    default=Row("lpass.changes", "local-config", "{cmd} changes the password vault", examples=("lpass add x",)),
)
KWALLET_QUERY = Program(
    "kwallet-query", doc="reads and writes KDE wallets",
    grammar=Grammar(values="frw", long_values=("folder", "read-password", "write-password")),
    rows=(Row("kwallet.reads", "secret", "{cmd} prints a password from the wallet", When(value=("r", "read-password")),
              sets=("secret",), examples=("kwallet-query -r github kdewallet",)),
          Row("kwallet.writes", "credentials", "{cmd} changes a password in the wallet",
              When(value=("w", "write-password")), examples=("kwallet-query -w x kdewallet",)),
          Row("kwallet.lists", "inspect", "{cmd} lists the wallet's entries", When(flag=("l", "list-entries")),
              examples=("kwallet-query -l kdewallet",))),
)
KEYRING_CLI = Program(
    "keyring", doc="Python's keyring CLI: the system keychain's passwords",
    verbs={"get": verb(rows=(Row("keyring.get", "secret", "keyring get prints a stored password", sets=("secret",),
                                 examples=("keyring get pypi me",)),)),
           "set": verb(rows=(Row("keyring.set", "credentials", "keyring set changes a stored password",
                                 examples=("keyring set pypi me",)),)),
           "del": verb(rows=(Row("keyring.del", "local-config", "keyring del removes a stored password",
                                 examples=("keyring del pypi me",)),))},
    read_only=("--list-backends", "--help", "diagnose"),
)
KEEPASSXC_CLI = Program(
    "keepassxc-cli", doc="KeePassXC databases",
    verbs={**dict.fromkeys(("show", "export", "clip", "totp"), verb(rows=(
        Row("keepassxc.shows", "secret", "{cmd} prints or copies stored passwords", sets=("secret",),
            examples=("keepassxc-cli show db.kdbx entry",)),)))},
    read_only=("ls", "search", "analyze", "db-info", "help", "--version", "estimate", "diceware", "generate"),
    default=Row("keepassxc.changes", "local-config", "{cmd} changes a password database",
                examples=("keepassxc-cli add db.kdbx x",)),
)
# Credential dumpers and crackers: what they print is passwords (GTFOBins-style post-exploitation tools).
DUMPERS = Program(
    "mimipenguin", aliases=("lazagne", "laZagne", "unshadow", "pypykatz", "secretsdump.py", "impacket-secretsdump",
                            "john", "hashcat", "dumpsterdiver"),
    doc="credential dumpers (memory, browsers, keyrings, shadow) and password crackers",
    rows=(Row("dump.credentials", "secret", "{cmd} recovers stored or cached passwords and keys", sets=("secret",),
              examples=("mimipenguin", "lazagne all", "unshadow /etc/passwd /etc/shadow", "john hashes.txt")),),
    on=(On("read", OPERANDS, id="dump.reads", examples=("unshadow /etc/passwd /etc/shadow",)),),
)
GCORE = Program(
    "gcore", doc="dumps a running process's memory to a core file",
    grammar=Grammar(values="o"),
    rows=(Row("gcore.dumps", "secret", "{cmd} copies a process's memory (the secrets in it) to a file",
              sets=("secret",), examples=("gcore 1234",)),),
    on=(On("write", ("option", "o"), id="gcore.output", examples=("gcore -o /tmp/core 1234",)),),
)

# Secret hunters: they read whole trees looking for keys and print what they find. Over the project that is
# hygiene (moderate: it prints the project's own secrets); over a tree that holds a secret store (the home, /)
# it reads those stores (high, path.read-tree.secret); what they print is secrets, so sending it is a leak.


def _hunts(cmd, paths, tool: str, rule: str, hidden: bool = True) -> None:
    cmd.does("hunt", rule, f"{tool} searches for secrets and prints what it finds")
    cmd.facts.secret_source = cmd.facts.secret_source or f"{tool} prints the secrets it finds"
    for path in paths or ["."]:
        where = cmd.read_tree(path, "searches for secrets", hidden)
        if where.cls in places.SECRET_CLASSES:
            cmd.does("secret", rule, f"{tool} hunts for secrets where your secret stores are ({where.path}): it "
                                     "prints the secrets it finds there")


@emits({"trufflehog.hunts": ["trufflehog filesystem ~", "trufflehog git file://.", "trufflehog github --org=x"]})
def trufflehog_hunts(cmd, o) -> None:
    """trufflehog SOURCE …: filesystem PATHS, git file://PATH (a URL is someone's repository, fetched), github,
    s3, docker… (remote sources fetched)."""
    source, rest = (o.operands[0], o.operands[1:]) if o.operands else ("", [])
    if source == "filesystem":
        _hunts(cmd, rest + o.all("directory"), "trufflehog", "trufflehog.hunts")
    elif source == "git" and rest and rest[0].startswith("file://"):
        _hunts(cmd, [rest[0][7:] or "."], "trufflehog", "trufflehog.hunts")
    else:
        cmd.facts.net_fetch = True
        _hunts(cmd, [], "trufflehog", "trufflehog.hunts") if source in ("stdin", "") else cmd.does(
            "hunt", "trufflehog.hunts", f"trufflehog searches {source or 'a source'} for secrets and prints them")
        cmd.facts.secret_source = cmd.facts.secret_source or "trufflehog prints the secrets it finds"


TRUFFLEHOG = Program("trufflehog", doc="searches sources (files, git, clouds) for secrets",
                     grammar=Grammar(long_values=("directory", "config", "concurrency", "include-paths",
                                                  "exclude-paths", "since-commit", "branch", "org", "repo",
                                                  "results", "log-level")),
                     hook=trufflehog_hunts)


@emits({"gitleaks.hunts": ["gitleaks detect --source ~", "gitleaks dir ~", "gitleaks detect"]})
def gitleaks_hunts(cmd, o) -> None:
    """gitleaks detect|protect|dir|git [PATH] (-s/--source PATH, default the current directory)."""
    paths = o.all("s", "source") + o.operands[1:]
    _hunts(cmd, paths, "gitleaks", "gitleaks.hunts")


GITLEAKS = Program("gitleaks", doc="searches git history and files for secrets",
                   grammar=Grammar(values="scrfl", long_values=("source", "config", "report-path", "report-format",
                                                                "log-opts", "baseline-path", "log-level",
                                                                "gitleaks-ignore-path", "max-target-megabytes")),
                   on=(On("write", ("option", "r", "report-path"), id="gitleaks.report",
                          examples=("gitleaks detect -r out.json",)),),
                   hook=gitleaks_hunts)


@emits({"detect-secrets.hunts": ["detect-secrets scan ~", "detect-secrets scan --all-files ."]})
def detect_secrets_hunts(cmd, o) -> None:
    """detect-secrets scan [PATH…]: the git files of the current directory, or the paths given."""
    if o.operands[:1] == ["scan"]:
        _hunts(cmd, o.operands[1:], "detect-secrets", "detect-secrets.hunts")


DETECT_SECRETS = Program("detect-secrets", doc="searches files for secrets",
                         grammar=Grammar(long_values=("baseline", "exclude-files", "exclude-lines", "word-list",
                                                      "plugin", "custom-plugins", "c", "cores")),
                         hook=detect_secrets_hunts)


@emits({"noseyparker.hunts": ["noseyparker scan --datastore np ~", "ripsecrets ~", "kingfisher scan ~"]})
def scanner_hunts(cmd, o) -> None:
    """noseyparker scan PATH…, kingfisher scan PATH…, ripsecrets [PATH…]: the paths are read whole."""
    words = o.operands[1:] if o.operands[:1] == ["scan"] else o.operands
    if cmd.name in ("noseyparker", "np", "kingfisher") and o.operands[:1] != ["scan"]:
        return                              # report, summarize, github…: not a scan of files
    _hunts(cmd, words, cmd.name, "noseyparker.hunts")


SCANNERS = Program("noseyparker", aliases=("np", "kingfisher", "ripsecrets"), doc="searches files for secrets",
                   grammar=Grammar(values="do", long_values=("datastore", "output", "format", "git-url", "rules")),
                   hook=scanner_hunts)


@emits({"ggshield.sends": ["ggshield secret scan path -r ~", "ggshield secret scan path -r ."]})
def ggshield_sends(cmd, o) -> None:
    """ggshield secret scan path PATH… sends the files to GitGuardian's service to be scanned: they leave the
    machine (a tree holding your secrets stores, or the whole home, is a leak)."""
    words = o.operands
    if words[:3] == ["secret", "scan", "path"]:
        cmd.does("hunt", "ggshield.sends", "ggshield sends files to GitGuardian to search them for secrets")
        for path in words[3:] or ["."]:
            cmd.send(path, "sends to GitGuardian")


GGSHIELD = Program("ggshield", doc="GitGuardian's scanner: sends what it scans to its service",
                   grammar=Grammar(values="", long_values=("exit-zero", "output", "format", "exclude", "config-path")),
                   hook=ggshield_sends)

# ---------------------------------------------------------------- pass, vault, ssh keys

# pass and gopass: a word that is not a verb is an entry's name (`pass work/aws` shows it); no word lists them.
STORE_SHOWS = Row("pass.shows", "secret", "{cmd} prints a stored password", sets=("secret",),
                  examples=("pass show work/aws", "gopass show -o x", "pass otp x", "gopass cat x"))
STORE_CHANGES = Row("pass.changes", "local-config", "{cmd} changes the password store",
                    examples=("pass insert x", "pass rm x", "gopass mv a b"))
PASS = Program(
    "pass", aliases=("gopass",), doc="password stores (one gpg file per entry)",
    verbs={**dict.fromkeys(("show", "otp", "grep", "cat"), verb(rows=(STORE_SHOWS,))),
           "generate": verb(rows=(Row("pass.generate", "secret", "{cmd} makes a new password and prints it",
                                      sets=("secret",), examples=("pass generate x 24",)),)),
           **dict.fromkeys(("insert", "add", "edit", "rm", "remove", "delete", "mv", "move", "cp", "copy", "init",
                            "setup", "config"), verb(rows=(STORE_CHANGES,))),
           **dict.fromkeys(("git", "sync"), verb(
               verbs={"push": verb(rows=(Row("pass.git.push", "publish", "{cmd} publishes the (encrypted) store",
                                             sets=("net_send",), examples=("pass git push",)),))},
               default=Row("pass.git", "local-config", "{cmd} runs git on the password store",
                           examples=("pass git log",)),
               no_verb=Row("pass.sync", "publish", "{cmd} publishes the (encrypted) store", sets=("net_send",),
                           examples=("gopass sync",))))},
    read_only=("ls", "list", "find", "search", "version", "help", "--version", "--help"),
    default=Row("pass.entry", "secret", "{cmd}: a word that is not a verb names an entry, which it prints",
                sets=("secret",), examples=("pass work/aws", "gopass github.com/me")),
    no_verb=Row("pass.lists", "inspect", "{cmd} lists the names of stored passwords", examples=("pass",)),
    examples={"pass ls": "safe", "pass": "low", "pass show work/aws-prod": "high", "gopass insert x": "moderate"},
)

# Vault: what a path names decides more than the verb: `creds/`, `issue/` and token paths mint credentials.
VAULT_MINTS = lazy_re(r"(?:^|/)(?:creds|issue|sign|sts)/|^auth/token/create|^identity/oidc/token|/generate-root")
VAULT_POLICY = lazy_re(r"^sys/(?:policy|policies/acl)/")


@emits({"vault.mints": ["vault read database/creds/readonly", "vault write pki/issue/web common_name=x",
                        "vault read aws/sts/deploy"],
        "vault.grants": ["vault write sys/policy/admin policy=@p.hcl", "vault delete sys/policies/acl/x"]})
def vault_path(cmd, o) -> None:
    """`vault read|write|delete PATH`: a dynamic-secrets path mints a credential, a policy path grants."""
    path = (o.operands[0] if o.operands else "").lstrip("/")
    if VAULT_MINTS.search(path):
        cmd.does("credentials", "vault.mints", f"{cmd.args[0]} {path} mints a credential and prints it")
        cmd.facts.secret_source = cmd.facts.secret_source or f"prints a credential vault minted ({path})"
    elif VAULT_POLICY.match(path):
        cmd.does("privilege", "vault.grants", f"{cmd.args[0]} {path} changes who may do what in Vault")


VAULT_READS = Row("vault.reads", "secret", "{cmd} prints stored secrets", sets=("secret",),
                  examples=("vault read secret/x", "vault unwrap x"))
VAULT_LISTS = Row("vault.lists", "inspect", "{cmd} lists names or reads Vault's state",
                  examples=("vault status", "vault list secret/"))
VAULT_GRAMMAR = Grammar(long_values=("address", "namespace", "field", "format", "mount", "output-curl-string"))
VAULT = Program(
    "vault", doc="HashiCorp Vault: secrets, dynamic credentials, policies",
    verbs={
        **dict.fromkeys(("read", "unwrap", "print"), verb(grammar=VAULT_GRAMMAR, hook=vault_path, rows=(VAULT_READS,))),
        **dict.fromkeys(("status", "list", "path-help", "namespace"), verb(rows=(VAULT_LISTS,))),
        "write": verb(grammar=VAULT_GRAMMAR, hook=vault_path, rows=(
            Row("vault.write", "data", "{cmd} writes to Vault", examples=("vault write secret/x value=1",)),)),
        "delete": verb(grammar=VAULT_GRAMMAR, hook=vault_path, rows=(
            Row("vault.delete", "remove", "{cmd} deletes a secret", examples=("vault delete secret/x",)),)),
        "kv": verb(verbs={"get": verb(rows=(Row("vault.kv.get", "secret", "{cmd} prints stored secrets",
                                                sets=("secret",),
                                                examples=("vault kv get -field=password secret/db",)),)),
                          **dict.fromkeys(("list", "metadata"), verb(rows=(
                              Row("vault.kv.list", "inspect", "{cmd} lists names or versions",
                                  examples=("vault kv list secret/", "vault kv metadata get secret/x")),))),
                          "destroy": verb(rows=(Row("vault.kv.destroy", "destroy", "{cmd} destroys secret versions for "
                                                    "good", examples=("vault kv destroy -versions=1 secret/x",)),))},
                   default=Row("vault.kv.changes", "data", "{cmd} changes stored secrets",
                               examples=("vault kv put secret/x a=1", "vault kv delete secret/x"))),
        "token": verb(verbs={"create": verb(rows=(Row("vault.token.create", "credentials", "{cmd} mints a token",
                                                      sets=("secret",), examples=("vault token create -policy=root",)),
                                                  )),
                             **dict.fromkeys(("lookup", "capabilities"), verb(rows=(
                                 Row("vault.token.lookup", "inspect", "{cmd} shows a token's policies and expiry",
                                     examples=("vault token lookup", "vault token capabilities secret/x")),)))},
                      default=Row("vault.token", "local-config", "{cmd} renews or revokes tokens",
                                  examples=("vault token renew", "vault token revoke -self"))),
        "login": verb(rows=(Row("vault.login", "secret", "vault login prints and stores a token", sets=("secret",),
                                examples=("vault login -method=github",)),)),
        "policy": verb(verbs=dict.fromkeys(("write", "delete", "fmt"), verb(rows=(
            Row("vault.policy.change", "privilege", "{cmd} changes who may do what in Vault",
                examples=("vault policy write admin p.hcl",)),))),
            read_only=("read", "list")),
        **dict.fromkeys(("secrets", "auth"), verb(
            verbs={"disable": verb(rows=(Row("vault.disable", "destroy", "{cmd} deletes an engine and all it holds",
                                             examples=("vault secrets disable kv/",)),))},
            read_only=("list",),
            default=Row("vault.engines", "infra", "{cmd} changes Vault's engines",
                        examples=("vault auth enable github",)))),
        "audit": verb(verbs={"disable": verb(rows=(Row("vault.audit.disable", "weaken", "vault audit disable stops "
                                                       "recording who reads secrets",
                                                       examples=("vault audit disable file/",)),))},
                      read_only=("list",),
                      default=Row("vault.audit", "infra", "{cmd} changes Vault's audit devices",
                                  examples=("vault audit enable file file_path=/tmp/a",))),
        "operator": verb(verbs=dict.fromkeys(("init", "generate-root", "rekey"), verb(rows=(
            Row("vault.operator.keys", "credentials", "{cmd} mints unseal keys or a root token",
                examples=("vault operator init", "vault operator generate-root -init")),))),
            read_only=("key-status", "members"),
            default=Row("vault.operator", "system", "{cmd} changes the Vault server",
                        examples=("vault operator seal", "vault operator step-down"))),
        "ssh": verb(rows=(Row("vault.ssh", "remote", "{cmd} opens a session on another machine",
                              examples=("vault ssh -role x user@host",)),)),
        **dict.fromkeys(("server", "agent", "proxy"), verb(rows=(
            Row("vault.server", "local-service", "{cmd} runs a Vault process", examples=("vault server -dev",)),))),
    },
    read_only=("version", "help", "-version", "-help", "--version", "--help"),
    default=Row("vault.verb", "secret", "{cmd} (a Vault command the gate does not know)", sets=("secret",),
                examples=("vault frobnicate",)),
    examples={"vault status": "low", "vault kv get secret/prod/db": "high", "vault kv list secret/": "low",
              "vault read database/creds/app": "dangerous", "vault version": "safe"},
)
SSH_ADD = Program("ssh-add", doc="adds keys to the ssh agent", rows=(
    Row("ssh-add.lists", "nothing", "lists the agent's keys", When(flag=("l", "L", "T")), stop=True,
        examples=("ssh-add -l",)),
    Row("ssh-add.changes", "local-config", "adds or removes keys in your ssh agent", examples=("ssh-add",))))
SSH_KEYGEN = Program(
    "ssh-keygen", doc="creates and manages ssh keys", grammar=Grammar(values="fbtCNZanIOPsVzDw"),
    rows=(Row("ssh-keygen.reads", "nothing", "shows keys or known hosts", When(flag=("l", "y", "F", "Q", "L")),
              stop=True, examples=("ssh-keygen -l -f x.pub",)),
          Row("ssh-keygen.changes", "local-config", "creates or changes ssh keys", examples=("ssh-keygen -t ed25519",)),
          Row("ssh-keygen.library", "run-code", "ssh-keygen loads a library ({value}): code runs",
              When(value=("D", "w")), examples=("ssh-keygen -D /tmp/x.so",))),
    on=(On("write", ("option", "f"), id="ssh-keygen.writes",
           examples=("ssh-keygen -t ed25519 -f ~/.ssh/authorized_keys",)),),
)


PROGRAMS = programs(
    SECURITY, GPG, AGE, CCRYPT, KEYRINGS, PASS, VAULT, SSH_ADD, SSH_KEYGEN, LPASS, KWALLET_QUERY, KEYRING_CLI,
    KEEPASSXC_CLI, DUMPERS, GCORE, TRUFFLEHOG, GITLEAKS, DETECT_SECRETS, SCANNERS, GGSHIELD,
)
