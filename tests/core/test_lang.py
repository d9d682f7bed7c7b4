"""The words behind routing and search: stems, translations, tokenizers, "why" intent, the bank's
own vocabulary (the reference's D.12 behaviours, plus Snowball inflections)."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.intent import has_definition_intent, has_why_intent
from memorybank.core.lang import (
    BUILTIN,
    BUILTIN_ENTRIES,
    EXACT,
    INFLECTED,
    PREFIX,
    TokenTable,
    has_cyrillic,
    inflection_stem,
    parse_vocabulary,
    route_tokens,
    search_tokens,
    token_parts,
)
from memorybank.core.lexicon import vocabulary_for
from memorybank.core.route import route

from tests.core.route_banks import doc, small_bank


@pytest.mark.parametrize("word", ["порог", "пороги", "порогов", "порогам", "порогами"])
def test_every_form_of_a_word_reaches_its_stem(word):
    assert BUILTIN.stem_of(word) == "порог"


def test_the_longest_key_wins():
    assert BUILTIN.stem_of("решение") == "реш"
    assert BUILTIN.stem_of("фильтрации") == "фильтр"


def test_verb_prefixes_are_stripped_only_onto_a_known_stem():
    assert BUILTIN.stem_of("задеплоить") == "депло"
    assert BUILTIN.stem_of("переразвертывание") == "разверт"
    assert BUILTIN.stem_of("запонтоваться") is None


@pytest.mark.parametrize(
    ("word", "not_key"),
    [("выпустить", "пуст"), ("подключение", "ключ"), ("задать", "дат"), ("разрешили", "реш"), ("заполнить", "полн")],
)
def test_a_short_key_is_not_met_through_a_verb_prefix(word, not_key):
    """``выпустить`` is to release, not ``пуст`` (empty); a short key after a prefix is mostly
    another word, so the prefixed verbs carry entries of their own."""
    assert BUILTIN.stem_of(word) != not_key
    assert BUILTIN.term("подключение").translations == ("connect", "connection", "connected")
    assert "release" in BUILTIN.term("выпустить").translations
    assert BUILTIN.stem_of("перезапуска") == "запуск"  # a long key still meets its prefixed forms


def test_latin_words_have_no_stem_and_cyrillic_is_detected():
    assert BUILTIN.stem_of("deploy") is None
    assert has_cyrillic("где") and not has_cyrillic("where")


def test_a_russian_word_carries_its_english_words_and_an_english_word_its_russian_stems():
    term = BUILTIN.term("фильтрации")
    assert (term.literal, term.translations, term.stem) == ("фильтрации", ("filter", "filtering"), "фильтр")
    assert "порог" in BUILTIN.term("threshold").translations
    assert BUILTIN.term("zzyzx").translations == ()
    assert [t.literal for t in BUILTIN.terms(["пороги", "фильтрации"])] == ["пороги", "фильтрации"]


def test_identifiers_never_touch_the_dictionary():
    assert BUILTIN.term("ft-001").translations == ()
    assert BUILTIN.term("filter_thresholds").translations == ()


@pytest.mark.parametrize(
    "question",
    [
        "why did we",
        "the rationale",
        "trade-off",
        "почему так",
        "зачем это",
        "обоснование",
        "one queue instead of many",
        "what was decided",
        "what was the reason for dropping axios",
        "по какой причине отказались от axios",
        "с какой целью завели очередь",
    ],
)
def test_why_intent_fires_on_rationale_questions(question):
    assert has_why_intent(question)


@pytest.mark.parametrize("question", ["filter thresholds", "где пороги", "list the decisions"])
def test_why_intent_does_not_fire_on_topics(question):
    assert not has_why_intent(question)


@pytest.mark.parametrize(
    "question",
    [
        "what does lease mean",
        "what does NT- stand for",
        "что такое лиз",
        "кто такой requester",
        "Кто такие операторы?",
        "who is a requester?",
        "Who are the operators",
    ],
)
def test_definition_intent_fires_on_questions_about_a_term(question):
    assert has_definition_intent(question)


@pytest.mark.parametrize(
    "question",
    ["who approves a release", "who is responsible for releases", "кто одобряет релиз", "what does the worker do"],
)
def test_definition_intent_does_not_fire_on_other_who_and_what_questions(question):
    assert not has_definition_intent(question)


@pytest.mark.parametrize("word", ["not", "no", "from", "can", "should", "must", "was", "been", "than", "such"])
def test_function_words_are_dropped(word):
    assert route_tokens(f"thresholds {word}") == ["thresholds"]


@pytest.mark.parametrize("word", ["before", "after", "through", "so", "same", "own", "other", "up", "because"])
def test_snowballs_english_stopwords_are_dropped(word):
    assert route_tokens(f"thresholds {word}") == ["thresholds"]


def test_a_stopword_never_decides_a_route(tmp_path):
    files = {
        "flows/review.md": doc("Review rounds", "How many review rounds a spec needs.", "Two review rounds."),
        "flows/order.md": doc("Before and after", "What comes before and after, through the same own steps.", ""),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    assert route(bank, "review rounds before, after and through the same own other").hits[0].path == "flows/review.md"


def test_questions_lose_their_function_words_in_both_languages():
    assert route_tokens("what can be done about this, if any") == ["done"]
    assert route_tokens("что как где") == []
    assert route_tokens("filter_thresholds and filter") == ["filter", "thresholds", "filter"]


def test_search_tokens_keep_identifiers_whole_and_drop_one_letter_words():
    assert search_tokens("See FT-SMD-843 and filter_thresholds.") == ["see", "ft-smd-843", "and", "filter_thresholds"]
    assert token_parts("ft-smd-843") == ["ft", "smd", "843"]
    assert token_parts("thresholds") == []
    assert search_tokens("пороги фильтрации и thresholds") == ["пороги", "фильтрации", "thresholds"]
    assert search_tokens("--Ёлка_") == ["елка"]


@pytest.mark.parametrize(
    "word, english",
    [
        ("книга", "book"),
        ("страницы", "pagination"),
        ("экран", "screen"),
        ("библиотека", "library"),
        ("текст", "text"),
        ("перевод", "translation"),
        ("пользователя", "user"),
        ("файлов", "file"),
        ("уведомления", "notification"),
        ("офлайн", "offline"),
        ("банка", "bank"),
    ],
)
def test_product_nouns_translate(word, english):
    assert english in BUILTIN.term(word).translations


@pytest.mark.parametrize(
    ("word", "english"),
    [("сырых", "raw"), ("идемпотентность", "idempotent"), ("воркер", "worker"), ("живости", "liveness"),
     ("ядра", "core"), ("параметры", "parameters"), ("вебхуков", "webhook")],
)  # fmt: skip
def test_engineering_words_no_cognate_reaches_translate(word, english):
    assert english in BUILTIN.term(word).translations


def test_homonyms_split_by_the_longest_key():
    assert set(BUILTIN.term("словарь").translations) >= {"glossary", "vocabulary", "dictionary"}
    assert "word" not in BUILTIN.term("словарь").translations
    assert BUILTIN.term("глава").translations == ("chapter",)
    assert BUILTIN.term("главный").translations == ("main", "primary")
    assert BUILTIN.term("удаление").translations == ("delete", "deletion")
    assert BUILTIN.term("удаленный").translations == ("remote",)
    assert BUILTIN.term("ответственность").translations == ("responsibility", "ownership")
    assert BUILTIN.term("ответ").translations == ("response", "answer")
    assert BUILTIN.term("кода").translations == ("code",)  # "ревью кода": the code review
    assert "code" not in BUILTIN.term("кодировка").translations
    assert "dropped" in BUILTIN.term("отказались").translations  # gave up on, not a failure
    assert "failure" in BUILTIN.term("отказа").translations


def test_the_builtin_dictionary_covers_at_least_the_references_size_with_distinct_keys():
    keys = [key for key, _ in BUILTIN_ENTRIES]
    assert len(keys) >= 190 and len(set(keys)) == len(keys)
    assert all(words for _, words in BUILTIN_ENTRIES)


def test_snowball_lets_inflections_meet_in_both_languages():
    assert inflection_stem("deploy") == inflection_stem("deploying") == inflection_stem("deployment")
    assert inflection_stem("пороги") == inflection_stem("порогов")
    assert inflection_stem("ft-001") == "ft-001"


def test_a_token_table_grades_matches():
    tokens = {"thresholds": 1, "threshold": 1, "thresholdmeter": 1, "thre": 1, "th": 1, "порогов": 1}
    found = TokenTable(tokens).matches("threshold", BUILTIN)
    assert found["threshold"] == EXACT
    assert found["thresholds"] == INFLECTED
    assert found["thresholdmeter"] == PREFIX and found["thre"] == PREFIX
    assert "th" not in found  # two letters in a header are an abbreviation, not the word's stem
    assert TokenTable(tokens).matches("порог", BUILTIN, is_key=True) == {"порогов": EXACT}


def test_vocabulary_rows_are_read_from_cyrillic_table_rows_only():
    text = "\n".join(
        [
            "---",
            "title: Vocabulary",
            "---",
            "| Russian stem | English |",
            "|---|---|",
            "| `корпус` | `corpus`, collection |",
            "| выборк | sample, 2bad |",
            "prose with | a pipe",
            "| only one cell |",
        ]
    )
    assert parse_vocabulary(text) == [("корпус", ("corpus", "collection")), ("выборк", ("sample",))]


VOCABULARY = "---\ntitle: Vocabulary\ndoc_kind: governance\n---\n# Vocabulary\n\n| Stem | English |\n|-|-|\n| `корпус` | corpus, collection |\n"


def test_the_banks_vocabulary_extends_the_dictionary_and_is_re_read_on_refresh(fixture_bank, write_file):
    root = fixture_bank()
    write_file(
        root,
        "engineering/corpus.md",
        "---\ntitle: Corpus Builder\npurpose: How the corpus is assembled.\n---\n# Corpus\n",
    )
    bank = Bank.open(root)
    assert vocabulary_for(bank).term("корпуса").translations == ()
    assert route(bank, "где корпус").hits[0].breakdown.title_words == ("corpus",)  # a cognate, by its spelling

    write_file(root, "dna/vocabulary.md", VOCABULARY)
    bank.refresh()
    vocabulary = vocabulary_for(bank)
    assert vocabulary.term("корпуса").translations == ("corpus", "collection")
    assert vocabulary.stem_of("корпусом") == "корпус"
    assert vocabulary.term("банка").translations == ("bank",) and vocabulary.local == 1
    assert route(bank, "где корпус").hits[0].path == "engineering/corpus.md"

    (root / "dna/vocabulary.md").unlink()
    bank.refresh()
    assert vocabulary_for(bank).term("корпуса").translations == ()


def test_a_vocabulary_belongs_to_its_bank(fixture_bank, write_file, tmp_path):
    taught = fixture_bank("reference", "taught")
    write_file(taught, "dna/vocabulary.md", VOCABULARY)
    plain = fixture_bank("reference", "plain")
    assert vocabulary_for(Bank.open(taught)).term("корпус").translations == ("corpus", "collection")
    assert vocabulary_for(Bank.open(plain)).term("корпус").translations == ()


def test_managing_to_is_not_deleting_and_decrypting_reaches_english():
    """Could not decrypt, "не удалось расшифровать": "удалось" is a form of "удаться" (to manage),
    which starts like "удалить" (to delete) and means nothing a bank files under."""
    assert route_tokens("сообщение, которое не удалось расшифровать") == ["сообщение", "расшифровать"]
    assert "decrypt" in BUILTIN.term("расшифровать").translations
    assert "delete" in BUILTIN.term("удалить").translations
