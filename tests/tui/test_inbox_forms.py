"""The Inbox's forms take what they show: Enter on a destination whose file name is only suggested
previews that file, not the folder typed so far."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.create import create
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.fold import FoldDialog
from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.screens.workbench import WorkbenchScreen
from textual.widgets import Input, Select, TextArea

from tests.tui.conftest import SIZE, screen_text, settle, until, write_doc
from tests.tui.test_inbox import fold_form, open_inbox, preview_text, promote_form, triage_root  # noqa: F401 (a fixture)

pytestmark = pytest.mark.anyio


async def test_enter_on_a_folder_with_a_file_name_suggested_previews_that_file(triage_root):  # noqa: F811
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/parser-coverage.md")
        field = form.query_one("#promote-to", Input)
        field.value = ""
        field.focus()
        await settle(pilot)
        await pilot.press(*"engineering/")
        assert await until(pilot, lambda: field._suggestion.endswith(".md"))
        suggested = field._suggestion
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert field.value == suggested and suggested in app.screen.title_text


async def test_on_a_short_terminal_the_form_scrolls_to_its_buttons(triage_root):  # noqa: F811
    """At 60x20 the promote form is taller than the screen: its Preview button is reached by
    scrolling, not cut off below it."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(60, 20)) as pilot:
        button = (await promote_form(pilot, "_inbox/parser-coverage.md")).query_one("#preview")
        button.focus()
        await settle(pilot)
        assert any("Preview (enter)" in row for row in screen_text(app))


async def test_the_fold_forms_sections_follow_the_owner_to_a_path_with_none(triage_root):  # noqa: F811
    """Typing another owner empties the Section list when the path names no document yet, or one
    without a ## section, instead of offering the last document's sections under a path they do
    not belong to; naming a document again brings its sections back."""
    write_doc(triage_root, "engineering/bare.md", "title: Bare\npurpose: Nothing in sections.", "# Bare\n\nProse.\n")
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        section = form.query_one("#fold-section", Select)
        offered = section.value
        assert offered != Select.NULL
        into = form.query_one("#fold-into", Input)
        into.value = "engineering/bare.md"
        await settle(pilot)
        assert section.value is Select.NULL and "no ## section" in str(section.prompt)
        into.value = "engineering/"
        await settle(pilot)
        assert section.value is Select.NULL and "no ## section" not in str(section.prompt)
        into.value = "engineering/testing-policy.md"
        await settle(pilot)
        assert section.value == offered  # the section chosen before is chosen again


