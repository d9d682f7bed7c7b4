"""Pinning route checks into dna/route-checks.md through the gates."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, Refusal
from memorybank.core.evaluate import parse_route_checks
from memorybank.core.validate import validate
from memorybank.core.write.checks import pin_route_check
from memorybank.core.write.create import create

from tests.conftest import REAL_BANKS, checkout, tree_snapshot


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


@pytest.mark.skipif(not REAL_BANKS, reason="../shared/banks is not beside the project")
def test_the_credential_firewall_refuses_nothing_the_real_banks_hold():
    """Every document of every real bank would pass the firewall: no false positive."""
    from memorybank.core.write.firewall import refuse_credentials

    checked = 0
    for root in REAL_BANKS:
        for path in sorted(root.rglob("*.md")):
            refuse_credentials(path.read_text(encoding="utf-8", errors="replace"), str(path.relative_to(root)))
            checked += 1
    assert checked > 1000


def test_a_pgpass_line_is_a_password_and_a_time_or_a_placeholder_is_not():
    """``~/.pgpass`` holds ``host:port:database:user:password``, one entry a line."""
    from memorybank.core.write.firewall import refuse_credentials

    for line in ("db.prod.internal:5432:shop:shop_app:Xk9mP2vQ7rLw", "*:*:*:replicator:r3pl1cat0rPass"):
        with pytest.raises(Refusal, match="line 3 of the new text holds what looks like a password in a pgpass line"):
            refuse_credentials(f"Notes.\n```\n{line}\n```\n", "x.md")
    for line in (
        "localhost:5432:shop:shop:devpass123",
        "db.prod.internal:5432:shop:shop_app:<password>",
        "db.prod.internal:5432:shop:shop_app:${PGPASSWORD}",
        "12:30:45:00:1a2b3c4d5e",
        "host:port:database:username:password",
    ):
        refuse_credentials(f"Notes.\n{line}\n", "x.md")


def test_an_authorization_header_with_a_placeholder_is_documentation_not_a_secret():
    from memorybank.core.write.firewall import refuse_credentials

    for text in ("Authorization: Bearer <token>", "Authorization: Bearer $API_TOKEN", "Authorization: Basic ${CREDS}"):
        refuse_credentials(f"Call it with:\n{text}\n", "x.md")


@pytest.mark.parametrize(
    "text",
    [
        "postgres://admin:S3cret@db/app",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "DB_PASSWORD=S3cretPass1",
        "k_AKIAIOSFODNN7EXAMPLE",
        "BOT_TOKEN=123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
        "curl -H 'Authorization: Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a' https://api",
        "Authorization: Basic dXNlcjpQYXNzdzByZDEyMzQ=",
        "token ghp_\u200b" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",  # split by a zero-width space
    ],
)
def test_the_credential_firewall_catches_what_slipped_through_before(text):
    from memorybank.core.write.firewall import refuse_credentials

    with pytest.raises(Refusal, match="what looks like an? ") as refused:
        refuse_credentials(f"Notes.\n{text}\n", "x.md")
    assert "a AWS" not in refused.value.message


@pytest.mark.parametrize(
    "text",
    [
        'password: "correct horse battery staple"',
        "DB_PASSWORD = 'correct horse battery staple'",
        '{"admin_password": "tulip Marble 7 orbit"}',
        "passphrase: `don't tread on me, ever`",
    ],
)
def test_a_quoted_passphrase_of_several_words_is_a_credential(text):
    """The assignment rule stops at the first space, so a passphrase of words passed the firewall."""
    from memorybank.core.write.firewall import refuse_credentials

    with pytest.raises(Refusal, match="line 2 of the new text holds what looks like a passphrase") as refused:
        refuse_credentials(f"Notes.\n{text}\n", "x.md")
    assert refused.value.reason == "credential"


@pytest.mark.parametrize(
    "text",
    [
        "the password field is required",
        'password: "<your password>"',
        'password: "changeme"',
        'password: "${DB_PASSWORD}"',
        'password: "your password here"',
        '"password": "must be at least 12 characters"',
        '{"password": "This field is required."}',
        'password: "stored in the team vault"',
        'pwd = "/home/me/my project"',
        'Set `password: "..."` in your local config.',
    ],
)
def test_prose_and_placeholders_about_a_password_are_not_a_credential(text):
    from memorybank.core.write.firewall import refuse_credentials

    refuse_credentials(f"Notes.\n{text}\n", "x.md")


def test_a_gated_write_refuses_a_quoted_passphrase_and_writes_nothing(seeded):
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match="passphrase assigned to password"):
        create(
            seeded,
            path="ops/staging.md",
            doc_kind="ops",
            title="Staging",
            purpose="How to reach staging.",
            body='# Staging\n\nLog in with password: "correct horse battery staple".\n',
        )
    assert tree_snapshot(seeded.root) == before


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_the_first_pin_takes_the_values_the_bank_declares_and_adds_no_finding(tmp_path):
    """ai-setup declares doc_function canonical, index and template: the new file is canonical."""

    from memorybank.core.bank import Bank

    root = tmp_path / "ai"
    checkout(next(p for p in REAL_BANKS if p.parent.name == "asromanychev__ai-setup"), root)
    bank = Bank.open(root)
    assert "reference" not in bank.contract.doc_functions and bank.contract.doc_functions
    before = {(f.rule, f.path) for f in validate(bank).findings}
    pin_route_check(bank, question="how do plugins write to the database", expected="project/overview.md")
    bank = Bank.open(root)
    added = {(f.rule, f.path) for f in validate(bank).findings} - before
    assert not {finding for finding in added if finding[0] != "route-check-failed"}, added
    text = (root / "dna/route-checks.md").read_text()
    assert "doc_function: canonical" in text


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_a_first_pin_registers_in_dna_index_md_when_that_is_the_banks_index(tmp_path):
    """feedium's dna/ is indexed by index.md: the pin promised dna/README.md and left the new
    checks file unregistered."""
    root = tmp_path / "memory_bank"
    checkout(next(p for p in REAL_BANKS if p.parent.name == "4itosik__feedium"), root)
    bank = Bank.open(root)
    preview = pin_route_check(bank, question="what is feedium", expected="index.md", dry_run=True)
    assert preview.created_file and preview.registered_in == "dna/index.md"
    pin_route_check(bank, question="what is feedium", expected="index.md")
    assert bank.registered_in("dna/route-checks.md") == ["dna/index.md"]
    assert "dna/route-checks.md" not in {f.path for f in validate(bank).findings if f.rule == "unregistered-doc"}
