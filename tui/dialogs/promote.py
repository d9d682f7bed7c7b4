"""The promote form: where a note goes and what it says about itself, previewed before it moves.

Enter runs ``promote`` as a dry run and shows exactly what it would write (frontmatter, template,
index line, rewritten links, warnings); confirming runs it for real. A refusal, at either step,
is shown verbatim in the form, which keeps everything typed in it. A form cancelled after edits
keeps them, as the fold form does: promoting the same note again starts from them, and ctrl+r
starts over from the note.
"""

from __future__ import annotations

from memorybank.core.bank import Bank
from memorybank.tui.dialogs.core_dialog import DIALOG_CSS, CoreDialog
from memorybank.tui.dialogs.fold import EDITED
from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.previews import promote_preview
from memorybank.tui.triage import (
    PromotePlan,
    PromoteRequest,
    destinations,
    doc_kinds,
    document_paths,
    kind_for,
    plan_promote,
)
from memorybank.tui.widgets.completing_input import CompletingInput
from memorybank.tui.widgets.steady_input import SteadyInput
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

HINT = "Tab completes or moves on · Enter previews (writes nothing) · Esc cancels"

DRAFTS: dict[tuple[str, str], PromoteRequest] = {}
"""Per bank and note, a promote form cancelled after edits (kept while the app runs)."""


def _csv(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


class PromoteDialog(CoreDialog[PromotePlan | None]):
    """Promote one note; dismisses with what was written, or None when cancelled."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PromoteDialog")
    FIELDS = {
        "to": "Destination",
        "docKind": "Kind",
        "title": "Title",
        "purpose": "Purpose",
        "derivedFrom": "Derived from",
        "canonicalFor": "Canonical for",
    }
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+r", "start_over", "Start over", show=False)]

    def __init__(self, bank: Bank, request: PromoteRequest, *, origin: str = "") -> None:
        super().__init__(bank)
        self.offered = request
        """What the form first offers for this note."""
        self._key = (str(bank.root), request.note)
        draft = DRAFTS.get(self._key)
        self.request = draft or request
        self.captured = origin
        """Where the note came from, one line (client, age)."""
        self.origin = origin + (EDITED if draft is not None else "")
        self._destination = self.request.to
        """The destination the kind last followed."""

    def compose(self) -> ComposeResult:
        r = self.request
        with Vertical():
            yield Label(f"Promote {r.note}", classes="dialog-title", markup=False)
            yield Static(self.origin or " ", classes="dialog-note", markup=False)
            yield self._field(
                "Destination",
                CompletingInput(
                    r.to,
                    candidates=destinations(self.bank, r.note),
                    id="promote-to",
                    compact=True,
                    placeholder="folder/name.md",
                ),
            )
            yield self._field(
                "Kind",
                CompletingInput(
                    r.doc_kind,
                    candidates=doc_kinds(self.bank),
                    ranked=True,
                    id="promote-kind",
                    compact=True,
                    placeholder="doc_kind, e.g. domain",
                ),
            )
            yield self._field("Title", SteadyInput(r.title, id="promote-title", compact=True, select_on_focus=False))
            yield self._field(
                "Purpose",
                SteadyInput(
                    r.purpose,
                    id="promote-purpose",
                    compact=True,
                    placeholder="one sentence: when to read it",
                    select_on_focus=False,  # filled from the note: a key adds to it, never wipes it
                ),
            )
            yield self._field(
                "Derived from",
                CompletingInput(
                    ", ".join(r.derived_from),
                    id="promote-derived",
                    candidates=document_paths(self.bank),
                    multi=True,
                    compact=True,
                    placeholder="bank paths, comma-separated",
                ),
            )
            yield self._field(
                "Canonical for",
                SteadyInput(
                    ", ".join(r.canonical_for),
                    id="promote-canonical",
                    compact=True,
                    placeholder="keys this document owns, comma-separated",
                    select_on_focus=False,
                ),
            )
            yield Static("", classes="dialog-error")
            yield Static(HINT, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel (esc)", id="cancel", compact=True)
                yield Button("Preview (enter)", id="preview", variant="primary", compact=True)

    @staticmethod
    def _field(label: str, widget: Input) -> Horizontal:
        return Horizontal(Label(label, classes="field-label"), widget, classes="field")

    def on_mount(self) -> None:
        self.query_one("#promote-to", Input).focus()

    def action_cancel(self) -> None:
        """Close the form; what was changed in it is kept for the next promote of this note."""
        if self.filled() != self.offered:
            DRAFTS[self._key] = self.filled()
        super().action_cancel()

    def action_start_over(self) -> None:
        """Put back what the form first offered for this note; the edits kept from before are dropped."""
        DRAFTS.pop(self._key, None)
        r = self.offered
        values = (r.to, r.doc_kind, r.title, r.purpose, ", ".join(r.derived_from), ", ".join(r.canonical_for))
        for name, value in zip(("to", "kind", "title", "purpose", "derived", "canonical"), values, strict=True):
            self.query_one(f"#promote-{name}", Input).value = value
        self.query_one(".dialog-note", Static).update(self.captured or " ")

    # -- the form ------------------------------------------------------------------------------

    def _value(self, selector: str) -> str:
        return self.query_one(selector, Input).value

    def filled(self) -> PromoteRequest:
        """The form as typed."""
        return PromoteRequest(
            note=self.request.note,
            to=self._value("#promote-to"),
            doc_kind=self._value("#promote-kind"),
            title=self._value("#promote-title"),
            purpose=self._value("#promote-purpose"),
            derived_from=_csv(self._value("#promote-derived")),
            canonical_for=_csv(self._value("#promote-canonical")),
        )

    @on(Input.Changed, "#promote-to")
    def _destination_changed(self, event: Input.Changed) -> None:
        """The kind follows a known section's folder (``ops/`` gives ``ops``) until one is typed."""
        kind = self.query_one("#promote-kind", Input)
        if kind.value.strip() in ("", kind_for(self._destination)) and kind_for(event.value):
            kind.value = kind_for(event.value)
        self._destination = event.value

    # -- preview, then write ---------------------------------------------------------------------

    @on(Input.Submitted)
    @on(Button.Pressed, "#preview")
    def action_preview(self) -> None:
        to = self.query_one("#promote-to", CompletingInput)
        shown = to._suggestion  # the dimmed rest of a path: a folder alone is no destination, that is
        if shown.endswith(".md") and not to.value.strip().endswith(".md") and to.cursor_at_end:
            to.value = shown
        request = self.filled()
        self.run_core(lambda: plan_promote(self.bank, request), self._confirm)

    def _confirm(self, plan: PromotePlan) -> None:
        filled = self.filled()

        def answered(go: bool | None) -> None:
            if go:
                DRAFTS.pop(self._key, None)  # written, or refused with the form still open
                self.run_core(lambda: plan_promote(self.bank, filled, dry_run=False, shown=plan.plan))

        self.app.push_screen(
            PreviewDialog(
                f"Promote to {plan.result.path}?", promote_preview(plan), confirm="Promote", back="Back to the form"
            ),
            answered,
        )
