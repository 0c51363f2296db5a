"""Pydantic models mirroring the parts of ``openclaw.json`` this product reads.

Field names are snake_case in Python and camelCase in JSON (OpenClaw's spelling).
Unknown keys are ignored everywhere so a full OpenClaw config (channels, gateway, …)
loads unchanged; a wrong type or value fails with the dotted key.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, List, Literal, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, ValidationInfo, field_validator, model_validator
from pydantic.alias_generators import to_camel

from openclaw_tui.config.secrets import SecretInput


def _numeric(annotation: Any) -> bool:
    if annotation in (int, float):
        return True
    args = get_args(annotation) if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType" else ()
    return bool(args) and bool not in args and any(a in (int, float) for a in args)


class Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        validate_assignment=True,
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        # pydantic's lax mode would read `maxToolSteps: true` as 1
        if isinstance(value, bool) and info.field_name and _numeric(cls.model_fields[info.field_name].annotation):
            raise ValueError(f"must be a number, not {str(value).lower()}")
        field = cls.model_fields.get(info.field_name or "")
        problem = None if field is None or _holds_models(field.annotation) else _unsafe_value(value)
        if problem:
            raise ValueError(problem)
        return value


def _holds_models(annotation: Any) -> bool:
    """Whether a field's type contains config models (they check their own fields by name)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_models(a) for a in get_args(annotation))


def _unsafe_value(value: Any, depth: int = 0) -> str | None:
    """Why a raw config value cannot be used: a non-finite number (NaN scores, invalid JSON
    output) or a NUL byte (no path or header can hold one). Lists and dicts are walked."""
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    if isinstance(value, str) and "\x00" in value:
        return "must not contain a NUL byte"
    if depth < 8 and isinstance(value, (list, tuple)):
        return next((p for p in (_unsafe_value(v, depth + 1) for v in value) if p), None)
    if depth < 8 and isinstance(value, dict):
        items = list(value.keys()) + list(value.values())
        return next((p for p in (_unsafe_value(v, depth + 1) for v in items) if p), None)
    return None


# --------------------------------------------------------------------------- memorySearch


class RemoteBatchConfig(Model):
    enabled: bool = False
    wait: bool = True
    poll_interval_ms: int = Field(2000, ge=1)
    timeout_minutes: float = Field(60, gt=0)
    concurrency: int = Field(2, ge=1, le=64)


class RemoteConfig(Model):
    base_url: str | None = None
    # repr=False: keys must not show in reprs (Textual's crash traceback prints locals)
    api_key: SecretInput | None = Field(None, repr=False)
    headers: dict[str, SecretInput] = Field(default_factory=dict, repr=False)
    batch: RemoteBatchConfig = Field(default_factory=RemoteBatchConfig)


class LocalConfig(Model):
    model_path: str | None = None
    model_cache_dir: str | None = None


class VectorStoreConfig(Model):
    enabled: bool = True
    extension_path: str | None = None


class FtsConfig(Model):
    #: OpenClaw's ``store.fts.tokenizer``: unicode61 (default) or trigram (CJK and other
    #: scripts written without spaces)
    tokenizer: Literal["unicode61", "trigram"] = "unicode61"


class StoreConfig(Model):
    driver: Literal["sqlite"] = "sqlite"
    path: str = "{stateDir}/memory/{agentId}.sqlite"
    vector: VectorStoreConfig = Field(default_factory=VectorStoreConfig)
    fts: FtsConfig = Field(default_factory=FtsConfig)


class ChunkingConfig(Model):
    tokens: int = Field(400, ge=16, le=8192)
    overlap: int = Field(80, ge=0)

    @model_validator(mode="after")
    def _overlap_below_tokens(self) -> "ChunkingConfig":
        if self.overlap >= self.tokens:
            raise ValueError(
                f"overlap ({self.overlap}) must be smaller than tokens ({self.tokens})"
            )
        return self


class SessionSyncConfig(Model):
    delta_bytes: int = Field(100_000, ge=0)
    delta_messages: int = Field(50, ge=0)


class SyncConfig(Model):
    on_session_start: bool = True
    on_search: bool = True
    watch: bool = True
    watch_debounce_ms: int = Field(1500, ge=0)
    interval_minutes: float = Field(0, ge=0)
    sessions: SessionSyncConfig = Field(default_factory=SessionSyncConfig)


