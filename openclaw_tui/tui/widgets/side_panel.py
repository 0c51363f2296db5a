"""The side column: the Memory panel over the Timeline, built after the first frame.

The two widgets (a list view, their CSS, their modules) were about a fifth of the first
frame's cost; the column is laid out empty and filled once the screen is on screen, or
earlier if an event needs it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.containers import Vertical

from openclaw_tui.tui.format import Clock

if TYPE_CHECKING:
    from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
    from openclaw_tui.tui.widgets.timeline import Timeline


class SidePanel(Vertical):
    def __init__(self, *, clock: Clock, timings: bool, **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock
        self.timings = timings
        self._built: asyncio.Future[None] | None = None

    @property
    def built(self) -> bool:
        return self._built is not None and self._built.done()

    async def build(self) -> None:
        """Mount the Memory panel and the Timeline (once; later calls wait for it)."""
        if self._built is None:
            self._built = asyncio.ensure_future(self._mount_children())
        await asyncio.shield(self._built)

    async def _mount_children(self) -> None:
        from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
        from openclaw_tui.tui.widgets.timeline import Timeline

        await self.mount(
            MemoryPanel(id="memory-panel", timings=self.timings),
            Timeline(id="timeline", clock=self.clock, timings=self.timings),
        )

    @property
    def memory_panel(self) -> "MemoryPanel":
        return self.query_one("#memory-panel")  # type: ignore[return-value]

    @property
    def timeline(self) -> "Timeline":
        return self.query_one("#timeline")  # type: ignore[return-value]
