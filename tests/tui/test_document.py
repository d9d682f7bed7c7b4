"""The Document pane: outline with line ranges, the section shown as you move, edges followed,
the source view at a line, and the editor command."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.editor import editor_command
from memorybank.tui.panes.document import HEAD, DocumentPane
from memorybank.tui.widgets.markdown_view import MarkdownView
from textual.geometry import Offset
from textual.widgets import TextArea, Tree

from tests.tui.conftest import SIZE, Notes, screen_text, settle, write_doc

pytestmark = pytest.mark.anyio


async def open_doc(app, pilot, path, **where):
    app.screen.open_document(path, **where)
    await settle(pilot)
    return app.screen.query_one(DocumentPane)


async def test_the_outline_lists_sections_with_line_ranges_edges_and_frontmatter(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md")
        labels = [str(node.label) for node in pane.query_one("#doc-outline", Tree).root.children]
        assert labels == ["Whole document", "Sections (4)", "Derived from ↑ (1)", "Used by ↓ (4)", "Frontmatter (8)"]
        sections = pane.query_one("#doc-outline", Tree).root.children[1]
        assert [str(n.label) for n in sections.children][0] == "17–21 Numbering"


async def test_enter_on_an_external_or_a_broken_edge_says_so(reference_bank, monkeypatch):
    app = make_app(reference_bank, poll_seconds=0)
    notes = Notes(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for path in ("features/FT-001/brief.md", "engineering/architecture.md"):  # external, broken
            pane = await open_doc(app, pilot, path)
            tree = pane.query_one("#doc-outline", Tree)
            up = next(n for n in tree.root.children if str(n.label).startswith("Derived from"))
            for leaf in up.children:
                if str(leaf.label)[:1] in "↗✗":
                    tree.select_node(leaf)
                    await settle(pilot)
        said = " ".join(message for message, _ in notes.messages)
        assert "lies outside the bank" in said and "is no document of this bank" in said


async def test_moving_through_the_outline_shows_each_section(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md", section="Numbering")
        assert pane.section.title == "Numbering"
        await pilot.press("down")
        await settle(pilot)
        assert pane.section.title == "Rounding"
        assert "half-up" in pane.markdown_source and "gapless" not in pane.markdown_source


async def test_following_an_edge_opens_that_document_and_the_graph_follows(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md")
        tree = pane.query_one("#doc-outline", Tree)
        upstream = tree.root.children[2].children[0]
        tree.select_node(upstream)
        await settle(pilot)
        assert pane.opened.doc.path == "product/plans-and-limits.md"
        assert app.screen.pane("graph").root_path == "product/plans-and-limits.md"


async def test_opening_at_a_line_shows_the_numbered_source_there(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/monitoring.md", line=19)
        source = pane.query_one("#doc-source", TextArea)
        assert pane.source_mode and source.cursor_location == (18, 0)
        assert "alert-catalogue" in source.document.get_line(18)
        await pilot.press("s")
        assert not pane.source_mode


async def test_the_same_document_at_a_line_keeps_its_outline_and_a_changed_one_rebuilds_it(demo_bank):
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md")
        tree = pane.query_one("#doc-outline", Tree)
        sections = tree.root.children[1]
        rounding = next(n for n in sections.children if "Rounding" in str(n.label))
        # A finding's line in the document already open: the tree's nodes stay, its cursor moves
        # (into the sections' group even when the user folded it).
        sections.collapse()
        await open_doc(app, pilot, "domain/invoicing-rules.md", line=rounding.data[1].line + 1)
        assert tree.root.children[1] is sections and tree.cursor_node is rounding
        assert pane.source_mode and pane.section.title == "Rounding"
        # The file changed: the outline is built again and shows the new section.
        path = demo_bank / "domain" / "invoicing-rules.md"
        path.write_text(path.read_text(encoding="utf-8") + "\n## Refunds\n\nRefunds reverse an invoice.\n")
        app.recheck()
        await settle(pilot)
        await open_doc(app, pilot, "domain/invoicing-rules.md", section="Refunds")
        assert tree.root.children[1] is not sections
        assert [str(n.label).split(" ", 1)[1] for n in tree.root.children[1].children][-1] == "Refunds"
        assert tree.cursor_node.data[1].title == "Refunds"


async def test_edit_asks_for_an_editor_when_none_is_set(demo_source, monkeypatch):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        await open_doc(app, pilot, "domain/tax-model.md", section="Rates")
        app.open_in_editor(demo_source / "domain/tax-model.md", 3)
        assert any("Set $EDITOR" in m for m, _ in notes.messages)
        calls = []
        with monkeypatch.context() as patched:
            patched.setattr(app, "open_in_editor", lambda path, line: calls.append((Path(path).name, line)))
            await pilot.press("e")
        assert calls == [("tax-model.md", 16)]


def test_editor_commands_put_the_line_where_each_editor_expects_it():
    assert editor_command("vim", "/b/a.md", 12) == ["vim", "+12", "/b/a.md"]
    assert editor_command("emacs -nw", "/b/a.md", 3) == ["emacs", "-nw", "+3", "/b/a.md"]
    assert editor_command("code --wait", "/b/a.md", 7) == ["code", "--wait", "--goto", "/b/a.md:7"]
    assert editor_command("/usr/bin/hx", "/b/a.md", 0) == ["/usr/bin/hx", "/b/a.md:1"]


async def test_a_document_removed_on_disk_says_so_instead_of_crashing(demo_bank, monkeypatch):
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/monitoring.md")
        (demo_bank / "ops" / "monitoring.md").unlink()
        app.recheck()
        await settle(pilot)
        assert pane.opened is None
        assert any("Not a document of this bank: ops/monitoring.md" in m for m in notes.errors())
        assert pane.markdown_source == ""  # its body does not stay behind
        assert not any("alert" in row for row in screen_text(app)[3:])
        rows = screen_text(app)
        assert rows[3].strip() == "Not a document of this bank: ops/monitoring.md"  # said once, not twice
        assert any("ctrl+o jumps to another document" in row for row in rows[4:])


async def test_opening_another_document_never_shows_the_previous_body_under_the_new_heading(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md", section="Numbering")
        assert "gapless" in pane.markdown_source
        app.screen.open_document("ops/deploy-runbook.md")  # nothing holds the bank: shown in the same frame
        assert pane.opened.doc.path == "ops/deploy-runbook.md" and "gapless" not in pane.markdown_source
        holding, release = threading.Event(), threading.Event()

        def recheck() -> None:  # a re-check of the disk holds the bank while the user opens another
            with app.bank.lock:
                holding.set()
                release.wait(10)

        thread = threading.Thread(target=recheck)
        thread.start()
        holding.wait(10)
        app.screen.open_document("ops/monitoring.md")  # the read waits in its worker
        assert pane.markdown_source == ""
        assert "Opening ops/monitoring.md" in str(pane.query_one("#doc-heading").content)
        release.set()
        thread.join()
        await settle(pilot)
        assert pane.opened.doc.path == "ops/monitoring.md"


def write_plan(bank: Path) -> None:
    """``ops/plan.md``: a thousand steps, far more than a window of the rendered or source view."""
    body = "# Plan\n\n" + "\n".join(f"Step {n}: do the thing number {n}.\n" for n in range(1, 1001))
    write_doc(bank, "ops/plan.md", "title: Plan\ndoc_kind: ops\nstatus: draft\npurpose: Long.", body)


async def test_a_long_title_never_pushes_the_path_out_and_an_empty_value_is_not_none(demo_bank):
    title = "A very long title " * 13
    write_doc(
        demo_bank,
        "ops/long.md",
        f"title: {title.strip()}\ndoc_kind: ops\nstatus: draft\nowner:\npurpose: Long titles.",
        "# Long\n\n## " + "A section whose heading is long enough to be cut " * 2 + "\n\nText.\n",
    )
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/long.md")
        rows = screen_text(app)
        assert any("ops/long.md" in row for row in rows[2:5])
        labels = [str(n.label) for n in pane.query_one("#doc-outline", Tree).root.children[4].children]
        assert "owner: (empty)" in labels and not any("None" in label for label in labels)
        section = str(pane.query_one("#doc-outline", Tree).root.children[1].children[0].label)
        assert section.startswith("10–12 ")  # the range comes first, so a narrow outline never cuts it


async def test_a_long_document_renders_a_window_and_m_shows_more(demo_bank):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md")
        assert "Step 1:" in pane.markdown_source and "Step 100:" not in pane.markdown_source
        assert "more lines" in pane.more_note
        pane.query_one("#doc-rendered").focus()
        await pilot.press("m")
        await settle(pilot)
        assert "Step 60:" in pane.markdown_source and "Step 1000:" not in pane.markdown_source


async def test_an_opened_window_shows_its_head_in_the_first_frame_and_the_rest_right_after(demo_bank):
    write_plan(demo_bank)  # "Step n" sits on raw line 7 + 2n: the window's 80 lines hold steps 1-39
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/deploy-runbook.md")
        view = pane.query_one("#doc-rendered", MarkdownView)
        app.screen.open_document("ops/plan.md")  # nothing holds the bank: read and shown in this frame
        shown = "\n".join(line.text for line in view._lines)
        # The head is a screenful and a few lines more: the first frame is full, and no more is rendered.
        assert view.partial and "Step 1:" in shown and "Step 30:" not in shown
        assert view.size.height <= len(view._lines) <= view.size.height + 2 * HEAD
        assert "more lines" not in shown  # the note comes with the whole window
        await settle(pilot)
        shown = "\n".join(line.text for line in view._lines)
        assert not view.partial and "Step 39:" in shown and "Step 40:" not in shown and "more lines" in shown
        # A window short enough is rendered whole at once.
        app.screen.open_document("ops/deploy-runbook.md")
        assert not view.partial and "rollback" in "\n".join(line.text for line in view._lines).lower()


async def test_the_source_view_wraps_so_a_reported_link_stays_on_screen(demo_bank):
    link = "see [the runbook](../missing/runbook-that-does-not-exist.md)"
    write_doc(
        demo_bank,
        "ops/wide.md",
        "title: Wide\ndoc_kind: ops\nstatus: draft\npurpose: Wide lines.",
        "# Wide\n\n" + "word " * 30 + link + "\n",
    )
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_doc(app, pilot, "ops/wide.md", line=9)
        assert any("runbook-that-does-not" in row for row in screen_text(app))


def on_screen(area: TextArea, row: int) -> bool:
    """Whether the source view's ``row``-th line starts on a row inside the view."""
    y = area.wrapped_document.location_to_offset((row, 0)).y
    return area.scroll_offset.y <= y < area.scroll_offset.y + area.scrollable_content_region.height