class MmrConfig(Model):
    enabled: bool = False
    lambda_: float = Field(0.7, ge=0, le=1, alias="lambda")


class TemporalDecayConfig(Model):
    enabled: bool = False
    half_life_days: float = Field(30, gt=0)


class HybridConfig(Model):
    enabled: bool = True
    vector_weight: float = Field(0.7, ge=0)
    text_weight: float = Field(0.3, ge=0)
    candidate_multiplier: int = Field(4, ge=1, le=50)
    mmr: MmrConfig = Field(default_factory=MmrConfig)
    temporal_decay: TemporalDecayConfig = Field(default_factory=TemporalDecayConfig)

    @model_validator(mode="after")
    def _weights_not_both_zero(self) -> "HybridConfig":
        if self.vector_weight + self.text_weight <= 0:
            raise ValueError("vectorWeight and textWeight cannot both be 0")
        return self


class QueryConfig(Model):
    max_results: int = Field(6, ge=1, le=100)
    min_score: float = Field(0.35, ge=0, le=1)
    hybrid: HybridConfig = Field(default_factory=HybridConfig)


class CacheConfig(Model):
    enabled: bool = True
    max_entries: int = Field(50_000, ge=0)


class ExperimentalConfig(Model):
    session_memory: bool = False


#: the embedding adapters this product runs itself
OWN_PROVIDERS = ("auto", "local", "openai", "gemini", "voyage", "mistral", "ollama", "none")
#: OpenClaw's other adapter ids: the OpenAI-compatible ones run on our openai adapter, the
#: rest are reported as not honoured (config/embedding_target.py)
UPSTREAM_PROVIDERS = ("openai-compatible", "lmstudio", "deepinfra", "bedrock", "github-copilot")
#: a provider id: one of the above or a ``models.providers.<id>`` (checked where the whole
#: config is known, config/generations.py)
ProviderName = str
PROVIDER_ID_RE = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


class ExtraPathEntry(Model):
    """OpenClaw's object form of an ``extraPaths`` entry (``openclaw doctor`` writes it):
    a directory or file and the glob its files must match, relative to it."""

    path: str
    pattern: str = "**/*.md"

    @field_validator("path", "pattern")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    def key(self) -> tuple[str, str]:
        return self.path, self.pattern


ExtraPath = Union[str, ExtraPathEntry]


def extra_path_text(entry: ExtraPath) -> str:
    """The path of an ``extraPaths`` entry, whatever its form."""
    return entry if isinstance(entry, str) else entry.path


def extra_path_pattern(entry: ExtraPath) -> str | None:
    """The glob of an object entry; None for a plain path (every ``.md`` under it)."""
    return None if isinstance(entry, str) else entry.pattern


