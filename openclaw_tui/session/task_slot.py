"""The one piece of work a session runs at a time (a turn, ``/flush`` or ``/compact``) and
its cancellation, which may come from another thread (a UI thread)."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")


class TaskSlot:
    def __init__(self) -> None:
        self._task: asyncio.Future[Any] | None = None
        #: True when ``cancel()`` asked for the cancellation (not the app shutting down)
        self.cancel_requested = False

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def run(self, work: Awaitable[T]) -> T:
        """Run ``work`` as the current task (the caller checked ``busy``)."""
        self.cancel_requested = False
        task: asyncio.Future[T] = asyncio.ensure_future(work)
        self._task = task
        try:
            return await task
        finally:
            self._task = None

    async def run_cancellable(self, factory: Callable[[], Awaitable[Any]]) -> bool:
        """Run a command; False when the user cancelled it (other cancellations propagate)."""
        try:
            await self.run(factory())
            return True
        except asyncio.CancelledError:
            if not self.cancel_requested:
                raise
            return False

    def cancel(self) -> None:
        """Cancel the running task, from its loop's thread or any other."""
        task = self._task
        if task is None or task.done():
            return
        self.cancel_requested = True
        loop = task.get_loop()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        # Scheduled, never at once: a task created but not yet started would be cancelled
        # before its first line, and its own cancel handling (keep the prompt, mark the
        # transcript) would never run. The task's first step is already queued ahead of this.
        if running is loop:
            loop.call_soon(task.cancel)
        else:  # called from another thread (e.g. a UI thread)
            loop.call_soon_threadsafe(task.cancel)

    def stop(self) -> None:
        """Closing: cancel whatever runs, not as the user's cancel."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
