"""Pinning route checks into dna/route-checks.md through the gates."""

from __future__ import annotations

import pytest

from core.errors import NotADocument, Refusal
from core.evaluate import parse_route_checks
from core.validate import validate
from core.write.checks import pin_route_check
from core.write.create import create
from tests.conftest import tree_snapshot


def test_first_pin_creates_a_registered_governed_file(seeded):
    result = pin_route_check(seeded, question="frontmatter schema", expected="memory_bank/dna/frontmatter.md")
    assert result.created_file and result.expected == "dna/frontmatter.md"
    assert seeded.registered_in("dna/route-checks.md") == ["dna/README.md"]
    checks = parse_route_checks((seeded.root / "dna/route-checks.md").read_text())
    assert [(c.question, c.expected) for c in checks] == [("frontmatter schema", ("dna/frontmatter.md",))]
    assert [f.rule for f in validate(seeded).findings if f.rule != "route-check-failed"] == []


def test_pinning_again_adds_rows_and_replaces_a_known_question(seeded):
    pin_route_check(seeded, question="frontmatter schema", expected="dna/frontmatter.md")
    pin_route_check(seeded, question="who | owns what", expected="dna/governance.md")
    replaced = pin_route_check(seeded, question="Frontmatter Schema", expected="dna/governance.md")
    assert replaced.replaced
    checks = parse_route_checks((seeded.root / "dna/route-checks.md").read_text())
    assert [(c.question, c.expected[0]) for c in checks] == [
        ("Frontmatter Schema", "dna/governance.md"),
        ("who | owns what", "dna/governance.md"),
    ]


def test_pin_refusals_write_nothing(seeded):
    create(seeded, doc_kind="domain", path="n.md", title="N", purpose="n.", inbox=True)
    before = tree_snapshot(seeded.root)
    with pytest.raises(NotADocument):
        pin_route_check(seeded, question="q", expected="nope.md")
    with pytest.raises(Refusal, match="quarantined"):
        pin_route_check(seeded, question="q", expected="_inbox/n.md")
    with pytest.raises(Refusal, match="one line"):
        pin_route_check(seeded, question="a\nb", expected="dna/governance.md")
    with pytest.raises(Refusal, match="required"):
        pin_route_check(seeded, question=" ", expected="dna/governance.md")
    assert tree_snapshot(seeded.root) == before
