"""``eval survival`` end to end without a model (the rule-based offline agent, the real
engine): a report per language with every metric, misses listed with what was expected,
the table printed with no partial lines on stdout, and ``--json``."""

from __future__ import annotations

import asyncio
import json

from openclaw_tui.evals.survival import SurvivalOptions
from openclaw_tui.evals.survival_run import run_survival
from tests.inproc import run_cli

METRICS = ("storedPct", "answeredSamePct", "answeredNewPct", "junkPct", "refusalsHonoured", "secretsOnDisk",
           "privateVisibleToGroup", "wrongDates")


def test_a_report_per_language_with_every_metric() -> None:
    report = asyncio.run(run_survival(SurvivalOptions(model="offline", conversations=1, languages=("en", "de"), seed=3)))
    assert set(report["languages"]) == {"en", "de"}
    # issue 37: the smallest run, at the default window, compacts at least twice (it ran none)
    assert report["compactions"] >= 2 and report["contextTokens"] == SurvivalOptions().context_tokens, report["compactions"]
    for lang, summary in report["languages"].items():
        assert all(key in summary for key in METRICS), lang
        assert summary["conversations"] == 1 and summary["facts"] >= 8
        assert summary["refusals"] == 1 and summary["secrets"] == 1 and summary["privateFacts"] == 1
        assert summary["datedFacts"] == 2
        assert set(summary["byKind"]) == {"facts", "corrections", "inside", "private", "dates"}
    assert report["facts"] == sum(s["facts"] for s in report["languages"].values())


def test_a_missed_answer_is_listed_with_what_was_expected() -> None:
    # no flush and a small window: what the offline agent does not store, it cannot answer
    report = asyncio.run(run_survival(SurvivalOptions(model="offline", conversations=1, facts=3, seed=2, flush=False,
                                                      context_tokens=1200, languages=("es",))))
    missed = [e for e in report["examples"] if "missed" in e]
    if report["answeredNewPct"] < 100.0:
        assert missed, report["examples"]
    for e in missed:
        assert e["missed"].endswith("?") and e["session"] in ("same", "new") and e["expected"]
        assert e["expected"].lower() not in e["reply"].lower() or e.get("notOld")


def test_the_table_per_language_and_json() -> None:
    done = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "it,pt",
                   "--kinds", "facts,secrets", "--facts", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert not any(ln.startswith("partial") for ln in lines + done.stderr.splitlines())
    rows = {ln.split()[0] for ln in lines[2:5] if ln.strip()}
    assert rows == {"it", "pt", "all"}, done.stdout
    assert "stored %" in lines[1] and "on disk" in lines[1] and "to group" in lines[1]
    done = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "fr",
                   "--kinds", "refusals", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["kinds"] == ["refusals"] and report["languages"]["fr"]["refusals"] == 1 and report["facts"] == 0


def test_unknown_languages_and_kinds_are_refused_with_the_choices() -> None:
    done = run_cli("--model", "offline", "eval", "survival", "--languages", "en,nl")
    assert done.returncode != 0 and "en,es,de,fr,pt,it" in done.stderr
    done = run_cli("--model", "offline", "eval", "survival", "--kinds", "jokes")
    assert done.returncode != 0 and "corrections" in done.stderr


def test_new_session_only_asks_each_fact_once_and_shows_no_same_session_figure() -> None:
    steps: dict[bool, list[int]] = {True: [], False: []}

    def run(same: bool) -> dict:
        opts = SurvivalOptions(model="offline", conversations=1, facts=2, seed=5, languages=("en",), kinds=("facts",),
                               same_session=same)
        return asyncio.run(run_survival(opts, progress=lambda done, total, label: steps[same].append(done)))

    both, once = run(True), run(False)
    assert max(steps[False]) == max(steps[True]) - both["facts"] > 0, steps
    assert once["answeredSamePct"] is None and both["answeredSamePct"] is not None
    assert once["languages"]["en"]["answeredSamePct"] is None
    assert once["storedPct"] == both["storedPct"] and once["answeredNewPct"] == both["answeredNewPct"]
    done = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "en",
                   "--kinds", "facts", "--facts", "2", "--new-session-only")
    assert done.returncode == 0, done.stderr
    (row,) = [ln.split() for ln in done.stdout.splitlines() if ln.startswith("en ")]
    assert row[4] == "—", done.stdout  # conv, facts, stored %, same %


