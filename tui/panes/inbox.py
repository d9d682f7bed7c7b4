"""The Inbox pane: the notes agents captured in ``_inbox/``, oldest first, and the ways out.

Each note shows its age, who captured it and any agent proposal; beside its preview, the router's
candidates for its topic and the owners of the keys it names say whether to promote it (a new
fact) or fold it (a fact that already has an owner). Every action is one core call behind a
preview, and a refusal is shown in the core's words:

``p`` promote (a form, previewed) · ``f`` fold into the owner, then discard · ``d`` discard with
a reason · ``a`` apply the agent's proposal (previewed) · ``r`` reject it · ``space`` marks (or
unmarks) a note and moves to the next · ``A`` applies the marked ones' proposals after one combined
preview.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from memorybank.core import yamlio
from memorybank.core.write.fold import FoldResult
from memorybank.core.write.inbox import STALE_DAYS, DiscardResult, InboxEntry, PromoteResult, list_inbox
from memorybank.core.write.plan import Plan
from memorybank.core.write.proposals import apply_proposal
from memorybank.tui.dialogs.discard import DiscardDialog, Doomed
from memorybank.tui.dialogs.fold import FoldDialog
from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.dialogs.promote import PromoteDialog
from memorybank.tui.dialogs.reject import RejectDialog
from memorybank.tui.messages import BankWritten, DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.panes.inbox_bulk import BulkTriage
from memorybank.tui.panes.inbox_view import age, badge, origin, short_badge, where_it_belongs
from memorybank.tui.previews import proposal_preview
from memorybank.tui.proposals import Proposal
from memorybank.tui.triage import (
    FoldPlan,
    NoteView,
    PromotePlan,
    foldable_body,
    note_view,
    preview_apply,
    sections_of,
    suggested_promotion,
)
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Markdown, Static

EMPTY = "The inbox is empty."
ARRIVING = (
    "Notes land here when an agent captures one (bank_create with inbox: true) or someone runs "
    "`memorybank create PATH --inbox`. Each waits for you to promote it, fold it into its owner or "
    "discard it; an agent can only propose which."
)
KEYS = "p promote · f fold · d discard · a/r apply/reject a proposal · space marks and moves on, A applies marked"


class InboxPane(BulkTriage, Pane):
    """Notes in quarantine, and promote, fold, discard, apply and reject."""

    TITLE = "Inbox"
    SUMMARY = "Triage the notes agents captured: promote, fold, discard, apply or reject proposals"
    BINDINGS = [
        Binding("p", "promote", "Promote"),
        Binding("f", "fold", "Fold"),
        Binding("d", "discard", "Discard"),
        Binding("a", "apply", "Apply"),
        Binding("r", "reject", "Reject"),
        Binding("space", "mark", "Mark or unmark the note, then go to the next", key_display="␣", show=False),
        Binding("A", "apply_marked", "Apply marked", show=False),
        Binding("o", "open_candidate", "Open where it belongs", show=False),
        Binding("e", "edit", "Editor", show=False),
        Binding("G", "last_note", "Last note", show=False),
    ]
    EXTRA_KEYS = (("Enter", "open the note in the Document pane"),)
    COMMANDS_OFFERED = (
        PaletteCommand("Inbox: promote the selected note", "A form, a dry-run preview, then the move", "promote"),
        PaletteCommand(
            "Inbox: fold the selected note into its owner",
            "Update the owner's section (previewed), then discard the note",
            "fold",
        ),
        PaletteCommand("Inbox: discard the selected note", "A reason is required", "discard"),
        PaletteCommand("Inbox: apply the selected note's proposal", "Every gate runs again; previewed first", "apply"),
        PaletteCommand(
            "Inbox: reject the selected note's proposal", "The note stays; an optional note says why", "reject"
        ),
        PaletteCommand(
            "Inbox: mark or unmark the selected note",
            "Then the next note is selected; A applies the marked notes' proposals, d discards them",
            "mark",
        ),
        PaletteCommand(
            "Inbox: apply the marked proposals (or all)", "One combined preview, then each in turn", "apply_marked"
        ),
        PaletteCommand("Inbox: open where the selected note belongs", "The router's first candidate", "open_candidate"),
    )

    class NoteChosen(DocumentChosen):
        """A note (or the document it belongs in) was chosen: open it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries: list[InboxEntry] = []
        self.listed = False
        """Whether the notes have been listed once (until then an empty list says nothing)."""
        self.view: NoteView | None = None
        """The highlighted note, read, with where it belongs."""
        self.marked: set[str] = set()
        """Notes whose proposals ``A`` applies together."""
        self.typed_reasons: dict[tuple[str, ...], str] = {}
        """A discard reason typed, then kept with Esc, by the notes it was for: offered again."""

    def compose(self) -> ComposeResult:
        yield Static("Reading the inbox…", id="inbox-summary", classes="pane-heading")
        yield FittedTable(
            [
                Column("", 1),
                Column("Age", 5, justify="right"),
                Column("From", 14),  # "memorybank-cli", the CLI's own name, whole
                Column("Title", weight=3, fit=True),
                Column("Proposal", weight=2, least=8, cut=short_badge),
            ],
            id="inbox-notes",
        )
        with Horizontal(id="inbox-detail"):
            with VerticalScroll(id="inbox-preview"):
                yield Static("", id="inbox-path")
                yield Markdown(id="inbox-body", open_links=False)
                yield Static("", id="inbox-front")
            with VerticalScroll(id="inbox-where"):
                yield Static("", id="inbox-belongs")

    # -- the list --------------------------------------------------------------------------------

    def reload(self) -> None:
        self.run_core(lambda: list_inbox(self.bank), self._fill, busy=self.query_one("#inbox-summary", Static))

    def _fill(self, entries: list[InboxEntry]) -> None:
        # The core orders by whole days; within a day the capture time says which came first.
        entries = sorted(entries, key=lambda e: (-e.age_days, e.captured_at or "", e.path))
        table = self.query_one("#inbox-notes", FittedTable)
        keep = self.selected.path if self.selected else None
        row = table.cursor_row
        self.entries, self.listed = entries, True
        self.marked &= {e.path for e in entries}  # a mark stays while its note does, proposal or not
        table.set_rows([(self._cells(e), e.path) for e in entries], keep=keep)
        if entries and (keep is None or keep not in {e.path for e in entries}):
            table.move_cursor(row=min(max(row, 0), len(entries) - 1), animate=False)
        self._summarise()
        self._load_note()

    def _cells(self, entry: InboxEntry) -> list[str | Text]:
        mark = Text("●", style="bold") if entry.path in self.marked else Text(" ")
        when = Text(age(entry), style="bold yellow" if entry.stale else "", justify="right")
        proposal = Text(badge(entry.proposal), style="bold", no_wrap=True, overflow="ellipsis")
        return [mark, when, entry.captured_by or "?", entry.title, proposal]

    def _summarise(self) -> None:
        entries = self.entries
        summary = Text()
        if not entries:
            summary.append(EMPTY, style="italic")
        else:
            stale = sum(1 for e in entries if e.stale)
            proposals = sum(1 for e in entries if e.proposal)
            summary.append(count(len(entries), "note"), style="bold")
            summary.append(f" · {stale} stale (over {STALE_DAYS} days)", style="bold yellow" if stale else "dim")
            summary.append(f" · {count(proposals, 'proposal')}" if proposals else " · no proposals")
            if self.marked:
                summary.append(f" · {len(self.marked)} marked: d discards, A applies", style="bold")
            elif len(entries) > 1:
                summary.append(" (␣ marks)", style="dim")
            summary.append("  oldest first", style="dim")
        self.query_one("#inbox-summary", Static).update(summary)

    # -- the highlighted note --------------------------------------------------------------------

    @property
    def selected(self) -> InboxEntry | None:
        table = self.query_one("#inbox-notes", DataTable)
        row = table.cursor_row
        return self.entries[row] if 0 <= row < len(self.entries) else None

    @on(DataTable.RowHighlighted, "#inbox-notes")
    def _load_note(self) -> None:
        entry = self.selected
        if entry is None:
            self.forget("note")
            self.view = None
            self._show(None)
            return
        if self.view is not None and self.view.entry == entry:
            return
        self.run_core(
            lambda: note_view(self.bank, entry),
            self._show,
            failed=lambda _: self._show(None),
            channel="note",
            busy=self.query_one("#inbox-where"),
        )

    def _show(self, view: NoteView | None) -> None:
        """The note's body first (the table already names it), its frontmatter underneath."""
        self.view = view
        where = self.query_one("#inbox-path", Static)
        front = self.query_one("#inbox-front", Static)
        body = self.query_one("#inbox-body", Markdown)
        belongs = self.query_one("#inbox-belongs", Static)
        if view is None:
            where.update(Text(KEYS if self.entries else ARRIVING, style="dim"))
            body.update("")
            front.update("")
            belongs.update("")
            return
        where.update(Text.assemble((view.entry.path, "bold"), (f"  {origin(view.entry)}", "dim")))
        body.update(view.body)
        shown = {k: v for k, v in view.frontmatter.items() if k != "proposal"}
        front.update(Text(yamlio.dump(shown).rstrip("\n"), style="dim"))
        belongs.update(where_it_belongs(view))

    @on(DataTable.RowSelected, "#inbox-notes")
    def _chosen(self) -> None:
        entry = self.selected
        if entry is not None:
            self.post_message(self.NoteChosen(entry.path))

    # -- the actions -----------------------------------------------------------------------------

    def _ready(self, *, proposal: bool = False) -> NoteView | None:
        """The highlighted note, read; a warning instead when there is none (or no proposal)."""
        view = self.view
        entry = self.selected
        if entry is None:
            if not self.listed:
                said = "Still listing the notes; try again in a moment."
            else:
                said = "Select a note first." if self.entries else "The inbox is empty."
            self.notify(said, title="Inbox", severity="warning")
            return None
        if view is None or view.entry.path != entry.path:
            self.notify("Still reading the note; try again in a moment.", title="Inbox", severity="warning")
            return None
        if proposal and not entry.proposal:
            self.notify(
                f"{entry.path} carries no proposal. p promotes it, f folds it, d discards it.",
                title="Inbox",
                severity="warning",
            )
            return None
        return view

    def _written(self, message: str) -> None:
        self.notify(message, title="Inbox")
        self.post_message(BankWritten())

    def action_promote(self) -> None:
        view = self._ready()
        if view is None:
            return

        def done(plan: PromotePlan | None) -> None:
            if plan is not None:
                self._written(f"Promoted {plan.result.source} to {plan.result.path}.")

        self.app.push_screen(PromoteDialog(self.bank, suggested_promotion(view), origin=origin(view.entry)), done)

    def action_fold(self) -> None:
        view = self._ready()
        if view is None:
            return
        owner = next(
            (h for h in view.candidates if not h.path.endswith("README.md") and sections_of(self.bank, h.path)), None
        )

        def done(plan: FoldPlan | None) -> None:
            if plan is not None:
                self._written(f"Folded into {plan.update.path} § {plan.update.section}; {plan.discard.path} discarded.")

        self.app.push_screen(
            FoldDialog(
                self.bank,
                note=view.entry.path,
                into=owner.path if owner else "",
                section=owner.section if owner else None,
                content=foldable_body(view.body),
                origin=origin(view.entry),
            ),
            done,
        )

    def action_discard(self) -> None:
        """Discard the marked notes together, or the highlighted one, with one reason."""
        marked = [Doomed(e.path, e.title) for e in self.entries if e.path in self.marked]
        reason = ""
        if not marked:
            view = self._ready()
            if view is None:
                return
            marked = [Doomed(view.entry.path, view.entry.title)]
            proposal = Proposal.of(view.entry.proposal)
            reason = proposal.reason if proposal and proposal.action == "discard" else ""

        key = tuple(sorted(note.path for note in marked))
        typed = self.typed_reasons
        reason = typed.get(key) or reason

        def done(results: list[DiscardResult] | None) -> None:
            if not results:
                typed[key] = dialog.reason
                return
            typed.pop(key, None)
            self.marked.clear()
            if len(results) == 1:
                self._written(f"Discarded {results[0].path}: {results[0].reason}")
            else:
                self._written(f"Discarded {count(len(results), 'note')}: {results[0].reason}")

        dialog = DiscardDialog(self.bank, notes=marked, reason=reason)
        self.app.push_screen(dialog, done)

    def action_apply(self) -> None:
        view = self._ready(proposal=True)
        if view is None:
            return
        path = view.entry.path

        self.run_core(lambda: preview_apply(self.bank, path), partial(self._confirm_apply, path), channel="write")

    def _confirm_apply(
        self, path: str, value: tuple[PromoteResult | DiscardResult | FoldResult, tuple[tuple[str, str], ...], Plan]
    ) -> None:
        result, lines, plan = value
        proposal = Proposal.of(next((e.proposal for e in self.entries if e.path == path), None))

        def answered(go: bool | None) -> None:
            if go:
                self.run_core(lambda: apply_proposal(self.bank, path=path, shown=plan), self._applied, channel="write")

        self.app.push_screen(
            PreviewDialog(
                f"Apply the proposal: {proposal.describe() if proposal else path}",
                proposal_preview(result, lines),
                confirm="Apply",
            ),
            answered,
        )

    def _applied(self, result: PromoteResult | DiscardResult | FoldResult) -> None:
        if isinstance(result, PromoteResult):
            self._written(f"Applied: promoted {result.source} to {result.path}.")
        elif isinstance(result, FoldResult):
            update = result.update
            self._written(f"Applied: folded into {update.path} § {update.section}; {result.discard.path} discarded.")
        else:
            self._written(f"Applied: discarded {result.path} ({result.reason}).")

    def action_reject(self) -> None:
        view = self._ready(proposal=True)
        proposal = Proposal.of(view.entry.proposal) if view is not None else None
        if view is None or proposal is None:
            return
        path = view.entry.path

        def done(rejected: dict[str, Any] | None) -> None:
            if rejected is not None:
                self._written(f"Rejected the {proposal.action} proposal on {path}; the note stays.")

        self.app.push_screen(RejectDialog(self.bank, note=path, proposal=proposal), done)

    def action_open_candidate(self) -> None:
        view = self.view
        if view is None:
            self.notify("No note is highlighted: the inbox is empty.", title="Inbox", severity="warning")
            return
        if not view.candidates:
            self.notify("No document to open: the router found none for this note.", title="Inbox", severity="warning")
            return
        hit = view.candidates[0]
        self.post_message(self.NoteChosen(hit.path, section=hit.section))

    def action_last_note(self) -> None:
        """G, as in less: the last (newest) note."""
        self.query_one("#inbox-notes", FittedTable).action_last_row()

    def action_edit(self) -> None:
        entry = self.selected
        if entry is not None:
            self.app.open_in_editor(self.bank.root / entry.path)  # type: ignore[attr-defined]

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#inbox-notes", DataTable))
