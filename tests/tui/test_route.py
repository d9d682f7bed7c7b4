"""The Route pane: results as you type, the highlighted result explained, a result opened at its
section, the expected answer pinned through the gates."""

from __future__ import annotations

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.confirm import ConfirmDialog
from memorybank.tui.dialogs.explain import ExplainDialog
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.panes.route import RoutePane
from textual import events

from tests.tui.conftest import SIZE, Notes, settle, write_doc

pytestmark = pytest.mark.anyio


async def test_typing_a_question_shows_ranked_results_with_the_why(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"numbering")
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        assert route.result is not None and route.result.question == "numbering"
        top = route.result.hits[0]
        assert top.path == "domain/invoicing-rules.md" and top.section == "Numbering"
        assert route.query_one("#route-results").row_count == len(route.result.hits)
        assert "owns canonical_for: invoice_numbering" in str(route.query_one("#route-detail").render())


async def test_a_slip_read_as_the_banks_word_is_said_beside_the_result(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"numbreing")
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        assert route.result is not None and route.result.hits[0].path == "domain/invoicing-rules.md"
        detail = " ".join(str(route.query_one("#route-detail").render()).split())
        assert 'Read "numbreing" as "numbering".' in detail


async def test_choosing_a_result_opens_its_document_at_the_best_section(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#route-question").value = "payment retries jitter"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        document = app.screen.query_one(DocumentPane)
        assert app.screen.query_one("#panes").active == "document"
        assert document.opened is not None and document.opened.doc.path == "engineering/payment-retries.md"
        assert document.section is not None and document.section.title == "Backoff and Jitter"


@pytest.mark.parametrize("enters", [1, 2])
async def test_enter_enter_read_at_once_opens_the_first_result_one_enter_moves_to_them(demo_source, enters):
    """A terminal delivers Enter Enter typed fast in one read: the second reaches the question box
    before the first has moved the focus to the results, and opens the highlighted result as a
    second Enter on the results would. One Enter only moves to the results."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        route.ask("payment retries jitter")
        await settle(pilot)
        route.action_ask()
        await settle(pilot)
        for _ in range(enters):  # posted at once, as a burst reaches the app
            app.post_message(events.Key("enter", "\r"))
        await settle(pilot, rounds=4)
        if enters == 1:
            assert app.screen.query_one("#panes").active == "route"
            assert app.screen.query_one("#route-results").has_focus
            return
        document = app.screen.query_one(DocumentPane)
        assert app.screen.query_one("#panes").active == "document"
        assert document.opened is not None and document.opened.doc.path == "engineering/payment-retries.md"


async def test_the_layer_filter_goes_to_the_router(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        route.query_one("#route-layer").value = "decision"
        route.ask("invoices")
        await settle(pilot)
        assert route.result.hits and {h.layer for h in route.result.hits} == {"decision"}
        # The chosen layer is the router's, never the pane's CSS layer: Textual lays widgets out by
        # ``Widget.layer``, and a pane answering "decision" there would be arranged in another layer.
        assert route.layer == "default"


async def test_explain_shows_the_score_breakdown(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#route-question").value = "why postgres for jobs"
        await pilot.press("enter", "ctrl+y")
        await settle(pilot)
        assert isinstance(app.screen, ExplainDialog)
        assert app.screen.hit.path == "adr/ADR-20260105T100000Z-postgres-job-queue.md"
        await pilot.press("escape")
        assert not isinstance(app.screen, ExplainDialog)


async def test_pinning_previews_confirms_and_writes_through_the_gates(demo_bank, monkeypatch):
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        app.screen.query_one("#route-question").value = "how are credit notes numbered"
        await pilot.press("enter", "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert "Creates dna/route-checks.md" in app.screen.body
        await pilot.press("y")
        await settle(pilot)
        assert not notes.errors()
        pane = app.screen.query_one(RoutePane)
        pane.ask("How are credit  notes numbered")  # case and spacing aside, the same question
        await settle(pilot, rounds=3)
        table = pane.query_one("#route-results")
        assert str(table.get_row_at(0)[0]).startswith("★") and not str(table.get_row_at(1)[0]).startswith("★")
        assert "★ pinned as this question's answer (dna/route-checks.md); it ranks #1" in str(
            pane.query_one("#route-detail").render()
        )
    text = (demo_bank / "dna" / "route-checks.md").read_text()
    assert "| how are credit notes numbered | `domain/invoicing-rules.md` |" in text
    assert "route-checks.md" in (demo_bank / "dna" / "README.md").read_text()


async def test_cancelling_a_pin_writes_nothing(demo_bank):
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#route-question").value = "deploy rollback"
        await pilot.press("enter", "ctrl+s")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
    assert not (demo_bank / "dna" / "route-checks.md").exists()


async def test_every_letter_typed_into_the_results_goes_on_the_question(demo_bank):
    """ "pdf" and "xml" typed where the results have focus: p and x were the pin and explain keys and
    vanished from the question; now every letter lands, and ctrl+s pins from the box itself."""
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#route-question")
        box.value = "invoice export"
        await pilot.press("enter", "space", "p", "d", "f", "space", "x", "m", "l")
        await settle(pilot)
        assert box.value == "invoice export pdf xml" and not isinstance(app.screen, ConfirmDialog)
        box.value = "how are credit notes numbered"
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
    assert "| how are credit notes numbered |" in (demo_bank / "dna" / "route-checks.md").read_text()


async def test_alt_and_a_digit_switches_panes_even_from_the_question_box(demo_source):
    """Terminals without the kitty protocol (tmux) send ESC+digit, which Textual reads as the macOS
    option characters: alt+3 arrives as ``pound_sign``. It must switch panes, not type ``£``."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"deploy")
        for key, pane in (("pound_sign", "graph"), ("cent_sign", "findings"), ("inverted_exclamation_mark", "route")):
            await pilot.press(key)
            assert app.screen.query_one("#panes").active == pane
        assert app.screen.query_one("#route-question").value == "deploy"


async def test_coming_back_to_route_with_1_keeps_the_question_and_digits_still_switch(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"deploy", "enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "document"
        await pilot.press("1")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "route"
        await pilot.press("3")
        assert app.screen.query_one("#panes").active == "graph"
        assert app.screen.query_one("#route-question").value == "deploy"


async def test_text_typed_right_after_ctrl_u_is_kept(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"deploy plan")
        box = app.screen.query_one("#route-question")
        for key in ("ctrl+u", "r", "e", "l"):  # queued at once, as a terminal delivers a fast typist's keys
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settle(pilot)
        assert box.value == "rel"
        box.cursor_position = 1  # the caret after the r; then End, clear to its left and type, at once
        for key in ("end", "ctrl+u", "z"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settle(pilot)
        assert box.value == "z"


async def test_coming_back_to_route_returns_to_the_question_box_it_was_left_in(demo_source):
    """Typing a question, leaving for another pane and coming back (or asking for Route while on it)
    leaves the caret in the question: the next letters are the question's, never the results' keys
    (``p`` opened the Pin dialog, and a ``y`` typed next would have written to the bank)."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#route-question")
        await pilot.press(*"how are failed")
        await settle(pilot)
        await pilot.press("alt+1")  # already on Route: nothing moves
        await pilot.press("alt+6")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "search"
        await pilot.press("alt+1")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "route" and box.has_focus
        await pilot.press(*" card payments")
        await settle(pilot)
        assert box.value == "how are failed card payments"
        assert not app.screen_stack[-1].query("ConfirmDialog")  # no Pin dialog was opened


async def test_a_letter_typed_in_the_results_goes_on_the_question_and_bound_keys_keep_working(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#route-question")
        await pilot.press(*"deploy", "enter")  # Enter moves to the results
        await settle(pilot)
        assert app.screen.query_one("#route-results").has_focus
        await pilot.press(*" runbook")
        await settle(pilot)
        assert box.has_focus and box.value == "deploy runbook"
        await pilot.press("down")
        await settle(pilot)
        await pilot.press("3")  # a bound key from the results still switches panes
        assert app.screen.query_one("#panes").active == "graph"


async def test_backspace_in_the_results_edits_the_question_and_search_results_take_letters_too(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"deploys", "enter")
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        assert app.screen.query_one("#route-question").value == "deploy"
        await pilot.press("alt+6")
        await settle(pilot)
        query = app.screen.query_one("#search-query")
        query.focus()
        await pilot.press(*"SKIP", "enter")  # Enter moves to the results
        await settle(pilot)
        assert app.screen.query_one("#search-results").has_focus
        await pilot.press(*" LOCKED")
        await settle(pilot)
        assert query.has_focus and query.value == "SKIP LOCKED"


async def test_on_the_layer_filter_esc_goes_to_the_results_and_letters_go_on_the_question(demo_source):
    from memorybank.tui.widgets.chooser import Chooser

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        route.ask("invoice")
        await settle(pilot)
        layer = route.query_one("#route-layer", Chooser)
        layer.focus()
        await pilot.press("s")  # typed, as in the results: the question goes on
        await settle(pilot)
        assert route.question == "invoices" and route.query_one("#route-question").has_focus
        layer.focus()
        await pilot.press("escape")  # out of the boxes, so a digit next switches panes
        assert route.query_one("#route-results").has_focus
        await pilot.press("2")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "document"


async def test_the_hint_under_the_results_says_what_esc_does_from_the_question_and_from_the_results(demo_source):
    """The hint read "Esc leaves the box" while, in the results, Esc goes back to the question."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        question, results = route.query_one("#route-question"), route.query_one("#route-results")
        hint = " ".join(str(route.query_one("#route-detail").render()).split())
        assert "Esc goes from the question to the results and back" in hint and "leaves the box" not in hint
        assert "in the results, 1-9 switch panes" in hint
        assert question.has_focus
        await pilot.press("escape")
        assert results.has_focus
        await pilot.press("escape")  # from the results: back to the question, as the hint says
        assert question.has_focus


async def test_a_hit_that_folds_copies_of_its_file_names_them_under_the_table(demo_bank):
    front = "title: Blob storage spec\ndoc_kind: engineering\nstatus: draft\npurpose: How blobs are stored in S3."
    for path in ("engineering/blob-spec.md", "engineering/iterations/blob-spec-v2.md"):
        write_doc(demo_bank, path, front, "# Blob storage spec\n\nBlobs go to S3 under a content hash key.\n")
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        route.ask("blob storage spec")
        await settle(pilot)
        paths = [hit.path for hit in route.result.hits]
        assert sum(p in ("engineering/blob-spec.md", "engineering/iterations/blob-spec-v2.md") for p in paths) == 1
        other = route.result.hits[0].copies[0]
        assert f"same file  {other}" in str(route.query_one("#route-detail").render())


def test_explain_names_the_opening_when_the_best_section_is_above_any_heading(tmp_path):
    """A document whose answer sits above its first ## heading: its section points are said to come
    from the opening, not left beside an empty name."""
    import io

    from memorybank.core.bank import Bank
    from memorybank.core.route import route
    from memorybank.tui.dialogs.explain import breakdown_table
    from rich.console import Console

    from tests.tui.conftest import write_doc

    write_doc(tmp_path, "README.md", "title: Bank", "# Bank\n\n- [Queue](queue.md)\n")
    body = "# Job Queue\n\nWe chose sidekiq over resque: threads need far less memory.\n\n## Retries\n\nThree.\n"
    write_doc(tmp_path, "queue.md", "title: Job Queue\npurpose: How background work runs.", body)
    hit = route(Bank.open(tmp_path), "why sidekiq instead of resque").hits[0]
    assert hit.section is None and hit.breakdown.section > 0
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(breakdown_table(hit))
    row = next(line for line in console.export_text().splitlines() if "+ best section" in line)
    assert "the opening, above the first ## heading" in row


def test_explain_names_a_best_heading_only_when_a_heading_matched(tmp_path):
    """The section to read (the body's best) is not the heading that scored: a heading row naming
    it beside 0.00 points would claim a match that did not happen."""
    import io

    from memorybank.core.bank import Bank
    from memorybank.core.route import route
    from memorybank.tui.dialogs.explain import breakdown_table
    from rich.console import Console

    from tests.tui.conftest import write_doc

    write_doc(tmp_path, "README.md", "title: Bank", "# Bank\n\n- [Queue](queue.md)\n")
    body = (
        "# Job Queue\n\n## Context\n\nWe chose sidekiq over resque: threads need less memory.\n\n## Retries\n\nThree.\n"
    )
    write_doc(tmp_path, "queue.md", "title: Job Queue\npurpose: How background work runs.", body)
    hit = route(Bank.open(tmp_path), "why sidekiq instead of resque").hits[0]
    assert hit.section == "Context" and hit.breakdown.heading == 0
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(breakdown_table(hit))
    rows = console.export_text().splitlines()
    assert "Context" not in next(line for line in rows if "best heading" in line)
    assert "Context" in next(line for line in rows if "+ best section" in line)


def test_explain_shows_a_drafts_damping_and_its_working_copy(tmp_path):
    import io

    from memorybank.core.route import route
    from memorybank.tui.dialogs.explain import breakdown_table
    from rich.console import Console

    from tests.core.test_route_copies import _drafted

    hits = route(_drafted(tmp_path), "which component fetches messages from Telegram channels").hits
    draft = next(hit for hit in hits if hit.breakdown.draft_of)
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(breakdown_table(draft))
    row = next(line for line in console.export_text().splitlines() if "× draft" in line)
    assert "0.50" in row and "a draft of issues/0006-adapter/brief.md" in row


def test_explain_shows_the_member_of_a_series_a_question_asked_for(tmp_path):
    import io

    from memorybank.core.route import route
    from memorybank.tui.dialogs.explain import breakdown_table
    from rich.console import Console

    from tests.core.test_route_series import _review_bank

    for question, said in (
        ("the second review of the checkpoint plan", "the question asks for number 2 of its series"),
        ("the last review of the checkpoint plan", "the question asks for the last, number 3, of its series"),
    ):
        hit = route(_review_bank(tmp_path / question.split()[1]), question).hits[0]
        console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
        console.print(breakdown_table(hit))
        row = next(line for line in console.export_text().splitlines() if "series' best" in line)
        assert "× 1.50" in row and said in row


def spy_on_routes(monkeypatch) -> list[tuple[str, bool]]:
    """Each question the pane routes from now on, with whether it was routed on the event loop
    (True) or in a worker."""
    import threading

    from memorybank.tui.panes import route as route_pane

    asked: list[tuple[str, bool]] = []
    real = route_pane.timed

    def timed(bank, question, layer):
        asked.append((question, threading.current_thread() is threading.main_thread()))
        return real(bank, question, layer)

    monkeypatch.setattr(route_pane, "timed", timed)
    return asked


async def type_bursts(app, pilot, *bursts: str) -> None:
    """Type each burst's keys at once (posted together, as a terminal delivers a fast typist's)."""
    for burst in bursts:
        for char in burst:
            app.post_message(events.Key("space" if char == " " else char, char))
        await settle(pilot, rounds=3)


async def test_a_router_that_answers_fast_answers_the_next_keys_on_the_event_loop_a_burst_once(
    demo_source, monkeypatch
):
    """The first question goes to a worker (the router may still build its indexes); once it has
    answered fast, each key is routed as it is typed, and a burst read at once is routed once."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        asked = spy_on_routes(monkeypatch)
        await type_bursts(app, pilot, "i", "n", "voice num")
        assert asked == [("i", False), ("in", True), ("invoice num", True)]
        route = app.screen.query_one(RoutePane)
        assert route.result.question == "invoice num" and route.result.hits


async def test_a_slow_router_answers_in_a_worker_and_so_does_the_first_question_after_a_change(demo_bank, monkeypatch):
    from memorybank.tui.panes import route as route_pane

    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        asked = spy_on_routes(monkeypatch)
        await type_bursts(app, pilot, "d", "e")
        assert asked == [("d", False), ("de", True)]
        write_doc(
            demo_bank,
            "ops/zz-deploy-notes.md",
            "title: Deploy notes\ndoc_kind: ops\nstatus: draft\npurpose: Rollbacks.",
            "",
        )
        app.recheck()  # another process wrote a document: the question is routed again, in a worker
        await settle(pilot, rounds=3)
        await type_bursts(app, pilot, "p", "l")
        assert asked[2:] == [("de", False), ("dep", True), ("depl", True)]
        monkeypatch.setattr(route_pane, "INLINE_SECONDS", 0.0)  # every answer now counts as slow
        await type_bursts(app, pilot, "o", "y")
        assert asked[5:] == [("deplo", True), ("deploy", False)]  # the answer to deplo was slow


async def _on_the_results(app, pilot) -> RoutePane:
    """The Route pane once "deploy" was asked, its results focused."""
    await settle(pilot)
    await pilot.press(*"deploy", "enter")
    await settle(pilot)
    route = app.screen.query_one(RoutePane)
    assert route.query_one("#route-results").has_focus
    return route


@pytest.mark.parametrize("at_once", [False, True])
async def test_ctrl_u_and_a_new_question_typed_on_the_results_replace_the_question(demo_source, at_once):
    """Back on the results, ctrl+u clears the question and what follows is the new one, typed key by
    key or in one burst (then x of "tax" is a letter, not Explain, and ctrl+u does not reach the
    box after the letters and clear them)."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        route = await _on_the_results(app, pilot)
        keys = [("ctrl+u", None)] + [("space" if c == " " else c, c) for c in "tax model"]
        for key, char in keys:
            if at_once:
                app.post_message(events.Key(key, char))
            else:
                await pilot.press(key)
        await settle(pilot, rounds=3)
        assert route.question == "tax model" and route.query_one("#route-question").has_focus
        assert not isinstance(app.screen, ExplainDialog)


async def test_ctrl_a_then_ctrl_k_on_the_results_clears_the_question_as_in_the_box(demo_source):
    """The box's line keys work from the results as its deleting keys do: ctrl+a goes to the
    question's start and ctrl+k deletes to its end, so what follows is the new question (before,
    ctrl+a was dropped and ctrl+k deleted nothing at the end of the line)."""
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        route = await _on_the_results(app, pilot)
        await pilot.press("ctrl+a", "ctrl+k", *"tax")
        await settle(pilot, rounds=3)
        assert route.question == "tax" and route.query_one("#route-question").has_focus
        await pilot.press("ctrl+e", "s")  # ctrl+e goes to the end, in the box as from the results
        assert route.question == "taxs"


def test_explain_shows_links_and_words_together_and_its_parts_make_the_score(tmp_path):
    """Every part that moved the score has its row, and the parts combine into the score shown."""
    import io

    from memorybank.core.route import route
    from memorybank.tui.dialogs.explain import breakdown_table
    from rich.console import Console

    from tests.core.route_banks import doc, small_bank

    files = {
        "adr/ADR-001-storage.md": doc(
            "ADR-001: Amount storage", "How amounts are stored", "No amount is rounded twice."
        ),
        "domain/money.md": doc(
            "Money", "Money", "Totals are never rounded twice: see [it](../adr/ADR-001-storage.md)."
        ),
    }
    hits = route(small_bank(tmp_path, files), "why is an amount never rounded twice").hits
    hit = next(hit for hit in hits if hit.path == "adr/ADR-001-storage.md")
    b = hit.breakdown
    assert b.linked > 0 and b.together > 1
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(breakdown_table(hit))
    text = console.export_text()
    assert "+ links to it" in text and "never" in text.split("+ links to it")[1].splitlines()[0]
    assert f"{b.together:.2f}" in next(line for line in text.splitlines() if "× words together" in line)
    headers = b.raw * b.layer_weight * b.status_weight * b.closed_work + b.family
    assert hit.score == pytest.approx((headers + b.body + b.section + b.linked) * b.together * b.intent, abs=0.05)
