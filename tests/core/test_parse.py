"""Parsing one document: frontmatter forms, recovery of invalid YAML, sections, links, encodings."""

from __future__ import annotations

from memorybank.core.frontmatter import lenient_frontmatter
from memorybank.core.parse import parse_document, split_frontmatter

BAD_YAML = b"""---
title: Retry Policy
doc_kind: engineering
purpose: Retry policy: how the retry layer backs off
derived_from:
  - ../dna/principles.md
  - path: ../adr/a.md
    fit: "Only the topology."
canonical_for: [retry_policy, backoff_rules]
status: active
---
# Retry Policy

## Backoff

Exponential.
"""


def test_invalid_yaml_keeps_the_document_with_recovered_values_and_the_error():
    doc, _ = parse_document("broken/bad-yaml.md", BAD_YAML)
    assert doc.parse_error and "mapping values" in doc.parse_error
    assert doc.purpose == "Retry policy: how the retry layer backs off"
    assert doc.doc_kind == "engineering" and doc.status == "active"
    assert doc.canonical_for == ("retry_policy", "backoff_rules")
    assert [(e.resolved, e.fit) for e in doc.derived_from] == [
        ("dna/principles.md", None),
        ("adr/a.md", "Only the topology."),
    ]
    assert [s.title for s in doc.sections] == ["Backoff"]


def test_duplicate_keys_are_an_error_not_a_silent_overwrite():
    doc, _ = parse_document("a.md", b"---\ntitle: One\ntitle: Two\n---\nbody\n")
    assert doc.parse_error and "duplicated" in doc.parse_error
    assert doc.title == "Two"  # the lenient reader keeps the last line it saw


def test_yes_and_no_stay_the_strings_a_human_meant():
    doc, _ = parse_document("a.md", b"---\nstatus: yes\npurpose: no\n---\n")
    assert doc.status == "yes" and doc.purpose == "no"
    assert doc.parse_error is None


def test_sections_have_line_ranges_and_ignore_fenced_headings():
    raw = (
        b"---\ntitle: T\n---\n"  # lines 1-3
        b"# T\n"  # 4
        b"## One\n"  # 5
        b"text\n"  # 6
        b"```\n## not a heading\n```\n"  # 7-9
        b"## Two ##\n"  # 10
        b"````markdown\n```\n## nested fence\n```\n## still inside\n````\n"  # 11-16
        b"tail\n"  # 17
    )
    doc, _ = parse_document("x.md", raw)
    assert [(s.title, s.line, s.end_line) for s in doc.sections] == [("One", 5, 9), ("Two", 10, 17)]
    assert doc.body_line == 4 and doc.line_count == 17


def test_a_level_one_heading_ends_a_section():
    doc, _ = parse_document("x.md", b"## A\na\n# B\nb\n")
    assert [(s.title, s.end_line) for s in doc.sections] == [("A", 2)]


def test_title_falls_back_to_the_first_h1_then_the_file_stem():
    assert parse_document("a/b.md", b"---\ntitle: Given\n---\n# H1\n")[0].title == "Given"
    assert parse_document("a/b.md", b"---\ndoc_kind: x\n---\n```\n# fenced\n```\n# Real H1\n")[0].title == "Real H1"
    assert parse_document("a/some-name.md", b"no heading\n")[0].title == "some-name"


def test_derived_from_as_string_list_and_mapping_forms():
    one = parse_document("a/x.md", b"---\nderived_from: ../b.md\n---\n")[0]
    assert [e.resolved for e in one.derived_from] == ["b.md"]
    many = parse_document("a/x.md", b"---\nderived_from:\n  - y.md\n  - path: ../z.md#part\n    fit: why\n---\n")[0]
    assert [(e.raw, e.resolved, e.fit) for e in many.derived_from] == [
        ("y.md", "a/y.md", None),
        ("../z.md#part", "z.md", "why"),
    ]


