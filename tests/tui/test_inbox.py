"""The Inbox pane end to end on a clean temporary bank: every way out of the quarantine walked with
the keyboard, the files on disk checked afterwards, and the bank still validating with no finding.

Proposals are filed by an agent through the MCP server (in process) in the same test that applies
or rejects them.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from mcp import Client
from mcp_types import Implementation
from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.init import init
from memorybank.core.read import read_document
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.inbox import discard, promote
from memorybank.mcp_server.server import build_server
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.discard import DiscardDialog
from memorybank.tui.dialogs.fold import FoldDialog
from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.dialogs.promote import PromoteDialog
from memorybank.tui.dialogs.reject import RejectDialog
from memorybank.tui.panes.inbox import InboxPane
from memorybank.tui.reasons import PRESETS
from memorybank.tui.screens.workbench import WorkbenchScreen
from memorybank.tui.widgets.bank_header import BankHeader
from rich.console import Console
from textual.widgets import DataTable, Input, Select, Static, TextArea

from tests.tui.conftest import SIZE, Notes, settle, until

pytestmark = pytest.mark.anyio

NOTES = (
    (
        "flaky-ci.md",
        "claude-code",
        "CI flakes on slow runners",
        "The CI job times out on slow shared runners; nothing the bank needs to keep.",
        "Re-running the job fixes it.\n",
    ),
    (
        "parser-coverage.md",
        "cursor",
        "Parsers need round-trip tests",
        "Every parser is tested by parsing and re-serialising real files, as the required test coverage says.",
        "Round-trip tests caught two bugs in the CSV importer.\n",
    ),
    (
        "service-topology.md",
        "codex",
        "Service topology",
        "Which services exist and how they talk to each other.",
        "## Services\n\nThe API, the worker and the scheduler share one database.\n",
    ),
    (
        "onboarding.md",
        "claude-code",
        "Onboarding checklist",
        "The steps a new engineer follows in their first week.",
        "## First Day\n\nClone the repository and run the test suite.\n",
    ),
    (
        "dark-mode.md",
        "claude-code",
        "A dark mode idea",
        "Someone asked for a dark mode in the invoice viewer.",
        "Not planned.\n",
    ),
)


@pytest.fixture
def triage_root(tmp_path: Path) -> Path:
    """A freshly seeded bank (it validates clean) with five notes captured by three clients."""
    root = tmp_path / "acme" / "memory_bank"
    init(root, name="Acme")
    bank = Bank.open(root)
    for name, client, title, purpose, body in NOTES:
        create(bank, path=f"_inbox/{name}", title=title, purpose=purpose, body=body, inbox=True, client=client)
    return root


def assert_clean(root: Path) -> None:
    report = validate(Bank.open(root))
    assert report.total == 0, [f"{f.rule} {f.path}: {f.message}" for f in report.findings]


async def open_inbox(pilot, note: str) -> InboxPane:
    """Show the Inbox pane with ``note`` highlighted and read."""
    await settle(pilot)
    await pilot.press("escape")  # out of the question box, so 8 is a pane key and not a digit typed
    assert await until(pilot, lambda: pilot.app.focused is not None and not isinstance(pilot.app.focused, Input))
    await pilot.press("8")
    pane = pilot.app.screen.query_one(InboxPane)
    assert await until(pilot, lambda: bool(pane.entries))
    table = pane.query_one("#inbox-notes", DataTable)
    table.move_cursor(row=[e.path for e in pane.entries].index(note))
    assert await until(pilot, lambda: pane.view is not None and pane.view.entry.path == note)
    return pane


async def fold_form(pilot, into: str = "engineering/testing-policy.md") -> FoldDialog:
    """Open the fold form on the highlighted note, with ``into`` as the owner (its sections loaded)."""
    await pilot.press("f")
    assert await until(pilot, lambda: isinstance(pilot.app.screen, FoldDialog))
    form = pilot.app.screen
    form.query_one("#fold-into", Input).value = into
    await settle(pilot)
    return form


async def mark_also(pilot, pane: InboxPane, other: str) -> None:
    """Mark the highlighted note, then ``other``."""
    await pilot.press("space")
    pane.query_one("#inbox-notes", DataTable).move_cursor(row=[e.path for e in pane.entries].index(other))
    await pilot.press("space")


async def promote_form(pilot, note: str) -> PromoteDialog:
    """The promote form opened on ``note`` from the Inbox pane."""
    await open_inbox(pilot, note)
    await pilot.press("p")
    assert await until(pilot, lambda: isinstance(pilot.app.screen, PromoteDialog))
    return pilot.app.screen


def error_of(dialog) -> str:
    box = dialog.query_one(".dialog-error", Static)
    return str(box.render()) if box.has_class("-shown") else ""


def plain(renderable) -> str:
    """A rich renderable as plain text, wide enough that nothing wraps."""
    console = Console(width=300, color_system=None, file=io.StringIO())
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def preview_text(dialog: PreviewDialog) -> str:
    return plain(dialog.body)


def refusal(call) -> str:
    with pytest.raises(Refusal) as caught:
        call()
    return caught.value.message


async def test_promote_shows_a_refusal_verbatim_keeps_the_form_then_promotes(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/service-topology.md")
        form.query_one("#promote-to", Input).value = "engineering/testing-policy.md"
        form.query_one("#promote-kind", Input).value = "engineering"
        form.query_one("#promote-derived", Input).value = "product/context.md"
        form.query_one("#promote-to", Input).focus()
        await pilot.press("enter")
        expected = refusal(
            lambda: promote(
                Bank.open(triage_root),
                path="_inbox/service-topology.md",
                to="engineering/testing-policy.md",
                dry_run=True,
            )
        )
        assert await until(pilot, lambda: error_of(form) != "")
        assert app.screen is form and error_of(form) == expected
        assert form.query_one("#promote-derived", Input).value == "product/context.md"  # the form is kept

        form.query_one("#promote-to", Input).value = "engineering/service-topology.md"
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        preview = preview_text(app.screen)
        assert "engineering/README.md" in preview and "+ - [`Service topology`](service-topology.md)" in preview
        assert "  - ../product/context.md" in preview and "promoted_from: _inbox/service-topology.md" in preview
        await pilot.press("y")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        pane = app.screen.query_one(InboxPane)
        assert await until(pilot, lambda: "_inbox/service-topology.md" not in [e.path for e in pane.entries])
        assert app.screen.query_one(BankHeader).summary.inbox == 4

    promoted = (triage_root / "engineering/service-topology.md").read_text()
    assert promoted.startswith("---\ntitle: Service topology\ndoc_kind: engineering\n")
    assert "derived_from:\n  - ../product/context.md\n" in promoted and "status: active\n" in promoted
    assert "The API, the worker and the scheduler share one database." in promoted
    assert not (triage_root / "_inbox/service-topology.md").exists()
    assert "[`Service topology`](service-topology.md)" in (triage_root / "engineering/README.md").read_text()
    assert_clean(triage_root)


async def test_a_key_typed_in_a_filled_promote_field_adds_to_it_rather_than_wiping_it(triage_root):
    """Each field arrives filled from the note; Tab to it and a key goes at the end of what it holds."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/service-topology.md")
        await settle(pilot)
        filled = {box.id: box.value for box in form.query(Input)}
        assert filled["promote-title"] == "Service topology"
        await pilot.press("s")  # in the destination, focused first
        for _ in range(4):  # on to the title: Tab takes a completion shown, then moves on
            if form.query_one("#promote-title", Input).has_focus:
                break
            await pilot.press("tab")
        await pilot.press("s")
        assert form.query_one("#promote-to", Input).value == filled["promote-to"] + "s"
        assert form.query_one("#promote-title", Input).value == "Service topologys"


