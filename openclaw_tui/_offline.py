"""Offline-by-default environment, applied before litellm or tiktoken are imported.

litellm fetches its model cost map and tiktoken downloads BPE files on first use; both
are bundled with litellm, so we point them at the local copies.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any


def _litellm_tokenizer_dir() -> Path | None:
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers"
    return path if path.is_dir() else None


def ensure_offline_env() -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        tok_dir = _litellm_tokenizer_dir()
        if tok_dir is not None:
            os.environ["TIKTOKEN_CACHE_DIR"] = str(tok_dir)


def import_litellm() -> Any:  # the litellm module (not analysed: see [tool.mypy])
    """Import litellm lazily (it costs seconds) with logging kept quiet."""
    ensure_offline_env()
    import litellm  # noqa: PLC0415

    litellm.suppress_debug_info = True
    litellm.drop_params = True
    from openclaw_tui.llm import stream_decoding  # noqa: PLC0415

    stream_decoding.install()  # an invalid byte or a garbage usage block never aborts a turn
    return litellm
