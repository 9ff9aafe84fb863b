"""The one HTTP call to the configured model: the standard library's http.client, no proxy from the environment
(a line's own HTTPS_PROXY cannot send the question elsewhere), the key read from the variable config names.

The URL comes only from config.json in the wisp home. The caller bounds the whole call by the timeout (the
socket timeout bounds each step, a thread the whole: a name lookup is not bounded by the socket).
"""
from __future__ import annotations

import os

MAX_RESPONSE_BYTES = 256 * 1024
USER_AGENT = "wispsh-classifier"


class ClientError(Exception):
    """The call did not give a response to read (the text says why, in a few words, for the audit)."""


def endpoint(url: str, provider: str, what: str = "chat") -> tuple[str, str, int | None, str]:
    """(scheme, host, port, path) of the chat endpoint (or, `what="models"`, the model list) under `url`.

    `url` is the API base as the provider documents it (https://api.openai.com/v1, http://127.0.0.1:11434/v1,
    https://api.anthropic.com), or the chat endpoint itself."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    if provider == "anthropic":
        base = path[: -len("/messages")] if path.endswith("/messages") else path
        base = base if base.endswith("/v1") else base + "/v1"
        path = base + ("/models" if what == "models" else "/messages")
    else:
        base = path[: -len("/chat/completions")] if path.endswith("/chat/completions") else path
        path = base + ("/models" if what == "models" else "/chat/completions")
    return parts.scheme, parts.hostname or "", parts.port, path + query


def headers(provider: str, key_env: str | None, environ=None) -> dict[str, str]:
    """The request's headers. The key is read from the environment of the process making the call (under
    `wisp run` the supervisor's, not the agent's); a missing variable means no key is sent."""
    environ = os.environ if environ is None else environ
    key = environ.get(key_env) if key_env else None
    out = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "Accept": "application/json"}
    if provider == "anthropic":
        from wispsh.classifier.request import ANTHROPIC_VERSION

        out["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            out["x-api-key"] = key
    elif key:
        out["Authorization"] = f"Bearer {key}"
    return out


def call(settings, body: bytes | None, *, what: str = "chat", timeout: float | None = None,
         environ=None) -> tuple[int, bytes]:
    """POST `body` to the chat endpoint (GET the model list when body is None): (status, response body)."""
    import http.client
    import socket

    scheme, host, port, path = endpoint(settings.url, settings.provider, what)
    timeout = settings.timeout if timeout is None else timeout
    if scheme == "https":
        import ssl

        conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET" if body is None else "POST", path, body=body,
                     headers=headers(settings.provider, settings.api_key_env, environ))
        response = conn.getresponse()
        data = response.read(MAX_RESPONSE_BYTES + 1)
        if len(data) > MAX_RESPONSE_BYTES:
            raise ClientError(f"response over {MAX_RESPONSE_BYTES} bytes")
        return response.status, data
    except (socket.timeout, TimeoutError):
        raise ClientError(f"timed out after {timeout:g} s") from None
    except ConnectionRefusedError:
        raise ClientError(f"connection refused by {host}:{port or ('443' if scheme == 'https' else '80')}") from None
    except (OSError, http.client.HTTPException) as exc:
        raise ClientError(f"{type(exc).__name__}: {exc}"[:120]) from None
    finally:
        conn.close()
