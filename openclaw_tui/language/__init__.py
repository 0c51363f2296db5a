"""The user's language: one reading per message (``reading.py``), words per language as data
(``data/``). Nothing outside this package decides behaviour from English words."""