async def test_the_source_view_opened_deep_in_wrapped_lines_shows_that_line(demo_bank):
    # Every line wraps to three rows at 80 columns: a count of lines is not a count of rows.
    body = "# Wide\n\n" + "".join(f"Line {n}: " + "wrapped words " * 14 + "\n" for n in range(1, 120))
    write_doc(demo_bank, "ops/wide.md", "title: Wide\ndoc_kind: ops\nstatus: draft\npurpose: Wide lines.", body)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_doc(app, pilot, "ops/wide.md")  # rendered: the source view waits hidden
        pane = await open_doc(app, pilot, "ops/wide.md", line=100)
        area = pane.query_one("#doc-source", TextArea)
        row = 100 - pane.source_start
        assert area.cursor_location == (row, 0) and "Line 92:" in area.document.get_line(row)
        assert on_screen(area, row) and on_screen(area, row - 1)  # the line, with one above it
        # Exactly: the third line above it starts the view (rows counted as wrapped, not as lines).
        assert area.scroll_offset.y == area.wrapped_document.location_to_offset((row - 3, 0)).y
        # A resize rewraps every line; the line at the top of the view stays at the top.
        for size in ((120, 36), (60, 20), SIZE):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert area.wrapped_document.offset_to_location(Offset(0, area.scroll_offset.y))[0] == row - 3, size


