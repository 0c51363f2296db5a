"""Records of what happened, below both memory and session: session transcripts
(``transcript``, ``no_reply``), the ``sessions.json`` index (``session_store``), and the
history of every change to a memory file with its diffs and restore (``history``,
``change_diff``, ``restore``, ``restore_plan``). Built on ``workspace/`` (atomic writes,
locks, safe paths); imports nothing above it."""
