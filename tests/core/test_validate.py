"""Validation: the reference fixture's exact findings, a golden fixture per rule, filters, caching."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.validate import RULE_ORDER, RULES, validate
from memorybank.core.validate.registry import ordered_rules

from tests.conftest import FIXTURES

RULE_FIXTURES = FIXTURES / "rules"


def describe(findings) -> list[str]:
    return [f"{f.rule} {f.severity} {f.path}{':' + str(f.line) if f.line else ''}" for f in findings]


def test_reference_fixture_gives_exactly_the_expected_findings_in_order():
    report = validate(Bank.open(FIXTURES / "reference"))
    assert [(f.rule, f.path, f.severity) for f in report.findings] == [
        ("invalid-frontmatter", "broken/bad-yaml.md", "error"),
        ("broken-derived-from", "engineering/architecture.md", "error"),
        ("unregistered-doc", "orphan.md", "warning"),
        ("unresolved-rule-reference", "features/FT-001/brief.md", "warning"),
        ("ssot-conflict", "conflict.md", "error"),
    ]
    assert (report.total, report.errors, report.warnings) == (5, 3, 2)
    messages = " ".join(f.message for f in report.findings)
    assert "../missing/nowhere.md" in messages and "outside-bank" not in messages
    conflict = report.findings[-1].message
    assert "filter_thresholds" in conflict and "conflict.md" in conflict and "2 documents" in conflict
    assert "escalation-ladder.md" in report.findings[3].message and report.findings[3].line


@pytest.mark.parametrize("rule", sorted(p.name for p in RULE_FIXTURES.iterdir()))
def test_each_rule_fires_on_its_fixture_and_stays_silent_on_its_near_miss(rule: str):
    expected = (RULE_FIXTURES / rule / "expected.txt").read_text().splitlines()
    assert describe(validate(Bank.open(RULE_FIXTURES / rule / "fires")).findings) == expected
    assert validate(Bank.open(RULE_FIXTURES / rule / "clean")).findings == []


def test_every_rule_has_a_golden_fixture_and_full_documentation():
    fixtures = {p.name for p in RULE_FIXTURES.iterdir()}
    for rule in ordered_rules():
        assert rule.name in fixtures or rule.name == "unreadable", rule.name  # see the test below
        assert rule.summary and "Fix:" in rule.doc and ("Example" in rule.doc or rule.name == "no-contract"), rule.name


def test_messages_carry_the_actionable_detail():
    did_you_mean = validate(Bank.open(RULE_FIXTURES / "unresolved-rule-reference" / "fires")).findings[0].message
    assert "Did you mean ../domain/rules.md (domain/rules.md)?" in did_you_mean
    cycle = validate(Bank.open(RULE_FIXTURES / "cycle-in-derived-from" / "fires")).findings[0].message
    assert cycle.count("->") == 3 and "domain/a.md" in cycle
    unreachable = validate(Bank.open(RULE_FIXTURES / "unreachable-doc" / "fires")).findings[0].message
    assert "ops/README.md" in unreachable


def test_contract_rules_do_not_run_where_dna_declares_nothing(tmp_path, write_file):
    write_file(tmp_path, "dna/readme.md", "# Notes\n")
    write_file(tmp_path, "a.md", "---\nstatus: active\ndoc_kind: whatever\n---\n")
    write_file(tmp_path, "b.md", "---\nderived_from: [c.md]\n---\n")
    write_file(tmp_path, "c.md", "---\nderived_from: [b.md]\n---\n")
    rules = {f.rule for f in validate(Bank.open(tmp_path)).findings}
    assert not rules & {"missing-derived-from", "cycle-in-derived-from", "unknown-enum-value", "no-contract"}


def test_degraded_bank_reports_no_contract_once_whatever_the_scope(tmp_path):
    shutil.copytree(FIXTURES / "reference" / "engineering", tmp_path / "engineering")  # a bank without dna/
    bank = Bank.open(tmp_path / "engineering")
    report = validate(bank, scope="architecture.md")
    assert [f.rule for f in report.findings][-1:] == ["no-contract"]


@pytest.mark.parametrize("scope", ["nothing-here", "/etc", "../outside"])
def test_a_scope_that_names_nothing_in_the_bank_is_an_error_not_a_clean_report(scope):
    from memorybank.core.errors import BankError

    with pytest.raises(BankError, match="names nothing in this bank|must stay inside the bank"):
        validate(Bank.open(FIXTURES / "reference"), scope=scope)


def test_filters_scope_severity_and_rule():
    bank = Bank.open(FIXTURES / "reference")
    scoped = validate(bank, scope="engineering")
    assert {f.path for f in scoped.findings} == {"engineering/architecture.md"}
    assert validate(bank, scope="./memory_bank/engineering/").findings == scoped.findings
    assert all(f.severity == "warning" for f in validate(bank, severity="warning").findings)
    only = validate(bank, rule="ssot-conflict")
    assert only.total == 1 and only.by_rule == {"ssot-conflict": 1}
    assert validate(bank, scope="domain", rule="ssot-conflict").total == 1  # domain/rules.md is an owner
    with pytest.raises(UsageError, match="Unknown rule"):
        validate(bank, rule="nope")
    with pytest.raises(UsageError, match="Unknown severity"):
        validate(bank, severity="fatal")


def test_files_keep_only_the_findings_on_them_and_a_conflict_for_each_of_its_owners(tmp_path):
    bank = Bank.open(FIXTURES / "reference")
    assert describe(validate(bank, files=["orphan.md", "engineering/architecture.md"]).findings) == [
        "broken-derived-from error engineering/architecture.md:8",
        "unregistered-doc warning orphan.md",
    ]
    assert validate(bank, files=[]).total == 0  # none given: none kept (the CLI passes None for "all")
    conflict = Bank.open(RULE_FIXTURES / "ssot-conflict" / "fires")
    for owner in ("domain/a.md", "domain/b.md"):  # reported on a.md, claimed by both
        assert validate(conflict, files=[owner]).by_rule == {"ssot-conflict": 1}
    shutil.copytree(FIXTURES / "reference" / "engineering", tmp_path / "engineering")
    no_contract = Bank.open(tmp_path / "engineering")  # a bank with no dna/ of its own
    assert validate(no_contract, files=["nothing.md"]).by_rule == {"no-contract": 1}


def test_results_are_cached_until_the_disk_changes(fixture_bank):
    root = fixture_bank()
    bank = Bank.open(root)
    first = validate(bank)
    assert validate(bank).findings is not first.findings  # a fresh list each call...
    assert validate(bank).findings == first.findings  # ...of the cached findings
    (root / "orphan.md").unlink()
    bank.refresh()
    assert "unregistered-doc" not in validate(bank).by_rule


def test_rule_order_is_the_fixed_rank():
    assert RULE_ORDER[:7] == (
        "unreadable",
        "not-utf8",
        "invalid-frontmatter",
        "broken-derived-from",
        "missing-derived-from",
        "cycle-in-derived-from",
        "unregistered-doc",
    )
    assert RULE_ORDER[-1] == "no-contract"
    assert set(RULES) <= set(RULE_ORDER)


def test_readme_rule_table_is_generated_from_the_registry():
    from memorybank.core.validate import rules_table

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    start, end = "<!-- rules:start -->\n", "\n<!-- rules:end -->"
    assert start in readme and end in readme, "README.md lacks the rule table markers"
    current = readme.split(start, 1)[1].split(end, 1)[0]
    assert current == rules_table(), "README's rule table is stale: paste `python -m memorybank.core.validate` output"


def test_every_rule_has_a_golden_fixture_except_the_one_git_cannot_hold():
    """A file's read permission does not travel in git, so ``unreadable`` is tested by making one."""
    assert {p.name for p in RULE_FIXTURES.iterdir()} == set(RULES) - {"unreadable"}


