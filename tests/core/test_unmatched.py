"""Question words no document holds: a slip read as the bank's word, a missing name said."""

from __future__ import annotations

import pytest
from memorybank.core.route import route
from memorybank.core.unmatched import names_in
from memorybank.tui.cli.main import main

from tests.core.route_banks import doc, small_bank


@pytest.fixture
def bank(tmp_path):
    return small_bank(
        tmp_path / "memory_bank",
        {
            "domain/auth.md": doc("Sign-in", "How users sign in.", "Authentication uses a token. " * 3),
            "domain/crypto.md": doc("Secrets", "What is kept secret.", "Encryption of messages at rest."),
            "adr/ADR-003-backend.md": doc("ADR-003: Backend", "The backend we run.", "One backend service."),
            "domain/payments.md": doc("Payments", "Cards.", "The strip of cards is shown; payment is made."),
            "domain/plans.md": doc("Планы", "Что запускаем.", "Запустить сервис и оплатить счёт."),
        },
    )


@pytest.mark.parametrize(
    ("question", "first", "hint"),
    [
        ("autentication", "domain/auth.md", 'Read "autentication" as "authentication".'),  # a letter left out
        ("encrpytion of messages", "domain/crypto.md", 'Read "encrpytion" as "encryption".'),  # two swapped
    ],
)
def test_a_slip_in_a_long_word_is_read_as_the_banks_word_and_the_hint_says_so(bank, question, first, hint):
    result = route(bank, question)
    assert result.hits[0].path == first and result.hint == hint


def test_a_real_word_or_a_short_name_is_never_read_as_another(bank):
    assert route(bank, "Stripe").hits == ()  # a short name, not a slip for "strip"
    result = route(bank, "заплатить за сервис")  # a Russian word the dictionaries know: not "запустить"
    assert not (result.hint or "").startswith("Read")


def test_a_missing_name_is_said_and_a_missing_ordinary_word_is_not(bank):
    result = route(bank, "how do we deploy the backend to Kubernetes")
    assert result.hits[0].path == "adr/ADR-003-backend.md"
    assert result.hint == 'No document mentions "kubernetes": the hits match the other words.'
    assert route(bank, "how did we tweak the backend").hint is None  # "tweak" is a paraphrase, not a topic


def test_names_are_capitalised_past_the_first_word_mixed_case_or_latin_in_russian():
    assert names_in("deploy to Kubernetes", ["deploy", "kubernetes"]) == ["kubernetes"]
    assert names_in("Deploy it with GraphQL", ["deploy", "graphql"]) == ["graphql"]
    assert names_in("деплой в kubernetes за 5000", ["деплой", "kubernetes", "5000"]) == ["kubernetes"]
    assert names_in("how many retries", ["retries"]) == []


def test_the_command_line_prints_the_hint_above_the_hits(bank, capsys):
    root = str(bank.root)
    assert main(["route", "autentication", "--root", root]) == 0
    out = capsys.readouterr().out
    assert out.startswith('(Read "autentication" as "authentication".)\n 1. domain/auth.md')
