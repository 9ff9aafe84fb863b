"""File drops and cloud storage copiers: transfer.sh-style drops, s3cmd, azcopy, rclone."""
from __future__ import annotations

from wispsh.programs.network import remote, uses
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb
from wispsh.vocab import places

# ---------------------------------------------------------------- file drops and cloud storage copiers


@emits({"drop.sends": ["croc send notes.txt", "wormhole send ~/.ssh/id_rsa", "ffsend upload report.pdf"],
        "drop.text": ["wormhole send --text hello"], "drop.receives-into": ["croc --out ~/.config/autostart 1-a-b-c"]})
def drop_sends(cmd, o) -> None:
    """`croc send F`, `wormhole send F`, `ffsend upload F`: the file goes to whoever holds the code or link;
    what is received lands in --out."""
    for out in o.all("out"):
        cmd.fired.add("drop.receives-into")
        cmd.write(out, "saves what it receives in")
    words = o.operands
    if not words or words[0] not in ("send", "upload", "u", "up"):
        return
    if o.all("text") and cmd.name == "wormhole":
        cmd.does("send", "drop.text", "sends text to another machine")
        return
    cmd.fired.add("drop.sends")
    cmd.does("send", "drop.sends", f"{cmd.name} sends files to another machine")
    for word in words[1:]:
        cmd.send(word, "sends")


DROP = Program(
    "croc", aliases=("wormhole", "ffsend"), doc="hand a file to someone over the network (a code or a link)",
    grammar=Grammar(values="", long_values=("code", "relay", "text", "pass", "out", "curve", "hash", "host",
                                            "downloads", "expiry-time", "password", "name")),
    rows=(Row("drop.connects", "fetch", "{cmd} exchanges files over the network", sets=("net_fetch",),
              examples=("croc receive", "wormhole receive 3-apple-pie")),),
    hook=drop_sends,
    examples={"croc send ~/.aws/credentials": "dangerous", "ffsend upload report.pdf": "high"},
)


def _bucket(word: str) -> bool:
    return "://" in word


def storage_copy(cmd, sources, dest, what: str, *, contents_slash: bool = False) -> None:
    """s3cmd / azcopy / rclone: local files to a bucket leave the machine; a bucket to here writes here."""
    if _bucket(dest) or remote(dest):
        cmd.does("send", f"{what}.upload", f"{what} copies files to cloud storage")
        for source in sources:
            if not (_bucket(source) or remote(source)):
                cmd.send(source, "copies")
        return
    cmd.does("fetch", f"{what}.download", f"{what} copies files from cloud storage")
    local = [s for s in sources if not (_bucket(s) or remote(s))]
    for source in local:
        cmd.read(source)
    cmd.write_into(dest, [s.rstrip("/").rsplit("/", 1)[-1] or "." for s in sources], "writes",
                   contents_slash=contents_slash)


RECURSIVE = When(flag=("r", "recursive", "force"))


@emits({"s3cmd.upload": ["s3cmd put notes.txt s3://b/"], "s3cmd.download": ["s3cmd get s3://b/x ./x"]})
def s3cmd_copy(cmd, o) -> None:
    if len(o.operands) >= 2:
        storage_copy(cmd, o.operands[:-1], o.operands[-1], "s3cmd")


S3_COPY = verb(grammar=Grammar(longs=("recursive", "delete-removed", "acl-public")), hook=s3cmd_copy,
               rows=(Row("s3cmd.public", "weaken", "makes what it uploads readable by anyone",
                         When(flag=("P", "acl-public")),
                         examples=("s3cmd put -P notes.txt s3://b/",)),
                     Row("s3cmd.sync-deletes", "discard", "deletes files at the destination that the source lacks",
                         When(flag=("delete-removed",)), examples=("s3cmd sync --delete-removed dir/ s3://b/",))))
