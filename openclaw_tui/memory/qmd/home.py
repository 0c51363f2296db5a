"""An agent's own qmd home, and running qmd in it.

Each agent gets a private qmd config and index under ``<agent dir>/qmd`` (XDG dirs pointed
there, ``--index index`` pinned), so qmd never reads someone else's index or a project-local
``.qmd/``. Its models are pinned to local files, so an offline ``embed``/``vsearch``/``query``
fails in seconds instead of trying to download.
"""

from __future__ import annotations

import os
from typing import Any
from pathlib import Path

import yaml

from openclaw_tui.owner_only import private_dir
from openclaw_tui.memory.qmd.parse import strip_ansi
from openclaw_tui.memory.qmd.runner import (
    QmdError,
    QmdRunResult,
    first_line,
    looks_like_flag_rejection,
    looks_like_model_failure,
    run_qmd,
)

MODEL_KINDS = ("embed", "generate", "rerank")


def exit_error(res: QmdRunResult, what: str, *, flags: bool = False) -> QmdError:
    """The ``QmdError`` for a qmd run that exited non-zero (``models`` when a model failed to
    load; with ``flags``, ``flags`` when qmd rejected an option)."""
    detail = first_line(strip_ansi(res.stderr)) or first_line(strip_ansi(res.stdout)) or "no output"
    kind = "models" if looks_like_model_failure(res.stderr) else "exit"
    if flags and kind == "exit" and looks_like_flag_rejection(res.stderr + res.stdout):
        kind = "flags"
    return QmdError(kind, f"qmd {what} exited with status {res.returncode}: {detail}",
                    stderr=res.stderr, returncode=res.returncode)


class QmdHome:
    """The qmd home directory ``root`` and the command that runs qmd there."""

    def __init__(self, root: Path, command: list[str]) -> None:
        self.root = root
        self.command = command

    @property
    def config_dir(self) -> Path:
        return self.root / "xdg-config" / "qmd"

    @property
    def index_path(self) -> Path:
        return self.root / "xdg-cache" / "qmd" / "index.sqlite"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for var in ("QMD_CONFIG_DIR", "INDEX_PATH"):
            env.pop(var, None)  # would point qmd at someone else's index
        env["XDG_CONFIG_HOME"] = str(self.root / "xdg-config")
        env["XDG_CACHE_HOME"] = str(self.root / "xdg-cache")
        env["PWD"] = str(self.root)
        env["NO_COLOR"] = "1"
        env.setdefault("QMD_FORCE_CPU", "1")
        for kind in MODEL_KINDS:
            env.setdefault(f"QMD_{kind.upper()}_MODEL", str(self.root / "models" / f"{kind}.gguf"))
        return env

    def _read_config(self) -> dict[str, Any] | None:
        """``index.yml`` as a dict ({} when missing or not a mapping); None when unreadable."""
        path = self.config_dir / "index.yml"
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
        except (OSError, yaml.YAMLError):
            return None
        return data if isinstance(data, dict) else {}

    def prepare(self) -> None:
        """Create the home; pin qmd's models in ``index.yml`` to local files (unless
        ``OPENCLAW_QMD_ALLOW_DOWNLOAD=1``)."""
        for d in (self.root / "models", self.config_dir, self.index_path.parent):
            private_dir(d)  # qmd's index holds memory text: owner-only
        if os.environ.get("OPENCLAW_QMD_ALLOW_DOWNLOAD") == "1":
            return
        path = self.config_dir / "index.yml"
        data = self._read_config()
        if data is None:
            return  # leave a file we cannot read to qmd; it will report the problem
        found = data.get("models")
        models: dict[str, Any] = found if isinstance(found, dict) else {}
        changed = False
        for kind in MODEL_KINDS:
            cur = models.get(kind)
            if not cur or str(cur).startswith("hf:"):
                models[kind] = os.environ.get(f"QMD_{kind.upper()}_MODEL") or str(self.root / "models" / f"{kind}.gguf")
                changed = True
        if changed or not path.exists():
            data.setdefault("collections", {})
            if data["collections"] is None:
                data["collections"] = {}
            data["models"] = models
            tmp = path.with_suffix(".yml.tmp")
            tmp.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
            os.replace(tmp, path)

    def collections(self) -> dict[str, dict]:
        """The collections qmd's ``index.yml`` lists (name → {path, pattern})."""
        cols = (self._read_config() or {}).get("collections")
        return cols if isinstance(cols, dict) else {}

    def run(self, args: list[str], timeout_ms: int) -> QmdRunResult:
        self.root.mkdir(parents=True, exist_ok=True)
        # --index pins the global (per-agent) index: no project-local .qmd/ above cwd is used.
        return run_qmd(self.command, ["--index", "index", *args], env=self.env(), cwd=self.root,
                       timeout_s=timeout_ms / 1000.0)

    def run_ok(self, args: list[str], timeout_ms: int) -> QmdRunResult:
        """``run``, raising ``QmdError`` when qmd exits non-zero."""
        res = self.run(args, timeout_ms)
        if res.returncode != 0:
            raise exit_error(res, args[0])
        return res
