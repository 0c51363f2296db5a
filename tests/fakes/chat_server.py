"""A real, scripted OpenAI-compatible chat-completions server for tests.

It listens on 127.0.0.1 (ephemeral port), speaks ``POST /v1/chat/completions`` with and
without ``stream: true`` (SSE chunks, tool calls split across chunks, a final usage chunk),
and records every request so tests can assert what the harness sent.

Each request consumes one *step* from the script queue; when the queue is empty the
``default`` step (or a responder callable) answers. A step is a dict:

    {"text": "hello"}                                      plain answer
    {"tool_calls": [{"name": "read", "arguments": {...}}]}  tool calls (optional "text")
    {"error": 429, "headers": {"retry-after": "0"}}         HTTP error with an OpenAI-style body
    {"error": 400, "message": "maximum context length ..."} e.g. a context-overflow error
    {"hang": 5.0}                                          sleep before answering (client timeout)
    {"malformed": True}                                    garbage instead of SSE JSON
    {"text": "...", "stall_after": 2, "stall_s": 30}       send 2 chunks, then stall (kill tests)
    {"usage": {"prompt_tokens": 10, "completion_tokens": 2}} override reported usage
    {"no_usage": True}                                     send no usage chunk
    {"usage_raw": <any JSON>}                              the usage chunk's "usage" as given (garbage)
    {"raw_data": [b'...']}                                 SSE data payloads sent as raw bytes first
    {"endless": True, "chunk_delay": 0.02}                 distinct chunks until the client hangs up
    {"text": "hi", "timings": {"prompt_n": 9, ...}}         llama.cpp's timings on the last chunk
    {"progress": [[0, 900], [512, 900]], "gate": Event}    llama.cpp's prompt_progress chunks first (only when
                                                           the request has return_progress), then wait for gate

``responder`` may be a callable ``(request_json) -> step`` used when the queue is empty.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import deque
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable

from .loopback import LoopbackServer

#: how often serve_forever looks for shutdown(): the default 0.5 s was paid by every test's teardown
POLL_S = 0.02


def _chunk(cid: str, model: str, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class ChatServer:
    def __init__(
        self,
        *,
        default: dict[str, Any] | None = None,
        responder: Callable[[dict], dict] | None = None,
        chunk_chars: int = 8,
        owned_by: str | None = None,
    ):
        self.script: deque[dict[str, Any]] = deque()
        self.default = default or {"text": "ok"}
        self.responder = responder
        self.chunk_chars = chunk_chars
        self.owned_by = owned_by  # GET /models says who serves the model (llama.cpp says "llamacpp")
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_a: Any) -> None:  # keep test output quiet
                return None

            def do_GET(self) -> None:  # noqa: N802
                with server._lock:
                    server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "json": None})
                item = {"id": "fake-model", "object": "model"}
                if server.owned_by:
                    item["owned_by"] = server.owned_by
                body = json.dumps({"object": "list", "data": [item]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    data = json.loads(raw or b"{}")
                except ValueError:
                    data = {"_unparsable": raw.decode("utf-8", "replace")}
                record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "json": data}
                with server._lock:
                    server.requests.append(record)
                    step = server.script.popleft() if server.script else None
                if step is None:
                    step = server.responder(data) if server.responder else dict(server.default)
                server._answer(self, data, step)

        self.httpd = LoopbackServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), name="fake-chat-server", daemon=True)

    # ------------------------------------------------------------------ control

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "ChatServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "ChatServer":
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.stop()

    def push(self, *steps: dict[str, Any]) -> None:
        with self._lock:
            self.script.extend(steps)

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r["json"] for r in self.requests if r["path"].endswith("/chat/completions")]

    # ------------------------------------------------------------------ answering

    def _answer(self, h: BaseHTTPRequestHandler, req: dict[str, Any], step: dict[str, Any]) -> None:
        if step.get("hang"):
            time.sleep(float(step["hang"]))
        if step.get("error"):
            status = int(step["error"])
            msg = step.get("message") or {401: "Incorrect API key provided", 429: "Rate limit reached", 500: "Internal server error"}.get(status, "error")
            etype = {401: "invalid_request_error", 429: "rate_limit_exceeded", 400: "invalid_request_error"}.get(status, "server_error")
            code = step.get("code") or ("context_length_exceeded" if "context" in msg.lower() else None)
            body = json.dumps({"error": {"message": msg, "type": etype, "param": None, "code": code}}).encode()
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            for k, v in (step.get("headers") or {}).items():
                h.send_header(k, str(v))
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
            return

        model = req.get("model", "fake-model")
        text = step.get("text", "")
        calls = step.get("tool_calls") or []
        prompt_tokens = sum(len(json.dumps(m)) // 4 for m in req.get("messages", []))
        completion_tokens = max(1, len(text) // 4) + 10 * len(calls)
        usage = step.get("usage") or {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
        usage = {**usage, "total_tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)}
        cid = "chatcmpl-" + uuid.uuid4().hex[:12]
        tool_calls = [
            {
                "id": c.get("id") or "call_" + uuid.uuid4().hex[:10],
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"] if isinstance(c["arguments"], str) else json.dumps(c["arguments"])},
            }
            for c in calls
        ]

        if not req.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            if tool_calls:
                message["tool_calls"] = tool_calls
            body = json.dumps({
                "id": cid, "object": "chat.completion", "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
                "usage": usage,
            }).encode()
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
            return

        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True

        def send(obj: Any) -> None:
            payload = obj if isinstance(obj, str) else json.dumps(obj)
            h.wfile.write(f"data: {payload}\n\n".encode())
            h.wfile.flush()

        try:
            if step.get("malformed"):
                send("{this is not json")
                h.wfile.write(b"data: [DONE]\n\n")
                h.wfile.flush()
                return
            if req.get("return_progress"):  # llama.cpp: progress chunks carry an empty role delta
                for done, total, *cache in step.get("progress") or []:
                    send({**_chunk(cid, model, {"role": "assistant", "content": None}),
                          "prompt_progress": {"total": total, "cache": cache[0] if cache else 0, "processed": done, "time_ms": 0}})
            if step.get("gate") is not None:
                step["gate"].wait(60)
            send(_chunk(cid, model, {"role": "assistant", "content": ""}))
            if step.get("endless"):  # distinct chunks until the client hangs up (at most 120 s)
                stop = time.monotonic() + 120
                n = 0
                while time.monotonic() < stop:
                    send(_chunk(cid, model, {"content": f"part {n} "}))
                    n += 1
                    time.sleep(float(step.get("chunk_delay", 0.02)))
                return
            for raw in step.get("raw_data") or []:  # payload bytes sent as they are (invalid UTF-8, odd JSON)
                h.wfile.write(b"data: " + raw + b"\n\n")
                h.wfile.flush()
            sent = 0
            for piece in _split(text, self.chunk_chars) if text else []:
                send(_chunk(cid, model, {"content": piece}))
                sent += 1
                if step.get("stall_after") is not None and sent >= int(step["stall_after"]):
                    time.sleep(float(step.get("stall_s", 30)))
                    return
                if step.get("chunk_delay"):
                    time.sleep(float(step["chunk_delay"]))
            for i, tc in enumerate(tool_calls):
                args = tc["function"]["arguments"]
                send(_chunk(cid, model, {"tool_calls": [{"index": i, "id": tc["id"], "type": "function", "function": {"name": tc["function"]["name"], "arguments": ""}}]}))
                for piece in _split(args, 16):
                    send(_chunk(cid, model, {"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
            last = _chunk(cid, model, {}, "tool_calls" if tool_calls else "stop")
            send({**last, "timings": step["timings"]} if step.get("timings") else last)  # llama.cpp's, on the last chunk
            if not step.get("no_usage") and (req.get("stream_options") or {}).get("include_usage"):
                send({"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model, "choices": [],
                      "usage": step.get("usage_raw", usage)})
            h.wfile.write(b"data: [DONE]\n\n")
            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
