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
    """``promote`` or ``discard`` (anything else is shown as written, and core refuses it)."""
    to: str = ""
    """The destination of a promote."""
    reason: str = ""
    proposed_by: str = "an agent"

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
        )

    @property
    def badge(self) -> str:
        """For a table cell: ``promote→domain/x.md``, ``discard``."""
        return f"{self.action}→{self.to}" if self.to else self.action

    @property
    def headline(self) -> str:
        """``promote → domain/x.md``."""
        return f"{self.action} → {self.to}" if self.to else self.action

    def describe(self) -> str:
        """In one line: action, destination, who, why."""
        why = f": {self.reason}" if self.reason else ""
        return f"{self.headline} by {self.proposed_by}{why}"
