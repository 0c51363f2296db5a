"""The fitted example classifier is kept between processes (``language/examples_cache.py``):
a second process loads it instead of fitting for two seconds, a changed examples file refits,
and a cache file that does not load is refitted and replaced, never trusted."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from openclaw_tui.language import examples as ex
from openclaw_tui.language import examples_cache as cache

ROWS = [
    {"text": "Hi there, how are you?", "intent": "small_talk"}, {"text": "What time is the dentist?", "intent": "question"},
    {"text": "My dentist is Dr. Ruiz.", "intent": "statement"}, {"text": "Remember that my PIN box is blue.", "intent": "remember"},
    {"text": "Hola, ¿qué tal?", "intent": "small_talk"}, {"text": "¿A qué hora es la cena?", "intent": "question"},
]


@pytest.fixture
def examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.DIR_ENV, str(tmp_path / "cache"))
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = ex.fit_rows

    def fit(rows):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(rows)

    monkeypatch.setattr(ex, "fit_rows", fit)
    return calls


def test_a_second_load_reads_the_cache_and_reads_the_same(examples: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    first = cache.fitted(examples)
    second = cache.fitted(examples)
    assert calls == [1]
    assert second.labels == first.labels and (second.W == first.W).all() and (second.cols == first.cols).all()
    for text in ("Hey, how are you doing?", "When is dinner?"):
        assert second.predict(text) == first.predict(text)
    files = list((examples.parent / "cache").iterdir())
    assert len(files) == 1 and files[0].stat().st_mode & 0o077 == 0  # owner-only, like the index


def test_changed_examples_refit_and_the_old_fit_goes(examples: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    cache.fitted(examples)
    with examples.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"text": "Buenas noches, hasta mañana", "intent": "small_talk"}) + "\n")
    cache.fitted(examples)
    assert calls == [1, 1]
    assert len(list((examples.parent / "cache").glob("examples-*.npz"))) == 1


@pytest.mark.parametrize("damage", ["truncate", "garbage", "shape"])
def test_a_cache_file_that_does_not_load_is_refitted(examples: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    calls = _counting(monkeypatch)
    good = cache.fitted(examples)
    (path,) = (examples.parent / "cache").glob("examples-*.npz")
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "garbage":
        path.write_bytes(b"not a numpy file at all")
    else:
        np.savez(path, labels=np.array(good.labels), cols=good.cols, W=good.W[:, :2], b=good.b)
    again = cache.fitted(examples)
    assert calls == [1, 1] and (again.W == good.W).all()
    assert cache.load(cache.key(examples.read_bytes())) is not None  # replaced by a good one


def test_no_writable_cache_still_reads(examples: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv(cache.DIR_ENV, str(blocker / "cache"))
    assert cache.fitted(examples).predict("What time is the dentist?")[0] in {r["intent"] for r in ROWS}
