"""The agents of a config: ``agents.list`` (April's spelling) and ``agents.entries.<id>``
(OpenClaw's current one), as one table.

An agent written in only one place is taken as written. One id in both (compared
case-insensitively) is one agent: each key written under ``agents.entries.<id>`` wins over the
same key of the ``agents.list`` item, as the current spelling wins over April's elsewhere
(config/generations.py). The order is the list's, then the ids only ``agents.entries`` has, in
file order; the default agent is the one marked ``default: true``, else the first, else ``main``.
Pure: no file access.
"""

from __future__ import annotations

from dataclasses import dataclass

from openclaw_tui.config.models import AgentEntry, OpenClawConfig

#: the keys of an agent the two spellings share (memory search has its own layers)
SHARED_KEYS = ("default", "name", "workspace", "model", "sandbox")


@dataclass(frozen=True)
class AgentRow:
    entry: AgentEntry
    #: where it is written: ``agents.list[2]``, ``agents.entries.work`` or both
    list_index: int | None
    entries_key: str | None

    @property
    def where(self) -> str:
        return f"agents.entries.{self.entries_key}" if self.entries_key is not None else f"agents.list[{self.list_index}]"


def agent_rows(cfg: OpenClawConfig) -> list[AgentRow]:
    rows: list[AgentRow] = [AgentRow(item, index, None) for index, item in enumerate(cfg.agents.list)]
    for key, override in cfg.agents.entries.items():
        written = {k: getattr(override, k) for k in SHARED_KEYS if k in override.model_fields_set}
        at = next((i for i, row in enumerate(rows) if row.entry.id.strip().lower() == key.strip().lower()), None)
        if at is None:
            rows.append(AgentRow(AgentEntry(id=key, **written), None, key))
        else:
            merged = rows[at].entry.model_copy(update=written)
            rows[at] = AgentRow(merged, rows[at].list_index, key)
    return rows


def find_row(cfg: OpenClawConfig, agent_id: str) -> AgentRow | None:
    wanted = agent_id.strip().lower()
    return next((row for row in agent_rows(cfg) if row.entry.id.strip().lower() == wanted), None)


def default_row(cfg: OpenClawConfig) -> AgentRow | None:
    rows = agent_rows(cfg)
    return next((row for row in rows if row.entry.default), rows[0] if rows else None)
