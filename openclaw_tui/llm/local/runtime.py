"""``LocalModel``: the chat model interface over a managed llama.cpp server.

Nothing starts at construction. The first ``ensure_started()`` (the TUI calls it after the
first frame; a turn calls it otherwise) checks the file (assembling a catalog model from its
installed parts if needed, verifying its sha256, checking it fits in memory), starts the
child server and from then on streams through ``LiteLLMModel`` as ``openai/<name>`` at
``http://127.0.0.1:<port>/v1``: real HTTP. When any of that fails the reason is kept as one
line with the fix and the fallback model (the offline agent) serves instead.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import time
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

from openclaw_tui.llm.client import ChatModel, Completion, DeltaFn, LiteLLMModel
from openclaw_tui.llm.local.catalog import LocalModelSpec
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.llm.local.files import ModelFileError, check_loadable, verify_catalog_file
from openclaw_tui.llm.local.install import InstallError, install, target_path
from openclaw_tui.llm.local.request_stats import RequestStats, ServerTimings, append_log, read_timings
from openclaw_tui.llm.local.slot_cache import make_private, prefix_key, prune, slot_dir, touch
from openclaw_tui.llm.local.server import LocalServer, ServerConfig, ServerError
from openclaw_tui.llm.local.threads import machine_threads
from openclaw_tui.llm.prompt_progress import ProgressFn
from openclaw_tui.llm.resolve import ModelChoice

RUNTIME = "llama.cpp"
# Sampling temperature of every request to the managed server (llama.cpp's default is 0.8).
# Measured (docs/local-llm.md): at 0.8 the 1.5B named the fact in the recalled notes in 5 of
# 10 runs of the identity question, at 0.2 in 6 of 6; OPENCLAW_LOCAL_TEMPERATURE overrides.
LOCAL_TEMPERATURE = 0.2
# A cap on each answer from the managed server. Without one a small model can loop: the 1.5B
# wrote 4,900 tokens (about 8 minutes on 2 cores) for one LoCoMo question before the request
# timed out. OPENCLAW_LOCAL_MAX_TOKENS overrides (0: no cap).
LOCAL_MAX_TOKENS = 1024
# A lower cap by purpose: a compaction asks for 3 to 8 short bullets (~150 tokens); the 1.5B once
# ran on to the 1,024 above summarising five turns (74 s of a bench run, docs/local-llm.md).
LOCAL_ANSWER_CAPS = MappingProxyType({"compaction": 384})
KEPT_REQUESTS = 100  # LocalModel.requests keeps this many
SLOT_CACHE_ENV = "OPENCLAW_LOCAL_SLOT_CACHE"  # "0": no slot files kept between runs


@dataclass(frozen=True)
class LocalRuntimeConfig:
    n_ctx: int = 32768
    threads: int = 2
    log_path: Path | None = None
    start_timeout_s: float = 180.0
    temperature: float | None = LOCAL_TEMPERATURE
    max_tokens: int | None = LOCAL_MAX_TOKENS
    slot_dir: Path | None = None  # the slot files kept between runs (``slot_cache.py``); None: none


def _prepare_file(path: Path, spec: LocalModelSpec | None) -> None:
    """Make sure the GGUF is in place and sound; raise ModelFileError/InstallError."""
    if spec is not None and path == target_path(spec, path.parent) and not path.exists():
        install(spec, directory=path.parent)  # parts installed, not assembled yet
    if spec is not None:
        verify_catalog_file(path, spec)
    elif not path.is_file():
        raise ModelFileError(f"local model {path} does not exist: give an existing GGUF with --model local/<path.gguf>")
    check_loadable(path)


class LocalModel:
    """A ChatModel served by a local llama.cpp child process, started on first need."""

    provider = "local"
    reports_progress = True  # our llama.cpp server answers return_progress (ModelSlot wires on_progress)

    def __init__(self, choice: ModelChoice, config: LocalRuntimeConfig, *, fallback: Callable[[], ChatModel]):
        assert choice.local_path is not None
        self.choice = choice
        self.model = choice.model
        self.path = Path(choice.local_path)
        self.spec = choice.local_spec
        self.config = config
        self.name = self.spec.name if self.spec else self.path.stem
        self.display = self.spec.label if self.spec else self.path.stem
        self._fallback_factory = fallback
        self._fallback: ChatModel | None = None
        self._inner: LiteLLMModel | None = None
        self._server = LocalServer(
            ServerConfig(self.path, self.name, config.n_ctx, config.threads, config.log_path, config.start_timeout_s,
                         slot_dir=config.slot_dir)
        )
        self._slot_pid: int | None = None  # the server process whose slot was restored (or tried) for its first turn
        self._lock: asyncio.Lock | None = None
        self.problem: str | None = None
        self._problem_reported = False
        self.tokens_per_s: float | None = None
        self.load_s: float | None = None
        #: told how far the server has read each prompt (``llm/prompt_progress.py``)
        self.on_progress: ProgressFn | None = None
        #: what the last requests cost (``request_stats.py``), newest last
        self.requests: list[RequestStats] = []
        atexit.register(self.close)

    # ------------------------------------------------------------------ what the UI shows

    @property
    def is_offline(self) -> bool:
        return self._fallback is not None

    @property
    def label(self) -> str:
        if self._fallback is not None:
            return self._fallback.label
        head = f"local · {self.display} ({RUNTIME})"
        if self._inner is None:  # not started yet, or starting: it loads on first need
            return head + " · loading model…"
        if self.tokens_per_s:
            return head + f" · {self.tokens_per_s:.0f} tok/s"
        return head

    @property
    def server(self) -> LocalServer:
        return self._server

    # ------------------------------------------------------------------ lifecycle

    def _start_blocking(self) -> str:
        t0 = time.monotonic()
        _prepare_file(self.path, self.spec)
        if self.config.slot_dir is not None:
            make_private(self.config.slot_dir)
        address = self._server.start()
        self.load_s = time.monotonic() - t0
        return address

    async def ensure_started(self) -> str | None:
        """Start the server once. Returns the failure line the first time it is asked for."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._inner is None and self._fallback is None:
                await self._start()
        if self.problem and not self._problem_reported:
            self._problem_reported = True
            return self.problem
        return None

    async def _start(self) -> None:
        # litellm's import (seconds, and more on a busy machine) overlaps the model's load
        # instead of delaying the first request after it (measured: 20 s of a 33 s first turn)
        warm = asyncio.ensure_future(asyncio.to_thread(_import_client))
        try:
            address = await asyncio.to_thread(self._start_blocking)
        except (ModelFileError, InstallError, ServerError, OSError) as exc:
            self.problem = f"{exc}; the offline agent serves meanwhile"
            self._fallback = self._fallback_factory()
            return
        served = ModelChoice(f"openai/{self.name}", "local", api_base=address + "/v1", api_key=self._server.api_key, temperature=self.config.temperature,
                             max_tokens=self.config.max_tokens)
        self._inner = LiteLLMModel(served)
        self._inner.answer_caps = LOCAL_ANSWER_CAPS
        await warm

    def close(self) -> None:
        """Stop the server without waiting for it (quitting must not): ``reaper.py`` ends it."""
        self._server.stop(wait=False)
        atexit.unregister(self.close)

    # ------------------------------------------------------------------ chat

    async def complete(
        self, messages: list[ChatMessage], tools: list[dict[str, Any]] | None, *, on_delta: DeltaFn, purpose: str = "turn"
    ) -> Completion:
        await self.ensure_started()
        if self._fallback is not None:
            return await self._fallback.complete(messages, tools, on_delta=on_delta, purpose=purpose)
        assert self._inner is not None
        self._inner.on_progress = self.on_progress
        timings: list[ServerTimings] = []

        def on_chunk(chunk: Any) -> None:
            t = read_timings(chunk)
            if t is not None:
                timings.append(t)

        self._inner.on_chunk = on_chunk
        first: float | None = None
        pieces = 0
        sent, sent_wall = time.monotonic(), time.time()

        def timed(piece: str) -> None:
            nonlocal first, pieces
            if first is None:
                first = time.monotonic()
            pieces += 1
            on_delta(piece)

        save = await self._restore_slot(messages, tools) if purpose == "turn" else None
        out = await self._inner.complete(messages, tools, on_delta=timed, purpose=purpose)
        self._measure(first, pieces, out)
        if save is not None:
            await asyncio.to_thread(self._save_slot, save)
        if timings:
            self._record(purpose, timings[-1], None if first is None else first - sent, time.monotonic() - sent, sent_wall)
        return out

    async def _restore_slot(self, messages: list[ChatMessage], tools: list[dict[str, Any]] | None) -> str | None:
        """Before the first turn request of this server: restore the slot file kept for the
        request's fixed start, if there is one. The file name to save to after the request when
        there was none (else None)."""
        if self.config.slot_dir is None or self._server.pid is None or self._slot_pid == self._server.pid:
            return None
        self._slot_pid = self._server.pid
        name = prefix_key(self.path, list(messages), tools)
        path = self.config.slot_dir / name
        if path.is_file():
            if await asyncio.to_thread(self._server.slot_action, "restore", name) is not None:
                touch(path)
                return None
        return name

    def _save_slot(self, name: str) -> None:
        if self._server.slot_action("save", name) is not None and self.config.slot_dir is not None:
            prune(self.config.slot_dir, keep=name)

    def _record(self, purpose: str, t: ServerTimings, first_s: float | None, total_s: float, at: float) -> None:
        stats = RequestStats(purpose, t.processed + t.reused, t.processed, t.reused, t.prompt_ms, t.generated, t.gen_ms,
                             None if first_s is None else round(first_s, 3), round(total_s, 3), round(at, 3))
        self.requests = self.requests[-(KEPT_REQUESTS - 1):] + [stats]
        append_log(stats)

    def _measure(self, first: float | None, pieces: int, out: Completion) -> None:
        """Generation speed from the real stream: tokens after the first one over the time
        since it arrived (the first token's wait is prompt processing, not generation)."""
        if first is None:
            return
        tokens = (out.usage or {}).get("completion_tokens") or pieces
        elapsed = time.monotonic() - first
        if tokens > 1 and elapsed > 0:
            self.tokens_per_s = (tokens - 1) / elapsed