async def test_a_promote_refusal_names_the_forms_field_not_the_agents_parameter(triage_root):
    """Core refuses a missing `docKind` in the words an agent sends; the form calls the field Kind."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/service-topology.md")
        form.query_one("#promote-to", Input).value = "misc/service-topology.md"  # a folder no kind follows
        form.query_one("#promote-kind", Input).value = ""
        form.query_one("#promote-to", Input).focus()
        await pilot.press("enter")
        assert await until(pilot, lambda: error_of(form) != "")
        assert "“Kind” is required" in error_of(form) and "docKind" not in error_of(form)


async def test_enter_on_the_fold_forms_section_field_previews_as_its_hint_says(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        section = form.query_one("#fold-section", Select)
        section.value = "What Must Be Tested"
        section.focus()
        await pilot.press("enter")
        assert not section.expanded
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))


async def test_fold_appends_to_the_owner_section_then_discards_the_note_with_the_reason(triage_root):
    before = read_document(Bank.open(triage_root), "engineering/testing-policy.md", section="What Must Be Tested")
    app = make_app(triage_root, poll_seconds=0)
    notes = None
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, pytest.MonkeyPatch())
        pane = await open_inbox(pilot, "_inbox/parser-coverage.md")
        owners = dict(pane.view.owners)
        assert owners["required_test_coverage"] == ("engineering/testing-policy.md",)
        form = await fold_form(pilot)
        form.query_one("#fold-section", Select).value = "What Must Be Tested"
        form.query_one("#fold-mode", Select).value = "append"
        assert form.query_one("#fold-content", TextArea).text == "Round-trip tests caught two bugs in the CSV importer."
        form.query_one("#fold-content", TextArea).text = "Every parser gets a round-trip test on real files."
        await pilot.press("ctrl+s")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        shown = form.plan
        preview = preview_text(app.screen)
        assert "+Every parser gets a round-trip test on real files." in preview
        assert "folded into engineering/testing-policy.md#What Must Be Tested" in preview
        await pilot.press("y")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        assert await until(pilot, lambda: "_inbox/parser-coverage.md" not in [e.path for e in pane.entries])
    assert any("Folded into engineering/testing-policy.md § What Must Be Tested" in m for m, _ in notes.messages)

    after = read_document(Bank.open(triage_root), "engineering/testing-policy.md", section="What Must Be Tested")
    old_body = before.content.split("\n", 1)[1].strip()
    assert (
        after.content == f"## What Must Be Tested\n\n{old_body}\n\nEvery parser gets a round-trip test on real files."
    )
    assert after.content.split("\n", 1)[1].strip() == shown.after  # the diff showed what landed
    assert not (triage_root / "_inbox/parser-coverage.md").exists()
    assert_clean(triage_root)


async def test_discard_needs_a_reason_then_deletes_the_note(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        await pilot.press("enter")
        assert await until(pilot, lambda: error_of(dialog) != "")
        # the owner's words, not the core's parameter name
        assert error_of(dialog) == "Say why: a note is dropped on the record, or not at all."
        assert (triage_root / "_inbox/flaky-ci.md").exists()
        dialog.query_one("#discard-reason", Input).value = "a slow runner, not bank material"
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        pane = app.screen.query_one(InboxPane)
        assert await until(pilot, lambda: len(pane.entries) == 4)
        assert pane.selected is not None  # the cursor moved on to the next note
    assert not (triage_root / "_inbox/flaky-ci.md").exists()
    assert_clean(triage_root)


async def test_marked_notes_are_discarded_together_with_a_reason_completed_from_before(triage_root):
    bank = Bank.open(triage_root)
    discard(bank, path="_inbox/onboarding.md", reason="a duplicate of processes/hiring.md")
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/flaky-ci.md")
        await mark_also(pilot, pane, "_inbox/dark-mode.md")
        assert pane.marked == {"_inbox/flaky-ci.md", "_inbox/dark-mode.md"}
        await pilot.press("d")
        assert await until(pilot, lambda: isinstance(app.screen, DiscardDialog))
        assert "Discard 2 notes?" in str(app.screen.query_one(".dialog-title").render())
        await pilot.press(*"a dup", "tab")  # the reason given before completes
        assert app.screen.query_one("#discard-reason", Input).value == "a duplicate of processes/hiring.md"
        app.screen.query_one("#discard-reason", Input).value = ""
        await pilot.press(*"no lon", "tab")  # and so does a preset
        assert app.screen.query_one("#discard-reason", Input).value == "no longer true"
        app.screen.query_one("#discard-reason", Input).value = ""
        await pilot.press("tab")  # nothing typed: the reason given last, then the next choices
        assert app.screen.query_one("#discard-reason", Input).value == "a duplicate of processes/hiring.md"
        await pilot.press("tab")
        assert app.screen.query_one("#discard-reason", Input).value == PRESETS[0]
        assert app.screen.query_one("#discard-reason", Input).has_focus
        app.screen.query_one("#discard-reason", Input).value = "no longer true"
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        assert await until(pilot, lambda: len(pane.entries) == 2)
        assert not pane.marked
    assert not (triage_root / "_inbox/flaky-ci.md").exists() and not (triage_root / "_inbox/dark-mode.md").exists()
    record = (triage_root / "_inbox/.record.jsonl").read_text()
    assert record.count('"reason": "no longer true"') == 2
    assert_clean(triage_root)


async def file_proposals(root: Path) -> None:
    """An agent (codex) proposes through the MCP server: a promotion and a discard."""
    async with Client(build_server(root), client_info=Implementation(name="codex", version="1")) as client:
        promoted = await client.call_tool(
            "bank_promote",
            {
                "path": "_inbox/onboarding.md",
                "to": "processes/onboarding.md",
                "docKind": "process",
                "derivedFrom": ["../product/context.md"],
            },
        )
        assert not promoted.is_error, promoted.content
        dropped = await client.call_tool(
            "bank_discard", {"path": "_inbox/dark-mode.md", "reason": "not planned; nothing to keep"}
        )
        assert not dropped.is_error, dropped.content


async def test_a_sentence_typed_into_the_inbox_never_applies_a_proposal(triage_root):
    await file_proposals(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/onboarding.md")
        # a opens the preview; its y meets stray typing; its n does not close the dialog, which would
        # hand "e this" to the pane (e opens the note in $EDITOR) and Enter after it
        await pilot.press(*"already done this", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PreviewDialog)
        await pilot.press("escape")
        assert await until(pilot, lambda: not isinstance(app.screen, PreviewDialog))
    assert not (triage_root / "processes/onboarding.md").exists()
    assert "proposal:" in (triage_root / "_inbox/onboarding.md").read_text()


async def test_apply_and_reject_proposals_an_agent_filed_through_mcp(triage_root):
    await file_proposals(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/onboarding.md")
        assert pane.view.entry.proposal["proposed_by"] == "codex"
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        preview = preview_text(app.screen)
        assert "processes/README.md" in preview and "+ - [Onboarding checklist](onboarding.md)" in preview
        assert not (triage_root / "processes/onboarding.md").exists()  # nothing written before y
        await pilot.press("y")
        assert await until(
            pilot,
            lambda: (
                isinstance(app.screen, WorkbenchScreen) and "_inbox/onboarding.md" not in [e.path for e in pane.entries]
            ),
        )

        table = pane.query_one("#inbox-notes", DataTable)
        table.move_cursor(row=[e.path for e in pane.entries].index("_inbox/dark-mode.md"))
        assert await until(pilot, lambda: pane.view is not None and pane.view.entry.path == "_inbox/dark-mode.md")
        await pilot.press("r")
        assert await until(pilot, lambda: isinstance(app.screen, RejectDialog))
        app.screen.query_one("#reject-note", Input).value = "keep it; we may plan it"
        await pilot.press("enter")
        assert await until(
            pilot,
            lambda: (
                isinstance(app.screen, WorkbenchScreen)
                and not next(e for e in pane.entries if e.path == "_inbox/dark-mode.md").proposal
            ),
        )

    assert "promoted_from: _inbox/onboarding.md" in (triage_root / "processes/onboarding.md").read_text()
    assert not (triage_root / "_inbox/onboarding.md").exists()
    note = Bank.open(triage_root).document("_inbox/dark-mode.md")
    assert "proposal" not in note.frontmatter and note.frontmatter["review_note"] == "keep it; we may plan it"
    assert_clean(triage_root)


async def test_marked_proposals_are_applied_together_after_one_combined_preview(triage_root):
    await file_proposals(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/onboarding.md")
        await mark_also(pilot, pane, "_inbox/dark-mode.md")
        assert pane.marked == {"_inbox/onboarding.md", "_inbox/dark-mode.md"}
        await pilot.press("A")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert app.screen.title_text == "Apply 2 proposals?"
        preview = preview_text(app.screen)
        assert "✓ _inbox/onboarding.md  →  processes/onboarding.md" in preview
        assert "✓ _inbox/dark-mode.md  to be discarded" in preview and "not planned; nothing to keep" in preview
        await pilot.press("y")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen) and len(pane.entries) == 3)
        assert not pane.marked
    assert (triage_root / "processes/onboarding.md").exists()
    assert not (triage_root / "_inbox/onboarding.md").exists() and not (triage_root / "_inbox/dark-mode.md").exists()
    assert_clean(triage_root)


async def test_actions_on_a_note_without_a_proposal_say_what_to_do_instead(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, pytest.MonkeyPatch())
        pane = await open_inbox(pilot, "_inbox/flaky-ci.md")
        await pilot.press("a", "r", "space", "A")
        assert isinstance(app.screen, WorkbenchScreen) and pane.marked == {"_inbox/flaky-ci.md"}
        said = [m for m, severity in notes.messages if severity == "warning"]
        assert said[0] == "_inbox/flaky-ci.md carries no proposal. p promotes it, f folds it, d discards it."
        assert said[2] == "No marked note carries a proposal."


async def test_the_pane_counts_notes_and_stale_ones_and_shows_where_a_note_belongs(triage_root, monkeypatch):
    for path in (triage_root / "_inbox").glob("*.md"):
        text = path.read_text()
        stamp = "2026-05-01T09:00:00Z" if path.name == "flaky-ci.md" else "2026-05-20T09:00:00Z"
        path.write_text(
            "\n".join(
                f"captured_at: '{stamp}'" if line.startswith("captured_at:") else line for line in text.split("\n")
            )
        )
    app = make_app(triage_root, poll_seconds=0)
    with clock.pinned("2026-05-24T12:00:00Z"):
        async with app.run_test(size=SIZE) as pilot:
            pane = await open_inbox(pilot, "_inbox/flaky-ci.md")
            assert pane.entries[0].path == "_inbox/flaky-ci.md" and pane.entries[0].stale  # oldest first
            summary = str(pane.query_one("#inbox-summary", Static).render())
            assert summary.startswith("5 notes · 1 stale (over 14 days) · no proposals")
            table = pane.query_one("#inbox-notes", DataTable)
            assert [str(c) for c in table.get_row_at(0)[1:3]] == ["23d", "claude-code"]
            table.move_cursor(row=[e.path for e in pane.entries].index("_inbox/parser-coverage.md"))
            assert await until(pilot, lambda: pane.view.entry.path == "_inbox/parser-coverage.md")
            assert pane.view.candidates[0].path == "engineering/testing-policy.md"
            belongs = plain(pane.query_one("#inbox-belongs", Static).content)
            assert "1 engineering/testing-policy.md" in belongs and "owns required_test_coverage" in belongs
            await pilot.press("o")
            await settle(pilot)
            assert app.screen.query_one("#panes").active == "document"


async def test_an_action_before_the_notes_are_listed_says_so_instead_of_calling_the_inbox_empty(
    triage_root, monkeypatch
):
    """A key pressed as the pane opens (typed ahead at launch, say) meets a list not read yet."""
    monkeypatch.setattr(InboxPane, "reload", lambda pane: None)  # the listing never comes back
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notes = Notes(app, pytest.MonkeyPatch())
        app.screen.show_pane("inbox")
        pane = app.screen.pane("inbox")
        assert await until(pilot, lambda: pane.composed)
        pane._ready()
        assert notes.messages == [("Still listing the notes; try again in a moment.", "warning")]


async def test_a_proposal_that_no_longer_passes_its_gates_is_refused_verbatim_alone_or_in_a_batch(triage_root):
    await file_proposals(triage_root)
    create(
        Bank.open(triage_root),
        path="processes/onboarding.md",
        title="Onboarding",
        purpose="Someone wrote it first.",
        doc_kind="process",
        derived_from=["../product/context.md"],
    )
    expected = refusal(
        lambda: promote(Bank.open(triage_root), path="_inbox/onboarding.md", to="processes/onboarding.md", dry_run=True)
    )
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, pytest.MonkeyPatch())
        pane = await open_inbox(pilot, "_inbox/onboarding.md")
        await pilot.press("a")
        assert await until(pilot, lambda: expected in notes.errors())
        assert isinstance(app.screen, WorkbenchScreen)  # no preview of a write that cannot happen

        await pilot.press("A")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert app.screen.title_text == "Apply 1 proposal? (1 refused today, left in the inbox)"
        preview = preview_text(app.screen)
        assert f"✗ _inbox/onboarding.md  refused, left as it is\n  {expected}" in preview
        await pilot.press("y")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen) and len(pane.entries) == 4)
    assert (triage_root / "_inbox/onboarding.md").exists() and not (triage_root / "_inbox/dark-mode.md").exists()


async def test_a_fold_confirmed_after_another_process_edited_the_owner_is_refused_and_keeps_that_edit(triage_root):
    owner = triage_root / "engineering/testing-policy.md"
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        form.query_one("#fold-section", Select).value = "What Must Be Tested"
        form.query_one("#fold-mode", Select).value = "replace"
        await pilot.press("ctrl+s")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        outside = "A line another process added after the preview."
        owner.write_text(owner.read_text(encoding="utf-8") + f"\n{outside}\n", encoding="utf-8")
        await pilot.press("y")
        refusal = lambda: str(form.query_one(".dialog-error").render())  # noqa: E731
        assert await until(pilot, lambda: "changed since the preview" in refusal())
        assert app.screen is form  # back on the form as typed; Enter previews again
        assert "_inbox/parser-coverage.md" in [e.path for e in pane.entries]
    assert outside in owner.read_text(encoding="utf-8")
    assert (triage_root / "_inbox/parser-coverage.md").exists()


async def test_marks_stay_when_the_inbox_changes_on_disk(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/flaky-ci.md")
        await mark_also(pilot, pane, "_inbox/dark-mode.md")
        assert pane.marked == {"_inbox/flaky-ci.md", "_inbox/dark-mode.md"}  # neither carries a proposal
        create(Bank.open(triage_root), path="_inbox/new.md", title="A new note", purpose="Captured.", inbox=True)
        app.recheck()  # an agent captured a note meanwhile
        assert await until(pilot, lambda: "_inbox/new.md" in [e.path for e in pane.entries])
        assert pane.marked == {"_inbox/flaky-ci.md", "_inbox/dark-mode.md"}


async def test_a_fold_form_cancelled_after_edits_comes_back_with_them(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        form.query_one("#fold-mode", Select).value = "replace"
        form.query_one("#fold-content", TextArea).text = "A long, careful paragraph the owner wrote."
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        await pilot.press("f")
        assert await until(pilot, lambda: isinstance(app.screen, FoldDialog))
        again = app.screen
        assert again.query_one("#fold-content", TextArea).text == "A long, careful paragraph the owner wrote."
        assert again.query_one("#fold-into", Input).value == "engineering/testing-policy.md"
        assert again.query_one("#fold-mode", Select).value == "replace"
        assert "your edits from before" in str(again.query_one(".dialog-note").render())


async def discard_dialog(pilot, note: str) -> DiscardDialog:
    """The discard dialog opened on ``note`` from the Inbox pane."""
    await open_inbox(pilot, note)
    await pilot.press("d")
    assert await until(pilot, lambda: isinstance(pilot.app.screen, DiscardDialog))
    return pilot.app.screen


async def test_a_note_rewritten_on_disk_while_the_discard_dialog_asks_is_kept_until_enter_again(triage_root):
    note = triage_root / "_inbox/flaky-ci.md"
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        rewritten = note.read_text(encoding="utf-8") + "\nAn agent added the real cause: a leaked fixture.\n"
        note.write_text(rewritten, encoding="utf-8")
        dialog.query_one("#discard-reason", Input).value = "a slow runner, not bank material"
        await pilot.press("enter")
        assert await until(pilot, lambda: "changed on disk while this dialog asked" in error_of(dialog))
        assert app.screen is dialog and "Enter discards it as it now stands" in error_of(dialog)
        assert note.read_text(encoding="utf-8") == rewritten
        await pilot.press("enter")  # the owner has read that it changed: the note as it stands goes
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
    assert not note.exists()
    assert "a slow runner, not bank material" in (triage_root / "_inbox/.record.jsonl").read_text(encoding="utf-8")


async def test_a_note_that_left_the_inbox_while_the_discard_dialog_asks_is_said_to_be_gone(triage_root):
    note = triage_root / "_inbox/flaky-ci.md"
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        note.unlink()  # promoted or discarded from the shell meanwhile
        dialog.query_one("#discard-reason", Input).value = "stale"
        await pilot.press("enter")
        assert await until(pilot, lambda: "left the inbox while this dialog asked" in error_of(dialog))
        assert "Enter discards" not in error_of(dialog)


async def test_the_discard_dialog_drops_its_missing_reason_complaint_once_a_reason_is_typed(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        await pilot.press("enter")
        assert await until(pilot, lambda: "Say why" in error_of(dialog))
        await pilot.press(*"slow runner")
        await settle(pilot)
        assert error_of(dialog) == ""


async def test_a_reason_typed_then_kept_with_esc_is_offered_again(triage_root):
    """Promote and fold keep the owner's edits after Esc; the discard reason was lost."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await discard_dialog(pilot, "_inbox/flaky-ci.md")
        await pilot.press(*"slow runner")
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        again = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        assert again.query_one("#discard-reason", Input).value == "slow runner"
    assert (triage_root / "_inbox/flaky-ci.md").exists()


