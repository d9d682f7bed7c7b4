"""What a write's preview shows: its diff reads line for line at any width."""

from __future__ import annotations

import io

from memorybank.tui.previews import CONTINUED, diff_text
from rich.console import Console

from tests.conftest import checkout


def shown(renderable, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text().splitlines()


def test_a_diff_line_too_long_for_the_width_continues_under_its_text_marked_in_the_gutter():
    rows = shown(diff_text([" kept", "-the old sentence that runs on well past the width", "+new"]), 24)
    assert rows[0] == " kept"
    assert rows[1].startswith("-the old sentence")
    assert all(row.startswith(CONTINUED) for row in rows[2:-1])  # the rest of the removed line
    assert len(rows) > 3 and rows[-1] == "+new"
    assert "".join(row[1:] for row in rows[1:-1]).replace(" ", "") == "theoldsentencethatrunsonwellpastthewidth"


def test_a_diff_that_fits_is_shown_as_it_is_and_no_change_is_said():
    lines = ["@@ -1,2 +1,2 @@", " same", "-old", "+new"]
    assert shown(diff_text(lines), 80) == lines
    assert shown(diff_text([]), 80) == ["(the section does not change)"]


def test_the_index_lines_a_promotion_adds_are_its_entries_never_a_blank_line(tmp_path):
    """ai-setup's issues/README.md gains its entry and a blank line after it: the preview lists the
    entry alone (a blank row under "Index" read as an entry with nothing in it)."""

    import pytest
    from memorybank.core.bank import Bank
    from memorybank.core.write.create import create
    from memorybank.tui.triage import PromoteRequest, plan_promote

    from tests.conftest import SHARED

    source = SHARED / "banks" / "asromanychev__ai-setup" / "memory_bank"
    if not source.is_dir():
        pytest.skip("the shared banks are not beside the project")
    root = tmp_path / "memory_bank"
    checkout(source, root)
    create(Bank.open(root), path="_inbox/zz-note.md", title="A note", purpose="Something.", body="Hi\n", inbox=True)
    request = PromoteRequest(
        "_inbox/zz-note.md", "issues/zz-note.md", "other", "A note", "Something.", derived_from=("prd/PRD.md",)
    )
    plan = plan_promote(Bank.open(root), request)
    assert plan.index_lines == (("issues/README.md", "- [A note](zz-note.md) — Something."),)
