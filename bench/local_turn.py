"""What the local agent's requests cost, and the floor of this machine beside it (issue 38).

For every request to the managed llama.cpp server: prompt tokens in all, processed (read
now), reused (from the slot's cache) and new (what the request adds to the one before it and
its reply), the time to the first streamed piece and to the whole reply, by turn kind
(statement, question, tool follow-up, flush, compaction). The floor is measured on the same
server in the same run: a calibration request with a fresh prompt (``cache_prompt`` off)
gives the prompt and generation speed; a request's floor is new tokens ÷ prompt speed +
generated tokens ÷ generation speed (its first-piece floor: new ÷ prompt speed).

Three parts, all on the default model (``local/1.5b``), in fresh temp state and workspace:

* ``session``: one engine, in-process, a scenario of statement, question, statement,
  question, question, then ``/flush``, ``/compact`` and a question after it;
* ``headless``: ``openclaw-tui chat -p`` twice in a row (new sessions, one state dir), then
  ``chat -p /flush``; each run's requests come from ``OPENCLAW_LOCAL_REQUEST_LOG`` and, from
  outside, from the server's own log (``prompt eval time = … / N tokens``);
* the calibration (before the session and after it).

    OMP_WAIT_POLICY=PASSIVE python -m bench.local_turn [--parts session,headless] [--json-out F]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_tui.llm.local.request_stats import REQUEST_LOG_ENV, RequestStats, read_log

MODEL = "local/1.5b"
SCENARIO: list[tuple[str, str]] = [
    ("statement", "My VPN host is vpn-east-4.acme.io."),
    ("question", "What is my VPN host?"),
    ("statement", "My dentist appointment moved to Tuesday at 3 pm."),
    ("question", "When is my dentist appointment?"),
    ("question", "Which host did I say the VPN runs on?"),
    ("flush", "/flush"),
    ("compaction", "/compact"),
    ("question", "What is my VPN host?"),
]
HEADLESS = ["What is my VPN host?", "When is my dentist appointment?"]
SEED_NOTE = "- VPN host: vpn-east-4.acme.io\n- Dentist: Tuesday 3 pm\n"


@dataclass
class Row:
    part: str
    turn: int
    kind: str
    stats: RequestStats
    new: int | None
    turn_first_s: float | None = None  # message sent → first text the user saw (first request of a turn)
    kept: int | None = None  # tokens of the previous reply this request's history holds verbatim (reply_kept)
    reply_tokens: int | None = None  # this request's reply text in the server's own tokens (/tokenize)


@dataclass
class Speeds:
    prompt_tps: list[float] = field(default_factory=list)
    gen_tps: list[float] = field(default_factory=list)

    @property
    def prompt(self) -> float:
        return statistics.mean(self.prompt_tps) if self.prompt_tps else 0.0

    @property
    def gen(self) -> float:
        return statistics.mean(self.gen_tps) if self.gen_tps else 0.0


def _post(address: str, key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(address + path, data=json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=900) as resp:  # noqa: S310 - loopback
        return dict(json.loads(resp.read()))


def _tokens(address: str, key: str, text: str) -> int | None:
    """``text`` in the model's own tokens (the server's ``/tokenize``, nothing read into the model)."""
    if not text:
        return 0
    try:
        return len(_post(address, key, "/tokenize", {"content": text, "add_special": False})["tokens"])
    except (OSError, ValueError, KeyError):
        return None


def calibrate(address: str, key: str, speeds: Speeds, prompt_words: int = 50, gen: int = 32) -> None:
    """One request with a prompt the server has never seen (cache off): its read and write speeds."""
    words = " ".join(secrets.token_hex(3) for _ in range(prompt_words))
    out = _post(address, key, "/completion", {"prompt": f"Summarise: {words}", "n_predict": gen, "cache_prompt": False,
                                              "ignore_eos": True, "temperature": 0.2})
    t = out.get("timings") or {}
    if t.get("prompt_ms") and t.get("predicted_ms"):
        speeds.prompt_tps.append(1000.0 * t["prompt_n"] / t["prompt_ms"])
        speeds.gen_tps.append(1000.0 * t["predicted_n"] / t["predicted_ms"])
        print(f"  calibration: {t['prompt_n']} prompt tokens at {speeds.prompt_tps[-1]:.1f}/s, "
              f"{t['predicted_n']} generated at {speeds.gen_tps[-1]:.1f}/s", flush=True)


def _rendered(address: str, key: str, messages: list[dict[str, Any]], tools: Any) -> list[int]:
    """``messages`` as the server renders them with the GGUF's chat template, in its tokens."""
    body: dict[str, Any] = {"messages": messages}
    if tools:
        body["tools"] = tools
    prompt = _post(address, key, "/apply-template", body)["prompt"]
    return list(_post(address, key, "/tokenize", {"content": prompt, "add_special": True})["tokens"])


