"""Command palette providers: every document of the bank, to jump to by path or title.

Matching uses ``tui.matching`` (linear in a candidate's length) rather than Textual's matcher, and
only the best few dozen hits reach the palette, so a 5,000-document bank or a 1,000-character title
answers within a frame or two. The candidates are built once per bank generation (and again as
the first index reads documents).
"""

from __future__ import annotations

from functools import partial

from memorybank.core.bank import Bank
from memorybank.tui.matching import Candidate, best, shown
from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

HITS = 40
"""Documents a search lists: the palette shows a handful, and building rows is the slow part."""
RECENT = 60
"""Documents listed before anything is typed: the most recently changed ones."""
LINE_CHARS = 74
"""One document a line of an 80-column palette: its path and title, then as much of its purpose as
fits, dimmed, so a screen lists a dozen documents, not five."""

_cache: dict[int, tuple[tuple[int, int], list[Candidate], list[str]]] = {}


def candidates(bank: Bank) -> tuple[list[Candidate], list[str]]:
    """Every document as a candidate (``path · title``), and the paths newest first."""
    cached = _cache.get(id(bank))
    if cached is not None and cached[0] == (bank.generation, len(bank.documents)):
        return cached[1], cached[2]
    with bank.lock:
        generation = (bank.generation, len(bank.documents))  # the first index fills one generation
        docs = list(bank)
    built = [Candidate.of(f"{d.path} · {d.title}", d.path, " ".join(d.purpose.split())) for d in docs]
    recent = [d.path for d in sorted(docs, key=lambda d: d.mtime, reverse=True)[:RECENT]]
    _cache.clear()
    _cache[id(bank)] = (generation, built, recent)
    return built, recent


class DocumentsProvider(Provider):
    """Documents matching what was typed in the palette: "<path> · <title>"."""

    @property
    def bank(self) -> Bank | None:
        return getattr(self.app, "bank", None)

    def _open(self, path: str) -> None:
        self.app.open_document(path)  # type: ignore[attr-defined]

    async def search(self, query: str) -> Hits:
        bank = self.bank
        if bank is None:
            return
        found, _ = candidates(bank)
        for result, candidate in best(query, found, HITS):
            text, positions = shown(candidate.text, result.positions)
            prompt = Text(text)
            for position in positions:
                prompt.stylize("bold reverse", position, position + 1)
            yield Hit(result.score, one_line(prompt, candidate.help), partial(self._open, candidate.value))


class JumpProvider(DocumentsProvider):
    """The same documents, the most recently changed listed before anything is typed (ctrl+o)."""

    async def discover(self) -> Hits:
        bank = self.bank
        if bank is None:
            return
        found, recent = candidates(bank)
        by_path = {c.value: c for c in found}
        for path in recent:
            candidate = by_path[path]
            text, _ = shown(candidate.text, ())
            yield DiscoveryHit(one_line(Text(text), candidate.help), partial(self._open, path))  # literal, as Hit's


def one_line(prompt: Text, purpose: str) -> Text:
    """``path · title``, then the purpose dimmed, cut to ``LINE_CHARS`` with "…"."""
    line = prompt.copy()
    if purpose:
        line.append(f"  {purpose}", style="dim")
    if line.cell_len > LINE_CHARS:
        line.truncate(LINE_CHARS - 1)
        line.append("…", style="dim")
    return line
