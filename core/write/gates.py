"""The gates every write runs, shared so that every surface refuses the same things in the same words."""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal, StorageError, UsageError
from memorybank.core.model import Link
from memorybank.core.parse import parse_document
from memorybank.core.paths import is_url, relative_link, resolve_from
from memorybank.core.write import journal, values
from memorybank.core.write.lock import BankLock
from memorybank.core.write.plan import Plan, unchanged_since
from memorybank.core.write.supplied import project_root, read_supplied
from memorybank.core.write.transaction import Transaction

GOVERNED_KEYS = frozenset(
    {
        "title",
        "doc_kind",
        "doc_function",
        "purpose",
        "status",
        "derived_from",
        "canonical_for",
        "must_not_define",
        "promoted_from",
        "captured_at",
        "captured_by",
        "proposal",
    }
)
"""Frontmatter keys that only their own parameters (and their gates) may set."""
OWNER_KEYS = frozenset({"review_note"})
"""Frontmatter keys only the owner writes (a rejected proposal's note): no ``extra`` sets them."""


@contextmanager
def write_session(bank: Bank, *, writing: bool = True) -> Iterator[None]:
    """Hold the bank for one write: the in-process lock, the cross-process lock, a fresh index.

    Every gate runs inside the session, after the refresh, so a check can never be stale by the
    time its write lands. An operation a dead writer left unfinished is undone first. A dry run
    (``writing`` False) on a bank it may not write, where the lock cannot be taken, plans without
    it, as any reader reads: it writes nothing, and the real write checks the files it showed.
    """
    with bank.lock, contextlib.ExitStack() as stack:
        try:
            stack.enter_context(BankLock(bank.root))
            locked = True
        except (OSError, StorageError):
            if writing:
                raise
            locked = False
        if locked and journal.current(bank.root) is None and journal.pending(bank.root):
            journal.recover(bank.root)
        bank.refresh()
        yield


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Planned(Generic[R]):
    """A write planned under the write session: the answer it gives, and the transaction that lands it."""

    result: R
    tx: Transaction

    @property
    def plan(self) -> Plan:
        """The file changes, against the files as they are now."""
        return self.tx.plan()

    def commit(self, bank: Bank) -> None:
        self.tx.commit()
        bank.refresh()


def execute(
    bank: Bank,
    planner: Callable[..., Planned[R]],
    *,
    dry_run: bool = False,
    shown: Plan | None = None,
    **arguments: Any,
) -> R:
    """Plan a write and, unless ``dry_run``, land it: both in one write session, so no other writer
    can come between the gates and the files. With ``shown`` (the plan a face previewed), the write
    lands only if its files still hold what the preview read (``unchanged_since``)."""
    with write_session(bank, writing=not dry_run):
        if shown is not None:
            unchanged_since(bank.root, shown)
        planned = planner(bank, dry_run=dry_run, **arguments)
        if not dry_run:
            planned.commit(bank)
        return planned.result


@dataclass(frozen=True, slots=True)
class Preview(Generic[R]):
    """A dry run as a face shows it: the answer, and exactly the file changes the write would make."""

    result: R
    plan: Plan


def preview(bank: Bank, planner: Callable[..., Planned[R]], **arguments: Any) -> Preview[R]:
    """Plan a write for a face to show, writing nothing."""
    with write_session(bank, writing=False):
        planned = planner(bank, dry_run=True, **arguments)
        return Preview(planned.result, planned.tx.plan())


def require(value: str | None, message: str) -> str:
    text = (value or "").strip()
    if not text:
        raise Refusal(message, reason="required")
    return text


def content_from(bank: Bank, inline: str | None, file: str | None, name: str, *, cwd: Path | None = None) -> str | None:
    """Text given inline, or by a file inside the project (see ``core.write.supplied``)."""
    if inline is not None and file is not None:
        raise UsageError(f"Pass either {name} or {name}File, not both.")
    if file is None:
        return values.text(name, inline)
    if not file.strip():
        raise UsageError(f"{name}File is empty. Pass a path, or use {name} for content you have in hand.")
    return values.line_breaks(read_supplied(bank.root, file, name, cwd=cwd, allowed=bank.supplied_files))