def unseen_tokens(address: str, key: str, prev: Sent, prev_stats: RequestStats, cur: Sent) -> int | None:
    """For a request that does not extend the one before it (a compaction, the turn after it):
    its tokens past the longest common start with what the server read last, the previous
    prompt and its reply but the last sampled token (the floor any cache can reach)."""
    try:
        now = _rendered(address, key, cur.messages, cur.tools)
        seen = _rendered(address, key, [*prev.messages, prev.reply], prev.tools)
    except (OSError, ValueError, KeyError):
        return None
    seen = seen[: prev_stats.prompt_tokens + max(prev_stats.generated - 1, 0)]
    common = 0
    for a, b in zip(now, seen):
        if a != b:
            break
        common += 1
    return len(now) - common


def new_tokens(cur: RequestStats, prev: RequestStats | None, kept: int | None = None) -> int | None:
    """What ``cur`` adds to the request before it and the part of that request's reply its
    history keeps (all of it when ``cur`` is the first of its server); None when ``cur`` does
    not extend them (another prompt start, or a compaction cut the history).

    ``kept``: tokens of the previous reply the server has read and this request's history
    holds verbatim (``reply_kept``). Without it (``None``) the reply is taken as kept whole,
    the generated count included."""
    if prev is None:
        return cur.prompt_tokens
    grown = cur.prompt_tokens - prev.prompt_tokens - (prev.generated if kept is None else kept)
    return grown if grown > 0 else None


@dataclass(frozen=True)
class Sent:
    """One request as the bench saw it leave: the messages, and the model's raw reply."""

    messages: list[dict[str, Any]]
    reply: dict[str, Any]
    finish: str | None
    tools: list[dict[str, Any]] | None = None


def _same_reply(held: dict[str, Any], raw: dict[str, Any]) -> bool:
    """The history's assistant message is the model's own reply, word for word and call for call."""
    if held.get("role") != "assistant" or (held.get("content") or "") != (raw.get("content") or ""):
        return False
    calls = [(c.get("function", {}).get("name"), c.get("function", {}).get("arguments")) for c in held.get("tool_calls") or []]
    return calls == [(c.get("function", {}).get("name"), c.get("function", {}).get("arguments")) for c in raw.get("tool_calls") or []]


def reply_kept(prev: Sent, cur: Sent, generated: int) -> int | None:
    """Tokens of ``prev``'s reply that ``cur`` reuses from the server's cache at best: the
    generated count less the end-of-turn token the model sampled last (llama.cpp stops on it
    without reading it in, so the template's copy of it is new to the server) when ``cur``'s
    history holds the reply verbatim; 0 when the engine put other words in its place (a
    false citation replaced by its acknowledgement: those words are new); None when ``cur``
    does not start with ``prev``'s messages."""
    n = len(prev.messages)
    if cur.messages[:n] != prev.messages:
        return None
    if len(cur.messages) > n and _same_reply(cur.messages[n], prev.reply):
        return max(generated - (1 if prev.finish in ("stop", "tool_calls") else 0), 0)
    return 0


def _settings(root: Path, model: str) -> Any:
    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.workspace.template import init_workspace

    ws = root / "workspace"
    init_workspace(ws)
    cfg = load_config(None, overrides={})
    settings = resolve_agent(cfg, workspace=ws, model=model)
    settings.state_dir = root / "state"
    return settings


