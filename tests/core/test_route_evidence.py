"""Routing's evidence beyond headers: sections, lemmas, the bank's own bilingual pairs, cognates and
the kind of answer a question asks for."""

from __future__ import annotations

import memorybank.core.body_index as body_index_module
import pytest
from memorybank.core.body_index import body_index
from memorybank.core.cognates import CognateIndex
from memorybank.core.intent import INTENT_BOOST, intents, reading_roles, role_words
from memorybank.core.lang import BUILTIN, lemma
from memorybank.core.lexicon import bank_pairs, document_phrases, vocabulary_for
from memorybank.core.phrasal import joined_words
from memorybank.core.proximity import FLOOR, closeness
from memorybank.core.read import read_document
from memorybank.core.route import route
from memorybank.core.section_index import split_sections
from memorybank.tui.cli.main import main

from tests.core.route_banks import doc, small_bank


def test_a_body_is_cut_at_its_headings_but_not_inside_code_fences():
    lines = ["lead text", "## retries", "three attempts", "```", "# not a heading", "```", "### jitter", "random"]
    sections = split_sections(lines, first_line=10)
    assert [(s.heading, s.line) for s in sections] == [("", 10), ("retries", 11), ("jitter", 16)]
    assert sections[1].counts["heading"] == 1 and "retries" in sections[1].heading_tokens
    assert sum(s.length for s in sections) == 9


def test_a_heading_indented_up_to_three_spaces_cuts_a_body_as_the_parser_reads_it():
    lines = ["  ## goals", "ship", "   ### users", "buyers", "    ## code, not a heading", "more"]
    sections = split_sections(lines, first_line=1)
    assert [(s.heading, s.line) for s in sections] == [("goals", 1), ("users", 3)]


def test_a_fence_nested_in_a_longer_one_does_not_end_it():
    lines = ["## example", "````markdown", "```yaml", "# a yaml comment", "```", "# title of the example", "````"]
    lines += ["## naming", "adr-001"]
    sections = split_sections(lines, first_line=1)
    assert [s.heading for s in sections] == ["example", "naming"]


def test_a_hit_is_read_from_the_best_section_under_its_title_not_from_the_title_line(tmp_path):
    body = (  # under the title heading ``doc`` writes
        "## Context\n\nThe singleton held one callback per screen, so a second screen overwrote the first.\n\n"
        "## Decision\n\nA session class the application instantiates.\n"
    )
    bank = small_bank(
        tmp_path / "memory_bank",
        {"adr/ADR-2.md": doc("ADR-2: Session instance over singleton", "Record the session decision.", body)},
    )
    lead = split_sections(["", "# adr-2: session instance over singleton", "", *body.lower().splitlines()], 1)[1]
    assert lead.title and lead.counts["singleton"] == 1  # the title's words still count as evidence
    hit = route(bank, "why did the singleton go when a second screen overwrote the first").hits[0]
    assert (hit.section, hit.section_line) == ("Context", 8)


def test_a_plan_of_steps_straight_under_its_title_is_read_from_the_step_that_answers(tmp_path, capsys):
    body = (
        "### 1. Add the cart models\n\nA cart row per buyer.\n\n"
        "### 2. Service tests\n\nA test reopens the database session and finds the cart rows again.\n"
    )
    bank = small_bank(
        tmp_path / "memory_bank",
        {"features/FT-2/plan.md": doc("FT-2: Plan", "Steps of the cart work.", body)},
    )
    hit = route(bank, "which test checks the cart survives a new database session").hits[0]
    assert (hit.path, hit.section, hit.section_line) == ("features/FT-2/plan.md", "2. Service tests", 12)
    assert read_document(bank, hit.path, section=hit.section).content.startswith("### 2. Service tests")
    assert hit.section_level == 3
    question = "which test checks the cart survives a new database session"
    assert main(["route", question, "--root", str(tmp_path / "memory_bank"), "-n", "1"]) == 0
    assert "    read: ### 2. Service tests (line 12)" in capsys.readouterr().out.splitlines()


