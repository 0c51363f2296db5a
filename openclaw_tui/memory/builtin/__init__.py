"""The builtin memory backend: one SQLite index per agent (FTS5 + sqlite-vec), its sync,
its hybrid search and its file watcher. ``manager.MemoryManager`` is the facade."""
