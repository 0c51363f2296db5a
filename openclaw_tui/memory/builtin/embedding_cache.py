"""The embedding cache inside the index: ``embedding_cache(provider, model, provider_key,
hash → embedding)``, touched on use, pruned oldest first, carried over by a full rebuild."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Sequence

import apsw
import numpy as np

from openclaw_tui.memory.builtin.index_db import IndexDb, blob_to_vec, count_rows, vec_to_blob

log = logging.getLogger("openclaw_tui.memory.store")


class EmbeddingCache:
    """The cache table of one index file."""

    def __init__(self, db: IndexDb):
        self.conn = db.conn
        self.lock = db.lock

    def cache_get(self, provider: str, model: str, key: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        if not hashes:
            return out
        with self.lock:
            uniq = list(dict.fromkeys(hashes))
            for start in range(0, len(uniq), 500):
                part = uniq[start : start + 500]
                marks = ",".join("?" * len(part))
                for h, blob in self.conn.execute(
                    f"select hash, embedding from embedding_cache where provider = ? and model = ? and provider_key = ?"
                    f" and hash in ({marks})",
                    (provider, model, key, *part),
                ):
                    out[h] = blob_to_vec(blob)
            if out:
                now = time.time()
                with self.conn:
                    for h in out:
                        self.conn.execute(
                            "update embedding_cache set updated_at = ? where provider = ? and model = ? and provider_key = ? and hash = ?",
                            (now, provider, model, key, h),
                        )
        return out

    def cache_put(self, provider: str, model: str, key: str, items: dict[str, np.ndarray]) -> None:
        if not items:
            return
        now = time.time()
        with self.lock, self.conn:
            for h, vec in items.items():
                v = np.asarray(vec, dtype=np.float32)
                self.conn.execute(
                    "insert or replace into embedding_cache(provider, model, provider_key, hash, dims, embedding, updated_at)"
                    " values(?, ?, ?, ?, ?, ?, ?)",
                    (provider, model, key, h, int(v.shape[-1]), vec_to_blob(v), now),
                )

    def cache_prune(self, max_entries: int) -> int:
        with self.lock:
            total = count_rows(self.conn.execute("select count(*) from embedding_cache"))
            excess = total - max(0, max_entries)
            if excess <= 0:
                return 0
            with self.conn:
                self.conn.execute(
                    "delete from embedding_cache where rowid in (select rowid from embedding_cache order by updated_at, rowid limit ?)",
                    (excess,),
                )
            return excess

    def cache_count(self) -> int:
        with self.lock:
            return count_rows(self.conn.execute("select count(*) from embedding_cache"))

    def copy_cache_from(self, other_path: Path) -> int:
        """Copy another index file's embedding cache into this one (used by full rebuilds)."""
        if not Path(other_path).exists():
            return 0
        with self.lock:
            try:
                self.conn.execute("attach database ? as old", (str(other_path),))
            except apsw.Error as exc:
                log.warning("cannot read the old index's embedding cache: %s", exc)
                return 0
            try:
                has = self.conn.execute(
                    "select 1 from old.sqlite_master where type = 'table' and name = 'embedding_cache'"
                ).fetchone()
                if not has:
                    return 0
                with self.conn:
                    self.conn.execute(
                        "insert or ignore into main.embedding_cache select provider, model, provider_key, hash, dims,"
                        " embedding, updated_at from old.embedding_cache"
                    )
                return self.conn.changes()
            except apsw.Error as exc:
                log.warning("cannot copy the old index's embedding cache: %s", exc)
                return 0
            finally:
                try:
                    self.conn.execute("detach database old")
                except apsw.Error:
                    pass
