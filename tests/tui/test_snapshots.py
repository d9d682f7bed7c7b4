"""One picture per pane at 80x24 on the demo bank, compared with the accepted SVG.

Each docstring says what the picture must show; read the report before `--snapshot-update`.
"""

from __future__ import annotations

from memorybank.core import clock
from memorybank.tui.app import make_app
from memorybank.tui.panes.route import RoutePane
from memorybank.tui.panes.search import SearchPane

from tests.tui.conftest import SIZE, settle, until


def app_on(bank):
    return make_app(bank, poll_seconds=0)


def test_route_pane(snap_compare, demo_source):
    """The header (harbor, 36 documents, 1 error, 2 warnings, inbox 4 with 1 proposal, contract ✓),
    the Route tab active, the question "how are invoices numbered" with the layer filter on all
    layers, a table whose first row is domain/invoicing-rules.md with best section Numbering, and
    under it that result's title, purpose and why (owns canonical_for: invoice_numbering)."""

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.screen.query_one(RoutePane).ask("how are invoices numbered")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_explain_dialog(snap_compare, demo_source):
    """The score breakdown of the top answer to "why postgres for jobs": the ADR's path and the
    question in the title, its why, then one row per part (canonical_for, purpose, title, best
    heading, header sum, × layer, × status, + body, + best section: "the opening, above the first
    ## heading", + links to it: the words the bank's other documents write beside their links to
    the ADR, × intent; × closed work and × words together only when they are not 1) ending in the
    score, and the Close button below it."""

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.screen.query_one(RoutePane).ask("why postgres for jobs")
        await settle(pilot)
        await pilot.press("escape", "ctrl+y")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_document_pane(snap_compare, demo_source):
    """domain/invoicing-rules.md opened at its Numbering section: the heading's first line with the
    path, kind, status, layer and line count, its second the title; the outline from its top (Whole
    document, Sections (4) each with its line range first, Derived from ↑ (1), Used by ↓ (4),
    Frontmatter) with Numbering highlighted; the Numbering section rendered as markdown on the right;
    the footer offering source, editor and graph."""

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.screen.open_document("domain/invoicing-rules.md", section="Numbering")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_document_source_at_a_line(snap_compare, demo_source):
    """ops/monitoring.md opened at line 19 (a finding's line): the heading says "at line 19", the
    Alerts section is highlighted in the outline, whose Links → group marks the alert catalogue
    broken, and the right side shows the numbered source, wrapped, with the cursor line on 19 and
    the whole broken link to ../engineering/alert-catalogue.md in view."""

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.screen.open_document("ops/monitoring.md", line=19)
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_graph_pane(snap_compare, demo_source):
    """The walk both ways from domain/invoicing-rules.md at depth 2: the direction, depth and cap
    selectors, a summary line (9 documents around it), then the tree with "↑ derives from"
    (Plans and Limits, then Product Context) and "↓ derived by" (the tax model, the architecture
    with its three dependents, the feature and the use case); the footer whole, "? Keys" included
    (+/- for the depth)."""

    async def run_before(pilot):
        await settle(pilot)
        pilot.app.screen.open_document("domain/invoicing-rules.md")
        await settle(pilot)
        await pilot.press("3", "b")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_findings_pane(snap_compare, demo_source):
    """Three findings, errors first: ✗ missing-derived-from (engineering/caching-notes.md:6), then
    ⚠ unregistered-doc and ⚠ broken-link (ops/monitoring.md:19); the filters on all severities and
    all rules; at the bottom the highlighted finding's path and line, then its rule's documentation."""

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("escape", "4")
        # The pane is made on first use and validates in a worker: on a loaded machine that takes
        # more rounds than a settle, so wait for its report, then for what it scheduled.
        assert await until(pilot, lambda: getattr(pilot.app.screen.pane("findings"), "report", None) is not None)
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_drift_pane(snap_compare, demo_source):
    """Code ahead by more than 90 days and stale after 90 days (the demo's dna/lifecycle.md); 2
    drifted, 1 missing anchor, 5 anchored documents and 35 without; 9 stale; the tax model 119 days
    behind src/billing/tax.py with its commit, the retry policy 98 days behind
    src/payments/retry.py with its commit, ops/deploy-runbook.md anchored to scripts/rollback.sh,
    which does not exist; then "Untouched while the code moved on (9)" opening with the tax model,
    132 days, 1 named and 1 beside, its reason and the named src/billing/tax.py; the footer
    "+/- Threshold ±30 days", "]/[ Stale ±30 days" and "? Keys". The clock stands at 2026-05-24."""

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)

    with clock.pinned("2026-05-24T12:00:00Z"):
        assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_search_pane(snap_compare, demo_source):
    """The query "SKIP LOCKED" and the documents whose bodies hold it, each with its line and the
    excerpt, engineering/architecture.md and the Postgres decision among them."""

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("escape", "6")
        pilot.app.screen.query_one(SearchPane).ask("SKIP LOCKED")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_changes_pane(snap_compare, demo_source):
    """Changes since HEAD~5: six documents, five added (the four inbox notes and the hand-written
    caching notes) and one modified (domain/invoicing-rules.md), each with its mark, title, layer
    and status."""

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("escape", "7")
        await settle(pilot)

    assert snap_compare(app_on(demo_source), terminal_size=SIZE, run_before=run_before)


def test_welcome_screen(snap_compare, tmp_path, monkeypatch):
    """No bank here: the welcome box explains what a memory bank is and offers "Create a bank in
    ./memory_bank (i)" and "Open the demo bank (d)"; the footer lists i, d and q."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MEMORYBANK_ROOT", raising=False)

    async def run_before(pilot):
        await settle(pilot)

    assert snap_compare(make_app(None, poll_seconds=0), terminal_size=SIZE, run_before=run_before)
