"""Containers, clusters and clouds: what escapes the container, what deletes data, what changes infrastructure."""
from __future__ import annotations


from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

DOCKER_GLOBAL_VALUES = frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "--tlscacert",
                                  "--tlscert", "--tlskey"})
DOCKER_READ_ONLY = frozenset({"ps", "images", "image ls", "logs", "inspect", "version", "info", "top", "stats",
                              "port", "diff", "history", "search", "events", "help", "container ls",
                              "container ps", "volume ls", "network ls", "volume inspect", "network inspect",
                              "image inspect", "container inspect", "context ls", "system df", "compose ps",
                              "compose logs", "compose config", "compose ls", "compose images", "compose top",
                              "buildx ls", "manifest inspect", "image history", "container logs",
                              "container top", "container port", "node ls", "service ls", "stack ls"})
RUN_VALUES = ("v", "volume", "mount", "e", "env", "env-file", "p", "publish", "name", "network", "net", "u",
              "user", "w", "workdir", "entrypoint", "cap-add", "cap-drop", "device", "pid", "ipc", "uts",
              "userns", "security-opt", "label", "l", "h", "hostname", "platform", "m", "memory", "cpus",
              "restart", "add-host", "dns", "gpus", "tmpfs", "log-driver", "log-opt", "ulimit", "cgroupns",
              "group-add", "runtime", "volumes-from", "pull", "expose", "health-cmd", "shm-size", "sysctl",
              "stop-signal", "init-path", "mac-address", "ip", "cidfile", "link", "detach-keys", "a", "attach")
SENSITIVE_MOUNTS = ("/", "/etc", "/root", "/var/run/docker.sock", "/run/docker.sock", "/proc", "/sys", "/dev",
                    "/boot", "/usr", "/var", "/home", "/var/lib/docker", "/run")


def docker(c: Cmd) -> None:
    args = c.args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in DOCKER_GLOBAL_VALUES else 1
    words = args[i:]
    if not words:
        return
    verb = words[0]
    rest = words[1:]
    two = f"{verb} {rest[0]}" if rest else verb
    if verb in ("--version", "version") or two in DOCKER_READ_ONLY or verb in DOCKER_READ_ONLY:
        return
    if verb in ("container", "image", "volume", "network", "system", "builder", "buildx", "compose", "context",
                "plugin", "secret", "config", "node", "service", "stack", "swarm", "trust", "manifest"):
        sub, rest = (rest[0], rest[1:]) if rest else ("", [])
    else:
        sub = ""
    if verb == "compose":
        _compose(c, sub, rest)
        return
    if verb in ("run", "create") or (verb == "container" and sub in ("run", "create")):
        _run(c, rest)
        return
    if verb == "exec" or (verb == "container" and sub == "exec"):
        c.at_least(M, f"{c.name} exec runs a command in a container")
        o = c.opts("euwi", ("env", "user", "workdir", "env-file", "detach-keys"), stop_at_operand=True, args=rest)
        inner = o.operands[1:]
        if o.has("privileged") or o.value("u", "user") in ("0", "root"):
            c.at_least(H, f"{c.name} exec runs as root or privileged")
        if inner and inner[0].rsplit("/", 1)[-1] in ("sh", "bash", "zsh", "ash", "dash") and "-c" in inner:
            c.at_least(H, f"{c.name} exec runs a shell command line inside the container")
        return
    if "prune" in (verb, sub):
        o = c.opts(args=rest)
        everything = o.has("a", "all")
        volumes = o.has("volumes") or verb == "volume" or sub == "volume" or (verb == "volume")
        if verb == "volume" or volumes:
            c.at_least(D, f"{c.name} prune deletes data volumes")
        elif everything:
            c.at_least(H, f"{c.name} prune -a deletes every unused image")
        else:
            c.at_least(H, f"{c.name} prune deletes stopped containers and dangling data")
        if verb == "system" and everything and volumes:
            c.at_least(D, "deletes all images, containers and volumes")
        return
    if verb in ("rm", "rmi", "kill") or sub in ("rm", "remove", "kill"):
        if verb == "volume" or (verb == "volume" and sub in ("rm", "remove")):
            c.at_least(D, f"{c.name} volume rm deletes data")
        else:
            c.at_least(H, f"{c.name} {two} deletes containers or images")
        if verb == "volume":
            c.at_least(D, f"{c.name} volume rm deletes data")
        return
    if verb in ("push",) or sub == "push":
        c.at_least(H, f"{c.name} push publishes an image")
        return
    if verb in ("login", "logout"):
        c.at_least(M, f"{c.name} {verb}")
        return
    if verb == "cp":
        c.at_least(M, f"{c.name} cp copies files into or out of a container")
        for word in rest:
            if ":" not in word.split("/", 1)[0]:
                c.write(word) if word == rest[-1] else c.read(word)
        return
    if verb in ("swarm", "node", "service", "stack", "secret", "config", "context", "plugin", "trust"):
        c.at_least(H, f"{c.name} {two} changes the cluster or daemon")
        return
    if verb in ("build", "buildx", "builder", "pull", "tag", "commit", "save", "load", "import", "export",
                "start", "stop", "restart", "pause", "unpause", "rename", "update", "wait", "attach",
                "network", "image", "container", "volume", "system"):
        c.at_least(M, f"{c.name} {two}")
        return
    c.at_least(M, f"{c.name} {two}")


