"""Load ``openclaw.json`` (JSON5), validate it, and resolve per-agent settings."""

from __future__ import annotations

import copy
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import json5
from pydantic import ValidationError

from openclaw_tui.config.errors import ConfigError
from openclaw_tui.config.agents_table import default_row, find_row
from openclaw_tui.config.generations import ResolvedSearch, provider_problems, resolve_memory_search
from openclaw_tui.config.models import AgentEntry, MemorySearchConfig, OpenClawConfig, StoreConfig
from openclaw_tui.config.secrets import is_secret_ref_shape
from openclaw_tui.redaction import is_secret_name, register_secret, register_url
from openclaw_tui.state_dir import state_dir
from openclaw_tui.workspace.session_keys import parse_session_key

log = logging.getLogger("openclaw_tui.config")

DEFAULT_AGENT_ID = "main"
SECRET_KEY_RE = re.compile(r"(api[_-]?key|token|secret|password|authorization)$", re.I)
AGENT_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


# --------------------------------------------------------------------------- paths


def default_config_path() -> Path:
    env = os.environ.get("OPENCLAW_CONFIG_PATH")
    if env:
        return Path(env).expanduser()
    return state_dir() / "openclaw.json"


# --------------------------------------------------------------------------- errors


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _dotted(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            text = str(item)
            if text.startswith("function-") or text in {"literal", "str", "int", "float", "bool"}:
                continue
            text = _camel(text.rstrip("_"))
            parts.append(("." if parts else "") + text)
    return "".join(parts) or "(root)"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def format_validation_error(err: ValidationError, source: str) -> str:
    lines = []
    for e in err.errors():
        key = _dotted(tuple(e.get("loc", ())))
        msg = e.get("msg", "invalid value")
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        bad = e.get("input")
        got = "" if isinstance(bad, dict) else f" (got {_short(bad)})"
        lines.append(f"{key}: {msg}{got}")
    head = f"invalid config in {source}: " if source else "invalid config: "
    return head + "; ".join(lines) + ". Fix the key(s) named above or remove them to use the default."


# --------------------------------------------------------------------------- loading


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    cur = data
    parts = dotted.split(".")
    for p in parts[:-1]:
        nxt = cur.get(p)
        if not isinstance(nxt, dict):
            nxt = {}
            cur[p] = nxt
        cur = nxt
    cur[parts[-1]] = value


def read_raw_config(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config {path} is not valid UTF-8 (byte {exc.start}); save it as UTF-8") from None
    except IsADirectoryError:
        raise ConfigError(f"config {path} is a directory; give the path of the JSON5 file (--config FILE)") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    if not text.strip():
        return {}
    try:
        data = json5.loads(text)
    except ValueError as exc:
        where = re.sub(r"^<string>:(\d+) (.*) at column (\d+)$", r"line \1, column \3: \2", str(exc))
        raise ConfigError(f"config {path} is not valid JSON5: {where}; fix the syntax there") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path} must hold an object at the top level, got {type(data).__name__}")
    return data


def validate_config(data: dict[str, Any], source: str = "") -> OpenClawConfig:
    try:
        cfg = OpenClawConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, source)) from None
    problems = provider_problems(cfg)
    if problems:
        head = f"invalid config in {source}: " if source else "invalid config: "
        raise ConfigError(head + "; ".join(problems) + ". Fix the key(s) named above or remove them to use the default.")
    cfg.remember_raw(data)
    _register_secrets(data)
    return cfg


def _register_secrets(node: Any, key: str = "", depth: int = 0) -> None:
    """Every configured secret (``apiKey`` fields, secret-named headers, secret query
    parameters in URLs) is registered so all later output redacts it."""
    if depth > 12:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            _register_secrets(v, str(k), depth + 1)
    elif isinstance(node, list):
        for v in node:
            _register_secrets(v, key, depth + 1)
    elif isinstance(node, str):
        if is_secret_name(key):
            register_secret(node)
        if "://" in node or "?" in node:
            register_url(node)


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> OpenClawConfig:
    cfg_path = Path(path).expanduser() if path else default_config_path()
    if path and not cfg_path.exists():
        raise ConfigError(f"config file {cfg_path} does not exist (given with --config)")
    raw = read_raw_config(cfg_path)
    if overrides:
        raw = deep_merge(raw, overrides)
    return validate_config(raw, str(cfg_path))


# --------------------------------------------------------------------------- masking


