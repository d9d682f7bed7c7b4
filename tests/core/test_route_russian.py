"""Russian questions: function words in any inflected form carry no topic, whatever list they
are missing from, and a borrowed word meets the bank's English word it is spelled like."""

from __future__ import annotations

import pytest
from memorybank.core import morphology
from memorybank.core.cognates import CognateIndex
from memorybank.core.lang import route_tokens
from memorybank.core.route import route

from tests.core.route_banks import doc, small_bank


@pytest.mark.parametrize("word", ["которому", "каких", "моей", "может", "были", "со", "нельзя", "насколько", "того"])
def test_an_inflected_function_word_is_dropped(word):
    assert route_tokens(f"адрес {word}") == ["адрес"]


def test_content_words_and_latin_words_stay():
    assert route_tokens("где задаётся адрес бэкенда, к которому ходит frontend") == [
        "задается",
        "адрес",
        "бэкенда",
        "ходит",
        "frontend",
    ]


def test_function_words_never_make_a_match(tmp_path, monkeypatch):
    files = {
        "ops/config.md": doc("Адрес бэкенда", "Где задается адрес бэкенда.", "Адрес бэкенда задается в env."),
        "flows/notes.md": doc(
            "Заметки о том, каких правил держаться",
            "Которому агенту что может понадобиться и каких шагов ждать.",
            "Которому агенту может понадобиться помощь; каких шагов ждать, может ли он сам.",
        ),
    }
    question = "может ли адрес, которому каких"
    bank = small_bank(tmp_path / "one" / "memory_bank", files)
    assert route(bank, question).hits[0].path == "ops/config.md"
    monkeypatch.setattr(morphology, "FUNCTION_PARTS", frozenset())
    monkeypatch.setattr(morphology, "FUNCTION_GRAMMEMES", frozenset())
    monkeypatch.setattr(morphology, "AUXILIARY_VERBS", frozenset())
    monkeypatch.setattr(morphology, "_CACHE", {})
    bank = small_bank(tmp_path / "two" / "memory_bank", files)
    assert route(bank, question).hits[0].path == "flows/notes.md"  # without: the forms of который decide


def test_a_borrowed_word_snowball_cuts_short_still_meets_its_cognate():
    # Snowball stems медиа to мед: the whole word, in Latin letters, is what reads as media
    assert "media" in CognateIndex(["media", "medical"]).of("медиа")
    assert "медиа" in CognateIndex(["медиа", "медведь"]).of("media")
