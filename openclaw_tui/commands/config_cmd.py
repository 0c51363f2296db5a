"""``openclaw-tui config show``: the effective config, secrets masked."""

from __future__ import annotations

import argparse
import json
from typing import Any

from openclaw_tui.commands.common import settings_from_args
from openclaw_tui.config import masked_dump
from openclaw_tui.config.loader import mask_url


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    data = masked_dump(settings.config)
    _mask_mcp_env(data)
    data["_resolved"] = {
        "agentId": settings.agent_id,
        "workspace": str(settings.workspace),
        "stateDir": str(settings.state_dir),
        "indexPath": str(settings.index_path),
        "workspaceAccess": settings.workspace_access,
        "sessionKey": settings.session_key,
        "model": settings.model,
        "apiBase": mask_url(settings.api_base),
        "apiKey": "***" if settings.api_key else None,
    }
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


def _mask_mcp_env(data: dict[str, Any]) -> None:
    """An MCP server's ``env`` is where its credentials go: every plain value is masked
    (SecretRefs are already shown as references; secret-named headers by ``masked_dump``)."""
    for server in ((data.get("mcp") or {}).get("servers") or {}).values():
        env = server.get("env") if isinstance(server, dict) else None
        if isinstance(env, dict):
            server["env"] = {k: "***" if isinstance(v, str) and v else v for k, v in env.items()}