async def run_session(root: Path, model: str, speeds: Speeds) -> list[Row]:
    from openclaw_tui import events
    from openclaw_tui.session.engine import SessionEngine

    settings = _settings(root, model)
    first_text: list[float] = []

    def sink(ev: events.Event) -> None:
        if isinstance(ev, events.TextDelta) and not first_text:
            first_text.append(time.monotonic())

    engine = SessionEngine(settings, sink=sink, probe_ollama=False)
    rows: list[Row] = []
    try:
        await engine.warm_up()
        local = engine._slot.model  # noqa: SLF001 - the bench reads the model's own request log
        server = getattr(local, "server", None)
        if server is None or server.address is None:
            raise SystemExit(f"the local model did not start: {getattr(local, 'problem', '')}")
        calibrate(server.address, server.api_key, speeds)
        sent: list[Sent] = []
        complete = local.complete

        async def spy(messages: Any, tools: Any, *, on_delta: Any, purpose: str = "turn") -> Any:
            snap = copy.deepcopy(list(messages))
            out = await complete(messages, tools, on_delta=on_delta, purpose=purpose)
            sent.append(Sent(snap, copy.deepcopy(dict(out.assistant_message())), out.finish_reason, copy.deepcopy(tools)))
            return out

        local.complete = spy  # the bench reads what each request sent and what came back
        seen, seen_sent = len(local.requests), 0
        prev: RequestStats | None = None
        prev_sent: Sent | None = None
        for n, (kind, text) in enumerate(SCENARIO, 1):
            first_text.clear()
            t0 = time.monotonic()
            if kind == "flush":
                await engine.flush()
            elif kind == "compaction":
                await engine.compact()
            else:
                await engine.send(text)
            made = local.requests[seen:]
            seen = len(local.requests)
            went = sent[seen_sent:] if len(sent) - seen_sent == len(made) else [None] * len(made)
            seen_sent = len(sent)
            for i, (st, now) in enumerate(zip(made, went)):
                label = kind if i == 0 else "tool follow-up"
                if kind == "compaction" and st.purpose != "compaction":
                    label = st.purpose
                turn_first = (first_text[0] - t0) if (i == 0 and first_text) else None
                kept = reply_kept(prev_sent, now, prev.generated) if (prev is not None and prev_sent and now) else None
                new = new_tokens(st, prev, kept) if (prev is None or kept is not None) else None
                if new is None and prev is not None and prev_sent and now:
                    new = unseen_tokens(server.address, server.api_key, prev_sent, prev, now)
                reply_tokens = _tokens(server.address, server.api_key, now.reply.get("content") or "") if now else None
                rows.append(Row("session", n, label, st, new, turn_first, kept, reply_tokens))
                print(f"  turn {n} {label}: {st.to_dict()} new {rows[-1].new} kept {kept} reply tokens {reply_tokens} "
                      f"turn-first {turn_first}", flush=True)
                prev, prev_sent = st, now
            if not made:
                rows.append(Row("session", n, kind + " (no request)", RequestStats("-", 0, 0, 0, 0, 0, 0, None,
                                                                                     round(time.monotonic() - t0, 3)), 0))
        calibrate(server.address, server.api_key, speeds)
    finally:
        engine.close()
    return rows


def _server_log_prompts(log: Path, since: int) -> list[int]:
    """Prompt tokens the server read per request, from its own log after byte ``since``."""
    try:
        with open(log, "rb") as fh:
            fh.seek(since)
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [int(m.group(1)) for m in re.finditer(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens", text)]


def run_headless(root: Path, model: str) -> list[dict[str, Any]]:
    settings = _settings(root, model)
    ws, state = settings.workspace, settings.state_dir
    daily = Path(ws) / "memory"
    daily.mkdir(parents=True, exist_ok=True)
    from openclaw_tui.workspace.daily import today

    (daily / f"{today().isoformat()}.md").write_text(SEED_NOTE, encoding="utf-8")
    log = Path(state) / "logs" / "openclaw-tui.log"
    out: list[dict[str, Any]] = []
    for n, prompt in enumerate([*HEADLESS, "/flush"], 1):
        req_log = root / f"requests-{n}.jsonl"
        env = dict(os.environ, OPENCLAW_STATE_DIR=str(state), OMP_WAIT_POLICY="PASSIVE", **{REQUEST_LOG_ENV: str(req_log)})
        env.pop("OPENCLAW_NO_LOCAL_MODEL", None)
        since = log.stat().st_size if log.exists() else 0
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(ws), "--model", model,
                               "chat", "-p", prompt, "--json"], env=env, capture_output=True, text=True, timeout=1800)
        wall = time.monotonic() - t0
        try:
            data = json.loads(proc.stdout)
        except ValueError:
            data = {"text": proc.stdout[-300:], "error": proc.stderr[-300:]}
        server_started = log.exists() and b"local model server" in log.read_bytes()[since:]
        out.append({"run": n, "prompt": prompt, "wall_s": round(wall, 2), "requests": [r.to_dict() for r in read_log(req_log)],
                    "server_log_prompt_tokens": _server_log_prompts(log, since), "server_started": server_started,
                    "text": str(data.get("text", ""))[:160], "error": data.get("error")})
        print(f"  headless {n}: {out[-1]}", flush=True)
    return out