def _import_client() -> None:
    from openclaw_tui._offline import import_litellm  # noqa: PLC0415

    try:
        import_litellm()
    except Exception:  # noqa: BLE001 - the first request imports it again and reports the problem
        pass


def runtime_config(settings: Any = None) -> LocalRuntimeConfig:
    """Server settings from the agent settings: n_ctx = ``contextTokens`` or 8192; the log
    goes to ``<state dir>/logs/openclaw-tui.log``; threads from the machine (``threads.py``:
    physical cores; ``agents.defaults.localThreads`` pins them, ``OPENCLAW_LOCAL_THREADS``
    over it); the sampling temperature is
    ``OPENCLAW_LOCAL_TEMPERATURE`` or ``LOCAL_TEMPERATURE``; the answer cap
    ``OPENCLAW_LOCAL_MAX_TOKENS`` or ``LOCAL_MAX_TOKENS`` (0: none); the slot files in
    ``slot_cache.slot_dir()`` unless ``OPENCLAW_LOCAL_SLOT_CACHE=0``."""
    from openclaw_tui.config.loader import state_dir
    from openclaw_tui.llm.context import LOCAL_CONTEXT_WINDOW

    n_ctx = LOCAL_CONTEXT_WINDOW
    configured_threads = None
    if settings is not None:
        n_ctx = int(settings.config.agents.defaults.context_tokens or LOCAL_CONTEXT_WINDOW)
        configured_threads = settings.config.agents.defaults.local_threads
    base = Path(getattr(settings, "state_dir", None) or state_dir())
    try:
        temperature = float(os.environ.get("OPENCLAW_LOCAL_TEMPERATURE") or LOCAL_TEMPERATURE)
    except ValueError:
        temperature = LOCAL_TEMPERATURE
    slots = None if os.environ.get(SLOT_CACHE_ENV, "").strip() == "0" else slot_dir()
    return LocalRuntimeConfig(n_ctx=n_ctx, threads=machine_threads(configured=configured_threads), log_path=base / "logs" / "openclaw-tui.log",
                              temperature=temperature, max_tokens=_env_int("OPENCLAW_LOCAL_MAX_TOKENS", LOCAL_MAX_TOKENS) or None,
                              slot_dir=slots)


def _env_int(name: str, default: int) -> int:
    try:
        return max(0, int(os.environ.get(name) or default))
    except ValueError:
        return default
