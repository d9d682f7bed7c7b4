"""The fold form: put a note's fact into the document that already owns it, then let the note go.

Choose the owner document (completed from the bank) and one of its sections, append or replace,
and edit the text to fold. The preview shows the section's diff and the discard that follows,
whose reason is filled in ("folded into PATH#Section"); confirming writes the section, then
discards the note. A refusal is shown verbatim and the form stays as typed. A form cancelled after
edits keeps them as the note's draft: folding the same note again starts from them, and ctrl+r
starts over from the note.
"""

from __future__ import annotations

from memorybank.core.bank import Bank
from memorybank.tui.dialogs.core_dialog import DIALOG_CSS, CoreDialog
from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.previews import fold_preview
from memorybank.tui.triage import FoldPlan, apply_fold, document_paths, plan_fold, sections_of
from memorybank.tui.widgets.completing_input import CompletingInput
from memorybank.tui.widgets.form_select import FormSelect
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static, TextArea

HINT = "Enter or ctrl+s previews · space opens a list · Tab moves on · Esc cancels"
TEXT_HINT = "ctrl+s previews · Enter starts a new line here · Tab moves on · Esc cancels"
"""The hint while the text has the focus, where Enter is a line break, not a preview."""
MODES = [("append to the section", "append"), ("replace the section", "replace")]

EDITED = "  ·  your edits from before (ctrl+r starts over from the note)"

DRAFTS: dict[tuple[str, str], dict[str, str]] = {}
"""Per bank and note, the fields of a fold form cancelled after edits (kept while the app runs)."""