class MemorySearchConfig(Model):
    enabled: bool = True
    provider: ProviderName = "auto"
    model: str | None = None
    fallback: ProviderName = "none"
    sources: list[Literal["memory", "sessions"]] = Field(default_factory=lambda: ["memory"])  # type: ignore[arg-type]  # pydantic's stub: list[str] vs list[Literal]
    extra_paths: list[ExtraPath] = Field(default_factory=list)
    experimental: ExperimentalConfig = Field(default_factory=ExperimentalConfig)
    remote: RemoteConfig = Field(default_factory=RemoteConfig)
    local: LocalConfig = Field(default_factory=LocalConfig)
    store: StoreConfig = Field(default_factory=StoreConfig)
    chunking: ChunkingConfig = Field(default_factory=ChunkingConfig)
    sync: SyncConfig = Field(default_factory=SyncConfig)
    query: QueryConfig = Field(default_factory=QueryConfig)
    cache: CacheConfig = Field(default_factory=CacheConfig)

    @field_validator("provider", "fallback", mode="before")
    @classmethod
    def _provider_id(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("must be a provider id (a string)")
        value = value.strip()
        if not re.match(PROVIDER_ID_RE, value):
            raise ValueError(
                f"{value!r} is not a provider id: use {', '.join(OWN_PROVIDERS + UPSTREAM_PROVIDERS)} "
                "or the id of a models.providers entry"
            )
        return value

    @field_validator("extra_paths")
    @classmethod
    def _trimmed_distinct_paths(cls, value: list[ExtraPath]) -> list[ExtraPath]:
        # OpenClaw trims each entry, drops empty ones and keeps the first of duplicates
        seen: set[tuple[str, str | None]] = set()
        out: list[ExtraPath] = []
        for item in value:
            if isinstance(item, str) and "\x00" in item:
                raise ValueError("must not contain a NUL byte")
            item = item.strip() if isinstance(item, str) else item
            if isinstance(item, str) and not item:
                continue
            key = (extra_path_text(item), extra_path_pattern(item))
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out


# --------------------------------------------------------------------------- compaction

DEFAULT_FLUSH_SYSTEM_PROMPT = "Session nearing compaction. Store durable memories now."
DEFAULT_FLUSH_PROMPT = (
    "Write any lasting notes to memory/YYYY-MM-DD.md; reply with NO_REPLY if nothing to store."
)


#: OpenClaw's default (extensions/memory-core/src/flush-plan.ts): 2 MiB
DEFAULT_FORCE_FLUSH_TRANSCRIPT_BYTES = 2 * 1024 * 1024
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)?\s*$", re.I)
_SIZE_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_byte_size(text: str) -> int:
    """``"2mb"`` -> 2097152; ``"512k"``, ``"1.5 MiB"``, ``"4096"``. Units are binary, as OpenClaw's."""
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a size: write a number of bytes or a size such as \"2mb\" or \"512kb\"")
    unit = (m.group(2) or "").lower()[:1]
    return int(float(m.group(1)) * _SIZE_UNITS[unit])


class MemoryFlushConfig(Model):
    enabled: bool = True
    soft_threshold_tokens: int = Field(4000, ge=0)
    prompt: str = DEFAULT_FLUSH_PROMPT
    system_prompt: str = DEFAULT_FLUSH_SYSTEM_PROMPT
    # who writes the notes (session/flush.py): "model" (the model's own tool calls), "engine"
    # (the user's fact sentences, dates made absolute), "hybrid" (the model, then the engine
    # adds what it left out); "auto": engine for local models and the offline agent, hybrid
    # for hosted ones (measured: docs/session.md#fact-survival)
    mode: Literal["auto", "model", "engine", "hybrid"] = "auto"
    #: OpenClaw's ``memoryFlush.model``: the model the silent flush turn runs on (None: the
    #: session's model; session/flush_model.py).
    model: str | None = None
    # store the unflushed fact sentences on /new and when the session ends (engine notes, no model call)
    on_session_end: bool = True
    #: OpenClaw's ``forceFlushTranscriptBytes``: flush once the session's transcript file has
    #: reached this size, even when the token counts are stale (bytes, or "2mb"; 0 turns it off)
    force_flush_transcript_bytes: int = Field(DEFAULT_FORCE_FLUSH_TRANSCRIPT_BYTES, ge=0)

    @field_validator("force_flush_transcript_bytes", mode="before")
    @classmethod
    def _byte_size(cls, v: Any) -> Any:
        return parse_byte_size(v) if isinstance(v, str) else v

    @field_validator("model", mode="before")
    @classmethod
    def _model_primary(cls, v: Any) -> Any:
        # the same shorthand OpenClaw allows for agent models: {"primary": "provider/name"}
        if isinstance(v, dict) and set(v) <= {"primary", "fallbacks"}:
            return v.get("primary")
        return v


class QualityGuardConfig(Model):
    """OpenClaw's ``compaction.qualityGuard``: the summary audit (here: session/summary_check.py)
    and how many times a failing summary is asked for again."""

    enabled: bool = True
    max_retries: int = Field(1, ge=0, le=5)


class CompactionConfig(Model):
    mode: Literal["default", "safeguard"] = "default"
    reserve_tokens: int | None = Field(None, ge=0)
    reserve_tokens_floor: int = Field(20_000, ge=0)
    keep_recent_tokens: int = Field(20_000, ge=0)
    #: OpenClaw's ``recentTurnsPreserve``: the last N user turns (with the replies and tool
    #: calls after them) are never summarised, whatever ``keepRecentTokens`` allows
    recent_turns_preserve: int | None = Field(None, ge=0, le=12)
    #: ``strict``: the summary must keep the exact identifiers of what it replaces; ``off``: it
    #: need not; ``custom``: strict, with ``identifierInstructions`` added to the request
    identifier_policy: Literal["strict", "off", "custom"] = "strict"
    identifier_instructions: str | None = None
    quality_guard: QualityGuardConfig = Field(default_factory=QualityGuardConfig)
    #: tell the user in the chat when a compaction starts and ends
    notify_user: bool = False
    memory_flush: MemoryFlushConfig = Field(default_factory=MemoryFlushConfig)

    @property
    def effective_reserve(self) -> int:
        return max(self.reserve_tokens or 0, self.reserve_tokens_floor)