async def test_a_re_read_of_the_open_document_keeps_the_readers_place(demo_bank):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md")
        view = pane.query_one("#doc-rendered", MarkdownView)
        view.scroll_to(y=30, animate=False)
        await settle(pilot)
        plan = demo_bank / "ops" / "plan.md"
        plan.write_text(plan.read_text(encoding="utf-8") + "\n## Appended\n\nMore.\n", encoding="utf-8")
        app.recheck()
        await settle(pilot)
        assert pane.opened.doc.sections[-1].title == "Appended"  # read again
        assert view.scroll_offset.y == 30 and not view.partial
        # The source view keeps its cursor's line and its first line on screen.
        await open_doc(app, pilot, "ops/plan.md", line=500)
        area = pane.query_one("#doc-source", TextArea)
        area.scroll_to(y=area.scroll_offset.y + 7, animate=False)
        await settle(pilot)
        before = pane._source_place()
        plan.write_text(plan.read_text(encoding="utf-8") + "Even more.\n", encoding="utf-8")
        app.recheck()
        await settle(pilot)
        assert pane.opened.lines[-1] == "Even more." and pane._source_place() == before


async def test_switching_views_takes_the_focus_along_to_the_view_shown(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/monitoring.md")
        pane.query_one("#doc-rendered").focus()
        await pilot.press("s")
        assert pane.source_mode and app.focused is pane.query_one("#doc-source")
        await pilot.press("s")
        assert not pane.source_mode and app.focused is pane.query_one("#doc-rendered")


async def test_a_long_path_never_hides_the_line_opened_at_and_a_narrow_terminal_keeps_room_for_text(demo_bank):
    path = "ops/a-rather-long-folder-name/and-a-document-with-a-long-name.md"  # 64 characters
    write_doc(demo_bank, path, "title: Deep\ndoc_kind: ops\nstatus: draft\npurpose: Deep.", "# Deep\n\nText.\n")
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_doc(app, pilot, path, line=8)
        assert "at line 8" in screen_text(app)[3]  # the facts after it are cut instead
        await pilot.resize_terminal(40, 12)
        await settle(pilot)
        outline = app.screen.query_one("#doc-outline")
        assert outline.outer_size.width <= 17  # the text beside it keeps more than half the width


async def test_back_and_forward_walk_the_documents_opened(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md", section="Numbering")
        tree = pane.query_one("#doc-outline", Tree)
        tree.select_node(tree.root.children[2].children[0])  # follow the edge up
        await settle(pilot)
        await open_doc(app, pilot, "ops/monitoring.md")
        await pilot.press("alt+left")
        await settle(pilot)
        assert pane.opened.doc.path == "product/plans-and-limits.md"
        await pilot.press("alt+left")
        await settle(pilot)
        assert pane.opened.doc.path == "domain/invoicing-rules.md" and pane.section.title == "Numbering"
        await pilot.press("alt+right")
        await settle(pilot)
        assert pane.opened.doc.path == "product/plans-and-limits.md"
        await open_doc(app, pilot, "domain/tax-model.md")  # a new step drops the ones ahead
        await pilot.press("alt+right")
        await settle(pilot)
        assert pane.opened.doc.path == "domain/tax-model.md"


async def test_back_returns_to_the_section_and_source_line_the_reader_left_not_where_it_opened(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "domain/invoicing-rules.md", section="Numbering")
        tree = pane.query_one("#doc-outline", Tree)
        third = tree.root.children[1].children[2]
        tree.move_cursor(third)  # the reader moves on to the third section
        await settle(pilot)
        left_at = pane.section.title
        assert left_at != "Numbering"
        await open_doc(app, pilot, "ops/monitoring.md", line=3)  # the source view, at line 3
        pane.query_one("#doc-source", TextArea).move_cursor((pane.place()[2] - pane.source_start + 4, 0))
        await open_doc(app, pilot, "domain/tax-model.md")
        await pilot.press("alt+left")
        await settle(pilot)
        assert pane.opened.doc.path == "ops/monitoring.md" and pane.source_mode and pane.place()[2] == 7
        await pilot.press("alt+left")
        await settle(pilot)
        assert pane.opened.doc.path == "domain/invoicing-rules.md" and pane.section.title == left_at


async def test_m_in_the_source_view_loads_every_line_and_keeps_the_cursors_line(demo_bank):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md")
        pane.query_one("#doc-rendered").focus()
        await pilot.press("s")
        await settle(pilot)
        area = pane.query_one("#doc-source", TextArea)
        area.focus()
        await pilot.press("pagedown", "pagedown", "down")
        await settle(pilot)
        line = pane.source_start + area.cursor_location[0]
        top = pane.source_start + area.wrapped_document.offset_to_location(Offset(0, area.scroll_offset.y))[0]
        assert line > 20 and top > 1
        await pilot.press("m")
        await settle(pilot)
        assert pane.source_start == 1 and len(area.text.splitlines()) == len(pane.opened.lines)
        assert area.cursor_location[0] + 1 == line  # the same raw line, not the first
        assert 1 + area.wrapped_document.offset_to_location(Offset(0, area.scroll_offset.y))[0] == top


async def test_leaving_the_source_deep_in_a_long_section_renders_down_to_that_line(demo_bank):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        line = 1500 if (demo_bank / "ops/plan.md").read_text().splitlines()[1499] else 1501  # a step, not a blank
        pane = await open_doc(app, pilot, "ops/plan.md", line=line)
        area = pane.query_one("#doc-source", TextArea)
        step = area.document.get_line(line - pane.source_start).split(":")[0]  # the line opened at
        assert step.startswith("Step ")
        area.focus()
        await pilot.press("down", "down", "s")  # the cursor moved on: the view follows the cursor
        await settle(pilot)
        following = f"Step {int(step.split()[1]) + 1}:"
        assert not pane.source_mode and following in pane.markdown_source
        rows = screen_text(app)
        at = next(n for n, row in enumerate(rows) if following in row)  # rendered, and on screen
        view = pane.query_one("#doc-rendered", MarkdownView)
        assert view.region.y <= at < view.region.y + 8  # near the top, a few rows above it
        assert "Step 1:" not in "".join(rows)
        await pilot.press("s")  # and back: the source at that same line
        await settle(pilot)
        assert area.document.get_line(area.cursor_location[0]).startswith(following)
        # A second trip, up by forty lines: the view follows again, though more is rendered now.
        area.focus()
        await pilot.press(*["up"] * 40, "s")
        await settle(pilot)
        assert_in_sight(app, pane, f"Step {int(step.split()[1]) + 1 - 20}:")


@pytest.mark.parametrize("step", [26, 37])
async def test_leaving_the_source_early_in_a_section_shows_that_line_too(demo_bank, step):
    # "Step n" on raw line 7 + 2n: step 26 is line 59, in the first window; step 37, line 81, at its
    # end, where the view could not scroll it to the top unless more is rendered after it.
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md", line=7 + 2 * step)
        pane.query_one("#doc-source", TextArea).focus()
        await pilot.press("s")
        await settle(pilot)
        assert_in_sight(app, pane, f"Step {step}:")


def assert_in_sight(app, pane, text: str) -> None:
    """``text`` is on screen in the rendered view, within its first eight rows."""
    view = pane.query_one("#doc-rendered", MarkdownView)
    rows = screen_text(app)
    at = next((n for n, row in enumerate(rows) if text in row), None)
    assert not pane.source_mode and at is not None and view.region.y <= at < view.region.y + 8, (text, rows)


async def test_an_empty_group_of_the_outline_shows_no_arrow(demo_bank):
    write_plan(demo_bank)  # no sections, no edges either way
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_doc(app, pilot, "ops/plan.md")
        rows = screen_text(app)
        for group in ("Sections (0)", "Derived from ↑ (0)", "Used by ↓ (0)"):
            assert any(f" {group}" in row for row in rows) and not any(f"▼ {group}" in row for row in rows)
        assert any("▼ Frontmatter (4)" in row for row in rows)


async def test_with_nothing_open_the_document_pane_says_so_whole_at_80_columns(demo_source):
    from memorybank.tui.panes.document import EMPTY

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "2")
        await settle(pilot)
        assert any(EMPTY in row for row in screen_text(app))


def test_a_frontmatter_value_reads_as_yaml_not_as_python():
    """An agent's proposal is a mapping: the Frontmatter tree showed ``{'action': ...}``."""
    from memorybank.tui.panes.opened import field_value

    proposal = {"action": "promote", "to": "ops/deploy.md", "derived_from": ["a.md", "b.md"], "urgent": True}
    assert (
        field_value(proposal).plain == "action: promote · to: ops/deploy.md · derived_from: a.md, b.md · urgent: true"
    )
    assert field_value([True, None, 3]).plain == "true, , 3"
    assert field_value(None).plain == "(empty)"


async def test_j_and_k_scroll_the_rendered_text_as_in_less(demo_bank):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md")
        view = pane.query_one("#doc-rendered")
        view.focus()
        await pilot.press("j", "j", "j")
        await settle(pilot)
        assert view.scroll_offset.y == 3
        await pilot.press("k")
        await settle(pilot)
        assert view.scroll_offset.y == 2


async def test_slash_finds_text_in_the_document_and_n_and_shift_n_go_on_wrapping_round(demo_bank, monkeypatch):
    write_plan(demo_bank)
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        pane = await open_doc(app, pilot, "ops/plan.md")
        pane.query_one("#doc-outline").focus()
        await pilot.press("slash", *"NUMBER 99", "enter")  # case aside: "number 99" and "number 990"-"999"
        await settle(pilot)
        first = pane.place()[2]
        assert pane.source_mode and pane.opened.lines[first - 1] == "Step 99: do the thing number 99."
        assert any("1 of 11" in m for m, _ in notes.messages)
        await pilot.press("n")
        await settle(pilot)
        assert pane.opened.lines[pane.place()[2] - 1].startswith("Step 990:")
        await pilot.press("N", "N")  # back past the first: round to the last
        await settle(pilot)
        assert pane.opened.lines[pane.place()[2] - 1].startswith("Step 999:")
        await pilot.press("slash", "ctrl+u", *"no such words", "enter")
        await settle(pilot)
        assert any("No “no such words” in this document." in m for m, _ in notes.messages)
        await pilot.press("slash", "x", "escape")  # Esc closes the box, the needle kept
        await settle(pilot)
        assert not pane.query_one("#doc-find").display and pane.needle == "no such words"