S3CMD = Program(
    "s3cmd", doc="Amazon S3 (and compatible) storage",
    grammar=Grammar(values="c", long_values=("config", "access_key", "secret_key", "region", "host")),
    read_only=("ls", "la", "info", "du", "help", "--help", "--version"),
    verbs={"put": S3_COPY, "sync": S3_COPY, "get": S3_COPY, "cp": S3_COPY, "mv": S3_COPY,
           "del": verb(grammar=Grammar(longs=("recursive", "force")),
                       rows=(Row("s3cmd.delete-tree", "destroy", "deletes everything under a bucket path", RECURSIVE,
                                 stop=True, examples=("s3cmd del --recursive s3://b/",)),
                             Row("s3cmd.delete", "remove", "deletes objects", examples=("s3cmd del s3://b/x",)))),
           "rb": verb(grammar=Grammar(longs=("recursive", "force")),
                      rows=(Row("s3cmd.remove-full-bucket", "destroy", "removes a bucket and everything in it",
                                RECURSIVE, stop=True, examples=("s3cmd rb --recursive s3://b",)),
                            Row("s3cmd.remove-bucket", "remove", "removes a bucket", examples=("s3cmd rb s3://b",)))),
           "setacl": verb(grammar=Grammar(longs=("acl-public", "recursive")),
                          rows=(Row("s3cmd.setacl-public", "weaken", "makes objects readable by anyone",
                                    When(flag=("P", "acl-public")), examples=("s3cmd setacl --acl-public s3://b/x",)),
                                Row("s3cmd.setacl", "infra", "changes who may read objects",
                                    examples=("s3cmd setacl --acl-private s3://b/x",)))),
           "signurl": verb(rows=(Row("s3cmd.signurl", "credentials", "mints a link that lets anyone fetch the object",
                                     examples=("s3cmd signurl s3://b/x +3600",)),))},
    default=Row("s3cmd.verb", "infra", "{cmd} changes cloud storage", examples=("s3cmd mb s3://b",)),
    rows=(Row("s3cmd.runs", "inspect", "reads cloud storage", examples=("s3cmd ls s3://b",)),),
    examples={"s3cmd ls s3://b": "low", "s3cmd put ~/.aws/credentials s3://b/": "dangerous"},
)


@emits({"azcopy.upload": ["azcopy copy notes.txt 'https://a.blob.core.windows.net/c'"],
        "azcopy.download": ["azcopy copy 'https://a.blob.core.windows.net/c/x' ./x"]})
def azcopy_copy(cmd, o) -> None:
    if len(o.operands) >= 2:
        storage_copy(cmd, o.operands[:-1], o.operands[-1], "azcopy")


AZ_COPY = verb(grammar=Grammar(long_values=("delete-destination", "include-pattern", "exclude-pattern",
                                            "log-level", "from-to")), hook=azcopy_copy,
               rows=(Row("azcopy.sync-deletes", "discard", "deletes files at the destination that the source lacks",
                         When(arg=("--delete-destination=true", "--delete-destination=prompt")),
                         examples=("azcopy sync dir 'https://a.blob.core.windows.net/c' --delete-destination=true",)),))
AZCOPY = Program(
    "azcopy", doc="Azure storage copies",
    read_only=("list", "jobs", "env", "--version", "help"),
    rows=(Row("azcopy.runs", "inspect", "reads cloud storage",
              examples=("azcopy list 'https://a.blob.core.windows.net/c'",)),),
    verbs={"copy": AZ_COPY, "cp": AZ_COPY, "sync": AZ_COPY,
           "remove": verb(grammar=Grammar(longs=("recursive",)),
                          rows=(Row("azcopy.remove-tree", "destroy", "deletes everything under a storage path",
                                    When(flag=("recursive",)), stop=True,
                                    examples=("azcopy remove 'https://a.blob.core.windows.net/c' --recursive",)),
                                Row("azcopy.remove", "remove", "deletes storage objects",
                                    examples=("azcopy remove 'https://a.blob.core.windows.net/c/x'",)))),
           "login": verb(rows=(Row("azcopy.login", "local-config", "stores Azure credentials",
                                   examples=("azcopy login",)),))},
    default=Row("azcopy.verb", "infra", "{cmd} changes cloud storage", examples=("azcopy make 'https://a/c'",)),
)

