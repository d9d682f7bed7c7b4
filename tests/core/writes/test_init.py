"""init and materialize-flows: the 24-file seed, its contract, and templates that all instantiate."""

from __future__ import annotations

import subprocess

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.init import init, materialize_flows
from memorybank.core.layers import BUILTIN_LAYERS, DEFAULT_WEIGHTS
from memorybank.core.templates import shipped_templates, unwrap
from memorybank.core.validate import validate
from memorybank.core.write.create import create

from tests.conftest import tree_snapshot

LAYOUT = sorted(
    [
        "README.md",
        *(
            f"dna/{n}.md"
            for n in (
                "README",
                "changelog",
                "cross-references",
                "frontmatter",
                "glossary",
                "governance",
                "lifecycle",
                "principles",
            )
        ),
        "flows/README.md",
        "flows/epic-flow.md",
        "flows/feature-flow.md",
        "flows/workflows.md",
        "flows/templates/README.md",
        "product/context.md",
        "engineering/testing-policy.md",
        *(
            f"{d}/README.md"
            for d in ("product", "domain", "engineering", "ops", "adr", "use-cases", "features", "processes")
        ),
    ]
)


def test_init_writes_exactly_the_24_paths_and_validates_clean(tmp_path):
    """In a git repository the bank holds exactly the seed: the lock and journal live in ``.git/``."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    result = init(tmp_path / "memory_bank", name="ebook_parser")
    assert result.created and result.files == LAYOUT and len(LAYOUT) == 24
    on_disk = sorted(
        p.relative_to(tmp_path / "memory_bank").as_posix() for p in (tmp_path / "memory_bank").rglob("*") if p.is_file()
    )
    assert on_disk == LAYOUT
    assert (tmp_path / ".git" / "memorybank").is_dir()
    assert set(result.directories) == {
        "dna",
        "flows",
        "product",
        "domain",
        "engineering",
        "ops",
        "adr",
        "use-cases",
        "features",
        "processes",
    }
    bank = Bank.open(tmp_path / "memory_bank")
    assert validate(bank).findings == []
    assert "**ebook_parser**" in (tmp_path / "memory_bank/README.md").read_text()


def test_the_seeded_contract(seeded):
    contract = seeded.contract
    assert contract.present and contract.roots == {"dna/principles.md"}
    assert contract.requires_derived_from and contract.forbids_cycles
    assert len(contract.doc_kinds) == 14 and len(contract.doc_functions) == 9
    assert contract.statuses == {"draft", "active", "archived"}
    assert contract.delivery_statuses == {"planned", "in_progress", "done", "cancelled"}
    assert contract.decision_statuses == {"proposed", "accepted", "superseded", "rejected"}
    for doc in seeded:
        assert doc.doc_kind in contract.doc_kinds and doc.doc_function in contract.doc_functions, doc.path


def test_the_layer_table_is_the_built_in_map(seeded):
    layers = seeded.layers
    assert not layers.unknown and len(layers.declared) == 14
    assert all(BUILTIN_LAYERS[d] == layer for d, layer in layers.declared.items())
    assert layers.weights == DEFAULT_WEIGHTS


def test_drafts_are_registered_and_templates_are_not_copied(seeded):
    assert seeded.document("engineering/testing-policy.md").status == "draft"
    assert seeded.registered_in("engineering/testing-policy.md") == ["engineering/README.md"]
    assert seeded.registered_in("product/context.md") == ["product/README.md"]
    assert "Simplify Review" in [s.title for s in seeded.document("engineering/testing-policy.md").sections]
    assert [p for p in seeded.documents if p.startswith("flows/templates/")] == ["flows/templates/README.md"]
    assert not any(p.startswith(("epics/", "prd/", "prompts/")) for p in seeded.documents)


def test_the_project_name_init_was_given_is_read_back_from_the_root_index(tmp_path):
    """What the workbench's header shows instead of the folder's name; a purpose the owner reworded,
    or a bank seeded by something else, records no name."""
    from memorybank.core.init import recorded_name

    root = tmp_path / "checkout-svc" / "memory_bank"
    init(root, name="  Checkout Service: payments  ")
    assert recorded_name(Bank.open(root)) == "Checkout Service: payments"
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    readme.write_text(text.replace("Entry point of the", "The way into the"), encoding="utf-8")
    assert recorded_name(Bank.open(root)) is None
    (root / "README.md").unlink()
    assert recorded_name(Bank.open(root)) is None


def test_reinit_force_blank_name_and_dry_run(tmp_path):
    root = tmp_path / "memory_bank"
    dry = init(root, name="X", dry_run=True)
    assert not dry.created and "dna/governance.md" in dry.files and "README.md" in dry.files
    assert not root.exists()
    init(root, name="X")
    before = tree_snapshot(root)
    with pytest.raises(Refusal, match=r"already holds 24 documents"):
        init(root, name="X")
    assert tree_snapshot(root) == before
    (root / "product" / "context.md").write_text("# Context\n\nThe owner's own words.\n", encoding="utf-8")
    before = tree_snapshot(root)
    dry = init(root, name="X", force=True, dry_run=True)
    assert dry.warnings == [
        "Seeding over 24 existing documents. 1 differs from the starter and would be replaced: product/context.md."
    ]
    assert tree_snapshot(root) == before
    forced = init(root, name="Y", force=True)
    assert forced.warnings[0].startswith("Seeding over 24 existing documents. ")
    assert "were replaced: README.md, " in forced.warnings[0] and "product/context.md" in forced.warnings[0]
    with pytest.raises(Refusal, match="`name` is required"):
        init(tmp_path / "other", name="  ")
    assert not (tmp_path / "other").exists()


def test_materialize_copies_every_template_and_stays_clean(seeded):
    flow = (seeded.root / "flows/feature-flow.md").read_bytes()
    result = materialize_flows(seeded)
    assert len(result.files) == 24 and "flows/templates/adr/ADR-ID.md" in seeded.documents
    assert validate(seeded).findings == []
    assert (seeded.root / "flows/feature-flow.md").read_bytes() == flow
    with pytest.raises(Refusal, match="already holds 23 documents"):
        materialize_flows(seeded)
    forced = materialize_flows(seeded, force=True)
    assert any("Overwrote 23 documents" in w for w in forced.warnings)


def test_the_bank_copy_wins_after_materializing(seeded):
    materialize_flows(seeded)
    path = seeded.root / "flows/templates/adr/ADR-ID.md"
    path.write_text(path.read_text().replace("## Context", "## Local Context"))
    seeded.refresh()
    result = create(seeded, doc_kind="adr", path="adr/ADR-1.md", title="ADR 1", purpose="p.")
    assert result.template == "flows/templates/adr/ADR-ID.md"
    assert "## Local Context" in (seeded.root / "adr/ADR-1.md").read_text()


def targets_of_every_template() -> list[tuple[str, str, str]]:
    out = []
    for path, text in shipped_templates():
        front = text.split("---\n", 2)[1]
        kind = next(line.split(":", 1)[1].strip() for line in front.splitlines() if line.startswith("template_for:"))
        aim = next(
            line.split(":", 1)[1].strip() for line in front.splitlines() if line.startswith("template_target_path:")
        )
        target = aim.split("../")[-1].replace("<timestamp>", "20260101T000000Z").replace("<id>", "001")
        target = (
            target.replace("FT-XXX", "FT-001")
            .replace("EP-XXX", "EP-001")
            .replace("PROC-XXX", "PROC-001")
            .replace("UC-XXX", "UC-001")
        )
        out.append((path, kind, target))
    return out


@pytest.mark.parametrize("materialized", [False, True], ids=["shipped", "bank-owned"])
def test_every_template_instantiates_into_a_valid_document(seeded, materialized):
    if materialized:
        materialize_flows(seeded)
    cases = targets_of_every_template()
    assert len(cases) == 23
    for template, kind, target in cases:
        assert unwrap(dict(shipped_templates())[template]).wrapped, template
        result = create(
            seeded,
            doc_kind=kind,
            path=target,
            title=f"T {target}",
            purpose=f"Made from {template}.",
            derived_from=[_up(target) + "product/context.md"],
        )
        assert result.template == template, (template, result.template)
        doc = seeded.document(result.path)
        assert doc.parse_error is None and doc.doc_kind == kind and doc.status == "draft"
        assert doc.title == f"T {target}" and doc.sections, template
    report = validate(seeded)
    assert report.findings == [], [(f.rule, f.path, f.message) for f in report.findings]


def _up(target: str) -> str:
    return "../" * target.count("/")
