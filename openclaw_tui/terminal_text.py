"""Text from a model, a memory file or a server, made safe to print on a terminal.

The plain CLI (``chat -p``, ``memory get``, ``memory history``) writes such text straight to
the terminal, where an escape sequence would act: OSC 52 writes the clipboard, CSI clears
the screen, OSC 0 sets the window title, a carriage return or a bidi override rewrites what
the line seems to say. :func:`for_terminal` shows every control character (C0 but newline
and tab, DEL, C1, bidi controls, lone surrogates) as a visible ``\\xNN``/``\\uNNNN`` escape,
so no sequence can form, even one split across two streamed pieces. The TUI renders text as
text and needs none of this.
"""

from __future__ import annotations

from openclaw_tui.workspace.guard import printable_path

KEPT = "\n\t"


def for_terminal(text: str) -> str:
    """``text`` with every control character shown as an escape (newline and tab kept)."""
    if not text:
        return text
    if "\n" not in text and "\t" not in text:
        return printable_path(text)
    out = []
    start = 0
    for i, c in enumerate(text):
        if c in KEPT:
            out.append(printable_path(text[start:i]))
            out.append(c)
            start = i + 1
    out.append(printable_path(text[start:]))
    return "".join(out)
