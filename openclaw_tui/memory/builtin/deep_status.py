"""``memory status --deep [--fix]`` (OpenClaw's deep status and repair) for the builtin index.

``--deep`` checks what plain status only reads from metadata, each check ``{name, ok,
detail, fixable}``:

* ``index``: SQLite's ``quick_check`` of the index file;
* ``fts``: FTS5's own ``integrity-check`` of the keyword table;
* ``fingerprint``: the settings the index was built with (provider, model, chunking,
  tokenizer, …) against the current ones;
* ``files``: memory files new, changed or removed since they were indexed;
* ``provider``: one real embedding of a short text (skipped when search is keyword-only),
  and its dimensions against the index's vectors;
* ``leftovers``: rebuild files a killed process left beside the index.

``--fix`` repairs what it can: leftovers are removed; a damaged index or keyword table, a
changed fingerprint or different vector dimensions mean a full rebuild (into a new file,
swapped in only when complete); changed files an incremental sync. Then the checks run
again. A provider that is down is reported, never "fixed".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import apsw

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.sync_sources import SyncContext, unchanged

PROBE_TEXT = "memory status probe"


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    #: how ``--fix`` repairs it: "rebuild", "sync", "remove", or "" (it cannot)
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "fixable": bool(self.fix) and not self.ok}


def _index_check(m: MemoryManager) -> Check:
    store = m.index.store()
    with store.lock:
        try:
            rows = store.conn.execute("pragma quick_check").fetchall()
        except apsw.Error as exc:
            return Check("index", False, f"quick_check failed: {exc}", "rebuild")
    found = [str(r[0]) for r in rows]
    return Check("index", found == ["ok"], "ok" if found == ["ok"] else "; ".join(found[:3]), "rebuild")


def _fts_check(m: MemoryManager) -> Check:
    store = m.index.store()
    if not store.fts_available:
        return Check("fts", False, f"FTS5 unavailable: {store.fts_error or 'unknown'}")
    with store.lock:
        try:
            store.conn.execute("insert into chunks_fts(chunks_fts) values('integrity-check')")
        except apsw.Error as exc:
            return Check("fts", False, f"keyword table damaged: {exc}", "rebuild")
    return Check("fts", True, f"ok ({store.fts.spec})", "rebuild")


def _fingerprint_check(m: MemoryManager) -> Check:
    store = m.index.store()
    stored = store.get_meta_json("fingerprint")
    now = m.fingerprint(store)
    if stored is None:
        return Check("fingerprint", False, "the index was never built", "sync")
    changed = sorted(k for k in set(stored) | set(now) if stored.get(k) != now.get(k))
    return Check("fingerprint", not changed,
                 "ok" if not changed else f"settings changed since the index was built: {', '.join(changed)}", "rebuild")


def _files_check(m: MemoryManager) -> Check:
    store = m.index.store()
    docs, ok_sources = m.indexer._collect(SyncContext(store), [])
    existing = store.files()
    changed = [d.path for d in docs if existing.get(d.path) is not None and not unchanged(existing.get(d.path), d)]
    new = [d.path for d in docs if d.path not in existing]
    seen = {d.path for d in docs}
    gone = [p for p, r in existing.items() if p not in seen and r.source in ok_sources]
    if not (changed or new or gone):
        return Check("files", True, f"ok ({len(docs)} files indexed as they are)", "sync")
    parts = [f"{len(x)} {what}" for x, what in ((new, "new"), (changed, "changed"), (gone, "removed")) if x]
    return Check("files", False, ", ".join(parts) + " since the last sync", "sync")


def _provider_check(m: MemoryManager) -> Check:
    provider = m.provider
    if provider is None or isinstance(provider, str):
        return Check("provider", True, "keyword-only (no embedding provider)")
    try:
        vec = provider.embed_query(PROBE_TEXT)
    except Exception as exc:  # noqa: BLE001 - the probe reports, never raises
        return Check("provider", False, f"embedding probe failed: {type(exc).__name__}: {exc}")
    dims = int(getattr(vec, "shape", (len(vec),))[-1])
    have = m.index.store().vec_dims()
    if have and have != dims:
        return Check("provider", False, f"the provider answers {dims} dimensions, the index holds {have}", "rebuild")
    return Check("provider", True, f"ok ({dims} dimensions)")


def _leftovers(m: MemoryManager) -> list[Any]:
    path = m.index.path
    return sorted(p for p in path.parent.glob(f"{path.name}.rebuild-*") if p.is_file())


def _leftover_check(m: MemoryManager) -> Check:
    found = _leftovers(m)
    return Check("leftovers", not found, "none" if not found else f"{len(found)} unfinished rebuild file(s)", "remove")


CHECKS = (_index_check, _fts_check, _fingerprint_check, _files_check, _provider_check, _leftover_check)


def deep_checks(m: MemoryManager) -> list[Check]:
    out = []
    for check in CHECKS:
        try:
            out.append(check(m))
        except Exception as exc:  # noqa: BLE001 - a check that cannot run is a finding
            out.append(Check(check.__name__.strip("_").removesuffix("_check"), False,
                             f"cannot check: {type(exc).__name__}: {exc}", "rebuild"))
    return out


def fix(m: MemoryManager, checks: list[Check]) -> list[str]:
    """Repair what the failed checks allow; what was done, one line each."""
    wanted = {c.fix for c in checks if not c.ok and c.fix}
    done: list[str] = []
    if "remove" in wanted:
        for p in _leftovers(m):
            try:
                p.unlink()
                done.append(f"removed {p.name}")
            except OSError as exc:
                done.append(f"could not remove {p.name}: {exc.strerror or exc}")
    if "rebuild" in wanted or "sync" in wanted:
        full = "rebuild" in wanted
        report = dict(m.sync(force=full, reason="status-fix"))
        what = "rebuilt the index" if full else "synced the index"
        if report.get("ok", True):
            done.append(f"{what}: {report.get('files', 0)} files, {report.get('chunks', 0)} chunks")
        else:
            done.append(f"could not repair: {'; '.join(report.get('errors', [])[-2:]) or 'sync failed'}")
    return done
