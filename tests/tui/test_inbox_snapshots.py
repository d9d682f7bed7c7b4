"""One picture per Inbox dialog and preview at 80x24 on the demo bank, and one of the Activity pane.

The demo's notes get fixed capture times and the inbox's clock is set to 2026-05-24 12:00 UTC, so
the ages (18, 4, 3 and 1 days) are the same every day. Each docstring says what the picture must
show; read the report before `--snapshot-update`.
"""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.proposals import propose
from memorybank.tui.app import make_app
from memorybank.tui.panes.inbox import InboxPane
from memorybank.tui.screenshots import ReplayedServer, inbox_clock, pin_inbox_times
from memorybank.tui.widgets.bank_header import BankHeader
from textual.widgets import DataTable, Input, Select

from tests.tui.conftest import SIZE, settle, until


@pytest.fixture
def inbox_demo(demo_bank):
    """A private demo bank whose notes were captured at fixed times, seen at a fixed moment."""
    pin_inbox_times(demo_bank)
    with inbox_clock():
        yield demo_bank


def app_on(bank, **kwargs):
    return make_app(bank, poll_seconds=0, **kwargs)


async def on_note(pilot, name: str) -> None:
    """The Inbox pane, with the note ``_inbox/<name>`` highlighted and read."""
    await settle(pilot)
    await pilot.press("escape")  # out of the question box, so 8 is a pane key and not a digit typed
    assert await until(pilot, lambda: pilot.app.focused is not None and not isinstance(pilot.app.focused, Input))
    await pilot.press("8")
    await settle(pilot)
    pane = pilot.app.screen.query_one(InboxPane)
    path = f"_inbox/{name}"
    assert await until(pilot, lambda: path in [e.path for e in pane.entries]), f"{path} never listed"
    pane.query_one("#inbox-notes", DataTable).move_cursor(row=[e.path for e in pane.entries].index(path))
    assert await until(pilot, lambda: pane.view is not None and pane.view.entry.path == path)
    header = pilot.app.screen.query_one(BankHeader)
    assert await until(pilot, lambda: header.summary is not None and not header.busy)  # the header's counts in
    await settle(pilot, rounds=3)


def test_inbox_pane(snap_compare, inbox_demo):
    """The Inbox tab (8) active: "4 notes · 1 stale (over 14 days) · 1 proposal", the notes oldest
    first, every title whole (Deploy freeze calendar 18d in yellow from codex with its promote
    badge, then the EU reverse charge for B2B invoices 4d from cursor, the flaky PDF test 3d and
    "Retries bunch up at the top of the hour" 1d from claude-code);
    under them the highlighted note's path and frontmatter, and on the right codex's proposal with
    its reason, then "Where it belongs" led by ops/deploy-runbook.md § Deploy Freeze, owning
    deploy_procedure. The footer offers p, f, d, a and r."""

    async def run_before(pilot):
        await on_note(pilot, "deploy-freeze-calendar.md")

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_promote_form_with_a_refusal(snap_compare, inbox_demo):
    """The promote form over the EU reverse-charge note: its origin (cursor, 4 days ago), the
    destination typed as domain/tax-model.md, kind domain, title, purpose, derived from
    domain/tax-model.md, and the core's refusal in red, verbatim: the path is taken."""

    async def run_before(pilot):
        await on_note(pilot, "eu-reverse-charge.md")
        await pilot.press("p")
        await settle(pilot)
        pilot.app.screen.query_one("#promote-to", Input).value = "domain/tax-model.md"
        await pilot.press("enter")
        await settle(pilot, rounds=3)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_promote_preview(snap_compare, inbox_demo):
    """The dry run of promoting the EU note to domain/eu-reverse-charge.md: no template, the line
    added to domain/README.md in green, no links rewritten, no warnings, then the new document's
    frontmatter exactly as it will be written; the buttons "Back to the form (n)" and "Promote (y)"."""

    async def run_before(pilot):
        await on_note(pilot, "eu-reverse-charge.md")
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, rounds=3)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


