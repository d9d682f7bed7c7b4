"""What a write may not do to the shape of the document around it.

A section's new content stays one section (no heading at its level, no text underlined into one),
and no write leaves a code fence open: the sections after an unclosed fence read as code, out of
every tool's reach. A fragment's replacement may not empty a document or open a frontmatter block
at its top either.
"""

from __future__ import annotations

import re
from collections import Counter

from memorybank.core.errors import Refusal
from memorybank.core.parse import HEADING_LEVEL, FenceTracker
from memorybank.core.setext import setext_level

OUTLINE_HEADING = re.compile(r"^ {0,3}#{1,2}(?:[ \t]|$)")
"""A ``#`` or ``##`` heading: a line that starts or ends a ``##`` section."""


def refuse_new_sections(content: str, path: str, section: str, level: int = 2) -> None:
    """A section's content stays inside it: a heading of its level or above (outside a code fence), or a
    line of text underlined with ``=`` or ``-``, would start a new section, or end this one, without
    any gate seeing a document change shape; and a code fence it opens must close in it, or every
    section after it would read as code."""
    tracker = FenceTracker()
    previous = ""
    for number, line in enumerate(content.split("\n"), 1):
        if tracker.feed(line):
            previous = ""
            continue
        underlined = setext_level(previous, line)
        heading = HEADING_LEVEL.match(line)
        if (heading and len(heading.group(1)) <= level) or underlined:
            shown = (previous if underlined else line).strip()[:60]
            raise Refusal(
                f'Line {number - (1 if underlined else 0)} of the content is a heading ("{shown}") at the level '
                f'of "{section}" or above, so it would add a section to {path} unseen. Use {"#" * (level + 1)} for a '
                "heading inside the section (and a blank line before a --- rule); add a new section with bank_edit (find the "
                "last lines of the section before it, replace them with those lines and the new heading and text), "
                "or write a new document with bank_create.",
                reason="heading-in-content",
            )
        previous = line
    refuse_open_fence(content, tracker, path)


def refuse_open_fence(text: str, tracker: FenceTracker | None, path: str) -> None:
    """Refuse ``text`` that ends inside a code fence it opened (``tracker`` has read it, or is made
    here): whatever follows it in the document would read as code, its sections out of every tool's
    reach."""
    if tracker is None:
        tracker = FenceTracker()
        for line in text.split("\n"):
            tracker.feed(line)
    if tracker.inside:
        raise Refusal(
            f"The new text opens a code fence ({tracker.char * tracker.length}) it never closes, so the rest of "
            f"{path} would read as code and its sections could no longer be read or written. Close the fence.",
            reason="open-code-fence",
        )


def refuse_what_the_edit_makes(path: str, head: str, body: str, new_body: str, find: str = "") -> None:
    """What one fragment's replacement may not do to the document around it: leave a code fence
    open or pair the fences after it up differently (the sections after it would read as code),
    open a frontmatter block at the top of a document that had none, or empty it."""
    if not new_body.strip() and body.strip():
        raise Refusal(
            f"This would empty {path}. To retire a document, use bank_set_status archived; to remove one, ask "
            "its owner.",
            reason="empty",
        )
    if not head and new_body.lstrip("\ufeff").split("\n", 1)[0].rstrip() == "---":
        raise Refusal(
            f"This would start {path} with ---, which opens a frontmatter block the body cannot close safely. "
            "Set fields with bank_set_field, or put the rule below the first line.",
            reason="frontmatter-out-of-reach",
        )
    was, before = _structure(body)
    now, after = _structure(new_body)
    if after.inside and not before.inside:
        refuse_open_fence(new_body, after, path)
    # A heading the fragment itself touches is the edit's to change (a rename finds "Release
    # Commands", not "## Release Commands"): only the others must come through as they were.
    parts = [part.strip() for part in find.split("\n") if len(part.strip()) >= 3]
    replaced = Counter(
        line.strip() for line in body.split("\n") if _STRUCTURE.match(line) and any(p in line for p in parts)
    )
    lost = Counter(was) - replaced - Counter(now)
    if lost:
        shown = ", ".join(f'"{heading}"' for heading in list(lost)[:3])
        raise Refusal(
            f"This edit would turn {shown} of {path} into code: a fence it opens or closes pairs up with "
            "another one further down (a closing line with anything after it does not close). Keep every "
            "fence with its closing line.",
            reason="open-code-fence",
        )


_STRUCTURE = re.compile(r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|```|~~~)")
"""Headings of any level and the lines that open a code fence: what an edit elsewhere must leave as
they are."""


def _structure(text: str) -> tuple[list[str], FenceTracker]:
    """The headings of ``text`` outside code fences and the lines that open a fence; and the fence
    tracker as the text leaves it (inside a fence when one never closed)."""
    tracker = FenceTracker()
    found = []
    for line in text.split("\n"):
        inside = tracker.inside
        if tracker.feed(line) and inside:
            continue  # in a fence, or closing one
        if _STRUCTURE.match(line):
            found.append(line.strip())
    return found, tracker
