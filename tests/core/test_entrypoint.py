"""The bank's entrypoint: where reachability starts, and an index whatever its frontmatter."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.validate import validate

from tests.conftest import SHARED

SECTION = "---\ntitle: Ops\ndoc_function: index\n---\n# Ops\n\n- [Deploy](deploy.md)\n"
DEPLOY = "---\ntitle: Deploy\npurpose: How we deploy.\n---\n# Deploy\n"
INDEX = "# Start\n\nRead this first.\n\n- [Ops](ops/README.md)\n- [Glossary](glossary.md)\n"
GLOSSARY = "---\ntitle: Glossary\n---\n# Glossary\n"


def findings(root, rule):
    return sorted(f.path for f in validate(Bank.open(root, cache=False), rule=rule).findings)


def make(write_file, tmp_path, readme: str | None):
    root = tmp_path / "memory_bank"
    for rel, text in (("ops/README.md", SECTION), ("ops/deploy.md", DEPLOY), ("index.md", INDEX)):
        write_file(root, rel, text)
    write_file(root, "glossary.md", GLOSSARY)
    if readme is not None:
        write_file(root, "README.md", readme)
    return root


def test_without_a_readme_a_root_index_md_is_the_entrypoint_and_an_index(write_file, tmp_path):
    root = make(write_file, tmp_path, None)
    bank = Bank.open(root, cache=False)
    assert bank.derived.entrypoint == "index.md"
    assert bank.registered_in("glossary.md") == ["index.md"]
    assert findings(root, "unregistered-doc") == []
    assert findings(root, "unreachable-doc") == []


@pytest.mark.parametrize(
    "readme",
    [
        "# Project\n\nThe canonical entrypoint is [the index](index.md).\n",
        "# Project\n\nStart here: [index.md](index.md)\n",
        "# Проект\n\nТочка входа: [index.md](index.md)\n",
        "---\ntitle: Project\nentrypoint: index.md\n---\n# Project\n\nSee [index](index.md).\n",
    ],
    ids=["entrypoint", "start-here", "russian", "field"],
)
def test_a_readme_naming_another_entrypoint_is_followed(write_file, tmp_path, readme):
    root = make(write_file, tmp_path, readme)
    assert Bank.open(root, cache=False).derived.entrypoint == "index.md"
    assert findings(root, "unreachable-doc") == []
    assert findings(root, "unregistered-doc") == []


def test_a_readme_that_only_mentions_index_md_stays_the_entrypoint(write_file, tmp_path):
    root = make(write_file, tmp_path, "# Project\n\nOld notes live in [index.md](index.md).\n")
    assert Bank.open(root, cache=False).derived.entrypoint == "README.md"
    # README.md links index.md, which is then an ordinary document; the section is still reached
    # only if an index links it.
    assert "ops/deploy.md" in findings(root, "unreachable-doc")


@pytest.mark.parametrize("name", ["lynxlg__telegram_shop_bot", "4itosik__feedium", "asromanychev__ai-setup"])
def test_real_banks_with_an_index_md_start_there(name):
    root = SHARED / "banks" / name / "memory_bank"
    if not root.is_dir():
        pytest.skip("the shared real banks are not beside the project")
    bank = Bank.open(root, cache=False)
    assert bank.derived.entrypoint == "index.md"
    unregistered = findings(root, "unregistered-doc")
    assert "index.md" not in unregistered
    linked = {link.target for link in bank.derived.index_links if link.source == "index.md"}
    assert linked and not linked & set(unregistered), "what the entrypoint links is registered"