READING_CASES = [
    pytest.param(  # a why-question reads the options considered; a what-question the decision
        "adr/ADR-3.md",
        doc(
            "ADR-3: HTTP client",
            "Record the HTTP client choice.",
            "## Context\n\nScreens call the API.\n\n"
            "## Decision\n\nEvery HTTP request goes through axios, with one interceptor for the token.\n\n"
            "## Considered Options\n\nAxios for HTTP requests, or a thin wrapper over fetch repeating retry code per call.\n",
            doc_kind="adr",
        ),
        ("why do HTTP requests go through axios", "Considered Options"),
        ("do HTTP requests go through axios", "Decision"),
        id="why",
    ),
    pytest.param(  # a what-if question reads the exceptions; a plain one the main flow
        "use-cases/UC-2.md",
        doc(
            "UC-2: Manage the basket",
            "What the buyer does with the basket.",
            "## Main Flow\n\nThe buyer presses minus on a cart line and its quantity drops by one.\n\n"
            "## Alternate Flows / Exceptions\n\nA quantity of one: minus removes the line from the cart.\n",
        ),
        ("what happens if minus is pressed on a cart line", "Alternate Flows / Exceptions"),
        ("minus is pressed on a cart line", "Main Flow"),
        id="what-if",
    ),
    pytest.param(  # a can-question reads what the work covers and leaves out; a plain one how it works
        "features/FT-3/feature.md",
        doc(
            "FT-3: Catalog admin",
            "What the admin changes in the catalog.",
            "## How\n\nThe admin edits a product's name, price and photo in steps; the product attributes show "
            "read only.\n\n## What\n\n### Scope\n\nNames, prices and photos.\n\n### Non-Scope\n\nEditing product "
            "attributes.\n",
        ),
        ("can the admin edit product attributes", "What"),
        ("the admin edits product attributes", "How"),
        id="can",
    ),
]


@pytest.mark.parametrize(("path", "text", "asked", "plain"), READING_CASES)
def test_the_kind_of_question_chooses_the_section_to_read(tmp_path, path, text, asked, plain):
    bank = small_bank(tmp_path / "memory_bank", {path: text})
    for question, section in (asked, plain):
        hit = route(bank, question).hits[0]
        assert (hit.path, hit.section) == (path, section), question


def test_reading_roles_tell_the_kinds_of_question_apart():
    assert reading_roles("что будет, если нажать минус") == reading_roles("what if it fails") != ()
    assert reading_roles("why minus") != reading_roles("what if minus") and reading_roles("minus") == ()
    assert reading_roles("можно ли редактировать характеристики") == reading_roles("does it support paging") != ()
    assert reading_roles("what if it fails") != reading_roles("can it be undone") != ()


def test_a_phrasal_verb_meets_the_noun_the_bank_writes_as_one_word(tmp_path):
    known = {"rollback", "setup", "login", "orders"}.__contains__
    assert joined_words("How do I roll back, set up or log in?", known) == ["rollback", "setup", "login"]
    assert joined_words("the order's status, roll forward", known) == []  # no particle, no noun
    assert joined_words("rollback: roll back", known) == []  # the question has the noun already
    body = (
        "## Safety Rules\n\nNever release a broken build.\n\n"
        "## Rollback\n\nRedeploy the previous release tag with the deploy script.\n"
    )
    bank = small_bank(tmp_path / "memory_bank", {"ops/release.md": doc("Release", "How releases ship.", body)})
    assert route(bank, "how do I roll back a broken release").hits[0].section == "Rollback"


def test_the_document_whose_section_answers_beats_the_package_index_that_lists_it(tmp_path):
    index = "Documents of the import package: [design](design.md), [brief](brief.md). Import of ledgers."
    design = (
        "## Context\n\nImporting ledgers from the bank.\n\n"
        "## Failure Handling\n\nA malformed row aborts the import with exit code 3; the partial batch is rolled back.\n"
    )
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-1/README.md": doc("FT-1: Ledger import", "The ledger import package.", index),
            "features/FT-1/design.md": doc("FT-1: Ledger import design", "How ledgers are imported.", design),
            "features/FT-1/brief.md": doc("FT-1: Ledger import", "Why we import ledgers.", "Ledger import."),
        },
    )
    hit = route(bank, "what exit code does a malformed row give during ledger import").hits[0]
    assert hit.path == "features/FT-1/design.md"
    assert (hit.section, hit.section_line) == ("Failure Handling", 12) and hit.breakdown.section > 0


