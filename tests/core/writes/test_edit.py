"""bank_edit and bank_update_section: exact, narrow, and byte-faithful outside the change."""

from __future__ import annotations

import os

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, PathRefused, Refusal, SectionAmbiguous, SectionNotFound, UsageError
from memorybank.core.init import materialize_flows
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.edit import edit, update_section

from tests.conftest import tree_snapshot

POLICY = "engineering/testing-policy.md"
CONTEXT = "product/context.md"


def head_and_sections(text: str) -> tuple[str, list[str]]:
    head, body = text.split("\n---\n", 1)
    return head, body.split("\n## ")


def test_update_section_replaces_one_section_and_leaves_every_other_byte(seeded):
    before = (seeded.root / CONTEXT).read_text()
    update_section(seeded, path=CONTEXT, section="Problem", content="Readers lose their place in long books.")
    after = (seeded.root / CONTEXT).read_text()
    head_before, parts_before = head_and_sections(before)
    head_after, parts_after = head_and_sections(after)
    assert head_after == head_before
    changed = [i for i, (a, b) in enumerate(zip(parts_before, parts_after)) if a != b]
    assert len(changed) == 1 and parts_after[changed[0]].startswith(
        "Problem\n\nReaders lose their place in long books.\n"
    )
    assert validate(seeded).total == 0


def test_append_keeps_the_old_text_and_trims_both_ends(seeded):
    update_section(seeded, path=CONTEXT, section="Problem", content="First.")
    update_section(seeded, path=CONTEXT, section="problem", content="\n\nSecond.\n\n", mode="append")
    text = (seeded.root / CONTEXT).read_text()
    assert "## Problem\n\nFirst.\n\nSecond.\n\n## " in text


def test_a_last_section_ends_the_file_with_one_newline(tmp_path, write_file):
    write_file(tmp_path, "a.md", "# A\n\n## One\n\nold\n\n\n")
    bank = Bank.open(tmp_path)
    update_section(bank, path="a.md", section="One", content="new")
    assert (tmp_path / "a.md").read_text() == "# A\n\n## One\n\nnew\n"


def test_a_file_without_a_final_newline_keeps_it_and_every_later_byte(tmp_path, write_file):
    """A real bank ends an index on a closing four-backtick fence with no newline after it."""
    tail = "## Two\n\n````markdown\n## Inside a fence\n````"
    write_file(tmp_path, "a.md", f"# A\n\n## One\n\nold\n\n{tail}")
    bank = Bank.open(tmp_path)
    update_section(bank, path="a.md", section="One", content="new")
    assert (tmp_path / "a.md").read_text() == f"# A\n\n## One\n\nnew\n\n{tail}"


def test_update_section_dry_run_writes_nothing(seeded):
    before = tree_snapshot(seeded.root)
    result = update_section(seeded, path=CONTEXT, section="Problem", content="x", dry_run=True)
    assert (result.updated, result.dry_run) == (False, True) and result.bytes_after != result.bytes_before
    assert tree_snapshot(seeded.root) == before


def test_update_section_refusals(seeded):
    materialize_flows(seeded)
    before = tree_snapshot(seeded.root)
    with pytest.raises(SectionNotFound, match=r"not found.*Available: Problem \| Who It Is For"):
        update_section(seeded, path=CONTEXT, section="Nope", content="x")
    with pytest.raises(SectionAmbiguous, match=r"part of 2 headings.*What Must Be Tested \| What Is Verified Manually"):
        update_section(seeded, path=POLICY, section="what", content="x")  # a write never guesses which
    with pytest.raises(NotADocument, match="Not a document of this bank"):
        update_section(seeded, path="nope.md", section="A", content="x")
    with pytest.raises(Refusal, match="is a template"):
        update_section(seeded, path="flows/templates/adr/ADR-ID.md", section="Wrapper Notes", content="x")
    with pytest.raises(Refusal, match="empty"):
        update_section(seeded, path=CONTEXT, section="Problem", content="  \n")
    with pytest.raises(UsageError, match="either content or contentFile"):
        update_section(seeded, path=CONTEXT, section="Problem", content="x", content_file="y")
    with pytest.raises(Refusal, match="instead of holding the content"):
        update_section(seeded, path=CONTEXT, section="Problem", content="New opening.\n\n[rest unchanged]")
    assert tree_snapshot(seeded.root) == before


