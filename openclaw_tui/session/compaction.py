"""Compaction: render the older part of a conversation for the summariser, a deterministic
extractive summary (used by the offline agent and as a fallback when the model cannot
summarise), and the :class:`Compactor` that runs a compaction's steps for the engine.
Where to cut is ``thresholds.compaction_cut_for`` (pure)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.language.detect import detect
from openclaw_tui.language.lexicon import TABLES
from openclaw_tui.language.words import cues
from openclaw_tui.llm.client import ChatModel, RetryPolicy, complete_with_retries
from openclaw_tui.llm.errors import LLMError, LLMErrorInfo
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.memory.api import MemoryBackend, SearchResult
from openclaw_tui.redaction import redact
from openclaw_tui.records.session_store import SessionStore
from openclaw_tui.session.summary_in_place import InPlace, answer
from openclaw_tui.session.summary_check import SummaryCheck, check_summary, repair, retry_hint
from openclaw_tui.records.transcript import TranscriptWriter
from openclaw_tui.unicode_clean import clean_strings

SUMMARY_SECTIONS = ("Goal", "Constraints and preferences", "Progress", "Decisions", "Open todos", "Exact identifiers")

COMPACTION_SYSTEM = (
    "You compress a conversation into a checkpoint so the assistant can continue without the full history. "
    "Write Markdown with exactly these sections: "
    + ", ".join(f"## {s}" for s in SUMMARY_SECTIONS)
    + ". Keep exact file paths, names, numbers, dates, IDs and commands verbatim. "
    "Be concise; write 'none' for an empty section. Do not call tools."
)
# for small local models (the local profile): the sectioned checkpoint came back as bare headers
COMPACTION_SYSTEM_PLAIN = (
    "You summarise a conversation so the assistant can continue without it. Write 3 to 8 short bullet points "
    "with what the user said, asked and decided. Keep names, numbers, dates, file paths and identifiers exactly "
    "as written. Do not call tools."
)
SUMMARY_HEADER = "## Conversation so far (compacted summary of earlier turns)"
MAX_TOOL_CHARS = 600


def _content(msg: dict[str, Any]) -> str:
    c = msg.get("content")
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "\n".join(str(p.get("text", "")) for p in c if isinstance(p, dict))
    return ""


def render_for_summary(messages: list[dict[str, Any]], *, previous_summary: str = "", max_chars: int = 400_000) -> str:
    lines: list[str] = []
    if previous_summary:
        lines.append("Earlier summary:\n" + previous_summary.strip())
    for m in messages:
        role = m.get("role")
        text = _content(m).strip()
        if role == "user":
            lines.append(f"User: {text}")
        elif role == "assistant":
            if text:
                lines.append(f"Assistant: {text}")
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function", {})
                lines.append(f"Assistant called {fn.get('name')}({str(fn.get('arguments', ''))[:MAX_TOOL_CHARS]})")
        elif role == "tool":
            if len(text) > MAX_TOOL_CHARS:
                text = text[:MAX_TOOL_CHARS] + " …"
            lines.append(f"Tool result: {text}")
    out = "\n".join(lines)
    if len(out) > max_chars:  # keep the start (goal) and the end (latest state)
        half = max_chars // 2
        out = out[:half] + "\n[… middle omitted …]\n" + out[-half:]
    return out


def compaction_request(rendered: str, instructions: str | None = None, *, plain: bool = False) -> list[ChatMessage]:
    """The summariser's messages; ``plain``: bullet points instead of the sectioned checkpoint."""
    ask = "Summarise this conversation in bullet points." if plain else "Summarise this conversation into the checkpoint format."
    user = ask + "\n\n" + rendered
    if instructions:
        user += f"\n\nExtra instructions from the user: {instructions.strip()}"
    return [{"role": "system", "content": COMPACTION_SYSTEM_PLAIN if plain else COMPACTION_SYSTEM}, {"role": "user", "content": user}]


def has_content(summary: str) -> bool:
    """Whether a model's summary says anything beyond headings and "none" (else it is no summary)."""
    for line in summary.splitlines():
        text = line.strip().lstrip("#-*• ").strip().rstrip(".").lower()
        if text and text not in ("none", "n/a", "-") and line.strip().lstrip("#").strip() not in SUMMARY_SECTIONS:
            return True
    return False


# Linear in the text: a path (``p``) or file name (``f``) is only tried where a run of its
# characters begins (the look-behind), and its leading dots and dashes are matched but left
# out of the group, so each run is scanned once. ``\b[\w.-]+/…`` tried at every dot of a
# 400 KB dotted token scanned to its end each time: quadratic, > 90 s (issue 36).
_IDENT_RE = re.compile(
    r"`[^`\n]{1,80}`|https?://\S+"
    r"|(?<![\w.-])[.-]*+(?P<p>\w[\w.-]*+/[\w./-]+\b)"
    r"|(?<![\w-])-*+(?P<f>\w[\w-]*+\.(?:md|py|json|yaml|yml|txt|toml|js|ts)\b)"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b[A-Z]{2,}-\d+\b"
)


