"""Per-model behaviour profiles: how a model is talked to, chosen by measurement.

Hosted models (OpenAI, Anthropic, …) call tools natively and read ``role: tool`` results.
Small local models (Qwen2.5 0.5B/1.5B on llama.cpp, Ollama) print calls as text, repeat a
call when its result comes back as ``role: tool``, rarely search memory on their own, and
pay ~13 ms per prompt token. Measured on Qwen2.5-Coder-1.5B/0.5B (docs/local-llm.md):
results as plain user text were answered instead of re-called, and an automatic memory
lookup before a question made recall reliable. The profile only changes how the request is
rendered; the history and transcript keep the canonical tool-call form.

    profile = profile_for(model="openai/qwen", local_server=True)
    messages = render_messages(history, profile)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast
from urllib.parse import urlparse

from openclaw_tui.llm.messages import ChatMessage

LOCAL_PROVIDERS = ("local", "ollama", "ollama_chat", "llamacpp", "llama_cpp", "lm_studio")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")
# after the results, the question again: a small model answers what it read last
RESULT_HINT = 'Using these results, answer my message "{question}" in one or two sentences. If you used a note, end with its Source: line.'
QUESTION_CAP = 300
# the automatic lookup's result count: every snippet costs prompt time on a small model
RECALL_RESULTS = 3
# the local profile offers fewer tools: every schema costs prompt time, and a small model
# that sees `write` uses it over MEMORY.md (issue 17)
LOCAL_TOOLS = ("memory_search", "read", "append", "edit")


@dataclass(frozen=True)
class ModelProfile:
    name: str  # hosted | local
    tool_results: str  # "tool": role-tool messages; "user": results as plain user text
    auto_recall: bool  # memory_search with the user's question before the model answers
    compact_prompt: bool  # the short memory section in the system prompt
    tools: tuple[str, ...] | None = None  # the tools offered (None: all the session has)
    cite_sources: bool = False  # add the Source: line an answer from memory left out (session/citations.py)
    text_calls_per_step: int | None = None  # run only the first N calls printed as text in one answer
    plain_summary: bool = False  # compaction asks for bullet points, not the sectioned checkpoint
    answer_after_repeat: bool = False  # a call repeated in one turn is not run; the next request has no tools
    hold_lead_in: bool = False  # hold the reply's first paragraph: it may narrate a call printed after it (llm/holdback.py)
    recall_results: int = RECALL_RESULTS  # how many results the automatic lookup hands the model
    # results as user text with the best hit last, next to the question: measured off for the
    # 1.5B (LoCoMo QA token-F1 0.155 vs 0.194 best first, docs/local-llm.md)
    best_result_last: bool = False
    # compaction asks for its summary after the session's own request start, which the server
    # has cached, instead of in a prompt of its own (session/summary_in_place.py)
    summary_in_place: bool = False


HOSTED = ModelProfile("hosted", tool_results="tool", auto_recall=False, compact_prompt=False)
LOCAL = ModelProfile("local", tool_results="user", auto_recall=True, compact_prompt=True, tools=LOCAL_TOOLS, cite_sources=True, text_calls_per_step=1, plain_summary=True, answer_after_repeat=True, hold_lead_in=True, summary_in_place=True)
PROFILES = {p.name: p for p in (HOSTED, LOCAL)}


LOCAL_SERVERS = ("llamacpp", "llama.cpp", "llama-cpp", "ollama", "library", "lmstudio", "lm-studio")  # "library": Ollama


def is_loopback(api_base: str | None) -> bool:
    """Whether requests go to this machine (only then is the server asked what it is)."""
    return bool(api_base) and (urlparse(api_base).hostname or "") in LOCAL_HOSTS


def serves_local_model(listing: list[dict[str, Any]]) -> bool:
    """From a ``GET /v1/models`` listing: a llama.cpp-style runtime (``owned_by``) serves it."""
    return any(str(item.get("owned_by", "")).lower() in LOCAL_SERVERS for item in listing)


def profile_for(*, model: str, local_server: bool = False, setting: str = "auto", auto_recall: bool | None = None,
                recall_results: int | None = None) -> ModelProfile:
    """``setting``: auto | hosted | local (``agents.defaults.toolProfile``); auto picks local for
    the local providers and for a loopback server that said it is llama.cpp/Ollama
    (``local_server``). ``auto_recall`` (``agents.defaults.autoRecall``) overrides the
    profile's choice when set, ``recall_results`` (``agents.defaults.autoRecallResults``) its
    result count."""
    provider = model.split("/", 1)[0].lower() if "/" in model else ""
    local = provider in LOCAL_PROVIDERS or local_server
    base = PROFILES.get(setting) or (LOCAL if local else HOSTED)
    if auto_recall is not None and auto_recall != base.auto_recall:
        base = replace(base, auto_recall=auto_recall)
    if recall_results is not None and recall_results != base.recall_results:
        base = replace(base, recall_results=recall_results)
    return base


def render_messages(messages: Sequence[Mapping[str, Any]], profile: ModelProfile) -> list[ChatMessage]:
    """The request form of a canonical history for ``profile`` (a new list; input untouched).
    The history's messages are chat messages as they are (extra keys the engine keeps in
    the transcript never reach them)."""
    if profile.tool_results == "tool":
        return [cast(ChatMessage, msg) for msg in messages]
    out: list[ChatMessage] = []
    results: list[str] = []
    question = ""
    for msg in messages:
        role = msg.get("role")
        if role == "tool":
            text = _result_text(str(msg.get("content", "")), best_last=profile.best_result_last)
            results.append(f"Result of {msg.get('name') or 'the tool'}:\n{text}")
            continue
        if results:
            out.append(_results_message(results, question))
            results = []
        if role == "user":
            question = str(msg.get("content") or "")
        if role == "assistant" and msg.get("tool_calls"):
            out.append({"role": "assistant", "content": _calls_as_text(msg)})
        else:
            out.append(cast(ChatMessage, msg))
    if results:
        out.append(_results_message(results, question))
    return out


# an MCP tool is named server__tool: the session already decided whether this profile gets it
EXTERNAL_SEP = "__"


def offered_tools(schemas: list[dict[str, Any]], profile: ModelProfile) -> list[dict[str, Any]]:
    if profile.tools is None:
        return schemas
    names = [str(s.get("function", {}).get("name", "")) for s in schemas]
    return [s for s, name in zip(schemas, names) if name in profile.tools or EXTERNAL_SEP in name]


def _result_text(content: str, *, best_last: bool = False) -> str:
    """A memory_search result as its snippets (each ends with its Source: line), else as sent;
    ``best_last``: the best hit last, where a small model reads it right before the question."""
    try:
        data = json.loads(content)
    except ValueError:
        return content
    hits = data.get("results") if isinstance(data, dict) else None
    if not isinstance(hits, list) or not hits or not all(isinstance(h, dict) and "snippet" in h for h in hits):
        return content if hits != [] else "No matching notes found."
    ordered = reversed(hits) if best_last else hits
    return "\n\n---\n\n".join(str(h["snippet"]).strip() for h in ordered)


def _results_message(results: list[str], question: str) -> ChatMessage:
    hint = RESULT_HINT.format(question=" ".join(question.split())[:QUESTION_CAP])
    return {"role": "user", "content": "\n\n".join(results) + "\n\n" + hint}


def _calls_as_text(msg: Mapping[str, Any]) -> str:
    lines = [str(msg.get("content") or "").strip()]
    for tc in msg.get("tool_calls") or []:
        fn = tc.get("function") or {}
        try:
            args = json.loads(fn.get("arguments") or "{}")
        except (ValueError, RecursionError):
            args = fn.get("arguments")
        lines.append(json.dumps({"name": fn.get("name"), "arguments": args}, ensure_ascii=False))
    return "\n".join(line for line in lines if line)
