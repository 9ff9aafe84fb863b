"""Stub model servers on 127.0.0.1 for the real agent clients: each speaks one provider API well enough for a
client to run a scripted session of shell tool calls, and records every request (and so what the model was
shown after each call).

    from stub import StubModel
    with StubModel("anthropic", ["git status", "rm -rf build"]) as stub:
        env["ANTHROPIC_BASE_URL"] = stub.url          # http://127.0.0.1:PORT
        ... run the client ...
    stub.results()   # [(command, text the client sent back as the tool's result), ...]

APIs ("flavor"):
  anthropic  Messages API with SSE (Claude Code): POST /v1/messages, tool `Bash` {"command": ...}
  responses  OpenAI Responses API with SSE (Codex): POST /v1/responses, tool `exec_command` {"cmd": ...}
  gemini     generateContent / streamGenerateContent (Gemini CLI): tool `run_shell_command` {"command": ...}
  chat       OpenAI chat completions with tool calls (opencode, qwen-code, mini-swe-agent): the tool named by
             `tool` (default: the first offered whose name has "bash" or "shell" in it), argument `command`
  fence      chat completions without tools (Aider): the first answer is one ```bash block of all commands

The script is stateless per request: the number of tool results already in the conversation says which
step comes next, so retries and side requests (titles, summaries, token counts) never move it. A request
that offers no shell tool gets a short text answer. A step is a command string, or a dict whose `cmd` is the
command and whose other keys are added to the tool call's arguments (Codex's `shell`, `login`, `tty`, ...);
`"tool": "write_stdin"` (responses) types `cmd` into the session the last tool result named (Codex's unified
exec: `chars`, `session_id`).
Nothing here talks to any other host.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DONE_TEXT = "All scripted commands have run."
FENCE_HEAD = "Run these:"
SHELL_WORDS = ("bash", "shell", "exec_command", "run_shell_command")


def _step(step) -> tuple[str, dict]:
    if isinstance(step, str):
        return step, {}
    extra = {k: v for k, v in step.items() if k != "cmd"}
    return step["cmd"], extra


def _text_of(content) -> str:
    """The text of a tool result in any of the APIs' shapes."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(_text_of(c) for c in content)
    if isinstance(content, dict):
        for key in ("text", "output", "content", "result", "stdout"):
            if key in content:
                return _text_of(content[key])
        return json.dumps(content)
    return str(content)


