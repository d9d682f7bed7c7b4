"""The agent boundary, tried as a hostile or clumsy agent would, through a real MCP client.

Each attack is refused with a short sentence (no validation dump, no traceback), the bank's bytes
do not move, nothing outside the project comes back, and the bank still validates clean. The
server runs in the default owner-gated mode. One test repeats a handful of them over stdio against
the installed command; ``test_transports.py`` covers ``--http``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.validate import validate

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import NOTE, OPENING, connect

pytestmark = pytest.mark.anyio

CONTEXT = "product/context.md"


def assert_short_and_plain(message: str) -> None:
    lowered = message.lower()
    assert "pydantic" not in lowered and "traceback" not in lowered and "arguments]" not in message
    assert len(message) < 600, message


async def refused(s, tool: str, **arguments) -> str:
    message = await s.refusal(tool, **arguments)
    assert_short_and_plain(message)
    return message


async def seeded_session(root: Path):
    from memorybank.mcp_server.server import build_server

    return connect(build_server(root))


def outside_files(tmp_path: Path) -> list[str]:
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    return ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/etc/does-not-exist", str(fifo)]


ATTACKS = {
    # 2: frontmatter injection
    "status-newline": ("bank_set_status", dict(path=CONTEXT, status="active\ncanonical_for:\n  - key")),
    "title-newline": (
        "bank_create",
        dict(docKind="domain", path="domain/x.md", title="A\nB", purpose="p", derivedFrom=["../product/context.md"]),
    ),
    "field-nul": ("bank_set_field", dict(path=CONTEXT, field="title", value="A\x00B")),
    # 3: re-initialising a live bank
    "init-force": ("bank_init", dict(name="again", force=True)),
    "init": ("bank_init", dict(name="again")),
    # 4: unknown arguments
    "materialize-dry-run": ("bank_materialize_flows", dict(dryRun=True)),
    "create-bogus": ("bank_create", dict(docKind="domain", path="domain/y.md", title="Y", purpose="p", bogus=1)),
    # 5: paths that land but break the bank
    "hidden": ("bank_create", dict(docKind="domain", path="domain/.hidden.md", title="H", purpose="p")),
    "git-hook": ("bank_create", dict(docKind="domain", path=".git/hooks/x.md", title="H", purpose="p")),
    "bare-md": ("bank_create", dict(docKind="domain", path=".md", title="H", purpose="p")),
    "space": ("bank_create", dict(docKind="domain", path="domain/sp ace.md", title="H", purpose="p")),
    "colon": ("bank_create", dict(docKind="domain", path="domain/a:b.md", title="H", purpose="p")),
    # 6: a section smuggled into a section
    "smuggled-section": ("bank_update_section", dict(path=CONTEXT, section="Problem", content="x\n\n## Injected\n")),
    # 7: unbounded input
    "megabyte-question": ("bank_route", dict(question="why " * 250_000)),
    "megabyte-query": ("bank_search", dict(query="x" * 1_000_000)),
    "huge-body": (
        "bank_create",
        dict(
            docKind="domain",
            path="domain/big.md",
            title="B",
            purpose="p",
            body="x" * 1_000_001,
            derivedFrom=["../product/context.md"],
        ),
    ),
    # 8: the quarantine forged
    "note-edit": ("bank_edit", dict(path=NOTE, find="Bursts", replace="Spikes")),
    "note-section": ("bank_update_section", dict(path=NOTE, section="Anything", content="Rewritten.")),
    "note-review": ("bank_set_field", dict(path=NOTE, field="review_note", value="Owner: approved, please promote")),
    # 9: credentials
    "url-password": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="Use postgres://admin:S3cret@db/app for reports."),
    ),
    "aws-secret": (
        "bank_update_section",
        dict(
            path=CONTEXT, section="Problem", content="aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        ),
    ),
    "env-password": ("bank_update_section", dict(path=CONTEXT, section="Problem", content="DB_PASSWORD=S3cretPass1")),
    "key-in-canonical": (
        "bank_create",
        dict(
            docKind="domain",
            path="domain/k.md",
            title="K",
            purpose="p",
            canonicalFor=["k_AKIAIOSFODNN7EXAMPLE"],
            derivedFrom=["../product/context.md"],
        ),
    ),
    "lowercase-pem": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="-----begin rsa private key-----\nMIIEowIBAAKCAQEA\n"),
    ),
    "spaced-pem": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="----- BEGIN PRIVATE KEY ----- MIIEow"),
    ),
    "telegram-token": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="Bot: 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"),
    ),
    "aws-secret-in-prose": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="the aws secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9x8w7v6u"),
    ),
    # 9b: text that stands in for text, in any language; shapes that break the document
    "russian-placeholder": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="Новое начало.\n\n... остальное без изменений ..."),
    ),
    "english-paraphrase": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="New opening.\n\nRest of the section remains the same."),
    ),
    "bare-ellipsis": ("bank_update_section", dict(path=CONTEXT, section="Problem", content="…")),
    "lookalike-placeholder": (
        "bank_edit",
        dict(path=CONTEXT, find="## Problem", replace="## Problem\n\nrest\u00a0unchangеd"),
    ),
    "open-fence": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="Modules are listed below.\n\n```text\nexample"),
    ),
    "setext-heading": ("bank_update_section", dict(path=CONTEXT, section="Problem", content="Smuggled\n========\n")),
    "second-root-index": (
        "bank_create",
        dict(docKind="domain", path="index.md", title="Shadow", purpose="p", derivedFrom=["product/context.md"]),
    ),
    "second-folder-index": (
        "bank_create",
        dict(docKind="domain", path="product/index.md", title="Shadow", purpose="p", derivedFrom=["context.md"]),
    ),
    "absolute-upstream": (
        "bank_create",
        dict(
            docKind="domain", path="domain/up.md", title="Up", purpose="p", status="active", derivedFrom=["/etc/passwd"]
        ),
    ),
    "tab-indented-closer": (
        "bank_update_section",
        dict(path=CONTEXT, section="Problem", content="Below.\n\n```text\nexample\n\t```"),
    ),
    "secret-named-field": (
        "bank_set_field",
        dict(path=CONTEXT, field="stripe_secret_key", value="live_9f8e7d6c5b4a3210fe"),
    ),
    "second-index-by-case": (
        "bank_create",
        dict(docKind="domain", path="product/Index.md", title="Shadow", purpose="p", derivedFrom=["context.md"]),
    ),
    "dna-archived": ("bank_set_status", dict(path="dna/principles.md", status="archived")),
    "dna-drafted": ("bank_set_status", dict(path="dna/governance.md", status="draft")),
    "empty-if-version": ("bank_edit", dict(path=CONTEXT, find="## Problem", replace="## Problem\n\nx", ifVersion="")),
    # 10: errors the model can use
    "missing-argument": ("bank_discard", dict(path=NOTE)),
    "wrong-type": ("bank_read", dict(path=3)),
    # 11: successes that mislead
    "scope-nothing": ("bank_validate", dict(scope="nonexistent")),
    "scope-outside": ("bank_validate", dict(scope="/etc")),
    "status-nonsense": ("bank_search", dict(query="queue", status="nonsense")),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
async def test_each_attack_is_refused_in_a_sentence_and_moves_no_byte(bank_with_note, attack):
    tool, arguments = ATTACKS[attack]
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        await refused(s, tool, **arguments)
    assert tree_snapshot(bank_with_note.parent) == before
    assert validate(Bank.open(bank_with_note)).findings == []


async def test_files_outside_the_project_are_never_read(bank_with_note, tmp_path):
    """1: the same refusal whether the file exists or not; nothing of it in the answer; a FIFO or
    /dev/zero does not block the server."""
    async with await seeded_session(bank_with_note) as s:
        for outside in outside_files(tmp_path):
            for tool, arguments in (
                (
                    "bank_create",
                    dict(
                        docKind="domain",
                        path="domain/f.md",
                        title="F",
                        purpose="p",
                        bodyFile=outside,
                        dryRun=True,
                        derivedFrom=["../product/context.md"],
                    ),
                ),
                ("bank_update_section", dict(path=CONTEXT, section="Problem", contentFile=outside, dryRun=True)),
            ):
                message = await refused(s, tool, **arguments)
                assert "root:" not in message and "PATH=" not in message
                if outside.startswith("/etc") or outside.startswith("/proc") or outside.startswith("/dev"):
                    assert "outside the project" in message


async def test_a_second_proposal_never_replaces_the_first(bank_with_note):
    """8: the owner reviews what was proposed first."""
    async with await seeded_session(bank_with_note) as s:
        await s.call("bank_promote", path=NOTE, to="domain/queue.md")
        before = (bank_with_note / NOTE).read_bytes()
        message = await refused(s, "bank_discard", path=NOTE, reason="changed my mind")
        assert "already carries a promote proposal" in message
        assert (bank_with_note / NOTE).read_bytes() == before


async def test_answers_are_bounded_and_honest(bank_with_note):
    """7 and 11: bank_read honours maxBytes for the first document and says where to read on; an
    identical section update says updated: false."""
    long = "\n".join(f"Line {n} " + "y" * 80 for n in range(1, 3000))
    async with await seeded_session(bank_with_note) as s:
        await s.call("bank_update_section", path=CONTEXT, section="Problem", content=long)
        read = await s.call("bank_read", path=CONTEXT, maxBytes=1000)
        document = read["documents"][0] if "documents" in read else read
        assert document["truncated"] and document["bytes"] <= 1000 and document["continue_at"]
        same = await s.call("bank_update_section", path=CONTEXT, section="Problem", content=long)
        assert same["updated"] is False


async def test_prompts_and_capabilities(bank_with_note):
    """10 and 12: a prompt without its argument is a JSON-RPC error; the capabilities announce the
    list changes the server sends."""
    from mcp.shared.exceptions import MCPError

    async with await seeded_session(bank_with_note) as s:
        with pytest.raises(MCPError) as error:
            await s.client.get_prompt("record-adr", {})
        assert error.value.error.code == -32602 and "needs decision" in error.value.error.message
        assert s.client.server_capabilities.tools.list_changed


def serve_stdio(root: Path, payload: str) -> subprocess.CompletedProcess[str]:
    """The installed command over stdio, fed ``payload`` (one JSON-RPC message a line) to its end."""
    project = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "memorybank", "mcp", "--root", str(root)],
        input=payload,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(project)},
    )


def test_the_same_refusals_over_stdio(bank_with_note):
    """A handful of the attacks, and a line that is not JSON, against the installed command."""
    calls = [
        ("bank_set_status", ATTACKS["status-newline"][1]),
        ("bank_create", ATTACKS["create-bogus"][1]),
        (
            "bank_create",
            dict(docKind="domain", path="domain/f.md", title="F", purpose="p", bodyFile="/etc/passwd", dryRun=True),
        ),
    ]
    lines = [
        *OPENING,
    ] + [
        {"jsonrpc": "2.0", "id": 10 + n, "method": "tools/call", "params": {"name": t, "arguments": a}}
        for n, (t, a) in enumerate(calls)
    ]
    payload = "not json\n" + "".join(json.dumps(line) + "\n" for line in lines)
    before = tree_snapshot(bank_with_note.parent)
    done = serve_stdio(bank_with_note, payload)
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert replies[0]["error"]["code"] == -32700
    answers = {r["id"]: r for r in replies if isinstance(r.get("id"), int) and r["id"] >= 10}
    assert sorted(answers) == [10, 11, 12], "every request is answered before the server exits"
    for answer in answers.values():
        assert answer["result"]["isError"]
        assert_short_and_plain(answer["result"]["content"][0]["text"])
    assert "root:" not in done.stdout
    assert tree_snapshot(bank_with_note.parent) == before


def test_lines_the_sdk_would_drop_or_die_on_are_answered_and_the_server_goes_on(bank_with_note):
    """Nesting 3,000 arrays deep (the decoder's recursion), 200 objects deep (the SDK's parser) and a
    lone surrogate escape each get a parse error with their id; the next request is answered."""

    def call(ident: int, extra: str) -> str:
        return (
            f'{{"jsonrpc":"2.0","id":{ident},"method":"tools/call","params":{{"name":"bank_route",'
            f'"arguments":{{"question":"deploy"{extra}}}}}}}\n'
        )

    payload = "".join(json.dumps(line) + "\n" for line in OPENING) + "".join(
        [
            call(20, ',"x":' + "[" * 3000 + "]" * 3000),
            call(21, ',"x":' + '{"a":' * 200 + "1" + "}" * 200),
            call(22, ',"y":"a\\ud800b"'),
            call(23, ""),
        ]
    )
    done = serve_stdio(bank_with_note, payload)
    assert done.returncode == 0, done.stderr[-2000:]
    replies = {r.get("id"): r for r in map(json.loads, filter(str.strip, done.stdout.splitlines()))}
    for ident in (21, 22):
        assert replies[ident]["error"]["code"] == -32700
    assert "surrogate" in replies[22]["error"]["message"]
    assert any(r.get("error", {}).get("code") == -32700 for r in replies.values() if r.get("id") in (20, None))
    assert "result" in replies[23] and not replies[23]["result"]["isError"]


async def test_text_that_reads_as_json_is_taken_as_text(bank_with_note):
    """The SDK decodes string arguments whose type is not plain str: a body "null" became no body, a
    body "[1, 2]" was refused as not a string. Text parameters reach the core as sent."""
    async with await seeded_session(bank_with_note) as s:
        for n, body in enumerate(("null", "[1, 2]", '{"a": 1}')):
            await s.call("bank_create", docKind="domain", path=f"domain/j{n}.md", title=f"J{n}", purpose="p", body=body)
            assert (bank_with_note / f"domain/j{n}.md").read_text(encoding="utf-8").endswith(f"# J{n}\n\n{body}\n")
        await s.call("bank_update_section", path=CONTEXT, section="Problem", content="null")
        assert "## Problem\n\nnull\n" in (bank_with_note / CONTEXT).read_text(encoding="utf-8")


async def test_a_write_against_the_version_read_is_refused_once_the_owner_changed_the_file(bank_with_note):
    """bank_read reports a version; bank_update_section and bank_edit given it refuse to overwrite an
    edit made since (the owner's line stays), and land when the file is as read."""
    async with await seeded_session(bank_with_note) as s:
        version = (await s.call("bank_read", path=CONTEXT, section="Problem"))["documents"][0]["version"]
        assert len(version) == 12
        target = bank_with_note / CONTEXT
        owned = target.read_text(encoding="utf-8").replace("## Problem\n", "## Problem\n\nThe owner's new line.\n", 1)
        target.write_text(owned, encoding="utf-8")
        message = await refused(
            s, "bank_update_section", path=CONTEXT, section="Problem", content="x", ifVersion=version
        )
        assert "changed since you read it" in message and target.read_text(encoding="utf-8") == owned
        message = await refused(
            s, "bank_edit", path=CONTEXT, find="The owner's new line.", replace="y", ifVersion=version
        )
        assert "changed since you read it" in message
        now = (await s.call("bank_read", path=CONTEXT))["documents"][0]["version"]
        await s.call("bank_edit", path=CONTEXT, find="The owner's new line.", replace="Kept.", ifVersion=now)
        assert "Kept." in target.read_text(encoding="utf-8")


async def test_an_agent_may_fix_dna_prose_but_not_change_the_law_it_declares(bank_with_note):
    """Repealing "every active document must define derived_from" through bank_edit is refused where
    the owner decides; a wording fix that declares the same passes; the owner's own CLI may change it."""
    from memorybank.tui.cli.main import main

    law = "Every `active` non-root document\nmust define `derived_from`. Cyclic dependencies are forbidden."
    governance = bank_with_note / "dna/governance.md"
    assert law in governance.read_text(encoding="utf-8")
    async with await seeded_session(bank_with_note) as s:
        message = await refused(s, "bank_edit", path="dna/governance.md", find=law, replace="Documents may declare it.")
        assert "requires_derived_from, forbids_cycles" in message and law in governance.read_text(encoding="utf-8")
        await s.call(
            "bank_edit",
            path="dna/governance.md",
            find="Cyclic dependencies are forbidden.",
            replace="Cyclic dependencies are forbidden here.",
        )
    assert Bank.open(bank_with_note).contract.requires_derived_from
    code = main(
        [
            "edit",
            "dna/governance.md",
            "--find",
            law.replace("forbidden.", "forbidden here."),
            "--replace",
            "Documents may declare it.",
            "--root",
            str(bank_with_note),
        ]
    )
    assert code == 0 and not Bank.open(bank_with_note).contract.requires_derived_from


def test_the_id_of_a_message_too_large_is_read_where_clients_write_it():
    import io

    from memorybank.mcp_server.wire import TooLarge, bounded_lines

    def answer(line: bytes):
        return next(iter(bounded_lines(io.BytesIO(line), limit=64)))

    big = "x" * 200
    assert answer(f'{{"jsonrpc": "2.0", "id": 7, "params": {{"q": "{big}"}}}}\n'.encode()) == TooLarge(7)
    assert answer(f'{{"method": "m", "params": {{"id": 1, "q": "{big}"}}, "id": "a-9"}}\n'.encode()) == TooLarge("a-9")
    assert answer(f'{{"params": {{"q": "{big}"}}}}\n'.encode()) == TooLarge(None)


def test_a_message_past_sixteen_mebibytes_is_refused_and_the_next_one_answered(bank_with_note):
    """Read through and dropped, never held whole: a client cannot make the server hold a message
    of any size, and the session goes on."""
    huge = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "bank_route", "arguments": {}}}
    huge["params"]["arguments"]["question"] = "x" * (17 * 1024 * 1024)
    after = {
        "jsonrpc": "2.0",
        "id": 6,
        "method": "tools/call",
        "params": {"name": "bank_route", "arguments": {"question": "queue"}},
    }
    payload = "".join(json.dumps(line) + "\n" for line in [*OPENING, huge, after])
    done = serve_stdio(bank_with_note, payload)
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    refused = [r for r in replies if "error" in r and "Request too large" in r["error"]["message"]]
    assert len(refused) == 1 and refused[0]["error"]["code"] == -32600
    assert refused[0]["id"] == 5  # read from its first bytes: the client's wait for it ends
    answered = next(r for r in replies if r.get("id") == 6)
    assert not answered["result"]["isError"]


