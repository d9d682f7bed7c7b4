"""The one error hierarchy: every failure the core reports, each with a message a person can act on.

Edges translate these once: the MCP server into ``ToolError``, the CLI into stderr and an exit
code, the TUI into a notification. Nothing above the core invents its own wording.
"""

from __future__ import annotations


class BankError(Exception):
    """Base of every error the core raises on purpose.

    ``reason`` is a short stable name (``path-taken``, ``not-a-document``...) that tests and the
    surfaces can key on; the message is the sentence a person reads.
    """

    reason: str = "error"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class UsageError(BankError):
    """The caller asked for something malformed (a bad range, a blank required value)."""

    reason = "usage"


class BankNotFound(BankError):
    """No bank directory could be found or the given root does not exist."""

    reason = "no-bank"


class PathRefused(BankError):
    """A path leaves the bank, carries a NUL byte, or is otherwise not a bank path."""

    reason = "outside-bank"


class NotADocument(BankError):
    """The path names nothing the bank indexes."""

    reason = "not-a-document"


class SectionNotFound(BankError):
    """A ``##`` section was asked for by a name the document does not have."""

    reason = "section-not-found"


class Refusal(BankError):
    """A gate refused a write. Nothing was written."""

    reason = "refused"


class GitError(BankError):
    """Git could not answer (no repository, a ref naming nothing)."""

    reason = "git"