async def test_the_discard_dialog_says_a_note_too_large_to_keep_is_deleted_for_good(triage_root):
    note = triage_root / "_inbox/flaky-ci.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n" + "log line of the failing run\n" * 12_000, "utf-8")
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await discard_dialog(pilot, "_inbox/flaky-ci.md")
        said = str(dialog.query_one(".dialog-note", Static).render())
        assert "deleted, for good: at 328 KB it is over the 256 KB the record keeps" in said
        assert "inbox restore" not in said


async def test_a_cancelled_promote_form_keeps_its_edits_until_ctrl_r_starts_over(triage_root):
    """As the fold form does: Esc is no way to lose a carefully written title."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/service-topology.md")
        await settle(pilot)
        form.query_one("#promote-title", Input).value = "Service topology, as deployed in May"
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        await pilot.press("p")
        assert await until(pilot, lambda: isinstance(app.screen, PromoteDialog))
        form = app.screen
        await settle(pilot)
        assert form.query_one("#promote-title", Input).value == "Service topology, as deployed in May"
        assert "your edits from before" in str(form.query_one(".dialog-note", Static).render())
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert form.query_one("#promote-title", Input).value == "Service topology"
        assert "your edits from before" not in str(form.query_one(".dialog-note", Static).render())


async def test_the_fold_form_offers_the_first_candidate_with_a_section_to_fold_into(triage_root):
    bank = Bank.open(triage_root)
    create(
        bank,
        path="engineering/service-topology.md",
        doc_kind="engineering",
        title="Service topology",
        purpose="Which services exist and how they talk to each other.",
        body="# Service topology\n\nThe API, the worker and the scheduler share one database.\n",
        derived_from=["../product/context.md"],
        status="active",
    )
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/service-topology.md")
        bare = [h.path for h in pane.view.candidates if not h.path.endswith("README.md")]
        assert bare[0] == "engineering/service-topology.md"  # the router's first, with no ## section
        await pilot.press("f")
        assert await until(pilot, lambda: isinstance(app.screen, FoldDialog))
        offered = app.screen.query_one("#fold-into", Input).value
        assert offered and offered != bare[0] and app.screen.query_one("#fold-section", Select).value != Select.NULL


def test_the_promote_form_suggests_a_current_upstream_not_an_archived_one_nor_an_index(triage_root):
    """The router's first candidate chooses the folder; derived_from rests on the first candidate that
    is current: an archived plan or a folder's index would be a weak, or refused, upstream."""
    from dataclasses import replace

    from memorybank.core.write.inbox import list_inbox
    from memorybank.tui.triage import note_view, suggested_promotion

    bank = Bank.open(triage_root)
    entry = next(e for e in list_inbox(bank) if e.path == "_inbox/service-topology.md")
    view = note_view(bank, entry)
    hit = view.candidates[0]
    archived = replace(hit, path="engineering/old-plan.md", status="archived")
    index = replace(hit, path="engineering/README.md", status="active")
    current = replace(hit, path="engineering/testing-policy.md", status="active")
    suggested = suggested_promotion(replace(view, candidates=(archived, index, current)))
    assert suggested.to == "engineering/service-topology.md"
    assert suggested.derived_from == ("engineering/testing-policy.md",)
    assert suggested_promotion(replace(view, candidates=(archived, index))).derived_from == ()


