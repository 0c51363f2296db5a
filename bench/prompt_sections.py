"""The local prompt, section by section (issue 38): what the first request of a session costs.

Builds a fresh workspace from ``workspace_template/``, runs a real :class:`SessionEngine` on
the local profile of the default managed model (``local/1.5b``) with a stand-in model that
only records what it is sent (no server, no weights), and counts every part of two first
requests with the session's own tokenizer for ``local/`` models (tiktoken cl100k,
``session/tokens.py``), the way the session's budget counts a request (each message's text
plus its framing, the tool list as JSON):

* ``statement``: a fresh workspace, a new session, the first message states a fact;
* ``question``: a new session on a workspace with today's log holding two notes, the first
  message asks about one (the automatic lookup runs: the recall block).

Rows: the system prompt's parts (``build_system_prompt``'s sections: the base prompt, each
bootstrap file, the memory instructions, the citation rule), each tool schema, the
startup notes, the user's message, the lookup and its results; a ``framing`` row per message
or list holds what joins the parts (blank lines, the per-message overhead, the list's
brackets), so the rows add up to the request's count exactly. The fixed prefix is the
system prompt and the tool schemas: every request of every session starts with it.

    python -m bench.prompt_sections [--model-tokens] [--json-out F]

``--model-tokens`` adds each request's count in the model's own tokens (Qwen2.5's tokenizer,
its chat template with the tool block), from the managed server without reading the prompt.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MODEL = "local/1.5b"
STATEMENT = "My VPN host is vpn-east-4.acme.io."
QUESTION = "What is my VPN host?"
SEED_NOTE = "- VPN host: vpn-east-4.acme.io\n- Dentist: Tuesday 3 pm\n"  # as bench/local_turn.py's headless runs


@dataclass(frozen=True)
class Section:
    name: str
    tokens: int
    fixed: bool  # part of the fixed prefix (system prompt, tool schemas)


@dataclass
class Request:
    label: str
    sections: list[Section] = field(default_factory=list)
    total: int = 0  # the session's count of the whole request (messages + tool list)
    body: dict[str, Any] = field(default_factory=dict, repr=False)  # the request as sent: messages, tools
    model_tokens: int | None = None  # the model's own count (``--model-tokens``: its tokenizer and chat template)

    @property
    def fixed(self) -> int:
        return sum(s.tokens for s in self.sections if s.fixed)


class RecordingModel:
    """A ``ChatModel`` that keeps each request (messages and tools as sent) and answers a
    short text: the session composes its requests exactly as for the real local model."""

    def __init__(self, model: str = MODEL, reply: str = "Noted."):
        self._model = model
        self.reply = reply
        self.requests: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []

    @property
    def model(self) -> str:
        return self._model

    @property
    def provider(self) -> str:
        return self._model.split("/", 1)[0]

    @property
    def label(self) -> str:
        return f"recorder · {self._model}"

    @property
    def is_offline(self) -> bool:
        return False

    async def complete(self, messages: list[Any], tools: list[dict[str, Any]] | None, *, on_delta: Any,
                       purpose: str = "turn") -> Any:
        from openclaw_tui.llm.client import Completion

        self.requests.append(([dict(m) for m in messages], list(tools or [])))
        on_delta(self.reply)
        return Completion(text=self.reply, usage=None, finish_reason="stop")


def _settings(workspace: Path, state: Path, model: str) -> Any:
    from openclaw_tui.config import load_config, resolve_agent

    settings = resolve_agent(load_config(None, overrides={}), workspace=workspace, model=model)
    settings.state_dir = state
    return settings


async def first_request(workspace: Path, state: Path, text: str, model: str = MODEL) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """The first request of a new session on ``workspace`` whose first message is ``text``:
    (the engine's system prompt parts, messages as sent, tools as sent)."""
    from openclaw_tui.session.engine import SessionEngine
    from openclaw_tui.workspace.bootstrap import build_system_prompt

    recorder = RecordingModel(model)
    engine = SessionEngine(_settings(workspace, state, model), sink=lambda _e: None, model=recorder, probe_ollama=False)
    try:
        await engine.send(text)
        if not recorder.requests:
            raise SystemExit(f"no request was sent for {text!r}")
        messages, tools = recorder.requests[0]
        parts = build_system_prompt(workspace, session_key=engine.session_key, workspace_access=engine.access,
                                    memory_enabled=engine.memory_tools_on, citations=engine.settings.config.memory.citations,
                                    compact=engine.profile.compact_prompt)
        if parts.text != messages[0].get("content"):
            raise SystemExit("the system prompt sent is not the one build_system_prompt makes: the bench is out of date")
        return parts, messages, tools
    finally:
        engine.close()


def _message_label(i: int, msg: dict[str, Any], n: int) -> str:
    role = msg.get("role")
    if role == "system":
        if not i:
            return "system prompt"
        text = str(msg.get("content", ""))  # after the fixed start: today's file, the notes, a summary
        kinds = (("today's note file", "## Today"), ("startup notes", "## Recent notes"), ("summary", "## Conversation so far"))
        return " + ".join(name for name, head in kinds if head in text) or "startup notes"
    if role == "assistant":
        return "recall: the lookup call"
    if role == "user" and i == n - 1 and "Result of " in str(msg.get("content", "")):
        return "recall block (results + the question again)"
    return "user message"


def sections_of(label: str, parts: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]], counter: Any) -> Request:
    """The request's rows; their tokens add up to ``counter``'s count of the whole request."""
    from openclaw_tui.session.tokens import MESSAGE_OVERHEAD
    from openclaw_tui.workspace.bootstrap import BOOTSTRAP_FILES

    req = Request(label)
    for i, msg in enumerate(messages):
        whole = counter.count_message(msg)
        if i == 0:
            inner = [Section(f"system: {sec}", counter.count_text(text), True) for sec, text in parts.sections]
            req.sections += inner
            # a bootstrap file the prompt left out (absent, empty, or as shipped on the local profile)
            req.sections += [Section(f"system: {f} (left out)", 0, True) for f in BOOTSTRAP_FILES
                             if f not in parts.files and f.lower() not in parts.files]
            req.sections.append(Section("system: framing and joins", whole - sum(s.tokens for s in inner), True))
        else:
            req.sections.append(Section(_message_label(i, msg, len(messages)), whole - MESSAGE_OVERHEAD, False))
    if len(messages) > 1:
        req.sections.append(Section(f"framing of the other {len(messages) - 1} messages", MESSAGE_OVERHEAD * (len(messages) - 1), False))
    if tools:
        per = [Section(f"tool: {t['function']['name']}", counter.count_tools([t]), True) for t in tools]
        req.sections += per
        req.sections.append(Section("tools: framing (list)", counter.count_tools(tools) - sum(s.tokens for s in per), True))
    req.total = counter.count_messages(messages) + counter.count_tools(tools)
    req.body = {"messages": messages, "tools": tools}
    return req


