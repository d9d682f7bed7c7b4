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


class SectionAmbiguous(SectionNotFound):
    """A section name that is part of several headings and the whole of none."""

    reason = "section-ambiguous"


class Refusal(BankError):
    """A gate refused a write. Nothing was written."""

    reason = "refused"


class GitError(BankError):
    """Git could not answer (no repository, a ref naming nothing)."""

    reason = "git"


class NotACommit(GitError, UsageError):
    """A ref the caller gave names no commit: git's answer, and the caller's mistake (exit 2)."""

    reason = "git"


class ScopeRefused(PathRefused, UsageError):
    """A scope that leaves the bank: refused like any path, and a malformed argument (exit 2)."""

    reason = "outside-bank"


class StorageError(BankError):
    """The operating system refused a write or a read (read-only file system, full disk, permission).

    The message names the path and what to do; the bank is left as it was before the operation.
    """

    reason = "storage"


def storage_error(error: OSError, path: object, doing: str = "write") -> StorageError:
    """An ``OSError`` from the file system as one sentence a person can act on."""
    import errno

    where = str(path)
    reasons = {
        errno.EROFS: ("read-only", f"the bank is on a read-only file system ({where}); nothing was written."),
        errno.ENOSPC: ("no-space", f"no space left on the device holding {where}: nothing was written."),
        errno.EDQUOT: ("no-space", f"the disk quota is exceeded for {where}: nothing was written."),
        errno.EACCES: ("permission-denied", f"permission denied on {where}: nothing was written."),
        errno.EPERM: (
            "permission-denied",
            f"the operating system does not permit changing {where} "
            "(immutable or owned by someone else): nothing was written.",
        ),
    }
    reason, message = reasons.get(
        error.errno or 0, ("storage", f"could not {doing} {where}: {error.strerror or error}; nothing was written.")
    )
    if doing == "read":
        message = message.replace(": nothing was written.", ".").replace("; nothing was written.", ".")
    return StorageError(message[0].upper() + message[1:], reason=reason)
