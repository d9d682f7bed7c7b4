"""An agent's proposal on an inbox note, as the workbench reads it: a typed record made once from the
``proposal`` mapping core's ``InboxEntry`` carries, instead of keys read in every pane and dialog."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Proposal:
    """What an agent proposed for a note: promote it somewhere, or discard it, and why."""

    action: str
    """``promote``, ``fold`` or ``discard`` (anything else is shown as written, and core refuses it)."""
    to: str = ""
    """The destination of a promote."""
    reason: str = ""
    proposed_by: str = "an agent"
    into: str = ""
    """The document a fold goes into."""
    section: str = ""
    """The section of ``into`` a fold goes into."""
    mode: str = ""
    """How a fold lands in its section (``append``, ``replace``)."""

    @property
    def target(self) -> str:
        """Where the note would go: a promote's path, or a fold's document and section."""
        if self.to:
            return self.to
        if self.into:
            return f"{self.into} § {self.section}" if self.section else self.into
        return ""

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> Proposal | None:
        """The record for a note's ``proposal`` mapping; None when the note carries none."""
        if not raw:
            return None
        return cls(
            action=str(raw.get("action") or "?"),
            to=str(raw.get("to") or ""),
            reason=str(raw.get("reason") or ""),
            proposed_by=str(raw.get("proposed_by") or "an agent"),
            into=str(raw.get("into") or ""),
            section=str(raw.get("section") or ""),
            mode=str(raw.get("mode") or ""),
        )

    @property
    def badge(self) -> str:
        """For a table cell: ``promote→domain/x.md``, ``fold→domain/x.md § Rules``, ``discard``."""
        return f"{self.action}→{self.target}" if self.target else self.action

    @property
    def headline(self) -> str:
        """``promote → domain/x.md``; a fold's mode after its section (``fold → x.md § Rules (append)``)."""
        mode = f" ({self.mode})" if self.into and self.mode else ""
        return f"{self.action} → {self.target}{mode}" if self.target else self.action

    def describe(self) -> str:
        """In one line: action, destination, who, why."""
        why = f": {self.reason}" if self.reason else ""
        return f"{self.headline} by {self.proposed_by}{why}"