def test_content_file_writes_a_generated_table(seeded, tmp_path):
    table = tmp_path / "table.md"
    table.write_text("| n | square |\n|---|---|\n" + "".join(f"| {n} | {n * n} |\n" for n in range(400)))
    update_section(seeded, path=POLICY, section="Current Coverage", content_file=str(table))
    assert "| 399 | 159201 |" in (seeded.root / POLICY).read_text()
    assert validate(seeded).total == 0


def test_an_inbox_note_may_be_amended_in_place(seeded):
    create(seeded, doc_kind="domain", path="n.md", title="N", purpose="n.", inbox=True, body="## Claim\n\nold")
    update_section(seeded, path="_inbox/n.md", section="Claim", content="new")
    assert "## Claim\n\nnew\n" in (seeded.root / "_inbox/n.md").read_text()


def test_edit_replaces_one_exact_fragment(seeded):
    table = "| area | state |\n|---|---|\n| parser | pending |\n| cli | pending |\n| server | pending |"
    update_section(seeded, path=POLICY, section="Current Coverage", content=table)
    edit(seeded, path=POLICY, find="| parser | pending |", replace="| parser | covered |")
    assert "| parser | covered |" in (seeded.root / POLICY).read_text()
    with pytest.raises(Refusal, match="Found 2 times") as twice:
        edit(seeded, path=POLICY, find="| pending |", replace="| done |")
    lines = (seeded.root / POLICY).read_text().split("\n")
    at = [str(n) for n, line in enumerate(lines, 1) if "| pending |" in line]
    assert f"at lines {', '.join(at)}. Give more surrounding text, or pass section" in twice.value.message
    with pytest.raises(Refusal, match=r"at lines \d+, \d+") as short:  # each line once
        edit(seeded, path=POLICY, find="e", replace="E")
    numbers = short.value.message.split("at lines ")[1].split(".")[0].replace(" and more", "").split(", ")
    assert len(numbers) == len(set(numbers))
    with pytest.raises(Refusal, match=r"Not found(.|\n)*match exactly"):
        edit(seeded, path=POLICY, find="no such text", replace="x")
    with pytest.raises(Refusal, match="is in the frontmatter"):
        edit(seeded, path=POLICY, find="doc_kind:", replace="x")  # the frontmatter is out of reach
    with pytest.raises(Refusal, match="identical"):
        edit(seeded, path=POLICY, find="a", replace="a")


def test_a_heading_renamed_by_its_words_alone_is_an_edit_not_a_fence_problem(seeded):
    """Finding "Simplify Review" (without the ## marks) to rename the heading was refused as turning
    "## Simplify Review" into code."""
    done = edit(seeded, path=POLICY, find="Simplify Review", replace="Simplification Review")
    assert done.edited and "## Simplification Review" in (seeded.root / POLICY).read_text()


def test_edit_narrowed_to_a_section_and_heading_renames(seeded):
    result = edit(seeded, path=POLICY, find="## Simplify Review", replace="## Simplification Review")
    assert result.edited
    seeded.refresh()
    assert "Simplification Review" in [s.title for s in seeded.document(POLICY).sections]
    update_section(
        seeded, path=POLICY, section="Simplification Review", content="Look for dead code.\nLook for copies."
    )
    with pytest.raises(Refusal, match='Found 2 times in .* under "Simplification Review", at lines') as narrowed:
        edit(seeded, path=POLICY, find="Look for", replace="Hunt for", section="Simplification Review")
    assert "pass section" not in narrowed.value.message  # it was passed
    narrowed = edit(seeded, path=POLICY, find="Look for dead", replace="Hunt for dead", section="simplification review")
    assert narrowed.section == "Simplification Review"


