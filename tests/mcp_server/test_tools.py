"""Every tool through a real MCP client: one success and at least one refusal each, with the core's
words reaching the model, parameters as the reference names them, and lists sent as JSON strings."""

from __future__ import annotations

import json

import pytest

from tests.conftest import tree_snapshot

pytestmark = pytest.mark.anyio


# -- finding ------------------------------------------------------------------------------------


async def test_route_answers_with_why_and_the_section_to_read(open_session, reference_root):
    async with open_session(reference_root) as s:
        answer = await s.call("bank_route", question="why one shared queue instead of per-tenant", limit=3)
        top = answer["hits"][0]
        assert top["path"] == "adr/ADR-001-queue-choice.md" and top["layer"] == "decision"
        assert "queue" in top["why"] and answer["why_intent"] is True
        assert "breakdown" not in top  # the explain view stays in the workbench
        filtered = await s.call("bank_route", question="queue", layer="knowledge", docKind="adr")
        assert filtered["hits"] == [] and "bank_search" in filtered["hint"]


async def test_route_refuses_what_the_reference_refuses(open_session, reference_root):
    async with open_session(reference_root) as s:
        assert "at least 2 characters" in await s.refusal("bank_route", question="q")
        assert "less than or equal to 25" in await s.refusal("bank_route", question="queue", limit=26)
        assert "layer" in await s.refusal("bank_route", question="queue", layer="inbox")
        refused = await s.refusal("bank_route", question="queue", docKind="bogus")
        assert 'doc_kind "bogus"' in refused and "Values it knows" in refused  # not an empty answer


async def test_read_a_section_a_line_range_and_a_batch(open_session, reference_root, write_file):
    write_file(reference_root, "domain/long.md", "---\ntitle: Long\n---\n# Long\n\n## Part\n\n" + "words " * 300)
    async with open_session(reference_root) as s:
        one = await s.call("bank_read", path="adr/ADR-001-queue-choice.md", section="decision")
        doc = one["documents"][0]
        assert doc["section"] == "Decision" and doc["content"].startswith("## Decision")
        assert doc["frontmatter"]["doc_kind"] == "adr"
        ranged = (await s.call("bank_read", path="memory_bank/adr/ADR-001-queue-choice.md", lines="1-3"))["documents"][
            0
        ]
        assert ranged["lines"] == [1, 3] and ranged["content"].split("\n")[0] == "---"
        batch = await s.call(
            "bank_read", path=json.dumps(["domain/rules.md", {"path": "adr/README.md", "lines": "2"}, "gone.md"])
        )
        assert [d["path"] for d in batch["documents"]] == ["domain/rules.md", "adr/README.md"]
        assert batch["failed"][0]["path"] == "gone.md"
        budget = await s.call("bank_read", path=["domain/rules.md", "domain/long.md"], maxBytes=1000)
        assert budget["budget_bytes"] == 1000 and budget["skipped"][0]["path"] == "domain/long.md"
        assert budget["skipped"][0]["available_sections"] == ["Part"]


async def test_read_refuses_escapes_missing_sections_and_misplaced_ranges(open_session, reference_root):
    async with open_session(reference_root) as s:
        assert "../../etc/passwd (`..` is not accepted" in await s.refusal("bank_read", path="../../etc/passwd")
        missing = await s.refusal("bank_read", path="adr/ADR-001-queue-choice.md", section="Nope")
        assert 'Section "Nope" not found' in missing and "Available: " in missing and "Decision" in missing
        assert "one path" in await s.refusal("bank_read", path=["adr/README.md"], lines="1-2")
        assert "greater than or equal to 1000" in await s.refusal("bank_read", path="adr/README.md", maxBytes=10)
        assert "starts past the end" in await s.refusal("bank_read", path="adr/README.md", lines="900-950")
        open_ended = await s.refusal("bank_read", path="adr/README.md", lines="900-")  # not "ends before it starts"
        assert "starts past the end: the file has" in open_ended


