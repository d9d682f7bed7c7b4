"""Structural rules: they hold in every bank, with or without a contract in dna/."""

from __future__ import annotations

from collections.abc import Iterator

from memorybank.core.validate.locate import parse_error_line, value_line, without_line
from memorybank.core.validate.registry import RULES, Context, Finding, rule


@rule("unreadable", "error", "The file or folder exists, but this process may not read it.")
def unreadable(ctx: Context) -> Iterator[Finding]:
    """A markdown file, or a folder of the bank, that the operating system refuses to let us read.

    Why: an unreadable document is not absent. Skipping it silently would report a clean bank while
    its rules go unchecked and its keys unowned, and every reader would see a different bank.
    Example: ``ops/secrets.md`` with mode ``0600`` owned by another user, or a folder without ``x``.
    Fix: give the file or folder read permission for whoever runs memorybank (``chmod a+r``,
    ``chmod a+rx`` for a folder), or move it out of the bank.
    """
    me = RULES["unreadable"]
    for path, reason in sorted(ctx.bank.unreadable.items()):
        if ctx.in_scope(path):
            kind = "folder" if path.endswith("/") else "file"
            yield me.finding(path, f"This {kind} exists but cannot be read ({reason}), so nothing in it was checked.")


@rule("not-utf8", "warning", "The file is not UTF-8 text: its undecodable bytes read as U+FFFD.")
def not_utf8(ctx: Context) -> Iterator[Finding]:
    """A markdown file holding bytes that are not UTF-8: a Latin-1 or Windows-1251 export, or a
    binary file given a ``.md`` name.

    Why: every reader sees replacement characters where the author wrote letters, routing and
    search cannot match those words, and a gated write would store the replacements for good.
    Example: ``notes/import.md`` saved by an old editor as Windows-1251.
    Fix: convert it (``iconv -f cp1251 -t utf-8 notes/import.md``), or move a binary file out of
    the bank.
    """
    me = RULES["not-utf8"]
    for doc in ctx.bank:
        if doc.decode_error and ctx.in_scope(doc.path):
            yield me.finding(
                doc.path,
                "This file is not UTF-8 text: its undecodable bytes read as U+FFFD, so routing, search and "
                "reads see them replaced. Convert it to UTF-8, or move a binary file out of the bank.",
            )


@rule("invalid-frontmatter", "error", "The YAML frontmatter does not parse; values were recovered leniently.")
def invalid_frontmatter(ctx: Context) -> Iterator[Finding]:
    """Frontmatter that a YAML parser rejects.

    Why: every tool reading the bank sees different values than its author meant, or none.
    The index keeps the document and recovers values line by line, but other readers will not.
    Example: ``purpose: Read this: when the build breaks`` (an unquoted ``: ``), a key given twice,
    a block opened with ``---`` and never closed.
    Fix: quote the value (``purpose: "Read this: when the build breaks"``), remove the duplicate key,
    or close the block.
    """
    me = RULES["invalid-frontmatter"]
    for doc in ctx.bank:
        if doc.parse_error and ctx.in_scope(doc.path):
            line = parse_error_line(doc.body_line, doc.parse_error)
            # The parser counts lines from the block's start; the finding's line is the file's.
            error = without_line(doc.parse_error) if line else doc.parse_error
            if "never closes" in error:
                message = f"Frontmatter does not parse: {error}. Close the block with a --- line."
            else:
                message = (
                    f"YAML frontmatter does not parse ({error}). Values were recovered leniently{_fix_for(error)}."
                )
            yield me.finding(doc.path, message, line)


_FIXES = (
    (
        "mapping values are not allowed",
        'quote any value containing ": " (bank_set_field with the value it has quotes it)',
    ),
    ("duplicated mapping key", "give each key once"),
    ("tab character", "indent with spaces, not tabs"),
    ("flow sequence", "close the [ list, or quote a value that starts with ["),
    ("flow mapping", "close the { mapping, or quote a value that starts with {"),
)
"""The fix a parser's complaint points to, where it points to one."""