def mask_secret(value: str | None) -> str | None:
    if not value:
        return value
    return "***" if len(value) < 12 else value[:3] + "***" + value[-2:]


_URL_PASSWORD_RE = re.compile(r"(://[^/@:\s]*):[^/@\s]+@")
SECRET_HEADERS = {"authorization", "proxy-authorization", "cookie", "x-api-key", "x-goog-api-key"}


def mask_url(value: str | None) -> str | None:
    """``http://user:pw@host`` -> ``http://user:***@host`` and ``?api-key=…`` -> ``?api-key=***``."""
    if not value:
        return value
    return _QUERY_SECRET_RE.sub(r"\1***", _URL_PASSWORD_RE.sub(r"\1:***@", value))


_QUERY_SECRET_RE = re.compile(r"(?i)([?&;][^=&\s#?]*(?:key|token|secret|auth|passw|signature|sig)[^=&\s#?]*=)[^&\s#]+")


def mask_secret_ref(ref: dict[str, Any]) -> dict[str, Any]:
    """A SecretRef in ``config show``: its source and provider, its id masked like a key."""
    return {**ref, "id": mask_secret(str(ref.get("id") or ""))}


def masked_dump(cfg: OpenClawConfig) -> dict[str, Any]:
    data = cfg.model_dump(mode="json", by_alias=True)
    if cfg.memory.search is not None:  # only what was written: the effective values are in _resolved
        data["memory"]["search"] = cfg.memory.search.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out: dict[Any, Any] = {}
            for k, v in node.items():
                if isinstance(v, str) and SECRET_KEY_RE.search(str(k)):
                    out[k] = mask_secret(v)
                elif is_secret_ref_shape(v):
                    out[k] = mask_secret_ref(v)
                elif str(k).lower() == "headers" and isinstance(v, dict):
                    out[k] = {hk: ("***" if is_secret_name(hk) or hk.lower() in SECRET_HEADERS else hv) for hk, hv in v.items()}
                    out[k].update({hk: mask_secret_ref(hv) for hk, hv in v.items() if is_secret_ref_shape(hv)})
                else:
                    out[k] = walk(v)
            return out
        if isinstance(node, list):
            return [walk(x) for x in node]
        if isinstance(node, str):
            return mask_url(node)
        return node

    masked: dict[str, Any] = walk(data)
    return masked


# --------------------------------------------------------------------------- per-agent settings


@dataclass
class AgentSettings:
    """Everything the runtime needs for one agent, resolved from config + CLI flags."""

    config: OpenClawConfig
    agent_id: str
    workspace: Path
    state_dir: Path
    workspace_access: str
    memory_search: MemorySearchConfig
    session_key: str
    model: str | None = None
    api_base: str | None = None
    api_key: str | None = field(default=None, repr=False)
    #: where each memorySearch value came from (config/generations.py; ``config show``)
    memory_search_sources: ResolvedSearch | None = field(default=None, repr=False)

    @property
    def index_path(self) -> Path:
        raw = self.memory_search.store.path
        raw = raw.replace("{agentId}", self.agent_id).replace("{stateDir}", str(self.state_dir))
        return Path(raw).expanduser()

    @property
    def sessions_dir(self) -> Path:
        return self.state_dir / "agents" / self.agent_id / "sessions"

    @property
    def agent_dir(self) -> Path:
        return self.state_dir / "agents" / self.agent_id


def _index_outside_workspace(ms: MemorySearchConfig, workspace: Path, sd: Path, agent_id: str, access: str) -> MemorySearchConfig:
    """In ``ro``/``none`` the index may not live in the workspace: it moves to the state dir."""
    raw = ms.store.path.replace("{agentId}", agent_id).replace("{stateDir}", str(sd))
    index = Path(os.path.abspath(Path(raw).expanduser()))
    real_ws = Path(os.path.realpath(workspace))
    real_index = Path(os.path.realpath(index))
    if not (real_index == real_ws or real_ws in real_index.parents or workspace in index.parents):
        return ms
    default = StoreConfig.model_fields["path"].default
    log.warning(
        "memorySearch.store.path %s is inside the workspace, which is %s in this session; "
        "the index goes to %s instead", index, "read-only" if access == "ro" else "not accessible",
        default.replace("{agentId}", agent_id).replace("{stateDir}", str(sd)),
    )
    return ms.model_copy(update={"store": ms.store.model_copy(update={"path": default})})