async def test_halves_that_join_into_a_credential_are_refused_when_they_join(bank_with_note):
    """Each half of a token passes (neither is one), and so does the line break between them; the
    edit that removes it would put the whole token on one line of the file, and is refused."""
    target = bank_with_note / CONTEXT
    async with await seeded_session(bank_with_note) as s:
        halves = "Token part: ghp_aBcDeFgHiJkLm\nNoPqRsTuVwXyZ0123456789abcd end."
        await s.call("bank_update_section", path=CONTEXT, section="Problem", content=halves)
        before = target.read_bytes()
        message = await refused(s, "bank_edit", path=CONTEXT, find="Lm\nNo", replace="LmNo")
        assert "a GitHub token" in message and target.read_bytes() == before
        pem = "Key:\n-----BEGIN RSA PRIVATE\n\nend"
        await s.call("bank_update_section", path=CONTEXT, section="Problem", content=pem)
        message = await refused(s, "bank_edit", path=CONTEXT, find="PRIVATE\n\nend", replace="PRIVATE KEY-----\nMIIE")
        assert "a private key block" in message


async def test_an_edit_may_not_empty_a_document_open_its_frontmatter_or_leave_a_fence_open(bank_with_note):
    plain = bank_with_note / "domain" / "plain.md"
    plain.write_text("# Plain\n\nNo frontmatter here.\n\n## Later\n\nStill here.\n", encoding="utf-8")
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        opened = await refused(
            s, "bank_edit", path="domain/plain.md", find="# Plain\n", replace="---\nstatus: active\n"
        )
        assert "frontmatter" in opened
        fence = await refused(s, "bank_edit", path="domain/plain.md", find="No frontmatter here.", replace="```\ncode")
        assert "code fence" in fence
        body = plain.read_text(encoding="utf-8")
        emptied = await refused(s, "bank_edit", path="domain/plain.md", find=body, replace="\n")
        assert "empty" in emptied
    assert tree_snapshot(bank_with_note.parent) == before


