"""``openclaw-tui config show`` (the effective config, secrets masked, and where each
memory-search value came from) and ``config migrate [--write]`` (the config file in
OpenClaw's current key generation; ``--write`` keeps a backup and replaces atomically)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from openclaw_tui.commands.common import fail, settings_from_args
from openclaw_tui.config import ConfigError, masked_dump
from openclaw_tui.config.loader import SECRET_KEY_RE, SECRET_HEADERS, mask_secret, mask_url


def run(args: argparse.Namespace) -> int:
    if getattr(args, "config_command", "show") == "migrate":
        return _migrate(args)
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
    if settings.memory_search_sources is not None:
        data["_resolved"]["memorySearch"] = _sourced(settings.memory_search_sources)
    from openclaw_tui.config.honoured import not_honoured  # noqa: PLC0415
    from openclaw_tui.redaction import redact  # noqa: PLC0415

    data["_notHonoured"] = [
        {**item.as_dict(), "value": "***" if SECRET_KEY_RE.search(item.key.rsplit(".", 1)[-1]) else json.loads(redact(json.dumps(item.value)))}
        for item in not_honoured(settings.config)
    ]
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


def _mask_mcp_env(data: dict[str, Any]) -> None:
    """An MCP server's ``env`` is where its credentials go: every plain value is masked
    (SecretRefs are already shown as references; secret-named headers by ``masked_dump``)."""
    for server in ((data.get("mcp") or {}).get("servers") or {}).values():
        env = server.get("env") if isinstance(server, dict) else None
        if isinstance(env, dict):
            server["env"] = {k: "***" if isinstance(v, str) and v else v for k, v in env.items()}

def _sourced(resolved: Any) -> dict[str, dict[str, Any]]:
    """Each effective memorySearch leaf: its value (secrets masked) and the key it came from."""
    from openclaw_tui.config.generations import effective_leaves  # noqa: PLC0415

    out = effective_leaves(resolved)
    for leaf, item in out.items():
        name = leaf.rsplit(".", 1)[-1]
        value = item["value"]
        if leaf.startswith("remote.headers.") and (SECRET_KEY_RE.search(name) or name.lower() in SECRET_HEADERS):
            item["value"] = "***"
        elif isinstance(value, str) and SECRET_KEY_RE.search(name):
            item["value"] = mask_secret(value)
        elif isinstance(value, str):
            item["value"] = mask_url(value)
    return out


def _config_path(args: argparse.Namespace) -> Path:
    from openclaw_tui.config import default_config_path  # noqa: PLC0415

    return Path(args.config).expanduser() if getattr(args, "config", None) else default_config_path()


def _migrate(args: argparse.Namespace) -> int:
    from openclaw_tui.config.loader import read_raw_config, resolve_agent, validate_config  # noqa: PLC0415
    from openclaw_tui.config.migrate import migrate_config  # noqa: PLC0415

    path = _config_path(args)
    if not path.exists():
        return fail(f"config file {path} does not exist; nothing to migrate")
    raw = read_raw_config(path)
    before = validate_config(raw, str(path))
    migration = migrate_config(raw)
    after = validate_config(migration.data, f"{path} (migrated)")
    for agent in _agent_ids(before):
        old, new = resolve_agent(before, agent_id=agent), resolve_agent(after, agent_id=agent)
        for what in ("memory_search", "workspace", "model", "workspace_access"):
            if getattr(old, what) != getattr(new, what):
                raise ConfigError(f"migrating {path} would change agent {agent!r}'s {what.replace('_', ' ')}; nothing was written")
    text = json.dumps(migration.data, indent=2, ensure_ascii=False) + "\n"
    for line in migration.moved:
        print(f"moved {line}", file=sys.stderr)
    for line in migration.removed:
        print(f"retired {line}", file=sys.stderr)
    if getattr(args, "dry_run", False):
        print(f"dry run: {len(migration.moved)} key(s) moved, {len(migration.removed)} retired; nothing written"
              if migration.changed else f"{path} already uses the current key generation; nothing to change")
        return 0
    if not args.write:
        from openclaw_tui.redaction import redact  # noqa: PLC0415

        shown = redact(text)  # printed keys are masked (a terminal, a pasted issue); --write keeps them
        sys.stdout.write(shown if migration.changed else "")
        if shown != text:
            print("secrets are masked in this output; `config migrate --write` writes them unchanged", file=sys.stderr)
        if not migration.changed:
            print(f"{path} already uses the current key generation; nothing to change", file=sys.stderr)
        return 0
    if not migration.changed:
        print(f"{path} already uses the current key generation; nothing written")
        return 0
    backup = _write(path, text)
    print(f"wrote {path} in the current key generation; the previous file is kept as {backup}")
    return 0


def _agent_ids(cfg: Any) -> list[str | None]:
    from openclaw_tui.config.agents_table import agent_rows  # noqa: PLC0415

    return [None, *(row.entry.id for row in agent_rows(cfg))]


def _write(path: Path, text: str) -> Path:
    """Back up the exact old bytes (mode 0600: the file may hold keys), then replace ``path``
    atomically, keeping its mode. Comments of a JSON5 file survive only in the backup."""
    from openclaw_tui.workspace.atomic import replace_atomically  # noqa: PLC0415

    old = path.read_bytes()
    backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while backup.exists():
        backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
        n += 1
    fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(old)
        fh.flush()
        os.fsync(fh.fileno())
    replace_atomically(path, text, default_mode=path.stat().st_mode & 0o777)
    return backup
