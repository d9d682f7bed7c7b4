"""The generated-bank scenario: a bank built only through the gates stays at zero findings.

Seeded with init, filled only through create (five documents), committed to git, one more document
after the commit; then routing in both languages, the graph, search, the git delta, three refused
writes, and still zero findings. Also the starter's own routing sanity on a fresh bank.
"""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.changes import changes_since
from memorybank.core.errors import GitError, PathRefused, Refusal
from memorybank.core.graph import walk_graph
from memorybank.core.init import init, materialize_flows
from memorybank.core.route import route
from memorybank.core.search import search
from memorybank.core.validate import validate
from memorybank.core.write.create import create

from tests.conftest import git, tree_snapshot

ADR = "adr/ADR-20260830T120000Z-two-formats-one-model.md"
FEATURE = "features/FT-01-extract-package/brief.md"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    top = tmp_path_factory.mktemp("generated")
    root = top / "memory_bank"
    seeded = init(root, name="ebook_parser")
    bank = Bank.open(root)
    create(
        bank,
        doc_kind="domain",
        path="domain/model.md",
        title="Document Model",
        purpose="The one model that every input format is read into.",
        derived_from=["../product/context.md"],
        canonical_for=["document_model"],
        status="active",
    )
    create(
        bank,
        doc_kind="domain",
        path="domain/rules.md",
        title="Parsing Rules",
        purpose="Canonical filter thresholds and the invariants every parser keeps.",
        derived_from=["model.md"],
        canonical_for=["filter_thresholds"],
        status="active",
    )
    create(
        bank,
        doc_kind="engineering",
        path="engineering/architecture.md",
        title="Architecture",
        purpose="Package layout: which module reads which format and how they depend on each other.",
        derived_from=["../domain/model.md", "../domain/rules.md"],
        canonical_for=["package_layout"],
        status="active",
    )
    create(
        bank,
        doc_kind="adr",
        path=ADR,
        title="Two Formats, One Model",
        purpose="Why EPUB and FB2 are read into one document model instead of two.",
        derived_from=["../domain/model.md"],
        status="active",
    )
    create(
        bank,
        doc_kind="feature",
        path=FEATURE,
        title="FT-01 Extract Package",
        purpose="Deliver the package layout extraction for both formats.",
        derived_from=["../../engineering/architecture.md"],
        status="active",
    )
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "bank")
    create(
        bank,
        doc_kind="domain",
        path="domain/glossary.md",
        title="Glossary",
        purpose="Words of the book domain.",
        derived_from=["model.md"],
        status="active",
    )
    return bank, seeded


def test_a_bank_filled_only_through_create_has_zero_findings(generated):
    bank, seeded = generated
    assert len(seeded.files) == 24 and len(bank) == 30
    assert "flows/feature-flow.md" in bank and "flows/templates/adr/ADR-ID.md" not in bank
    assert bank.contract.present and bank.contract.requires_derived_from
    assert validate(bank).findings == []
    assert bank.registered_in("domain/model.md") == ["domain/README.md"]
    assert bank.registered_in(ADR) == ["adr/README.md"]
    assert bank.registered_in(FEATURE) == ["features/README.md"]


def test_dry_run_templates(generated):
    bank, _ = generated
    adr = create(bank, doc_kind="adr", path="adr/ADR-x.md", title="X", purpose="x.", dry_run=True)
    assert adr.template == "flows/templates/adr/ADR-ID.md"
    domain = create(bank, doc_kind="domain", path="domain/x.md", title="X", purpose="x.", dry_run=True)
    assert domain.template is None and any('No template matched doc_kind "domain"' in w for w in domain.warnings)


def first(bank, question, limit=5):
    return [hit.path for hit in route(bank, question, limit=limit).hits]


def test_routing_in_both_languages(generated):
    bank, _ = generated
    assert first(bank, "filter thresholds")[0] == "domain/rules.md"
    assert first(bank, "package layout")[0] == "engineering/architecture.md"
    assert first(bank, "где пороги фильтрации")[0] == "domain/rules.md"
    assert first(bank, "почему два формата одна модель")[0] == ADR
    assert first(bank, "why two formats one model")[0] == ADR
    five = first(bank, "package layout", limit=10)  # knowledge ranks above the delivery document
    assert five[0] == "engineering/architecture.md" and FEATURE in five


def test_the_graph(generated):
    bank, _ = generated
    down = walk_graph(bank, "domain/model.md", direction="down", depth=3)
    assert [n.path for n in down.nodes if n.depth > 0] == sorted(
        [ADR, "domain/glossary.md", "domain/rules.md", "engineering/architecture.md", FEATURE],
        key=lambda p: (
            {"domain/glossary.md": 1, "domain/rules.md": 1, ADR: 1, "engineering/architecture.md": 2, FEATURE: 3}[p],
            p,
        ),
    )
    assert down.broken == ()
    up = walk_graph(bank, FEATURE, direction="up", depth=5)
    assert "dna/governance.md" in [n.path for n in up.nodes] and up.broken == ()


def test_search_and_the_delta(generated):
    bank, _ = generated
    assert [h.path for h in search(bank, "frontmatter", limit=3).hits][0] == "dna/frontmatter.md"
    delta = changes_since(bank, "HEAD")
    kinds = {c.path: c.change_kind for c in delta.changes}
    assert delta.mode == "git" and kinds["domain/glossary.md"] == "added" and kinds["domain/README.md"] == "modified"
    with pytest.raises(GitError, match="not a commit"):
        changes_since(bank, "no-such-ref-here")
    walked = changes_since(bank, "HEAD~20")
    assert (
        walked.mode == "git" and "reaches past the start of this repository" in (walked.note or "") and walked.changes
    )


def test_three_refusals_leave_zero_findings(generated):
    bank, _ = generated
    before = tree_snapshot(bank.root)
    with pytest.raises(Refusal, match=r"already owned by domain/model\.md"):
        create(
            bank,
            doc_kind="domain",
            path="domain/second.md",
            title="S",
            purpose="s.",
            canonical_for=["document_model"],
            derived_from=["model.md"],
        )
    with pytest.raises(Refusal, match="does not resolve to a document of this bank"):
        create(
            bank,
            doc_kind="domain",
            path="domain/third.md",
            title="T",
            purpose="t.",
            derived_from=["../does-not-exist.md"],
        )
    with pytest.raises(PathRefused, match="must stay inside the bank"):
        create(bank, doc_kind="domain", path="../escape.md", title="E", purpose="e.")
    assert tree_snapshot(bank.root) == before
    assert validate(bank).findings == []


def test_a_fresh_bank_routes_its_own_questions(tmp_path):
    init(tmp_path / "memory_bank", name="Fresh")
    bank = Bank.open(tmp_path / "memory_bank")
    assert first(bank, "frontmatter schema", limit=1) == ["dna/frontmatter.md"]
    assert first(bank, "how a feature package moves through its gates", limit=1) == ["flows/feature-flow.md"]
    materialize_flows(bank)
    templates = {d.path for d in bank if d.is_template}
    assert len(templates) == 23
    for question in ("feature flow gates", "record a decision", "filter thresholds", "brief template"):
        assert not set(first(bank, question, limit=10)) & templates
