"""Warming builds everything a route reads, so the first question costs what the next one does."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.route import route
from memorybank.core.warm import warm
from memorybank.mcp_server.front import warm as warm_server

QUESTIONS = ("почему выбрали такой формат записей?", "how do I write a new decision record?")


def _built(bank: Bank) -> dict[str, object]:
    """What the bank keeps per generation, by name (the router's indexes among them)."""
    return {name: value for name, (_generation, value) in bank._extensions.items()}


@pytest.mark.parametrize("question", QUESTIONS)
def test_warming_builds_what_a_cold_route_builds(fixture_bank, question: str) -> None:
    root = fixture_bank()
    cold = Bank.open(root, cache=False)
    route(cold, question)
    needed = set(_built(cold))
    assert {"search.index", "route.families", "route.roles"} <= needed

    warmed = Bank.open(root, cache=False)
    warm(warmed)
    before = _built(warmed)
    assert needed <= set(before)
    route(warmed, question)
    after = _built(warmed)
    assert after.keys() == before.keys()
    assert all(after[name] is before[name] for name in before), "the question rebuilt an index"


def test_the_server_warms_the_router_after_loading_the_bank(fixture_bank) -> None:
    bank = Bank.open(fixture_bank(), cache=False)
    warm_server(bank)
    assert {"search.index", "route.families", "route.roles"} <= set(_built(bank))