async def test_home_end_and_g_go_to_the_first_and_the_last_note(triage_root):
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_inbox(pilot, "_inbox/flaky-ci.md")
        table = pane.query_one("#inbox-notes", DataTable)
        table.focus()
        await pilot.press("end")
        assert table.cursor_row == len(pane.entries) - 1
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == len(pane.entries) - 1


async def test_the_fold_forms_hint_says_what_enter_does_where_the_focus_is(triage_root):
    """In the text, Enter starts a new line: the hint says ctrl+s previews there, not Enter."""
    from memorybank.tui.dialogs.fold import HINT, TEXT_HINT

    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        hint = form.query_one(".dialog-hint", Static)
        form.query_one("#fold-content", TextArea).focus()
        assert await until(pilot, lambda: str(hint.render()) == TEXT_HINT)
        form.query_one("#fold-into", Input).focus()
        assert await until(pilot, lambda: str(hint.render()) == HINT)


async def test_a_letter_typed_in_the_fold_forms_section_list_finds_the_section(triage_root):
    """The list is open on the owner's sections; typing "simp" highlights "Simplify Review", as a
    letter does in every list of the workbench."""
    from textual.widgets._select import SelectOverlay

    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        form.query_one("#fold-section", Select).focus()
        await pilot.press("space")
        overlay = form.query_one(SelectOverlay)
        assert await until(pilot, lambda: overlay.has_focus)
        await pilot.press("s", "i", "m", "p")
        assert await until(pilot, lambda: overlay.highlighted is not None)
        assert str(overlay.get_option_at_index(overlay.highlighted).prompt) == "Simplify Review"
