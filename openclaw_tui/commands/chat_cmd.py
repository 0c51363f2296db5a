"""``openclaw-tui chat -p PROMPT [--session ID] [--json]``: one headless turn.

The session is created when new and resumed when it exists, so repeated calls continue one
conversation (flush and compaction included). ``--json`` prints one object:
``{text, sessionId, usage, events, model, offline, error}``; ``events`` lists every event
except the streamed text deltas (``text`` holds the joined reply).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from openclaw_tui import events
from openclaw_tui.commands.common import fail, print_json, settings_from_args
from openclaw_tui.redaction import redact
from openclaw_tui.terminal_text import for_terminal
from openclaw_tui.unicode_clean import clean_surrogates


def _usage_dict(usage: events.TokenUsage | None) -> dict[str, Any] | None:
    if usage is None:
        return None
    data = usage.to_dict()
    data.pop("ts", None)
    data.pop("type", None)
    return data


def _line(ev: events.Event) -> str | None:
    if isinstance(ev, events.ProviderRetry):
        return f"retry {ev.attempt} in {ev.delay_s:g}s: {ev.message}"
    if isinstance(ev, events.ProviderError):
        return f"provider error: {ev.message}" + (f" — {ev.action}" if ev.action else "")
    if isinstance(ev, events.AccessRefused):
        return f"refused {ev.tool} {ev.path}: {ev.reason}"
    if isinstance(ev, events.FlushFinished):
        if ev.skipped_reason:
            return f"memory flush skipped: {ev.skipped_reason}"
        return f"memory flush: {ev.lines_appended} line(s) appended to {ev.path}" if ev.stored else "memory flush: nothing to store"
    if isinstance(ev, events.CompactionFinished):
        return f"compacted: {ev.tokens_before} → {ev.tokens_after} tokens (compaction #{ev.compaction_count})"
    if isinstance(ev, events.Notice) and ev.level != "info":
        return f"{ev.level}: {ev.message}"
    return None


#: the slash commands ``chat -p`` runs itself (the TUI has them all); any other text goes to the model
HEADLESS_COMMANDS = ("/flush", "/compact")


def headless_command(prompt: str) -> tuple[str, str] | None:
    """``("/compact", "keep the dates")`` for a command ``chat -p`` runs itself, else None
    (the 1.5B answered ``-p /flush`` with a printed ``{"name": "flush"}``)."""
    head, _, rest = prompt.strip().partition(" ")
    return (head.lower(), rest.strip()) if head.lower() in HEADLESS_COMMANDS else None


async def _run(args: argparse.Namespace) -> int:
    from openclaw_tui.session.engine import SessionEngine
    from openclaw_tui.session.surface import TurnResult

    settings = settings_from_args(args)
    collected: list[events.Event] = []
    streaming = not args.json
    wrote_text = False

    def sink(ev: events.Event) -> None:
        nonlocal wrote_text
        collected.append(ev)
        if not streaming:
            return
        if isinstance(ev, events.TextDelta):
            sys.stdout.write(for_terminal(redact(clean_surrogates(ev.text))))
            sys.stdout.flush()
            wrote_text = True
            return
        line = _line(ev)
        if line:
            print(f"openclaw-tui: {for_terminal(redact(clean_surrogates(line)))}", file=sys.stderr)

    try:
        engine = SessionEngine(settings, sink=sink, session_id=args.session)
    except ValueError as exc:
        return fail(str(exc))
    try:
        if streaming and engine.is_offline:
            print(
                "openclaw-tui: offline agent (rule-based, not an LLM): no model, provider key, local Ollama or "
                "local GGUF found; use --model to pick a model (make run installs a local one)",
                file=sys.stderr,
            )
        command = headless_command(args.prompt)
        if command is None:
            result = await engine.send(args.prompt)
        else:  # "/flush", "/compact …": the session's own turn, not a message to the model
            name, rest = command
            await (engine.flush() if name == "/flush" else engine.compact(rest or None))
            result = TurnResult("", engine.session_id)
    finally:
        engine.close()
    if args.json:
        print_json(
            {
                "text": result.text,
                "sessionId": result.session_id,
                "usage": _usage_dict(result.usage),
                "events": [e.to_dict() for e in collected if not isinstance(e, events.TextDelta)],
                "model": engine.model_label,
                "offline": engine.is_offline,
                "error": result.error,
                "cancelled": result.cancelled,
            }
        )
    elif wrote_text:
        sys.stdout.write("\n")
        finished = [e for e in collected if isinstance(e, events.TurnFinished)]
        if finished and finished[-1].corrected and result.text:
            # the streamed text was checked after it ended (citations, save claims, a statement's reply):
            # what the session keeps follows, so the terminal never ends on the unchecked version
            print("openclaw-tui: reply checked (unfound Source lines removed or marked, claims noted); as kept:",
                  file=sys.stderr, flush=True)
            sys.stdout.write(for_terminal(redact(clean_surrogates(result.text))) + "\n")
        sys.stdout.flush()
    return 1 if result.error else 0


def run(args: argparse.Namespace) -> int:
    if not (args.prompt or "").strip():
        return fail("the prompt is empty: give the message with -p \"…\"")
    return asyncio.run(_run(args))
