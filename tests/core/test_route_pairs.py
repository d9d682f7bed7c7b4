"""Two words the question puts side by side, side by side in a body: a softer phrase match."""

from __future__ import annotations

from memorybank.core import route as route_module
from memorybank.core.proximity import pairs_held
from memorybank.core.route import route

from tests.core.route_banks import doc, small_bank

FILLER = "The invoice screen lists every line of the order with its tax and its total. "


def test_a_pair_counts_within_two_places_in_either_order_and_in_any_form():
    positions = {"rounded": [10], "rounding": [40], "twice": [8], "amount": [60], "amounts": [25]}
    concepts = [
        (1.0, {"amount": 1.0, "amounts": 1.0}),
        (1.0, {"rounded": 1.0, "rounding": 1.0}),
        (1.0, {"twice": 1.0}),
    ]
    # amount/rounded: 25 and 40, 60 and 40: apart; rounded/twice: 10 and 8, the other way round.
    assert pairs_held(lambda path: positions, ["a.md"], concepts) == {"a.md": 0.5}
    positions["twice"] = [7]  # three places from "rounded": apart
    assert pairs_held(lambda path: positions, ["a.md"], concepts) == {}
    assert pairs_held(lambda path: positions, ["a.md"], concepts[:1]) == {}  # one word makes no pair


def test_the_body_saying_the_question_words_side_by_side_ranks_first(tmp_path, monkeypatch):
    """Both bodies hold the question's words within one sentence; the longer one says them side by
    side and leads, though the shorter one's BM25 and section alone would put it first."""
    files = {
        "domain/billing.md": doc("Billing", "Invoices", FILLER + "No total is rounded twice."),
        "domain/checkout.md": doc(
            "Checkout", "Orders", "A total, once computed, is rounded, and never more than twice."
        ),
    }
    bank = small_bank(tmp_path, files)
    question = "is a total rounded twice"
    assert [hit.path for hit in route(bank, question).hits] == ["domain/billing.md", "domain/checkout.md"]
    monkeypatch.setattr(route_module, "PAIR_BOOST", 0.0)
    assert [hit.path for hit in route(bank, question).hits] == ["domain/checkout.md", "domain/billing.md"]
