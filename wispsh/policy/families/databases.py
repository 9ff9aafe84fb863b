"""Database clients: SQL that drops or deletes, and the client commands that run programs."""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

SQL_RULES = (   # (pattern, level, reason): the worst match decides
    (lazy_re(r"\b(drop\s+(database|schema|table|user|role|owned)|truncate\b|drop\s+\w+)", re.I), D,
     "SQL drops or truncates data"),
    (lazy_re(r"\bdelete\s+from\s+[\w.\"`]+\s*(;|$)", re.I), D, "SQL deletes every row of a table"),
    (lazy_re(r"\bcopy\b.*\b(to|from)\s+program\b", re.I), H, "SQL COPY … PROGRAM runs a shell command"),
    (lazy_re(r"\bupdate\s+[\w.\"`]+\s+set\b(?![^;]*\bwhere\b)", re.I), H, "SQL updates every row of a table"),
    (lazy_re(r"\b(alter\s+(user|role)\b.*\b(superuser|createrole|bypassrls|password)|grant\s+all|grant\b.*"
                r"\bto\s+public|create\s+(user|role)\b.*superuser|set\s+global)", re.I), H,
     "SQL grants privileges"),
    (lazy_re(r"\b(xp_cmdshell|sys_exec|sys_eval|load_file|into\s+(out|dump)file|lo_import|lo_export"
                r"|pg_read_file|pg_ls_dir|create\s+(or\s+replace\s+)?function|load\s+data\s+local)\b", re.I), H,
     "SQL reads or writes server files or defines code"),
    (lazy_re(r"\b(delete|update|alter|grant|revoke|rename|create|insert|replace|merge|vacuum|reindex"
                r"|flush|reset|shutdown|kill)\b", re.I), M, "SQL changes the database"),
)
META_RULES = (   # psql/mysql/sqlite3 client commands that run programs or write files
    (lazy_re(r"(^|[\s;])\\!|\\(o|out|g|gx|w|write|copy)\s*\|", re.I), H, "a client command runs a shell command"),
    (lazy_re(r"(^|[\s;])(\\|\.)(shell|system)\b", re.I), H, "a client command runs a shell command"),
    (lazy_re(r"(^|[\s;])\.(once|output)\s+['\"]?\|", re.I), H, "a client command pipes output to a program"),
    (lazy_re(r"(^|[\s;])\.(import)\s+['\"]?\|", re.I), H, "a client command reads from a program"),
    (lazy_re(r"(^|[\s;])\.load\b|load_extension\s*\(", re.I), H, "loads a native extension"),
    (lazy_re(r"(^|[\s;])(system|\\!)\s", re.I), H, "a client command runs a shell command"),
    (lazy_re(r"(^|[\s;])\.(once|output|save|backup|dump)\s+\S", re.I), M, "writes a file"),
)


def judge_sql(c: Cmd, text: str, client: str) -> None:
    if UNKNOWN in text:
        c.at_least(H, f"{client} runs SQL known only at run time")
    for rules in (SQL_RULES, META_RULES):
        for pattern, level, reason in rules:
            if pattern.search(text):
                c.at_least(level, reason)
                break
    c.at_least(L, f"{client} queries a database")


def _client(c: Cmd, code_options, file_options, short_values, long_values) -> None:
    o = c.opts(short_values, long_values)
    texts = []
    for option in code_options:
        texts.extend(o.all(option))
    for option in file_options:
        for script in o.all(option):
            if script.startswith(UNKNOWN):
                c.facts.runtime_code = True
                c.at_least(H, f"{c.name} runs SQL from a file known only at run time")
                continue
            c.read(script)
            c.at_least(M, f"{c.name} runs the SQL in {script}")
    part = c.part
    if part is not None and part.pipeline is not None and part.stage > 0:
        c.facts.stdin_interp = True
        c.at_least(H, f"{c.name} runs SQL from its input")
    if c.part is not None and c.part.stdin_code:
        texts.append(c.part.stdin_code)
    for text in texts:
        judge_sql(c, text, c.name)
    if not texts and not any(o.all(option) for option in file_options):
        c.at_least(M, f"{c.name} opens a database session")
    return o


def psql(c: Cmd) -> None:
    _client(c, ("c", "command"), ("f", "file"), "cdfhpUvoLTFRP",
            ("command", "dbname", "file", "host", "port", "username", "variable", "set", "output", "log-file"))


def mysql(c: Cmd) -> None:
    _client(c, ("e", "execute"), (), "eDhPuSp", ("execute", "database", "host", "port", "user", "socket",
                                                 "init-command", "defaults-file", "defaults-extra-file"))


SQLITE_LONG_VALUES = ("cmd", "init", "separator", "newline", "nullvalue")