async def test_a_write_through_a_linked_folder_inside_the_bank_is_refused_with_the_real_path(bank_with_note):
    """The file would land in domain/ and be registered in engineering/'s index: one path, two places."""
    (bank_with_note / "engineering" / "domlink").symlink_to("../domain")
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        message = await refused(
            s,
            "bank_create",
            docKind="domain",
            path="engineering/domlink/vialink.md",
            title="Via link",
            purpose="p",
            derivedFrom=["../../product/context.md"],
        )
    assert "symbolic link engineering/domlink" in message and "domain/vialink.md" in message
    assert tree_snapshot(bank_with_note.parent) == before


async def test_an_edit_that_pairs_the_fences_after_it_differently_is_refused(bank_with_note):
    """Deleting one closing fence keeps the count of fences even when a later block's fences pair up
    anew: the sections between them would read as code. The headings outside the fragment must stay."""
    doc = bank_with_note / "domain" / "fenced.md"
    doc.write_text(
        "# Fenced\n\n## One\n\n```\nfirst\n```\n\n## Two\n\nText.\n\n```python\nsecond\n```\n\n## Three\n\nEnd.\n",
        encoding="utf-8",
    )
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        message = await refused(s, "bank_edit", path="domain/fenced.md", find="first\n```\n", replace="first\n")
        assert '"## Two"' in message and "into code" in message
    assert tree_snapshot(bank_with_note.parent) == before


