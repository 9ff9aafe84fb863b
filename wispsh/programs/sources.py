"""Where code comes from: the package indexes and image registries everyone uses, and how to read the host out
of an index URL or an image name. Anything else is a foreign source: what it serves runs unreviewed."""
from __future__ import annotations

import os

from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import re

# The public indexes of the ecosystems, and the wheel indexes their projects document (PyTorch, NVIDIA).
KNOWN_INDEX_HOSTS = frozenset({
    "pypi.org", "pypi.python.org", "files.pythonhosted.org", "download.pytorch.org", "pypi.nvidia.com",
    "registry.npmjs.org", "registry.yarnpkg.com", "rubygems.org", "index.rubygems.org", "crates.io",
    "index.crates.io", "static.crates.io", "proxy.golang.org", "sum.golang.org", "conda.anaconda.org",
    "repo.anaconda.com", "repo.packagist.org", "packagist.org", "formulae.brew.sh", "deno.land", "jsr.io",
    "api.nuget.org", "nuget.org", "www.nuget.org",
})
# Registries of official and vendor images; a name without a host is Docker Hub.
KNOWN_REGISTRIES = frozenset({
    "docker.io", "registry-1.docker.io", "index.docker.io", "ghcr.io", "gcr.io", "quay.io", "registry.k8s.io",
    "k8s.gcr.io", "public.ecr.aws", "mcr.microsoft.com", "registry.gitlab.com", "nvcr.io", "docker.elastic.co",
    "cgr.dev", "registry.access.redhat.com", "registry.redhat.io", "localhost", "127.0.0.1",
})
KNOWN_REGISTRY_SUFFIXES = (".gcr.io", ".pkg.dev", ".amazonaws.com", ".azurecr.io")
# Helm chart repositories of the projects and vendors that publish their own charts (their install docs):
# any other is a source whose charts later installs apply to the cluster unread.
KNOWN_CHART_HOSTS = frozenset({
    "charts.bitnami.com", "charts.helm.sh", "helm.releases.hashicorp.com", "charts.jetstack.io",
    "kubernetes.github.io", "kubernetes-sigs.github.io", "prometheus-community.github.io", "grafana.github.io",
    "argoproj.github.io", "aws.github.io", "helm.cilium.io", "charts.gitlab.io", "helm.elastic.co",
    "traefik.github.io", "helm.traefik.io", "open-telemetry.github.io", "charts.external-secrets.io",
    "charts.crossplane.io", "helm.datadoghq.com", "helm.linkerd.io", "istio-release.storage.googleapis.com",
    "charts.min.io", "operator.min.io", "fluxcd-community.github.io", "charts.longhorn.io", "helm.goharbor.io",
    "kedacore.github.io", "dl.gitea.com", "charts.jenkins.io", "helm.nginx.com", "stakater.github.io",
    "oauth2-proxy.github.io", "bitnami-labs.github.io", "charts.rancher.io", "releases.rancher.com",
    "helm.ngc.nvidia.com", "nvidia.github.io", "open-policy-agent.github.io", "vmware-tanzu.github.io",
})