def _fix_for(error: str) -> str:
    return next((f"; {fix}" for needle, fix in _FIXES if needle in error), "")


@rule("broken-derived-from", "error", "A derived_from entry points at a file that does not exist in the bank.")
def broken_derived_from(ctx: Context) -> Iterator[Finding]:
    """A ``derived_from`` entry that resolves inside the bank to nothing.

    Why: the dependency tree is how a change upstream finds what it affects; a broken edge hides a
    document's real upstream and breaks ``bank_graph``.
    Example: ``derived_from: [../missing/nowhere.md]``. Targets outside the bank (``../../..``
    past the root, URLs) are external, never broken.
    Fix: point the entry at the document it really rests on (paths are relative to the declaring
    document), or remove it.
    """
    me = RULES["broken-derived-from"]
    for doc in ctx.bank:
        if not ctx.in_scope(doc.path):
            continue
        for edge in doc.derived_from:
            target = edge.resolved
            if not edge.external and target is not None and target not in ctx.bank and not ctx.unreadable(target):
                yield me.finding(
                    doc.path,
                    f"derived_from points at a file that does not exist: {edge.raw}",
                    value_line(ctx.bank, doc.path, "derived_from", edge.raw),
                )


@rule("unregistered-doc", "warning", "No index links to this document, so navigation cannot reach it.")
def unregistered_doc(ctx: Context) -> Iterator[Finding]:
    """A document that no index (a ``README.md`` or a ``doc_function: index`` document) links to.

    Why: people and agents find documents through indexes; an unlinked document is invisible.
    ``_inbox/`` notes and index documents themselves are exempt.
    Example: ``engineering/retry.md`` written by hand and never added to ``engineering/README.md``.
    Fix: add an entry to the section index (``bank_create`` does this for you).
    """
    me = RULES["unregistered-doc"]
    start = ctx.bank.derived.entrypoint
    for doc in ctx.bank:
        if not ctx.in_scope(doc.path) or doc.is_inbox or doc.is_index or doc.path == start:
            continue
        if doc.path.rsplit("/", 1)[-1] == "README.md":
            continue
        if not ctx.bank.registered_in(doc.path):
            yield me.finding(doc.path, "No index links to this document, so navigation cannot reach it.")


@rule("unreachable-doc", "warning", "Registered in an index that the root index does not lead to.")
def unreachable_doc(ctx: Context) -> Iterator[Finding]:
    """A document registered in some index, but not reachable by following index links from the
    bank's entrypoint: the root ``README.md``, or the root document it names as the canonical
    entrypoint (``entrypoint: index.md``, or a link on a line saying "entrypoint", "start here",
    "read first", ...), or, without a ``README.md``, a root ``index.md``.

    Why: a section index nobody links to takes its whole section out of navigation, while every
    document in it still looks registered.
    Example: ``ops/README.md`` lists ``ops/deploy.md``, but the root ``README.md`` never links
    ``ops/README.md``.
    Fix: link the section index from the root index (or from an index the root reaches).
    """
    me = RULES["unreachable-doc"]
    bank = ctx.bank
    start = bank.derived.entrypoint
    if start is None:
        return
    outgoing: dict[str, list[str]] = {}
    for link in bank.derived.index_links:
        if link.target in bank:
            outgoing.setdefault(link.source, []).append(link.target)
    reached = {start, "README.md"}
    frontier = [start, "README.md"] if start != "README.md" and "README.md" in bank else [start]
    while frontier:
        current = frontier.pop()
        for target in outgoing.get(current, ()):
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    for doc in bank:
        if doc.path in reached or not ctx.in_scope(doc.path) or doc.is_inbox:
            continue
        registrars = bank.registered_in(doc.path)
        if registrars:
            listed = ", ".join(dict.fromkeys(registrars))
            yield me.finding(
                doc.path,
                f"Registered in {listed}, but the entrypoint {start} does not lead there by index links, so navigation cannot reach it.",
            )


