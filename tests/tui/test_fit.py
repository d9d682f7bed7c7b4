"""What an owner saw cut or hidden at 80x24 (issue 18): each screen read as text, as a person would."""

from __future__ import annotations

import shutil

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.findings import FindingsPane
from memorybank.tui.widgets.chooser import Chooser
from textual.widgets import Tree

from tests.conftest import REAL_BANKS
from tests.tui.conftest import SIZE, screen_text, settle, write_doc

pytestmark = pytest.mark.anyio


FORUM = next((p for p in REAL_BANKS if p.parent.name == "Pegorino82__lfcru_forum"), None)


@pytest.mark.skipif(FORUM is None, reason="the real banks are not beside the project")
async def test_findings_open_with_the_first_group_header_in_view(tmp_path):
    """The tree was filled while it was still short (six real banks, depending on timing), so
    bringing the cursor into view scrolled it one line down, the first rule's header hidden. A
    terminal that starts short and grows makes the timing certain; the bank needs more findings
    than fit, or Textual scrolls back by itself."""
    assert FORUM is not None
    bank = shutil.copytree(FORUM, tmp_path / "memory_bank")
    app = make_app(bank, poll_seconds=0)
    async with app.run_test(size=(80, 15)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "4")
        await settle(pilot)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        tree = app.screen.query_one(FindingsPane).query_one("#findings-tree", Tree)
        assert tree.scroll_offset.y == 0
        assert any("▼ ✗" in row for row in screen_text(app)[:9])


async def test_the_rule_filter_lists_whole_rule_names(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "4")
        await settle(pilot)
        select = app.screen.query_one("#findings-rule", Chooser)
        select.focus()
        await pilot.press("enter")
        await pilot.press(*["down"] * 12)
        await settle(pilot)
        rows = screen_text(app)
        assert any("unresolved-rule-reference" in row for row in rows) or any(
            "must-not-define-violated" in row for row in rows
        )
        assert not any("unresolved-rule-ref\n" in row for row in rows)
        await pilot.press("escape")
        select.value = "unresolved-rule-reference"  # the longest rule name, whole on the chooser at 80 columns
        await settle(pilot)
        assert any("unresolved-rule-reference ▼" in row for row in screen_text(app))


async def test_the_graph_footer_keeps_its_keys_and_an_empty_graph_shows_no_lone_root(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "3")
        await settle(pilot)
        rows = screen_text(app)
        assert "? Keys" in rows[-1]
        assert not any("▶ graph" in row for row in rows)