def check_target(bank: Bank, target: str, given: str) -> None:
    """A new document's path: a markdown file, inside the bank, visible, linkable, not taken."""
    if not target.endswith(".md"):
        raise Refusal(f"Path must end in .md: {given}", reason="not-markdown")
    values.document_path(target, given)
    if target in bank:
        raise Refusal(f"Refusing to overwrite an existing document: {target}", reason="path-taken")
    if os.path.lexists(bank.root / target):
        raise Refusal(
            f"A file already exists at {target} but is not indexed. Refusing to overwrite it.", reason="path-taken"
        )
    _refuse_twins(bank.root, target)


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _refuse_twins(root: Path, target: str) -> None:
    """Refuse a path through a file, or one that differs from an existing file or folder only in letter
    case or Unicode normalisation: on a case-insensitive checkout (macOS, Windows) the two are one
    file, and everywhere else they are look-alikes that split what should be one document."""
    directory = root
    walked: list[str] = []
    for name in target.split("/"):
        folded = _folded(name)
        if directory.exists() and not directory.is_dir():
            raise Refusal(
                f"{target} would go inside {'/'.join(walked)}, which is a file, not a folder.", reason="not-a-folder"
            )
        if not directory.is_dir():
            return
        try:
            twins = [e for e in os.listdir(directory) if e != name and _folded(e) == folded]
        except OSError:
            twins = []
        if twins:
            existing = "/".join([*walked, twins[0]])
            raise Refusal(
                f"{'/'.join([*walked, name])} differs from the existing {existing} only in letter case or in how "
                f"its accents are encoded: the two would be one file on a case-insensitive checkout. Use {existing}, "
                "or another name.",
                reason="path-taken",
            )
        walked.append(name)
        directory = directory / name


def check_governance(
    bank: Bank,
    target: str,
    *,
    status: str,
    doc_kind: str,
    derived_from: Iterable[str],
    canonical_for: Iterable[str],
    must_not_define: Iterable[str] = (),
    kept: Iterable[str] = (),
) -> list[str]:
    """Refuse what would break the bank's law; return warnings for what only bends it. ``kept``:
    entries the document already has, which a cycle they were in already does not refuse (removing
    the other edges of a cycle is how it gets fixed)."""
    warnings: list[str] = []
    contract = bank.contract
    entries = list(derived_from)
    targets: list[str] = []
    for entry in entries:
        resolved, external = resolve_from(target, entry, bank_names=bank.paths.names)
        if external and entry.strip().startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", entry.strip()):
            raise Refusal(
                f'derived_from "{entry}" is an absolute path: it names a file on one machine, not a document. '
                "Write it relative to the document (a document of this bank, or a URL).",
                reason="unresolved-derived-from",
            )
        if external:
            if entry not in kept and not is_url(entry.strip()):
                _refuse_missing_outside(bank, target, entry)
            warnings.append(f'derived_from "{entry}" points outside the bank; it will not be checked.')
            continue
        if resolved is None or resolved not in bank:
            meant = entry.strip().lstrip("./")
            hint = (
                f" Paths are relative to the document: {relative_link(target, meant)} reaches {meant}."
                if meant in bank and meant != resolved
                else ""
            )
            raise Refusal(
                f'derived_from "{entry}" does not resolve to a document of this bank (tried {resolved or entry}).{hint}',
                reason="unresolved-derived-from",
            )
        if resolved == target:
            raise Refusal(f'derived_from "{entry}" points at the document itself.', reason="self-derived")
        upstream = bank.documents[resolved]
        if entry not in kept and (upstream.is_inbox or upstream.is_template):
            what = "a captured note, which its owner will move or drop" if upstream.is_inbox else "a template"
            raise Refusal(
                f'derived_from "{entry}" is {what}: a document rests on documents of the bank. Point it at '
                "the document the note went to, or the one the template is for.",
                reason="unresolved-derived-from",
            )
        if entry not in kept:
            targets.append(resolved)
    check_keys(bank, target, status, list(canonical_for), must_not_define)
    if contract.requires_derived_from and not entries and target not in contract.roots:
        _needs_derived_from(bank, target, status, warnings)
    if contract.forbids_cycles and targets:
        cycle = _closes_cycle(bank, target, targets)
        if cycle:
            raise Refusal(
                f"derived_from would close a cycle: {' -> '.join(cycle)}. Cyclic dependencies are forbidden here.",
                reason="cycle",
            )
    if doc_kind and contract.doc_kinds and doc_kind not in contract.doc_kinds:
        warnings.append(f'doc_kind "{doc_kind}" is not among the values declared in dna/.')
    if status and contract.statuses and status not in contract.statuses:
        warnings.append(f'status "{status}" is not among the values declared in dna/.')
    return warnings