@rule("broken-link", "warning", "A relative markdown link in the body resolves to nothing inside the bank.")
def broken_link(ctx: Context) -> Iterator[Finding]:
    """A relative link in a document's prose whose target does not exist in the bank.

    Why: a reader following it lands nowhere; usually the target was renamed or moved.
    Links in fenced code, URLs, pure ``#anchors`` and links leaving the bank are not checked;
    ``.md`` links in indexes are reported as ``dangling-index-entry`` instead. Templates and
    ``_inbox/`` notes are skipped (their links are placeholders or written for their destination).
    Example: ``See [the model](../domain/model.md).`` after ``model.md`` was renamed.
    Fix: point the link at the current path, or drop it.
    """
    me = RULES["broken-link"]
    bank = ctx.bank
    for doc in bank:
        if doc.is_template or doc.is_inbox or not ctx.in_scope(doc.path):
            continue
        for link in doc.links:
            target = link.resolved
            if target is None or target in bank:
                continue
            if doc.is_index and target.endswith(".md"):
                continue
            if not ctx.exists(target):
                yield me.finding(doc.path, f"Link points at a file that does not exist: {link.raw}", link.line)


@rule("ssot-conflict", "error", "A canonical_for key is claimed by more than one document.")
def ssot_conflict(ctx: Context) -> Iterator[Finding]:
    """Two documents (or one, twice) claim to own the same fact.

    Why: one fact, one home. With two owners, readers cannot tell which is right, and edits land
    in one place while the other goes stale. Archived owners still count: archiving releases keys.
    Example: ``domain/rules.md`` and ``conflict.md`` both list ``canonical_for: [filter_thresholds]``.
    Fix: keep the key on the true owner and make the other document link to it.
    """
    me = RULES["ssot-conflict"]
    for key, owners in ctx.bank.derived.owners.items():
        if len(owners) < 2 or not any(ctx.in_scope(p) for p in owners):
            continue
        distinct = list(dict.fromkeys(owners))
        if len(distinct) == 1:
            message = f'canonical_for "{key}" is listed more than once in {distinct[0]}.'
        else:
            message = f'canonical_for "{key}" is claimed by {len(distinct)} documents: {", ".join(distinct)}.'
        yield me.finding(distinct[0], message, value_line(ctx.bank, distinct[0], "canonical_for", key))


@rule("must-not-define-violated", "error", "A document owns a key its own must_not_define forbids.")
def must_not_define_violated(ctx: Context) -> Iterator[Finding]:
    """A document lists the same key in ``canonical_for`` and in ``must_not_define``.

    Why: ``must_not_define`` records what a document promised never to own (usually carried from
    its template); owning it anyway breaks that promise.
    Example: a feature brief with ``canonical_for: [implementation_sequence]`` whose template said
    ``must_not_define: [implementation_sequence]``.
    Fix: move the fact to the document that should own it, or drop the key.
    """
    me = RULES["must-not-define-violated"]
    for doc in ctx.bank:
        if not ctx.in_scope(doc.path):
            continue
        forbidden = set(doc.must_not_define)
        for key in doc.canonical_for:
            if key in forbidden:
                yield me.finding(
                    doc.path,
                    f'Document owns "{key}" while its own must_not_define forbids it.',
                    value_line(ctx.bank, doc.path, "canonical_for", key),
                )


@rule("dangling-index-entry", "error", "An index links to a markdown file that does not exist.")
def dangling_index_entry(ctx: Context) -> Iterator[Finding]:
    """An entry of an index document whose ``.md`` target is not a document of the bank.

    Why: indexes are the map; a dead entry sends every reader to nothing.
    Example: ``- [Deploy](deploy.md)`` in ``ops/README.md`` after ``deploy.md`` was deleted.
    Fix: update the entry to the document's new path, or remove it.
    """
    me = RULES["dangling-index-entry"]
    for link in ctx.bank.derived.index_links:
        if link.target not in ctx.bank and ctx.in_scope(link.source) and not ctx.unreadable(link.target):
            yield me.finding(link.source, f"Index links to a file that does not exist: {link.raw}", link.line)