def _post(address: str, key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    req = urllib.request.Request(address + path, data=json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as resp:  # noqa: S310 - loopback
        return dict(json.loads(resp.read()))


def count_with_model(requests: list[Request], log: Path) -> None:
    """Each request in the default model's own tokens: the managed server renders it with the
    GGUF's chat template (``/apply-template``, the tools included) and tokenizes it
    (``/tokenize``); nothing is read into the model, so this costs the load (≈ 15–30 s)."""
    from openclaw_tui.llm.local.catalog import DEFAULT_MODEL
    from openclaw_tui.llm.local.files import models_dir
    from openclaw_tui.llm.local.server import LocalServer, ServerConfig

    server = LocalServer(ServerConfig(models_dir() / DEFAULT_MODEL.filename, "sections", n_ctx=8192, log_path=log))
    try:
        address = server.start()
        for req in requests:
            prompt = _post(address, server.api_key, "/apply-template", req.body)["prompt"]
            req.model_tokens = len(_post(address, server.api_key, "/tokenize", {"content": prompt, "add_special": True})["tokens"])
    finally:
        server.stop()


def measure(root: Path, model: str = MODEL) -> list[Request]:
    """The two first requests, each in a fresh workspace made from the template."""
    from openclaw_tui.session.tokens import TokenCounter
    from openclaw_tui.workspace.daily import daily_rel
    from openclaw_tui.workspace.template import init_workspace

    counter = TokenCounter(model)
    out: list[Request] = []
    for label, text, seed in (("statement (fresh workspace)", STATEMENT, False), ("question (today's log: 2 notes)", QUESTION, True)):
        ws = root / label.split()[0] / "workspace"
        init_workspace(ws)
        if seed:
            (ws / daily_rel()).parent.mkdir(parents=True, exist_ok=True)
            (ws / daily_rel()).write_text(SEED_NOTE, encoding="utf-8")
        parts, messages, tools = asyncio.run(first_request(ws, ws.parent / "state", text, model))
        out.append(sections_of(label, parts, messages, tools, counter))
    return out


def table(req: Request) -> str:
    fixed = req.fixed or 1
    model = f" ({req.model_tokens} in the model's own tokens, chat template included)" if req.model_tokens else ""
    lines = [f"### {req.label}: {req.total} tokens{model}, fixed prefix {req.fixed}", "",
             "| section | tokens | share of the fixed prefix | share of the request |", "|---|---|---|---|"]
    for s in req.sections:
        share = f"{100 * s.tokens / fixed:.1f} %" if s.fixed else "—"
        lines.append(f"| {s.name} | {s.tokens} | {share} | {100 * s.tokens / (req.total or 1):.1f} % |")
    lines.append(f"| **whole request** | **{req.total}** | | 100 % |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.prompt_sections", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default=MODEL, help="a local/ model name (the profile and tokenizer follow it)")
    p.add_argument("--model-tokens", action="store_true",
                   help="also count each request in the default model's tokens (starts its server for ~30 s, reads nothing)")
    p.add_argument("--json-out")
    args = p.parse_args(argv)
    os.environ.setdefault("OPENCLAW_BUNDLED_EMBEDDINGS", "off")  # keyword search: no embedder to load
    with tempfile.TemporaryDirectory(prefix="prompt-sections-") as tmp:
        os.environ["OPENCLAW_STATE_DIR"] = str(Path(tmp) / "state")
        requests = measure(Path(tmp), args.model)
        if args.model_tokens:
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            count_with_model(requests, Path(tmp) / "server.log")
    print("\n\n".join(table(r) for r in requests))
    if args.json_out:
        rows = [{k: v for k, v in asdict(r).items() if k != "body"} | {"fixed": r.fixed} for r in requests]
        Path(args.json_out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