def test_edit_dry_run_writes_nothing(seeded):
    before = tree_snapshot(seeded.root)
    result = edit(seeded, path=POLICY, find="## Simplify Review", replace="## Review", dry_run=True)
    assert not result.edited and "## Review" in result.context
    assert tree_snapshot(seeded.root) == before


def test_crlf_and_bom_survive_every_edit(tmp_path, write_file):
    raw = "\ufeff---\r\ntitle: C\r\nstatus: draft\r\n---\r\n# C\r\n\r\n## One\r\n\r\nold text\r\n\r\n## Two\r\n\r\nkeep\r\n"
    write_file(tmp_path, "c.md", raw.encode("utf-8"))
    bank = Bank.open(tmp_path)
    edit(bank, path="c.md", find="old text", replace="new text")
    update_section(bank, path="c.md", section="Two", content="kept\nand more")
    data = (tmp_path / "c.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\n") and b"\n" not in data.replace(b"\r\n", b"")
    assert data.decode("utf-8-sig") == (
        "---\r\ntitle: C\r\nstatus: draft\r\n---\r\n# C\r\n\r\n## One\r\n\r\nnew text\r\n\r\n## Two\r\n\r\nkept\r\nand more\r\n"
    )


def test_a_lone_cr_in_new_text_is_a_line_break_in_the_file_s_own_endings(tmp_path, write_file):
    raw = "---\r\ntitle: C\r\n---\r\n# C\r\n\r\n## One\r\n\r\nold text\r\n\r\n## Two\r\n\r\nkeep\r\n"
    write_file(tmp_path, "c.md", raw.encode("utf-8"))
    bank = Bank.open(tmp_path)
    edit(bank, path="c.md", find="old text\r\n", replace="line one\rline two\r\n")
    update_section(bank, path="c.md", section="Two", content="kept\rand more")
    data = (tmp_path / "c.md").read_bytes()
    assert b"\r\nline one\r\nline two\r\n" in data and b"kept\r\nand more\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"") and b"\r" not in data.replace(b"\r\n", b"")


def test_a_file_that_is_not_utf8_is_refused_rather_than_corrupted(tmp_path, write_file):
    write_file(tmp_path, "l.md", b"# Caf\xe9\n\n## A\n\nx\n")
    bank = Bank.open(tmp_path)
    with pytest.raises(Refusal, match="not valid UTF-8"):
        update_section(bank, path="l.md", section="A", content="y")
    assert (tmp_path / "l.md").read_bytes() == b"# Caf\xe9\n\n## A\n\nx\n"


def test_a_lone_cr_file_is_edited_in_its_own_line_endings(tmp_path, write_file):
    write_file(tmp_path, "a.md", b"---\rtitle: A\r---\r# A\r\r## One\r\rold\r")
    bank = Bank.open(tmp_path)
    update_section(bank, path="a.md", section="One", content="new")
    assert (tmp_path / "a.md").read_bytes() == b"---\rtitle: A\r---\r# A\r\r## One\r\rnew\r"


def test_a_fragment_not_found_names_the_closest_passage_and_its_line(seeded):
    """An agent that misremembers a word is told where the passage it meant is, not to retry blindly."""
    with pytest.raises(Refusal) as refused:
        edit(seeded, path=CONTEXT, find="Most other knowledge documents derives from it.", replace="x")
    lines = (seeded.root / CONTEXT).read_text().split("\n")
    number = next(n for n, line in enumerate(lines, 1) if "Most other knowledge documents derive from it" in line)
    assert f"The closest passage is at line {number}:" in refused.value.message
    with pytest.raises(Refusal) as unlike:
        edit(seeded, path=CONTEXT, find="zzzz qqqq wwww", replace="x")
    assert "closest passage" not in unlike.value.message