def _run(c: Cmd, rest) -> None:
    o = c.opts("vepuwlhmaE", RUN_VALUES, stop_at_operand=True, args=rest)
    c.at_least(M, f"{c.name} runs a container")
    if o.has("privileged"):
        c.at_least(D, "a --privileged container can take over the host")
    for option in ("pid", "ipc", "uts", "userns", "network", "net", "cgroupns"):
        if o.value(option) == "host":
            c.at_least(H if option in ("network", "net") else D, f"shares the host's {option} namespace")
    for cap in o.all("cap-add"):
        if cap.upper() in ("ALL", "SYS_ADMIN", "SYS_PTRACE", "SYS_MODULE", "DAC_READ_SEARCH", "NET_ADMIN"):
            c.at_least(D, f"--cap-add={cap} lets the container reach the host")
    for opt in o.all("security-opt"):
        if "unconfined" in opt or "label=disable" in opt or "label:disable" in opt:
            c.at_least(H, f"--security-opt {opt} removes isolation")
    for device in o.all("device"):
        c.at_least(H, f"gives the container the device {device}")
        if device.split(":", 1)[0].startswith(places.DEVICE_PREFIXES):
            c.at_least(D, f"gives the container the raw disk {device.split(':', 1)[0]} (it can wipe it)")
    for spec in o.all("v", "volume") + [_mount_source(m) for m in o.all("mount")]:
        if not spec:
            continue
        source = spec.split(":", 1)[0] if not spec.startswith(UNKNOWN) else spec
        if not source.startswith(("/", "~", ".", "$", UNKNOWN)) and UNKNOWN not in source:
            continue        # a named volume
        where = c.place(source)
        read_only = spec.endswith((":ro", ":ro,z", ":ro,Z", ",ro", ":ro,shared")) or ",readonly" in spec
        if where.path in SENSITIVE_MOUNTS or where.cls in (places.ROOT, places.SYSTEM, places.HOME, places.ANCESTOR,
                                                           places.WISP, places.WISP_KEY, places.DEVICE):
            c.at_least(H if read_only and where.cls not in (places.ROOT,) else D,
                       f"mounts {where.path} ({where.cls}) into the container")
        elif where.cls in places.SECRET_CLASSES or where.cls == places.DOTFILE:
            c.at_least(H if read_only else D, f"mounts {where.path} ({where.cls}) into the container")
        elif where.whole_unknown:
            c.at_least(H, "mounts a directory known only at run time")
        elif where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.at_least(H, f"mounts {where.path} into the container")


