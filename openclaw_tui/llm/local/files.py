"""Where local GGUF models live and whether a file is fit to load.

Models dir: ``OPENCLAW_MODELS_DIR``, else ``<state dir>/models`` (``~/.openclaw/models``).
Beside each assembled model sits ``<file>.provenance.json`` (packages, sha256, date,
licence). A file is checked against its pinned sha256 when its size or mtime differ from
the provenance record, so a healthy file is not re-hashed on every start.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from openclaw_tui.llm.local.catalog import LocalModelSpec

GGUF_MAGIC = b"GGUF"
HASH_CHUNK = 8 << 20
# llama.cpp maps the weights and adds the KV cache and buffers (~0.5-1 GB at 8k context).
RAM_HEADROOM = 1.3
RAM_EXTRA_BYTES = 600 << 20


class ModelFileError(Exception):
    """A one-line reason the model cannot be loaded, ending in the fix."""


def models_dir() -> Path:
    env = os.environ.get("OPENCLAW_MODELS_DIR")
    if env:
        return Path(env).expanduser()
    from openclaw_tui.config.loader import state_dir

    return state_dir() / "models"


def provenance_path(model: Path) -> Path:
    return model.with_name(model.name + ".provenance.json")


def read_provenance(model: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(provenance_path(model).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(HASH_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def stat_key(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def matches_provenance(model: Path, sha256: str) -> bool:
    """True when the provenance vouches for this exact file (same sha, size and mtime)."""
    prov = read_provenance(model)
    if not prov or prov.get("sha256") != sha256:
        return False
    try:
        size, mtime = stat_key(model)
    except OSError:
        return False
    return prov.get("size") == size and prov.get("mtimeNs") == mtime


def verify_catalog_file(model: Path, spec: LocalModelSpec) -> None:
    """Raise ModelFileError unless ``model`` is the spec's exact file."""
    fix = "run `openclaw-tui model install --force`"
    if not model.is_file():
        raise ModelFileError(f"local model {model} is missing: {fix}")
    if matches_provenance(model, spec.sha256):
        return
    if sha256_of(model) != spec.sha256:
        raise ModelFileError(f"local model {model} is corrupt (sha256 differs from the pinned {spec.sha256[:12]}…): {fix}")


def available_ram_bytes() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_loadable(model: Path, *, available: int | None = None) -> None:
    """Raise ModelFileError when the file is not a GGUF or will not fit in memory."""
    other = "pick another GGUF with --model local/<path.gguf>, or --model offline"
    try:
        with model.open("rb") as fh:
            magic = fh.read(4)
        size = model.stat().st_size
    except OSError as exc:
        raise ModelFileError(f"local model {model} cannot be read ({exc.strerror or exc}): {other}") from None
    if magic != GGUF_MAGIC:
        raise ModelFileError(f"local model {model} is not a GGUF file: {other}")
    free = available_ram_bytes() if available is None else available
    need = int(size * RAM_HEADROOM) + RAM_EXTRA_BYTES
    if free is not None and need > free:
        raise ModelFileError(
            f"local model {model.name} needs about {need / 2**30:.1f} GB of memory but "
            f"{free / 2**30:.1f} GB is free: {other}"
        )
