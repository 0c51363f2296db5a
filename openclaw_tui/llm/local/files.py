"""Where local GGUF models live and whether a file is fit to load.

Models dir: ``OPENCLAW_MODELS_DIR``, else ``~/.openclaw/models``, whatever the state dir.
Beside each assembled model sits ``<file>.provenance.json`` (packages, sha256, date,
licence). A file is checked against its pinned sha256 when its size or mtime differ from
the provenance record, and by its content on a cheap schedule: every load hashes a fixed
sample of it (head, tail and 32 blocks spread over it: a few MB) against the sample digest
recorded at the last full check, and the whole file is hashed again when that check is
older than :data:`FULL_CHECK_EVERY_S`. A file changed in place (size and mtime restored)
fails the sample at once when the change touches a sampled block, and the full hash
within the week otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from openclaw_tui.llm.local.catalog import LocalModelSpec

GGUF_MAGIC = b"GGUF"
HASH_CHUNK = 8 << 20
# llama.cpp maps the weights and adds the KV cache and buffers (~0.5-1 GB at 8k context).
RAM_HEADROOM = 1.3
RAM_EXTRA_BYTES = 600 << 20
FULL_CHECK_EVERY_S = 7 * 86400
SAMPLE_BLOCK = 64 << 10
SAMPLE_BLOCKS = 32
SAMPLE_EDGE = 1 << 20


class ModelFileError(Exception):
    """A one-line reason the model cannot be loaded, ending in the fix."""


def models_dir() -> Path:
    """``OPENCLAW_MODELS_DIR``, else ``~/.openclaw/models``, whatever the state dir: one copy of
    each model per machine (issues 27 and 38). Setting only ``OPENCLAW_STATE_DIR`` assembles
    no second 1.1 GB copy, and a copy a state dir holds from before is not preferred."""
    env = os.environ.get("OPENCLAW_MODELS_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".openclaw" / "models"


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


def sample_sha256(path: Path) -> str:
    """sha256 of a fixed sample of the file: its first and last MiB and SAMPLE_BLOCKS blocks
    spread evenly between (cheap: a few MB of a multi-GB file)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        spots = [(0, SAMPLE_EDGE), (max(0, size - SAMPLE_EDGE), SAMPLE_EDGE)]
        spots += [(size * (i + 1) // (SAMPLE_BLOCKS + 1), SAMPLE_BLOCK) for i in range(SAMPLE_BLOCKS)]
        for offset, length in spots:
            fh.seek(offset)
            digest.update(fh.read(length))
    digest.update(str(size).encode())
    return digest.hexdigest()


def note_verified(model: Path, sha256: str) -> None:
    """Record in the provenance that the whole file was just hashed to ``sha256``."""
    prov = read_provenance(model) or {}
    size, mtime = stat_key(model)
    prov.update({"sha256": sha256, "size": size, "mtimeNs": mtime, "sampleSha256": sample_sha256(model), "verifiedAt": time.time()})
    target = provenance_path(model)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(prov, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only models dir: the next load hashes again


def recently_verified(model: Path) -> bool:
    """The last full hash is recent and the sample still matches what it saw."""
    prov = read_provenance(model) or {}
    when = prov.get("verifiedAt")
    if not isinstance(when, (int, float)) or not 0 <= time.time() - when < FULL_CHECK_EVERY_S:
        return False
    try:
        return prov.get("sampleSha256") == sample_sha256(model)
    except OSError:
        return False


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
    if matches_provenance(model, spec.sha256) and recently_verified(model):
        return
    if sha256_of(model) != spec.sha256:
        raise ModelFileError(f"local model {model} is corrupt (sha256 differs from the pinned {spec.sha256[:12]}…): {fix}")
    note_verified(model, spec.sha256)


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
