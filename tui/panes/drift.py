"""The Drift pane: documents whose anchored code moved on in git after they last changed, and live
documents nobody touched while the code around them moved on.

Each drifted pair lists the commits that moved the code; anchors naming nothing are listed at any
threshold; an unanchored bank gets the core's honest note instead of looking clean. Below them, the
stale documents (no anchors needed) with the reason each is listed, most changed around them
first. Git runs in a worker, so a large history never blocks typing.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.drift import DEFAULT_THRESHOLD_DAYS, MAX_THRESHOLD_DAYS, Drift, check_drift
from memorybank.core.staleness import MAX_STALE_DAYS, Staleness, find_stale
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.widgets.cut_tree import CutTree
from memorybank.tui.widgets.steady_input import SteadyInput
from memorybank.tui.widgets.tree_cursor import place_cursor
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.validation import Integer
from textual.widgets import Input, Label, Static, Tree

STEP_DAYS = 30


class DriftPane(Pane):
    """Anchored documents against the git history of their code."""

    TITLE = "Drift"
    SUMMARY = "Documents whose anchored code was committed after them, anchors to nothing, and stale documents"
    BINDINGS = [
        Binding("plus,equals_sign", "threshold(1)", "Threshold ±30 days", key_display="+/-"),
        Binding("minus", "threshold(-1)", "-30 days", key_display="-", show=False),
        Binding("right_square_bracket", "stale_days(1)", "Stale ±30 days", key_display="]/["),
        Binding("left_square_bracket", "stale_days(-1)", "Stale -30 days", key_display="[", show=False),
        Binding("escape", "leave_threshold", "Drift", show=False),
    ]
    EXTRA_KEYS = (
        ("Enter", "open the document"),
        ("← · →", "fold or unfold a node, or go to its parent"),
    )
    COMMANDS_OFFERED = (
        PaletteCommand("Drift: check again", "Read the git history again", "check"),
        PaletteCommand("Drift: raise the threshold by 30 days", "Only wider gaps", "threshold(1)"),
        PaletteCommand("Drift: lower the threshold by 30 days", "Smaller gaps too", "threshold(-1)"),
        PaletteCommand("Drift: stale after 30 more days", "Only documents untouched longer", "stale_days(1)"),
        PaletteCommand("Drift: stale after 30 fewer days", "Documents touched more recently too", "stale_days(-1)"),
    )

    class PairChosen(DocumentChosen):
        """A drifted pair, a missing anchor or a stale document was chosen: open its document."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drift: Drift | None = None
        self.staleness: Staleness | None = None
        self._bank_days: int | None = None
        """The bank's own days (its dna/ sentence or the default), as last answered."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield Label("Code ahead by more than", classes="row-label")
            yield SteadyInput(
                str(DEFAULT_THRESHOLD_DAYS),
                placeholder=str(DEFAULT_THRESHOLD_DAYS),  # an emptied box shows the default it stands for
                type="integer",
                id="drift-threshold",
                max_length=4,
                validators=[Integer(minimum=0, maximum=MAX_THRESHOLD_DAYS)],
                valid_empty=True,
            )
            yield Label("days", classes="row-label")
            yield Label("Stale after", classes="row-label")
            yield SteadyInput(
                "",
                type="integer",
                id="stale-days",
                max_length=4,
                validators=[Integer(minimum=0, maximum=MAX_STALE_DAYS)],
                valid_empty=True,
            )
            yield Label("days", classes="row-label")
        yield Static("Reading git history…", id="drift-summary", classes="pane-heading")
        tree: CutTree[str | None] = CutTree("drift", id="drift-tree")
        tree.show_root = False
        tree.guide_depth = 2
        yield tree

    @property
    def threshold(self) -> int:
        """The days typed in, the default for an empty box.

        Raises:
            ValueError: the box holds no whole number of days from 0 to the most (the message says so).
        """
        box = self.query_one("#drift-threshold", Input)
        days = typed_days(box, MAX_THRESHOLD_DAYS, "Threshold", f"the default, {DEFAULT_THRESHOLD_DAYS}")
        return DEFAULT_THRESHOLD_DAYS if days is None else days

    @property
    def stale_days(self) -> int | None:
        """The days typed in, or None for the bank's own (an empty box, or the bank's number).

        Raises:
            ValueError: the box holds no whole number of days from 0 to the most (the message says so).
        """
        own = "the bank's own" + (f", {self._bank_days}" if self._bank_days is not None else "")
        days = typed_days(self.query_one("#stale-days", Input), MAX_STALE_DAYS, "Stale after", own)
        return None if days == self._bank_days else days

    @on(Input.Submitted, "#drift-threshold, #stale-days")
    def _submitted(self) -> None:
        for box, read in (("#drift-threshold", lambda: self.threshold), ("#stale-days", lambda: self.stale_days)):
            try:
                read()
            except ValueError as error:
                # Nothing is checked: the box keeps what was typed, for mending, and the answer on
                # screen stays the one its summary describes.
                self.notify(f"{error} Still showing the last answer.", title="Drift", severity="warning")
                self.query_one(box, Input).focus()
                return
        self.reload()
        self.query_one("#drift-tree", Tree).focus()

    def _asked(self) -> tuple[int, int | None]:
        """The threshold and stale days to check with: each box's number, or, while a box holds
        something else, the days the answer on screen was checked with."""
        try:
            threshold = self.threshold
        except ValueError:
            threshold = self.drift.threshold_days if self.drift is not None else DEFAULT_THRESHOLD_DAYS
        try:
            days = self.stale_days
        except ValueError:
            days = self.staleness.days if self.staleness is not None and self.staleness.days_from == "given" else None
        return threshold, days

    def reload(self) -> None:
        threshold, days = self._asked()
        self.run_core(
            lambda: (check_drift(self.bank, threshold_days=threshold), find_stale(self.bank, days=days)),
            self._checked,
            failed=self._failed,
            busy=self.query_one("#drift-summary", Static),
        )

    def _failed(self, error: BaseException) -> None:
        self.query_one("#drift-summary", Static).update(getattr(error, "message", str(error)))

    def _checked(self, answers: tuple[Drift, Staleness]) -> None:
        drift, staleness = answers
        self.drift, self.staleness = drift, staleness
        if staleness.days_from != "given":
            self._bank_days = staleness.days
            self.query_one("#stale-days", Input).value = str(staleness.days)
        summary = Text()
        if drift.mode == "git":
            summary.append(f"{len(drift.drifted)} drifted", style="bold")
            default = " (default)" if drift.threshold_days == DEFAULT_THRESHOLD_DAYS else ""
            summary.append(
                f", {count(len(drift.missing), 'missing anchor')}  ·  "
                f"{count(drift.anchored, 'anchored document')}, {drift.unanchored} without anchors  ·  "
                f"threshold {drift.threshold_days} days{default}"
            )
        if drift.note:
            summary.append(("\n" if drift.mode == "git" else "") + drift.note, style="italic")
        summary.append("\n")
        if staleness.mode == "git":
            summary.append(f"{len(staleness.stale)} stale", style="bold")
            source = "" if staleness.days_from == "given" else f" ({staleness.days_from})"
            summary.append(f"  ·  untouched > {staleness.days} days{source} while code moved on")
        if staleness.note:
            summary.append(("\n" if staleness.mode == "git" else "") + staleness.note, style="italic")
        heading = self.query_one("#drift-summary", Static)
        heading.update(summary)
        heading.set_class(bool(drift.note or staleness.note), "whole")  # a note is never cut

        tree = self.query_one("#drift-tree", Tree)
        tree.clear()
        if drift.mode == "git":
            self._show_drift(tree, drift)
        if staleness.mode == "git":
            self._show_stale(tree, staleness)
        if tree.root.children:
            place_cursor(tree, tree.root.children[0])

    def _show_drift(self, tree: Tree[str | None], drift: Drift) -> None:
        ahead = tree.root.add(Text(f"Code ahead of its document ({len(drift.drifted)})", style="bold"), expand=True)
        for pair in drift.drifted:
            label = Text(pair.path, style="bold")
            label.append(f"  ⇢ {pair.anchor}")
            label.append(f"  +{pair.ahead_days} days", style="bold yellow")
            label.append(f"  doc {pair.doc_touched[:10]}, code {pair.code_touched[:10]}", style="dim")
            node = ahead.add(label, data=pair.path, expand=True)
            for commit in pair.commits:
                line = Text(f"{commit.short_hash} ", style="bold")
                line.append(f"{commit.date[:10]}  ", style="dim")
                line.append(commit.subject)
                node.add_leaf(line, data=pair.path)
            if pair.commit_count > len(pair.commits):
                node.add_leaf(
                    Text(f"… {pair.commit_count - len(pair.commits)} older commits", style="dim"), data=pair.path
                )
        if not drift.drifted:
            ahead.add_leaf(
                Text(f"nothing is more than {drift.threshold_days} days behind its code", style="italic dim")
            )
        missing = tree.root.add(
            Text(f"Anchors that point at nothing ({len(drift.missing)})", style="bold"), expand=True
        )
        for anchor in drift.missing:
            label = Text(anchor.path, style="bold")
            label.append(f"  ⇢ {anchor.anchor}")
            label.append(f"  {anchor.reason}", style="italic red")
            missing.add_leaf(label, data=anchor.path)
        if drift.uncommitted:
            fresh = tree.root.add(Text(f"Never committed, cannot drift yet ({len(drift.uncommitted)})", style="bold"))
            for path in drift.uncommitted:
                fresh.add_leaf(path, data=path)

    def _show_stale(self, tree: Tree[str | None], staleness: Staleness) -> None:
        group = tree.root.add(
            Text(f"Untouched while the code moved on ({len(staleness.stale)})", style="bold"), expand=True
        )
        for doc in staleness.stale:
            label = Text(doc.path, style="bold")
            label.append(f"  {doc.age_days} days", style="bold yellow" if doc.named_files else "yellow")
            around = [f"{n} {what}" for n, what in ((doc.named_files, "named"), (doc.beside_files, "beside")) if n]
            if around:
                label.append("  " + ", ".join(around), style="dim")
            node = group.add(label, data=doc.path, expand=True)
            node.add_leaf(Text(doc.reason, style="dim"), data=doc.path)
            if doc.named:
                more = f" and {doc.named_files - len(doc.named)} more" if doc.named_files > len(doc.named) else ""
                node.add_leaf(Text("named: " + ", ".join(doc.named) + more), data=doc.path)
        if not staleness.stale:
            group.add_leaf(
                Text(
                    f"no live document is more than {staleness.days} days old with code committed after it",
                    style="italic dim",
                )
            )

    @on(Tree.NodeSelected, "#drift-tree")
    def _chosen(self, event: Tree.NodeSelected[str | None]) -> None:
        if event.node.data and event.node.data in self.bank:
            self.post_message(self.PairChosen(event.node.data))

    def action_threshold(self, step: int) -> None:
        days = min(max(self._asked()[0] + step * STEP_DAYS, 0), MAX_THRESHOLD_DAYS)
        self.query_one("#drift-threshold", Input).value = str(days)
        self.reload()

    def action_stale_days(self, step: int) -> None:
        days = self.staleness.days if self.staleness is not None else (self._bank_days or 0)
        days = min(max(days + step * STEP_DAYS, 0), MAX_STALE_DAYS)
        self.query_one("#stale-days", Input).value = str(days)
        self.reload()

    def action_check(self) -> None:
        self.reload()

    def action_leave_threshold(self) -> None:
        self.query_one("#drift-tree", Tree).focus()

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#drift-tree", Tree))


def typed_days(box: Input, most: int, what: str, empty: str) -> int | None:
    """The whole number of days typed in ``box`` (named ``what``), None when it is empty.

    Raises:
        ValueError: anything else (a sign alone, a negative number, more than ``most``), in words
            that say what the box takes and what an empty box stands for (``empty``).
    """
    text = box.value.strip()
    if not text:
        return None
    try:
        days = int(text)
    except ValueError:
        days = None
    if days is None or not 0 <= days <= most:
        wrong = "is not a number of days" if days is None else f"days are out of range (0 to {most})"
        raise ValueError(f"{what}: “{text}” {wrong}. Type 0 to {most}, or empty the box for {empty}.")
    return days