def default_agent_entry(cfg: OpenClawConfig) -> AgentEntry | None:
    """The agent marked ``default`` (``agents.list`` or ``agents.entries``), else the first one,
    else None (``main``); config/agents_table.py."""
    row = default_row(cfg)
    return row.entry if row else None


def agent_workspace(cfg: OpenClawConfig, agent_id: str, entry: AgentEntry | None, sd: Path) -> Path:
    """OpenClaw's rule: the agent's own ``workspace``; for the default agent
    ``agents.defaults.workspace`` (else ``<stateDir>/workspace``); for any other agent
    ``<agents.defaults.workspace>/<id>`` (else ``<stateDir>/workspace-<id>``), so two agents
    never share memory files by accident."""
    own = (entry.workspace or "").strip() if entry else ""
    if own:
        return Path(own).expanduser()
    fallback = (cfg.agents.defaults.workspace or "").strip()
    default = default_agent_entry(cfg)
    if agent_id == (default.id.strip().lower() if default else DEFAULT_AGENT_ID):
        return Path(fallback).expanduser() if fallback else sd / "workspace"
    return Path(fallback).expanduser() / agent_id if fallback else sd / f"workspace-{agent_id}"


def agent_of_session_key(session_key: str | None, agent_id: str | None, label: str = "--session-key") -> str | None:
    """The agent a session key belongs to (``agent:<id>:…``), or None for a key without one.
    A key of another agent than an explicit ``--agent`` is refused: its transcript, index and
    workspace would be mixed with that agent's."""
    key_agent = parse_session_key(session_key or "").agent_id
    if key_agent is None:
        return None
    if agent_id is not None and agent_id.strip().lower() != key_agent:
        raise ConfigError(
            f"{label} {(session_key or '').strip()!r} belongs to agent {key_agent!r}, not to --agent "
            f"{agent_id.strip().lower()!r}: pass --agent {key_agent} or a key starting agent:{agent_id.strip().lower()}:"
        )
    return key_agent


def resolve_agent(
    cfg: OpenClawConfig,
    *,
    agent_id: str | None = None,
    workspace: str | Path | None = None,
    workspace_access: str | None = None,
    session_key: str | None = None,
    model: str | None = None,
    api_base: str | None = None,
    api_key: str | None = None,
) -> AgentSettings:
    entry = None
    row = None
    flag = "--agent"
    key_agent = agent_of_session_key(session_key, agent_id)
    if agent_id is None and key_agent is not None:
        agent_id, flag = key_agent, "--session-key"
    given = agent_id
    if agent_id is None:
        row = default_row(cfg)
        agent_id = row.entry.id if row else DEFAULT_AGENT_ID
    else:
        row = find_row(cfg, agent_id)
    entry = row.entry if row else None
    agent_id = agent_id.strip().lower()
    if not AGENT_ID_RE.match(agent_id):
        if given is None and row is not None:  # the id was written in the config file
            where = f"{row.where}.id" if row.entries_key is None else f"{row.where} (its key is the agent id)"
            bad = row.entry.id
        else:
            where, bad = flag, str(given)
        raise ConfigError(f"{where}: agent id {bad!r} is invalid: use lowercase letters, digits, '-' or '_' (max 64)")

    resolved = resolve_memory_search(cfg, agent_id, entry)
    ms = resolved.config

    sd = state_dir()
    ws_path = Path(workspace).expanduser() if workspace else agent_workspace(cfg, agent_id, entry, sd)

    access = workspace_access or (
        entry.sandbox.workspace_access if entry and entry.sandbox else cfg.agents.defaults.sandbox.workspace_access
    )
    if access not in {"rw", "ro", "none"}:
        raise ConfigError(f"workspace access {access!r} is invalid: use rw, ro or none")

    primary = model
    if primary is None:
        m = entry.model if entry and entry.model else cfg.agents.defaults.model
        primary = m.primary if m else None

    ws_final = ws_path.resolve() if ws_path.exists() else ws_path.absolute()
    if access != "rw":
        ms = _index_outside_workspace(ms, ws_final, sd, agent_id, access)
    if api_key:
        register_secret(api_key)
    register_url(api_base)

    return AgentSettings(
        config=cfg,
        agent_id=agent_id,
        workspace=ws_final,
        state_dir=sd,
        workspace_access=access,
        memory_search=ms,
        session_key=(session_key or f"agent:{agent_id}:main").strip(),
        model=primary,
        api_base=api_base,
        api_key=api_key,
        memory_search_sources=resolved,
    )