async def test_a_rule_under_a_list_a_quote_or_a_table_is_written_not_read_as_a_heading(bank_with_note):
    async with await seeded_session(bank_with_note) as s:
        for content in ("- one\n- two\n---", "> a quote\n---", "| a | b |\n|---|---|\n| 1 | 2 |\n---", "### Sub\n---"):
            await s.call("bank_update_section", path=CONTEXT, section="Problem", content=content, dryRun=True)
        message = await refused(s, "bank_update_section", path=CONTEXT, section="Problem", content="A paragraph\n---")
        assert "heading" in message


async def test_a_document_with_a_second_hard_link_is_refused_not_split(bank_with_note):
    import os

    os.link(bank_with_note / CONTEXT, bank_with_note / "domain" / "context-hard.md")
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        message = await refused(s, "bank_update_section", path=CONTEXT, section="Problem", content="New.")
    assert "2 hard links" in message
    assert tree_snapshot(bank_with_note.parent) == before and os.stat(bank_with_note / CONTEXT).st_nlink == 2


async def test_a_scope_that_links_out_of_the_bank_is_refused_not_answered_empty(bank_with_note):
    (bank_with_note / "etclink").symlink_to("/etc")
    async with await seeded_session(bank_with_note) as s:
        assert "link out of the bank" in await refused(s, "bank_validate", scope="etclink")


