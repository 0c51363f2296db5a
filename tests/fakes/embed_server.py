"""A real loopback OpenAI-compatible ``POST /v1/embeddings`` server for tests.

Vectors are deterministic: a hashed bag of words (lowercase word tokens, plus their
4-character prefixes at half weight) folded into ``dims`` signed buckets and L2-normalised,
so texts sharing words get high cosine similarity and a text always gets the same vector.

    with EmbedServer(dims=64) as srv:
        settings = ...remote.baseUrl = srv.base_url, apiKey = "sk-test"...
        srv.fail_next(500)                 # next request answers HTTP 500
        srv.fail_next(429, times=2)        # the two after that answer 429
        srv.fail_always(401)               # every request answers 401 until clear_errors()
        srv.requests                       # [{"path", "headers", "json"}] in arrival order
        srv.inputs()                       # every text embedded so far, flattened
        srv.vector("some text")            # the vector the server would return
        srv.script("a text", [1.0, 0.0])   # this exact text gets this vector (zero-padded to dims)

The pytest fixture ``embed_server`` (import it into a conftest or test module) yields a
running server and stops it afterwards.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

from .loopback import LoopbackServer

#: how often serve_forever looks for shutdown(): the default 0.5 s was paid by every test's teardown
POLL_S = 0.02

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def hashed_vector(text: str, dims: int = 64) -> list[float]:
    """Deterministic hashed bag-of-words vector (L2-normalised; zero for text without words)."""
    vec = [0.0] * dims
    for tok in _WORD.findall(text.lower()):
        feats = [(tok, 1.0)]
        if len(tok) > 4:
            feats.append(("p:" + tok[:4], 0.5))
        for feat, weight in feats:
            h = hashlib.blake2b(feat.encode("utf-8"), digest_size=8).digest()
            idx = int.from_bytes(h[:4], "little") % dims
            sign = 1.0 if h[4] & 1 else -1.0
            vec[idx] += sign * weight
    norm = math.sqrt(sum(v * v for v in vec))
    return [v / norm for v in vec] if norm > 0 else vec


class EmbedServer:
    """Threaded HTTP server on 127.0.0.1 with an ephemeral port."""

    def __init__(self, *, dims: int = 64, model_dims: dict[str, int] | None = None, require_key: str | None = None):
        self.dims = dims
        #: per-model dimension override, e.g. {"big-model": 128}
        self.model_dims = dict(model_dims or {})
        #: when set, requests without ``Authorization: Bearer <require_key>`` get 401
        self.require_key = require_key
        self.requests: list[dict[str, Any]] = []
        self._errors: deque[dict[str, Any]] = deque()
        self._always: dict[str, Any] | None = None
        #: optional hook ``(request_json) -> dict | None``; a dict is sent as an error step
        self.hook: Callable[[dict], dict | None] | None = None
        #: exact text -> vector, answered instead of the hashed one (paraphrases that share no word)
        self.scripted: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ scripting

    def fail_next(self, status: int, *, times: int = 1, message: str | None = None, headers: dict[str, str] | None = None) -> None:
        for _ in range(times):
            self._errors.append({"status": status, "message": message, "headers": headers or {}})

    def fail_always(self, status: int, message: str | None = None) -> None:
        self._always = {"status": status, "message": message, "headers": {}}

    def clear_errors(self) -> None:
        self._errors.clear()
        self._always = None

    def script(self, text: str, vector: list[float]) -> None:
        self.scripted[text] = list(vector)

    def vector(self, text: str, model: str | None = None) -> list[float]:
        dims = self.model_dims.get(model or "", self.dims)
        if text in self.scripted:
            got = self.scripted[text][:dims]
            return got + [0.0] * (dims - len(got))
        return hashed_vector(text, dims)

    def inputs(self) -> list[str]:
        out: list[str] = []
        for r in self.requests:
            inp = r["json"].get("input") if isinstance(r.get("json"), dict) else None
            if isinstance(inp, str):
                out.append(inp)
            elif isinstance(inp, list):
                out.extend(x for x in inp if isinstance(x, str))
        return out

    def reset_log(self) -> None:
        with self._lock:
            self.requests.clear()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    # ------------------------------------------------------------------ server

    def _next_error(self) -> dict[str, Any] | None:
        with self._lock:
            if self._errors:
                return self._errors.popleft()
            return self._always

    def start(self) -> "EmbedServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_a: Any) -> None:
                return None

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
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
                if not self.path.rstrip("/").endswith("/embeddings"):
                    self._send(404, {"error": {"message": f"unknown path {self.path}", "type": "not_found"}})
                    return
                step = server.hook(data) if server.hook else None
                if step is None:
                    step = server._next_error()
                if step is None and server.require_key is not None:
                    auth = self.headers.get("Authorization", "")
                    if auth != f"Bearer {server.require_key}":
                        step = {"status": 401, "message": "Incorrect API key provided", "headers": {}}
                if step is not None:
                    status = int(step["status"])
                    msg = step.get("message") or {401: "Incorrect API key provided", 429: "Rate limit reached"}.get(status, "server error")
                    etype = {401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(status, "server_error")
                    self._send(status, {"error": {"message": msg, "type": etype, "code": status}}, step.get("headers"))
                    return
                inp = data.get("input") if isinstance(data, dict) else None
                texts = [inp] if isinstance(inp, str) else list(inp or [])
                model = str(data.get("model", "")) if isinstance(data, dict) else ""
                items = []
                for i, t in enumerate(texts):
                    items.append({"object": "embedding", "index": i, "embedding": server.vector(str(t), model)})
                tokens = sum(len(_WORD.findall(str(t))) for t in texts)
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": items,
                        "model": model or "fake-embed",
                        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                    },
                )

        self._httpd = LoopbackServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(POLL_S,), name="embed-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "EmbedServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


try:  # the fixture is optional so the module also works outside pytest
    import pytest

    @pytest.fixture
    def embed_server() -> Iterator[EmbedServer]:
        with EmbedServer() as srv:
            yield srv

except ImportError:  # pragma: no cover
    pass
