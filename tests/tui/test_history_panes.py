"""Drift, Search and Changes: the panes that read git history or the bodies."""

from __future__ import annotations

import pytest
from memorybank.core import clock
from memorybank.tui.app import make_app
from memorybank.tui.panes.changes import ChangesPane
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.panes.drift import DriftPane
from memorybank.tui.panes.search import SearchPane
from textual.widgets import Input, Tree

from tests.tui.conftest import SIZE, Notes, settle

pytestmark = pytest.mark.anyio


async def test_drift_lists_pairs_with_their_commits_and_the_missing_anchor(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        pane = app.screen.query_one(DriftPane)
        drift = pane.drift
        assert [(p.path, p.anchor, p.ahead_days) for p in drift.drifted] == [
            ("domain/tax-model.md", "src/billing/tax.py", 119),
            ("engineering/payment-retries.md", "src/payments/retry.py", 98),
        ]
        assert drift.drifted[0].commits[0].subject == "Apply the EU reverse charge to cross-border B2B invoices"
        assert [(m.path, m.anchor) for m in drift.missing] == [("ops/deploy-runbook.md", "scripts/rollback.sh")]
        await pilot.press("plus")
        await settle(pilot)
        assert pane.drift.threshold_days == 120 and not pane.drift.drifted and pane.drift.missing
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.pane("document").path is None  # the "nothing drifted" line opens nothing
        tree = pane.query_one("#drift-tree", Tree)
        tree.select_node(tree.root.children[1].children[0])
        await settle(pilot)
        assert app.screen.query_one(DocumentPane).opened.doc.path == "ops/deploy-runbook.md"


async def test_drift_lists_stale_documents_with_their_reasons_and_opens_them(demo_source):
    """On 2026-05-24 the documents of 2026-01-12 and 2026-02-02 are more than 90 days old (the
    demo's dna/lifecycle.md says so), and billing, payments and tax code moved on since."""
    app = make_app(demo_source, poll_seconds=0)
    with clock.pinned("2026-05-24T12:00:00Z"):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("escape", "5")
            await settle(pilot)
            pane = app.screen.query_one(DriftPane)
            staleness = pane.staleness
            assert (staleness.days, staleness.days_from) == (90, "dna/lifecycle.md")
            assert [d.path for d in staleness.stale[:2]] == ["domain/tax-model.md", "engineering/payment-retries.md"]
            assert len(staleness.stale) == 9 and staleness.stale[0].named == ("src/billing/tax.py",)
            assert pane.query_one("#stale-days", Input).value == "90"
            assert "9 stale" in str(pane.query_one("#drift-summary").render())
            tree = pane.query_one("#drift-tree", Tree)
            group = tree.root.children[-1]
            assert str(group.label) == "Untouched while the code moved on (9)"
            first = group.children[0]
            assert str(first.label) == "domain/tax-model.md  132 days  1 named, 1 beside"
            assert str(first.children[0].label).startswith("9 lines in 3 files changed since 2026-01-12 (3 commits)")
            tree.select_node(first.children[0])
            await settle(pilot)
            assert app.screen.query_one(DocumentPane).opened.doc.path == "domain/tax-model.md"
            await pilot.press("escape", "5")
            await settle(pilot)
            await pilot.press("right_square_bracket")
            await settle(pilot)
            assert (pane.staleness.days, pane.staleness.days_from) == (120, "given")
            assert [d.path for d in pane.staleness.stale] == [
                "domain/tax-model.md",
                "engineering/payment-retries.md",
                "adr/ADR-20260105T100000Z-postgres-job-queue.md",
                "engineering/architecture.md",
                "ops/deploy-runbook.md",
                "product/plans-and-limits.md",
            ]
            days = pane.query_one("#stale-days", Input)
            days.focus()
            days.value = ""
            await pilot.press("9", "0", "enter")  # the bank's own number again: its setting, not an override
            await settle(pilot)
            assert (pane.staleness.days, pane.staleness.days_from) == (90, "dna/lifecycle.md")


async def test_drift_without_git_says_why_there_is_nothing_to_compare(reference_bank):
    app = make_app(reference_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        summary = str(app.screen.query_one("#drift-summary").render())
        assert "declares `anchors:`" in summary or "not inside a git repository" in summary


async def searched(pilot, text: str) -> SearchPane:
    """The Search pane in front, ``text`` searched and its hits shown."""
    await settle(pilot)
    await pilot.press("escape", "6")
    pane = pilot.app.screen.query_one(SearchPane)
    pane.ask(text)
    await settle(pilot)
    return pane


async def test_search_finds_the_line_and_opens_the_document_there(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await searched(pilot, "SKIP LOCKED")
        hits = {h.path: h.line for h in pane.result.hits}
        assert "engineering/architecture.md" in hits and hits["engineering/architecture.md"] > 0
        index = [h.path for h in pane.result.hits].index("engineering/architecture.md")
        await pilot.press("enter", *["down"] * index, "enter")
        await settle(pilot)
        document = app.screen.query_one(DocumentPane)
        assert document.opened.doc.path == "engineering/architecture.md"
        assert document.line == hits["engineering/architecture.md"] and document.source_mode


async def test_two_enters_read_at_once_in_search_open_the_first_hit(demo_source):
    from textual import events

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await searched(pilot, "SKIP LOCKED")
        pane.query_one("#search-query").focus()
        await settle(pilot)
        first = pane.result.hits[0].path
        for _ in range(2):  # posted at once, as a terminal delivers Enter Enter typed fast
            app.post_message(events.Key("enter", "\r"))
        await settle(pilot, rounds=4)
        assert app.screen.query_one(DocumentPane).opened.doc.path == first


async def test_changes_since_a_ref_and_a_bad_ref_reported_without_a_crash(demo_source, monkeypatch):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        await pilot.press("escape", "7")
        await settle(pilot)
        pane = app.screen.query_one(ChangesPane)
        kinds = {c.path: c.change_kind for c in pane.changes.changes}
        assert kinds["domain/invoicing-rules.md"] == "modified"
        assert kinds["engineering/caching-notes.md"] == "added"
        assert kinds["_inbox/eu-reverse-charge.md"] == "added"
        await pilot.press("slash")
        since = pane.query_one("#changes-since")
        since.value = "no-such-ref"
        await pilot.press("enter")
        await settle(pilot)
        assert any('"no-such-ref" is not a commit' in m for m in notes.errors())
        assert pane.changes is None and app.is_running
        assert since.has_focus  # refused: the box keeps the focus, so the fix typed next is no pane key
        await pilot.press("end", "ctrl+u", *"2026-05-01", "enter")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "changes"
        assert {c.path for c in pane.changes.changes} >= {"domain/invoicing-rules.md", "engineering/caching-notes.md"}
        assert pane.query_one("#changes-table").has_focus  # listed: the results take it
        assert not list(app._notifications)  # the refusal's toast no longer stands over the answer


async def test_search_says_when_its_list_is_the_first_of_more(demo_source, monkeypatch):
    monkeypatch.setattr("memorybank.tui.panes.search.LIMIT", 2)
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "6")
        pane = app.screen.query_one(SearchPane)
        pane.ask("invoice")
        await settle(pilot)
        assert len(pane.result.hits) == 2 and pane.result.matched > 2
        summary = str(app.screen.query_one("#search-summary").render())
        assert summary.startswith(f"the first 2 of {pane.result.matched} documents")
        assert "↓ past the last lists more, or add a word to narrow them" in summary
        table = pane.query_one("#search-results")
        table.focus()
        await settle(pilot)
        await pilot.press("down")  # to the last listed
        await pilot.press("down")  # past it: two more are listed, the cursor on the first of them
        await settle(pilot)
        assert len(pane.result.hits) == 4 and table.cursor_row == 2
        pane.ask("invoice numbering")  # a new query starts at the first page again
        await settle(pilot)
        assert len(pane.result.hits) <= 2 and pane.limit == 2


async def test_a_drift_threshold_cleared_and_retyped_in_one_burst_keeps_what_was_typed(demo_source):
    """ctrl+u then digits, arriving together: the field holds the digits (a plain Input cleared them
    after typing them, its ctrl+u running behind the keys queued after it)."""
    from textual import events
    from textual.widgets import Input

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        box = app.screen.query_one("#drift-threshold", Input)
        box.focus()
        await settle(pilot)
        for key, char in (("ctrl+u", None), ("1", "1"), ("2", "2"), ("0", "0")):
            app.post_message(events.Key(key, char))
        await settle(pilot, rounds=3)
        assert box.value == "120" and app.screen.query_one("#panes").active == "drift"


async def test_changes_outside_git_open_on_the_last_week_by_modification_time(reference_bank):
    """HEAD~5 means nothing without commits: every document would show as changed. The pane opens on
    the week before today instead, and says the delta comes from modification times."""
    import os
    from datetime import UTC, datetime

    from memorybank.core import clock

    paths = sorted(reference_bank.rglob("*.md"))
    for path, day in [(path, 1) for path in paths] + [(paths[0], 22)]:  # all in early May, one lately
        moment = datetime(2026, 5, day, tzinfo=UTC).timestamp()
        os.utime(path, (moment, moment))
    touched = paths[0]
    with clock.pinned("2026-05-24T12:00:00Z"):
        app = make_app(reference_bank, poll_seconds=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("escape", "7")
            await settle(pilot)
            pane = app.screen.query_one(ChangesPane)
            assert pane.query_one("#changes-since").value == "2026-05-17"
            assert [c.path for c in pane.changes.changes] == [touched.relative_to(reference_bank).as_posix()]
            assert "(modification times)" in str(pane.query_one("#changes-summary").render())


async def test_drift_in_a_repository_without_commits_says_so_on_a_line_of_its_own(tmp_path):
    """The stale line and the note that follows it ran together ("…moved onThe repository…")."""
    import subprocess

    from memorybank.core.init import init

    init(tmp_path / "memory_bank", name="Fresh")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    app = make_app(tmp_path / "memory_bank", poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        summary = str(app.screen.query_one("#drift-summary").render())
        assert "moved on\nThe repository has no commits yet" in summary


async def test_an_emptied_drift_threshold_says_it_is_the_default_and_a_bad_one_is_refused_keeping_it(
    demo_source, monkeypatch
):
    """An emptied threshold box showed nothing while the summary said "90 days"; "-5" replaced the
    summary with the core's "threshold_days must be between 0 and 3650"; a stale-after of 9999 was
    cut to 3650 without a word."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        pane = app.screen.query_one(DriftPane)
        box = pane.query_one("#drift-threshold", Input)
        summary = pane.query_one("#drift-summary")

        def said() -> str:
            return " ".join(str(summary.render()).split())

        assert "threshold 90 days (default)" in said()
        box.focus()
        await pilot.press("end", "ctrl+u", "enter")
        await settle(pilot)
        assert box.value == "" and box.placeholder == "90"  # the box shows the default it stands for
        assert pane.drift.threshold_days == 90 and "threshold 90 days (default)" in said()
        box.focus()
        await pilot.press(*"-5", "enter")
        await settle(pilot)
        warned = [m for m, severity in notes.messages if severity == "warning"]
        assert warned and "“-5” days are out of range (0 to 3650)" in warned[-1] and "0 to 3650" in warned[-1]
        assert box.value == "-5" and box.has_focus and box.has_class("-invalid")  # kept, to be mended
        assert pane.drift.threshold_days == 90 and "threshold 90 days (default)" in said()
        await pilot.press("end", "ctrl+u", "0", "enter")
        await settle(pilot)
        assert pane.drift.threshold_days == 0 and "threshold 0 days 9 stale" in said()  # not "(default)"
        assert not box.has_class("-invalid")
        await pilot.press("plus")
        await settle(pilot)
        assert box.value == "30" and pane.drift.threshold_days == 30
        days = pane.query_one("#stale-days", Input)
        days.focus()
        await pilot.press("end", "ctrl+u", *"9999", "enter")
        await settle(pilot)
        assert "Stale after: “9999” days are out of range (0 to 3650)" in notes.messages[-1][0]
        assert days.value == "9999" and pane.staleness.days == 90  # not cut to 3650 behind the owner's back
