"""The one path resolver: accepted forms and every way out of the bank refused."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, PathRefused
from memorybank.core.paths import relative_link, resolve_from


@pytest.fixture
def bank(fixture_bank):
    return Bank.open(fixture_bank())


def test_accepted_forms_fold_to_the_bank_relative_path(bank):
    absolute = str(bank.root / "domain" / "rules.md")
    for given in (
        "domain/rules.md",
        "./domain/rules.md",
        "memory_bank/domain/rules.md",
        "memory-bank/domain/rules.md",
        absolute,
        " domain//rules.md ",
    ):
        assert bank.document(given).path == "domain/rules.md", given


def test_the_folder_prefix_is_kept_when_the_bank_really_has_such_a_folder(bank, write_file):
    write_file(bank.root, "memory_bank/inner.md", "# Inner\n")
    bank.refresh()
    assert bank.document("memory_bank/inner.md").path == "memory_bank/inner.md"


@pytest.mark.parametrize(
    "given, fragment",
    [
        ("../secret.md", "must stay inside"),
        ("a/../../x.md", "must stay inside"),
        ("domain/../rules.md", "must stay inside"),
        ("/etc/passwd", "outside"),
        ("bad\0name.md", "NUL"),
        ("", "required"),
    ],
)
def test_every_escape_form_is_refused_with_a_reason(bank, given, fragment):
    with pytest.raises(PathRefused) as refused:
        bank.resolve(given)
    assert fragment in refused.value.message


def test_a_symlink_leading_outside_is_refused(bank, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (bank.root / "escape").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathRefused, match="symbolic link"):
        bank.resolve("escape/new.md")


def test_lookups_outside_the_bank_say_not_a_document(bank):
    with pytest.raises(NotADocument, match="Not a document of this bank") as refused:
        bank.document("../secret.md")
    said = str(refused.value)  # one sentence: the path and why, not a refusal nested in another
    assert said.startswith("Not a document of this bank: ../secret.md (`..` is not accepted")
    assert "Path must stay" not in said and said.count("(") == 1
    with pytest.raises(NotADocument, match="Not a document of this bank: nope.md"):
        bank.document("nope.md")


def test_resolve_from_the_declaring_document():
    assert resolve_from("a/b/c.md", "../d.md") == ("a/d.md", False)
    assert resolve_from("a/c.md", "./x/y.md#z") == ("a/x/y.md", False)
    assert resolve_from("a/c.md", "#only-anchor") == (None, False)
    assert resolve_from("a/c.md", "../../up.md") == (None, True)
    assert resolve_from("c.md", "https://h/y.md") == (None, True)


def test_relative_link_between_documents():
    assert relative_link("domain/README.md", "domain/rules.md") == "rules.md"
    assert relative_link("README.md", "adr/x.md") == "adr/x.md"
    assert relative_link("features/FT/brief.md", "domain/rules.md") == "../../domain/rules.md"
