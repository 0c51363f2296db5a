"""Resuming a long ``eval survival`` run from the partial file an earlier run left.

A real-model run of every language takes hours; the partial file written after each
conversation carries the raw tallies and the options, so a later run with the same options
(any number of conversations at least as large) skips the conversations already scored and
adds to their totals. Runs go conversation-major, so the first *n* conversations of a short
run are the first *n* of a longer one with the same seed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from openclaw_tui.evals.survival import SurvivalOptions, Tally

#: the options that decide what a conversation is and how it is scored (not how many there are)
SAME_OPTIONS = ("model", "seed", "facts", "languages", "kinds", "flush", "flush_mode", "same_session",
                "context_tokens", "reserve_floor", "soft_threshold", "keep_recent")


class ResumeError(ValueError):
    """The partial file cannot continue this run (another run's options, or not a partial file)."""


def options_key(opts: SurvivalOptions) -> dict[str, Any]:
    """The options a resumed run must share with the run it continues, JSON-ready."""
    out: dict[str, Any] = {}
    for name in SAME_OPTIONS:
        value = getattr(opts, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


@dataclass(frozen=True)
class ResumePoint:
    """How far an earlier run got: conversations done, their tallies, where earlier runs resumed."""

    done: int = 0
    tally: Tally = field(default_factory=Tally)
    per_language: dict[str, Tally] = field(default_factory=dict)
    resumed_at: tuple[int, ...] = ()


def state(opts: SurvivalOptions, done: int, tally: Tally, per_language: dict[str, Tally],
          resumed_at: tuple[int, ...]) -> dict[str, Any]:
    """The block a partial file carries so a later run can continue from it."""
    return {"options": options_key(opts), "done": done, "resumedAt": list(resumed_at),
            "tally": asdict(tally), "languages": {lang: asdict(t) for lang, t in per_language.items()}}


def _tally(raw: Any, where: str) -> Tally:
    if not isinstance(raw, dict):
        raise ResumeError(f"{where}: not a tally")
    try:
        return Tally(**raw)
    except TypeError as exc:
        raise ResumeError(f"{where}: {exc}") from None


def load(partial: dict[str, Any], opts: SurvivalOptions, planned: int) -> ResumePoint:
    """The point to continue from, or :class:`ResumeError` saying why this run cannot."""
    block = partial.get("resume") if isinstance(partial, dict) else None
    if not isinstance(block, dict):
        raise ResumeError("the file holds no resume state (written by an older run, or not a partial file)")
    theirs, ours = block.get("options"), options_key(opts)
    if theirs != ours:
        diff = sorted(k for k in ours if not isinstance(theirs, dict) or theirs.get(k) != ours[k])
        raise ResumeError(f"the earlier run used other options ({', '.join(diff)}): run with the same ones")
    done = block.get("done")
    if not isinstance(done, int) or isinstance(done, bool) or done < 0:
        raise ResumeError("'done' is not a count of conversations")
    if done > planned:
        raise ResumeError(f"the earlier run scored {done} conversations, this one plans {planned}: ask for more")
    langs = block.get("languages")
    if not isinstance(langs, dict) or set(langs) - set(opts.languages):
        raise ResumeError("the tallies per language do not match the languages asked for")
    per_language = {lang: _tally(langs.get(lang, {}), f"languages.{lang}") for lang in opts.languages}
    resumed = tuple(int(n) for n in block.get("resumedAt", []) if isinstance(n, int))
    return ResumePoint(done=done, tally=_tally(block.get("tally"), "tally"), per_language=per_language,
                       resumed_at=(*resumed, done))