def identifier_tokens(text: str) -> list[str]:
    """The identifiers of ``text`` for the extractive summary, in order, once each (linear time)."""
    out: dict[str, None] = {}
    for m in _IDENT_RE.finditer(text):
        tok = (m.group("p") or m.group("f") or m.group(0)).strip("`.,;:")
        if tok:
            out.setdefault(tok)
    return list(out)


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip()]


def _languages(user_text: str) -> tuple[str, ...]:
    """The cue tables for a conversation: the user's language and English (the assistant's
    replies may be English); every table when the user's language has none."""
    lang = detect(user_text) if user_text.strip() else "en"
    return tuple(dict.fromkeys((lang, "en"))) if lang in TABLES else TABLES


#: a code fence's marker, with the language named after an opening one ("```python")
_FENCE_RE = re.compile(r"(?:`{3,}|~{3,})[\w+#.-]*")


def bullet_text(item: str) -> str:
    """A summary bullet's text without code-fence markers; "" when nothing is left to say (a
    reply that opened a code block gave the bullet "```python", issue 37)."""
    text = _FENCE_RE.sub(" ", item).strip()
    return " ".join(text.split()) if any(ch.isalnum() for ch in text) else ""


def extractive_summary(rendered: str, instructions: str | None = None) -> str:
    """A rule-based checkpoint: picks sentences by cue words, never invents text."""
    users: list[str] = []
    assistants: list[str] = []
    previous = ""
    for line in rendered.splitlines():
        if line.startswith("User: "):
            users.append(line[6:])
        elif line.startswith("Assistant: "):
            assistants.append(line[11:])
        elif line.startswith("Earlier summary:"):
            previous = "carried over"
    user_sents = [s for u in users for s in _sentences(u)]
    all_sents = user_sents + [s for a in assistants for s in _sentences(a)]

    langs = _languages(" ".join(users))

    def pick(purpose: str, pool: list[str], limit: int = 8) -> list[str]:
        table = cues(purpose, langs)
        seen: list[str] = []
        for s in pool:
            if table.search(s) and s not in seen:
                seen.append(s)
        return seen[-limit:]

    idents = identifier_tokens(rendered)
    goal = users[0].strip() if users else "none"
    progress = [a for a in assistants[-3:]] or ["none"]
    sections = {
        "Goal": [goal[:300]],
        "Constraints and preferences": pick("preference", user_sents) or ["none"],
        "Progress": [p[:300] for p in progress],
        "Decisions": pick("decision", all_sents) or ["none"],
        "Open todos": pick("todo", all_sents) or ["none"],
        "Exact identifiers": idents[:30] or ["none"],
    }
    out = []
    for name in SUMMARY_SECTIONS:
        out.append(f"## {name}")
        items = [kept for item in sections[name] if (kept := bullet_text(item))]
        out.extend(f"- {item}" for item in items or ["none"])
    if instructions:
        out.append(f"\n(Compaction instructions: {instructions.strip()})")
    if previous:
        out.append("\n(Includes an earlier summary.)")
    return "\n".join(out)


def tool_result_content(result: object) -> str:
    """A tool's answer as the tool message's text: a memory search's ``for_model()`` (its
    ``Source:`` lines, no screen-only field), any other answer as it is."""
    if isinstance(result, SearchResult):
        result = clean_strings(result.for_model())  # a lone surrogate cannot be encoded into the request
    return json.dumps(result, ensure_ascii=False, default=str)


def with_identifier_instructions(instructions: str | None, policy: str, custom: str | None) -> str | None:
    """``identifierPolicy: "custom"`` adds ``identifierInstructions`` to the summary request
    (the check still holds the summary to the exact identifiers, as ``strict``)."""
    extra = (custom or "").strip()
    if policy != "custom" or not extra:
        return instructions
    return f"{instructions.strip()} {extra}" if instructions else extra