class FoldDialog(CoreDialog[FoldPlan | None]):
    """Fold one note into its owner; dismisses with what was written, or None when cancelled."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="FoldDialog")
        + """
    FoldDialog TextArea {
        height: 6;
    }
    FoldDialog #fold-label {
        margin-bottom: 0;
    }
    """
    )
    FIELDS = {"path": "Into", "section": "Section", "mode": "Mode", "content": "Text to fold"}
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "preview", "Preview"),
        Binding("enter", "preview", "Preview", show=False),
        Binding("ctrl+r", "start_over", "Start over", show=False),
    ]

    def __init__(
        self, bank: Bank, *, note: str, into: str = "", section: str | None = None, content: str = "", origin: str = ""
    ) -> None:
        super().__init__(bank)
        self.note = note
        self.offered = dict(into=into, section=section or "", content=content, mode="append")
        draft = DRAFTS.get(self._key)
        self.drafted = draft is not None
        fields = draft or self.offered
        self.into, self.section, self.content = fields["into"], fields["section"] or None, fields["content"]
        self.mode = fields["mode"]
        self.captured = origin
        """Where the note came from, one line (client, age)."""
        self.origin = origin + (EDITED if self.drafted else "")
        self.plan: FoldPlan | None = None
        """The last preview shown."""

    @property
    def _key(self) -> tuple[str, str]:
        return str(self.bank.root), self.note

    def compose(self) -> ComposeResult:
        sections = sections_of(self.bank, self.into)
        chosen = self.section if self.section in sections else (sections[0] if sections else Select.NULL)
        with Vertical():
            yield Label(f"Fold {self.note} into its owner", classes="dialog-title", markup=False)
            yield Static(self.origin or " ", classes="dialog-note", markup=False)
            yield self._field(
                "Into",
                CompletingInput(
                    self.into,
                    candidates=document_paths(self.bank),
                    id="fold-into",
                    compact=True,
                    placeholder="the owner document's path",
                ),
            )
            yield self._field(
                "Section",
                FormSelect(
                    [(Text(s), s) for s in sections],  # the bank's text, never markup; a letter typed finds it
                    value=chosen,
                    id="fold-section",
                    compact=True,
                    prompt="choose a ## section",
                    allow_blank=not sections,
                ),
            )
            yield self._field(
                "Mode", FormSelect(MODES, value=self.mode, allow_blank=False, id="fold-mode", compact=True)
            )
            yield Label(
                "Text to fold; edit it to read well in its new place (f7 selects all):",
                id="fold-label",
                classes="dialog-note",
            )
            yield TextArea(self.content, id="fold-content", soft_wrap=True, show_line_numbers=False)
            yield Static("", classes="dialog-error")
            yield Static(HINT, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel (esc)", id="cancel", compact=True)
                yield Button("Preview (enter)", id="preview", variant="primary", compact=True)

    @staticmethod
    def _field(label: str, widget: Input | Select[str]) -> Horizontal:
        return Horizontal(Label(label, classes="field-label"), widget, classes="field")

    def on_mount(self) -> None:
        target = "#fold-into" if not self.into else "#fold-section"
        self.query_one(target).focus()

    def action_cancel(self) -> None:
        """Close the form; what was changed in it is kept for the next fold of this note."""
        fields = self._fields()
        now = dict(into=fields["path"], section=fields["section"], content=fields["content"], mode=fields["mode"])
        if now != self.offered:
            DRAFTS[self._key] = now
        super().action_cancel()

    def action_start_over(self) -> None:
        """Put back what the form first offered for this note; the edits kept from before are dropped."""
        DRAFTS.pop(self._key, None)
        self.section = self.offered["section"] or None
        self.query_one("#fold-into", Input).value = self.offered["into"]
        self._follow_owner(self.offered["into"])
        self.query_one("#fold-mode", Select).value = self.offered["mode"]
        self.query_one("#fold-content", TextArea).text = self.offered["content"]
        self.query_one(".dialog-note", Static).update(self.captured or " ")

    # -- the form ------------------------------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        in_text = isinstance(event.widget, TextArea)
        self.query_one(".dialog-hint", Static).update(TEXT_HINT if in_text else HINT)

    @on(Input.Changed, "#fold-into")
    def _owner_changed(self, event: Input.Changed) -> None:
        self._follow_owner(event.value.strip())

    @on(Select.Changed, "#fold-section")
    def _section_chosen(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL:
            self.section = str(event.value)

    def _follow_owner(self, path: str) -> None:
        """The section list is the named owner's: empty while the path names no document (or one
        without a ``##`` section), and the section chosen last is chosen again when it is there."""
        sections = sections_of(self.bank, path)
        select = self.query_one("#fold-section", Select)
        select._allow_blank = not sections  # Select refuses an empty list otherwise
        select.set_options([(Text(s), s) for s in sections])
        if sections:
            select.value = self.section if self.section in sections else sections[0]
        with self.bank.lock:
            bare = not sections and path in self.bank.documents
        select.prompt = f"{path} has no ## section to fold into" if bare else "choose a ## section"

    def _fields(self) -> dict[str, str]:
        section = self.query_one("#fold-section", Select).value
        return dict(
            note=self.note,
            path=self.query_one("#fold-into", Input).value.strip(),
            section="" if section is Select.NULL else str(section),
            content=self.query_one("#fold-content", TextArea).text,
            mode=str(self.query_one("#fold-mode", Select).value),
        )

    # -- preview, then write ---------------------------------------------------------------------

    @on(Input.Submitted)
    @on(Button.Pressed, "#preview")
    def action_preview(self) -> None:
        into = self.query_one("#fold-into", CompletingInput)
        shown = into._suggestion  # the dimmed rest of a path is the owner meant, as in the promote form
        typed = into.value.strip()
        if shown and into.cursor_at_end and sections_of(self.bank, shown) and not sections_of(self.bank, typed):
            into.value = shown
            self._follow_owner(shown)
        fields = self._fields()
        self.run_core(lambda: plan_fold(self.bank, **fields), self._confirm)

    def _confirm(self, plan: FoldPlan) -> None:
        self.plan = plan
        fields = self._fields()

        def answered(go: bool | None) -> None:
            if go:
                DRAFTS.pop(self._key, None)  # written, or refused with the form still open
                self.run_core(lambda: apply_fold(self.bank, **fields, shown=plan.plan))

        title = f"Fold into {plan.update.path} § {plan.update.section}?"
        self.app.push_screen(
            PreviewDialog(title, fold_preview(plan), confirm="Fold and discard", back="Back to the form"), answered
        )