async def fold_form(pilot) -> None:
    await on_note(pilot, "retries-bunch-up.md")
    await pilot.press("f")
    await settle(pilot)
    pilot.app.screen.query_one("#fold-section", Select).value = "Backoff and Jitter"
    pilot.app.screen.query_one("#fold-mode", Select).value = "replace"
    await settle(pilot)


def test_fold_form(snap_compare, inbox_demo):
    """The fold form for the retries note: into engineering/payment-retries.md (the router's first
    candidate), section Backoff and Jitter, mode "replace the section", and the note's body in the
    text box, ready to edit; the hint says Enter or ctrl+s previews and space opens a list."""

    async def run_before(pilot):
        await fold_form(pilot)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_fold_preview(snap_compare, inbox_demo):
    """The fold's preview: engineering/payment-retries.md § Backoff and Jitter (replace, with the
    byte counts), the diff removing "Delays are fixed…" in red and adding the note's two lines in
    green (the second wrapped, its continuation marked ↪ in the gutter), then the discard of _inbox/retries-bunch-up.md with the reason "folded into
    engineering/payment-retries.md#Backoff and Jitter"."""

    async def run_before(pilot):
        await fold_form(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=3)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_discard_dialog(snap_compare, inbox_demo):
    """Discarding the flaky PDF test note: the question with its path, the note's title, an empty
    reason box with its example, the hint that Tab completes a reason given before or a preset, and
    the buttons "Keep (esc)" and "Discard (enter)"."""

    async def run_before(pilot):
        await on_note(pilot, "flaky-pdf-test.md")
        await pilot.press("d")
        await settle(pilot)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_reject_dialog(snap_compare, inbox_demo):
    """Rejecting codex's proposal on the deploy freeze note: the proposal in one line (promote →
    ops/deploy-freeze-calendar.md by codex, and its reason), an optional note box, and the buttons."""

    async def run_before(pilot):
        await on_note(pilot, "deploy-freeze-calendar.md")
        await pilot.press("r")
        await settle(pilot)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_apply_preview(snap_compare, inbox_demo):
    """Applying codex's proposal, previewed: _inbox/deploy-freeze-calendar.md → ops/deploy-freeze-
    calendar.md, the line added to ops/README.md, then the frontmatter (kind ops, derived from
    deploy-runbook.md, status active, promoted_from); the buttons "Back (n)" and "Apply (y)"."""

    async def run_before(pilot):
        await on_note(pilot, "deploy-freeze-calendar.md")
        await pilot.press("a")
        await settle(pilot, rounds=3)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_bulk_apply_preview(snap_compare, inbox_demo):
    """Two proposals applied together (claude-code also proposed discarding the flaky PDF note):
    "Apply 2 proposals?", a ✓ block for the promotion with its template, index line, links and
    warnings, and a ✓ block for the discard with its reason; the button "Apply 2 (y)"."""
    propose(
        Bank.open(inbox_demo),
        action="discard",
        path="_inbox/flaky-pdf-test.md",
        client="claude-code",
        reason="A local font problem, not bank material.",
    )
    pin_inbox_times(inbox_demo)

    async def run_before(pilot):
        await on_note(pilot, "deploy-freeze-calendar.md")
        await pilot.press("A")
        await settle(pilot, rounds=3)

    assert snap_compare(app_on(inbox_demo), terminal_size=SIZE, run_before=run_before)


def test_activity_pane(snap_compare, demo_source):
    """The Activity tab (9) while the workbench hosts the MCP server: the header ends in
    "mcp :8765", the heading says "Serving MCP at http://127.0.0.1:8765/mcp · 5 calls, 1 refused",
    then the calls newest first (codex's bank_promote, cursor's bank_create and its refused
    bank_discard in red, claude-code's bank_read and bank_route) with time, client, tool, arguments
    and outcome; the newest call's details underneath."""
    server = ReplayedServer()

    async def run_before(pilot):
        await settle(pilot)
        server.replay()
        await pilot.press("escape", "9")
        await settle(pilot)

    assert snap_compare(app_on(demo_source, mcp=server), terminal_size=SIZE, run_before=run_before)
