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
        read_document(bank, "retries.md", section="### Jitter").content
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
    with pytest.raises(Refusal, match='Not found in retries.md under "Giving up"'):
        edit(bank, path="retries.md", section="giving up", find="delay", replace="wait")
    edit(bank, path="retries.md", section="jitter", find="delay", replace="wait")
    assert "Each wait is drawn at random." in (tmp_path / "retries.md").read_text()


LOG = "# Decisions\n\n## ADR-1: queue\n\n### Context\n\nOne queue.\n\n### Decision\n\nKeep it.\n\n## ADR-2: cache\n\n### Context\n\nSlow reads.\n\n### Decision\n\nAdd a cache.\n\n## Input > Output\n\nArrows.\n"


def test_a_title_several_third_level_headings_share_is_refused_and_a_path_names_one(tmp_path, write_file):
    write_file(tmp_path, "log.md", LOG)
    bank = Bank.open(tmp_path)
    with pytest.raises(
        SectionAmbiguous, match=r'"ADR-1: queue > Decision" \(line 9\); "ADR-2: cache > Decision" \(line 19\)'
    ):
        update_section(bank, path="log.md", section="Decision", content="Drop it.")
    assert (tmp_path / "log.md").read_text() == LOG
    update_section(bank, path="log.md", section="ADR-2 > decision", content="Drop the cache.")
    assert (tmp_path / "log.md").read_text() == LOG.replace("Add a cache.", "Drop the cache.")
    assert read_document(bank, "log.md", section="adr-1 > context").content == "### Context\n\nOne queue."
    assert read_document(bank, "log.md", section="Input > Output").content == "## Input > Output\n\nArrows."
    with pytest.raises(SectionNotFound):
        read_document(bank, "log.md", section="ADR-2 > Consequences")
