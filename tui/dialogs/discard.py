"""Discarding notes: the reason is required (the core refuses an empty one), and the dialog is the
confirmation, saying what is deleted before Enter deletes it. Several marked notes go with one
reason; every one is checked first (a dry run each), so a refusal deletes nothing. The reason
completes (Tab) from the reasons given before in this bank and a few presets. A note that changed
on disk after the dialog opened (an agent rewrote it) is not discarded: the owner decided on what
they had read."""

from __future__ import annotations

from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.write.inbox import KEPT_BYTES, DiscardResult, discard
from memorybank.core.write.plan import FileChange, Plan
from memorybank.tui.dialogs.core_dialog import DIALOG_CSS, CoreDialog
from memorybank.tui.reasons import PRESETS, reasons
from memorybank.tui.widgets.completing_input import CompletingInput
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

HINT = "Tab: past reasons and presets in turn · Enter discards · Esc keeps"


@dataclass(frozen=True)
class Doomed:
    """A note about to be discarded: its bank path and title."""

    path: str
    title: str


def discard_all(
    bank: Bank, notes: list[Doomed], reason: str, seen: dict[str, bytes | None] | None = None
) -> list[DiscardResult]:
    """Check every note (dry run), then discard them one by one; a refusal in the check stops all.
    With ``seen`` (each note's bytes when the owner was asked), a note changed since is refused."""

    def shown(path: str) -> Plan | None:
        return None if seen is None else Plan((FileChange(path, "delete", seen.get(path), None),))

    for note in notes:
        discard(bank, path=note.path, reason=reason, dry_run=True, shown=shown(note.path))
    return [discard(bank, path=note.path, reason=reason, shown=shown(note.path)) for note in notes]


def read_notes(bank: Bank, notes: list[Doomed]) -> dict[str, bytes | None]:
    """Each note's bytes as they are now (None: already gone)."""
    found: dict[str, bytes | None] = {}
    for note in notes:
        try:
            found[note.path] = (bank.root / note.path).read_bytes()
        except OSError:
            found[note.path] = None
    return found


class DiscardDialog(CoreDialog[list[DiscardResult] | None]):
    """Discard notes with one reason; dismisses with the results, or None when kept."""

    DEFAULT_CSS = DIALOG_CSS.format(name="DiscardDialog")
    BINDINGS = [Binding("escape", "cancel", "Keep them")]
    reason_missing = False
    """The refusal shown says the reason is missing (typing one clears it)."""

    def __init__(self, bank: Bank, *, notes: list[Doomed], reason: str = "") -> None:
        super().__init__(bank)
        self.notes = notes
        self.reason = reason
        self.seen = read_notes(bank, notes)
        """The notes as the owner was asked about them."""

    def compose(self) -> ComposeResult:
        many = len(self.notes) > 1
        with Vertical():
            if many:
                yield Label(f"Discard {len(self.notes)} notes?", classes="dialog-title")
                listed = "\n".join(f"{n.path}  “{n.title}”" for n in self.notes[:8])
                more = f"\n… and {len(self.notes) - 8} more" if len(self.notes) > 8 else ""
                lost = [n.path for n in self.notes if len(self.seen.get(n.path) or b"") > KEPT_BYTES]
                gone = f"\n{len(lost)} of them over {KEPT_BYTES // 1024} KB: deleted for good." if lost else ""
                yield Static(
                    f"{listed}{more}\nThe files are deleted; one reason goes on the record for each.{gone}",
                    classes="dialog-note",
                    markup=False,
                )
            else:
                note = self.notes[0]
                yield Label(f"Discard {note.path}?", classes="dialog-title", markup=False)
                size = len(self.seen.get(note.path) or b"")
                kept = (
                    "its text kept on the record for `memorybank inbox restore`"
                    if size <= KEPT_BYTES
                    else f"for good: at {size // 1024} KB it is over the {KEPT_BYTES // 1024} KB the record keeps"
                )
                yield Static(
                    f"“{note.title}”. The file is deleted, {kept}; say why.", classes="dialog-note", markup=False
                )
            yield Horizontal(
                Label("Reason", classes="field-label"),
                CompletingInput(
                    self.reason,
                    candidates=reasons(self.bank.root),
                    offer=True,
                    id="discard-reason",
                    compact=True,
                    placeholder=f"e.g. {PRESETS[0]}",
                ),
                classes="field",
            )
            yield Static("", classes="dialog-error")
            yield Static(HINT, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep (esc)", id="cancel", compact=True)
                label = f"Discard {len(self.notes)} (enter)" if many else "Discard (enter)"
                yield Button(label, id="discard", variant="error", compact=True)

    def on_mount(self) -> None:
        self.query_one("#discard-reason", Input).focus()

    def show_refusal(self, error: BaseException | None) -> None:
        """A note changed on disk since the dialog asked: nothing was discarded; the dialog now asks
        about the notes as they stand, so Enter again discards those (the reason stays as typed)."""
        changed = isinstance(error, Refusal) and error.reason == "changed-since-preview"
        gone = [n.path for n in self.notes if not (self.bank.root / n.path).exists()] if changed else []
        if gone:  # promoted, folded or discarded meanwhile: there is nothing left to discard
            error = Refusal(
                f"{', '.join(gone)} left the inbox while this dialog asked (promoted, folded or discarded "
                "elsewhere); nothing was discarded. Esc closes.",
                reason="changed-since-preview",
            )
        elif changed:
            self.seen = read_notes(self.bank, self.notes)
            which = "it" if len(self.notes) == 1 else "them"
            error = Refusal(
                f"{error.message.split(' changed since', 1)[0]} changed on disk while this dialog asked; nothing "
                f"was discarded. Enter discards {which} as {which} now stand{'s' if which == 'it' else ''}; Esc keeps "
                f"{which}.",
                reason=error.reason,
            )
        if isinstance(error, Refusal) and error.reason == "required":  # the core's words name its parameter
            error = Refusal("Say why: a note is dropped on the record, or not at all.", reason="required")
        super().show_refusal(error)
        self.reason_missing = isinstance(error, Refusal) and error.reason == "required"

    @on(Input.Changed, "#discard-reason")
    def _reason_typed(self, event: Input.Changed) -> None:
        self.reason = event.value  # what the pane offers again if the owner keeps the notes for now
        if self.reason_missing and event.value.strip():  # the complaint no longer holds
            self.show_refusal(None)

    @on(Input.Submitted)
    @on(Button.Pressed, "#discard")
    def action_discard(self) -> None:
        reason = self.query_one("#discard-reason", Input).value
        notes = list(self.notes)
        seen = self.seen
        self.run_core(lambda: discard_all(self.bank, notes, reason, seen))
