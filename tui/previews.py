"""What a write will do, in words and lines, for the preview dialogs: a promotion's frontmatter,
template, index line, rewritten links and warnings; a fold's diff; a discard; a batch of proposals.

Each function takes the core's dry-run values (gathered by ``tui.triage``) and returns a rich
renderable; nothing here calls the core.
"""

from __future__ import annotations

from memorybank.core.write.fold import FoldResult
from memorybank.core.write.inbox import DiscardResult, PromoteResult
from memorybank.core.write.proposals import ExitResult
from memorybank.tui.triage import FoldPlan, PromotePlan, ProposalBatch
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

LINK_NOTE = "Link rewritten for the new location: "
"""How the core words a rewritten link among a promotion's warnings."""


def _grid() -> Table:
    """Labels on the left, values wrapping in their own column."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    return grid


def _lines(items: list[Text], empty: str) -> Text:
    if not items:
        return Text(empty, style="dim")
    return Text("\n").join(items)


def promote_grid(result: PromoteResult, index_lines: tuple[tuple[str, str], ...]) -> Table:
    """Template, index line, rewritten links and warnings of one promotion."""
    grid = _grid()
    grid.add_row(
        "Template", Text(result.template) if result.template else Text("none: the note's own body is kept", style="dim")
    )
    index = [Text.assemble((f"{path}  ", "dim"), (f"+ {line}", "green")) for path, line in index_lines]
    grid.add_row("Index", _lines(index, "not registered anywhere (see the warnings)"))
    links = [Text(w[len(LINK_NOTE) :]) for w in result.warnings if w.startswith(LINK_NOTE)]
    grid.add_row("Links", _lines(links, "none rewritten"))
    others = [Text(f"⚠ {w}", style="yellow") for w in result.warnings if not w.startswith(LINK_NOTE)]
    grid.add_row("Warnings", _lines(others, "none"))
    return grid


def promote_preview(plan: PromotePlan) -> RenderableType:
    """One promotion: where from and to, the summary, then the document exactly as it will be written."""
    result = plan.result
    route = Text.assemble((result.source, "bold"), "  →  ", (result.path, "bold"), "\n")
    heading = Text(
        "\nThe new document, frontmatter exact (the note is removed; _inbox/.record.jsonl says where it went):",
        style="bold",
    )
    return Group(route, promote_grid(result, plan.index_lines), heading, Text(result.preview.rstrip("\n")))


def discard_grid(result: DiscardResult) -> Table:
    grid = _grid()
    grid.add_row("Deletes", Text.assemble((result.path, "bold"), f"  ({result.title}, {result.bytes} bytes)"))
    grid.add_row("Reason", Text(result.reason))
    return grid


DIFF_STYLES = {"@": "cyan", "+": "green", "-": "red"}
CONTINUED = "↪"
"""In the gutter of a diff line too long for the width: the row goes on the line above's text."""


class DiffLines:
    """A unified diff's lines, coloured, each wrapped under its own text with ``↪`` in the gutter
    of every row it continues on: a wrapped line never reads as a line of its own."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width - 1, 1)
        for line in self.lines:
            style = DIFF_STYLES.get(line[:1], "dim")
            if line.startswith("@@"):  # a hunk header is read whole, cut where it must be
                yield Text(line, style=style, no_wrap=True, overflow="ellipsis")
                continue
            rows = Text(line[1:], style=style).wrap(console, width) or [Text("")]
            for index, row in enumerate(rows):
                gutter = Text(line[:1], style=style) if index == 0 else Text(CONTINUED, style="dim")
                yield Text.assemble(gutter, row, no_wrap=True)


def diff_text(lines: list[str]) -> RenderableType:
    """A unified diff's lines, coloured, for a preview."""
    if not lines:
        return Text("(the section does not change)", style="yellow")
    return DiffLines(lines)


def fold_preview(plan: FoldPlan) -> RenderableType:
    """The owner's section before and after, as a diff, and the discard that follows."""
    update = plan.update
    heading = Text.assemble(
        (f"{update.path}  § {update.section}", "bold"),
        (f"  ({update.mode}, {update.bytes_before} → {update.bytes_after} bytes)\n", "dim"),
    )
    then = Text("\nThen the note is discarded:", style="bold")
    parts: list[RenderableType] = [heading, diff_text(plan.diff)]
    missing = [Text(f"⚠ {w}", style="yellow") for w in plan.warnings if not w.startswith(LINK_NOTE)]
    if missing:  # a rewritten link shows in the diff; one to nothing would pass unseen there
        parts.append(Text.assemble("\n", _lines(missing, "")))
    return Group(*parts, then, discard_grid(plan.discard))


def batch_preview(batch: ProposalBatch) -> RenderableType:
    """Every proposal of a batch: what applying it does, or the refusal it meets today."""
    parts: list[RenderableType] = []
    for outcome in batch.outcomes:
        if parts:
            parts.append(Text(""))
        if outcome.refusal is not None:
            parts.append(Text.assemble(("✗ ", "bold red"), (outcome.path, "bold"), ("  refused, left as it is", "dim")))
            parts.append(Text(f"  {outcome.refusal}", style="red"))
            continue
        result = outcome.result
        if isinstance(result, PromoteResult):
            parts.append(Text.assemble(("✓ ", "bold green"), (f"{result.source}  →  {result.path}", "bold")))
            parts.append(promote_grid(result, outcome.index_lines))
        elif isinstance(result, DiscardResult):
            parts.append(Text.assemble(("✓ ", "bold green"), (f"{result.path}  to be discarded", "bold")))
            parts.append(discard_grid(result))
        elif isinstance(result, FoldResult):
            where = f"{result.update.path} § {result.update.section}"
            parts.append(
                Text.assemble(("✓ ", "bold green"), (f"{result.discard.path}  to be folded into  {where}", "bold"))
            )
            parts.append(fold_preview(FoldPlan.of(result)))
    return Group(*parts)


def proposal_preview(result: ExitResult, index_lines: tuple[tuple[str, str], ...]) -> RenderableType:
    """One proposal applied: a promotion's full preview, a fold's section diff, or the discard."""
    if isinstance(result, PromoteResult):
        return promote_preview(PromotePlan(result, index_lines))
    if isinstance(result, FoldResult):
        return fold_preview(FoldPlan.of(result))
    return discard_grid(result)
