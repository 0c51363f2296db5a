"""The stopwords of every supported language, kept where they have always been imported from.

The words live in the language package as data (``language/data/stopwords/<lang>.txt``),
loaded by :mod:`openclaw_tui.language.stopwords`; this module only re-exports them.
"""

from __future__ import annotations

from openclaw_tui.language.stopwords import ALL, CJK_CUTS, KO_PARTICLES, stopwords

__all__ = ["ALL", "CJK_CUTS", "KO_PARTICLES", "stopwords"]
