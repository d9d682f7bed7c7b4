"""What a write may carry: one-line scalars, bounded text, linkable visible paths, sections that
stay sections. Each attack here was once accepted and left the bank with an extra key, a split
index line, a NUL in a file, a registration that resolves nowhere, or a section nobody wrote."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from memorybank.core.errors import BankError, Refusal
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.edit import update_section
from memorybank.core.write.fields import set_field, set_status
from memorybank.core.write.fold import foldable_body
from memorybank.core.write.values import NAME_LIMIT, stamped_name

from tests.conftest import tree_snapshot

CONTEXT = "product/context.md"


def new_doc(bank, **overrides):
    arguments = dict(
        doc_kind="domain",
        path="domain/queue.md",
        title="Queue",
        purpose="Bursts.",
        derived_from=["../product/context.md"],
    )
    arguments.update(overrides)
    return create(bank, **arguments)


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        (dict(title="Queue\nstatus: active"), "control-character"),
        (dict(purpose="Bursts.\x00"), "control-character"),
        (dict(status="draft\ncanonical_for:\n  - stolen_key"), "control-character"),
        (dict(canonical_for=["a\nb"]), "control-character"),
        (dict(extra={"owner": "ops\ncanonical_for: [x]"}), "control-character"),
        (dict(title="T" * 5000), "too-large"),
        (dict(path="domain/.hidden.md"), "hidden-path"),
        (dict(path=".git/hooks/x.md"), "hidden-path"),
        (dict(path="domain/.md"), "hidden-path"),
        (dict(path="domain/sp ace.md"), "bad-name"),
        (dict(path="domain/a:b.md"), "bad-name"),
        (dict(path="domain/a#b.md"), "bad-name"),
    ],
)
def test_a_create_carrying_more_than_one_line_or_an_unlinkable_name_is_refused(seeded, overrides, reason):
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal) as refused:
        new_doc(seeded, **overrides)
    assert refused.value.reason == reason, refused.value.message
    assert tree_snapshot(seeded.root) == before


def test_a_status_or_a_field_cannot_smuggle_a_second_key(seeded):
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match="line break"):
        set_status(seeded, path=CONTEXT, status="active\ncanonical_for:\n  - key")
    with pytest.raises(Refusal):
        set_field(seeded, path=CONTEXT, field="title", value="A\x00B")
    assert tree_snapshot(seeded.root) == before


def test_a_status_with_yaml_indicators_is_written_so_that_it_reads_back(seeded):
    set_status(seeded, path=CONTEXT, status="on hold: waiting")
    assert seeded.document(CONTEXT).status == "on hold: waiting"
    assert "invalid-frontmatter" not in validate(seeded).by_rule


def test_section_content_cannot_add_a_section(seeded):
    before = tree_snapshot(seeded.root)
    for content in ("Text.\n\n## Injected\n\nMore.", "# Top\n\nx", "Fine.\n##\n", "ok\r## Injected\rbody\n"):
        with pytest.raises(Refusal) as refused:
            update_section(seeded, path=CONTEXT, section="Problem", content=content)
        assert refused.value.reason == "heading-in-content"
    assert tree_snapshot(seeded.root) == before
    update_section(
        seeded, path=CONTEXT, section="Problem", content="Text.\n\n### A sub-heading\n\n```\n## in a fence\n```"
    )
    assert [s.title for s in seeded.document(CONTEXT).sections].count("Problem") == 1


def test_a_note_folds_with_its_own_headings_moved_below_the_section():
    assert foldable_body("# Note\n\n## Finding\n\nx\n\n```\n## kept\n```\n# Other") == (
        "### Finding\n\nx\n\n```\n## kept\n```\n### Other"
    )


def asked_for(finding, content: str) -> bool:
    """A link the section's content itself spells (``[0]: 0`` is a link definition) may point
    nowhere: that is the author's text, warned about, not damage the write did."""
    target = finding.message.rpartition(": ")[2]
    return finding.rule == "broken-link" and finding.path == CONTEXT and "[" in content and target in content


PIECES = st.sampled_from(
    ["\n", "\r", "\x00", "\t", ":", ": ", "#", "- ", "'", '"', "&a", "*a", "|", ">", "---", "## ", "[x]"]
)
printable_or_not = st.lists(
    st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6), PIECES),
    min_size=1,
    max_size=8,
).map("".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    title=printable_or_not,
    purpose=printable_or_not,
    status=printable_or_not,
    value=printable_or_not,
    content=printable_or_not,
)
@example(title="0", purpose="0", status="0", value="0", content="[0]:0")
def test_no_accepted_write_leaves_a_finding_or_an_extra_key(seeded, title, purpose, status, value, content):
    """Strings with control characters, quotes, YAML indicators and headings, in every scalar and
    content parameter: whatever is accepted reads back as exactly the keys that were meant."""
    keys = set(seeded.document(CONTEXT).frontmatter)
    target = f"domain/prop-{len(seeded)}.md"
    for attempt in (
        lambda: new_doc(seeded, path=target, title=title, purpose=purpose, status="draft"),
        lambda: set_field(seeded, path=CONTEXT, field="owner", value=value),
        lambda: set_status(seeded, path=CONTEXT, status=status if status.strip() else "draft"),
        lambda: update_section(seeded, path=CONTEXT, section="Problem", content=content),
    ):
        with contextlib.suppress(BankError):
            attempt()
    seeded.refresh()
    assert set(seeded.document(CONTEXT).frontmatter) <= keys | {"owner"}
    findings = [
        f for f in validate(seeded).findings if f.rule not in ("unknown-enum-value",) and not asked_for(f, content)
    ]
    assert findings == [], [(f.rule, f.path, f.message) for f in findings]
    if target in seeded:
        doc = seeded.document(target)
        assert doc.title == title.strip() and set(doc.frontmatter) == {
            "title",
            "doc_kind",
            "doc_function",
            "purpose",
            "derived_from",
            "status",
        } | (set(doc.frontmatter) - {"title", "doc_kind", "doc_function", "purpose", "derived_from", "status"})


def test_titles_with_brackets_backslashes_or_backticks_stay_registered(seeded):
    """Found by the property test above: a title holding ``]`` or a lone backtick wrote an index
    entry whose link did not parse, and the document fell out of navigation."""
    for number, title in enumerate(["[x]", "a]b", "c|d", "e\\", "`f", "h)("]):
        new_doc(seeded, path=f"domain/odd-{number}.md", title=title, purpose=f"p {title}")
    set_field(seeded, path="domain/odd-1.md", field="title", value="new ] t")
    set_field(seeded, path="domain/odd-4.md", field="purpose", value="q `")
    assert validate(seeded).findings == []
    index = (seeded.root / "domain/README.md").read_text()
    assert "[new \\] t](odd-1.md)" in index and "— q \\`" in index


@pytest.mark.parametrize(
    ("given", "stamped"),
    [
        ("claude-code", "claude-code"),
        ("a\nproposal: {action: discard}", "a proposal: {action: discard}"),
        ("owner\x1b[2K\x1b[1Gx", "owner [2K [1Gx"),
        ("\u202eevil", "evil"),
        ("x" * 100_000, "x" * NAME_LIMIT),
        ("\x00\n ", None),
        (None, None),
    ],
)
def test_a_client_s_name_is_stamped_as_one_plain_bounded_line(given, stamped):
    assert stamped_name(given) == stamped
