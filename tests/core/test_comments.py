"""A heading, a link or an anchor inside an HTML comment is hidden text, as a renderer shows it."""

from __future__ import annotations

from memorybank.core.anchors import outline
from memorybank.core.bank import Bank
from memorybank.core.parse import FenceTracker
from memorybank.core.section_index import split_sections
from memorybank.core.validate import validate

TEXT = """---
title: Doc
purpose: A document with a section commented out.
---
# Doc

## Kept

Text.

<!--
## Dropped

Old text with a [link](missing.md#nowhere).
-->

## Also kept

More.
"""


def test_a_commented_heading_is_no_section_anchor_or_section_evidence(tmp_path):
    (tmp_path / "doc.md").write_text(TEXT, encoding="utf-8")
    doc = Bank.open(tmp_path).documents["doc.md"]
    assert [s.title for s in doc.sections] == ["Kept", "Also kept"]
    assert [h.base for h in outline(TEXT)[1] if h.base.startswith("dropped")] == []
    parts = split_sections(TEXT.lower().split("\n"), 1)
    assert [p.heading for p in parts if "dropped" in p.heading] == []


def test_a_link_inside_a_comment_is_not_checked(tmp_path):
    (tmp_path / "doc.md").write_text(TEXT, encoding="utf-8")
    (tmp_path / "README.md").write_text("---\ntitle: Index\npurpose: The index.\n---\n# Index\n\n- [Doc](doc.md)\n")
    found = validate(Bank.open(tmp_path)).findings
    assert not [f for f in found if "missing.md" in f.message]


def test_comments_are_read_only_when_asked_and_never_inside_a_fence():
    lines = ["<!--", "## Hidden", "-->", "```", "<!--", "```", "## Shown"]
    reading = FenceTracker(comments=True)
    assert [reading.feed(line) for line in lines] == [True, True, True, True, True, True, False]
    plain = FenceTracker()  # the firewall and a write's shape see every line
    assert [plain.feed(line) for line in lines] == [False, False, False, True, True, True, False]
