"""The five prompts (slash commands in most clients): each is one user message that walks the agent
through a job with the bank's tools, reading as little as it can."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer


def register(server: BankServer) -> None:
    owner = server.inbox_exits == "owner"

    @server.prompt(
        name="session-start",
        description="Catch up on the project from the bank: state, work in flight, recent decisions, open questions.",
    )
    def session_start(
        since: Annotated[str, Field(description="Git ref or ISO date (default HEAD~20)")] = "HEAD~20",
    ) -> str:
        return (
            f"Catch me up on this project from its memory bank. Read memorybank://index, then call bank_changed with "
            f'since="{since}". Read only what is still unclear, with bank_read batches and sections; never cat the '
            "bank's files. Then report, in this order: what the project is (two sentences); what is in flight, naming "
            "the delivery documents; the most recent decisions; what is open (recorded questions, drafts never "
            "activated, documents the index promises that do not exist). End by saying what you did not read."
        )

    @server.prompt(
        name="route-then-read",
        description="Answer a question from the bank: route first, then read only the best sections.",
    )
    def route_then_read(question: Annotated[str, Field(description="The question, as asked")]) -> str:
        return (
            f"Question: {question}\n\nCall bank_route with this question exactly as written (any language). Read only "
            "the top results, by the section each one names, with bank_read. Do not open README.md or section indexes "
            "to look for paths. If routing finds nothing useful, say so and suggest bank_search for a literal term "
            "rather than reading broadly."
        )

    @server.prompt(
        name="check-before-commit", description="Validate the bank and list the smallest fix for each finding."
    )
    def check_before_commit(scope: Annotated[str | None, Field(description="A bank subdirectory")] = None) -> str:
        where = f' with scope="{scope}"' if scope else ""
        return (
            f"Run bank_validate{where}. Group the findings by rule, errors first. For each, name the rule, the "
            "document that owns the problem and the smallest fix; collapse findings of the same shape into one line "
            "with a count. Fix nothing unless I ask."
        )

    @server.prompt(
        name="record-adr", description="Record a decision as a draft ADR, after checking who already owns the topic."
    )
    def record_adr(decision: Annotated[str, Field(description="The decision, in a sentence")]) -> str:
        return (
            f"Record this decision as an ADR: {decision}\n\nFirst read memorybank://schema/frontmatter and bank_route "
            "the topic, to find what it derives from and whether a document already owns it. Then call bank_create "
            "with docKind adr, a path in adr/ named as adr/'s index and the ADRs there are (numbered, say, where "
            "they are; adr/ADR-<UTC YYYYMMDDTHHMMSSZ>-<short-name>.md where the bank sets no rule), status draft and extra "
            "{decision_status: proposed} (a person accepts it), derivedFrom the documents it rests on, and a body "
            "with: context, decision drivers, the options considered (a table with real alternatives and why each "
            "lost), the decision, consequences. Run it with dryRun first and show me the result."
        )

    exits = (
        "bank_promote, bank_fold and bank_discard only record a proposal on the note; I apply or reject it in the memorybank "
        "workbench or with `memorybank inbox apply|reject`."
        if owner
        else "bank_promote, bank_fold and bank_discard act at once: call them only after I say which."
    )

    @server.prompt(
        name="review-inbox",
        description="Go through _inbox/ notes: promote, fold into the owning document, or discard each.",
    )
    def review_inbox() -> str:
        return (
            "Review the notes in _inbox/. Read memorybank://inbox. For each note: summarise its claim in a line, "
            "bank_route its topic to find the document that already owns it, and recommend one of: promote "
            "(bank_promote to a destination), fold into the owner's section (bank_fold), or discard (bank_discard "
            "with a reason). Prefer folding when an owner "
            f"exists. Give the exact call and run it with dryRun first. {exits} Act only on my word."
        )
