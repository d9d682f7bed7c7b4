"""Write commands: ``init``, ``materialize-flows``, ``create``, ``edit``, ``update-section``,
``set-status``, ``set-field``, ``promote``, ``discard`` and ``inbox list|apply|reject|fold``.

Every one calls the same core function as the MCP tools and the TUI, so it refuses the same
things in the same words. ``--dry-run`` runs every gate and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from memorybank.core.errors import UsageError
from memorybank.core.init import init, materialize_flows
from memorybank.core.write.create import create
from memorybank.core.write.edit import edit, update_section
from memorybank.core.write.fields import set_field, set_status
from memorybank.core.write.frontlines import LIST_FIELDS
from memorybank.core.write.values import TEXT_LIMIT
from memorybank.tui.cli.context import open_bank, root_path
from memorybank.tui.cli.helptext import examples
from memorybank.tui.cli.output import emit_json, in_cli_words

CLI_CLIENT = "memorybank-cli"


def _csv(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def _text_or_file(inline: str | None, file: str | None, flag: str, inline_flag: str) -> tuple[str | None, str | None]:
    """The inline text and the file to pass on; ``FILE`` ``-`` is standard input, read here (the
    person running the command chose it, unlike a path an agent names, which core confines to
    the project)."""
    if file != "-":
        return inline, file
    if inline is not None:
        raise UsageError(f"{flag} - reads standard input: give it or {inline_flag}, not both.")
    if sys.stdin is None:
        raise UsageError(f"{flag} - reads standard input, and this process has none.")
    data = sys.stdin.buffer.read(4 * TEXT_LIMIT + 1)  # a character is at most four bytes of UTF-8
    if len(data) > 4 * TEXT_LIMIT:
        raise UsageError(f"Standard input holds more than the {TEXT_LIMIT:,} characters a write accepts.")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        raise UsageError(f"Standard input is not UTF-8 text (byte {error.start + 1}); nothing was written.") from None


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def _dry_run_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dry-run", action="store_true", help="run every gate and show the change; write nothing")


DOC_PATH = "bank path of the document, e.g. ops/deploy-runbook.md"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "init",
        parents=[common],
        help="seed a new bank (24 files) for a project",
        description="Seed a new bank for a project: a contract in dna/ (governance, frontmatter, lifecycle), "
        "section indexes and flows, 24 files that validate clean. Without --root it seeds ./memory_bank.",
        epilog=examples(
            "# list the files first, then write them",
            'memorybank init "Harbor Billing" --dry-run',
            'memorybank init "Harbor Billing"',
            "# a bank under docs/ instead",
            'memorybank init "Harbor Billing" --root docs/memory_bank',
        ),
    )
    p.add_argument("name", help="the project's name, written into the root index")
    p.add_argument("--dry-run", action="store_true", help="list the files and write nothing")
    p.add_argument("--force", action="store_true", help="seed even where documents already exist")
    _json_flag(p)
    p.set_defaults(handler=run_init)

    p = sub.add_parser(
        "materialize-flows",
        parents=[common],
        help="copy the shipped templates into the bank to own them",
        description="Copy the document templates shipped with memorybank into the bank's flows/templates/. "
        "From then on the bank owns them: edit them there, and create uses them before the shipped ones.",
        epilog=examples(
            "memorybank materialize-flows",
            "# take the shipped versions again, over the bank's copies",
            "memorybank materialize-flows --force",
        ),
    )
    p.add_argument("--force", action="store_true", help="overwrite templates the bank already has")
    _json_flag(p)
    p.set_defaults(handler=run_materialize)

    p = sub.add_parser(
        "create",
        parents=[common],
        help="create a governed document and register it in its index",
        description="Create a governed document from the template of its doc_kind, with its frontmatter, "
        "and register it in its section's index; every gate of the bank runs first, and a refusal "
        "writes nothing. With --inbox it captures a draft note into _inbox/ for the owner to place.",
        epilog=examples(
            "# a decision record, shown first, then written",
            "memorybank create adr/ADR-20260601T090000Z-pdf-rendering.md --kind adr \\",
            '    --title "Render PDFs with WeasyPrint" --purpose "Why invoices are rendered with WeasyPrint." \\',
            "    --derived ../engineering/architecture.md --dry-run",
            "memorybank create adr/ADR-20260601T090000Z-pdf-rendering.md --kind adr \\",
            '    --title "Render PDFs with WeasyPrint" --purpose "Why invoices are rendered with WeasyPrint." \\',
            "    --derived ../engineering/architecture.md",
            "# a note for the owner's inbox",
            'memorybank create --inbox --title "PDF test needs the Inter font" \\',
            '    --purpose "Why the PDF snapshot test fails on machines without the font."',
        ),
    )
    p.add_argument(
        "path",
        nargs="?",
        help="bank path of the new document, e.g. adr/ADR-20260101T000000Z-name.md"
        " (a note with --inbox may leave it out: its file name comes from the title)",
    )
    p.add_argument(
        "--kind",
        dest="doc_kind",
        default="",
        help="doc_kind: chooses the template and section (required unless --inbox)",
    )
    p.add_argument("--title", required=True, help="the title, also written as the H1")
    p.add_argument("--purpose", required=True, help="one sentence: when to read it (routing ranks on it)")
    p.add_argument(
        "--derived", metavar="PATHS", help="comma-separated derived_from paths, relative to the new document"
    )
    p.add_argument("--canonical", metavar="KEYS", help="comma-separated canonical_for keys it owns")
    p.add_argument("--must-not-define", metavar="KEYS", help="comma-separated must_not_define keys")
    p.add_argument("--status", help="draft (default), active or another declared status")
    p.add_argument("--body", help="the body (replaces the template's prose)")
    p.add_argument(
        "--body-file", metavar="FILE", help="read the body from this file (inside the project); - reads standard input"
    )
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an extra frontmatter field")
    p.add_argument("--inbox", action="store_true", help="capture into _inbox/ as a draft note")
    p.add_argument(
        "--template",
        metavar="PATH",
        help="the template to make it from, where its kind has several (flows/templates/feature/large.md)",
    )
    _dry_run_flag(p)
    _json_flag(p)
    p.set_defaults(handler=run_create)

    p = sub.add_parser(
        "edit",
        parents=[common],
        help="replace one exact fragment of a document's body",
        description="Replace one exact fragment of a document's body. The fragment must occur exactly once "
        "(in the --section, if given); when it does not, the refusal names the closest passage and its "
        "line. Frontmatter is changed with set-field and set-status, not here.",
        epilog=examples(
            'memorybank edit engineering/payment-retries.md --section "Backoff and Jitter" \\',
            '    --find "Delays are fixed; every retry of the same minute fires together." \\',
            '    --replace "Delays carry decorrelated jitter, so retries spread out." --dry-run',
        ),
    )
    p.add_argument("path", help=DOC_PATH)
    p.add_argument("--find", required=True, help="the exact text to replace (it must occur once)")
    p.add_argument("--replace", required=True, help="the text to put in its place")
    p.add_argument("--section", help="only look in this ## (or ###) section")
    _dry_run_flag(p)
    _json_flag(p)
    p.set_defaults(handler=run_edit)

    p = sub.add_parser(
        "update-section",
        parents=[common],
        help="replace or append to one ## section",
        description="Replace the body of one ## section of a document, or append to it; nothing else in the "
        "file moves. A ### or #### section may be named too. The new content may not open sections of its own.",
        epilog=examples(
            'memorybank update-section engineering/payment-retries.md "Backoff and Jitter" \\',
            '    --content "Each delay is drawn with decorrelated jitter (src/payments/retry.py)."',
            "# add to the end of a section, the text read from a file of the project",
            'memorybank update-section ops/deploy-runbook.md "Deploy Freeze" --append --content-file freeze.md',
        ),
    )
    p.add_argument("path", help=DOC_PATH)
    p.add_argument("section", help="the ## heading (exact or contained, case-insensitive)")
    p.add_argument("--content", help="the new text of the section")
    p.add_argument(
        "--content-file",
        metavar="FILE",
        help="read the new text from this file (inside the project); - reads standard input",
    )
    p.add_argument("--append", action="store_true", help="append instead of replacing")
    _dry_run_flag(p)
    _json_flag(p)
    p.set_defaults(handler=run_update_section)

    p = sub.add_parser(
        "set-status",
        parents=[common],
        help="move a document to a lifecycle status, through its gates",
        description="Move a document to another lifecycle status (draft, active, archived or another the "
        "contract declares; a value it does not declare is written with a warning, and validate reports it "
        "as unknown-enum-value). Activation needs the derived_from the contract asks for; archiving a "
        "document that owns canonical_for keys needs --release-canonical.",
        epilog=examples(
            "# back to draft until it declares what it derives from",
            "memorybank set-status engineering/caching-notes.md draft",
            "# retire a document and give up the canonical_for keys it owns",
            "memorybank set-status engineering/testing-policy.md archived --release-canonical --dry-run",
        ),
    )
    p.add_argument("path", help=DOC_PATH)
    p.add_argument("status", help="the new status, e.g. active or archived")
    p.add_argument("--release-canonical", action="store_true", help="when archiving, give up its canonical_for keys")
    _dry_run_flag(p)
    _json_flag(p)
    p.set_defaults(handler=run_set_status)

    p = sub.add_parser(
        "set-field",
        parents=[common],
        help="set one frontmatter value, or a whole list, in place",
        description="Set one scalar frontmatter value, keeping the line's quoting. A new title renames the H1 "
        "that repeated it; a new title or purpose is carried into index entries that repeated the old "
        "text. A list (derived_from, canonical_for, must_not_define, anchors) takes every item, and "
        "replaces the list through its gates: an upstream must resolve and close no cycle, a key must "
        "have no other owner. Use set-status for status.",
        epilog=examples(
            'memorybank set-field ops/monitoring.md purpose "Which alerts page whom, and the dashboards to open."',
            'memorybank set-field domain/tax-model.md title "VAT Model" --dry-run',
            "# the documents it rests on, all of them (relative to the document)",
            "memorybank set-field ops/monitoring.md derived_from deploy-runbook.md ../engineering/architecture.md --dry-run",
        ),
    )
    p.add_argument("path", help=DOC_PATH)
    p.add_argument("field", help="the frontmatter key, e.g. title, purpose or derived_from")
    p.add_argument("value", nargs="+", help="its new value; for a list field, every item of the new list")
    _dry_run_flag(p)
    _json_flag(p)
    p.set_defaults(handler=run_set_field)


def _print_write(verb: str, result: Any, args: argparse.Namespace, lines: list[str]) -> int:
    if args.json:
        emit_json(result)
        return 0
    print(verb)
    for line in lines:
        if line:
            print(line)
    for warning in getattr(result, "warnings", None) or []:
        print(f"warning: {in_cli_words(warning)}", file=sys.stderr)  # as git does: stdout stays the result
    preview = getattr(result, "preview", "")
    if preview and not isinstance(preview, str):
        preview = ""
    if preview:
        print()
        print(preview)
    return 0


def run_init(args: argparse.Namespace) -> int:
    # A new project has no bank to find yet: seed ./memory_bank, as the welcome screen does.
    root = root_path(args) or Path.cwd() / "memory_bank"
    result = init(root, name=args.name, dry_run=args.dry_run, force=args.force)
    verb = f"{'WOULD CREATE' if result.dry_run else 'CREATED'} {result.root}"
    return _print_write(
        verb, result, args, [f"sections: {', '.join(result.directories)}", f"files: {len(result.files)}"]
    )


def run_materialize(args: argparse.Namespace) -> int:
    result = materialize_flows(open_bank(args), force=args.force)
    lines = ["The bank now owns its templates: edit them there; create uses them before the shipped ones."]
    return _print_write(f"COPIED {len(result.files)} files into {result.root}/flows/templates", result, args, lines)


def _extras(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"memorybank: --set expects KEY=VALUE, got {pair!r}")
        out[key.strip()] = value
    return out


def run_create(args: argparse.Namespace) -> int:
    if not args.path and not args.inbox:
        raise UsageError("create needs the path of the new document (only a note, with --inbox, may leave it out)")
    body, body_file = _text_or_file(args.body, args.body_file, "--body-file", "--body")
    result = create(
        open_bank(args),
        path=args.path,
        title=args.title,
        purpose=args.purpose,
        doc_kind=args.doc_kind,
        derived_from=_csv(args.derived),
        canonical_for=_csv(args.canonical),
        must_not_define=_csv(args.must_not_define),
        status=args.status,
        body=body,
        body_file=body_file,
        extra=_extras(args.set),
        inbox=args.inbox,
        template=args.template,
        dry_run=args.dry_run,
        client=CLI_CLIENT,
    )
    verb = f"{'WOULD CREATE' if result.dry_run else 'CREATED'} {result.path}"
    return _print_write(
        verb,
        result,
        args,
        [
            f"template: {result.template or '(none)'}",
            f"registered in: {', '.join(result.registered_in) or '(nothing)'}",
        ],
    )


def run_edit(args: argparse.Namespace) -> int:
    result = edit(
        open_bank(args),
        path=args.path,
        find=args.find,
        replace=args.replace,
        section=args.section,
        dry_run=args.dry_run,
    )
    verb = f"{'WOULD EDIT' if result.dry_run else 'EDITED'} {result.path}" + (
        f" :: {result.section}" if result.section else ""
    )
    return _print_write(
        verb,
        result,
        args,
        [f"bytes: {result.bytes_before} -> {result.bytes_after}", f"version: {result.version}", "", result.context],
    )


def run_update_section(args: argparse.Namespace) -> int:
    content, content_file = _text_or_file(args.content, args.content_file, "--content-file", "--content")
    result = update_section(
        open_bank(args),
        path=args.path,
        section=args.section,
        content=content,
        content_file=content_file,
        mode="append" if args.append else "replace",
        dry_run=args.dry_run,
    )
    verb = f"{'WOULD UPDATE' if result.dry_run else 'UPDATED'} {result.path} :: {result.section} ({result.mode})"
    return _print_write(
        verb, result, args, [f"bytes: {result.bytes_before} -> {result.bytes_after}", f"version: {result.version}"]
    )


def run_set_status(args: argparse.Namespace) -> int:
    result = set_status(
        open_bank(args),
        path=args.path,
        status=args.status,
        release_canonical=args.release_canonical,
        dry_run=args.dry_run,
    )
    if not result.changed and not result.dry_run:
        verb = f"UNCHANGED {result.path}: already {result.status}"
    else:
        verb = f"{'WOULD SET' if result.dry_run else 'SET'} {result.path}: {result.previous or '(none)'} -> {result.status}"
    released = f"released: {', '.join(result.released)}" if result.released else ""
    return _print_write(verb, result, args, [released])


def run_set_field(args: argparse.Namespace) -> int:
    value: str | list[str] = args.value
    if args.field.strip() in LIST_FIELDS:
        value = [] if args.value == ["[]"] else args.value  # `[]` empties the list
    elif len(args.value) > 1:
        raise UsageError(f"{args.field} takes one value; quote a value that holds spaces.")
    else:
        value = args.value[0]
    result = set_field(open_bank(args), path=args.path, field=args.field, value=value, dry_run=args.dry_run)
    if not result.changed and not result.dry_run:
        verb = f"UNCHANGED {result.path}: {result.field} already holds that value"
    else:
        verb = f"{'WOULD SET' if result.dry_run else 'SET'} {result.path}: {result.line}"
    lines = [
        f"also updated: {', '.join(result.indexes)}" if result.indexes else "",
        "renamed the H1" if result.heading else "",
    ]
    return _print_write(verb, result, args, lines)
