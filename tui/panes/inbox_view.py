"""What the Inbox pane shows of one note: its age and origin, its proposal, where it belongs."""

from __future__ import annotations

from typing import Any

from memorybank.core.write.inbox import STALE_DAYS, InboxEntry
from memorybank.tui.panes.base import count
from memorybank.tui.proposals import Proposal
from memorybank.tui.triage import NoteView
from memorybank.tui.widgets.path_cut import cut_apart, cut_path
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text


def age(entry: InboxEntry) -> str:
    return "today" if entry.age_days == 0 else f"{entry.age_days}d"


def origin(entry: InboxEntry) -> str:
    """Where a note came from, one line."""
    who = entry.captured_by or "an unknown client"
    when = f" at {entry.captured_at}" if entry.captured_at else ""
    days = "today" if entry.age_days == 0 else f"{count(entry.age_days, 'day')} ago"
    stale = f", stale: over {STALE_DAYS} days in the inbox" if entry.stale else ""
    return f"Captured by {who}{when} ({days}{stale})."


def badge(raw: dict[str, Any] | None) -> str:
    proposal = Proposal.of(raw)
    return proposal.badge if proposal else ""


def short_badge(badge: str, width: int) -> str:
    """A proposal's badge in ``width`` cells: its destination cut in the middle after the action
    while a few cells of it fit (``promote→…/calendar.md``), else the action alone."""
    action, arrow, to = badge.partition("→")
    room = width - cell_len(action) - 1
    path, _, _ = to.partition(" § ")  # a fold's section goes first, its document's name last
    if arrow and room >= 12:
        return f"{action}→{cut_path(path, room)}"
    return action if cell_len(action) <= width else action[: max(width - 1, 0)] + "…"


class PathLine:
    """A lead and a bank path on one line, the path cut in the middle to the width it is drawn at
    (``1 issues/0004-s…/…/plan-v2.md``): siblings differ at their ends. Given the paths listed with it,
    it is cut so that none of them shows alike (``cut_apart``)."""

    def __init__(self, lead: Text, path: str, among: tuple[str, ...] = ()) -> None:
        self.lead, self.path, self.among = lead, path, among or (path,)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(options.max_width - self.lead.cell_len, 1)
        shown = cut_apart(list(self.among), room)[self.among.index(self.path)]
        yield Text.assemble(self.lead, shown, no_wrap=True, overflow="ellipsis")


def where_it_belongs(view: NoteView) -> Group:
    """The proposal, if any, then the router's candidates and the owners of the keys the note
    names; a path is cut at the column's edge rather than wrapped mid-name."""
    lines: list[Text | PathLine] = []

    def line(*parts: str | tuple[str, str]) -> None:
        lines.append(Text.assemble(*parts, no_wrap=True, overflow="ellipsis"))

    proposal = Proposal.of(view.entry.proposal)
    if proposal:
        line((f"Proposal by {proposal.proposed_by}", "bold reverse"))
        lines.append(Text(proposal.headline, style="bold"))
        if proposal.reason:
            lines.append(Text(f"“{proposal.reason}”", style="italic"))
        lines.append(Text("a applies it (previewed) · r rejects it\n", style="dim"))
    line(("Where it belongs", "bold underline"))
    if not view.candidates:
        lines.append(Text("The router finds no document on this topic: a new fact, to promote.", style="italic"))
    listed = tuple(hit.path for hit in view.candidates)
    for number, hit in enumerate(view.candidates, 1):
        lines.append(PathLine(Text(f"{number} ", style="bold"), hit.path, listed))
        if hit.section:
            line((f"  § {hit.section}", "dim"))
        if hit.breakdown.canonical_key:
            line(("  owns ", "dim"), (hit.breakdown.canonical_key, "green"))
    shown = {hit.breakdown.canonical_key for hit in view.candidates}
    owners = [(key, paths) for key, paths in view.owners if key not in shown]
    if owners:
        line(("\nKeys it names, and their owners", "bold underline"))
        for key, paths in owners:
            line((key, "bold green"), f" → {', '.join(paths)}")
    lines.append(Text("\no opens the first · f folds into it", style="dim"))
    return Group(*lines)
