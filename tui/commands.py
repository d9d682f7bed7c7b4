"""Command palette providers: every document of the bank, to jump to by path or title."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from core.bank import Bank


class DocumentsProvider(Provider):
    """Documents matching what was typed in the palette: "Open <path> · <title>"."""

    def _documents(self) -> Iterator[tuple[str, str, str]]:
        bank: Bank | None = getattr(self.app, "bank", None)
        if bank is None:
            return
        with bank.lock:
            docs = [(d.path, d.title, d.purpose) for d in bank]
        yield from docs

    def _open(self, path: str) -> None:
        self.app.open_document(path)  # type: ignore[attr-defined]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for path, title, purpose in self._documents():
            text = f"{path} · {title}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(text), partial(self._open, path), help=purpose or "Open this document"
                )


class JumpProvider(DocumentsProvider):
    """The same documents, all listed before anything is typed (the ctrl+o palette)."""

    async def discover(self) -> Hits:
        for path, title, purpose in self._documents():
            yield DiscoveryHit(f"{path} · {title}", partial(self._open, path), help=purpose or None)
