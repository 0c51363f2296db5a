"""What the engine says about memory, in the user's language (issue 35, "Said").

The turn tells the user what it kept and what it did not, short and only when something beyond
the usual "Noted" happened: a fact asked not to be kept, a secret written as a marker, a fact
already noted, a private remark in a group session, an old note a correction superseded. A reply
that promises not to store while the turn did write is followed by what was written, and where.
A request to change a file in a read-only workspace gets a plain refusal. The words are
data (``language/data/<lang>.replies.json``, ``language/engine_lines.py``); pure functions.

    said(outcome, "es")  # "Guardé 1 nota en memory/2026-12-06.md. No guardado: el PIN (un secreto, …)."
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from openclaw_tui.language.engine_lines import EngineLines, engine_lines
from openclaw_tui.language.lexicon import TABLES
from openclaw_tui.session.note_writer import FORGOTTEN, SECRET_WITHHELD, NoteOutcome

def notable(outcome: NoteOutcome) -> bool:
    """Whether the write did more than keep the facts (then the usual "Noted" says enough)."""
    return bool(outcome.not_kept or outcome.superseded)


def _not_kept(outcome: NoteOutcome, lines: EngineLines) -> str:
    counts = Counter(n.reason for n in outcome.not_kept if n.reason != SECRET_WITHHELD)
    kinds = list(dict.fromkeys(n.text for n in outcome.not_kept if n.reason == SECRET_WITHHELD))
    parts = [lines.reason(why, n=n) for why, n in counts.items()]
    if kinds:
        parts.append(lines.reason(SECRET_WITHHELD, kinds=lines.join([lines.kind(k) for k in kinds])))
    return lines.say("not_kept", reasons=lines.join(parts)) if parts else ""


def kept_line(outcome: NoteOutcome, lines: EngineLines) -> str:
    n = len(outcome.kept)
    if not n or outcome.path is None:
        return ""
    return lines.say("kept_one", path=outcome.path) if n == 1 else lines.say("kept_many", n=n, path=outcome.path)


def said(outcome: NoteOutcome, lang: str) -> str:
    """What the turn kept and did not keep, in ``lang``; "" when nothing notable happened."""
    if not notable(outcome):
        return ""
    lines = engine_lines(lang)
    parts = [kept_line(outcome, lines) or (lines.say("kept_none") if outcome.not_kept and not outcome.superseded else ""),
             _not_kept(outcome, lines)]
    parts += [lines.say("superseded", path=old.path, old=old.text.strip()) for old in outcome.superseded]
    return " ".join(p for p in parts if p)


def wrote_anyway(paths_lines: list[tuple[str, int]], lang: str) -> str:
    """The correction of a reply that promised not to store when the turn wrote: what, and where."""
    lines = engine_lines(lang)
    what = lines.join([lines.say("kept_one", path=p).rstrip(".") if n == 1 else lines.say("kept_many", n=n, path=p).rstrip(".")
                       for p, n in paths_lines])
    return lines.say("wrote_anyway", what=what)


def is_bare_acknowledgement(text: str) -> bool:
    """``text`` is only one of the acknowledgements the engine's tables hold ("Noted.", "Anotado."),
    in any language (a parenthesis after it, such as the offline agent's label, allowed)."""
    head = text.split("(", 1)[0].strip()
    return bool(head) and head in _acknowledgements()


@lru_cache(maxsize=1)
def _acknowledgements() -> frozenset[str]:
    out: set[str] = set()
    for lang in TABLES:
        lines = engine_lines(lang)
        out.update(lines.say(key) for key in ("noted", "noted_here"))
    return frozenset(out)


def forgotten_line(lang: str) -> str:
    """A re-stated fact the user made memory forget: not kept, said in the chat."""
    lines = engine_lines(lang)
    return lines.say("not_kept", reasons=lines.reason(FORGOTTEN))


def refusal(access: str, lang: str) -> str:
    """The plain refusal of a request to change a file when the workspace cannot be written."""
    return engine_lines(lang).say("read_only" if access == "ro" else "no_workspace")


def refusals_said(refusals: list[tuple[str, str, str, str]], lang: str) -> str:
    """What the sandbox refused this turn, plainly: each write refusal (tool, path, reason, kind)
    once (a forgotten fact's refusal is ``forgotten_line``, said by the caller)."""
    lines = engine_lines(lang)
    out: list[str] = []
    for _tool, path, why, _kind in refusals:
        line = lines.say("refused_write", path=path, why=why)
        if line not in out:
            out.append(line)
    return " ".join(out)


def with_said(reply: str, line: str, *, acknowledgement_only: bool) -> str:
    """``reply`` with ``line`` told: instead of a bare acknowledgement, else after the reply (once)."""
    if not line or line in reply:
        return reply
    if acknowledgement_only:
        return line
    return f"{reply.rstrip()}\n\n{line}" if reply.strip() else line