RCLONE_READS = frozenset({"ls", "lsd", "lsl", "lsf", "lsjson", "cat", "size", "about", "listremotes", "tree",
                          "check", "md5sum", "sha1sum", "hashsum", "version", "help", "ncdu", "cryptcheck",
                          "checksum", "config-file", "backend-features"})
RCLONE_GRAMMAR = Grammar(long_values=("config", "include", "exclude", "filter", "transfers", "checkers", "bwlimit",
                                      "log-file", "backup-dir", "min-age", "max-age", "filter-from", "include-from",
                                      "exclude-from", "password-command", "log-level", "files-from", "suffix",
                                      "max-size", "min-size", "drive-shared-with-me", "order-by", "compare-dest",
                                      "copy-dest", "stats", "retries", "low-level-retries", "multi-thread-streams"))


@emits({"rclone.upload": ["rclone copy src remote:dst"], "rclone.download": ["rclone copy remote:x ./y"],
        "rclone.into-broad": ["rclone sync remote:dotfiles ~"]})
def rclone_copy(cmd, o) -> None:
    """A copy between a remote (`name:path`) and here: what goes up is sent, what comes down is written; a sync
    or move into your home deletes what the source lacks."""
    words = o.operands
    if len(words) >= 2:
        storage_copy(cmd, words[:-1], words[-1], "rclone")
        dest = cmd.place(words[-1]) if not remote(words[-1]) else None
        if dest is not None and dest.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.SYSTEM) and \
                any(v in ("sync", "move", "moveto", "bisync") for v in cmd.args[:1]):
            cmd.does("destroy", "rclone.into-broad", f"rclone makes {dest.cls} a copy of a remote (deleting the rest)")


def _rclone_verb(what: str, does: str, says: str, example: str, deletes: bool = False):
    rows = (Row(f"rclone.{what}", does, says, examples=(example,)),)
    if deletes:
        rows += (Row(f"rclone.{what}.deletes", "discard", f"rclone {what} deletes files", examples=(example,)),)
    return verb(grammar=RCLONE_GRAMMAR, rows=rows, hook=rclone_copy)


@emits({"rclone.serves-broad": ["rclone serve http ~ --addr :8080", "rclone serve webdav /"]})
def rclone_serves(cmd, o) -> None:
    """`rclone serve PROTOCOL PATH`: a local PATH that is your home, / or a secret is handed to the network."""
    for word in o.operands[1:2]:
        if remote(word):
            continue
        where = cmd.place(word)
        if where.cls in (places.HOME, places.ROOT, places.ANCESTOR, places.DOTFILE) or where.cls in places.SECRET_CLASSES:
            cmd.does("leak", "rclone.serves-broad", f"serves {where.path} ({where.cls}) to the network")


@emits({"rclone.password-command": ["rclone --password-command='pass show rc' ls remote:"]})
def rclone_globals(cmd, o) -> None:
    """Options anywhere on the line: a program that prints the config password; the config and log files."""
    everywhere = RCLONE_GRAMMAR.read(cmd.args)
    if everywhere.all("password-command"):
        cmd.does("run-code", "rclone.password-command", "rclone runs the program it is given for the config password")
    for log in everywhere.all("log-file"):
        cmd.write(log)
    for config in everywhere.all("config", "filter-from", "include-from", "exclude-from", "files-from"):
        uses(cmd, config)


RCLONE_READ = verb(grammar=RCLONE_GRAMMAR, rows=(Row("rclone.reads", "inspect", "{cmd} reads remote storage",
                                                    sets=("net_fetch",),
                                                     examples=("rclone ls remote:", "rclone cat remote:x")),))
