"""Database migration tools and ORM command lines (prisma, drizzle-kit, rails and rake's db: tasks, alembic,
flyway, liquibase, knex, sequelize, typeorm, mikro-orm, dbmate, sqlx, diesel, atlas, mix ecto, supabase): which
of their verbs drop or reset the database (its data is gone: like `dropdb`), which change its schema or data,
which only write the project's migration files, and which read. Each tool is a table of verb paths, from its
own command reference."""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb

# kind name -> (effect kind, what it says)
KINDS = {
    "drops": ("destroy", "{cmd} drops or resets the database: the data in it is gone"),
    "data": ("data", "{cmd} changes the database's schema or data"),
    "files": ("change", "{cmd} writes the project's migration, schema or generated files"),
    "seed": ("run-project", "{cmd} runs the project's seed scripts against the database"),
    "state": ("inspect", "{cmd} reads the database's migration state"),
    "serve": ("serve", "{cmd} serves a browser for the database on a port"),
    "runs": ("run-project", "{cmd} runs the project's tasks"),
    "session": ("session", "{cmd} opens a console on the project or its database"),
    "publish": ("publish", "{cmd} publishes or deploys"),
    "secret": ("secret", "{cmd} prints the project's credentials"),
}


def _rule_id(name: str, path: str) -> str:
    return f"{name}." + path.replace(" ", ".").replace(":", ".")


def migrator(name: str, table: dict, *, doc: str, forced: dict | None = None, reads=(), aliases=(),
             values=(), default: str = "data", hook=None, grammar: Grammar | None = None) -> Program:
    """A program from `table` (verb path, as typed, -> kind name). `forced`: verb path -> (flags, kind) when
    those flags make the verb worse (`db push --force-reset` drops the data). `reads`: verbs that only read or
    print. `default`: the kind of a verb the table does not list."""
    forced = forced or {}
    tree: dict = {}
    for path, kind in table.items():
        node = tree
        words = path.split(" ")
        for word in words[:-1]:
            node = node.setdefault(word, {})
        node[words[-1]] = (path, kind)
    grammar = grammar or Grammar(long_values=tuple(values),
                                 longs=tuple(f.lstrip("-") for flags, _ in forced.values() for f in flags))

    def build(node: dict, prefix: str) -> dict:
        verbs = {}
        for word, child in node.items():
            if isinstance(child, tuple):
                path, kind = child
                does, says = KINDS[kind]
                rows = []
                if path in forced:
                    flags, worse = forced[path]
                    worse_does, worse_says = KINDS[worse]
                    rows.append(Row(_rule_id(name, path) + ".forced", worse_does, worse_says + f" ({flags[0]})",
                                    When(flag=tuple(f.lstrip("-") for f in flags)),
                                    examples=(f"{name} {path} {flags[0]}",)))
                rows.append(Row(_rule_id(name, path), does, says, examples=(f"{name} {path}",)))
                verbs[word] = verb(grammar=grammar, rows=tuple(rows))
            else:
                path = f"{prefix} {word}".strip()
                verbs[word] = verb(grammar=grammar, verbs=build(child, path), default=Row(
                    _rule_id(name, path) + ".verb", "unknown", "{cmd}", examples=(f"{name} {path} frobnicate",)))
        return verbs

    does, says = KINDS[default]
    return Program(name, aliases=aliases, doc=doc, grammar=grammar, verbs=build(tree, ""), read_only=reads,
                   hook=hook, default=Row(f"{name}.verb", does, says if default != "data" else "{cmd} (a verb the "
                                          "gate does not know: it may change the database)",
                                          examples=(f"{name} frobnicate",)))


VERSIONS = ("--version", "-v", "-V", "version", "--help", "-h", "help")

# prisma.io/docs/orm/reference/prisma-cli-reference
PRISMA = migrator("prisma", {
    "init": "files", "generate": "files", "format": "files", "db pull": "files", "db push": "data",
    "db seed": "seed", "db execute": "data", "migrate dev": "data", "migrate reset": "drops", "migrate deploy": "data",
    "migrate resolve": "data", "migrate status": "state", "migrate diff": "state", "studio": "serve",
}, forced={"db push": (("--force-reset", "--accept-data-loss"), "drops")},
    reads=VERSIONS + ("validate", "debug"), values=("schema",), doc="the Prisma ORM's command line")
# orm.drizzle.team/docs/kit-overview: `push --force` approves every data-loss statement
DRIZZLE_KIT = migrator("drizzle-kit", {
    "generate": "files", "migrate": "data", "push": "data", "pull": "files", "introspect": "files", "up": "files",
    "drop": "files", "studio": "serve",
}, forced={"push": (("--force",), "drops")}, reads=VERSIONS + ("check", "export"), values=("config",),
    doc="Drizzle ORM's migration kit")
