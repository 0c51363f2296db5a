"""QMD memory backend: the external ``qmd`` CLI behind the memory tools (DESIGN §8)."""

from openclaw_tui.memory.qmd.backend import QmdBackend
from openclaw_tui.memory.qmd.schedule import parse_duration_s
from openclaw_tui.memory.qmd.collections import CollectionSpec, plan_collections, qmd_home
from openclaw_tui.memory.qmd.parse import QmdHit, QmdParseError, parse_search_output, parse_snippet
from openclaw_tui.memory.qmd.runner import QmdError, default_command, resolve_command, run_qmd
from openclaw_tui.memory.qmd.scope import ScopeDecision, decide_scope

__all__ = [
    "CollectionSpec",
    "QmdBackend",
    "QmdError",
    "QmdHit",
    "QmdParseError",
    "ScopeDecision",
    "decide_scope",
    "default_command",
    "parse_duration_s",
    "parse_search_output",
    "parse_snippet",
    "plan_collections",
    "qmd_home",
    "resolve_command",
    "run_qmd",
]