RCLONE = Program(
    "rclone", doc="copies and syncs files with cloud storage remotes (`name:path`)",
    grammar=RCLONE_GRAMMAR,
    verbs={
        **{word: RCLONE_READ for word in RCLONE_READS},
        "copy": _rclone_verb("copy", "change", "rclone copy copies files", "rclone copy src remote:dst"),
        "copyto": _rclone_verb("copyto", "change", "rclone copyto copies a file", "rclone copyto a remote:b"),
        "sync": _rclone_verb("sync", "change", "rclone sync copies files", "rclone sync src remote:dst", True),
        "move": _rclone_verb("move", "change", "rclone move moves files", "rclone move a remote:b", True),
        "moveto": _rclone_verb("moveto", "change", "rclone moveto moves a file", "rclone moveto a remote:b", True),
        "bisync": _rclone_verb("bisync", "change", "rclone bisync syncs both ways", "rclone bisync a remote:b", True),
        "rcat": verb(rows=(Row("rclone.rcat", "send", "uploads its input to cloud storage", examples=(
            "tar cz . | rclone rcat remote:b.tgz",)),), hook=lambda cmd, o: cmd.send("-", "rclone rcat uploads")),
        "delete": verb(rows=(Row("rclone.delete", "destroy", "deletes every file under a remote path",
                                 examples=("rclone delete remote:x",)),)),
        "purge": verb(rows=(Row("rclone.purge", "destroy", "deletes a remote path and everything in it",
                                examples=("rclone purge remote:x",)),)),
        "deletefile": verb(rows=(Row("rclone.deletefile", "remove", "deletes a remote file",
                                     examples=("rclone deletefile remote:x",)),)),
        "config": verb(read_only=("file", "paths", "providers"),
                       verbs={"show": verb(rows=(Row("rclone.config.show", "secret", "prints remotes' credentials",
                                                     sets=("secret",), examples=("rclone config show",)),)),
                              "dump": verb(rows=(Row("rclone.config.dump", "secret", "prints remotes' credentials",
                                                     sets=("secret",), examples=("rclone config dump",)),))},
                       default=Row("rclone.config.change", "local-config", "{cmd} changes rclone's remotes",
                                   examples=("rclone config create r s3",)),
                       no_verb=Row("rclone.config.edit", "local-config", "rclone config edits rclone's remotes",
                                   examples=("rclone config",))),
        "mkdir": verb(rows=(Row("rclone.mkdir", "data", "makes a directory in cloud storage",
                                examples=("rclone mkdir remote:x",)),)),
        "serve": verb(grammar=RCLONE_GRAMMAR, rows=(Row("rclone.serve", "expose", "serves files to the network",
                                                        examples=("rclone serve http remote:",)),),
                      hook=rclone_serves),
        "rcd": verb(rows=(Row("rclone.rcd", "expose", "listens for remote control", examples=("rclone rcd",)),)),
        "mount": verb(rows=(Row("rclone.mount", "system", "mounts cloud storage",
                                examples=("rclone mount remote: /mnt/r",)),)),
        "link": verb(rows=(Row("rclone.link", "publish", "makes a public link to a remote file",
                               examples=("rclone link remote:x",)),)),
        "reveal": verb(rows=(Row("rclone.reveal", "secret", "prints an obscured password in clear", sets=("secret",),
                                 examples=("rclone reveal XXXX",)),)),
        "authorize": verb(rows=(Row("rclone.authorize", "secret", "obtains and prints an access token",
                                    sets=("secret",), examples=("rclone authorize drive",)),)),
        "selfupdate": verb(rows=(Row("rclone.selfupdate", "install-outside", "replaces rclone with a download",
                                     examples=("rclone selfupdate",)),)),
    },
    read_only=("obscure", "genautocomplete", "completion", "gendocs"),
    default=Row("rclone.verb", "infra", "{cmd} changes remote storage", examples=("rclone dedupe remote:x",)),
    after=rclone_globals,
    examples={"rclone ls remote:": "low", "rclone copy src remote:dst": "high",
              "rclone copy ~/.ssh remote:dst": "dangerous",
              "rclone sync src remote:dst": "high", "rclone purge remote:x": "dangerous", "rclone config": "moderate"},
)



PROGRAMS = programs(DROP, S3CMD, AZCOPY, RCLONE)