async def test_drift_without_anchors_says_its_whole_sentence(reference_bank):
    app = make_app(reference_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        note = str(app.screen.query_one("#drift-summary").render()).split()
        shown = " ".join(" ".join(screen_text(app)).split())
        assert " ".join(note[-6:]) in shown  # the last words of the note are on screen
        assert "? Keys" in screen_text(app)[-1]


def test_paths_a_column_would_show_alike_are_cut_around_where_they_differ():
    from memorybank.tui.widgets.path_cut import cut_apart, cut_path
    from rich.cells import cell_len

    paths = ["features/payments-retry-v1/spec.md", "features/payments-retry-v2/spec.md", "ops/runbook.md"]
    assert cut_path(paths[0], 22) == cut_path(paths[1], 22)  # alone, each is cut the same
    shown = cut_apart(paths, 22)
    assert shown == ["…/…try-v1/spec.md", "…/…try-v2/spec.md", "ops/runbook.md"]
    deep = [f"issues/0004-s3-blob-storage-{n}/iterations/brief/brief.md" for n in ("east", "west")]
    shown = cut_apart(deep, 30)
    assert len(set(shown)) == 2 and all(cell_len(s) <= 30 and s.endswith("/…/brief.md") for s in shown)
    assert cut_apart(["a/x.md", "b/y.md"], 20) == ["a/x.md", "b/y.md"]  # apart already: as cut_path cuts
    # No room beside a long name: the name gives up its middle to the folder that tells them apart.
    issues = [f"issues/{n}/acceptance-scenarios.md" for n in ("0020-collection-tasks-api", "0021-items-pagination")]
    assert cut_apart(issues, 28) == ["…/0020…/acceptance-…arios.md", "…/0021…/acceptance-…arios.md"]


def test_a_path_is_cut_where_it_keeps_what_tells_it_from_its_siblings():
    from memorybank.tui.widgets.path_cut import cut_path
    from rich.cells import cell_len

    siblings = [f"issues/0004-s3-blob-storage/iterations/brief/brief-v{n}.md" for n in (2, 3, 4)]
    shown = [cut_path(path, 28) for path in siblings]
    assert len(set(shown)) == 3 and all(len(s) <= 28 and s.endswith(f"brief-v{n}.md") for s, n in zip(shown, (2, 3, 4)))
    assert cut_path("short.md", 28) == "short.md"
    # Folders left out are never silent: an inbox note does not pass for a file at the bank's root.
    assert cut_path("_inbox/webhook-signature-rotation.md", 31) == "…/webhook-signature-rotation.md"
    # Deep in an issue: the top folder and the start of the issue's id stay, the folders between go first.
    specs = [cut_path(f"issues/000{n}-retry-policy/iterations/spec/spec-v1.md", 27) for n in (5, 6)]
    assert specs[1] == "issues/0006-r…/…/spec-v1.md" and len(set(specs)) == 2
    # A generic file name: the folder's start (the feature's id) stays.
    features = [cut_path(f"features/FT-02{n}-reservation-form/feature.md", 26) for n in (0, 1, 3)]
    assert features[0] == "…/FT-020-reser…/feature.md" and len(set(features)) == 3
    # A file name too long alone keeps its start (its id) and its end.
    adr = cut_path("adr/ADR-004-integer-cents-for-money.md", 20)
    assert adr.startswith("ADR-004") and adr.endswith("money.md") and len(adr) == 20
    # A rename keeps both sides.
    renamed = cut_path("ops/monitoring.md → ops/监控与告警的详细说明文档.md", 30)
    assert renamed.startswith("monitoring.md → ") and renamed.endswith(".md") and cell_len(renamed) <= 30
    wide = cut_path("知识/决策记录/非常长的中文文件名称.md", 16)
    assert cell_len(wide) <= 16 and wide.endswith(".md")


def test_a_deep_path_keeps_its_whole_name_and_its_package_before_the_folders_between():
    """ai-setup at 80 columns showed ``…/anal…/cycle-analysis-2.md``: which issue's, no row said."""
    from memorybank.tui.widgets.path_cut import cut_apart, cut_path

    path = "issues/0002-source-checkpoint/iterations/analysis/cycle-analysis-2.md"
    assert cut_path(path, 27) == "…/0002…/cycle-analysis-2.md"  # the Route pane's column at 80
    assert cut_path(path, 33) == "…/0002-sou…/…/cycle-analysis-2.md"
    assert cut_path(path, 40) == "issues/0002-sourc…/…/cycle-analysis-2.md"
    assert cut_path(path, 46) == "…/0002-source-checkpoint/…/cycle-analysis-2.md"
    assert cut_path(path, 51) == "issues/0002-source-checkpoint/…/cycle-analysis-2.md"
    assert cut_path(path, 60) == "issues/0002-source-checkpoint/…/analysis/cycle-analysis-2.md"
    # The package is the first folder under the top one with a digit: a feature's id, not "features".
    feature = "product/features/FT-020-checkout/iterations/eu-reverse-charge-for-b2b.md"
    assert cut_path(feature, 56) == "product/…/FT-020-checkout/…/eu-reverse-charge-for-b2b.md"
    issues = ("0002-source-checkpoint", "0003-sync-orchestration", "0018-collection-task-model")
    listed = [f"issues/{issue}/iterations/analysis/cycle-analysis-1.md" for issue in issues]
    for width in (27, 28, 33):
        shown = cut_apart(listed, width)
        assert len(set(shown)) == 3 and all(s.endswith("/cycle-analysis-1.md") for s in shown), shown
        assert all(issue[:4] in s for issue, s in zip(issues, shown))


@pytest.mark.parametrize("pane", ["route", "search"])
async def test_deep_rows_of_route_and_search_say_their_issue_and_the_highlighted_one_its_whole_path(tmp_path, pane):
    from memorybank.core.init import init

    root = tmp_path / "memory_bank"
    init(root, name="Issues")
    issues = ("0002-source-checkpoint", "0003-sync-orchestration", "0018-collection-task-model")
    for issue in issues:
        write_doc(
            root,
            f"issues/{issue}/iterations/analysis/cycle-analysis-1.md",
            f"title: Cycle analysis of {issue}\ndoc_kind: engineering\nstatus: draft\n"
            "purpose: What the cycle analysis of the issue found.",
            "# Cycle analysis\n\n## Findings\n\nThe cycle analysis found little.\n",
        )
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if pane == "search":
            await pilot.press("escape", "6")
            await settle(pilot)
        await pilot.press(*"cycle analysis")
        await settle(pilot)
        rows = screen_text(app)
        for issue in issues:
            assert any(f"…/{issue[:4]}" in row and "/cycle-analysis-1.md" in row for row in rows), (issue, rows)
        result = app.screen.query_one(f"#{pane}-results")
        result.focus()
        await settle(pilot)
        hits = app.screen.pane(pane).result.hits
        for row in range(len(hits)):  # the highlighted row's path, whole, under the table
            result.move_cursor(row=row)
            await settle(pilot)
            assert hits[row].path in " ".join(screen_text(app))


async def test_route_rows_of_sibling_documents_keep_their_file_names_at_80_columns(tmp_path):
    from memorybank.core.init import init

    root = tmp_path / "memory_bank"
    init(root, name="Siblings")
    for n in (2, 3, 4):
        write_doc(
            root,
            f"engineering/0004-s3-blob-storage-adapter/iterations/brief/brief-v{n}.md",
            f"title: Blob storage brief v{n}\ndoc_kind: engineering\nstatus: draft\n"
            f"purpose: The blob storage adapter brief, draft {n}.",
            "# Brief\n\n## Goal\n\nStore blobs.\n",
        )
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"blob storage brief")
        await settle(pilot)
        text = "\n".join(screen_text(app))
        for n in (2, 3, 4):
            assert f"/brief-v{n}.md" in text


