"""Table tests for the TUI's pure parts: the slash registry and the text formatters."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from openclaw_tui import events as ev
from openclaw_tui.memory.api import SearchHit, SearchResult
from openclaw_tui.tui import format as fmt
from openclaw_tui.tui.commands import registry
from openclaw_tui.tui.widgets.prompt import PromptHistory


def test_registry_order_is_menu_order():
    assert [c.usage for c in registry.COMMANDS] == [
        "/help", "/new", "/resume [--all] [id]", "/copy [n]", "/compact [instructions]", "/flush",
        "/memory search <query>", "/memory status", "/memory index [--force]",
        "/memory open [file]", "/memory history [file]", "/memory restore <file> [--to ID] [--yes]",
        "/undo", "/forget <words>", "/model [name]", "/status", "/mcp", "/init", "/quit",
    ]
    mid = {c.name for c in registry.COMMANDS if c.mid_turn}
    assert mid == {"help", "copy", "memory search", "memory status", "memory history", "status", "mcp", "quit"}


@pytest.mark.parametrize(
    "text,name,arg",
    [
        ("/help", "help", ""),
        ("  /NEW ", "new", ""),
        ("/resume", "resume", ""),
        ("/resume 2f1c", "resume", "2f1c"),
        ("/compact keep the API names", "compact", "keep the API names"),
        ("/flush", "flush", ""),
        ("/memory search  which database?", "memory search", "which database?"),
        ("/memory Status", "memory status", ""),
        ("/memory index --force", "memory index", "--force"),
        ("/model openai/gpt-4o-mini", "model", "openai/gpt-4o-mini"),
        ("/status", "status", ""),
        ("/quit", "quit", ""),
    ],
)
def test_parse_ok(text, name, arg):
    parsed = registry.parse(text)
    assert (parsed.name, parsed.arg) == (name, arg)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("/", "empty command"),
        ("/memory", "usage: /memory search"),
        ("/memory search", "usage: /memory search <query>"),
        ("/memory index --all", "usage: /memory index [--force]"),
        ("/resume a b", "usage: /resume [--all] [id]"),
        ("/hlep", "unknown command /hlep"),
        ("/comp", "did you mean /compact"),
        ("/memory find x", "unknown command /memory find"),
    ],
)
def test_parse_errors_are_one_line(text, needle):
    with pytest.raises(registry.SlashError) as info:
        registry.parse(text)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "typed,expected",
    [
        ("/he", ["/help"]),
        ("/me", ["/memory search ", "/memory status", "/memory index ", "/memory open ", "/memory history ", "/memory restore "]),
        ("/memory s", ["/memory search ", "/memory status"]),
        ("/memory  in", ["/memory index "]),
        ("/r", ["/resume "]),
        ("/compact now", []),
        ("hello", []),
    ],
)
def test_complete(typed, expected):
    assert registry.complete(typed) == expected


@pytest.mark.parametrize(
    "typed,expected",
    [
        ("/resume ", ["/resume 2f1c-aa", "/resume 2f9d-bb", "/resume 77ee"]),
        ("/resume 2f", ["/resume 2f1c-aa", "/resume 2f9d-bb"]),
        ("/RESUME 7", ["/resume 77ee"]),
        ("/resume 2f1c-aa", []),
        ("/resume 2f x", []),
        ("/model ollama/", ["/model ollama/llama3"]),
        ("/compact ", []),
        ("/res", ["/resume "]),
    ],
)
def test_complete_argument_values(typed, expected):
    values = {"resume": ["2f1c-aa", "2f9d-bb", "77ee"], "model": ["openai/gpt-4o-mini", "ollama/llama3"]}
    assert registry.complete(typed, lambda name: values.get(name, [])) == expected


def test_complete_survives_a_failing_value_source():
    def broken(_name):
        raise OSError("sessions.json unreadable")

    assert registry.complete("/resume ", broken) == []


def test_complete_all_and_common_prefix():
    assert len(registry.complete("/")) == len(registry.COMMANDS)
    assert registry.common_prefix(registry.complete("/me")) == "/memory "
    assert registry.common_prefix(["/memory search ", "/memory status"]) == "/memory s"
    assert registry.is_slash("/x") and not registry.is_slash("//x") and not registry.is_slash("x")


def test_help_lists_every_command():
    text = registry.help_markdown()
    for cmd in registry.COMMANDS:
        assert cmd.usage in text


def test_help_documents_the_daily_keys():
    # /help omitted Ctrl+L and keyboard scrolling; Ctrl+C, the queue and the panel are new
    text = registry.help_markdown()
    for key in ("Ctrl+L", "PgUp/PgDn", "Ctrl+C", "Ctrl+O", "queued", "Ctrl+End"):
        assert key in text, key


def test_prompt_history_walk_keeps_draft():
    h = PromptHistory()
    for t in ("one", "two", "two", "three"):
        h.add(t)
    assert h.items == ["one", "two", "three"]
    assert h.prev("draft") == "three"
    assert h.prev("three") == "two"
    assert h.prev("two") == "one"
    assert h.prev("one") is None
    assert h.next() == "two"
    assert h.next() == "three"
    assert h.next() == "draft"
    assert h.next() is None


@pytest.mark.parametrize(
    "event,kind,text",
    [
        (ev.IndexSynced(agent_id="main", files_indexed=3, files_removed=1, chunks=12, duration_ms=41.6),
         "sync", "index synced: 3 files indexed, 12 chunks, 1 removed · 42 ms"),
        (ev.IndexSynced(agent_id="main", files_indexed=1, files_removed=0, chunks=2, full_rebuild=True, reason="fingerprint"),
         "sync", "index rebuilt (fingerprint): 1 file indexed, 2 chunks"),
        (ev.FlushStarted(session_id="s", tokens=11234, threshold=11000), "flush", "flush started: 11,234 ≥ 11,000 tokens"),
        (ev.FlushStarted(session_id="s", tokens=500, threshold=11000, reason="manual"), "flush", "flush started (manual) at 500 tokens"),
        (ev.FlushFinished(session_id="s", path="memory/2026-01-02.md", lines_appended=3, stored=True),
         "flush", "flush stored → memory/2026-01-02.md (+3 lines)"),
        (ev.FlushFinished(session_id="s", path="memory/2026-01-02.md", lines_appended=1, stored=True),
         "flush", "flush stored → memory/2026-01-02.md (+1 line)"),
        (ev.FlushFinished(session_id="s", path=None, lines_appended=0, stored=False), "flush", "flush finished: nothing to store"),
        (ev.FlushFinished(session_id="s", path=None, lines_appended=0, stored=False, skipped_reason="workspace is ro"),
         "flush", "flush skipped: workspace is ro"),
        (ev.CompactionStarted(session_id="s", tokens_before=15000, reason="overflow"),
         "compaction", "compaction started (context overflow) at 15,000 tokens"),
        (ev.CompactionFinished(session_id="s", tokens_before=15000, tokens_after=4200, compaction_count=2),
         "compaction", "compaction #2: 15,000 → 4,200 tokens"),
        (ev.ProviderRetry(provider="openai", attempt=2, delay_s=1.5, message="rate limited"),
         "retry", "retry 2 in 1.5s (openai): rate limited"),
        (ev.ProviderError(provider="openai", message="invalid API key", status=401),
         "error", "provider error 401 (openai): invalid API key"),
        (ev.QmdFallback(reason="qmd timed out", query="db"), "fallback", "QMD fallback to builtin for “db”: qmd timed out"),
        (ev.AccessRefused(tool="write", path="AGENTS.md", reason="read-only workspace"),
         "error", "refused write AGENTS.md: read-only workspace"),
    ],
)
def test_timeline_text(event, kind, text):
    assert fmt.timeline_text(event) == (kind, text)


def test_non_timeline_events_are_ignored():
    assert fmt.timeline_text(ev.TextDelta(text="x")) is None
    assert fmt.timeline_text(ev.TokenUsage(used=1, context_window=2, flush_threshold=1, compaction_threshold=1)) is None


@pytest.mark.parametrize(
    "used,flush,compact,level",
    [(0, 8000, 12000, "ok"), (7199, 8000, 12000, "ok"), (7200, 8000, 12000, "near"), (9000, 8000, 12000, "near"),
     (11399, 8000, 12000, "near"), (11400, 8000, 12000, "critical"), (20000, 8000, 12000, "critical")],
)
def test_meter_level(used, flush, compact, level):
    assert fmt.meter_level(used, flush, compact) == level


def test_meter_geometry_marks_and_fill():
    g = fmt.meter_geometry(used=8000, window=32000, flush_threshold=8000, compaction_threshold=12000, width=32)
    assert (g.filled, g.flush_pos, g.compact_pos, g.level) == (8, 8, 12, "near")
    g = fmt.meter_geometry(used=99999, window=1000, flush_threshold=500, compaction_threshold=500, width=10)
    assert (g.filled, g.flush_pos, g.compact_pos, g.level) == (10, 5, 6, "critical")
    g = fmt.meter_geometry(used=10, window=0, flush_threshold=5, compaction_threshold=6, width=10)
    assert g.flush_pos is None and g.filled == 0


def test_meter_label_and_suffix():
    u = ev.TokenUsage(used=12345, context_window=32000, flush_threshold=8000, compaction_threshold=12000, estimated=True)
    assert fmt.meter_label(u) == "tokens 12,345 / 32,000 (39%)"
    assert fmt.meter_suffix(u) == "flush 8.0k · compact 12.0k · estimate"
    u.estimated = False
    assert fmt.meter_suffix(u).endswith("reported")
    assert fmt.meter_label(None) == "tokens — / —"


def test_result_summary():
    hit = SearchHit(path="a.md", start_line=1, end_line=1, score=0.5)
    assert fmt.result_summary(SearchResult(backend="builtin", results=(hit,), provider="none", search_ms=2.4)) == (
        "1 result · builtin · none · 2 ms"
    )
    assert fmt.result_summary(SearchResult.refused("no index", action="run memory index")) == (
        "no index — run memory index"
    )


def test_app_module_does_not_import_litellm():
    # nor the config models (pydantic): the app reads the config after its first frame
    code = (
        "import sys, openclaw_tui.cli, openclaw_tui.commands.app_cmd, openclaw_tui.tui.app;"
        "from openclaw_tui.cli import build_parser; from openclaw_tui.commands.app_cmd import build_app;"
        "build_app(build_parser().parse_args([]));"
        "print('litellm' in sys.modules, 'openclaw_tui.session.engine' in sys.modules, 'markdown_it' in sys.modules,"
        " 'pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "False", "False"]


def test_prompt_history_persists_and_tolerates_torn_lines(tmp_path):
    path = tmp_path / "agents" / "main" / "tui-history.jsonl"
    h = PromptHistory(path=path)
    h.add("first")
    h.add("two\nlines")
    with path.open("a", encoding="utf-8") as fh:
        fh.write('"torn')  # a crash mid-write
    again = PromptHistory(path=path)
    assert again.items == ["first", "two\nlines"]
    assert PromptHistory(limit=1, path=path).items == ["two\nlines"]
    # an unwritable location keeps working in memory
    blocked = tmp_path / "file"
    blocked.write_text("x")
    h2 = PromptHistory(path=blocked / "sub" / "h.jsonl")
    h2.add("still works")
    assert h2.items == ["still works"] and h2.path is None


def test_prompt_history_on_disk_is_owner_only_with_secrets_as_markers(tmp_path):
    """Newcomer walk: a PIN typed under "don't write this down" sat in a 0644 tui-history.jsonl."""
    import stat

    path = tmp_path / "agents" / "main" / "tui-history.jsonl"
    h = PromptHistory(path=path)
    h.add("Please don't write this down: my PIN is 4821.")
    assert h.items == ["Please don't write this down: my PIN is 4821."]  # ↑ in this session gives it back
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "4821" not in path.read_text() and "[secret withheld: PIN]" in path.read_text()
    assert PromptHistory(path=path).items == ["Please don't write this down: my PIN is [secret withheld: PIN]."]


@pytest.mark.parametrize(
    "entry, key, expected",
    [
        ({"sessionId": "a1"}, "agent:main:main", "`a1`"),
        ({"sessionId": "a1", "title": "hi", "model": "offline", "compactionCount": 0, "memoryFlushAt": None}, "", "`a1` · “hi” · offline"),
        ({"sessionId": "a1", "compactionCount": 2, "current": True}, "", "`a1` · 2 compactions · **current**"),
        ({"sessionId": "a1", "title": "use *bold* [x]"}, "", "`a1` · “use \\*bold\\* \\[x\\]”"),
        ({"sessionId": "a1", "sessionKey": "agent:main:main"}, "agent:main:main", "`a1`"),
        ({"sessionId": "a1", "sessionKey": "agent:main:discord:group:1"}, "agent:main:main", "`a1` · agent:main:discord:group:1"),
    ],
)
def test_session_line(entry: dict, key: str, expected: str) -> None:
    assert fmt.session_line(entry, key) == expected


def test_session_line_shows_last_activity_as_local_time() -> None:
    line = fmt.session_line({"sessionId": "a1", "createdAt": 1, "lastActivity": 1_796_286_641_683, "transcript": "/x.jsonl"})
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_796_286_641.683))
    assert line == f"`a1` · {stamp}"


def test_timeline_colours_keep_red_for_problems():
    # flush lines were magenta, read as red like errors; info notices were yellow warnings
    from openclaw_tui.tui.widgets.timeline import KIND_STYLE

    routine = ("sync", "flush", "compaction", "info", "memory")
    assert all("red" not in KIND_STYLE[k] and "magenta" not in KIND_STYLE[k] for k in routine)
    assert "red" in KIND_STYLE["error"] and KIND_STYLE["notice"] == "yellow"


@pytest.mark.parametrize(
    "event,expected",
    [
        (ev.FlushFinished(session_id="s", path="memory/2026-12-03.md", lines_appended=3, stored=True), "memory flush: 3 lines → memory/2026-12-03.md"),
        (ev.FlushFinished(session_id="s", path=None, lines_appended=0, stored=False), "memory flush: nothing to store"),
        (ev.FlushFinished(session_id="s", path=None, lines_appended=0, stored=False, skipped_reason="workspace is read-only"), "memory flush skipped: workspace is read-only"),
        (ev.CompactionFinished(session_id="s", tokens_before=6928, tokens_after=3908, compaction_count=1), "compacted: 6,928 → 3,908 tokens (older turns are summarised)"),
        (ev.IndexSynced(agent_id="main", files_indexed=0, files_removed=0, chunks=4, reason="watch"), None),
        (ev.IndexSynced(agent_id="main", files_indexed=1, files_removed=0, chunks=5, reason="watch"), "memory index (watch): 1 file indexed, 5 chunks"),
        (ev.IndexSynced(agent_id="main", files_indexed=0, files_removed=0, chunks=5, full_rebuild=True), "memory index rebuilt: 0 files indexed, 5 chunks"),
    ],
)
def test_chat_mark(event, expected):
    assert fmt.chat_mark(event) == expected


def test_meter_parts_keep_a_bar_of_twenty_cells():
    u = ev.TokenUsage(used=2798, context_window=4000, flush_threshold=2000, compaction_threshold=3000)
    assert fmt.meter_parts(u, 118) == ("tokens 2,798 / 4,000 (70%)", "flush 2.0k · compact 3.0k · estimate")
    label, suffix = fmt.meter_parts(u, 78)
    assert 78 - len(label) - len(suffix) - 4 >= 20 and suffix.endswith("est.")
    assert fmt.meter_parts(u, 78, flush=False)[1].startswith("compact 3.0k")


def test_replay_shows_a_kept_partial_reply_once_marked_cancelled():
    from openclaw_tui.tui.replay import replay

    partial = "Sure, a poem:\nThe sea is wide,\nAnd find our peace"
    entries = [
        {"type": "message", "message": {"role": "user", "content": "a poem"}},
        {"type": "message", "message": {"role": "assistant", "content": partial}, "partial": True},
        {"type": "cancelled", "partial": partial},
    ]
    got = [(i.kind, i.text, i.cancelled) for i in replay(entries).items]
    assert got == [("user", "a poem", False), ("assistant", partial, True)]


def test_replay_keeps_tools_errors_cancels_and_only_what_a_compaction_kept():
    from openclaw_tui.tui.replay import replay

    def msg(role, content=None, **kw):
        return {"type": "message", "message": {"role": role, "content": content, **kw}}

    call = {"id": "c1", "type": "function", "function": {"name": "memory_search", "arguments": '{"query": "db"}'}}
    entries = [
        {"type": "session", "id": "s"},
        msg("user", "old question"),
        msg("assistant", "old answer"),
        {"type": "compaction", "summary": "We talked about the old question.", "kept": 1},
        msg("user", "which db?"),
        msg("assistant", None, tool_calls=[call]),
        msg("tool", '{"error": "index unavailable"}', tool_call_id="c1"),
        msg("assistant", "PostgreSQL."),
        msg("user", "and the cache?"),
        {"type": "error", "message": "401 Incorrect API key", "action": "check the key"},
        msg("user", "tell me more"),
        {"type": "cancelled", "partial": "Well, first"},
    ]
    got = replay(entries)
    assert got.summary == "We talked about the old question."
    kinds = [(i.kind, i.text or i.name or i.error) for i in got.items]
    assert kinds == [
        ("assistant", "old answer"),  # the one message the compaction kept
        ("user", "which db?"),
        ("tool", "memory_search"),
        ("result", "index unavailable"),
        ("assistant", "PostgreSQL."),
        ("user", "and the cache?"),
        ("error", "401 Incorrect API key"),
        ("user", "tell me more"),
        ("cancelled", "Well, first"),
    ]
    assert got.items[2].arguments == {"query": "db"} and got.items[6].action == "check the key"


def test_every_slash_command_has_one_handler():
    """The dispatch runs each command of the slash table through its entry in one handler
    table; a command added to the table without a handler (or a stale handler) is caught."""
    from openclaw_tui.tui.commands.dispatch import HANDLERS

    assert list(HANDLERS) == [c.name for c in registry.COMMANDS]
    assert all(callable(h) for h in HANDLERS.values())
    assert len(set(HANDLERS.values())) == len(HANDLERS)  # no handler serves two commands


def test_session_id_prefix_resolution():
    from openclaw_tui.tui.commands.session import session_id_for

    sessions = [{"sessionId": "75cf0a"}, {"sessionId": "75ab11"}, {"sessionId": "0d9e"}]
    assert session_id_for("0d9e", sessions) == "0d9e"
    assert session_id_for("75c", sessions) == "75cf0a"
    assert session_id_for("zz", sessions) == "zz"  # no match: the engine says what is wrong
    with pytest.raises(ValueError, match="starts 2 session ids"):
        session_id_for("75", sessions)


def test_md_kv_shows_empty_values_as_a_dash():
    out = fmt.md_kv("Status", {"a": 1, "b": "", "c": {"x": 1}, "d": [1, 2]})
    assert out.splitlines() == ["**Status**", "", "- a: `1`", "- b: —", "- c: `x=1`", "- d: `1, 2`"]


@pytest.mark.parametrize("label", [
    "local · Qwen2.5-Coder-1.5B (llama.cpp) · loading model…",
    "local · Qwen2.5-Coder-1.5B (llama.cpp) · 10 tok/s",
    "local · Qwen2.5-Coder-1.5B (llama.cpp)",
])
def test_the_welcome_names_a_local_model_without_its_passing_state(label: str) -> None:
    # the welcome stays in the chat: "loading model…" there was stale once the model had loaded
    text = fmt.welcome_markdown(label, False, "/tmp/ws", "dir", "rw")
    assert "`local · Qwen2.5-Coder-1.5B (llama.cpp)`" in text
    assert "loading" not in text and "tok/s" not in text


def test_the_welcome_keeps_a_hosted_model_label_whole() -> None:
    assert "`openai/gpt-4o-mini`" in fmt.welcome_markdown("openai/gpt-4o-mini", False, "/tmp/ws", "dir", "rw")