def test_irregular_russian_forms_meet_the_dictionary_through_their_lemma():
    assert lemma("пути") == "путь" and lemma("слоя") == "слой" and lemma("route") == "route"
    assert BUILTIN.stem_of("пути") == "путь" and BUILTIN.stem_of("слоев") == "слой"
    assert "path" in BUILTIN.term("пути").translations


def test_a_bank_teaches_pairs_from_its_file_names_and_glosses(tmp_path):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "domain/ledger.md": doc("Гроссбух", "Проводки и остатки.", "## Сверка (reconciliation)\n\nКаждую ночь."),
            "domain/other.md": doc("Other", "Unrelated.", "Nothing."),
        },
    )
    phrases = document_phrases(bank.documents["domain/ledger.md"])
    assert (("гроссбух",), ("ledger",)) in phrases and (("сверка",), ("reconciliation",)) in phrases
    assert dict(bank_pairs(phrases, BUILTIN))["гроссбух"] == ("ledger",)
    vocabulary = vocabulary_for(bank)
    assert "ledger" in vocabulary.term("гроссбуха").translations and vocabulary.learned == 2
    assert route(bank, "where is the ledger reconciliation").hits[0].path == "domain/ledger.md"


def test_a_file_name_word_shared_by_many_titles_teaches_nothing():
    titles = [("очередь",), ("модель",), ("граница",)]
    assert bank_pairs([(t, ("topic",)) for t in titles], BUILTIN) == []


def test_borrowed_words_meet_across_languages_by_spelling():
    cognates = CognateIndex(["migration", "migrations", "moderator", "sibling", "миграции", "модератора", "шаблон"])
    assert cognates.of("миграцию") == ("migration",)
    assert cognates.of("moderator") == ("модератора",)
    assert cognates.of("шаблоны") == () and cognates.of("sibling") == ()
    assert cognates.of("ft-001") == () and cognates.of("миг") == ()


def test_intents_are_read_from_the_question_and_roles_from_the_bank():
    assert intents("why did we pick SQLite") == {"why"}
    assert intents("how do I run the e2e tests") == {"how"}
    assert intents("как запустить бэкенд локально") == {"how"}
    assert intents("what is the status of the import") == {"status"}
    assert intents("what exit code does the import give") == frozenset()
    assert intents("may the agent add a dependency without asking") == {"rule"}
    assert intents("можно ли агенту удалять файлы") == {"rule"}
    assert intents("can the importer read gzip files") == frozenset()  # what the product does, not a rule


def test_a_may_i_question_leans_to_the_policy_a_what_question_does_not(tmp_path):
    text = "Adding a runtime dependency needs the owner's approval first."
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-3/feature.md": doc("Dependency update", "What the update feature does.", text),
            "engineering/dependency-policy.md": doc("Dependencies", "Which dependencies we take.", text),
        },
    )
    asked = route(bank, "may the agent add a runtime dependency without approval")
    assert asked.hits[0].path == "engineering/dependency-policy.md" and asked.hits[0].breakdown.intent > 1
    plain = route(bank, "runtime dependency approval")
    assert {h.breakdown.intent for h in plain.hits} == {1.0}


def test_a_why_question_leans_to_the_decision_log_of_the_package(tmp_path):
    text = "The importer streams rows one by one instead of loading the whole file."
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-2/brief.md": doc("Streaming import", "What the import does.", text),
            "features/FT-2/decision-log.md": doc("Streaming import decisions", "What was decided.", text),
        },
    )
    assert "decision-log" in role_words(bank.documents["features/FT-2/decision-log.md"])
    assert route(bank, "why does the importer stream rows").hits[0].path == "features/FT-2/decision-log.md"
    assert route(bank, "why does the importer stream rows").hits[0].breakdown.intent > 1