# supabase.com/docs/reference/cli
SUPABASE = migrator("supabase", {
    "db reset": "drops", "db push": "data", "db pull": "files", "db diff": "state", "db dump": "state",
    "db lint": "state", "db start": "runs", "migration up": "data", "migration down": "data",
    "migration repair": "data", "migration squash": "files", "migration new": "files", "migration list": "state",
    "start": "runs", "stop": "runs", "functions deploy": "publish", "functions serve": "serve", "gen types": "files",
    "seed buckets": "seed", "projects delete": "drops", "branches delete": "drops", "init": "files",
    "link": "files",
}, forced={"db push": (("--include-all",), "data")}, reads=VERSIONS + ("status", "projects list", "services"),
    default="runs", doc="Supabase's command line")

# guides.rubyonrails.org/command_line.html and the db: tasks of Active Record (rails and rake share them)
RAILS_DB = {
    "db:drop": "drops", "db:drop:all": "drops", "db:reset": "drops", "db:purge": "drops", "db:purge:all": "drops",
    "db:migrate:reset": "drops", "db:schema:load": "drops", "db:structure:load": "drops", "db:truncate_all": "drops",
    "db:seed:replant": "drops", "db:fixtures:load": "data", "db:migrate": "data", "db:rollback": "data",
    "db:migrate:redo": "data", "db:migrate:up": "data", "db:migrate:down": "data", "db:create": "data",
    "db:setup": "data", "db:prepare": "data", "db:seed": "seed", "db:migrate:status": "state", "db:version": "state",
    "db:schema:dump": "files", "credentials:show": "secret", "credentials:edit": "files", "secret": "state",
}
RAILS = migrator("rails", {
    **RAILS_DB, "server": "serve", "s": "serve", "console": "session", "c": "session", "dbconsole": "session",
    "db": "session", "generate": "files", "g": "files", "destroy": "files", "d": "files", "new": "files",
    "test": "runs", "t": "runs", "assets:precompile": "runs",
}, reads=VERSIONS + ("routes", "about", "stats", "notes", "middleware", "initializers", "time:zones"),
    default="runs", doc="Ruby on Rails' command line")


@emits({"rake.code": ["rake -e 'system(\"id\")'", "rake -p 'File.read(\"x\")'", "rake --execute-print=1"],
        "rake.code-runtime": ['rake -e "$X"'], "rake.rakefile": ["rake -f /tmp/Rakefile build"]})
def rake_options(cmd, o) -> None:
    """rake -e/-p/-E CODE runs Ruby code it is given (GTFOBins' rake); -f FILE runs that Rakefile's tasks."""
    for code in o.all("e", "execute", "p", "execute-print", "E", "execute-continue"):
        if UNKNOWN in code:
            cmd.does("run-code", "rake.code-runtime", "rake runs Ruby code known only at run time")
        else:
            cmd.does("run-code", "rake.code", f"rake runs the Ruby code it is given ({code[:40]})")
    for rakefile in o.all("f", "rakefile"):
        cmd.fired.add("rake.rakefile")
        cmd.run_file(rakefile, "rake runs the tasks of")


RAKE = migrator("rake", RAILS_DB, reads=VERSIONS, default="runs", hook=rake_options,
                grammar=Grammar(values="epEfIRj", long_values=("execute", "execute-print", "execute-continue",
                                                               "rakefile", "libdir", "rakelibdir", "jobs")),
                doc="Ruby's make: the Rakefile's tasks (and db: tasks)")
@emits({"alembic.downgrade.base": ["alembic downgrade base", "alembic -c x.ini downgrade base"]})
def alembic_base(cmd, o) -> None:
    """`alembic downgrade base` undoes every migration: the tables they made are dropped with their data."""
    if o.operands[:2] == ["downgrade", "base"]:
        cmd.does("destroy", "alembic.downgrade.base", "alembic downgrade base undoes every migration: the tables "
                                                      "they made are dropped")


# alembic.sqlalchemy.org/en/latest/api/commands.html: `downgrade base` undoes every migration
ALEMBIC = migrator("alembic", {
    "upgrade": "data", "downgrade": "data", "stamp": "data", "revision": "files", "merge": "files", "init": "files",
    "edit": "files", "ensure_version": "data",
}, reads=VERSIONS + ("current", "history", "heads", "branches", "show", "check", "list_templates"),
    grammar=Grammar(values="cnx", long_values=("config", "name")), hook=alembic_base,
    doc="SQLAlchemy's migration tool")
# documentation.red-gate.com/flyway/reference/commands
FLYWAY = migrator("flyway", {"clean": "drops", "migrate": "data", "baseline": "data", "repair": "data",
                             "undo": "data", "info": "state", "validate": "state", "check": "state"},
                  reads=VERSIONS, doc="Flyway database migrations")