def _mount_source(spec: str) -> str:
    fields = dict(part.split("=", 1) for part in spec.split(",") if "=" in part)
    source = fields.get("source") or fields.get("src") or ""
    if fields.get("type", "bind") != "bind":
        return ""
    return source + (":ro" if "readonly" in spec or "ro=true" in spec else "")


def _compose(c: Cmd, sub: str, rest) -> None:
    if sub in ("ps", "logs", "config", "ls", "images", "top", "version", "port"):
        return
    if sub == "down" and any(a in ("-v", "--volumes") for a in rest):
        c.at_least(H, "compose down -v deletes the project's volumes")
        return
    if sub in ("rm",):
        c.at_least(H, "compose rm deletes containers")
        return
    c.at_least(M, f"compose {sub} runs the project's containers")


KUBE_READ_ONLY = frozenset({"get", "describe", "logs", "explain", "version", "top", "api-resources",
                            "api-versions", "cluster-info", "diff", "auth", "wait", "events", "completion",
                            "plugin", "kustomize", "options", "help"})
KUBE_VALUES = ("n", "namespace", "context", "cluster", "user", "kubeconfig", "f", "filename", "l", "selector",
               "o", "output", "c", "container", "s", "server", "token", "as", "as-group", "field-selector",
               "grace-period", "timeout", "k", "kustomize", "image", "replicas", "type", "port")


def kubectl(c: Cmd) -> None:
    o = c.opts("nflocsk", KUBE_VALUES, stop_at_operand=True)
    words = o.operands
    if not words:
        return
    verb = words[0]
    rest = c.opts("nflocsk", KUBE_VALUES, args=words[1:])
    if any(a.startswith("--dry-run") and not a.endswith("=none") for a in c.args):
        c.at_least(L, f"kubectl {verb} --dry-run changes nothing")
        return
    if verb == "create" and rest.operands[:1] in (["clusterrolebinding"], ["rolebinding"]) and any(
            "cluster-admin" in a or a.endswith("=admin") for a in c.args):
        c.at_least(D, "grants cluster-admin")
        return
    if verb in KUBE_READ_ONLY:
        if verb in ("get",) and any(a in ("secret", "secrets") or a.startswith("secret/") for a in rest.operands):
            c.facts.secret_source = "prints cluster secrets"
            c.at_least(M, "reads cluster secrets")
        else:
            c.at_least(L, f"kubectl {verb} reads the cluster")
        return
    if verb == "config":
        sub = rest.operands[0] if rest.operands else ""
        if sub in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            return
        c.at_least(M, f"kubectl config {sub} changes your kubeconfig")
        return
    if verb == "delete":
        c.at_least(H, "kubectl delete removes cluster resources")
        kinds = [a.lower() for a in rest.operands]
        if rest.has("all", "A", "all-namespaces") or any(k in ("namespace", "namespaces", "ns", "node", "nodes",
                                                                "pv", "persistentvolume", "pvc", "crd",
                                                                "persistentvolumeclaim", "all")
                                                          or k.startswith(("namespace/", "ns/", "node/"))
                                                          for k in kinds):
            c.at_least(D, "kubectl delete of everything, a namespace, nodes or volumes")
        return
    if verb in ("exec", "attach", "cp", "port-forward", "proxy", "debug", "run"):
        c.at_least(H, f"kubectl {verb} runs or reaches into a workload")
        return
    if verb in ("drain", "cordon", "uncordon", "taint", "certificate"):
        c.at_least(H, f"kubectl {verb} changes nodes")
        return
    if verb == "rollout" and rest.operands[:1] in (["status"], ["history"]):
        c.at_least(L, "reads rollout state")
        return
    c.at_least(H, f"kubectl {verb} changes the cluster")


