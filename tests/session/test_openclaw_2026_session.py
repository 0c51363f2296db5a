"""Today's OpenClaw compaction and flush keys through the real engine and a scripted
OpenAI-compatible server: forceFlushTranscriptBytes, the flush-failure counters and the
"memory maintenance failed" notice, qualityGuard, identifierPolicy, recentTurnsPreserve,
notifyUser, and the one line naming what a config writes that is not honoured."""

from __future__ import annotations

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.flush import MAX_FLUSH_FAILURES
from openclaw_tui.session.thresholds import preserve_recent_turns
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window

MODEL = "openai/fake-model"
BIG = {"contextTokens": 100_000}


def engine_for(make_settings, server, recorder, overrides=None) -> SessionEngine:
    settings = make_settings(overrides, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


def flush_cfg(**flush) -> dict:
    return {"agents": {"defaults": {**BIG, "memorySearch": {"provider": "none"},
                                    "compaction": {"memoryFlush": {"forceFlushTranscriptBytes": 1, **flush}}}}}


async def test_the_transcript_size_forces_one_flush_per_cycle(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, flush_cfg(mode="engine"))
    for msg in ("The staging database is pg-staging-4.", "The release train leaves on Thursdays.", "ok then"):
        await eng.send(msg)  # far below the token threshold: only the size can ask for a flush
    started = [e for e in recorder.of(events.FlushStarted) if e.reason not in events.ENGINE_NOTE_REASONS]
    assert [e.reason for e in started] == ["transcript-size"]  # once in the cycle
    eng.close()


async def test_a_zero_size_turns_the_forced_flush_off(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, flush_cfg(mode="engine", forceFlushTranscriptBytes=0))
    await eng.send("The staging database is pg-staging-4.")
    await eng.send("The release train leaves on Thursdays.")
    assert not [e for e in recorder.of(events.FlushStarted) if e.reason not in events.ENGINE_NOTE_REASONS]
    eng.close()


async def test_flush_failures_are_counted_then_given_up_with_a_notice(make_settings, server, recorder, workspace) -> None:
    eng = engine_for(make_settings, server, recorder, flush_cfg(mode="model"))
    for turn in range(MAX_FLUSH_FAILURES):  # each turn: the reply, then the flush that waited for it fails
        server.push({"text": "ok"}, {"error": 401})
        await eng.send(f"turn {turn}")
        entry = eng._store.get(eng.session_id)  # noqa: SLF001
        assert entry["memoryFlushFailureCount"] == turn + 1 and entry["memoryFlushLastFailedAt"]
        assert "401" in entry["memoryFlushLastFailureError"] or "API key" in entry["memoryFlushLastFailureError"]
    notices = [n.message for n in recorder.of(events.Notice) if n.message.startswith("memory maintenance failed")]
    assert len(notices) == 1 and f"failed {MAX_FLUSH_FAILURES} times" in notices[0]
    asked = len(server.chat_requests())
    server.push({"text": "ok"})
    await eng.send("one more")  # given up for this cycle: no flush request
    assert len(server.chat_requests()) == asked + 1
    eng.close()


async def test_a_flush_that_works_clears_the_failure_counters(make_settings, server, recorder, workspace) -> None:
    eng = engine_for(make_settings, server, recorder, flush_cfg(mode="model"))
    server.push({"text": "ok"}, {"error": 401})
    await eng.send("first")
    assert eng._store.get(eng.session_id)["memoryFlushFailureCount"] == 1  # noqa: SLF001
    server.push({"text": "ok"}, {"text": "NO_REPLY"})
    await eng.send("second")
    entry = eng._store.get(eng.session_id)  # noqa: SLF001
    assert entry["memoryFlushFailureCount"] == 0 and entry["memoryFlushLastFailureError"] is None and entry["memoryFlushAt"]
    eng.close()


def _compaction(**extra) -> dict:
    return small_window(10_000, 2_000, 1_000, keep=10, compaction={"memoryFlush": {"enabled": False}, **extra})


async def test_quality_guard_off_takes_the_models_summary_unchecked(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, _compaction(qualityGuard={"enabled": False}))
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("ok then")
    invented = "- User: talked about the weather"
    server.push({"text": invented})
    await eng.compact()
    (done,) = recorder.of(events.CompactionFinished)
    assert done.summary == invented and len(server.chat_requests()) == 3  # no second summary request
    eng.close()


async def test_max_retries_asks_again_that_many_times(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, _compaction(qualityGuard={"maxRetries": 2}))
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("ok then")
    bad = "- User: talked about the weather"
    server.push({"text": bad}, {"text": bad}, {"text": "- The travel account code is FIN-2231-B."})
    await eng.compact()
    (done,) = recorder.of(events.CompactionFinished)
    assert done.summary == "- The travel account code is FIN-2231-B." and len(server.chat_requests()) == 5
    eng.close()


async def test_identifier_policy_off_does_not_require_the_identifiers(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, _compaction(identifierPolicy="off"))
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("ok then")
    server.push({"text": "- The user gave the account code for travel."})
    await eng.compact()
    (done,) = recorder.of(events.CompactionFinished)
    assert done.summary == "- The user gave the account code for travel." and len(server.chat_requests()) == 3
    eng.close()


async def test_identifier_policy_custom_adds_its_instructions(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    cfg = _compaction(identifierPolicy="custom", identifierInstructions="Keep ticket ids such as OPS-1 exactly.")
    eng = engine_for(make_settings, server, recorder, cfg)
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("ok then")
    server.push({"text": "- The travel account code is FIN-2231-B."})
    await eng.compact()
    assert "Keep ticket ids such as OPS-1 exactly." in str(server.chat_requests()[-1]["messages"])
    eng.close()


def test_recent_turns_preserve_moves_the_cut_back():
    roles = ["user", "assistant", "user", "assistant", "tool", "assistant", "user", "assistant"]
    assert preserve_recent_turns(7, roles, 2) == 2 and preserve_recent_turns(7, roles, 1) == 6
    assert preserve_recent_turns(1, roles, 2) == 1 and preserve_recent_turns(7, roles, None) == 7
    assert preserve_recent_turns(7, roles, 4) == 0  # fewer turns than that: nothing to compact


async def test_recent_turns_preserve_keeps_the_last_turns_verbatim(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, _compaction(recentTurnsPreserve=2))
    for msg in ("The account code for travel is FIN-2231-B.", "second message", "third message"):
        await eng.send(msg)
    server.push({"text": "- The travel account code is FIN-2231-B."})
    await eng.compact()
    kept = [m["content"] for m in eng.history if m.get("role") == "user"]
    assert kept == ["second message", "third message"]
    eng.close()


async def test_notify_user_says_when_a_compaction_starts_and_ends(make_settings, server, recorder, workspace) -> None:
    for notify in (False, True):
        recorder.events.clear()
        server.push({"text": "ok"}, {"text": "ok"})
        eng = engine_for(make_settings, server, recorder, _compaction(notifyUser=notify))
        await eng.send("The account code for travel is FIN-2231-B.")
        await eng.send("ok then")
        server.push({"text": "- The travel account code is FIN-2231-B."})
        await eng.compact()
        said = [n.message for n in recorder.of(events.Notice) if "compact" in n.message]
        assert (len(said) == 2 and said[0].startswith("compacting") and "compaction 1 done" in said[1]) if notify else not said
        eng.close()


async def test_a_session_starts_with_one_line_naming_what_is_not_honoured(make_settings, server, recorder, workspace) -> None:
    cfg = {"memory": {"search": {"provider": "none", "outputDimensionality": 768}},
           "agents": {"defaults": {"compaction": {"maxHistoryShare": 0.5}}}}
    eng = engine_for(make_settings, server, recorder, cfg)
    lines = [n.message for n in recorder.of(events.Notice) if n.message.startswith("not honoured")]
    assert lines == ["not honoured by openclaw-tui: memory.search.outputDimensionality, agents.defaults.compaction.maxHistoryShare "
                     "(`openclaw-tui config show` lists why)"]
    eng.close()