class Compactor:
    """Compaction's steps, each small: the summary (the model, else the extractive
    fallback), the record (sessions.json, transcript, event) and the memory re-sync of
    transcripts. The engine cuts its history and holds the new summary in between."""

    def __init__(self, settings: AgentSettings, store: SessionStore, emit: EventSink, *, policy: RetryPolicy,
                 on_retry: Callable[[LLMErrorInfo, int, float], None]):
        self.settings = settings
        self.store = store
        self._emit = emit
        self.policy = policy
        self._on_retry = on_retry

    def notify(self, text: str) -> None:
        """``compaction.notifyUser``: a line in the chat when a compaction starts and ends."""
        if self.settings.config.agents.defaults.compaction.notify_user:
            self._emit(events.Notice("info", text))

    def keep_tokens(self, threshold: int) -> int:
        return min(self.settings.config.agents.defaults.compaction.keep_recent_tokens, max(0, threshold // 2))

    async def summarise(self, model: ChatModel, head: list[dict[str, Any]], *, previous: str, instructions: str | None,
                        plain: bool, context_window: int, must: bool = True, in_place: InPlace | None = None) -> str | None:
        """The summary of ``head``: the model's, checked against the turns (summary_check.py) and
        asked for again (``qualityGuard.maxRetries`` times, 1 by default) when it drops an
        identifier or invents a line; then repaired from the turns' own sentences, or None (keep
        the older turns) in ``compaction.mode: "safeguard"`` unless ``must``. The extractive
        summary when the model gives none. ``qualityGuard.enabled: false`` takes the model's
        summary unchecked; ``identifierPolicy: "off"`` does not require the identifiers."""
        cfg = self.settings.config.agents.defaults.compaction
        max_chars = max(4_000, (context_window - 2_000) * 3)
        rendered = render_for_summary(head, previous_summary=previous, max_chars=max_chars)
        instructions = with_identifier_instructions(instructions, cfg.identifier_policy, cfg.identifier_instructions)
        summary = await self._ask(model, rendered, instructions, plain, in_place)
        if not summary:
            return extractive_summary(rendered, instructions)
        if not cfg.quality_guard.enabled:
            return summary
        check = self._check(summary, rendered)
        for _ in range(cfg.quality_guard.max_retries):
            if check.ok:
                return summary
            hint = retry_hint(check)
            again = await self._ask(model, rendered, f"{instructions.strip()} {hint}" if instructions else hint, plain, in_place)
            if not again:
                continue
            retried = self._check(again, rendered)
            if len(retried.missing) + len(retried.invented) <= len(check.missing) + len(check.invented):
                summary, check = again, retried
        if check.ok:
            return summary
        return self._guarded(summary, check, rendered, must=must)

    def _check(self, summary: str, rendered: str) -> SummaryCheck:
        check = check_summary(summary, rendered)
        if self.settings.config.agents.defaults.compaction.identifier_policy == "off":
            return SummaryCheck(missing=[], invented=check.invented)
        return check

    def _guarded(self, summary: str, check: SummaryCheck, rendered: str, *, must: bool) -> str | None:
        what = f"{len(check.missing)} identifier(s) left out, {len(check.invented)} line(s) not in the conversation"
        if self.settings.config.agents.defaults.compaction.mode == "safeguard" and not must:
            self._emit(events.Notice("warning", f"compaction skipped: the summary failed its check ({what}); the older turns are kept"))
            return None
        self._emit(events.Notice("info", f"compaction summary repaired from the turns' own sentences ({what})"))
        return repair(summary, check, rendered)

    async def _ask(self, model: ChatModel, rendered: str, instructions: str | None, plain: bool,
                   in_place: InPlace | None = None) -> str:
        """The model's summary ("" when it gave none or failed): asked after the session's own
        request start when ``in_place`` is given (summary_in_place.py), else, or when that
        answer is a tool call or empty, in a prompt of its own."""
        try:
            if in_place is not None:
                text = answer(await self._complete(model, in_place.request(instructions), list(in_place.tools)))
                if has_content(text):
                    return text
            text = await self._complete(model, compaction_request(rendered, instructions, plain=plain), None)
        except LLMError as exc:
            self._emit(exc.info.event())
            self._emit(events.Notice("warning", "the model could not summarise; using an extractive summary instead"))
            return ""
        if not has_content(text):
            self._emit(events.Notice("warning", "the model's summary was empty; using an extractive summary instead"))
            return ""
        return text

    async def _complete(self, model: ChatModel, messages: list[ChatMessage], tools: list[dict[str, Any]] | None) -> str:
        done = await complete_with_retries(model, messages, tools, on_delta=lambda _p: None, purpose="compaction",
                                           policy=self.policy, on_retry=self._on_retry)
        return "" if done.tool_calls else done.text.strip()

    def record(self, session_id: str, transcript: TranscriptWriter | None, entry: dict[str, Any]) -> int:
        """Count the compaction in sessions.json, append ``entry`` to the transcript, report it."""
        count: int = self.store.counters(session_id)["compactionCount"] + 1
        self.store.update(session_id, compactionCount=count)
        if transcript is not None:
            transcript.append({"type": "compaction", **entry, "compactionCount": count})
        self._emit(
            events.CompactionFinished(
                session_id=session_id,
                tokens_before=entry["tokensBefore"],
                tokens_after=entry["tokensAfter"],
                compaction_count=count,
                summary=entry["summary"],
            )
        )
        return count

    async def resync_memory(self, memory: MemoryBackend | None) -> None:
        """Transcripts are a memory source: re-sync after each compaction (DESIGN §7)."""
        ms = self.settings.memory_search
        if memory is None or not (ms.experimental.session_memory and "sessions" in ms.sources):
            return
        try:
            await asyncio.to_thread(lambda: memory.sync(force=False, reason="compaction"))
        except Exception as exc:  # noqa: BLE001
            self._emit(events.Notice("warning", f"memory sync after compaction failed: {redact(str(exc))}"))
