"""Helpers shared by the subcommands: settings from global flags, error printing."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from openclaw_tui.redaction import redact
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.guard import printable_path

if TYPE_CHECKING:
    from openclaw_tui.config import AgentSettings


def settings_from_args(args: argparse.Namespace, overrides: dict[str, Any] | None = None) -> AgentSettings:
    # imported here: the TUI calls this after its first frame, off the event loop
    from openclaw_tui.config import load_config, resolve_agent

    cfg = load_config(getattr(args, "config", None), overrides=overrides)
    return resolve_agent(
        cfg,
        agent_id=getattr(args, "agent", None),
        workspace=getattr(args, "workspace", None),
        workspace_access=getattr(args, "workspace_access", None),
        session_key=getattr(args, "session_key", None),
        model=getattr(args, "model", None),
        api_base=getattr(args, "api_base", None),
        api_key=getattr(args, "api_key", None),
    )


def fail(message: str, code: int = 1) -> int:
    shown = "\n".join(printable_path(line) for line in redact(message).split("\n"))
    print(f"openclaw-tui: error: {shown}", file=sys.stderr)
    return code


# JSON escapes C0 controls itself; DEL, C1 (an 8-bit CSI is U+009B) and bidi controls it leaves
# raw, and they only ever occur inside strings, where a \uXXXX escape is the same JSON
_JSON_UNSAFE_RE = re.compile("[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def print_json(obj: Any) -> None:
    text = redact(clean_surrogates(json.dumps(obj, ensure_ascii=False, default=str)))
    sys.stdout.write(_JSON_UNSAFE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")
    sys.stdout.flush()
