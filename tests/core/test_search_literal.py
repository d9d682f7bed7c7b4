"""Search finds a string as written: versions, dotted names and symbols the word index cannot hold,
the literal before its translations and inflections, and an excerpt that shows the match."""

from __future__ import annotations

import pytest
from memorybank.core.search import EXCERPT_CHARS, search

from tests.core.route_banks import doc, small_bank

LONG = "Filler words about nothing in particular. " * 12


@pytest.fixture
def bank(tmp_path):
    return small_bank(
        tmp_path / "bank",
        {
            "release.md": doc("Release", "How we release.", "## 0.1.0\n\nThe first cut, tagged v0.1.0.\n"),
            "later.md": doc("Later", "What came next.", "Tagged v0.2.0 and v0.2.1; v0 was never tagged.\n"),
            "rooms.md": doc("Rooms", "Direct rooms.", "A room is direct when listed in `m.direct` account data.\n"),
            "direct.md": doc("Direct", "Direct things.", "direct direct direct: the m flag and direct messages.\n"),
            "colours.md": doc("Colours", "Colours.", "Green green green green checks.\n"),
            "цвета.md": doc("Цвета", "Цвета.", "Зелёные галочки.\n"),
            "long.md": doc("Long", "A long line.", LONG + "The needle: `MatrixSession.start()` throws. " + LONG),
        },
    )


def paths(result) -> list[str]:
    return [hit.path for hit in result.hits]


def test_a_version_the_word_index_cannot_hold_is_found_as_written(bank):
    result = search(bank, "0.1.0")
    assert paths(result) == ["release.md"] and not result.broadened
    assert result.hits[0].excerpt == "The first cut, tagged v0.1.0." and result.hits[0].line == 10  # a plain line first
    assert search(bank, "## 0.1.0").hits[0].excerpt == "## 0.1.0"  # a heading when no plain line holds it


def test_a_literal_comes_before_documents_that_only_share_its_words(bank):
    assert paths(search(bank, "v0.1.0"))[0] == "release.md"
    assert paths(search(bank, "m.direct"))[0] == "rooms.md"  # though direct.md says "direct" four times
    assert "`m.direct`" in search(bank, "m.direct").hits[0].excerpt


def test_a_word_as_written_comes_before_its_translation(bank):
    assert paths(search(bank, "зелёные"))[0] == "цвета.md"  # colours.md holds "green" four times


def test_what_holds_none_of_it_as_written_is_flagged(bank):
    result = search(bank, "v0.3.0")
    assert result.hits and result.broadened  # only pieces of it ("v0") were found


def test_an_identifier_met_only_in_pieces_is_flagged_and_one_met_whole_is_not(tmp_path):
    bank = small_bank(
        tmp_path / "ids",
        {
            "features.md": doc(
                "Features", "The list.", "FT-014 ships first; 099 requests were counted; ft means feet.\n"
            ),
            "ft-051.md": doc("FT-051", "Self-update.", "FT-051 replaces the update command.\n"),
            "env.md": doc("Env", "Variables.", "The memory bank reads a token from the environment.\n"),
        },
    )
    for absent in ("FT-099", "MEMORY_BANK_TOKEN"):
        result = search(bank, absent)
        assert result.hits and result.broadened, absent  # "ft" and "099", "memory", "bank", "token" apart
    present = search(bank, "FT-051")
    assert paths(present)[0] == "ft-051.md" and not present.broadened


def test_the_excerpt_of_a_long_line_shows_the_match(bank):
    excerpt = search(bank, "MatrixSession").hits[0].excerpt
    assert "MatrixSession" in excerpt and excerpt.startswith("...") and len(excerpt) <= EXCERPT_CHARS


def test_an_excerpt_carries_no_control_characters(tmp_path):
    bank = small_bank(tmp_path / "b", {"nul.md": doc("Nul", "A NUL.", "hello\x00world and \x1b[31mred\x1b[0m\n")})
    excerpt = search(bank, "hello").hits[0].excerpt
    assert excerpt == "helloworld and [31mred[0m"


@pytest.mark.parametrize("query", ["", "   ", "\t\n", "\x01", " \x00 "])
def test_an_empty_query_is_refused(bank, query):
    from memorybank.core.errors import UsageError
    from memorybank.core.route import route

    with pytest.raises(UsageError, match="empty"):
        search(bank, query)
    with pytest.raises(UsageError, match="empty"):
        route(bank, query)


def test_a_phrase_as_written_is_whole_words_first(tmp_path):
    bank = small_bank(
        tmp_path / "b",
        {
            "release.md": doc("Release", "How.", "Releases are created by manually dispatching the workflow.\n"),
            "other.md": doc("Other", "Other.", "created manually, dispatching: created manually, dispatching\n" * 3),
            "inside.md": doc("Inside", "Inside.", "The metadata before, gamma bravo, delta bank.\n"),
            "apart.md": doc("Apart", "Apart.", "A b c: a b.\n"),
        },
    )
    result = search(bank, "manually dispatching")
    assert paths(result)[0] == "release.md" and not result.broadened  # though other.md repeats both words
    assert paths(search(bank, "a b")) == ["apart.md"]  # not "metadat(a b)efore"


def test_bidi_and_line_separators_never_reach_an_excerpt(tmp_path):
    bank = small_bank(tmp_path / "b", {"x.md": doc("X", "X.", "zzctrl \u202eevil\u2028next \x85end\n")})
    assert search(bank, "zzctrl").hits[0].excerpt == "zzctrl evilnext end"


def test_a_single_symbol_is_found_a_single_letter_is_not(tmp_path):
    bank = small_bank(tmp_path / "b", {"flow.md": doc("Flow", "Steps.", "Draft → review → done.\n")})
    assert paths(search(bank, "→")) == ["flow.md"]
    assert search(bank, "е").hits == ()


def test_a_phrase_a_line_break_splits_still_comes_first(tmp_path):
    bank = small_bank(
        tmp_path / "b",
        {
            "release.md": doc("Release", "How.", "Releases are created by manually\ndispatching the workflow.\n"),
            "other.md": doc("Other", "Other.", "created manually, dispatching: created manually, dispatching\n" * 3),
        },
    )
    result = search(bank, "manually dispatching")
    assert paths(result) == ["release.md", "other.md"] and not result.broadened
    assert result.hits[0].excerpt == "Releases are created by manually"
