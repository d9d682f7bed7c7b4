"""What other documents write around their links to a document counts as evidence for it."""

from __future__ import annotations

import os
import posixpath

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memorybank.core.bank import Bank
from memorybank.core.body_index import body_index
from memorybank.core.route import route

from tests.core.route_banks import doc, small_bank

QUESTION = "why is an amount never rounded twice"


def _files(pointer: str) -> dict[str, str]:
    return {
        "adr/ADR-001-storage.md": doc(
            "ADR-001: Amount storage", "How amounts are stored", "Every amount is an integer."
        ),
        "adr/ADR-002-display.md": doc(
            "ADR-002: Amount display", "How amounts are shown", "Every amount has two decimals."
        ),
        "domain/money.md": doc("Money", "Money in the product", pointer),
    }


def test_the_words_beside_a_link_lift_the_document_it_links(tmp_path):
    """Two decisions match the question's headers alike; the one another document describes, on
    the line that links it, in the question's words ranks first of the two, and says why."""
    bank = small_bank(
        tmp_path, _files("Nothing is ever rounded twice: see [the storage one](../adr/ADR-001-storage.md).")
    )
    hits = {hit.path: (rank, hit) for rank, hit in enumerate(route(bank, QUESTION).hits)}
    storage, display = hits["adr/ADR-001-storage.md"], hits["adr/ADR-002-display.md"]
    assert storage[0] < display[0]
    assert storage[1].breakdown.linked > 0 and set(storage[1].breakdown.linked_words) == {"rounded", "twice"}
    assert 'links to it mention "rounded, twice"' in storage[1].why
    assert display[1].breakdown.linked == 0 and "links to it" not in display[1].why


def test_the_label_and_the_target_of_a_link_are_not_its_words(tmp_path):
    """A link's label and target name the document (its headers count those already): only the
    words written around the link count."""
    bank = small_bank(tmp_path, _files("See [rounded twice](../adr/ADR-001-storage.md) and ../adr/ADR-001-storage.md."))
    assert body_index(bank).linked.postings == {
        "see": {"adr/ADR-001-storage.md": 1},
        "and": {"adr/ADR-001-storage.md": 1},
    }
    hits = route(bank, QUESTION).hits
    assert all(hit.breakdown.linked == 0 for hit in hits)


def test_links_from_the_same_folder_routing_checks_and_templates_give_nothing(tmp_path):
    """A package's members share its headers already; the routing checks quote every question
    beside its expected document; a template's words describe no real document."""
    files = _files("Money is shown to guests in rubles.")
    files["adr/ADR-002-display.md"] = doc(
        "ADR-002: Amount display", "How amounts are shown", "Rounded twice? See [ADR-001](ADR-001-storage.md)."
    )
    files["dna/route-checks.md"] = doc(
        "Route checks",
        "Questions routing must answer",
        f"| Question | Expected |\n|---|---|\n| {QUESTION} | [storage](../adr/ADR-001-storage.md) |",
    )
    files["flows/templates/adr.md"] = doc(
        "ADR template",
        "The shape of a decision",
        "Rounded twice, see [ADR-001](../../adr/ADR-001-storage.md).",
        doc_function="template",
    )
    bank = small_bank(tmp_path, files)
    assert body_index(bank).linked.postings == {}
    assert all(hit.breakdown.linked == 0 for hit in route(bank, QUESTION).hits)


def test_an_edited_or_deleted_source_takes_its_words_back(tmp_path):
    bank = small_bank(
        tmp_path, _files("Nothing is ever rounded twice: see [the storage one](../adr/ADR-001-storage.md).")
    )
    linked = body_index(bank).linked
    assert linked.postings["twice"] == {"adr/ADR-001-storage.md": 1}

    (tmp_path / "domain/money.md").write_text(
        doc(
            "Money",
            "Money in the product",
            "Values: see [the storage one](../adr/ADR-001-storage.md), then store them.",
        ),
        encoding="utf-8",
    )
    bank.refresh()
    linked = body_index(bank).linked
    assert "twice" not in linked.postings and linked.postings["store"] == {"adr/ADR-001-storage.md": 1}
    assert all(hit.breakdown.linked == 0 for hit in route(bank, QUESTION).hits)

    (tmp_path / "domain/money.md").unlink()
    bank.refresh()
    linked = body_index(bank).linked
    assert linked.postings == {} and not linked.lengths


def test_a_line_describes_each_document_it_links_unless_it_is_a_list(tmp_path):
    """A line linking two documents says something of both; a line of many links is a list, and
    what stands between them describes none (the work of one line stays bounded)."""
    targets = [f"../adr/ADR-00{i}.md" for i in range(1, 10)]
    files = {f"adr/ADR-00{i}.md": doc(f"ADR-00{i}", "A decision") for i in range(1, 10)}
    files["domain/pair.md"] = doc("Pair", "Two", f"Rounding lives in [one]({targets[0]}) and [two]({targets[1]}).")
    files["domain/list.md"] = doc("List", "Many", "Archive: " + ", ".join(f"[d]({t})" for t in targets) + ".")
    bank = small_bank(tmp_path, files)
    postings = body_index(bank).linked.postings
    assert postings["rounding"] == {"adr/ADR-001.md": 1, "adr/ADR-002.md": 1}
    assert "archive" not in postings


PATHS = ("adr/a.md", "adr/b.md", "domain/c.md", "domain/d.md")
WORDS = ("rounded", "twice", "cache", "ledger", "kopecks")


@st.composite
def _edits(draw):
    """A sequence of writes (a document's lines, each a few words and maybe a link) and deletions."""
    line = st.tuples(st.lists(st.sampled_from(WORDS), max_size=3), st.one_of(st.none(), st.sampled_from(PATHS)))
    step = st.tuples(st.sampled_from(PATHS), st.one_of(st.none(), st.lists(line, max_size=3)))
    return draw(st.lists(step, min_size=1, max_size=8))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_edits())
def test_the_words_beside_links_kept_edit_by_edit_are_those_a_fresh_index_finds(tmp_path_factory, edits):
    root = tmp_path_factory.mktemp("bank")
    bank = small_bank(root, {path: doc(path, "Seed") for path in PATHS})
    body_index(bank)
    for tick, (path, lines) in enumerate(edits, start=1):
        target = root / path
        if lines is None:
            target.unlink(missing_ok=True)
        else:
            body = "\n".join(
                " ".join(words) + (f" [x]({posixpath.relpath(link, posixpath.dirname(path))})" if link else "")
                for words, link in lines
            )
            target.write_text(doc(path, "Seed", body), encoding="utf-8")
            os.utime(target, ns=(tick * 10**9, tick * 10**9))
        bank.refresh()
        kept = body_index(bank).linked
        fresh = body_index(Bank.open(root)).linked
        assert kept.postings == fresh.postings and dict(kept.lengths) == dict(fresh.lengths)


def test_what_links_say_is_named_in_the_why_only_beside_few_other_reasons():
    from memorybank.core.model import ScoreBreakdown
    from memorybank.core.why import explain

    alone = ScoreBreakdown(body_words=("ledger",), linked=1.0, linked_words=("rounded",))
    assert explain(alone, None) == 'body mentions "ledger"; links to it mention "rounded"'
    crowded = ScoreBreakdown(purpose_words=("import",), body_words=("ledger",), linked=1.0, linked_words=("rounded",))
    assert explain(crowded, None) == 'purpose matches "import"; body mentions "ledger"'
