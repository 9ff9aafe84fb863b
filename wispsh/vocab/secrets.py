"""Secrets carried in variables: which names hold a credential, which service each belongs to, and where a
request sends it. Sending a token to its own service is using it (high); anywhere else, leaking it."""
from __future__ import annotations

from wispsh.support.lazyre import lazy_re

SECRET_NAME = lazy_re(r"(?:TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|_PAT$"
                      r"|^PAT$|AUTH_?KEY|SESSION_?KEY|CLIENT_?SECRET|SIGNING_?KEY|WEBHOOK_?URL|DSN$|KUBECONFIG_DATA)",
                      0)
# `$NAME`, `${NAME}`, `${NAME:-…}`; not `${NAME:+…}` or `${#NAME}`, which say nothing of the value.
VARIABLE = lazy_re(r"\$(?:\{(?!#)([A-Za-z_][A-Za-z0-9_]*)(?!:\+)|([A-Za-z_][A-Za-z0-9_]*))")
URL_HOST = lazy_re(r"(?:https?|wss?|ftp)://(?:[^@/\s'\"]*@)?([A-Za-z0-9.-]+)", 0)
# (the ECS credentials path is where the credentials are, not one: asking for them is net.cloud-credentials)
HARMLESS_NAMES = frozenset({"TOKEN_URL", "TOKEN_FILE", "PASSWORD_FILE", "SECRET_FILE", "KEY_FILE",
                            "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"})

# A variable's name prefix -> the hosts of the service it is a credential for.
SERVICES = {
    "GITHUB_": ("github.com", "api.github.com", "uploads.github.com", "ghcr.io", "githubusercontent.com"),
    "GH_": ("github.com", "api.github.com", "uploads.github.com", "ghcr.io"),
    "GITLAB_": ("gitlab.com",), "CI_JOB_": ("gitlab.com",),
    "BITBUCKET_": ("bitbucket.org", "api.bitbucket.org"),
    "OPENAI_": ("api.openai.com",), "ANTHROPIC_": ("api.anthropic.com",), "HF_": ("huggingface.co",),
    "HUGGINGFACE_": ("huggingface.co",), "NPM_": ("registry.npmjs.org",), "PYPI_": ("upload.pypi.org", "pypi.org"),
    "TWINE_": ("upload.pypi.org", "pypi.org"), "CARGO_REGISTRY_": ("crates.io",), "DOCKER_": ("docker.io",
                                                                                              "registry-1.docker.io"),
    "SLACK_": ("slack.com", "hooks.slack.com"), "STRIPE_": ("api.stripe.com",), "SENTRY_": ("sentry.io",),
    "CLOUDFLARE_": ("api.cloudflare.com",), "CF_": ("api.cloudflare.com",), "VERCEL_": ("api.vercel.com",),
    "NETLIFY_": ("api.netlify.com",), "HEROKU_": ("api.heroku.com",), "DIGITALOCEAN_": ("api.digitalocean.com",),
    "DO_": ("api.digitalocean.com",), "AWS_": ("amazonaws.com",), "GOOGLE_": ("googleapis.com",),
    "GCP_": ("googleapis.com",), "AZURE_": ("azure.com", "windows.net", "microsoft.com"),
    "CIRCLECI_": ("circleci.com",), "LINEAR_": ("api.linear.app",), "NOTION_": ("api.notion.com",),
    "DATADOG_": ("datadoghq.com",), "DD_": ("datadoghq.com",), "TWILIO_": ("api.twilio.com",),
    "SENDGRID_": ("api.sendgrid.com",), "MISTRAL_": ("api.mistral.ai",), "GROQ_": ("api.groq.com",),
    "GEMINI_": ("generativelanguage.googleapis.com",), "REPLICATE_": ("api.replicate.com",),
}


def secret_variables(text: str) -> list[str]:
    """The secret-named variables whose value `text` uses, in order."""
    if "$" not in text:
        return []
    found = []
    for m in VARIABLE.finditer(text):
        name = m.group(1) or m.group(2)
        if name not in found and name not in HARMLESS_NAMES and SECRET_NAME.search(name):
            found.append(name)
    return found


def hosts(words) -> list[str]:
    return [m.group(1).lower() for word in words if word and "://" in word for m in URL_HOST.finditer(word)]


# Programs that talk to one service unless told otherwise (`gh api …` goes to api.github.com).
PROGRAM_HOSTS = {"gh": "api.github.com", "hub": "api.github.com", "glab": "gitlab.com"}
HOST_OPTIONS = ("--hostname", "--host", "GH_HOST=", "GITLAB_HOST=", "GH_ENTERPRISE_TOKEN=")


def program_hosts(program: str, words) -> list[str]:
    """The host a program's request goes to when no URL names it: its own service, unless it is pointed at
    another (`gh api --hostname HOST`, GH_HOST: then nothing is known)."""
    home = PROGRAM_HOSTS.get(program)
    if home is None or any(w and w.startswith(HOST_OPTIONS) for w in words):
        return []
    return [home]


def belongs_to(name: str, host: str) -> bool:
    """Whether `host` is the service the credential `name` is for (api.github.com for GITHUB_TOKEN)."""
    for prefix, homes in SERVICES.items():
        if name.startswith(prefix):
            return any(host == home or host.endswith("." + home) for home in homes)
    return False


# The instance metadata services that hand a machine's (or a pod's, a task's, a CI job's) credentials to whoever
# asks from it: AWS IMDS (and its IPv6 address, and IMDSv2's session token), ECS and EKS pod identity, GCP,
# Azure's managed identity, Alibaba's RAM role, OpenStack's password, GKE's kube-env, GitHub Actions' OIDC token.
# Reading one is reading a secret (levels.md: cloud credentials); sent on, a leak.
CLOUD_CREDENTIALS = lazy_re(
    r"(?:169\.254\.169\.254|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata\.goog|100\.100\.100\.200)"
    r"(?::\d+)?/\S*?(?:security-credentials|identity-credentials|service-accounts|oauth2/token|identity/oauth2"
    r"|/token\b|api/token|user-data|userdata|/password|kube-env|/identity\b)"
    r"|169\.254\.170\.(?:2|23)(?::\d+)?/v\d/credentials|AWS_CONTAINER_CREDENTIALS_(?:RELATIVE|FULL)_URI"
    r"|\$\{?(?:IDENTITY_ENDPOINT|MSI_ENDPOINT|ACTIONS_ID_TOKEN_REQUEST_URL)\b", 0)


def cloud_credentials(texts) -> str | None:
    """The first text that asks a metadata service for credentials (`169.254.169.254/…/security-credentials/r`)."""
    for text in texts:
        if text and ("169.254." in text or "metadata" in text or "fd00:ec2" in text or "100.100.100.200" in text
                     or "_URI" in text or "ENDPOINT" in text or "ACTIONS_ID" in text):
            if CLOUD_CREDENTIALS.search(text):
                return text
    return None