def _fmt(v: float | None, nd: int = 1) -> str:
    return "—" if v is None else f"{v:.{nd}f}"


def report(rows: list[Row], headless: list[dict[str, Any]], speeds: Speeds) -> str:
    lines = [f"calibration: prompt {speeds.prompt:.1f} tok/s, generation {speeds.gen:.1f} tok/s "
             f"(runs: {', '.join(f'{p:.1f}/{g:.1f}' for p, g in zip(speeds.prompt_tps, speeds.gen_tps))})", ""]
    if rows:
        lines += ["| # | kind | prompt | processed | reused | new | generated | reply text tok | prev reply kept | first piece s | floor s | ratio | whole s | floor s | turn's first text s |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            s = r.stats
            fl_first = r.new / speeds.prompt if (speeds.prompt and r.new is not None) else None
            fl_all = None if fl_first is None else fl_first + (s.generated / speeds.gen if speeds.gen else 0)
            first = s.first_piece_s if s.first_piece_s is not None else (s.prompt_ms / 1000 if s.prompt_tokens else None)
            ratio = (first / fl_first) if (first is not None and fl_first) else None
            lines.append(f"| {r.turn} | {r.kind} | {s.prompt_tokens} | {s.processed} | {s.reused} | {_fmt(r.new, 0)} | {s.generated} | "
                         f"{_fmt(r.reply_tokens, 0)} | {_fmt(r.kept, 0)} | "
                         f"{_fmt(first)} | {_fmt(fl_first)} | {_fmt(ratio, 2)} | {_fmt(s.total_s)} | {_fmt(fl_all)} | {_fmt(r.turn_first_s)} |")
        later = [r for r in rows[1:] if r.stats.prompt_tokens]
        over = [r for r in later if r.new is None or r.stats.processed > r.new * 1.05]
        lines += ["", f"session: {sum(r.stats.processed for r in rows)} prompt tokens processed, "
                      f"{sum(r.stats.reused for r in rows)} reused; requests after the first processing more than new + 5 %: "
                      f"{len(over)} of {len(later)}"]
    for h in headless:
        reqs = h["requests"]
        lines.append(f"headless run {h['run']} ({h['prompt']!r}): wall {h['wall_s']} s, server started: {h['server_started']}, "
                     f"requests: " + "; ".join(f"{r['prompt_tokens']} tok, processed {r['processed']}, reused {r['reused']}, "
                                               f"first piece {_fmt(r['first_piece_s'])} s" for r in reqs)
                     + f"; server log prompt tokens read: {h['server_log_prompt_tokens']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.local_turn", description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", default="session,headless")
    p.add_argument("--model", default=MODEL)
    p.add_argument("--json-out")
    args = p.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ.pop("OPENCLAW_NO_LOCAL_MODEL", None)
    parts = set(args.parts.split(","))
    speeds = Speeds()
    rows: list[Row] = []
    headless: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="local-turn-") as tmp:
        root = Path(tmp)
        os.environ["OPENCLAW_STATE_DIR"] = str(root / "session" / "state")
        os.environ["OPENCLAW_LOCAL_SLOT_DIR"] = str(root / "session" / "slots")  # each part starts with no slot file
        if "session" in parts:
            (root / "session").mkdir()
            rows = asyncio.run(run_session(root / "session", args.model, speeds))
        if "headless" in parts:
            (root / "headless").mkdir()
            os.environ["OPENCLAW_LOCAL_SLOT_DIR"] = str(root / "headless" / "slots")
            headless = run_headless(root / "headless", args.model)
    from openclaw_tui.llm.local.threads import machine_threads

    print(f"threads {machine_threads()}, load {os.getloadavg()[0]:.1f}")
    print(report(rows, headless, speeds))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "threads": machine_threads(), "speeds": {"prompt": speeds.prompt_tps, "gen": speeds.gen_tps},
            "session": [{"turn": r.turn, "kind": r.kind, "new": r.new, "kept": r.kept, "reply_tokens": r.reply_tokens,
                         "turn_first_s": r.turn_first_s, **r.stats.to_dict()} for r in rows],
            "headless": headless}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
