"""Which qmd collections an agent has, where they live, and how hits map back to paths.

Collections (DESIGN §8): ``memory-root`` (workspace ``MEMORY.md``/``memory.md``),
``memory-dir`` (workspace ``memory/**/*.md``), one per ``memory.qmd.paths[]`` entry, and
``sessions`` (exported transcripts) when ``memory.qmd.sessions.enabled``.

A hit whose file lies inside the workspace is reported by its workspace-relative path
(``memory/2026-01-01.md``); anything else as ``qmd/<collection>/<path>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from openclaw_tui.config.loader import AgentSettings
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

MEMORY_ROOT = "memory-root"
MEMORY_DIR = "memory-dir"
SESSIONS = "sessions"
RESERVED = {MEMORY_ROOT, MEMORY_DIR, SESSIONS}
QMD_PREFIX = "qmd/"


@dataclass(frozen=True)
class CollectionSpec:
    name: str
    root: Path  # absolute directory
    pattern: str
    kind: str  # memory | path | sessions
    workspace_prefix: str | None  # root relative to the workspace ("" = the workspace itself), None = outside

    def to_dict(self) -> dict:
        return {"name": self.name, "path": str(self.root), "pattern": self.pattern, "kind": self.kind}


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "path"


def qmd_home(settings: AgentSettings) -> Path:
    return settings.agent_dir / "qmd"


def sessions_export_dir(settings: AgentSettings) -> Path:
    raw = settings.config.memory.qmd.sessions.export_dir
    if raw:
        p = Path(raw).expanduser()
        return p if p.is_absolute() else (qmd_home(settings) / p)
    return qmd_home(settings) / "sessions"


def _workspace_prefix(workspace: Path, root: Path) -> str | None:
    try:
        rel = root.resolve().relative_to(workspace.resolve())
    except (ValueError, OSError):
        return None
    s = rel.as_posix()
    return "" if s == "." else s


def plan_collections(settings: AgentSettings) -> list[CollectionSpec]:
    cfg = settings.config.memory.qmd
    ws = Path(settings.workspace)
    specs: list[CollectionSpec] = []
    if cfg.include_default_memory:
        specs.append(CollectionSpec(MEMORY_ROOT, ws, ",".join(ROOT_MEMORY_FILES), "memory", ""))
        specs.append(CollectionSpec(MEMORY_DIR, ws / "memory", "**/*.md", "memory", "memory"))
    used = {s.name for s in specs} | RESERVED
    for entry in cfg.paths:
        root = Path(entry.path).expanduser()
        if not root.is_absolute():
            root = ws / root
        base = slugify(entry.name) if entry.name else slugify(root.name or "path")
        name, n = base, 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        specs.append(CollectionSpec(name, root, entry.pattern or "**/*.md", "path", _workspace_prefix(ws, root)))
    if cfg.sessions.enabled:
        specs.append(CollectionSpec(SESSIONS, sessions_export_dir(settings), "**/*.md", "sessions", None))
    return specs


def display_path(spec: CollectionSpec, rel: str) -> str:
    """Path shown in results for ``rel`` inside ``spec``."""
    if spec.workspace_prefix is not None and spec.kind != "sessions":
        return f"{spec.workspace_prefix}/{rel}" if spec.workspace_prefix else rel
    return f"{QMD_PREFIX}{spec.name}/{rel}"


def source_of(spec: CollectionSpec) -> str:
    return {"memory": "memory", "sessions": "sessions"}.get(spec.kind, "qmd")


_HANDLE_RE = re.compile(r"(?:[^\w$]|_)+", re.UNICODE)


def _handle(rel: str) -> str:
    """Loose form of qmd's path handles, used only to re-find a file qmd renamed."""
    parts = rel.split("/")
    out = []
    for i, part in enumerate(parts):
        if i == len(parts) - 1:
            stem, dot, ext = part.rpartition(".")
            if not dot:
                stem, ext = part, ""
            part = _HANDLE_RE.sub("-", stem).strip("-") + (f".{ext}" if ext else "")
        else:
            part = _HANDLE_RE.sub("-", part).strip("-")
        out.append(part.lower())
    return "/".join(out)


def resolve_hit_path(spec: CollectionSpec, rel: str) -> str:
    """The on-disk relative path for a qmd hit (qmd normally keeps it; older versions handelize)."""
    if (spec.root / rel).is_file():
        return rel
    want = _handle(rel)
    try:
        for cand in spec.root.rglob("*.md"):
            crel = cand.relative_to(spec.root).as_posix()
            if _handle(crel) == want:
                return crel
    except OSError:
        pass
    return rel


def _split_top_level(pattern: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in pattern:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _glob_regex(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "{":
            end = glob.find("}", i)
            if end == -1:
                out.append(re.escape(glob[i]))
                i += 1
                continue
            alts = glob[i + 1:end].split(",")
            out.append("(?:" + "|".join(_glob_regex(a) for a in alts) + ")")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def matches_pattern(pattern: str, rel: str) -> bool:
    """Does ``rel`` fall under a qmd collection mask (glob, brace group or comma list)?"""
    return any(re.fullmatch(_glob_regex(p), rel) for p in _split_top_level(pattern))
