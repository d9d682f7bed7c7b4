"""Our frontmatter reader beside python-frontmatter, input by input.

The product reads frontmatter with its own splitter and a YAML 1.2-core loader (``core.parse``)
rather than python-frontmatter. This table pins every input where the two disagree, so the choice
stays a measured one (README, design notes): each row is an input real banks hold, what the
library makes of it, and what we do instead. ``tests/benchmarks/frontmatter_split.py`` measures
the speed of both over the real banks.
"""

from __future__ import annotations

import frontmatter
import pytest
import yaml
from memorybank.core.parse import parse_document

ROWS = [
    # (input, the library's metadata or the exception it raises, ours, our parse error or None)
    ("---\ntitle: A\n---\n# A\n", {"title": "A"}, {"title": "A"}, None),
    ("---\r\ntitle: A\r\n---\r\n# A\r\n", {"title": "A"}, {"title": "A"}, None),
    # A BOM before the opening line (Windows editors write one): the library sees no frontmatter.
    ("\ufeff---\ntitle: A\n---\n# A\n", {}, {"title": "A"}, None),
    # A block that never closes: the library quietly reads it all as body; we say so.
    ("---\ntitle: A\n# A\n", {}, {}, "never closes"),
    # `no` is the string a person meant (YAML 1.2 core); the library's YAML 1.1 makes it False.
    ("---\ndraft: no\n---\nx\n", {"draft": False}, {"draft": "no"}, None),
    # An unquoted colon, the commonest defect in real banks: the library raises for the whole file,
    # we recover the value line by line and report the error.
    ("---\npurpose: Read this: when\n---\nx\n", yaml.YAMLError, {"purpose": "Read this: when"}, "mapping values"),
    # A key given twice: the library keeps the last silently; we keep it too and report it.
    ("---\ntitle: A\ntitle: B\n---\nx\n", {"title": "B"}, {"title": "B"}, "duplicated mapping key"),
    # YAML's document-end marker closes the block for us; the library does not know it.
    ("---\ntitle: A\n...\nx\n", {}, {"title": "A"}, None),
    # A language tag after the opening dashes.
    ("---yaml\ntitle: A\n---\nx\n", {}, {"title": "A"}, None),
    # Four dashes are a thematic break, not a frontmatter fence.
    ("----\ntitle: A\n----\nx\n", {"title": "A"}, {}, None),
    # A horizontal rule in the body of a document without frontmatter: both leave it alone.
    ("# A\n\n---\n\ntext\n---\n", {}, {}, None),
]


@pytest.mark.parametrize(("text", "library", "ours", "error"), ROWS)
def test_where_the_library_and_our_reader_differ(text, library, ours, error):
    if isinstance(library, type) and issubclass(library, Exception):
        with pytest.raises(library):
            frontmatter.loads(text)
    else:
        assert dict(frontmatter.loads(text).metadata) == library
    doc, _ = parse_document("a.md", text.encode("utf-8"))
    assert doc.frontmatter == ours
    assert (doc.parse_error is None) if error is None else (error in doc.parse_error)


def test_the_library_loses_the_body_offsets_a_byte_faithful_edit_needs():
    """python-frontmatter strips the body it returns, so a line number in it is not a line of the
    file; our split keeps the body's first line number and every byte."""
    text = "---\ntitle: A\n---\n\n\n# A\n\nbody\n"
    assert frontmatter.loads(text).content == "# A\n\nbody"
    doc, decoded = parse_document("a.md", text.encode("utf-8"))
    assert doc.body_line == 4 and decoded == text