def test_a_value_written_unquoted_is_fixed_by_setting_it_to_itself_and_edit_says_so(tmp_path, write_file):
    """validate's invalid-frontmatter says to quote a value holding ": "; bank_edit cannot reach the
    frontmatter and said only "not found", and setting the value it has was a no-op."""
    from memorybank.core.validate import validate
    from memorybank.core.write.fields import set_field

    write_file(tmp_path, "README.md", "---\ntitle: Bank\n---\n# Bank\n\n- [Run](run.md)\n")
    write_file(tmp_path, "run.md", "---\ntitle: Run\npurpose: Local: how to run it\n---\n# Run\n\nx\n")
    bank = Bank.open(tmp_path)
    found = [f for f in validate(bank).findings if f.rule != "no-contract"]
    assert [f.rule for f in found] == ["invalid-frontmatter"]
    assert "bank_set_field with the value it has quotes it" in found[0].message
    with pytest.raises(Refusal, match="is in the frontmatter of run.md.*bank_set_field") as refused:
        edit(bank, path="run.md", find="purpose: Local: how", replace='purpose: "Local: how')
    assert refused.value.reason == "in-frontmatter"
    done = set_field(bank, path="run.md", field="purpose", value="Local: how to run it")
    assert done.changed and done.line == 'purpose: "Local: how to run it"'
    assert [f.rule for f in validate(Bank.open(tmp_path)).findings] == ["no-contract"]
    again = set_field(Bank.open(tmp_path), path="run.md", field="purpose", value="Local: how to run it")
    assert not again.changed


def test_a_body_edit_can_neither_write_nor_close_a_frontmatter_block(tmp_path, write_file):
    """A file with no frontmatter, or a block that never closes, is all body to an edit: an edit that
    would make it read with a frontmatter block (status, keys another document owns) is refused."""
    write_file(tmp_path, "README.md", "# Bank\n\n- [Legacy](legacy.md)\n- [Broken](broken.md)\n")
    write_file(tmp_path, "legacy.md", "# Legacy notes\n\nOld notes kept by hand.\n\n## Log\n\nx\n")
    write_file(tmp_path, "broken.md", "---\ntitle: Broken\nstatus: draft\n\n# Broken\n\n## Log\n\nbody\n")
    write_file(tmp_path, "fine.md", "---\ntitle: Fine\n---\n# Fine\n\n## Log\n\nbody\n")
    bank = Bank.open(tmp_path)
    before = tree_snapshot(tmp_path)
    attempts = [
        lambda: edit(bank, path="legacy.md", find="# Legacy notes", replace="---\nstatus: active\n---\n# Legacy notes"),
        lambda: edit(bank, path="broken.md", find="\n# Broken", replace="canonical_for: [x]\n---\n# Broken"),
        lambda: update_section(bank, path="broken.md", section="Log", content="---\nclosed"),
    ]
    for attempt in attempts:
        with pytest.raises(Refusal) as refused:
            attempt()
        assert refused.value.reason == "frontmatter-out-of-reach"
    assert tree_snapshot(tmp_path) == before
    edit(bank, path="fine.md", find="body", replace="above\n\n---\n\nbelow")  # a rule in the body is body
    assert (tmp_path / "fine.md").read_text().startswith("---\ntitle: Fine\n---\n# Fine")


def test_a_symbolic_link_is_never_replaced_by_a_copy(tmp_path, write_file):
    write_file(tmp_path, "real.md", "---\ntitle: Real\n---\n# Real\n\n## One\n\nold text\n")
    os.symlink("real.md", tmp_path / "alias.md")
    bank = Bank.open(tmp_path)
    with pytest.raises(Refusal) as refused:
        edit(bank, path="alias.md", find="old text", replace="new text")
    assert refused.value.reason == "symbolic-link" and "Write real.md instead" in str(refused.value)
    assert (tmp_path / "alias.md").is_symlink() and "old text" in (tmp_path / "real.md").read_text()