def test_a_why_question_leans_to_the_banks_own_decision_records_whatever_it_calls_them(tmp_path):
    """This bank keeps its decisions as ``doc_kind: решение`` under ``records/`` (neither word is
    built in, and the folder is no decision layer): its records carry the ``decision_status`` its
    contract governs, so a why-question lifts them; a bank whose records of that kind carry none
    gets no lift."""
    contract = (
        "| Field | Values |\n|-|-|\n| `doc_kind` | `решение`, `engineering` |\n"
        "| `decision_status` | `proposed`, `accepted` |\n"
    )
    text = "The queue is shared by every tenant; one worker pool drains it."
    files = {
        "dna/governance.md": doc("Governance", "The contract.", contract, doc_kind="governance"),
        "records/R-1-shared-queue.md": doc("R-1: Shared queue", "One queue.", text, doc_kind="решение"),
        "engineering/queue.md": doc("Queue", "How the queue works.", text, doc_kind="engineering"),
    }
    question = "why is one queue shared by every tenant"
    plain = {h.path: h.breakdown.intent for h in route(small_bank(tmp_path / "plain", files), question).hits}
    files["records/R-1-shared-queue.md"] = files["records/R-1-shared-queue.md"].replace(
        "status: active", "status: active\ndecision_status: accepted"
    )
    deciding = {h.path: h.breakdown.intent for h in route(small_bank(tmp_path / "deciding", files), question).hits}
    assert plain["records/R-1-shared-queue.md"] == 1.0
    assert deciding["records/R-1-shared-queue.md"] == INTENT_BOOST
    assert deciding["engineering/queue.md"] == 1.0


def test_an_archived_plan_keeps_its_whole_body_evidence_and_only_its_headers_are_damped(tmp_path):
    """The plan is the only record of the fix; being archived lowers its header prior, not what its
    body proves, so it gets the same body points as a live copy of it would."""
    plan = "## Risks\n\nCREATE INDEX CONCURRENTLY fails inside a goose transaction: mark the file NO TRANSACTION.\n"
    files = {
        "features/FT-3/feature.md": doc("FT-3: Live posts", "Posts appear without a reload.", "Posts stream live."),
        "features/FT-3/implementation-plan.md": doc("FT-3: Plan", "Steps of FT-3.", plan).replace(
            "status: active", "status: archived"
        ),
    }
    question = "creating an index concurrently fails inside the goose transaction"
    archived = route(small_bank(tmp_path / "a", files), question).hits[0]
    files["features/FT-3/implementation-plan.md"] = doc("FT-3: Plan", "Steps of FT-3.", plan)
    live = route(small_bank(tmp_path / "b", files), question).hits[0]
    assert archived.path == live.path == "features/FT-3/implementation-plan.md"
    assert archived.breakdown.status_weight < live.breakdown.status_weight
    assert archived.breakdown.body == live.breakdown.body > 0
    assert archived.breakdown.section == live.breakdown.section > 0


def test_a_registry_answers_from_its_own_lines_never_from_its_entries(tmp_path):
    """An operations index whose entries list other documents says in its own line where the shared
    setup lives: that line answers, while its entries stay evidence for the documents they list."""
    entries = "".join(f"- [{name}]({name}.md) — {name} of the service.\n" for name in ("runbook", "release", "config"))
    index = "The shared bootstrap of the course template lives in the root SETUP file, not here.\n\n" + entries
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "ops/README.md": doc("Operations Index", "Navigation over operations documents.", index),
            "ops/runbook.md": doc(
                "Runbook", "Operational procedures.", "Restart the worker; the bootstrap script reruns."
            ),
            "ops/release.md": doc("Release", "How a release ships.", "Tag, build, publish the image."),
            "ops/config.md": doc("Configuration", "Settings the service reads.", "Environment variables only."),
        },
    )
    hits = route(bank, "where is the shared bootstrap of the course template described").hits
    assert hits[0].path == "ops/README.md" and hits[0].breakdown.body > 0
    assert "ops/README.md" not in [h.path for h in route(bank, "operational procedures of the service").hits[:1]]


def test_a_short_header_token_is_an_abbreviation_not_the_stem_of_a_question_word(tmp_path):
    files = {
        "ops/pr-checklist.md": doc("PR checklist", "What a PR needs before review", "Reviewers, labels."),
        "ops/per-tenant.md": doc("Per tenant limits", "Quotas per tenant", "Limits."),
        "ops/release.md": doc("Release", "How a version ships", "The release process: tag, build, permission."),
    }
    bank = small_bank(tmp_path, files)
    hits = route(bank, "who grants the permission in the release process", limit=5).hits
    assert [hit.path for hit in hits] == ["ops/release.md"]
    assert not route(bank, "process permission", body_evidence=False).hits