def helm(c: Cmd) -> None:
    verb = next((a for a in c.args if not a.startswith("-")), None)
    if verb in (None, "list", "ls", "status", "get", "history", "show", "inspect", "search", "template", "lint",
                "version", "env", "help", "verify", "dependency"):
        return
    if verb == "repo" and "add" in c.args:
        c.at_least(H, "helm repo add adds a chart source")
        return
    if verb in ("uninstall", "delete", "del", "un"):
        c.at_least(H, "helm uninstall removes a release")
        return
    c.at_least(H, f"helm {verb} changes the cluster")


def terraform(c: Cmd) -> None:
    words = [a for a in c.args if not a.startswith("-chdir")]
    verb = next((a for a in words if not a.startswith("-")), None)
    rest = words[words.index(verb) + 1:] if verb else []
    if verb in (None, "version", "validate", "fmt", "show", "output", "providers", "graph", "console", "help",
                "-version", "workspace", "get", "login", "logout", "metadata", "modules", "test"):
        if verb == "workspace" and rest[:1] in (["delete"],):
            c.at_least(H, "deletes a workspace")
        if verb == "test":
            c.at_least(M, f"{c.name} test creates real infrastructure")
        return
    if verb in ("init", "plan", "refresh"):
        c.at_least(M, f"{c.name} {verb} runs providers and reads remote state")
        if any(a.startswith("-destroy") for a in rest):
            return
        return
    if verb == "destroy" or (verb == "apply" and any(a in ("-destroy", "--destroy") for a in rest)):
        c.at_least(D, f"{c.name} destroys infrastructure")
        return
    if verb in ("apply", "import", "taint", "untaint", "force-unlock", "state"):
        if verb == "state" and rest[:1] in (["list"], ["show"], ["pull"]):
            c.at_least(L, "reads state")
            return
        c.at_least(H, f"{c.name} {verb} changes infrastructure or its state")
        return
    c.at_least(M, f"{c.name} {verb}")


def pulumi(c: Cmd) -> None:
    verb = c.args[0] if c.args else None
    if verb in ("destroy", "down"):
        c.at_least(D, "pulumi destroy deletes infrastructure")
    elif verb in ("up", "update", "import", "refresh", "cancel", "state"):
        c.at_least(H, f"pulumi {verb} changes infrastructure")
    elif verb in ("preview", "pre"):
        c.at_least(M, "pulumi preview runs the program")
    elif verb in (None, "version", "whoami", "about", "stack") and not (verb == "stack" and "rm" in c.args):
        return
    else:
        c.at_least(M, f"pulumi {verb}")


_AWS_READ = lazy_re(r"^(describe|list|get|show|head|lookup|search|batch-get|filter|preview|validate|check|test|tail"
                       r"|estimate|scan|query|select|wait)")
_AWS_DESTROY_ALL = lazy_re(r"^(delete-bucket|delete-db-cluster|delete-db-instance|delete-table|delete-stack"
                              r"|terminate-instances|delete-cluster|delete-repository|delete-file-system"
                              r"|delete-hosted-zone|delete-user|delete-role|delete-account|delete-vault"
                              r"|delete-key|schedule-key-deletion|delete-secret|delete-volume|deregister)")