async def test_search_finds_the_line_of_a_literal(open_session, reference_root):
    async with open_session(reference_root) as s:
        hits = (await s.call("bank_search", query="per-tenant queues", limit=2))["hits"]
        assert (
            hits[0]["path"] == "adr/ADR-001-queue-choice.md" and hits[0]["line"] > 0 and "queue" in hits[0]["excerpt"]
        )
        assert "less than or equal to 50" in await s.refusal("bank_search", query="queue", limit=51)
        assert "at least 2 characters" in await s.refusal("bank_search", query="q")


# -- checking -----------------------------------------------------------------------------------


async def test_validate_counts_and_filters(open_session, reference_root):
    async with open_session(reference_root) as s:
        report = await s.call("bank_validate")
        assert report["errors"] >= 3 and report["by_rule"]["ssot-conflict"] == 1
        only = await s.call("bank_validate", rule="broken-derived-from", severity="error")
        assert only["total"] == 1 and only["findings"][0]["rule"] == "broken-derived-from"
        scoped = await s.call("bank_validate", scope="adr")
        assert all(f["path"].startswith("adr/") or f["rule"] == "no-contract" for f in scoped["findings"])
        assert "rule" in await s.refusal("bank_validate", rule="no-such-rule")
        assert "inside the bank" in await s.refusal("bank_validate", scope="../elsewhere")


async def test_validate_pages_its_findings_and_keeps_every_count(open_session, reference_root):
    async with open_session(reference_root) as s:
        whole = await s.call("bank_validate", limit=500)
        assert whole["next_offset"] is None and len(whole["findings"]) == whole["total"] > 3
        first = await s.call("bank_validate", limit=2)
        assert len(first["findings"]) == 2 and first["next_offset"] == 2 and first["by_rule"] == whole["by_rule"]
        rest = await s.call("bank_validate", limit=500, offset=first["next_offset"])
        assert first["findings"] + rest["findings"] == whole["findings"]
        assert "greater than or equal to 1" in await s.refusal("bank_validate", limit=0)


async def test_graph_walks_down_from_governance(open_session, reference_root):
    async with open_session(reference_root) as s:
        graph = await s.call("bank_graph", path="dna/governance.md", depth=1, neighbours=False)
        assert graph["root"] == "dna/governance.md" and graph["direction"] == "down"
        assert any(n["path"] == "README.md" for n in graph["nodes"])
        assert "Not a document of this bank" in await s.refusal("bank_graph", path="nowhere.md")
        assert "less than or equal to 6" in await s.refusal("bank_graph", path="dna/governance.md", depth=7)


async def test_drift_says_when_nothing_is_anchored(open_session, reference_root):
    async with open_session(reference_root) as s:
        drift = await s.call("bank_drift", thresholdDays=0)
        assert drift["mode"] == "none" and drift["anchored"] == 0 and "anchors:" in drift["note"]
        assert "less than or equal to 3650" in await s.refusal("bank_drift", thresholdDays=4000)


async def test_changed_by_date_and_a_ref_outside_git(open_session, reference_root):
    async with open_session(reference_root) as s:
        changes = await s.call("bank_changed", since="2000-01-01")
        assert changes["mode"] == "mtime" and changes["changes"]
        assert "not inside a git repository" in await s.refusal("bank_changed", since="main~3x")
        assert "at least 1 character" in await s.refusal("bank_changed", since="")
        span = await s.call("bank_changed", since="7d")
        assert span["mode"] == "mtime" and span["since"] == "7d"


# -- seeding ------------------------------------------------------------------------------------


async def test_init_dry_run_lists_the_seed_and_refuses_an_existing_bank(open_session, tmp_path, seeded_root):
    async with open_session(tmp_path / "fresh" / "memory_bank") as s:
        plan = await s.call("bank_init", name="demo", dryRun=True)
        assert plan["dry_run"] and len(plan["files"]) == 24 and not (tmp_path / "fresh").exists()
        assert "name" in await s.refusal("bank_init", name="")
    async with open_session(seeded_root) as s:
        assert "already holds 24 documents" in await s.refusal("bank_init", name="again")