class SandboxConfig(Model):
    workspace_access: Literal["rw", "ro", "none"] = "rw"


class AgentModelConfig(Model):
    primary: str | None = None
    fallbacks: list[str] = Field(default_factory=list)



def _primary_shorthand(v: Any) -> Any:
    """OpenClaw accepts ``model: "provider/name"`` as a shorthand for ``{primary: …}``."""
    return {"primary": v} if isinstance(v, str) else v


ModelShorthand = Annotated[AgentModelConfig, BeforeValidator(_primary_shorthand)]


class AgentMcpConfig(Model):
    #: offer MCP tools to the local profile too (every schema costs a small model prompt time)
    local: bool = False


class AgentDefaults(Model):
    workspace: str | None = None
    model: ModelShorthand = Field(default_factory=AgentModelConfig)
    context_tokens: int | None = Field(None, ge=1000)
    #: math threads of the managed llama.cpp server; None: the machine's physical cores
    #: (``llm/local/threads.py``); ``OPENCLAW_LOCAL_THREADS`` overrides it for one run
    local_threads: int | None = Field(None, ge=1, le=512)
    memory_search: MemorySearchConfig = Field(default_factory=MemorySearchConfig)
    compaction: CompactionConfig = Field(default_factory=CompactionConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    max_tool_steps: int = Field(12, ge=1, le=200)
    # how the model is talked to (openclaw_tui.llm.profiles): auto picks "local" for llama.cpp/Ollama
    tool_profile: Literal["auto", "hosted", "local"] = "auto"
    # memory_search with the user's question before the model answers; None: the profile decides
    auto_recall: bool | None = None
    # how many results that lookup hands the model; None: the profile's (3 for local models)
    auto_recall_results: int | None = Field(None, ge=1, le=20)
    #: OpenClaw's cap on one whole model call (connect + stream), seconds
    timeout_seconds: float | None = Field(None, gt=0)
    mcp: AgentMcpConfig = Field(default_factory=AgentMcpConfig)


class AgentEntry(Model):
    id: str
    default: bool = False
    name: str | None = None
    workspace: str | None = None
    model: ModelShorthand | None = None
    memory_search: dict[str, Any] | None = None
    sandbox: SandboxConfig | None = None


class AgentMemoryOverride(Model):
    """``agents.entries.<id>.memory``: only ``search`` is read (a partial memorySearch,
    merged over the defaults like ``agents.list[].memorySearch``); other keys are ignored."""

    search: dict[str, Any] | None = None


class AgentEntryOverride(Model):
    """``agents.entries.<id>``: OpenClaw's current way to define an agent, keyed by its id
    (``agents.list`` is April's spelling, still read). Where both define one id, the keys
    written here win (config/agents_table.py)."""

    default: bool | None = None
    name: str | None = None
    workspace: str | None = None
    model: ModelShorthand | None = None
    sandbox: SandboxConfig | None = None
    #: the intermediate spelling of ``memory.search`` (a partial memorySearch)
    memory_search: dict[str, Any] | None = None
    memory: AgentMemoryOverride | None = None


class AgentsConfig(Model):
    defaults: AgentDefaults = Field(default_factory=AgentDefaults)
    list: List[AgentEntry] = Field(default_factory=lambda: [])
    entries: dict[str, AgentEntryOverride] = Field(default_factory=dict)


# --------------------------------------------------------------------------- models.providers


class ProviderModelEntry(Model):
    id: str
    name: str | None = None
    context_window: int | None = Field(None, ge=1)
    max_tokens: int | None = Field(None, ge=1)


class ProviderEntry(Model):
    base_url: str | None = None
    api_key: SecretInput | None = Field(None, repr=False)
    api: str | None = None
    headers: dict[str, SecretInput] = Field(default_factory=dict, repr=False)
    models: list[ProviderModelEntry] = Field(default_factory=list)


class ModelsConfig(Model):
    providers: dict[str, ProviderEntry] = Field(default_factory=dict)


# --------------------------------------------------------------------------- memory (backend, qmd)


class QmdPathEntry(Model):
    path: str
    pattern: str = "**/*.md"
    name: str | None = None


class QmdSessionsConfig(Model):
    enabled: bool = False
    retention_days: int | None = Field(None, ge=0)
    export_dir: str | None = None


class QmdUpdateConfig(Model):
    interval: str = "5m"
    debounce_ms: int = Field(15_000, ge=0)
    on_boot: bool = True
    wait_for_boot_sync: bool = False
    embed_interval: str | None = None
    command_timeout_ms: int = Field(30_000, ge=1)
    update_timeout_ms: int = Field(120_000, ge=1)
    embed_timeout_ms: int = Field(120_000, ge=1)


class QmdLimitsConfig(Model):
    max_results: int = Field(6, ge=1)
    max_snippet_chars: int = Field(700, ge=1)
    max_injected_chars: int = Field(4000, ge=1)
    timeout_ms: int = Field(4000, ge=1)


def _strict_keys(value: Any, allowed: tuple[str, ...], what: str) -> Any:
    """Scope objects fail closed: an unknown key (a typo, or a key of a newer OpenClaw) would
    silently widen a rule, so it is refused by name."""
    if isinstance(value, dict):
        unknown = [k for k in value if k not in allowed and _camel_key(k) not in allowed]
        if unknown:
            raise ValueError(
                f"unknown {what} key {unknown[0]!r}: allowed keys are {', '.join(allowed)} "
                "(refused rather than ignored, so a rule never matches more than written)"
            )
    return value


def _camel_key(name: str) -> str:
    return to_camel(name) if "_" in name else name


class QmdScopeMatch(Model):
    channel: str | None = None
    chat_type: Literal["direct", "group", "channel"] | None = None
    key_prefix: str | None = None
    raw_key_prefix: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, value: Any) -> Any:
        value = _strict_keys(value, ("channel", "chatType", "keyPrefix", "rawKeyPrefix"), "scope match")
        if isinstance(value, dict) and value.get("chatType") == "dm":  # OpenClaw's deprecated spelling
            value = {**value, "chatType": "direct"}
        return value


