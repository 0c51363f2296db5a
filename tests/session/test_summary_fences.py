"""A compaction's fallback summary never holds empty code-fence bullets (issue 37: the model's
summary came back empty and the extractive one listed "- ```python" under Progress)."""

from __future__ import annotations

from openclaw_tui.session.compaction import bullet_text, extractive_summary

RENDERED = """User: Write me a function that adds two numbers, we decided to use Python 3.12.
Assistant: ```python
def add(a, b):
    return a + b
```
User: And one that multiplies them.
Assistant: ```python
Assistant: ```
Assistant: ~~~js"""


def test_no_bullet_is_only_a_code_fence() -> None:
    out = extractive_summary(RENDERED)
    bullets = [line[2:] for line in out.splitlines() if line.startswith("- ")]
    assert bullets and all(any(ch.isalnum() for ch in b.replace("python", "").replace("js", "")) for b in bullets), out
    assert "```" not in out and "~~~" not in out
    assert "## Progress\n- none" in out  # every reply was only a fence: nothing to say, said as none


def test_a_fence_inside_a_bullet_goes_and_its_words_stay() -> None:
    assert bullet_text("```python") == "" and bullet_text("~~~") == ""
    assert bullet_text("Here it is: ```python def add(a, b)") == "Here it is: def add(a, b)"
