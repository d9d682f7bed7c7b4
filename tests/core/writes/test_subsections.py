"""A ``###`` or ``####`` section named by a caller: read, written and narrowed to like a ``##`` one."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal, SectionAmbiguous, SectionNotFound
from memorybank.core.parse import subsections
from memorybank.core.read import read_document, read_many
from memorybank.core.write.edit import edit, update_section

RETRIES = """---
title: Retries
purpose: How retries work.
status: active
---
# Retries

## Policy

General words.

### Backoff

Delays double each time.

#### Jitter

Each delay is drawn at random.

### Giving up

After five tries the job fails.

```
### not a heading
```

## Backoff summary

See above.

## Other

End.
"""


@pytest.fixture
def bank(tmp_path, write_file) -> Bank:
    write_file(tmp_path, "README.md", "---\ntitle: I\ndoc_function: index\n---\n- [R](retries.md) — r\n")
    write_file(tmp_path, "retries.md", RETRIES)
    return Bank.open(tmp_path)


def test_subsections_run_to_the_next_heading_of_their_level_or_above_outside_fences():
    found = {s.title: (s.line, s.end_line, s.level) for s in subsections(RETRIES)}
    assert found == {"Backoff": (12, 19, 3), "Jitter": (16, 19, 4), "Giving up": (20, 27, 3)}


def test_a_third_level_section_reads_alone_and_a_second_level_name_wins_over_it(bank):
    giving_up = read_document(bank, "retries.md", section="giving up")
    assert giving_up.section == "Giving up"
    assert (
        giving_up.content.startswith("### Giving up\n\nAfter five tries")
        and "## Backoff summary" not in giving_up.content
    )
    assert (
        read_document(bank, "retries.md", section="#### Jitter").content
        == "#### Jitter\n\nEach delay is drawn at random."
    )
    assert read_document(bank, "retries.md", section="Backoff").content.startswith("### Backoff")  # exact beats a part
    assert read_document(bank, "retries.md", section="backoff summ").section == "Backoff summary"
    (batch,) = read_many(bank, [{"path": "retries.md", "section": "Jitter"}]).documents
    assert batch.section == "Jitter"


def test_a_name_no_heading_of_any_level_has_still_lists_the_second_level_ones(bank):
    with pytest.raises(SectionNotFound, match="Available: Policy | Backoff summary | Other"):
        read_document(bank, "retries.md", section="Timeouts")


def test_a_part_shared_by_several_deeper_headings_is_refused(tmp_path, write_file):
    write_file(tmp_path, "a.md", "# A\n\n## Top\n\n### Retry reads\n\nx\n\n### Retry writes\n\ny\n")
    with pytest.raises(SectionAmbiguous, match="Retry reads | Retry writes"):
        read_document(Bank.open(tmp_path), "a.md", section="retry")


def test_update_section_writes_a_third_level_section_and_nothing_else(bank, tmp_path):
    result = update_section(bank, path="retries.md", section="Giving up", content="After six tries.", mode="append")
    assert result.section == "Giving up"
    text = (tmp_path / "retries.md").read_text()
    assert text == RETRIES.replace("### not a heading\n```\n", "### not a heading\n```\n\nAfter six tries.\n")


def test_replacing_a_third_level_section_keeps_its_subsections_boundary(bank, tmp_path):
    update_section(bank, path="retries.md", section="Jitter", content="No jitter any more.")
    text = (tmp_path / "retries.md").read_text()
    assert "#### Jitter\n\nNo jitter any more.\n\n### Giving up" in text


def test_content_may_not_open_a_heading_at_the_sections_level(bank, tmp_path):
    with pytest.raises(Refusal, match=r'at the level of "Backoff" or above.*Use #### for a heading'):
        update_section(bank, path="retries.md", section="Backoff", content="### Sneaky\n\ntext")
    assert (tmp_path / "retries.md").read_text() == RETRIES
    update_section(bank, path="retries.md", section="Backoff", content="#### Cap\n\nOne minute.", mode="append")
    assert "#### Cap\n\nOne minute." in (tmp_path / "retries.md").read_text()


def test_an_edit_narrows_to_a_third_level_section(bank, tmp_path):
    with pytest.raises(Refusal, match='not inside the section "Giving up"'):
        edit(bank, path="retries.md", section="giving up", find="delay", replace="wait")
    edit(bank, path="retries.md", section="jitter", find="delay", replace="wait")
    assert "Each wait is drawn at random." in (tmp_path / "retries.md").read_text()


LOG = "# Decisions\n\n## ADR-1: queue\n\n### Context\n\nOne queue.\n\n### Decision\n\nKeep it.\n\n## ADR-2: cache\n\n### Context\n\nSlow reads.\n\n### Decision\n\nAdd a cache.\n\n## Input > Output\n\nArrows.\n"


def test_a_title_several_third_level_headings_share_is_refused_and_a_path_names_one(tmp_path, write_file):
    write_file(tmp_path, "log.md", LOG)
    bank = Bank.open(tmp_path)
    with pytest.raises(
        SectionAmbiguous, match=r'"ADR-1: queue > Decision \(line 9\)"; "ADR-2: cache > Decision \(line 19\)"'
    ):
        update_section(bank, path="log.md", section="Decision", content="Drop it.")
    assert (tmp_path / "log.md").read_text() == LOG
    update_section(bank, path="log.md", section="ADR-2 > decision", content="Drop the cache.")
    assert (tmp_path / "log.md").read_text() == LOG.replace("Add a cache.", "Drop the cache.")
    assert read_document(bank, "log.md", section="adr-1 > context").content == "### Context\n\nOne queue."
    assert read_document(bank, "log.md", section="Input > Output").content == "## Input > Output\n\nArrows."
    with pytest.raises(SectionNotFound):
        read_document(bank, "log.md", section="ADR-2 > Consequences")


PROBE = (
    "# P\n\n## Alpha\n\n### Notes\n\nalpha notes\n\n#### Deep\n\ndeep body\n\n"
    "Setext Title\n------------\n\nunder setext\n\n## Beta\n\n### Beta\n\ninner beta\n\n## Log\n\none\n\n## Log\n\ntwo\n"
)


@pytest.fixture
def probe(tmp_path, write_file) -> Bank:
    write_file(tmp_path, "p.md", PROBE)
    return Bank.open(tmp_path)


def test_marks_pin_the_level_a_name_means(probe):
    assert read_document(probe, "p.md", section="### Beta").content == "### Beta\n\ninner beta"
    assert read_document(probe, "p.md", section="## Beta").content.startswith("## Beta\n\n### Beta")
    with pytest.raises(SectionNotFound):
        read_document(probe, "p.md", section="### Deep")  # it is a ####
    assert read_document(probe, "p.md", section="Alpha > ### Notes > #### Deep").content == "#### Deep\n\ndeep body"


def test_equal_second_level_titles_are_refused_and_a_line_names_one(probe, tmp_path):
    with pytest.raises(SectionAmbiguous, match=r'"Log \(line 24\)"; "Log \(line 28\)"'):
        update_section(probe, path="p.md", section="Log", content="changed")
    assert (tmp_path / "p.md").read_text() == PROBE
    update_section(probe, path="p.md", section="Log (line 28)", content="second log")
    assert (tmp_path / "p.md").read_text() == PROBE.replace("two\n", "second log\n")
    for name in ("line 28", "(line 28)", "Line 28"):  # the line alone, as the refusal offers it
        assert read_document(probe, "p.md", section=name).content.startswith("## Log\n\nsecond log")
    with pytest.raises(SectionAmbiguous, match=r'by its path, its line \("line 24"\) or both'):
        update_section(probe, path="p.md", section="Log", content="changed")


def test_a_setext_heading_is_a_section_and_ends_the_one_above_it(probe, tmp_path):
    assert read_document(probe, "p.md", section="Setext Title").content == "Setext Title\n------------\n\nunder setext"
    update_section(probe, path="p.md", section="Alpha > Notes", content="new notes")
    text = (tmp_path / "p.md").read_text()
    assert "### Notes\n\nnew notes\n\nSetext Title\n------------\n\nunder setext" in text  # the heading stays
    update_section(probe, path="p.md", section="Setext Title", content="new setext body")
    assert "Setext Title\n------------\n\nnew setext body\n\n## Beta" in (tmp_path / "p.md").read_text()


def test_text_found_outside_the_section_named_is_said_to_be_there(probe):
    with pytest.raises(Refusal, match=r'Found in p.md, but not inside the section "Deep" \(lines 9-12\)'):
        edit(probe, path="p.md", section="Deep", find="deep body\n\nSetext Title", replace="x")


def test_appended_text_joins_the_sections_own_text_above_the_headings_inside_it(bank, tmp_path):
    update_section(bank, path="retries.md", section="Policy", content="More general words.", mode="append")
    text = (tmp_path / "retries.md").read_text()
    assert "## Policy\n\nGeneral words.\n\nMore general words.\n\n### Backoff\n" in text
    update_section(bank, path="retries.md", section="Policy", content="### Timeouts\n\nTen seconds.", mode="append")
    assert (
        text.replace("```\n\n## Backoff summary", "```\n\n### Timeouts\n\nTen seconds.\n\n## Backoff summary")
        == (tmp_path / "retries.md").read_text()
    )  # a new heading goes after the ones already there


def test_replacing_a_section_says_which_headings_inside_it_went(bank):
    result = update_section(bank, path="retries.md", section="Policy", content="Only this now.", dry_run=True)
    assert result.warnings == [
        "Replacing the section removed the headings inside it: ### Backoff, #### Jitter, ### Giving up."
    ]
    kept = update_section(
        bank, path="retries.md", section="Backoff", content="Capped.\n\n#### Jitter\n\nNone.", dry_run=True
    )
    assert kept.warnings == []
