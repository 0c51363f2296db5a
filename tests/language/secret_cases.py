"""The check the redactor's case files make of each (text, value, kind) case: the value is gone,
the kind's marker stands in its place with every other word as typed, and a second pass changes
nothing."""

from __future__ import annotations

from openclaw_tui.language.secrets import marker, redact_for_disk


def assert_withheld(text: str, value: str, kind: str) -> None:
    disk = redact_for_disk(text)
    assert value not in disk.text and marker(kind) in disk.text and kind in disk.kinds
    assert disk.text.replace(marker(kind), value) == text
    assert redact_for_disk(disk.text).text == disk.text


def assert_kept(text: str) -> None:
    assert redact_for_disk(text).text == text