def sqlite3(c: Cmd) -> None:
    # sqlite3 spells its long options with one dash (`-cmd`, `-init`)
    args = ["-" + a if a.startswith("-") and a.lstrip("-").split("=")[0] in SQLITE_LONG_VALUES else a
            for a in c.args]
    o = c.opts("", SQLITE_LONG_VALUES, args=args)
    texts = list(o.all("cmd"))
    if o.value("init"):
        c.run_file(o.value("init"), "sqlite3 runs the commands of")
    operands = o.operands
    if operands:
        c.read(operands[0], "opens")
        texts.extend(operands[1:])
    if c.part is not None and c.part.stdin_code:
        texts.append(c.part.stdin_code)
    for text in texts:
        judge_sql(c, text, "sqlite3")
    if not texts:
        c.at_least(M, "sqlite3 opens a database session")


REDIS_RULES = (
    (lazy_re(r"^(flushall|flushdb|shutdown|debug|swapdb)$", re.I), D, "erases or stops the Redis server"),
    (lazy_re(r"^(config|module|script|eval|evalsha|fcall|function|slaveof|replicaof|migrate|acl|save|bgsave"
                r"|bgrewriteaof|failover|cluster)$", re.I), H, "changes Redis configuration or runs scripts"),
    (lazy_re(r"^(del|unlink|set|hset|lpush|rpush|sadd|zadd|expire|rename|incr|decr|hdel|srem|zrem|lpop|rpop"
                r"|mset|setex|getdel|persist|copy|move|restore|xadd|xdel|publish)$", re.I), M, "changes Redis data"),
)


def redis_cli(c: Cmd) -> None:
    o = c.opts("hpanuirdx", ("host", "port", "user", "pass", "eval", "rdb", "pipe-timeout"))
    if o.value("eval") is not None:
        c.at_least(H, "runs a Redis script")
    command = o.operands[0] if o.operands else None
    if command is None:
        c.at_least(M, "opens a Redis session")
        return
    for pattern, level, reason in REDIS_RULES:
        if pattern.match(command):
            c.at_least(level, f"{reason} ({command})")
            return
    c.at_least(L, "queries Redis")


def mongo(c: Cmd) -> None:
    o = c.opts("uph", ("eval", "file", "host", "port", "username", "password", "authenticationDatabase"))
    texts = o.all("eval")
    for text in texts:
        if re.search(r"dropDatabase|\.drop\(|deleteMany\(\s*\{\s*\}\s*\)|remove\(\s*\{\s*\}\s*\)", text):
            c.at_least(D, "drops or empties a MongoDB database or collection")
        elif re.search(r"\b(insert|update|delete|remove|drop|create|rename)", text, re.I):
            c.at_least(M, "changes MongoDB data")
        if re.search(r"\brun(Program|ProgramAndWait)?\s*\(|\b_runMongoProgram\b|\bsystem\s*\(", text):
            c.at_least(H, "runs a program from the MongoDB shell")
    scripts = [a for a in o.operands if a.endswith(".js")]
    for script in scripts:
        c.run_file(script, "mongo runs")
    c.at_least(L if texts else M, "queries MongoDB")


def dropdb(c: Cmd) -> None:
    c.at_least(D, f"{c.name} deletes a database or user")


def pg_restore(c: Cmd) -> None:
    c.at_least(H if any(a in ("-c", "--clean") for a in c.args) else M, "restores a database")


def dump(c: Cmd) -> None:
    c.at_least(M, f"{c.name} dumps a database")
    o = c.opts("fhpUdn", ("file", "host", "port", "username", "dbname", "result-file"))
    for out in o.all("f", "file", "result-file"):
        c.write(out)


RULES = {
    "psql": psql, "pgcli": psql, "mysql": mysql, "mariadb": mysql, "mycli": mysql, "sqlite3": sqlite3,
    "sqlite": sqlite3, "redis-cli": redis_cli, "valkey-cli": redis_cli, "keydb-cli": redis_cli,
    "mongo": mongo, "mongosh": mongo, "dropdb": dropdb, "dropuser": dropdb, "mysqladmin": lambda c: (
        c.at_least(D, "mysqladmin drop deletes a database") if "drop" in c.args else c.at_least(M, "administers mysql")),
    "pg_restore": pg_restore, "pg_dump": dump, "pg_dumpall": dump, "mysqldump": dump, "mongodump": dump,
    "cqlsh": lambda c: _client(c, ("e", "execute"), ("f", "file"), "efuk", ("execute", "file")),
    "sqlcmd": lambda c: _client(c, ("Q", "q"), ("i",), "QqiSUPd", ()),
    "clickhouse-client": lambda c: _client(c, ("q", "query"), (), "qhu", ("query", "host", "user")),
}
