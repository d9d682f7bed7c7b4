"""The Findings pane: what ``validate`` reports, grouped by rule with errors first.

Severity and rule filters go to the core's ``validate``; the path box narrows what is shown. The
highlighted finding's rule is explained underneath (what it catches, why it matters, the fix).
Enter opens the document at the finding's line; ``e`` opens ``$EDITOR`` there.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.validate import RULES, Finding, ValidationReport, validate
from memorybank.core.validate.registry import ordered_rules
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.widgets.chooser import Chooser
from memorybank.tui.widgets.cut_tree import CutTree
from memorybank.tui.widgets.path_cut import cut_path
from memorybank.tui.widgets.steady_input import SteadyInput
from memorybank.tui.widgets.tree_cursor import place_cursor
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Static, Tree

ALL = "all"


class FindingsPane(Pane):
    """Validation findings, filterable, each one a jump to its line."""

    TITLE = "Findings"
    SUMMARY = "Validation findings grouped by rule, errors first; jump to the line"
    BINDINGS = [
        Binding("e", "edit", "Editor"),
        Binding("v", "revalidate", "Re-validate"),
        Binding("slash", "filter", "Filter by path", key_display="/", show=False, priority=True),
        Binding("escape", "leave_filter", "Findings", show=False),
    ]
    EXTRA_KEYS = (
        ("Enter", "open the document in source, at the finding's line"),
        ("← · →", "fold or unfold a rule's group"),
        ("Tab", "to the severity and rule filters: Enter lists them, a letter picks one, Enter chooses"),
    )
    COMMANDS_OFFERED = (
        PaletteCommand("Findings: re-run validation", "Check the disk and validate every document again", "revalidate"),
        PaletteCommand("Findings: filter by path", "Type part of a path", "filter"),
        PaletteCommand("Findings: show errors only", "Severity filter", "severity('error')"),
        PaletteCommand("Findings: show every severity", "Clear the severity filter", "severity('all')"),
        PaletteCommand("Findings: open the selected finding in $EDITOR", "At the finding's line", "edit"),
    )

    class FindingChosen(DocumentChosen):
        """A finding was chosen: open its document at its line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.report: ValidationReport | None = None
        self.shown: list[Finding] = []
        """The findings in the tree, after the path filter."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield SteadyInput(placeholder="filter by path", id="findings-path", select_on_focus=False)
            yield Chooser(
                [("all severities", ALL), ("errors", "error"), ("warnings", "warning")], ALL, id="findings-severity"
            )
            yield Chooser([("all rules", ALL)] + [(r.name, r.name) for r in ordered_rules()], ALL, id="findings-rule")
        yield Static("Validating…", id="findings-summary", classes="pane-heading")
        tree: CutTree[Finding | None] = CutTree("findings", id="findings-tree")
        tree.show_root = False
        tree.guide_depth = 2
        yield tree
        with VerticalScroll(id="findings-detail", classes="detail"):
            yield Static("", id="findings-rule-doc")

    # -- asking -----------------------------------------------------------------------------

    def _choice(self, selector: str) -> str | None:
        value = self.query_one(selector, Chooser).value
        return None if value == ALL else str(value)

    @on(Chooser.Changed)
    def _filter_changed(self) -> None:
        if self.generation >= 0:  # a choice made before the first index waits for it
            self.reload()

    @on(Input.Changed, "#findings-path")
    def _path_changed(self) -> None:
        if self.report is not None:
            self._fill(self.report)

    @on(Input.Submitted, "#findings-path")
    def _path_submitted(self) -> None:
        self.query_one("#findings-tree", Tree).focus()

    def reload(self, *, recheck: bool = False) -> None:
        severity, rule = self._choice("#findings-severity"), self._choice("#findings-rule")
        bank = self.bank

        def call() -> ValidationReport:
            if recheck:
                bank.refresh()
            return validate(bank, severity=severity, rule=rule)

        before = self.report if recheck else None
        self.run_core(
            call, lambda report: self._validated(report, before), busy=self.query_one("#findings-summary", Static)
        )

    def _validated(self, report: ValidationReport, before: ValidationReport | None = None) -> None:
        self.report = report
        self._fill(report)
        if before is not None:  # asked for with v: say it ran, and what moved
            same = [(f.rule, f.path, f.line) for f in before.findings] == [
                (f.rule, f.path, f.line) for f in report.findings
            ]
            told = "no change" if same else f"was {count(before.errors, 'error')}, {count(before.warnings, 'warning')}"
            self.notify(
                f"{count(report.errors, 'error')}, {count(report.warnings, 'warning')} ({told}).",
                title="Validated again",
                timeout=3,
            )

    # -- showing ------------------------------------------------------------------------------

    def _fill(self, report: ValidationReport) -> None:
        needle = self.query_one("#findings-path", Input).value.strip().lower()
        self.shown = [f for f in report.findings if needle in f.path.lower()]
        errors = sum(1 for f in self.shown if f.severity == "error")
        summary = Text()
        filtered = needle or self._choice("#findings-severity") or self._choice("#findings-rule")
        if not self.shown:
            why = " match these filters." if report.total or filtered else ": the bank is clean."
            summary.append("No findings" + why, style="bold")
        else:
            summary.append(count(len(self.shown), "finding"), style="bold")
            summary.append(f": {count(errors, 'error')}, {count(len(self.shown) - errors, 'warning')}")
            if filtered:
                summary.append("  (filtered)", style="dim")
        self.query_one("#findings-summary", Static).update(summary)

        tree = self.query_one("#findings-tree", Tree)
        keep = tree.cursor_node.data if tree.cursor_node is not None else None
        # A finding fixed (in the editor, say) is gone: the cursor goes to the one that followed it,
        # not back to the top, so the owner working down the list keeps their place.
        shown_before = [leaf.data for group in tree.root.children for leaf in group.children]
        place = shown_before.index(keep) if isinstance(keep, Finding) and keep in shown_before else None
        listed: list[Any] = []
        tree.clear()
        groups: dict[str, list[Finding]] = {}
        for finding in self.shown:
            groups.setdefault(finding.rule, []).append(finding)
        order = sorted(groups, key=lambda r: (groups[r][0].severity != "error", RULES[r].rank if r in RULES else 99))
        target = None
        for name in order:
            found = groups[name]
            error = found[0].severity == "error"
            label = Text("✗ " if error else "⚠ ", style="bold red" if error else "bold yellow")
            label.append(name, style="bold")
            label.append(f"  {len(found)} {found[0].severity}{'s' if len(found) > 1 else ''}", style="dim")
            group = tree.root.add(label, data=name, expand=True)  # a rule's heading holds its name
            room = max((tree.size.width or self.app.size.width) * 3 // 5, 24)  # the rest for the message
            for finding in found:
                where = cut_path(finding.path, room) + (f":{finding.line}" if finding.line else "")
                leaf = Text(where, style="bold")
                leaf.append(f"  {finding.message}")
                node = group.add_leaf(leaf, data=finding)
                listed.append(node)
                if target is None or finding == keep:
                    target = node
        if listed and place is not None and keep not in self.shown:
            target = listed[min(place, len(listed) - 1)]
        if target is not None:
            place_cursor(tree, target)
            first_group = tree.root.children[0]
            if first_group.children and target is first_group.children[0]:
                # Scrolling the cursor into view before the tree is laid out can leave it one line
                # down, hiding the first rule's header: show the top once it is laid out.
                tree.call_after_refresh(tree.scroll_home, animate=False)
        self._describe(target.data if target is not None else None)

    def _describe(self, finding: Finding | None) -> None:
        doc = self.query_one("#findings-rule-doc", Static)
        if finding is None:
            doc.update("")
            return
        rule = RULES.get(finding.rule)
        text = Text()
        text.append(f"{finding.path}:{finding.line}" if finding.line else finding.path, style="bold")
        text.append("\n")
        text.append(f"{finding.rule}", style="bold")
        text.append(f" ({finding.severity})  ", style="dim")
        text.append(finding.message + "\n")
        if rule is not None:
            text.append(rule.doc.replace("``", "`"), style="dim")
        doc.update(text)

    def _describe_rule(self, name: str, shown: int) -> None:
        """A rule's heading: what the rule checks, not the finding last shown."""
        rule = RULES.get(name)
        text = Text(name, style="bold")
        text.append(f"  {count(shown, 'finding')} under this rule\n", style="dim")
        if rule is not None:
            text.append(rule.doc.replace("``", "`"), style="dim")
        self.query_one("#findings-rule-doc", Static).update(text)

    @on(Tree.NodeHighlighted, "#findings-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[Finding | str | None]) -> None:
        if isinstance(event.node.data, Finding):
            self._describe(event.node.data)
        elif isinstance(event.node.data, str):
            self._describe_rule(event.node.data, len(event.node.children))

    @on(Tree.NodeSelected, "#findings-tree")
    def _chosen(self, event: Tree.NodeSelected[Finding | str | None]) -> None:
        finding = event.node.data
        if isinstance(finding, Finding) and finding.path in self.bank:
            self.post_message(self.FindingChosen(finding.path, line=finding.line or 1))

    # -- actions --------------------------------------------------------------------------------

    @property
    def selected(self) -> Finding | None:
        node = self.query_one("#findings-tree", Tree).cursor_node
        return node.data if node is not None and isinstance(node.data, Finding) else None

    def action_edit(self) -> None:
        finding = self.selected
        if finding is None:
            self.notify("Select a finding first.", title="Findings", severity="warning")
            return
        self.app.open_in_editor(self.bank.root / finding.path, finding.line or 1)  # type: ignore[attr-defined]

    def action_revalidate(self) -> None:
        self.reload(recheck=True)

    def action_filter(self) -> None:
        self.focus_now(self.query_one("#findings-path", Input))

    def action_leave_filter(self) -> None:
        self.focus_now(self.query_one("#findings-tree", Tree))

    def action_severity(self, severity: str) -> None:
        self.query_one("#findings-severity", Chooser).value = severity

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#findings-tree", Tree))
