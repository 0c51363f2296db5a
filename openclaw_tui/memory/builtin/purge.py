"""After a forget: what deleted rows leave in the index file's bytes, gone.

Deleting a chunk removes its rows, not its bytes: FTS5 keeps the forgotten terms in its older
segments until they are merged, sqlite-vec leaves a deleted vector in its chunk blob, the
embedding cache keeps the vectors of every text ever embedded, and freed pages keep whatever
they held. ``purge(store)`` turns ``secure_delete`` on for the connection (freed content is
zeroed from now on), merges the FTS5 segments into one (``'optimize'``), rebuilds the
sqlite-vec table from ``chunk_vectors`` (the source of truth), empties the embedding cache
(its keys are sub-window hashes of texts that may be forgotten; vectors of the chunks now in
the index stay in ``chunk_vectors``) and ``VACUUM``s, so the forgotten text is not in the
file's bytes. It runs on a sync whose reason is ``api.SYNC_FORGET``; cost: one rewrite of the
file (about a second per 100 MB).
"""

from __future__ import annotations

import logging

import apsw

from openclaw_tui.memory.builtin.index_db import IndexDb
from openclaw_tui.memory.builtin.vector_index import VectorIndex

log = logging.getLogger("openclaw_tui.memory.store")


def purge(db: IndexDb, vectors: VectorIndex, fts_available: bool) -> None:
    conn = db.conn
    with db.lock:
        conn.execute("pragma secure_delete=on").fetchall()
        with conn:
            if fts_available:
                conn.execute("insert into chunks_fts(chunks_fts) values('optimize')")
            dims = vectors.vec_dims()
            if vectors.vec_loaded and dims and vectors.has_vec_table():
                conn.execute("drop table chunks_vec")
                vectors.ensure_vec_table(dims)
                conn.execute("insert into chunks_vec(rowid, embedding) select id, embedding from chunk_vectors")
            conn.execute("delete from embedding_cache")
            conn.execute("insert or replace into meta(key, value) values('vector_generation', lower(hex(randomblob(16))))")
        try:
            conn.execute("vacuum").fetchall()
        except apsw.Error as exc:  # another connection reading: the zeroed pages stay as free pages
            log.warning("vacuum after forget failed: %s", exc)