def test_partial_file_holds_the_totals_so_far_per_language(tmp_path) -> None:
    # a long real-model run cut off early still reports: after each conversation the file holds
    # the totals, and the run goes conversation-major so every language has the same count
    partial = tmp_path / "partial.json"
    seen: list[dict] = []
    report = asyncio.run(run_survival(SurvivalOptions(model="offline", conversations=2, languages=("en", "es"), seed=4,
                                                      facts=1, kinds=("facts",), same_session=False),
                                      partial=seen.append))
    assert [s["language"] for s in seen] == ["en", "es", "en", "es"]
    assert [s["conversationsDone"] for s in seen] == [1, 2, 3, 4] and seen[0]["conversationsPlanned"] == 4
    assert set(seen[0]["languages"]) == {"en"} and seen[1]["languages"]["es"]["conversations"] == 1
    assert seen[-1]["languages"] == report["languages"] and seen[-1]["facts"] == report["facts"]
    done = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "de,it", "--facts", "1",
                   "--kinds", "facts", "--new-session-only", "--quiet", "--partial", str(partial))
    assert done.returncode == 0, done.stderr
    written = json.loads(partial.read_text(encoding="utf-8"))
    assert written["conversationsDone"] == 2 and set(written["languages"]) == {"de", "it"}
    assert not partial.with_name("partial.json.tmp").exists()


def _comparable(report: dict) -> dict:
    timing = {"secondsPerTurn", "secondsPerFlush", "examples", "resumedAt"}
    out = {k: v for k, v in report.items() if k not in timing}
    out["languages"] = {lang: {k: v for k, v in s.items() if k not in timing} for lang, s in report["languages"].items()}
    return out


def test_a_run_resumed_from_its_partial_file_reports_what_one_whole_run_does(tmp_path) -> None:
    # a real-model run of every language takes hours: a later run continues from the partial
    # file (same options, more conversations) and ends with the totals of one uninterrupted run
    base = dict(model="offline", languages=("en", "pt"), seed=6, facts=1, kinds=("facts", "secrets"), same_session=False)
    seen: list[dict] = []
    asyncio.run(run_survival(SurvivalOptions(conversations=1, **base), partial=seen.append))
    assert seen[-1]["resume"]["done"] == 2
    totals: dict[int, list[int]] = {1: [], 2: [], 3: []}
    asyncio.run(run_survival(SurvivalOptions(conversations=1, **base), progress=lambda d, t, _: totals[1].append(t)))
    resumed = asyncio.run(run_survival(SurvivalOptions(conversations=2, **base), resume=json.loads(json.dumps(seen[-1])),
                                       progress=lambda d, t, _: totals[2].append(t)))
    whole = asyncio.run(run_survival(SurvivalOptions(conversations=2, **base), progress=lambda d, t, _: totals[3].append(t)))
    assert resumed["resumedAt"] == [2] and whole["resumedAt"] == []
    assert _comparable(resumed) == _comparable(whole)
    assert resumed["conversations"] == 4 and resumed["languages"]["pt"]["conversations"] == 2
    assert totals[1][0] + totals[2][0] == totals[3][0]  # the progress counts only the conversations still to run


def test_resume_refuses_other_options_and_files_without_state(tmp_path) -> None:
    partial = tmp_path / "p.json"
    done = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "it", "--facts", "1",
                   "--kinds", "facts", "--new-session-only", "--quiet", "--partial", str(partial))
    assert done.returncode == 0, done.stderr
    before = partial.read_text(encoding="utf-8")
    other = run_cli("--model", "offline", "eval", "survival", "--conversations", "2", "--languages", "it", "--facts", "2",
                    "--kinds", "facts", "--new-session-only", "--quiet", "--resume", str(partial))
    assert other.returncode == 2 and "facts" in other.stderr and "same" in other.stderr, other.stderr
    fewer = run_cli("--model", "offline", "eval", "survival", "--conversations", "0", "--languages", "it", "--facts", "1",
                    "--kinds", "facts", "--new-session-only", "--quiet", "--resume", str(partial))
    assert fewer.returncode == 2 and "ask for more" in fewer.stderr, fewer.stderr
    assert partial.read_text(encoding="utf-8") == before  # a refused resume loses nothing
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"conversationsDone": 1}), encoding="utf-8")
    stale = run_cli("--model", "offline", "eval", "survival", "--conversations", "1", "--languages", "it",
                    "--quiet", "--resume", str(old))
    assert stale.returncode == 2 and "no resume state" in stale.stderr, stale.stderr
    ok = run_cli("--model", "offline", "eval", "survival", "--conversations", "2", "--languages", "it", "--facts", "1",
                 "--kinds", "facts", "--new-session-only", "--quiet", "--json", "--resume", str(partial))
    assert ok.returncode == 0, ok.stderr
    report = json.loads(ok.stdout)
    assert report["conversations"] == 2 and report["resumedAt"] == [1]
    assert json.loads(partial.read_text(encoding="utf-8"))["conversationsDone"] == 2
