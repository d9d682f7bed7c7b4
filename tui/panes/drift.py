"""The Drift pane: documents whose anchored code moved on in git after they last changed.

Each drifted pair lists the commits that moved the code; anchors naming nothing are listed at any
threshold; an unanchored bank gets the core's honest note instead of looking clean. Git runs in a
worker, so a large history never blocks typing.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.drift import DEFAULT_THRESHOLD_DAYS, MAX_THRESHOLD_DAYS, Drift, check_drift
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.widgets.tree_cursor import place_cursor
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Label, Static, Tree

STEP_DAYS = 30


class DriftPane(Pane):
    """Anchored documents against the git history of their code."""

    TITLE = "Drift"
    SUMMARY = "Documents whose anchored code was committed after them, and anchors to nothing"
    BINDINGS = [
        Binding("plus,equals_sign", "threshold(1)", "Threshold ±30 days", key_display="+/-"),
        Binding("minus", "threshold(-1)", "-30 days", key_display="-", show=False),
        Binding("escape", "leave_threshold", "Drift", show=False),
    ]
    COMMANDS_OFFERED = (
        PaletteCommand("Drift: check again", "Read the git history again", "check"),
        PaletteCommand("Drift: raise the threshold by 30 days", "Only wider gaps", "threshold(1)"),
        PaletteCommand("Drift: lower the threshold by 30 days", "Smaller gaps too", "threshold(-1)"),
    )

    class PairChosen(DocumentChosen):
        """A drifted pair or a missing anchor was chosen: open its document."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drift: Drift | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield Label("Code ahead by more than", classes="row-label")
            yield Input(str(DEFAULT_THRESHOLD_DAYS), type="integer", id="drift-threshold", max_length=4)
            yield Label("days", classes="row-label")
        yield Static("Reading git history…", id="drift-summary", classes="pane-heading")
        tree: Tree[str | None] = Tree("drift", id="drift-tree")
        tree.show_root = False
        tree.guide_depth = 2
        yield tree

    @property
    def threshold(self) -> int:
        text = self.query_one("#drift-threshold", Input).value.strip()
        return int(text) if text.lstrip("-").isdigit() else DEFAULT_THRESHOLD_DAYS

    @on(Input.Submitted, "#drift-threshold")
    def _submitted(self) -> None:
        self.reload()
        self.query_one("#drift-tree", Tree).focus()

    def reload(self) -> None:
        threshold = self.threshold
        self.run_core(
            lambda: check_drift(self.bank, threshold_days=threshold),
            self._checked,
            failed=self._failed,
            busy=self.query_one("#drift-summary", Static),
        )

    def _failed(self, error: BaseException) -> None:
        self.query_one("#drift-summary", Static).update(getattr(error, "message", str(error)))

    def _checked(self, drift: Drift) -> None:
        self.drift = drift
        summary = Text()
        if drift.mode == "git":
            summary.append(f"{len(drift.drifted)} drifted", style="bold")
            summary.append(
                f", {count(len(drift.missing), 'missing anchor')}  ·  "
                f"{count(drift.anchored, 'anchored document')}, {drift.unanchored} without anchors  ·  "
                f"threshold {drift.threshold_days} days"
            )
        if drift.note:
            summary.append(("\n" if drift.mode == "git" else "") + drift.note, style="italic")
        heading = self.query_one("#drift-summary", Static)
        heading.update(summary)
        heading.set_class(drift.mode != "git", "whole")  # the note is all there is: never cut it

        tree = self.query_one("#drift-tree", Tree)
        tree.clear()
        if drift.mode != "git":
            return
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
        if tree.root.children:
            place_cursor(tree, tree.root.children[0])

    @on(Tree.NodeSelected, "#drift-tree")
    def _chosen(self, event: Tree.NodeSelected[str | None]) -> None:
        if event.node.data and event.node.data in self.bank:
            self.post_message(self.PairChosen(event.node.data))

    def action_threshold(self, step: int) -> None:
        days = min(max(self.threshold + step * STEP_DAYS, 0), MAX_THRESHOLD_DAYS)
        self.query_one("#drift-threshold", Input).value = str(days)
        self.reload()

    def action_check(self) -> None:
        self.reload()

    def action_leave_threshold(self) -> None:
        self.query_one("#drift-tree", Tree).focus()

    def focus_default(self) -> None:
        self.query_one("#drift-tree", Tree).focus()