class QmdScopeRule(Model):
    action: Literal["allow", "deny"]
    match: QmdScopeMatch = Field(default_factory=QmdScopeMatch)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, value: Any) -> Any:
        return _strict_keys(value, ("action", "match"), "scope rule")


class QmdScopeConfig(Model):
    default: Literal["allow", "deny"] = "deny"
    rules: list[QmdScopeRule] = Field(
        default_factory=lambda: [QmdScopeRule(action="allow", match=QmdScopeMatch(chat_type="direct"))]
    )

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, value: Any) -> Any:
        return _strict_keys(value, ("default", "rules"), "scope")


class QmdConfig(Model):
    command: str | None = None
    search_mode: Literal["search", "vsearch", "query"] = "search"
    include_default_memory: bool = True
    paths: list[QmdPathEntry] = Field(default_factory=list)
    sessions: QmdSessionsConfig = Field(default_factory=QmdSessionsConfig)
    update: QmdUpdateConfig = Field(default_factory=QmdUpdateConfig)
    limits: QmdLimitsConfig = Field(default_factory=QmdLimitsConfig)
    scope: QmdScopeConfig = Field(default_factory=QmdScopeConfig)


class MemoryConfig(Model):
    backend: Literal["builtin", "qmd"] = "builtin"
    citations: Literal["auto", "on", "off"] = "auto"
    qmd: QmdConfig = Field(default_factory=QmdConfig)
    #: OpenClaw's current generation of ``agents.defaults.memorySearch`` (config/generations.py
    #: merges the two; only the keys written here count, see ``model_fields_set``)
    search: MemorySearchConfig | None = None


class PluginSlots(Model):
    memory: str = "memory-core"


class PluginsConfig(Model):
    slots: PluginSlots = Field(default_factory=PluginSlots)


class UiConfig(Model):
    theme: Literal["dark", "light"] = "dark"