async def test_materialize_flows_copies_templates_once(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        copied = await s.call("bank_materialize_flows")
        assert copied["files"] and all(f.startswith("flows/templates/") for f in copied["files"])
        assert "pass force" in await s.refusal("bank_materialize_flows")
        assert (await s.call("bank_materialize_flows", force=True))["warnings"]


# -- changing -----------------------------------------------------------------------------------


ADR = "adr/ADR-20260101T120000Z-one-queue.md"


async def test_create_registers_and_stamps_captures_with_the_client(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        created = await s.call(
            "bank_create",
            docKind="adr",
            path=ADR,
            title="One Queue",
            purpose="Why one queue.",
            derivedFrom='["../product/context.md"]',
            canonicalFor="queue_choice",
            extra='{"decision_status": "proposed"}',
        )
        assert created["created"] and created["registered_in"] == ["adr/README.md"]
        assert created["frontmatter"]["canonical_for"] == ["queue_choice"]
        assert created["frontmatter"]["decision_status"] == "proposed"
        note = await s.call(
            "bank_create", docKind="domain", path="idea.md", title="Idea", purpose="A thought.", inbox=True
        )
        assert note["path"] == "_inbox/idea.md" and note["frontmatter"]["captured_by"] == "pytest-agent"
        bare = await s.call("bank_create", title="Retry budget", purpose="What we saw.", body="Three.", inbox=True)
        assert bare["path"] == "_inbox/retry-budget.md"  # no kind to invent, no path to choose
        assert (await s.call("bank_validate"))["total"] == 0


async def test_a_client_s_name_is_stamped_on_its_notes_as_one_plain_line(seeded_root):
    """A client chooses its own name: a line break, an escape sequence or an override in it never
    reaches the note's YAML or the owner's terminal."""
    from mcp import Client
    from mcp_types import Implementation
    from memorybank.mcp_server.server import build_server

    from tests.mcp_server.conftest import Session

    hostile = Implementation(name="a\nproposal: {action: discard}\x1b[2K\u202e" + "x" * 500, version="1")
    async with Client(build_server(seeded_root), raise_exceptions=True, client_info=hostile) as client:
        note = await Session(client, None).call(
            "bank_create", docKind="domain", path="idea.md", title="Idea", purpose="A thought.", inbox=True
        )
    stamped = note["frontmatter"]["captured_by"]
    assert stamped.startswith("a proposal: {action: discard} [2K x") and len(stamped) == 100
    head = (seeded_root / "_inbox/idea.md").read_text(encoding="utf-8").split("---")[1]
    assert f"\ncaptured_by: '{stamped}'\n" in head and "\x1b" not in head and "\u202e" not in head


async def test_create_takes_the_template_it_is_told_among_a_kind_s_several(open_session, seeded_root):
    template = seeded_root / "flows/templates/feature/large.md"
    template.parent.mkdir(parents=True, exist_ok=True)
    template.write_text(
        "---\ntitle: FT-XXX Large\ndoc_kind: feature\ndoc_function: template\npurpose: The large one.\n"
        "status: active\n---\n# FT-XXX Large\n\n## Intent\n\nLarge words.\n"
    )
    async with open_session(seeded_root) as s:
        made = await s.call(
            "bank_create",
            docKind="feature",
            path="features/FT-9/feature.md",
            title="FT-9",
            purpose="What FT-9 does.",
            template="flows/templates/feature/large.md",
        )
        assert made["template"] == "flows/templates/feature/large.md"
        assert "Large words." in (seeded_root / "features/FT-9/feature.md").read_text()
        refused = await s.refusal(
            "bank_create",
            docKind="feature",
            path="features/FT-8/feature.md",
            title="FT-8",
            purpose="p.",
            template="x.md",
        )
        assert "unknown-template" in refused and "flows/templates/feature/large.md" in refused


async def test_create_refusals_name_their_reason_and_write_nothing(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        before = tree_snapshot(seeded_root)
        taken = await s.refusal("bank_create", docKind="product", path="product/context.md", title="T", purpose="P")
        assert "Refused (" in taken and "overwrite" in taken
        owned = await s.refusal(
            "bank_create",
            docKind="adr",
            path=ADR,
            title="T",
            purpose="P",
            derivedFrom=["../product/context.md"],
            canonicalFor=["product_constraints"],
        )
        assert "already owned by product/context.md" in owned
        assert "purpose" in await s.refusal("bank_create", docKind="adr", path=ADR, title="T", purpose="")
        assert tree_snapshot(seeded_root) == before


async def test_edit_replaces_one_exact_fragment(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        edited = await s.call(
            "bank_edit",
            path="product/context.md",
            find="The first document to fill in",
            replace="The first page to fill in",
            dryRun=True,
        )
        assert edited["dry_run"] and "first page" in edited["context"]
        assert (
            await s.call(
                "bank_edit",
                path="product/context.md",
                find="The first document to fill in",
                replace="The first page to fill in",
            )
        )["edited"]
        assert "Not found" in await s.refusal("bank_edit", path="product/context.md", find="no such words", replace="x")


async def test_update_section_writes_one_section_and_lists_the_real_ones(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        updated = await s.call(
            "bank_update_section",
            path="product/context.md",
            section="Problem",
            content="Parsing ebooks by hand is slow.",
        )
        assert updated["updated"] and updated["section"] == "Problem"
        assert "Parsing ebooks by hand" in (seeded_root / "product/context.md").read_text()
        appended = await s.call(
            "bank_update_section",
            path="product/context.md",
            section="Problem",
            content="It costs a day per book.",
            mode="append",
        )
        assert appended["mode"] == "append"
        refused = await s.refusal("bank_update_section", path="product/context.md", section="Pricing", content="x")
        assert "Available: " in refused and "Non-Goals" in refused


async def test_set_status_gates_archiving_an_owner(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        refused = await s.refusal("bank_set_status", path="product/context.md", status="archived")
        assert "still owns" in refused and "releaseCanonical" in refused
        done = await s.call("bank_set_status", path="product/context.md", status="archived", releaseCanonical=True)
        assert done["status"] == "archived" and done["released"] == ["product_problem_statement", "product_constraints"]
        assert "canonical_for" not in (seeded_root / "product/context.md").read_text().split("---")[1]


async def test_set_field_sets_a_scalar_and_refuses_governed_fields(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        done = await s.call(
            "bank_set_field",
            path="engineering/testing-policy.md",
            field="purpose",
            value="How we test: what must be covered: and what is checked by hand.",
        )
        assert done["changed"] and done["line"].startswith("purpose: ")
        assert "bank_set_status" in await s.refusal(
            "bank_set_field", path="product/context.md", field="status", value="active"
        )
        assert "list" in await s.refusal("bank_set_field", path="product/context.md", field="derived_from", value="x")
        upstream = ["../dna/governance.md", "../product/context.md"]
        listed = await s.call(
            "bank_set_field", path="engineering/testing-policy.md", field="derived_from", value=upstream
        )
        assert listed["changed"] and listed["value"] == "[../dna/governance.md, ../product/context.md]"
        assert "  - ../product/context.md\n" in (seeded_root / "engineering/testing-policy.md").read_text()
        cycle = await s.refusal(
            "bank_set_field",
            path="product/context.md",
            field="derived_from",
            value=["../engineering/testing-policy.md"],
        )
        assert "would close a cycle" in cycle


# -- the inbox ----------------------------------------------------------------------------------


async def capture(s, name: str = "queue-note.md") -> str:
    created = await s.call(
        "bank_create",
        docKind="domain",
        path=name,
        title="Queue Note",
        inbox=True,
        purpose="What we learned about the queue.",
        body="Bursts arrive at night.",
        derivedFrom=["../product/context.md"],
    )
    return created["path"]


async def test_owner_mode_promote_records_a_proposal_after_a_full_dry_run(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        note = await capture(s)
        proposal = await s.call("bank_promote", path=note, to="domain/queue.md")
        assert proposal["recorded"] and proposal["action"] == "promote"
        assert proposal["proposal"]["to"] == "domain/queue.md" and proposal["proposal"]["proposed_by"] == "pytest-agent"
        assert proposal["preview"]["registered_in"] == ["domain/README.md"] and proposal["preview"]["dry_run"]
        assert (seeded_root / note).exists() and not (seeded_root / "domain/queue.md").exists()
        refused = await s.refusal("bank_promote", path="product/context.md", to="domain/x.md")
        assert "Only quarantined documents can be promoted" in refused
        assert "must leave the quarantine" in await s.refusal("bank_promote", path=note, to="_inbox/elsewhere.md")
        dry = await s.call("bank_promote", path=note, to="domain/q2.md", dryRun=True)
        assert not dry["recorded"]
        before = (seeded_root / note).read_bytes()
        second = await s.refusal("bank_discard", path=note, reason="changed my mind")
        assert "already carries a promote proposal" in second and "(proposal-pending)" in second
        assert (seeded_root / note).read_bytes() == before


async def test_owner_mode_fold_records_a_proposal_the_owner_applies_in_one_write(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        note = await capture(s)
        proposal = await s.call("bank_fold", path=note, into="product/context.md", section="Problem", mode="append")
        assert proposal["recorded"] and proposal["proposal"]["into"] == "product/context.md"
        assert proposal["preview"]["update"]["section"] == "Problem" and proposal["preview"]["dry_run"]
        assert (seeded_root / note).exists()
        assert 'Section "Nope" not found' in await s.refusal(
            "bank_fold", path=note, into="product/context.md", section="Nope"
        )
    from memorybank.core.bank import Bank
    from memorybank.core.write.proposals import apply_proposal

    result = apply_proposal(Bank.open(seeded_root), path=note)
    assert result.folded and not (seeded_root / note).exists()
    assert "Bursts arrive at night." in (seeded_root / "product/context.md").read_text()
    assert result.discard.reason == "folded into product/context.md#Problem"


async def test_owner_mode_discard_records_a_proposal(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        note = await capture(s)
        proposal = await s.call("bank_discard", path=note, reason="folded into product/context.md")
        assert proposal["recorded"] and proposal["proposal"]["reason"] == "folded into product/context.md"
        assert (seeded_root / note).exists()
        assert "at least 1 character" in await s.refusal("bank_discard", path=note, reason="")
        assert "Only quarantined documents can be discarded" in await s.refusal(
            "bank_discard", path="product/context.md", reason="x"
        )


async def test_agent_mode_exits_act_directly(open_session, seeded_root):
    async with open_session(seeded_root, inbox_exits="agent") as s:
        note = await capture(s)
        promoted = await s.call("bank_promote", path=note, to="domain/queue.md")
        assert promoted["promoted"] and not (seeded_root / note).exists()
        assert (seeded_root / "domain/queue.md").exists()
        second = await capture(s, "other.md")
        assert (await s.call("bank_discard", path=second, reason="duplicate"))["discarded"]
        assert not (seeded_root / second).exists()
        assert "was promoted to domain/queue.md" in await s.refusal("bank_discard", path=note, reason="x")


async def test_a_file_system_failure_reaches_the_model_with_its_reason(open_session, tmp_path):
    root = tmp_path / "memory_bank"
    root.write_text("not a directory")
    async with open_session(root) as s:
        refused = await s.refusal("bank_init", name="demo")
        assert "Not a directory" in refused and "nothing was written" in refused


async def test_every_call_reaches_the_activity_hook_and_a_failing_hook_breaks_nothing(open_session, seeded_root):
    calls = []
    async with open_session(seeded_root, activity=calls.append) as s:
        await s.call("bank_route", question="what problem does the product solve " + "very " * 20)
        await s.refusal("bank_set_field", path="product/context.md", field="status", value="active")
    ok, refused = calls
    assert (ok.client, ok.tool, ok.ok, ok.outcome) == ("pytest-agent", "bank_route", True, "ok")
    assert ok.arguments.startswith("question=what problem") and ok.arguments.endswith("…") and len(ok.arguments) < 60
    assert not refused.ok and refused.outcome.startswith("Refused (governed-field): status is where the gates are")
    assert ok.time.tzinfo is not None and ok.time <= refused.time

    def broken(_call):
        raise RuntimeError("the pane went away")

    async with open_session(seeded_root, activity=broken) as s:
        assert (await s.call("bank_route", question="testing"))["hits"]