async def test_no_match_hints_name_the_workbench_panes_and_keys_that_work_from_the_box(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*"zzqx")
        await settle(pilot)
        route = "\n".join(screen_text(app))
        assert "alt+6" in route and "Press 6" not in route
        await pilot.press("alt+6")
        await settle(pilot)
        await pilot.press(*"zzqxw")
        await settle(pilot)
        search = "\n".join(screen_text(app))
        assert "bank_route" not in search and "ask on Route" in search


def test_the_question_box_example_is_a_titles_subject_as_typed():
    from memorybank.tui.examples import as_typed

    assert as_typed("Architecture — ai-da-collect") == "architecture"
    assert as_typed("Invoicing Rules") == "invoicing rules"
    assert as_typed("MCP Server API") == "MCP server API"
    assert as_typed("Архитектура проекта") == "архитектура проекта"


async def test_findings_help_names_enter_first(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "4")
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        text = "\n".join(screen_text(app))
        assert "Enter" in text and "at the finding's line" in text


async def test_the_changes_note_is_read_to_its_end_at_80_columns(tmp_path):
    """A bank outside git: the note says what to do, and its last words were cut at 80 columns."""
    from memorybank.core.init import init

    init(tmp_path / "memory_bank", name="Loose")
    app = make_app(tmp_path / "memory_bank", poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "7")
        await settle(pilot)
        text = " ".join(row.strip() for row in screen_text(app))
        assert "not in a git repository" in text and "cannot see deletions" in text  # the default: a date
        await pilot.press("slash", "ctrl+u", *"HEAD~5", "enter")  # a ref: no commit to reach back to
        await settle(pilot)
        text = " ".join(row.strip() for row in screen_text(app))
        assert "not in a git repository" in text and "for a real delta." in text