def host_of(url: str) -> str:
    """The host an index URL names (`https://user:pw@host:443/simple` -> `host`); "" when it names none."""
    text = url.strip().strip("'\"")
    for prefix in ("sparse+", "registry+", "git+"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    scheme, sep, rest = text.partition("://")
    if not sep:
        return ""
    host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.split(":", 1)[0].lower()


def index_is_known(url: str) -> bool:
    """Whether an index URL (or a bare host, as --trusted-host takes) is one of the public indexes."""
    host = host_of(url) or url.strip().split(":", 1)[0].lower()
    return UNKNOWN not in url and host in KNOWN_INDEX_HOSTS


def image_registry(image: str) -> str:
    """The registry an image name pulls from: the first component when it looks like a host, else docker.io."""
    first, sep, _ = image.partition("/")
    if sep and ("." in first or ":" in first or first == "localhost"):
        return first.split(":", 1)[0].lower()
    return "docker.io"


def registry_is_known(image: str) -> bool:
    registry = image_registry(image)
    return registry in KNOWN_REGISTRIES or registry.endswith(KNOWN_REGISTRY_SUFFIXES)


def official_image(image: str) -> bool:
    """A Docker Hub library image (`node:20`, `postgres`): no namespace, no host."""
    return "/" not in image.split("@", 1)[0]


# Registries whose every image is the vendor's own (no one else can publish there): like Docker Hub's library.
VENDOR_REGISTRIES = frozenset({"mcr.microsoft.com", "registry.k8s.io", "k8s.gcr.io", "docker.elastic.co", "nvcr.io",
                               "registry.access.redhat.com", "registry.redhat.io", "cgr.dev", "localhost",
                               "127.0.0.1"})
VENDOR_PREFIXES = ("docker.io/library/", "index.docker.io/library/", "registry-1.docker.io/library/",
                   "public.ecr.aws/docker/library/", "gcr.io/distroless/", "quay.io/podman/", "ghcr.io/github/")


def image_repository(image: str) -> str:
    """`ghcr.io/o/t:1@sha256:…` -> `ghcr.io/o/t`: the image without its tag and digest."""
    name = image.split("@", 1)[0]
    head, sep, last = name.rpartition("/")
    return (head + sep if sep else "") + last.split(":", 1)[0]


DOCKER_HUB_ALIASES = ("index.docker.io", "registry-1.docker.io")
# Variables that choose the daemon (and so the image store) docker and podman talk to.
IMAGE_STORE_VARIABLES = frozenset({"DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "CONTAINER_HOST",
                                   "CONTAINER_CONNECTION"})


def full_image_name(image: str) -> str:
    """The one name docker gives every spelling of an image: `acme/api` -> `docker.io/acme/api:latest`,
    `node:20` -> `docker.io/library/node:20`, `localhost:5000/x` -> `localhost:5000/x:latest`."""
    name, at, digest = image.partition("@")
    head, sep, last = name.rpartition("/")
    repository, colon, tag = last.partition(":")
    path = head + sep + repository
    first, slash, rest = path.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        registry, path = first.lower(), rest
        registry = "docker.io" if registry in DOCKER_HUB_ALIASES else registry
    else:
        registry = "docker.io"
    if registry == "docker.io" and "/" not in path:
        path = "library/" + path
    return f"{registry}/{path}:{tag if colon else 'latest'}" + (at + digest if at else "")


def pinned_image(image: str) -> bool:
    """An image named by its digest (`x@sha256:…`): what runs is exactly what was reviewed."""
    return "@sha256:" in image or "@sha512:" in image


def third_party_image(image: str) -> bool:
    """An image anyone may publish under a name of their own (`someuser/tool`, `ghcr.io/someone/tool`), as
    opposed to an official library image (`node:20`) or a vendor's registry (mcr.microsoft.com)."""
    if official_image(image):
        return False
    registry = image_registry(image)
    if registry in VENDOR_REGISTRIES:
        return False
    full = image if image.partition("/")[0] == registry or registry != "docker.io" else "docker.io/" + image
    return not full.startswith(VENDOR_PREFIXES)


# The project's own files that name where it ships and fetches images and packages from.
PROJECT_CONFIG = (".git/config", ".gitlab-ci.yml", "docker-compose.yml", "docker-compose.yaml", "compose.yml",
                  "compose.yaml", "Dockerfile", "Makefile", "justfile", "Taskfile.yml", "package.json", ".npmrc",
                  ".yarnrc.yml", "skaffold.yaml", "helmfile.yaml", "Chart.yaml", "fly.toml", "app.json",
                  "pyproject.toml", "bitbucket-pipelines.yml", ".circleci/config.yml", "cloudbuild.yaml")
PROJECT_CONFIG_DIRS = (".github/workflows", "deploy", "k8s")
MAX_CONFIG_BYTES = 256 * 1024


_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def project_names(ctx, word: str) -> bool:
    """Whether the project's own config (its git remotes, CI workflows, compose files, Makefile, .npmrc…) names
    `word` (a registry host, an image) as a whole name, in any case: then the project ships there already. The
    files are read as they are when the line is judged, once a line (a long line names many images)."""
    if not word or UNKNOWN in word:
        return False
    texts = ctx.read_once.get("project config")
    if texts is None:
        texts = ctx.read_once["project config"] = _project_config(ctx.project_root).lower()
    needle = word.lower()
    at = texts.find(needle)
    while at >= 0:
        if _whole_name(texts, at, at + len(needle)):
            return True
        at = texts.find(needle, at + 1)
    return False


def _whole_name(text: str, start: int, end: int) -> bool:
    """No name character right before text[start:end], none right after it (a `.` after it only when no name
    character follows the dot: `ghcr.io.` ends a sentence, `ghcr.io.evil` is another host)."""
    before = text[start - 1] if start > 0 else ""
    if before and (before in _NAME_CHARACTERS or before in "._-"):
        return False
    after, next_one = text[end:end + 1], text[end + 1:end + 2]
    return not (after and (after in _NAME_CHARACTERS or after in "_-" or
                           after == "." and next_one and next_one in _NAME_CHARACTERS))


def _project_config(root: str) -> str:
    """The project's config files' text, one after the other (a newline between: no name runs across two)."""
    texts = []
    paths = [os.path.join(root, name) for name in PROJECT_CONFIG]
    for folder in PROJECT_CONFIG_DIRS:
        try:
            names = sorted(os.listdir(os.path.join(root, folder)))[:64]
        except OSError:
            continue
        paths.extend(os.path.join(root, folder, n) for n in names if n.endswith((".yml", ".yaml")))
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                texts.append(fh.read(MAX_CONFIG_BYTES))
        except OSError:
            continue
    return "\n".join(texts)


# What every Python process imports before its own code, from each directory on PYTHONPATH.
PYTHON_STARTUP = ("sitecustomize.py", "usercustomize.py")


def python_startup_files(cmd) -> list[str]:
    """The sitecustomize/usercustomize files a Python process started by this command imports at start-up from
    the directories PYTHONPATH names (the line's own `PYTHONPATH=.` or the environment's)."""
    values = [a.value for a in (cmd.part.assignments if cmd.part is not None else ()) if a.name == "PYTHONPATH"]
    if not values and cmd.ctx.env.get("PYTHONPATH"):
        values = [cmd.ctx.env["PYTHONPATH"]]
    found = []
    for value in values:
        for folder in (value or "").split(":")[:16]:
            if folder and UNKNOWN not in folder:
                base = cmd.place(folder).path.rstrip("/")
                found.extend(f"{base}/{name}" for name in PYTHON_STARTUP)
    return found