def test_a_new_document_through_a_linked_folder_outside_the_bank_is_refused_by_name(tmp_path, write_file):

    bank_root = tmp_path / "bank"
    write_file(bank_root, "README.md", "---\ntitle: Root\n---\n# Root\n")
    (tmp_path / "outside").mkdir()
    os.symlink("../outside", bank_root / "linked")
    bank = Bank.open(bank_root)
    with pytest.raises((Refusal, PathRefused)) as refused:
        create(bank, path="linked/x.md", title="X", purpose="P", doc_kind="domain")
    assert "outside" in str(refused.value) and "File exists" not in str(refused.value)
    assert list((tmp_path / "outside").iterdir()) == []


@pytest.mark.parametrize(
    "placeholder",
    [
        "[rest unchanged]",
        "... existing content ...",
        "// ... remaining content as before ...",
        "# ... rest of the section stays the same ...",
        "(unchanged)",
        "  // (unchanged)",
        "[as before]",
        "... остальное без изменений ...",
        "(без изменений)",
        "[остальная часть раздела опущена]",
        "остальное — как было",
        "далее без изменений...",
        "Rest of the document remains the same.",
        "The remaining entries stay as they were.",
        "keep everything else as is",
        "<same as before>",
        "[...]",
        "- (unchanged)",
        "_(unchanged)_",
        "resto sin cambios",
        "le reste est inchangé",
        "Rest unverändert",
        "其余保持不变",
        "rest\u00a0unchanged",
        "rest unchang\u0435d",
    ],
)
def test_a_placeholder_for_content_is_refused(placeholder):
    from memorybank.core.write.firewall import refuse_omissions

    with pytest.raises(Refusal) as refused:
        refuse_omissions(f"New opening.\n\n{placeholder}\n", "x.md")
    assert refused.value.reason == "omission-placeholder"


@pytest.mark.parametrize(
    "prose",
    [
        "The public API is unchanged since v2.",
        "| retries | 3 (unchanged) |",
        "Ship it (unchanged from the last release) on Monday.",
        "The remaining content of the queue is drained first.",
        "Остальные поля передаются без изменений.",
        "Далее используется прежний формат.",
        "Остальные кнопки работают как было задумано.",
        "The remaining sections cover deployment.",
        "Rest of the team agreed.",
        "Use ... to elide output in examples.",
    ],
)
def test_prose_that_names_what_did_not_change_is_written(prose):
    from memorybank.core.write.firewall import refuse_omissions

    refuse_omissions(f"{prose}\n", "x.md")


@pytest.mark.parametrize(
    "stand_in",
    [
        "...",
        "…",
        "[...]",
        "<…>",
        "- …",
        "(same)",
        "As above.",
        "See previous version.",
        "Same as before.",
        "Unchanged from v1.",
        "Rest as in the previous revision.",
        "<snip>",
        "etc.",
        "[остальное без изм.]",
        "…и так далее",
        "прежний текст",
        "Содержимое раздела прежнее.",
        "См. предыдущую версию документа.",
        "Как и раньше.",
        "(см. выше)",
    ],
)
def test_a_section_replaced_by_text_that_only_points_at_what_was_there_is_refused(stand_in):
    from memorybank.core.write.firewall import refuse_omissions

    with pytest.raises(Refusal) as refused:
        refuse_omissions(f"  {stand_in}\n", "x.md", whole=True)
    assert refused.value.reason == "omission-placeholder"
    if stand_in in ("...", "…", "etc.", "(same)"):  # a fragment's replacement may elide (a stub's body)
        refuse_omissions(f"def stub():\n    {stand_in}\n", "x.md")