FILLER = "The monitor redraws the screen on a timer and keeps its layout when the terminal is resized. "


def test_the_document_holding_the_question_words_together_beats_one_scattering_them(tmp_path):
    together = "## Invariants\n\n" + FILLER * 3 + "A pane holds at most one active record at a time.\n\n" + FILLER * 3
    scattered = (
        "## Notes\n\nEvery pane is drawn; a pane has a border. "
        + FILLER * 3
        + "Records are kept in the registry. "
        + FILLER * 3
        + "An active session shows a mark; active ones blink. "
        + FILLER * 3
        + "The pane list is sorted by name.\n"
    )
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "domain/rules.md": doc("Rules", "What must always hold.", together),
            "engineering/monitor.md": doc("Monitor notes", "How the monitor draws.", scattered),
        },
    )
    hits = route(bank, "can a pane have two active records").hits
    assert [hit.path for hit in hits] == ["domain/rules.md", "engineering/monitor.md"]
    assert hits[0].breakdown.body < hits[1].breakdown.body  # the bodies alone rank the scattered one first
    assert hits[0].breakdown.section > hits[1].breakdown.section


def test_the_best_window_counts_each_concept_once_whatever_form_it_takes():
    positions = {"pane": [3, 80], "panes": [90], "active": [95], "record": [200]}
    concepts = [(1.0, {"pane": 1.0, "panes": 1.0}), (2.0, {"active": 1.0}), (3.0, {"record": 1.0})]
    found = closeness(lambda path: positions, ["doc.md"], concepts)
    assert found["doc.md"] == FLOOR + (1.0 - FLOOR) * 2 / 3  # pane and active within one window, record apart


def test_word_places_are_kept_for_a_bounded_number_of_bodies(tmp_path, monkeypatch):
    monkeypatch.setattr(body_index_module, "POSITIONS_KEPT", 2)
    files = {f"domain/d{i}.md": doc(f"Doc {i}", "Something.", f"pane number {i} holds a record") for i in range(3)}
    catalog = body_index(small_bank(tmp_path / "memory_bank", files))
    for i in range(3):
        assert catalog.positions_of(f"domain/d{i}.md")["pane"] == [1]  # after the title heading's "doc"
    assert len(catalog._positions) <= 2


def test_a_huge_body_is_cut_into_sections_and_places_only_so_far_but_its_words_all_count(tmp_path, monkeypatch):
    """A 24 MB log among a question's candidates cost every route seconds: routing scans a body's
    first ``SCANNED_CHARACTERS`` (whole lines) for sections and word places, BM25 still all of it."""
    monkeypatch.setattr(body_index_module, "SCANNED_CHARACTERS", 400)
    sections = "".join(f"## Entry {n}\n\nroutine heartbeat line number {n}\n\n" for n in range(40))
    body = sections + "## Tail\n\nthe quarantined flamingo incident\n"
    bank = small_bank(tmp_path / "memory_bank", {"ops/log.md": doc("Log", "A long log.", body)})
    index = body_index(bank)
    cut = index.sections_of("ops/log.md")
    assert 3 < len(cut) < 12 and cut[-1].heading != "Tail"
    assert "heartbeat" in index.positions_of("ops/log.md") and "flamingo" not in index.positions_of("ops/log.md")
    hit = route(bank, "flamingo incident").hits[0]
    assert hit.path == "ops/log.md" and hit.breakdown.body > 0


def test_asking_in_russian_how_to_name_a_file_reads_the_naming_rules(tmp_path):
    """ "Как назвать файл" is the verb of "naming": before it was in the dictionary, the question met
    only "файл" and was read at the template that shows a file."""
    body = (
        "## Template\n\nCopy the template file and fill in its frontmatter; the file starts with a title.\n\n"
        "## Naming\n\nPRD-NNN-short-slug.md: the next free number, then a slug of the product.\n"
    )
    bank = small_bank(tmp_path / "memory_bank", {"prd/README.md": doc("PRD Index", "Product documents.", body)})
    assert "naming" in BUILTIN.term("назвать").translations and "naming" in BUILTIN.term("именовать").translations
    hit = route(bank, "как назвать файл нового продуктового документа").hits[0]
    assert (hit.path, hit.section) == ("prd/README.md", "Naming")
