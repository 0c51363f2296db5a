"""``mcp serve --allow-append`` never writes a secret in plain text (issue 35 item 3): the real
server over stdio appends a note with a card number and an API key; the daily log holds
markers and is owner-only, the answer names what was withheld, search never returns the
value, and no file of the state dir (the SQLite index, the memory history) holds it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from openclaw_tui.workspace.daily import daily_rel
from tests.mcp_both.conftest import cli_args
from tests.mcp_both.test_serve import call, serving

CARD = "5555-5555-5555-4444"
API_KEY = "sk-live-9QwErTyUiOpAsDfGhJkL"


async def test_mcp_append_withholds_secrets(workspace: Path, child_env: dict[str, str], state_dir: Path, tmp_path: Path) -> None:
    note = f"- The user's travel card is {CARD} and the booking API key is {API_KEY}."
    async with serving(child_env, cli_args(workspace, "mcp", "serve", "--allow-append"), tmp_path) as client:
        res, err = await call(client, "memory_append", {"text": note})
        found, _ = await call(client, "memory_search", {"query": "travel card booking"})
    assert not err and res["withheld"] == ["card number", "api key"] and "not kept" in res["note"]
    log = workspace / daily_rel()
    assert log.read_text() == ("- The user's travel card is [secret withheld: card number] and the booking API key is "
                               "[secret withheld: api key].\n")
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    answer = json.dumps(found)
    assert found["results"] and "travel card" in answer and "5555" not in answer and API_KEY not in answer
    leaks = [p for p in state_dir.rglob("*") if p.is_file() and (CARD.encode() in p.read_bytes() or API_KEY.encode() in p.read_bytes())]
    assert leaks == []
    assert any(p.suffix == ".sqlite" for p in state_dir.rglob("*"))  # the index was there to look into
