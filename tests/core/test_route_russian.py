"""Russian questions: function words in any inflected form carry no topic, whatever list they
are missing from, and a borrowed word meets the bank's English word it is spelled like; the
dictionary carries the everyday words of engineering prose, and an English word meets it through
any of its forms."""

from __future__ import annotations

import pytest
from memorybank.core import derivation, morphology
from memorybank.core.cognates import CognateIndex
from memorybank.core.lang import TokenTable, route_tokens
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


@pytest.mark.parametrize(
    ("word", "english"),
    [("устройства", "device"), ("снимок", "snapshot"), ("повреждён", "corrupted"), ("товара", "product")],
)
def test_the_dictionary_knows_the_common_words_of_engineering_prose(word, english):
    from memorybank.core.lang import BUILTIN, fold

    assert english in BUILTIN.term(fold(word)).translations


def test_a_russian_question_about_an_english_bank_meets_its_everyday_words(tmp_path):
    """Not only a bank's own terms: the verbs and nouns any engineering text uses (saved, snapshot,
    corrupted, device, confirm) are what a Russian question about English prose is made of."""
    files = {
        "engineering/sync.md": doc(
            "Sync storage",
            "Where the client keeps its sync state.",
            "## Recovery\n\nIf the saved snapshot is corrupted, the client drops it and syncs from scratch.",
        ),
        "engineering/devices.md": doc(
            "Device verification",
            "How a user confirms a new device.",
            "## Flow\n\nThe app shows an emoji comparison; the user confirms the other device.",
        ),
        "product/overview.md": doc("Overview", "What the library offers.", "A chat library for mobile apps."),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    assert route(bank, "что если сохранённый снимок повреждён").hits[0].path == "engineering/sync.md"
    assert route(bank, "как подтвердить новое устройство").hits[0].path == "engineering/devices.md"


def test_an_english_word_meets_the_dictionary_through_any_of_its_forms():
    from memorybank.core.lang import BUILTIN

    assert BUILTIN.term("deleted").translations == BUILTIN.term("delete").translations
    assert "перевод" in BUILTIN.term("translations").translations
    assert "публик" in BUILTIN.term("publishing").translations


def test_an_english_question_about_a_russian_bank_meets_it_through_inflected_words(tmp_path):
    files = {
        "domain/frontend.md": doc(
            "Интерфейс бота", "Тексты и язык интерфейса.", "## Язык\n\nПеревод сообщений бота пока не заложен."
        ),
        "ops/release.md": doc("Выпуск", "Как выпускается бот.", "Собрать образ и выкатить бота."),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    assert route(bank, "what must be settled before adding translations").hits[0].path == "domain/frontend.md"


def test_a_russian_word_meets_the_forms_snowball_cuts_apart_through_its_lemma(tmp_path):
    """Snowball stems ``переведен`` and ``перевести`` differently; their lemma is one, so a question
    in one form finds the body written in the other, as it would an ending that Snowball strips."""
    assert "перевести" in TokenTable({"перевести": 1, "перевод": 1}).inflections("переведен")
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "ops/transitions.md": doc("Переходы", "Смена этапов.", "Оператор может перевести заказ в архив."),
            "ops/orders.md": doc("Заказы", "Список.", "Заказ видит оператор. Оператор и заказ, заказ и оператор."),
        },
    )
    assert route(bank, "когда заказ переведен оператором").hits[0].path == "ops/transitions.md"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("удалять", "удаление"),
        ("показывая", "покажи"),
        ("проверять", "проверка"),
        ("обновить", "обновления"),
        ("сократить", "сокращение"),
        ("отвечает", "ответить"),
        ("загружать", "загрузить"),
        ("тестировать", "тестирование"),
        ("настроить", "настройки"),
        ("разбил", "разбиение"),
    ],
)
def test_a_verb_and_the_nouns_made_from_it_share_a_root(one, other):
    assert derivation.root(one) is not None
    assert derivation.root(one) == derivation.root(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("удалить", "удаленный"),  # remote, an adjective: no root
        ("запускать", "запуск"),  # a noun without a verb's suffix: no root
        ("делать", "деление"),  # three letters: words that only look alike
        ("файлы", "файл"),  # no verb at all
    ],
)
def test_words_that_only_look_alike_share_no_root(one, other):
    assert derivation.root(one) is None or derivation.root(one) != derivation.root(other)


def test_a_question_asked_with_the_verb_finds_the_document_naming_the_act(tmp_path):
    """``удалять`` and ``удаление`` share no Snowball stem and no lemma: only their root joins them,
    and it counts below the word itself, so it is what decides between two bodies otherwise alike."""
    assert "удаление" in TokenTable({"удаление": 1, "удалось": 1}).relatives("удалять")
    assert "удалось" not in TokenTable({"удаление": 1, "удалось": 1}).relatives("удалять")
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "engineering/autonomy.md": doc(
                "Границы", "Что агент делает сам.", "## Супервизия\n\n- Удаление кода или файлов: покажи, что удаляешь."
            ),
            "engineering/style.md": doc("Стиль", "Как писать код.", "Код и файлы агент правит по правилам стиля."),
        },
    )
    assert route(bank, "может ли агент сам удалять код или файлы").hits[0].path == "engineering/autonomy.md"