@pytest.mark.parametrize(
    "prose",
    [
        "- Далее запрос передаётся в репозиторий без изменений.",
        "- Остальное поведение API не изменилось с v2.",
        "| v5 | 2026-05-01 | Добавлен раздел; остальные разделы без изменений |",
        "If the health check passes, leave everything as is.",
        "The remaining items are the same as in FT-002.",
        "Other rows are kept as before: only type changes.",
        "доступ (MVP-допущение).",
        "(шаг пропущен)",
        "- The public REST stays unchanged; only the gRPC service moves.",
        "Encryption at rest remains unchanged in v3.",
        "```text\nlog line\n[...]\nlast line\n```",
    ],
)
def test_prose_that_says_what_did_not_change_inside_a_sentence_is_written(prose):
    from memorybank.core.write.firewall import refuse_omissions

    refuse_omissions(f"{prose}\n", "x.md", whole=True)


def test_a_credential_is_judged_on_the_lines_a_write_changed_not_on_their_neighbours():
    """An owner's fake token beside the line edited stays; a value given, a blank line under its
    secret name, is a secret the edit made."""
    from memorybank.core.write.firewall import refuse_credentials_made

    before = "```\n# example\nBOT_TOKEN=123456:TEST\nDATABASE_URL=postgres://db/app\n```\n"
    refuse_credentials_made(before, before.replace("db/app", "db/app?connect_timeout=3"), "x.md")
    with pytest.raises(Refusal, match="line 4 holds what looks like a value assigned to yookassa_secret_key"):
        refuse_credentials_made(
            "```yaml\nyookassa_secret_key:\n\n  to-be-filled\n```\n",
            "```yaml\nyookassa_secret_key:\n\n  live_9f8e7d6c5b4a3210fedcba\n```\n",
            "x.md",
        )


def test_appending_to_a_section_closed_by_a_rule_keeps_the_rule_last(tmp_path, write_file):
    write_file(tmp_path, "r.md", "---\ntitle: R\n---\n# R\n\n## One\n\nold text\n\n---\n\n## Two\n\nkeep\n")
    bank = Bank.open(tmp_path)
    update_section(bank, path="r.md", section="One", content="appended", mode="append")
    assert "## One\n\nold text\n\nappended\n\n---\n\n## Two\n" in (tmp_path / "r.md").read_text()
    write_file(tmp_path, "s.md", "---\ntitle: S\n---\n# S\n\n## One\n\nA heading, not a rule\n---\n")
    bank = Bank.open(tmp_path)
    update_section(bank, path="s.md", section="One", content="appended", mode="append")
    # a line of text over "---" is a heading of its own: the appended text stays in "One", above it
    assert (tmp_path / "s.md").read_text().endswith("## One\n\nappended\n\nA heading, not a rule\n---\n")


def test_items_appended_to_a_section_ending_in_a_list_of_their_kind_join_the_list(seeded):
    """A blank line before an appended "- BR-06" split the rules' list in two."""
    update_section(seeded, path=CONTEXT, section="Problem", content="Rules:\n\n- BR-01 one\n  continued\n- BR-02 two")
    update_section(seeded, path=CONTEXT, section="Problem", content="- BR-03 three", mode="append")
    text = (seeded.root / CONTEXT).read_text(encoding="utf-8")
    assert "- BR-02 two\n- BR-03 three\n" in text
    update_section(seeded, path=CONTEXT, section="Problem", content="1. first step", mode="append")
    assert "- BR-03 three\n\n1. first step\n" in (seeded.root / CONTEXT).read_text(encoding="utf-8")
    update_section(seeded, path=CONTEXT, section="Problem", content="2. second step", mode="append")
    assert "1. first step\n2. second step\n" in (seeded.root / CONTEXT).read_text(encoding="utf-8")
    update_section(seeded, path=CONTEXT, section="Problem", content="A paragraph.", mode="append")
    assert "2. second step\n\nA paragraph.\n" in (seeded.root / CONTEXT).read_text(encoding="utf-8")
    update_section(seeded, path=CONTEXT, section="Problem", content="| a | b |\n|---|---|\n| 1 | 2 |", mode="append")
    update_section(
        seeded, path=CONTEXT, section="Problem", content="| X | Y |\n| --- | --- |\n| 5 | 6 |", mode="append"
    )
    assert "| 1 | 2 |\n\n| X | Y |\n| --- | --- |\n| 5 | 6 |\n" in (seeded.root / CONTEXT).read_text(encoding="utf-8")


