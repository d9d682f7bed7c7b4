"""Back and forward through the documents opened, as a browser does: opening a document after going
back drops the steps ahead of it."""

from __future__ import annotations

from dataclasses import dataclass

LIMIT = 200
"""Steps kept; the oldest go first."""


@dataclass(frozen=True)
class Visit:
    """One document opened, where it was opened."""

    path: str
    section: str | None = None
    line: int | None = None


class History:
    """The visits, and where we stand among them."""

    def __init__(self) -> None:
        self.visits: list[Visit] = []
        self.at = -1
        """Index of the visit on screen (-1: none yet)."""

    def visit(self, visit: Visit) -> None:
        if 0 <= self.at < len(self.visits) and self.visits[self.at] == visit:
            return
        del self.visits[self.at + 1 :]
        self.visits.append(visit)
        if len(self.visits) > LIMIT:
            del self.visits[0]
        self.at = len(self.visits) - 1

    def stand(self, visit: Visit) -> None:
        """The visit on screen is now at ``visit`` (the reader moved in it): back and forward return
        there, not to where it was opened."""
        if 0 <= self.at < len(self.visits) and self.visits[self.at].path == visit.path:
            self.visits[self.at] = visit

    def back(self) -> Visit | None:
        if self.at <= 0:
            return None
        self.at -= 1
        return self.visits[self.at]

    def forward(self) -> Visit | None:
        if self.at >= len(self.visits) - 1:
            return None
        self.at += 1
        return self.visits[self.at]
