"""Messages the panes post up to the workbench screen, which is the only one that acts on them."""

from __future__ import annotations

from textual.message import Message


class DocumentChosen(Message):
    """A pane chose a document to open; each pane posts its own nested subclass of this.

    The workbench screen handles the base class, so a new pane needs no new handler.
    """

    def __init__(self, path: str, *, section: str | None = None, line: int | None = None) -> None:
        super().__init__()
        self.path = path
        """Bank path of the document."""
        self.section = section
        """The ``##`` section to show, when the pane knows one."""
        self.line = line
        """The raw-file line to show (the source view is used), when the pane knows one."""


class BankWritten(Message):
    """A pane or one of its dialogs wrote to the bank through the core.

    The core has already re-read the disk; the workbench screen hands the new generation to every
    pane and to the header, so counts and lists follow at once instead of at the next disk check.
    """