def test_derived_from_targets_outside_the_bank_are_external_never_broken():
    doc = parse_document(
        "features/FT/brief.md",
        b"---\nderived_from:\n  - ../../../outside/up.md\n  - https://example.com/issue/1\n  - /etc/x.md\n---\n",
    )[0]
    assert all(e.external and e.resolved is None for e in doc.derived_from)


def test_derived_from_with_the_bank_folder_prefix_is_read_from_the_bank_root():
    doc = parse_document("features/x.md", b"---\nderived_from:\n  - memory_bank/dna/governance.md\n---\n")[0]
    assert doc.derived_from[0].resolved == "dna/governance.md"


def test_links_in_every_shape_outside_fences_and_code_spans():
    raw = (
        b'- [a](a.md)\n| [b](sub/b.md) | x |\n1. [c](../c.md#frag)\nProse [d](d.md "title").\n'
        b"`[not](code.md)`\n```\n[fenced](f.md)\n```\n[ref]: refs/e.md\n[site](https://x.org/y.md)\n"
    )
    doc = parse_document("dir/README.md", raw)[0]
    assert [(link.raw, link.resolved) for link in doc.links] == [
        ("a.md", "dir/a.md"),
        ("sub/b.md", "dir/sub/b.md"),
        ("../c.md#frag", "c.md"),
        ("d.md", "dir/d.md"),
        ("refs/e.md", "dir/refs/e.md"),
        ("https://x.org/y.md", None),
    ]


def test_bom_crlf_and_bytes_that_are_not_utf8_never_break_parsing():
    raw = "\ufeff---\r\ntitle: Crlf Doc\r\nstatus: active\r\n---\r\n# Crlf Doc\r\n\r\n## Part\r\nText \xe9\r\n".encode()
    doc = parse_document("a.md", raw)[0]
    assert doc.bom and doc.crlf and doc.title == "Crlf Doc" and doc.status == "active"
    assert [(s.title, s.line) for s in doc.sections] == [("Part", 7)]
    latin = parse_document("b.md", b"---\ntitle: Caf\xe9\n---\nbody\n")[0]
    assert latin.decode_error and latin.title.startswith("Caf")


def test_empty_files_and_files_without_frontmatter():
    empty = parse_document("empty.md", b"")[0]
    assert empty.title == "empty" and not empty.has_frontmatter and empty.line_count == 0
    plain = parse_document("plain.md", b"# Plain\n\n## Only\n")[0]
    assert plain.title == "Plain" and [s.title for s in plain.sections] == ["Only"]


def test_unclosed_frontmatter_is_reported_and_the_text_kept_as_body():
    doc = parse_document("a.md", b"---\ntitle: never closed\n\n## Section\n")[0]
    assert doc.parse_error and "never closes" in doc.parse_error
    assert [s.title for s in doc.sections] == ["Section"]


def test_four_dashes_are_not_frontmatter():
    assert not split_frontmatter("----\ntitle: x\n---\n").has_frontmatter


def test_lenient_reader_keeps_an_unquoted_colon_value_whole():
    data = lenient_frontmatter("purpose: Read when: the build breaks\nstatus: 'draft'\n")
    assert data == {"purpose": "Read when: the build breaks", "status": "draft"}


def test_non_mapping_frontmatter_is_an_error():
    doc = parse_document("a.md", b"---\n- just\n- a list\n---\nbody\n")[0]
    assert doc.parse_error and "not a mapping" in doc.parse_error


def test_a_file_with_lone_cr_line_endings_reads_its_frontmatter_and_sections():
    """Classic Mac line endings: the frontmatter closes and every heading is a section."""
    data = b"---\rtitle: Old Mac\rstatus: active\r---\r# Old Mac\r\r## One\r\rtext\r\r## Two\r"
    doc, _ = parse_document("old.md", data)
    assert doc.parse_error is None and doc.title == "Old Mac" and doc.status == "active"
    assert [s.title for s in doc.sections] == ["One", "Two"]