def aws(c: Cmd) -> None:
    words = []
    i = 0
    args = c.args
    while i < len(args):
        if args[i] in ("--profile", "--region", "--output", "--endpoint-url", "--query", "--color",
                       "--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle"):
            i += 2
            continue
        if not args[i].startswith("-"):
            words.append(args[i])
        i += 1
    service = words[0] if words else ""
    action = words[1] if len(words) > 1 else ""
    flags = set(args)
    if service in ("", "help", "--version"):
        return
    if service == "configure":
        if action in ("list", "get", "list-profiles", "export-credentials"):
            if action == "export-credentials":
                c.facts.secret_source = "prints AWS credentials"
                c.at_least(H, "prints AWS credentials")
            return
        c.at_least(H, "aws configure changes your credentials")
        return
    if service == "s3":
        if action in ("ls", "presign"):
            c.at_least(L, "lists S3")
        elif action in ("rm", "rb"):
            c.at_least(H, f"aws s3 {action} deletes objects")
            if "--recursive" in flags or "--force" in flags:
                c.at_least(D, f"aws s3 {action} deletes a whole bucket's objects")
        elif action in ("cp", "mv", "sync"):
            c.at_least(H, f"aws s3 {action} copies to or from S3")
            if "--delete" in flags or action == "mv":
                c.at_least(H, f"aws s3 {action} deletes files")
            local = [w for w in words[2:] if not w.startswith("s3://")]
            remote_dest = len(words) > 3 and words[-1].startswith("s3://")
            if remote_dest:
                c.facts.net_send = True
                for word in local:
                    where = c.read(word, "uploads")
                    if where.cls in places.SECRET_CLASSES or where.cls in (places.HOME, places.ROOT):
                        c.at_least(D, f"uploads {where.cls} to S3")
        elif action == "mb":
            c.at_least(H, "creates a bucket")
        return
    if service == "sts" and action == "get-caller-identity":
        return
    if service == "secretsmanager" and action == "get-secret-value" or service == "ssm" and \
            action == "get-parameter" and "--with-decryption" in flags:
        c.facts.secret_source = "prints cloud secrets"
        c.at_least(M, "reads cloud secrets")
        return
    if _AWS_READ.match(action):
        c.at_least(L, f"aws {service} {action} reads the cloud account")
        return
    if _AWS_DESTROY_ALL.match(action):
        c.at_least(D, f"aws {service} {action} destroys cloud resources")
        return
    if action.startswith(("delete", "remove", "terminate", "purge", "disable", "detach", "revoke", "stop",
                          "cancel", "reset", "reboot", "deregister")):
        c.at_least(H, f"aws {service} {action} removes or stops cloud resources")
        return
    c.at_least(H, f"aws {service} {action} changes the cloud account")


def gcloud_like(c: Cmd) -> None:
    words = [a for a in c.args if not a.startswith("-")]
    if not words or words[0] in ("version", "help", "info", "--version", "account", "auth") and (
            len(words) < 2 or words[1] in ("list", "show", "print-access-token", "print-identity-token")):
        if len(words) > 1 and words[1].startswith("print-"):
            c.facts.secret_source = "prints an access token"
            c.at_least(M, "prints an access token")
        return
    last = words[-1] if words else ""
    verbs = set(words)
    if verbs & {"delete", "destroy", "rm", "remove", "purge"}:
        if verbs & {"projects", "project", "group", "cluster", "clusters", "sql", "instances", "buckets",
                    "account", "storage", "database", "databases", "subscription"}:
            c.at_least(D, f"{c.name} deletes a whole project, cluster, database or group")
        else:
            c.at_least(H, f"{c.name} deletes cloud resources")
        return
    if verbs & {"list", "describe", "show", "get", "ls", "read", "cat", "logs", "status", "whoami"}:
        c.at_least(L, f"{c.name} reads the cloud account")
        return
    c.at_least(H, f"{c.name} changes the cloud account")


RULES = {
    "docker": docker, "podman": docker, "nerdctl": docker, "docker-compose": lambda c: _compose(
        c, c.args[0] if c.args else "", c.args[1:]), "podman-compose": lambda c: _compose(
        c, c.args[0] if c.args else "", c.args[1:]),
    "kubectl": kubectl, "oc": kubectl, "k": kubectl, "minikube": lambda c: c.at_least(M, "changes minikube"),
    "helm": helm, "terraform": terraform, "tofu": terraform, "terragrunt": terraform, "pulumi": pulumi,
    "aws": aws, "gcloud": gcloud_like, "gsutil": gcloud_like, "az": gcloud_like, "doctl": gcloud_like,
    "flyctl": gcloud_like, "fly": gcloud_like, "heroku": gcloud_like, "vercel": gcloud_like,
    "netlify": gcloud_like, "firebase": gcloud_like, "wrangler": gcloud_like, "eksctl": gcloud_like,
}