async def test_enter_on_an_owner_only_completed_folds_into_the_document_shown(triage_root):  # noqa: F811
    """As in the promote form, Enter on a path whose rest is only suggested takes the suggestion:
    the preview is of the document shown, with its sections, not a refusal of the prefix typed."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot, into="")
        into = form.query_one("#fold-into", Input)
        into.focus()
        await settle(pilot)
        await pilot.press(*"engineering/testing-pol")
        assert await until(pilot, lambda: into._suggestion == "engineering/testing-policy.md")
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert app.screen.title_text.startswith("Fold into engineering/testing-policy.md § ")


async def test_a_fold_shows_and_writes_the_notes_links_rewritten_for_the_owner(triage_root):  # noqa: F811
    """A link in the note reaches its document from ``_inbox/``; folded into the root README it is
    rewritten to reach it from there, in the preview and on disk, instead of pointing out of the bank."""
    bank = Bank.open(triage_root)
    body = "See [the policy](../engineering/testing-policy.md).\n"
    create(bank, path="_inbox/linked.md", title="Linked", purpose="A linked note.", body=body, inbox=True)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/linked.md")
        form = await fold_form(pilot, into="README.md")
        form.query_one("#fold-section", Select).value = "Start Here"
        await pilot.press("ctrl+s")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert "+See [the policy](engineering/testing-policy.md)." in preview_text(app.screen)
        await pilot.press("y")
        assert await until(pilot, lambda: not (triage_root / "_inbox/linked.md").exists())
    assert "See [the policy](engineering/testing-policy.md)." in (triage_root / "README.md").read_text(encoding="utf-8")


async def test_a_fold_preview_names_a_link_of_the_note_that_reaches_no_document(triage_root):  # noqa: F811
    """The diff shows the link as it will be written; that it leads nowhere is said beside it."""
    bank = Bank.open(triage_root)
    body = "See [the spec](../missing/spec.md).\n"
    create(bank, path="_inbox/linked.md", title="Linked", purpose="A linked note.", body=body, inbox=True)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/linked.md")
        form = await fold_form(pilot, into="README.md")
        form.query_one("#fold-section", Select).value = "Start Here"
        await pilot.press("ctrl+s")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        shown = preview_text(app.screen)
        assert "+See [the spec](missing/spec.md)." in shown
        assert "⚠ Link to a document that does not exist: missing/spec.md" in shown


async def test_a_fold_form_back_with_old_edits_starts_over_from_the_note_on_ctrl_r(triage_root):  # noqa: F811
    """Edits kept from a cancelled fold form (the text wiped by mistake, say) are not a dead end:
    the form says ctrl+r starts over, and it puts back the note's own text and the offered mode."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        original = form.query_one("#fold-content", TextArea).text
        form.query_one("#fold-mode", Select).value = "replace"
        form.query_one("#fold-content", TextArea).text = ""
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, WorkbenchScreen))
        await pilot.press("f")
        assert await until(pilot, lambda: isinstance(app.screen, FoldDialog))
        again = app.screen
        assert "ctrl+r starts over" in str(again.query_one(".dialog-note").render())
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert again.query_one("#fold-content", TextArea).text == original
        assert again.query_one("#fold-mode", Select).value == "append"
        assert "your edits from before" not in str(again.query_one(".dialog-note").render())


async def test_the_kind_completes_to_a_kind_the_bank_declares_first(triage_root):  # noqa: F811
    """A bank that does not declare ``epic``: ``e`` in the promote form's Kind completes to
    ``engineering``, which it declares, not to the shorter ``epic`` that would only warn."""
    governance = triage_root / "dna/governance.md"
    governance.write_text(governance.read_text(encoding="utf-8").replace("`epic`, ", ""), encoding="utf-8")
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        assert "epic" not in Bank.open(triage_root).contract.doc_kinds
        form = await promote_form(pilot, "_inbox/parser-coverage.md")
        kind = form.query_one("#promote-kind", Input)
        kind.value = ""
        kind.focus()
        await settle(pilot)
        await pilot.press("e")
        assert await until(pilot, lambda: kind._suggestion != "")
        assert kind._suggestion == "engineering"


async def test_a_fold_refused_for_its_text_names_the_forms_field(triage_root):  # noqa: F811
    """A refusal about the text to fold names the field the owner sees, not the parameter agents send."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        form = await fold_form(pilot)
        form.query_one("#fold-content", TextArea).text = "  "
        form.action_preview()
        assert await until(pilot, lambda: "empty" in str(form.query_one(".dialog-error").render()))
        shown = str(form.query_one(".dialog-error").render())
        assert "“Text to fold” is empty" in shown and "`content`" not in shown


async def test_ctrl_q_with_a_form_open_asks_before_it_quits(triage_root, monkeypatch):  # noqa: F811
    app = make_app(triage_root, poll_seconds=0)
    said: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **_: said.append(str(message)))
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        await fold_form(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, FoldDialog) and app.is_running
        assert any("ctrl+q again quits" in s for s in said)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert not app.is_running


async def test_a_form_opens_clear_of_the_last_action_s_message(triage_root):  # noqa: F811
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        app.notify("Discarded _inbox/flaky-ci.md: a slow runner")
        await settle(pilot)
        assert list(app._notifications)
        await fold_form(pilot)
        assert not list(app._notifications)
