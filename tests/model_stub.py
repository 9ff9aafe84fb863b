"""A stub model server on 127.0.0.1 for the classifier's tests: the OpenAI chat-completions API and the
Anthropic Messages API (and their model lists), answering from a script, counting every connection.

    with ModelStub() as stub:
        stub.answer = lambda asked: {"level": "dangerous", "reason": "wipes the disk"}
        ... config {"classifier": {"url": stub.url, "model": "stub-1"}} ...
        stub.requests      # what was asked: path, headers, body, the part's message as the model saw it

`answer(asked)` gets the user message (a dict: part, line, rules, ...) and returns a dict (sent as the model's
JSON text), a str (sent as the model's text as is), or a Reply (a status, a raw body, a delay).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    raw: bytes | None = None        # the whole HTTP body as is (else the provider's envelope around `text`)
    text: str | None = None
    delay: float = 0.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, stub):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.stub = stub

    def get_request(self):
        conn = super().get_request()
        with self.stub.lock:
            self.stub.connections += 1
        return conn


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status: int, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass        # the client gave up (a timeout test)

    def do_GET(self):
        stub = self.server.stub
        with stub.lock:
            stub.requests.append({"method": "GET", "path": self.path, "headers": dict(self.headers)})
        if self.path.endswith("/models"):
            self._send(200, json.dumps({"data": [{"id": m} for m in stub.models]}).encode())
        else:
            self._send(404, b"{}")

    def do_POST(self):
        stub = self.server.stub
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        anthropic = self.path.endswith("/v1/messages")
        if anthropic:
            system, messages = body.get("system", ""), body.get("messages", [])
        else:
            messages = body.get("messages", [])
            system = next((m["content"] for m in messages if m.get("role") == "system"), "")
            messages = [m for m in messages if m.get("role") != "system"]
        user = messages[-1]["content"] if messages else ""
        try:
            asked = json.loads(user)
        except ValueError:
            asked = {"raw": user}
        record = {"method": "POST", "path": self.path, "headers": dict(self.headers), "body": body,
                  "system": system, "asked": asked, "bytes": length}
        with stub.lock:
            stub.requests.append(record)
        if not (self.path.endswith("/chat/completions") or anthropic):
            self._send(404, b'{"error": "no such endpoint"}')
            return
        reply = stub.answer(asked)
        if not isinstance(reply, Reply):
            reply = Reply(text=reply if isinstance(reply, str) else json.dumps(reply))
        if reply.delay:
            time.sleep(reply.delay)
        if reply.raw is not None:
            self._send(reply.status, reply.raw)
            return
        if anthropic:
            envelope = {"id": "msg_stub", "type": "message", "role": "assistant", "model": body.get("model"),
                        "content": [{"type": "text", "text": reply.text}], "stop_reason": "end_turn"}
        else:
            envelope = {"id": "chatcmpl-stub", "object": "chat.completion", "model": body.get("model"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": reply.text}}]}
        self._send(reply.status, json.dumps(envelope).encode())


class ModelStub:
    def __init__(self, answer=None, models=("stub-1",)):
        self.answer = answer or (lambda asked: {"level": "moderate", "reason": "stub default"})
        self.models = list(models)
        self.requests: list[dict] = []
        self.connections = 0
        self.lock = threading.Lock()
        self._server = _Server(self)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def url(self, provider: str = "openai") -> str:
        return f"http://127.0.0.1:{self.port}" + ("/v1" if provider == "openai" else "")

    @property
    def posts(self) -> list[dict]:
        return [r for r in self.requests if r["method"] == "POST"]

    def __enter__(self) -> "ModelStub":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
