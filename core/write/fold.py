"""Folding a note into the document that already owns its fact: one write, all or nothing.

A fold replaces or appends to one ``##`` section of the owner with the note's text (its relative
links rewritten to reach the same documents from the owner's folder, as a promote's are), and drops
the note on the record with the destination as its reason. The section change, the record line and
the note's removal are one transaction: a failure or a kill at any point leaves the bank as it was
before the fold, or as it is after it, never the fact in both places or in neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.parse import FenceTracker, parse_document
from memorybank.core.read import find_section
from memorybank.core.write.edit import SectionUpdateResult, plan_update_section
from memorybank.core.write.gates import Planned, execute
from memorybank.core.write.inbox import DiscardResult, plan_discard, quarantined, relink
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.shape import OUTLINE_HEADING
from memorybank.core.write.transaction import Transaction


@dataclass(frozen=True, slots=True)
class FoldResult:
    """A fold: the section update, the section's text before and after, and the note's discard."""

    update: SectionUpdateResult
    discard: DiscardResult
    before: str
    """The section's body before the fold (its heading excluded)."""
    after: str
    """The section's body after the fold."""
    folded: bool
    dry_run: bool
    warnings: list[str] = field(default_factory=list)
    """What the owner should know: a link of the note's rewritten for the owner's folder, or one to
    a document that does not exist (written so it still means what the note meant)."""


def fold_reason(path: str, section: str) -> str:
    """The reason a folded note is discarded with: where its fact went."""
    return f"folded into {path}#{section}"


def foldable_body(body: str) -> str:
    """A note's body as the text to fold: its H1 (the note's own title) dropped, and its own ``#``
    and ``##`` headings moved one level below the section it joins (``###``), so the fold adds no
    section to the owner."""
    lines = body.strip().split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    tracker = FenceTracker(comments=True)
    for index, line in enumerate(lines):
        if tracker.feed(line):
            continue
        if OUTLINE_HEADING.match(line):
            lines[index] = "###" + line.lstrip(" ").lstrip("#")
    return "\n".join(lines).strip()


def _section_body(bank: Bank, path: str, text: str, section: str) -> str:
    doc, _ = parse_document(path, text.encode("utf-8"), bank_names=bank.paths.names)
    found = find_section(doc, section)
    if found is None:
        return ""
    return "\n".join(text.split("\n")[found.line : found.end_line]).strip()


def plan_fold(
    bank: Bank,
    *,
    note: str,
    path: str,
    section: str,
    content: str | None = None,
    mode: str = "append",
    by: str | None = None,
    dry_run: bool = True,
) -> Planned[FoldResult]:
    """Plan a fold under the write session; see ``fold``."""
    source = quarantined(bank, note, "folded")
    destination = bank.document(path)
    if destination.is_inbox:
        raise Refusal(
            f"{destination.path} is a captured note too: a fold moves a fact into the bank document that owns it, "
            "and a note owns nothing. Fold into that document, or promote the note first.",
            reason="inbox-target",
        )
    if content is None:
        _, body = RawDoc.load(bank.root, source.path).split()
        content = foldable_body(body)
    content, warnings = relink(content, source.path, destination.path, bank)
    update = plan_update_section(bank, path=path, section=section, content=content, mode=mode, dry_run=dry_run)
    gone = plan_discard(
        bank, path=source.path, reason=fold_reason(update.result.path, update.result.section), by=by, dry_run=dry_run
    )
    tx = Transaction(bank.root)
    for part in (update.tx, gone.tx):
        for rel, data in part.writes.items():
            tx.write(rel, data)
        for rel in part.deletes:
            tx.delete(rel)
    owner = update.result.path
    before = _section_body(bank, owner, RawDoc.load(bank.root, owner).text, update.result.section)
    after_text = tx.writes[owner].decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
    after = _section_body(bank, owner, after_text, update.result.section)
    return Planned(FoldResult(update.result, gone.result, before, after, not dry_run, dry_run, warnings), tx)


def fold(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> FoldResult:
    """Fold a quarantined note into one ``##`` section of the document that owns its fact.

    Takes ``plan_fold``'s arguments: ``note``, ``path`` (the owner), ``section``, ``content``
    (default: the note's body without its title), ``mode`` (``append``, the default, or ``replace``), ``by``.

    Raises:
        Refusal: the note is not in the quarantine, the section is missing, or a gate of the
            section update refused; nothing was written.
    """
    return execute(bank, plan_fold, dry_run=dry_run, **arguments)
