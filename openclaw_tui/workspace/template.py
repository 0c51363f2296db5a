"""Copy ``workspace_template/`` into a workspace without overwriting anything."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path


def template_root() -> Path:
    # Installed: openclaw_tui/_template (package data); editable checkout: repo/workspace_template.
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_template"
    if packaged.is_dir():
        return packaged
    repo = here.parent / "workspace_template"
    if repo.is_dir():
        return repo
    return Path(str(resources.files("openclaw_tui"))) / "_template"


def init_workspace(dest: Path) -> tuple[list[str], list[str]]:
    """Return (created, kept) relative paths."""
    src = template_root()
    created: list[str] = []
    kept: list[str] = []
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if any(part.startswith(".") and part != ".gitkeep" for part in rel.parts) or "__pycache__" in rel.parts:
            continue
        target = dest / rel
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        if rel.name == ".gitkeep":
            continue
        if target.exists() or target.is_symlink():
            kept.append(str(rel))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "rb") as fsrc, open(target, "xb") as fdst:
            shutil.copyfileobj(fsrc, fdst)
        created.append(str(rel))
    (dest / "memory").mkdir(exist_ok=True)
    return created, kept
