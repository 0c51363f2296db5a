"""Scope rules for the QMD backend (``memory.qmd.scope``, DESIGN §8).

Pure functions: given the scope config and a session key, decide allow/deny. Rules are
tried in order, first match wins; a rule with an empty ``match`` matches everything.

* ``channel`` — the messaging channel of the parsed key (``slack`` in
  ``agent:main:slack:channel:c1``); a key without one (``agent:main:main``) never matches.
* ``chatType`` — ``direct`` | ``group`` | ``channel`` of the parsed key (``dm`` is read as
  ``direct`` when the config loads).
* ``keyPrefix`` — prefix of the lowercased key *without* ``agent:<id>:``. A legacy
  ``keyPrefix`` that itself starts with ``agent:`` is compared against the raw key.
* ``rawKeyPrefix`` — prefix of the full lowercased key.

All conditions present in one ``match`` must hold; an empty string is no condition. A match
key other than these four is refused when the config loads (``QmdScopeMatch``), so a rule
can never silently widen to every session.

**Ours:** the rules apply to every session key. OpenClaw lets a key without a channel (the
main session, the CLI) through whatever the rules say; here it takes the default like any
other key (the default rules allow direct chats, which covers those keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openclaw_tui.config.models import QmdScopeConfig, QmdScopeRule
from openclaw_tui.memory.transcript_scope import PREFIX
from openclaw_tui.memory.transcript_scope import visible
from openclaw_tui.workspace.session_keys import parse_session_key


@dataclass(frozen=True)
class ScopeDecision:
    allowed: bool
    session_key: str
    chat_type: str
    channel: str | None
    rule_index: int | None  # None when the default applied

    def describe(self) -> str:
        where = f"rule #{self.rule_index + 1}" if self.rule_index is not None else "scope default"
        verdict = "allowed" if self.allowed else "denied"
        return (
            f"qmd search {verdict} by {where} for session {self.session_key or '(none)'} "
            f"(channel={self.channel or 'none'}, chatType={self.chat_type})"
        )


def _condition(value: str | None) -> str | None:
    text = (value or "").strip().lower()
    return text or None


def rule_matches(rule: QmdScopeRule, session_key: str) -> bool:
    info = parse_session_key(session_key)
    raw = info.raw.lower()
    m = rule.match
    channel = _condition(m.channel)
    if channel is not None and channel != info.channel:
        return False
    if m.chat_type is not None and m.chat_type != info.chat_type:
        return False
    prefix = _condition(m.key_prefix)
    if prefix is not None and not (raw if prefix.startswith("agent:") else info.rest).startswith(prefix):
        return False
    raw_prefix = _condition(m.raw_key_prefix)
    return raw_prefix is None or raw.startswith(raw_prefix)


def decide_scope(scope: QmdScopeConfig, session_key: str | None) -> ScopeDecision:
    key = (session_key or "").strip()
    info = parse_session_key(key)
    for i, rule in enumerate(scope.rules):
        if rule_matches(rule, key):
            return ScopeDecision(rule.action == "allow", key, info.chat_type, info.channel, i)
    return ScopeDecision(scope.default == "allow", key, info.chat_type, info.channel, None)


def qmd_get_denied(scope: QmdScopeConfig, session_key: str, kind: str, rel: str, sessions_dir: Path) -> str | None:
    """Why ``memory_get`` of a file in a qmd collection is refused to ``session_key`` (None:
    allowed). The same scope rules as search; and an exported transcript (``sessions``
    collection) is readable outside direct sessions only by the session it came from."""
    decision = decide_scope(scope, session_key)
    if not decision.allowed:
        return decision.describe().replace("qmd search", "qmd get")
    if kind == "sessions" and not visible(PREFIX + Path(rel).stem + ".jsonl", sessions_dir, session_key):
        return "that exported transcript belongs to another session"
    return None
