"""The Findings pane: grouped by rule with errors first, filtered by severity, rule and path, each
finding a jump to its document and line."""

from __future__ import annotations

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.findings import FindingsPane
from textual.widgets import TextArea, Tree

from tests.tui.conftest import SIZE, settle, until

pytestmark = pytest.mark.anyio


def groups(pane: FindingsPane) -> list[str]:
    return [str(node.label).split()[1] for node in pane.query_one("#findings-tree", Tree).root.children]


async def findings(app, pilot) -> FindingsPane:
    await settle(pilot)
    await pilot.press("escape", "4")
    await settle(pilot)
    return app.screen.query_one(FindingsPane)


async def test_findings_are_grouped_by_rule_errors_first(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        assert groups(pane) == ["missing-derived-from", "unregistered-doc", "broken-link"]
        assert pane.report.errors == 1 and pane.report.warnings == 2
        assert "Fix:" in str(pane.query_one("#findings-rule-doc").render())


async def test_filters_by_severity_rule_and_path(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        pane.query_one("#findings-severity").value = "warning"
        await settle(pilot)
        assert groups(pane) == ["unregistered-doc", "broken-link"]
        pane.query_one("#findings-rule").value = "broken-link"
        await settle(pilot)
        assert groups(pane) == ["broken-link"]
        assert "(filtered)" in str(pane.query_one("#findings-summary").render())  # a rule filter says so too
        pane.query_one("#findings-rule").value = "invalid-frontmatter"  # none of those among the warnings
        await settle(pilot)
        summary = str(pane.query_one("#findings-summary").render())
        assert groups(pane) == [] and "match these filters" in summary and "clean" not in summary
        pane.query_one("#findings-rule").value = "all"
        pane.query_one("#findings-severity").value = "all"
        await settle(pilot)
        await pilot.press("slash")
        pane.query_one("#findings-path").value = "ops/"
        await settle(pilot)
        assert [f.path for f in pane.shown] == ["ops/monitoring.md"]


async def test_choosing_a_finding_opens_the_document_at_its_line(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        pane.query_one("#findings-rule").value = "broken-link"
        await settle(pilot)
        await pilot.press("down", "enter")
        document = app.screen.pane("document")
        assert await until(pilot, lambda: document.opened is not None and document.source_mode)
        assert app.screen.query_one("#panes").active == "document"
        assert document.opened.doc.path == "ops/monitoring.md" and document.line == 19 and document.source_mode
        assert document.query_one("#doc-source", TextArea).cursor_location == (18, 0)


async def test_a_clean_bank_says_so(tmp_path):
    from memorybank.core.init import init

    init(tmp_path / "memory_bank", name="Clean")
    app = make_app(tmp_path / "memory_bank", poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        assert pane.report.total == 0
        assert "the bank is clean" in str(pane.query_one("#findings-summary").render())


async def test_a_long_path_keeps_its_line_number_and_the_detail_names_the_file(tmp_path):
    from tests.tui.conftest import screen_text, write_doc

    root = tmp_path / "memory_bank"
    deep = "issues/0002-source-checkpoint/iterations/activation/artifact-activation-1.md"
    write_doc(root, "README.md", "title: Bank", "# Bank\n")
    write_doc(root, deep, "title: Artifact\npurpose: x: y", "# Artifact\n")
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await findings(app, pilot)
        pane.query_one("#findings-rule").value = "invalid-frontmatter"
        await settle(pilot)
        rows = screen_text(app)
        leaf = next(row for row in rows if "artifact-activation-1.md:" in row)
        assert "/artifact-activation-1.md:3" in leaf  # the path cut in the middle, its line kept
        detail = str(pane.query_one("#findings-rule-doc").render())
        assert detail.startswith(f"{deep}:3")


@pytest.mark.parametrize(("pane_key", "slash_box"), [("4", "#findings-path"), ("7", "#changes-since")])
async def test_a_slash_and_what_follows_it_in_one_burst_land_in_the_box(demo_source, pane_key, slash_box):
    """`/adr` arriving at once, as a quick typist's keys do: the box holds `adr` (a focus moved a
    turn later left the letters with the list, as its keys)."""
    from textual import events
    from textual.widgets import Input

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", pane_key)
        await settle(pilot)
        for key, char in (("slash", "/"), ("a", "a"), ("d", "d"), ("r", "r")):
            app.post_message(events.Key(key, char))
        await settle(pilot, rounds=3)
        box = app.screen.query_one(slash_box, Input)
        assert box.has_focus and box.value == "adr"
        await pilot.press("slash", "x")  # in the box, / is a character
        assert box.value == "adr/x"


async def test_a_rules_heading_describes_the_rule_not_the_finding_shown_before(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        tree = pane.query_one("#findings-tree", Tree)
        tree.focus()
        assert "missing-derived-from (error)" in str(pane.query_one("#findings-rule-doc").render())  # the first finding
        tree.move_cursor(tree.root.children[1])  # the unregistered-doc heading
        await settle(pilot)
        detail = str(pane.query_one("#findings-rule-doc").render())
        assert detail.startswith("unregistered-doc  1 finding under this rule") and "missing-derived" not in detail
        assert pane.selected is None
        await pilot.press("enter")  # a heading opens no document
        await settle(pilot)
        assert app.screen.query_one(FindingsPane).is_on_screen


async def test_validating_again_says_it_ran_and_what_moved(demo_bank, monkeypatch):
    from tests.tui.conftest import Notes, write_doc

    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        pane = await findings(app, pilot)
        pane.query_one("#findings-tree", Tree).focus()
        await pilot.press("v")
        assert await until(pilot, lambda: any("no change" in m for m, _ in notes.messages))
        write_doc(
            demo_bank, "ops/stray.md", "title: Stray\ndoc_kind: ops\nstatus: active\npurpose: Nothing.", "# Stray\n"
        )
        await pilot.press("v")
        assert await until(pilot, lambda: any("(was 1 error, 2 warnings)" in m for m, _ in notes.messages))


async def test_a_finding_fixed_meanwhile_leaves_the_cursor_on_the_one_after_it(demo_bank):
    """Working down the list: the owner fixes the highlighted finding in the editor and comes back;
    the cursor stands on the next finding, not on the first one at the top."""
    from memorybank.tui.widgets.tree_cursor import place_cursor

    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        pane = await findings(app, pilot)
        tree = pane.query_one("#findings-tree", Tree)
        tree.focus()
        nodes = [leaf for group in tree.root.children for leaf in group.children]
        unregistered = next(node for node in nodes if node.data.rule == "unregistered-doc")
        place_cursor(tree, unregistered)
        await settle(pilot)
        folder, name = unregistered.data.path.rsplit("/", 1)
        index = demo_bank / folder / "README.md"  # fixed, as the owner would in the editor: registered
        index.write_text(index.read_text(encoding="utf-8") + f"\n- [{name}]({name})\n", encoding="utf-8")
        await pilot.press("v")
        assert await until(pilot, lambda: [f.rule for f in pane.shown] == ["missing-derived-from", "broken-link"])
        assert tree.cursor_node is not None and tree.cursor_node.data.rule == "broken-link"
