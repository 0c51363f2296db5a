"""The managed llama.cpp server gets a per-run random API key only our client knows
(issue 30, point 6). A stand-in child speaks the serve.py handshake and checks the key like
llama.cpp does; serve.py hands the key to llama.cpp's params (its Server is not started)."""

from __future__ import annotations

import sys
import textwrap
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from openclaw_tui.llm.local import serve
from openclaw_tui.llm.local.server import LocalServer, ServerConfig

CHILD = textwrap.dedent(
    """
    import http.server, json, os, sys, threading
    key = os.environ.pop(sys.argv[1], "")
    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def do_GET(self):
            ok = self.path == "/health" or (key and self.headers.get("Authorization") == f"Bearer {key}")
            self.send_response(200 if ok else 401); self.end_headers(); self.wfile.write(b"{}")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    print(json.dumps({"address": f"http://127.0.0.1:{srv.server_address[1]}"}), flush=True)
    while os.read(0, 4096): pass
    """
)


def _status(url: str, key: str | None = None) -> int:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"} if key else {})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:  # noqa: S310 - loopback
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_each_run_has_its_own_key_that_only_our_client_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LocalServer, "_command", lambda self: [sys.executable, "-c", CHILD, serve.API_KEY_ENV])
    server = LocalServer(ServerConfig(model_path=tmp_path / "m.gguf", alias="m", start_timeout_s=30))
    keys = []
    try:
        for _ in range(2):
            address = server.start()
            keys.append(server.api_key)
            assert len(server.api_key) >= 40
            assert server.api_key.encode() not in Path(f"/proc/{server.pid}/cmdline").read_bytes()  # never on argv
            assert _status(address + "/slots") == 401 and _status(address + "/slots", "local") == 401
            assert _status(address + "/slots", server.api_key) == 200
            server.stop()
    finally:
        server.stop()
    assert keys[0] != keys[1]


def test_serve_gives_the_key_to_llama_cpp_and_drops_it_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import xllamacpp

    seen = {}
    monkeypatch.setattr(xllamacpp, "Server", lambda params: seen.setdefault("keys", list(params.api_keys)))
    monkeypatch.setenv(serve.API_KEY_ENV, "k" * 43)
    serve._server(serve._parse(["--model", "/nonexistent.gguf"]))
    assert seen["keys"] == ["k" * 43]
    assert serve.API_KEY_ENV not in __import__("os").environ


def test_an_unconfigured_ollama_port_is_never_probed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import http.server
    import json
    import threading

    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.llm import resolve

    hits = []

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            hits.append(self.path)
            body = json.dumps({"models": [{"name": "impostor:1b"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_a) -> None:
            return None

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(resolve, "OLLAMA_URL", f"http://127.0.0.1:{srv.server_address[1]}")  # "the default port"
        monkeypatch.delenv("OPENCLAW_OLLAMA_URL", raising=False)
        monkeypatch.delenv("OLLAMA_HOST", raising=False)
        settings = resolve_agent(load_config(None), workspace=str(tmp_path))
        assert resolve.resolve_model(settings).offline and hits == []  # whoever listens there is not asked
        cfg = load_config(None, overrides={"models": {"providers": {"ollama": {"baseUrl": resolve.OLLAMA_URL}}}})
        chosen = resolve.resolve_model(resolve_agent(cfg, workspace=str(tmp_path)))
        assert chosen.model == "ollama_chat/impostor:1b" and hits  # configured: used
    finally:
        srv.shutdown()
        srv.server_close()
