"""The local model's hash is checked by content on a cheap schedule (issue 30, point 8): a
file changed in place with its size and mtime restored no longer passes as verified."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from openclaw_tui.llm.local.files import (
    FULL_CHECK_EVERY_S,
    SAMPLE_BLOCK,
    SAMPLE_BLOCKS,
    ModelFileError,
    provenance_path,
    verify_catalog_file,
)


def _flip(path: Path, offset: int) -> None:
    st = path.stat()
    with open(path, "r+b") as fh:
        fh.seek(offset)
        b = fh.read(1)
        fh.seek(offset)
        fh.write(bytes([b[0] ^ 0xFF]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the attacker restores the mtime


@pytest.fixture
def model(tmp_path: Path) -> tuple[Path, SimpleNamespace]:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF" + os.urandom(5 * 1024 * 1024))
    return path, SimpleNamespace(sha256=hashlib.sha256(path.read_bytes()).hexdigest())


def test_an_in_place_change_in_a_sampled_block_fails_at_the_next_load(model) -> None:
    path, spec = model
    verify_catalog_file(path, spec)  # full hash, recorded
    prov = json.loads(provenance_path(path).read_text())
    assert prov["sha256"] == spec.sha256 and prov["sampleSha256"] and prov["verifiedAt"]
    verify_catalog_file(path, spec)  # cheap: sample only
    _flip(path, 10)  # in the first MiB
    with pytest.raises(ModelFileError, match="corrupt"):
        verify_catalog_file(path, spec)


def test_an_unsampled_change_is_caught_by_the_scheduled_full_hash(model) -> None:
    path, spec = model
    verify_catalog_file(path, spec)
    size = path.stat().st_size
    _flip(path, size * 14 // (SAMPLE_BLOCKS + 1) + SAMPLE_BLOCK + 1000)  # between two sampled blocks
    verify_catalog_file(path, spec)  # the sample alone cannot see it
    prov = json.loads(provenance_path(path).read_text())
    prov["verifiedAt"] -= FULL_CHECK_EVERY_S + 60
    provenance_path(path).write_text(json.dumps(prov))
    with pytest.raises(ModelFileError, match="corrupt"):
        verify_catalog_file(path, spec)
