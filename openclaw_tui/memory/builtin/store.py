"""SQLite storage for the memory index through apsw: one facade over the parts of one file.

``Store`` composes them and keeps their calls under one name, so callers hold one object:

* ``index_db.IndexDb`` — the connection, its lock, the tables and ``meta``;
* ``chunk_files.ChunkFiles`` — ``files`` and ``chunks`` rows, written and deleted with their
  FTS and vector rows;
* ``fts_index.FtsIndex`` — FTS5 search, document frequencies, the index's tokens;
* ``vector_index.VectorIndex`` — sub-vectors, the resident matrix, sqlite-vec KNN;
* ``embedding_cache.EmbeddingCache`` — cached embeddings by content hash.

``chunks.embedding`` keeps the normalised mean of a chunk's sub-vectors.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.chunk_files import ChunkFiles, ChunkRow, ChunkSpec, FileRow, FileWrite
from openclaw_tui.memory.builtin.embedding_cache import EmbeddingCache
from openclaw_tui.memory.builtin.fts_index import FtsIndex
from openclaw_tui.memory.builtin.index_db import SCHEMA_VERSION, IndexDb
from openclaw_tui.memory.builtin.vector_index import VectorIndex


class Store:
    """One SQLite index file. Thread-safe: every call holds ``self.lock``."""

    def __init__(self, path: Path, *, vector_enabled: bool = True, extension_path: str | None = None,
                 fts_tokenizer: str = "unicode61"):
        self.db = IndexDb(path)
        self.path, self.lock, self.conn = self.db.path, self.db.lock, self.db.conn
        self.vectors = VectorIndex(self.db, vector_enabled=vector_enabled, extension_path=extension_path)
        self.db.check_schema()
        self.db.create_tables()
        self.fts = FtsIndex(self.db, fts_tokenizer)
        self.fts.ensure()
        self.chunk_files = ChunkFiles(self.db, self.fts, self.vectors)
        self.cache = EmbeddingCache(self.db)
        if self.get_meta("schema_version") is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
        if self.get_meta("vector_epoch") is None:
            self.set_meta("vector_epoch", uuid.uuid4().hex)

    # ------------------------------------------------------------------ what loaded

    @property
    def vector_requested(self) -> bool:
        return self.vectors.vector_requested

    @property
    def vec_loaded(self) -> bool:
        return self.vectors.vec_loaded

    @property
    def vec_error(self) -> str | None:
        return self.vectors.vec_error

    @property
    def fts_available(self) -> bool:
        return self.fts.fts_available

    @property
    def fts_error(self) -> str | None:
        return self.fts.fts_error

    @property
    def vector_backend(self) -> str:
        return self.vectors.vector_backend

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ meta

    def get_meta(self, key: str) -> str | None:
        return self.db.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        self.db.set_meta(key, value)

    def get_meta_json(self, key: str) -> Any:
        return self.db.get_meta_json(key)

    def set_meta_json(self, key: str, value: Any) -> None:
        self.db.set_meta_json(key, value)

    # ------------------------------------------------------------------ files and chunks

    def files(self, source: str | None = None, paths: Iterable[str] | None = None) -> dict[str, FileRow]:
        return self.chunk_files.files(source, paths)

    def counts(self) -> tuple[int, int]:
        return self.chunk_files.counts()

    def replace_file(self, path: str, source: str, file_hash: str, mtime: float, mtime_ns: int, size: int,
                     chunks: Sequence[ChunkSpec], embeddings: np.ndarray | Sequence[np.ndarray | None] | None,
                     model: str = "") -> None:
        """See ``ChunkFiles.replace_file``."""
        self.chunk_files.replace_file(path, source, file_hash, mtime, mtime_ns, size, chunks, embeddings, model)

    def replace_files(self, files: Sequence[FileWrite], model: str = "") -> None:
        self.chunk_files.replace_files(files, model)

    def touch_file(self, path: str, mtime: float, mtime_ns: int, size: int) -> None:
        self.chunk_files.touch_file(path, mtime, mtime_ns, size)

    def purge(self) -> None:
        """Remove what deleted rows left in the file's bytes (``purge.py``; after a forget)."""
        from openclaw_tui.memory.builtin.purge import purge  # noqa: PLC0415

        purge(self.db, self.vectors, self.fts.fts_available)

    def delete_file(self, path: str) -> None:
        self.chunk_files.delete_file(path)

    def orphan_paths(self) -> list:
        return self.chunk_files.orphan_paths()

    def chunk_rows(self, ids: Iterable[int]) -> dict[int, ChunkRow]:
        return self.chunk_files.chunk_rows(ids)

    def file_mtimes(self, paths: Iterable[str]) -> dict[str, float]:
        return self.chunk_files.file_mtimes(paths)

    # ------------------------------------------------------------------ keywords

    def fts_search(self, match: str | None, limit: int) -> list[tuple[int, float]]:
        return self.fts.fts_search(match, limit)

    def common_terms(self, terms: Iterable[str]) -> set[str]:
        return self.fts.common_terms(terms)

    def doc_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int | None]]:
        return self.fts.doc_frequencies(terms)

    def index_tokens(self, text: str) -> list[str]:
        return self.fts.index_tokens(text)

    # ------------------------------------------------------------------ vectors

    def vec_dims(self) -> int | None:
        return self.vectors.vec_dims()

    def has_vec_table(self) -> bool:
        return self.vectors.has_vec_table()

    def vector_count(self) -> int:
        return self.vectors.vector_count()

    def vector_search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        return self.vectors.vector_search(query, k)

    def vector_scores(self, query: np.ndarray, chunk_ids: Iterable[int]) -> dict[int, float]:
        return self.vectors.vector_scores(query, chunk_ids)

    def vec0_search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        return self.vectors.vec0_search(query, k)

    def resident_matrix(self) -> vmx.VectorMatrix:
        return self.vectors.resident_matrix()

    # ------------------------------------------------------------------ embedding cache

    def cache_get(self, provider: str, model: str, key: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        return self.cache.cache_get(provider, model, key, hashes)

    def cache_put(self, provider: str, model: str, key: str, items: dict[str, np.ndarray]) -> None:
        self.cache.cache_put(provider, model, key, items)

    def cache_prune(self, max_entries: int) -> int:
        return self.cache.cache_prune(max_entries)

    def cache_count(self) -> int:
        return self.cache.cache_count()

    def copy_cache_from(self, other_path: Path) -> int:
        return self.cache.copy_cache_from(other_path)


def window_cosines(store: Store, query: np.ndarray, chunk_id: int) -> np.ndarray | None:
    """The query's cosine with each of a chunk's sub-window vectors, in window order (None
    without vectors of the query's size; reuses the store's cosines of the last query)."""
    return store.vectors.window_cosines(query, chunk_id)