# docs.liquibase.com/commands
LIQUIBASE = migrator("liquibase", {
    "drop-all": "drops", "dropAll": "drops", "update": "data", "rollback": "data", "rollback-count": "data",
    "rollbackCount": "data", "rollback-to-date": "data", "execute-sql": "data", "status": "state", "history": "state",
    "diff": "state", "validate": "state", "generate-changelog": "files", "generateChangeLog": "files",
}, reads=VERSIONS, doc="Liquibase database migrations")
# knexjs.org/guide/migrations.html: `migrate:rollback --all` undoes every migration
KNEX = migrator("knex", {
    "migrate:latest": "data", "migrate:up": "data", "migrate:down": "data", "migrate:rollback": "data",
    "migrate:unlock": "data", "migrate:make": "files", "seed:make": "files", "seed:run": "seed", "init": "files",
    "migrate:status": "state", "migrate:list": "state", "migrate:currentVersion": "state",
}, forced={"migrate:rollback": (("--all",), "drops")}, reads=VERSIONS, doc="Knex.js migrations")
# sequelize.org/docs/v6/other-topics/migrations (sequelize-cli)
SEQUELIZE = migrator("sequelize", {
    "db:drop": "drops", "db:migrate:undo:all": "drops", "db:seed:undo:all": "data", "db:create": "data",
    "db:migrate": "data", "db:migrate:undo": "data", "db:seed:all": "seed", "db:seed": "seed",
    "db:seed:undo": "data", "db:migrate:status": "state", "init": "files", "model:generate": "files",
    "migration:generate": "files", "seed:generate": "files",
}, aliases=("sequelize-cli",), reads=VERSIONS, doc="Sequelize's command line")
# typeorm.io/docs/advanced-topics/using-cli
TYPEORM = migrator("typeorm", {
    "schema:drop": "drops", "schema:sync": "data", "migration:run": "data", "migration:revert": "data",
    "query": "data", "cache:clear": "data", "migration:generate": "files", "migration:create": "files",
    "entity:create": "files", "subscriber:create": "files", "init": "files", "migration:show": "state",
}, reads=VERSIONS + ("schema:log",), doc="TypeORM's command line")
# mikro-orm.io/docs/installation#setting-up-the-commandline-tool
MIKRO_ORM = migrator("mikro-orm", {
    "schema:drop": "drops", "schema:fresh": "drops", "migration:fresh": "drops", "database:drop": "drops",
    "schema:create": "data", "schema:update": "data", "migration:up": "data", "migration:down": "data",
    "database:create": "data", "database:import": "data", "seeder:run": "seed", "migration:create": "files",
    "generate-entities": "files", "migration:list": "state", "migration:pending": "state", "migration:check": "state",
}, reads=VERSIONS + ("debug",), doc="MikroORM's command line")
# github.com/amacneil/dbmate
DBMATE = migrator("dbmate", {"drop": "drops", "create": "data", "up": "data", "migrate": "data", "rollback": "data",
                             "down": "data", "load": "data", "new": "files", "dump": "files", "status": "state",
                             "wait": "state"}, reads=VERSIONS, doc="dbmate database migrations")
# github.com/launchbadge/sqlx/tree/main/sqlx-cli
SQLX = migrator("sqlx", {"database drop": "drops", "database reset": "drops", "database create": "data",
                         "database setup": "data", "migrate run": "data", "migrate revert": "data",
                         "migrate add": "files", "migrate info": "state", "prepare": "files"},
                reads=VERSIONS, doc="SQLx's command line")
# diesel.rs/guides/getting-started
DIESEL = migrator("diesel", {"database reset": "drops", "database drop": "drops", "database setup": "data",
                             "setup": "data", "migration run": "data", "migration revert": "data",
                             "migration redo": "data", "migration generate": "files", "migration list": "state",
                             "print-schema": "state"}, reads=VERSIONS, doc="Diesel's command line")
# atlasgo.io/cli-reference
ATLAS = migrator("atlas", {"schema clean": "drops", "schema apply": "data", "migrate apply": "data",
                           "migrate down": "data", "schema inspect": "state", "schema diff": "state",
                           "migrate diff": "files", "migrate new": "files", "migrate hash": "files",
                           "migrate status": "state", "migrate lint": "state"},
                 reads=VERSIONS, doc="Atlas schema management")
# hexdocs.pm/ecto/Mix.Tasks.Ecto.html, hexdocs.pm/hex/Mix.Tasks.Hex.Publish.html: the rest are project tasks
MIX = migrator("mix", {
    "ecto.drop": "drops", "ecto.reset": "drops", "ecto.create": "data", "ecto.migrate": "data",
    "ecto.rollback": "data", "ecto.load": "data", "ecto.setup": "data", "ecto.gen.migration": "files",
    "ecto.migrations": "state", "hex.publish": "publish", "hex.owner": "publish", "hex.retire": "publish",
    "phx.server": "serve", "test": "runs", "compile": "runs", "run": "runs",
}, reads=VERSIONS + ("hex.info", "hex.outdated", "deps.tree"),
    default="runs", doc="Elixir's build tool: project tasks, ecto's database tasks, hex publishing")

PROGRAMS = programs(PRISMA, DRIZZLE_KIT, SUPABASE, RAILS, RAKE, ALEMBIC, FLYWAY, LIQUIBASE, KNEX, SEQUELIZE, TYPEORM,
                    MIKRO_ORM, DBMATE, SQLX, DIESEL, ATLAS, MIX)
