"""A compaction summary never brings a forgotten fact back (issue 36, item 4: the attack's
summary written 20 minutes after the forget held the password)."""

from __future__ import annotations

from openclaw_tui.workspace.tombstones import Tombstones
from tests.session.conftest import make_settings, recorder, server, workspace  # noqa: F401 - fixtures
from tests.session.test_engine_server import engine_for


async def test_a_summary_holding_a_forgotten_fact_loses_it(make_settings, server, recorder, workspace) -> None:  # noqa: F811
    Tombstones.for_workspace(workspace).add(["- The wifi password is quokkaberry4417"], "MEMORY.md", "h1")
    server.push({"text": "a1"}, {"text": "## Goal\n- wifi password: quokkaberry4417\n- the user likes oolong tea"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("the wifi password is quokkaberry4417 now, and I like oolong tea")
    await eng.compact()
    try:
        assert "oolong tea" in eng.summary
        assert "quokkaberry" not in eng.summary
    finally:
        eng.close()