class StubModel:
    def __init__(self, flavor: str, script: list, *, tool: str | None = None, final_text: str = DONE_TEXT,
                 delay: float = 0.0):
        assert flavor in ("anthropic", "responses", "gemini", "chat", "fence"), flavor
        self.flavor, self.script, self.tool, self.final_text, self.delay = flavor, list(script), tool, final_text, delay
        self.requests: list[dict] = []          # {"path", "body"} of every request, in order
        self.lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # ------------------------------------------------------------ lifecycle

    def __enter__(self) -> "StubModel":
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass

            def do_GET(self):
                stub._record(self.path, None)
                if "/models" in self.path:
                    body = {"object": "list", "data": [{"id": "stub-model", "object": "model", "owned_by": "stub",
                                                        "created": 0}],
                            "models": [{"name": "models/stub-model", "supportedGenerationMethods": ["generateContent"]}]}
                    return self._json(200, body)
                return self._json(200, {})

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    raw = self._read_chunked()
                if self.headers.get("Content-Encoding", "") in ("gzip", "zstd", "br"):
                    raw = stub._decompress(raw, self.headers.get("Content-Encoding"))
                try:
                    body = json.loads(raw.decode("utf-8")) if raw else {}
                except ValueError:
                    body = {"_raw": raw[:2000].decode("utf-8", "replace")}
                stub._record(self.path, body)
                if stub.delay:
                    time.sleep(stub.delay)
                try:
                    stub._answer(self, self.path, body)
                except BrokenPipeError:
                    pass

            def _read_chunked(self) -> bytes:
                out = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return out
                    out += self.rfile.read(size)
                    self.rfile.readline()

            def _json(self, code: int, body) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, events: list) -> None:
                chunks = []
                for event in events:
                    name, data = event if isinstance(event, tuple) else (None, event)
                    text = (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
                    chunks.append(text.encode())
                chunks.append(b"") if stub.flavor != "chat" else chunks.append(b"data: [DONE]\n\n")
                data = b"".join(chunks)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # Under `wisp run` the stub is a listed model API, reached by name through wisp run's proxy (run.net.hosts
    # resolves the name there, to the stub on the host's loopback, whose port is listed too); nothing inside
    # resolves the name, so a client that ignored the proxy could not reach it.
    NAME = "api.stub.test"

    @property
    def listed_url(self) -> str:
        return f"http://{self.NAME}:{self.port}"

    def net_config(self) -> dict:
        return {"allow": [f"{self.NAME}:{self.port}"], "hosts": {self.NAME: "127.0.0.1"}, "allowPorts": [self.port]}

    # ------------------------------------------------------------ what was seen

    def _record(self, path: str, body) -> None:
        with self.lock:
            self.requests.append({"path": path, "body": body, "t": time.time()})

    @staticmethod
    def _decompress(raw: bytes, how: str) -> bytes:
        if how == "gzip":
            import gzip
            return gzip.decompress(raw)
        if how == "zstd":
            try:
                import zstandard
                return zstandard.ZstdDecompressor().decompress(raw, max_output_size=64 << 20)
            except ImportError:
                return raw
        return raw

    def model_requests(self) -> list[dict]:
        """The requests that offered the shell tool (the agent loop's own turns)."""
        return [r for r in self.requests if isinstance(r["body"], dict) and self._shell_tool(r["body"])]

    def results(self) -> list[tuple[str, str]]:
        """(command, what the client sent back as its result) per scripted step that got a result."""
        best: list[str] = []
        for r in self.requests:
            if isinstance(r["body"], dict):
                got = self._tool_results(r["body"])
                if len(got) >= len(best):
                    best = got
        return [(_step(self.script[i])[0], text) for i, text in enumerate(best[:len(self.script)])]

    def finished(self) -> bool:
        return len(self.results()) >= len(self.script)

    # ------------------------------------------------------------ per API

    def _shell_tool(self, body: dict) -> str | None:
        if self.flavor == "fence":
            return "fence" if body.get("messages") else None
        names = []
        for tool in body.get("tools") or []:
            if not isinstance(tool, dict):
                continue
            if "functionDeclarations" in tool:
                names += [f.get("name") for f in tool["functionDeclarations"]]
            elif "function" in tool:
                names.append(tool["function"].get("name"))
            else:
                names.append(tool.get("name"))
        names = [n for n in names if isinstance(n, str)]
        if self.tool:
            return self.tool if self.tool in names else None
        for n in names:
            if n in ("Bash", "exec_command", "run_shell_command", "bash", "shell"):
                return n
        for n in names:
            if any(w in n.lower() for w in SHELL_WORDS):
                return n
        return None

    def _tool_results(self, body: dict) -> list[str]:
        out: list[str] = []
        if self.flavor == "anthropic":
            for msg in body.get("messages") or []:
                if isinstance(msg.get("content"), list):
                    for block in msg["content"]:
                        if isinstance(block, dict) and block.get("type") == "tool_result":
                            out.append(_text_of(block.get("content")))
        elif self.flavor == "responses":
            for item in body.get("input") or []:
                if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output"):
                    out.append(_text_of(item.get("output")))
        elif self.flavor == "gemini":
            for content in body.get("contents") or []:
                for part in content.get("parts") or []:
                    if isinstance(part, dict) and "functionResponse" in part:
                        out.append(_text_of(part["functionResponse"].get("response")))
        elif self.flavor == "chat":
            for msg in body.get("messages") or []:
                if msg.get("role") == "tool":
                    out.append(_text_of(msg.get("content")))
        else:  # fence: every user message after our answer (Aider's prompt holds example assistant turns)
            seen_answer = False
            for msg in body.get("messages") or []:
                if msg.get("role") == "assistant" and _text_of(msg.get("content")).startswith(FENCE_HEAD):
                    seen_answer = True
                elif seen_answer and msg.get("role") == "user":
                    out.append(_text_of(msg.get("content")))
        return out

    def _next(self, body: dict) -> tuple[int, str | None]:
        tool = self._shell_tool(body)
        if tool is None:
            return -1, None
        done = len(self._tool_results(body))
        if self.flavor == "fence":
            has_answer = any(m.get("role") == "assistant" and _text_of(m.get("content")).startswith(FENCE_HEAD)
                             for m in body.get("messages") or [])
            return (-1 if has_answer else 0), tool
        return (done if done < len(self.script) else -1), tool

    def _answer(self, handler, path: str, body: dict) -> None:
        if self.flavor == "anthropic":
            if "count_tokens" in path:
                return handler._json(200, {"input_tokens": 10})
            return self._anthropic(handler, body)
        if self.flavor == "responses":
            return self._responses(handler, body)
        if self.flavor == "gemini":
            if "countTokens" in path:
                return handler._json(200, {"totalTokens": 10})
            return self._gemini(handler, path, body)
        return self._chat(handler, body)

    def _anthropic(self, handler, body):
        index, tool = self._next(body)
        mid = "msg_" + uuid.uuid4().hex[:20]
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if index >= 0:
            cmd, extra = _step(self.script[index])
            args = {"command": cmd, "description": f"step {index + 1}", **extra}
            block = {"type": "tool_use", "id": f"toolu_{index:04d}_{uuid.uuid4().hex[:8]}", "name": tool, "input": {}}
            stop, delta = "tool_use", {"type": "input_json_delta", "partial_json": json.dumps(args)}
            full = dict(block, input=args)
        else:
            text = self.final_text if tool else "OK"
            block = {"type": "text", "text": ""}
            stop, delta = "end_turn", {"type": "text_delta", "text": text}
            full = {"type": "text", "text": text}
        message = {"id": mid, "type": "message", "role": "assistant", "model": body.get("model", "stub"),
                   "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            return handler._json(200, dict(message, content=[full], stop_reason=stop))
        handler._sse([
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    def _responses(self, handler, body):
        index, tool = self._next(body)
        rid = "resp_" + uuid.uuid4().hex[:20]
        if index >= 0:
            cmd, extra = _step(self.script[index])
            tool = extra.pop("tool", tool)
            if tool == "write_stdin":
                args = {"session_id": self._last_session(body), "chars": cmd, **extra}
            else:
                args = {"cmd": cmd, **extra} if tool == "exec_command" else {"command": ["bash", "-lc", cmd], **extra}
            item = {"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:12]}", "call_id": f"call_{index:04d}_{uuid.uuid4().hex[:6]}",
                    "name": tool, "arguments": json.dumps(args), "status": "completed"}
        else:
            text = self.final_text if tool else "OK"
            item = {"type": "message", "id": f"msg_{uuid.uuid4().hex[:12]}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        response = {"id": rid, "object": "response", "created_at": int(time.time()), "status": "completed",
                    "model": body.get("model", "stub"), "output": [item], "usage": usage}
        handler._sse([
            ("response.created", {"type": "response.created", "response": dict(response, status="in_progress", output=[])}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response}),
        ])

    def _last_session(self, body: dict) -> int | None:
        """The session id the latest tool result names (`Process running with session ID 1234`)."""
        import re

        for said in reversed(self._tool_results(body)):
            found = re.search(r"session[ _]id\D{0,4}(\d+)", said, re.IGNORECASE)
            if found:
                return int(found.group(1))
        return None

    def _gemini(self, handler, path, body):
        index, tool = self._next(body)
        if index >= 0:
            cmd, extra = _step(self.script[index])
            part = {"functionCall": {"name": tool, "args": {"command": cmd, "description": f"step {index + 1}", **extra}}}
        else:
            part = {"text": self.final_text if tool else '{"reasoning": "done", "next_speaker": "user"}'}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                 "modelVersion": "stub-model"}
        if "streamGenerateContent" in path:
            return handler._sse([chunk])
        return handler._json(200, chunk)

    def _chat(self, handler, body):
        index, tool = self._next(body)
        cid = "chatcmpl-" + uuid.uuid4().hex[:16]
        model = body.get("model", "stub")
        call = None
        if index >= 0 and self.flavor == "fence":
            text = FENCE_HEAD + "\n\n```bash\n" + "\n".join(_step(s)[0] for s in self.script) + "\n```\n"
        elif index >= 0:
            cmd, extra = _step(self.script[index])
            args = {"command": cmd, "description": f"step {index + 1}", **extra}
            call = {"index": 0, "id": f"call_{index:04d}_{uuid.uuid4().hex[:6]}", "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(args)}}
            text = None
        else:
            text = self.final_text if tool else "Stub title"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        finish = "tool_calls" if call else "stop"
        if not body.get("stream"):
            message = {"role": "assistant", "content": text}
            if call:
                message["tool_calls"] = [{k: v for k, v in call.items() if k != "index"}]
            return handler._json(200, {"id": cid, "object": "chat.completion", "created": int(time.time()),
                                       "model": model, "choices": [{"index": 0, "message": message,
                                                                    "finish_reason": finish}], "usage": usage})
        base = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
        delta = {"role": "assistant", "content": text} if not call else {"role": "assistant", "content": None,
                                                                         "tool_calls": [call]}
        handler._sse([
            dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
            dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
            dict(base, choices=[], usage=usage),
        ])