async def test_the_document_panes_keys_say_how_to_close_at_80x24(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.open_document("domain/tax-model.md")
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert "Esc closes · ↑ ↓ scroll" in "\n".join(screen_text(app))  # on the frame, in sight


async def test_a_search_excerpt_starts_near_its_match_and_marks_it(tmp_path):
    from memorybank.core.init import init
    from memorybank.tui.panes.search import around_match, query_words

    root = tmp_path / "memory_bank"
    init(root, name="Far")
    line = "The collector already assumes from the start that its one store is PostgreSQL 16 with extensions."
    front = "title: Store\ndoc_kind: engineering\nstatus: draft\npurpose: Where data lives."
    write_doc(root, "engineering/store.md", front, f"# Store\n\n{line}\n")
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "6")
        await settle(pilot)
        await pilot.press(*"PostgreSQL")
        await settle(pilot)
        row = next(r for r in screen_text(app) if "store.md" in r)
        assert "PostgreSQL" in row and "…" in row
    shown = around_match(line, query_words("postgresql"))
    start = shown.plain.index("PostgreSQL")
    assert shown.plain.startswith("…") and [(s.start, s.end) for s in shown.spans] == [(start, start + 10)]


async def test_route_results_fit_a_60_column_terminal(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"how are failed card payments retried")
        await settle(pilot)
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        table = app.screen.query_one("#route-results")
        assert table.virtual_size.width <= table.size.width
        assert any("Best" in row for row in screen_text(app))


async def test_a_table_in_a_pane_behind_fits_the_terminal_it_is_shown_in(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "7")  # Changes, laid out at 120 columns
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        await pilot.resize_terminal(60, 20)  # while Route is in front
        await settle(pilot)
        await pilot.press("alt+7")
        await settle(pilot)
        table = app.screen.query_one("#changes-table")
        assert table.virtual_size.width <= table.size.width


@pytest.mark.parametrize(("pane", "box"), [("6", "#search-query"), ("4", "#findings-path")])
async def test_a_text_box_come_back_to_keeps_its_text_for_the_next_key(demo_source, pane, box):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", pane)
        await settle(pilot)
        field = app.screen.query_one(box)
        field.focus()
        await pilot.press(*"dom")
        await pilot.press("alt+1", f"alt+{pane}")
        await settle(pilot)
        assert field.has_focus
        await pilot.press("a")
        assert field.value == "doma"


async def test_tab_in_the_document_pane_stops_only_where_its_keys_work(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.open_document("dna/README.md")
        await settle(pilot)
        pane = app.screen.pane("document")
        for _ in range(4):
            await pilot.press("tab")
            await settle(pilot)
            assert pane in app.screen.focused.ancestors  # never the tab bar


async def test_routes_keys_list_down_once(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "question_mark")  # from the results: in the box, ? is typed
        await settle(pilot)
        rows = [row.split("│")[1].strip() for row in screen_text(app) if row.count("│") >= 2]
        assert sum(1 for row in rows if row.startswith("↓")) == 1


async def test_a_path_in_a_toast_at_80_columns_is_cut_whole_words_not_folded_mid_word(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        path = "product/features/FT-020-checkout/iterations/eu-reverse-charge-for-b2b.md"
        app.notify(f"{path} no longer exists.", title="Changes", severity="warning")
        await settle(pilot)
        rows = screen_text(app)
        assert any("…/eu-reverse-charge-for-b2b.md" in row for row in rows)
        assert any("no longer exists." in row for row in rows)


@pytest.mark.parametrize("second_key", ["retry_budget", None])
def test_the_search_box_example_is_found_where_a_body_writes_it(tmp_path, second_key):
    """The example must find itself: a key named only in frontmatter would match other words."""
    from memorybank.core.search import search
    from memorybank.tui.examples import example_term

    from tests.core.route_banks import doc, small_bank

    keys = "[version_history]" if second_key is None else f"[version_history, {second_key}]"
    bank = small_bank(
        tmp_path,
        {
            "a.md": doc("History", "Versions.", "The history of versions.", canonical_for=keys),
            "b.md": doc(
                "Retries", "Retry rules.", "Each job has a retry_budget of three; see payment_gateway_timeout."
            ),
        },
    )
    example = example_term(bank)
    assert example == (second_key or "payment_gateway_timeout")
    assert [hit.path for hit in search(bank, example).hits] == ["b.md"]