# --------------------------------------------------------------------------- mcp (client side)

MCP_SERVER_NAME_RE = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"


def legacy_timeout_ms(value: Any) -> int | None:
    """A retired MCP ``timeout`` in milliseconds: 1000 or more is read as milliseconds (the
    ``30000`` such configs hold), a smaller number as seconds; anything else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return int(value) if value >= 1000 else int(value * 1000)


class McpServerConfig(Model):
    """One MCP server: a command to start (stdio) or a ``url`` (streamable HTTP)."""

    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, SecretInput] = Field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, SecretInput] = Field(default_factory=dict, repr=False)
    enabled: bool = True
    #: each tool call, seconds (and start-up, unless startupTimeoutSeconds is set)
    timeout_seconds: float = Field(30, gt=0, le=3600)
    startup_timeout_seconds: float | None = Field(None, gt=0, le=3600)
    #: OpenClaw's spelling: ``stdio`` or ``streamable-http`` (``sse`` is not run here)
    transport: Literal["stdio", "streamable-http", "http", "sse"] | None = None
    #: OpenClaw's per-request and connect timeouts (ms); they win over the seconds keys
    request_timeout_ms: int | None = Field(None, ge=1, le=3_600_000)
    connection_timeout_ms: int | None = Field(None, ge=1, le=3_600_000)

    @model_validator(mode="before")
    @classmethod
    def _retired_spellings(cls, value: Any) -> Any:
        """Keys ``openclaw doctor`` retires, read as it migrates them (config/migrate.py):
        ``type`` -> ``transport``, ``disabled`` -> ``enabled``, ``timeout`` (seconds) ->
        the per-request timeout."""
        if not isinstance(value, dict):
            return value
        value = dict(value)
        if "type" in value and "transport" not in value:
            value["transport"] = value["type"]
        if "disabled" in value and "enabled" not in value and isinstance(value["disabled"], bool):
            value["enabled"] = not value["disabled"]
        if "timeout" in value and "timeoutSeconds" not in value and "requestTimeoutMs" not in value:
            ms = legacy_timeout_ms(value["timeout"])
            if ms is not None:
                value["requestTimeoutMs"] = ms
        for key in ("type", "disabled", "timeout"):
            value.pop(key, None)
        return value

    @model_validator(mode="after")
    def _one_transport(self) -> "McpServerConfig":
        if self.request_timeout_ms is not None:
            self.__dict__["timeout_seconds"] = self.request_timeout_ms / 1000
        if self.connection_timeout_ms is not None:
            self.__dict__["startup_timeout_seconds"] = self.connection_timeout_ms / 1000
        if bool(self.command) == bool(self.url):
            raise ValueError("give either command (a stdio server) or url (streamable HTTP), not both or neither")
        if self.transport == "stdio" and not self.command:
            raise ValueError("transport is stdio: give command (the server to start)")
        if self.transport in ("streamable-http", "http", "sse") and not self.url:
            raise ValueError(f"transport is {self.transport}: give url")
        if self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError(f"url {self.url!r} must start with http:// or https://")
        return self


class McpConfig(Model):
    servers: dict[str, McpServerConfig] = Field(default_factory=dict)

    @field_validator("servers")
    @classmethod
    def _names(cls, value: dict[str, McpServerConfig]) -> dict[str, McpServerConfig]:
        for name in value:
            if not re.match(MCP_SERVER_NAME_RE, name) or "__" in name:
                raise ValueError(
                    f"server name {name!r}: use letters, digits, '-' or '_' (max 32, no '__'); "
                    "tools are offered as <name>__<tool>"
                )
        return value


class OpenClawConfig(Model):
    agents: AgentsConfig = Field(default_factory=AgentsConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    plugins: PluginsConfig = Field(default_factory=PluginsConfig)
    ui: UiConfig = Field(default_factory=UiConfig)
    mcp: McpConfig = Field(default_factory=McpConfig)
    #: the file's own keys (config/honoured.py reports what is written and not honoured)
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)

    def remember_raw(self, data: dict[str, Any]) -> None:
        self._raw = data

    @property
    def raw(self) -> dict[str, Any]:
        return self._raw

    @property
    def memory_plugin_enabled(self) -> bool:
        return self.plugins.slots.memory.strip().lower() != "none"
