"""Where code comes from: the package indexes and image registries everyone uses, and how to read the host out
of an index URL or an image name. Anything else is a foreign source: what it serves runs unreviewed."""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN

# The public indexes of the ecosystems, and the wheel indexes their projects document (PyTorch, NVIDIA).
KNOWN_INDEX_HOSTS = frozenset({
    "pypi.org", "pypi.python.org", "files.pythonhosted.org", "download.pytorch.org", "pypi.nvidia.com",
    "registry.npmjs.org", "registry.yarnpkg.com", "rubygems.org", "index.rubygems.org", "crates.io",
    "index.crates.io", "static.crates.io", "proxy.golang.org", "sum.golang.org", "conda.anaconda.org",
    "repo.anaconda.com", "repo.packagist.org", "packagist.org", "formulae.brew.sh", "deno.land", "jsr.io",
})
# Registries of official and vendor images; a name without a host is Docker Hub.
KNOWN_REGISTRIES = frozenset({
    "docker.io", "registry-1.docker.io", "index.docker.io", "ghcr.io", "gcr.io", "quay.io", "registry.k8s.io",
    "k8s.gcr.io", "public.ecr.aws", "mcr.microsoft.com", "registry.gitlab.com", "nvcr.io", "docker.elastic.co",
    "cgr.dev", "registry.access.redhat.com", "registry.redhat.io", "localhost", "127.0.0.1",
})
KNOWN_REGISTRY_SUFFIXES = (".gcr.io", ".pkg.dev", ".amazonaws.com", ".azurecr.io")


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