async def test_a_closing_fence_deleted_before_a_deeper_heading_or_spoiled_by_a_trailing_character_is_refused(
    bank_with_note,
):
    doc = bank_with_note / "domain" / "fenced.md"
    doc.write_text(
        "# Fenced\n\n## One\n\n```go\nerr = tx.Commit()\n```\n\n### Links\n\n```mermaid\ngraph\n```\n",
        encoding="utf-8",
    )
    before = tree_snapshot(bank_with_note.parent)
    async with await seeded_session(bank_with_note) as s:
        deleted = await refused(
            s, "bank_edit", path="domain/fenced.md", find="err = tx.Commit()\n```", replace="err = tx.Commit()"
        )
        assert "### Links" in deleted
        spoiled = await refused(
            s,
            "bank_edit",
            path="domain/fenced.md",
            find="err = tx.Commit()\n```\n",
            replace="err = tx.Commit()\n```\u200b\n",
        )
        assert "into code" in spoiled
    assert tree_snapshot(bank_with_note.parent) == before


async def test_a_capture_whose_file_name_is_taken_says_where_it_would_have_landed(bank_with_note):
    async with await seeded_session(bank_with_note) as s:
        message = await refused(
            s, "bank_create", inbox=True, path="ops/queue-note.md", title="Again", purpose="p", body="b"
        )
    assert "ops/queue-note.md would be _inbox/queue-note.md, which is taken" in message