def _needs_derived_from(bank: Bank, target: str, status: str, warnings: list[str]) -> None:
    """A document the contract wants upstreams for, given none: refused active, warned as a draft
    (a note rests on nothing until the owner places it)."""
    if status == "active":
        raise Refusal(
            "Governance requires every active non-root document to declare derived_from: give derivedFrom "
            "(the documents it rests on, relative to it), or status draft until it has them.",
            reason="missing-derived-from",
        )
    if bank.layers.layer_of(target) != "inbox":
        warnings.append("No derived_from: governance requires one before this document can become active.")


def _refuse_missing_outside(bank: Bank, target: str, entry: str) -> None:
    """An upstream outside the bank is not checked as a document, but it must be a file of the project
    there now: a made-up ``../../../nonexistent.md`` passed every gate and validate alike."""
    where = Path(os.path.realpath((bank.root / target).parent / entry.strip().split("#", 1)[0]))
    project = project_root(bank.root)
    if not where.exists() or (where != project and project not in where.parents):
        raise Refusal(
            f'derived_from "{entry}" points outside the bank at {"nothing" if not where.exists() else "a file outside the project"}: '
            "an upstream outside the bank must be a file of the project (a URL works for anything else).",
            reason="unresolved-derived-from",
        )


def check_keys(bank: Bank, target: str, status: str, keys: list[str], must_not_define: Iterable[str]) -> None:
    """Refuse ``canonical_for`` keys that would break "one fact, one home"."""
    if keys and status == "archived":
        raise Refusal(
            f"{target} would be born archived while owning {', '.join(repr(k) for k in keys)}: an archived "
            "document that keeps its keys blocks whoever should own them next. Give it no canonical_for, or another status.",
            reason="owns-keys",
        )
    for key in keys:
        if keys.count(key) > 1:
            raise Refusal(f'canonical_for lists "{key}" more than once.', reason="duplicate-key")
        owners = [p for p in bank.derived.owners.get(key, []) if p != target]
        if owners:
            raise Refusal(
                f'canonical_for "{key}" is already owned by {", ".join(dict.fromkeys(owners))}. One fact, one home.',
                reason="key-owned",
            )
    clash = sorted(set(keys) & set(must_not_define))
    if clash:
        raise Refusal(
            f'canonical_for "{clash[0]}" is also in must_not_define: a document cannot own what it promises not to define.',
            reason="must-not-define",
        )


def _closes_cycle(bank: Bank, target: str, starts: list[str]) -> list[str] | None:
    """A path from one of ``starts`` back to ``target`` along existing edges, if there is one."""
    parents: dict[str, str | None] = {start: None for start in starts}
    frontier = list(starts)
    while frontier:
        current = frontier.pop()
        doc = bank.documents.get(current)
        if doc is None:
            continue
        for edge in doc.derived_from:
            nxt = edge.resolved
            if nxt is None:
                continue
            if nxt == target:
                chain = [current]
                while parents[chain[-1]] is not None:
                    chain.append(parents[chain[-1]])  # type: ignore[arg-type]
                return [target, *reversed(chain), target]
            if nxt not in parents and nxt in bank:
                parents[nxt] = current
                frontier.append(nxt)
    return None


def content_warnings(bank: Bank, path: str, text: str, extra_docs: Iterable[str] = ()) -> list[str]:
    """Warnings about links in a document about to be written that lead nowhere in the bank."""
    doc, _ = parse_document(path, text.encode("utf-8"), bank_names=bank.paths.names)
    planned = set(extra_docs)
    return [warning for link in doc.links if (warning := missing_target_warning(bank, link, planned))]


def missing_target_warning(bank: Bank, link: Link, planned: Collection[str] = ()) -> str | None:
    """The warning for a link to a file that is neither in the bank, nor planned beside the write,
    nor on disk (a file of the project); None for a URL or a link that lands."""
    target = link.resolved
    if target is None or target in bank or target in planned or os.path.exists(bank.root / target):
        return None
    return f"Line {link.line} links to a file that does not exist: {link.raw}"