def test_a_write_answers_the_new_version_so_the_next_one_can_chain_on_it(seeded):
    from memorybank.core.read import read_document

    first = read_document(seeded, CONTEXT).version
    done = edit(seeded, path=CONTEXT, find="Describe the problem", replace="State the problem", if_version=first)
    assert done.version == read_document(seeded, CONTEXT).version != first
    updated = update_section(seeded, path=CONTEXT, section="Problem", content="Shorter.", if_version=done.version)
    assert updated.version == read_document(seeded, CONTEXT).version
    dry = edit(seeded, path=CONTEXT, find="Shorter.", replace="Short.", if_version=updated.version, dry_run=True)
    assert dry.version == updated.version == read_document(seeded, CONTEXT).version  # nothing was written
    edit(seeded, path=CONTEXT, find="Shorter.", replace="Short.", if_version=dry.version)  # the write previewed
    dry = update_section(seeded, path=CONTEXT, section="Problem", content="x", dry_run=True)
    assert dry.version == read_document(seeded, CONTEXT).version


def test_rows_appended_to_a_section_ending_in_a_table_join_the_table(seeded):
    update_section(seeded, path="product/context.md", section="Problem", content="| a | b |\n|---|---|\n| 1 | 2 |")
    update_section(seeded, path="product/context.md", section="Problem", content="| 3 | 4 |", mode="append")
    text = (seeded.root / "product/context.md").read_text(encoding="utf-8")
    assert "| 1 | 2 |\n| 3 | 4 |" in text


@pytest.mark.parametrize(
    "secret",
    [
        'раssword = "Xk9mP2vL8qR4tZw7Qa"',  # Cyrillic р and а
        "pass<!-- -->word: Xk9mP2vL8qR4tZw7Qa",
        "```yaml\ndb:\n  password: >-\n    Xk9mP2vL8qR4tZw7Qa\n```",
        "| Var | Value |\n|---|---|\n| DB_PASSWORD | Xk9mP2vL8qR4tZw7Qa |",
    ],
)
def test_a_secret_written_around_the_patterns_is_still_a_secret(secret):
    from memorybank.core.write.firewall import refuse_credentials

    with pytest.raises(Refusal) as refused:
        refuse_credentials(secret, "x.md")
    assert refused.value.reason == "credential"


@pytest.mark.parametrize(
    "example",
    [
        '{"next_page_token": "MjAyNi0wMy0wMVQxMDowMDowMC4xMjM0NTZafDAxOTVmYTNh"}',
        "curl 'http://localhost:8000/v1/sources?page_size=2&page_token=eyJpZCI6MTB9'",
    ],
)
def test_a_pagination_token_is_not_a_credential(example):
    from memorybank.core.write.firewall import refuse_credentials

    refuse_credentials(example, "x.md")


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("Аналогично.", True),
        ("Содержимое раздела не менялось.", True),
        ("- Rule one.\n- Rest\u200b of the rules unchanged.", False),
        ("```sql\nCREATE TABLE posts (\n    -- остальные колонки как раньше\n```", False),
    ],
)
def test_placeholders_in_more_words_are_refused(text, whole):
    from memorybank.core.write.firewall import refuse_omissions

    with pytest.raises(Refusal):
        refuse_omissions(text, "x.md", whole=whole)


def test_an_elision_in_an_indented_code_block_is_code():
    from memorybank.core.write.firewall import refuse_omissions

    refuse_omissions("Output:\n\n    $ go test ./...\n    [...]\n    PASS\n", "x.md")