def test_an_unreadable_file_or_folder_is_a_finding_and_read_says_why(tmp_path):
    """Run as a user other than root (root reads everything): the file is named, not skipped."""
    import os
    import shutil
    import subprocess
    import sys

    root = tmp_path / "memory_bank"
    shutil.copytree(RULE_FIXTURES / "unregistered-doc" / "clean", root)
    (root / "secret.md").write_text("---\ntitle: Secret\n---\n# Secret\n", encoding="utf-8")
    (root / "locked").mkdir()
    (root / "locked" / "inside.md").write_text("# Inside\n", encoding="utf-8")
    a = root / "domain" / "a.md"  # a link to a file that cannot be read is not a link to nothing
    a.write_text(
        a.read_text(encoding="utf-8").replace("  - ../dna/governance.md", "  - ../secret.md"), encoding="utf-8"
    )
    with (root / "README.md").open("a", encoding="utf-8") as index:
        index.write("- [secret.md](secret.md)\n- [locked/inside.md](locked/inside.md)\n")
    os.chmod(root / "secret.md", 0o000)
    os.chmod(root / "locked", 0o000)
    for folder in (tmp_path, *tmp_path.parents):
        if folder != Path("/"):
            os.chmod(folder, os.stat(folder).st_mode | 0o005)
    as_user = [] if os.geteuid() != 0 else ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if as_user and not shutil.which("setpriv"):
        pytest.skip("running as root, and setpriv is not there to drop to another user")
    project = Path(__file__).resolve().parents[2]
    script = (
        "import sys; from memorybank.core.bank import Bank; from memorybank.core.validate import validate; from memorybank.core.errors import BankError\n"
        "bank = Bank.open(sys.argv[1])\n"
        "for f in validate(bank).findings: print(f.rule, f.path, f.message)\n"
        "try:\n    bank.document('secret.md')\nexcept BankError as e: print('READ', e.reason, e.message)\n"
    )
    done = subprocess.run(
        [*as_user, sys.executable, "-c", script, str(root)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(project), "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith("unreadable secret.md This file exists but cannot be read (Permission denied)")
        for line in lines
    ), lines
    assert any(line.startswith("unreadable locked/ This folder exists") for line in lines), lines
    assert not [line for line in lines if line.startswith(("broken-derived-from", "dangling-index-entry"))], lines
    assert "READ unreadable secret.md exists but cannot be read (Permission denied)." in done.stdout


def test_a_folder_that_refuses_its_listing_part_way_is_an_unreadable_finding(tmp_path, monkeypatch):
    """Some folders (``/proc``'s ``map_files``) open, then refuse while they are listed: that is an
    unreadable folder of the bank, not a storage error of a read command."""
    import os

    from memorybank.core import index

    root = tmp_path / "memory_bank"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "a.md").write_text("---\ntitle: A\n---\n# A\n", encoding="utf-8")
    (root / "b.md").write_text("---\ntitle: B\n---\n# B\n", encoding="utf-8")
    real = os.scandir

    class Refusing:
        def __init__(self, path):
            self.inner = real(path)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.inner.close()

        def __iter__(self):
            raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(index.os, "scandir", lambda path: Refusing(path) if path.endswith("notes") else real(path))
    unreadable: dict[str, str] = {}
    assert list(index.walk(root, unreadable)) == ["b.md"]
    assert unreadable == {"notes/": "Operation not permitted"}


@pytest.mark.parametrize(
    ("front", "fix"),
    [
        ("purpose: Read this: now", 'quote any value containing ": "'),
        ("title: D\ntitle: E", "give each key once"),
        ("title: C\n\tstatus: active", "indent with spaces, not tabs"),
        ("status: [active\nx: 1", "close the [ list"),
    ],
)
def test_a_frontmatter_error_gets_the_fix_its_own_complaint_points_to(tmp_path, front, fix):
    """The same colon hint on a tab, a duplicate key and an unclosed bracket sent owners hunting for
    a colon that was not there."""
    from memorybank.core.bank import Bank
    from memorybank.core.validate import validate

    (tmp_path / "doc.md").write_text(f"---\n{front}\n---\n# Doc\n", encoding="utf-8")
    (message,) = [f.message for f in validate(Bank.open(tmp_path), rule="invalid-frontmatter").findings]
    assert message.endswith(f"; {fix}.") or f"; {fix}" in message
    assert message.count(";") == 1, message
