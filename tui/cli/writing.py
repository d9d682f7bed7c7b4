"""Write commands: ``init``, ``materialize-flows``, ``create``, ``edit``, ``update-section``,
``set-status``, ``set-field``, ``promote``, ``discard`` and ``inbox list|apply|reject|fold``.

Every one calls the same core function as the MCP tools and the TUI, so it refuses the same
things in the same words. ``--dry-run`` runs every gate and writes nothing.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

from core.bank import Bank
from core.init import init, materialize_flows
from core.write.create import create
from core.write.edit import edit, update_section
from core.write.fields import set_field, set_status
from core.write.fold import FoldResult, fold
from core.write.inbox import discard, list_inbox, promote
from core.write.proposals import apply_proposal, reject_proposal
from tui.cli.context import open_bank, root_path
from tui.cli.output import emit_json

CLI_CLIENT = "memorybank-cli"


def _csv(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("init", parents=[common], help="seed a new bank (24 files) for a project")
    p.add_argument("name", help="the project's name, written into the root index")
    p.add_argument("--dry-run", action="store_true", help="list the files and write nothing")
    p.add_argument("--force", action="store_true", help="seed even where documents already exist")
    _json_flag(p)
    p.set_defaults(handler=run_init)

    p = sub.add_parser(
        "materialize-flows", parents=[common], help="copy the shipped templates into the bank to own them"
    )
    p.add_argument("--force", action="store_true", help="overwrite templates the bank already has")
    _json_flag(p)
    p.set_defaults(handler=run_materialize)

    p = sub.add_parser("create", parents=[common], help="create a governed document and register it in its index")
    p.add_argument("path", help="bank path of the new document, e.g. adr/ADR-20260101T000000Z-name.md")
    p.add_argument("--kind", dest="doc_kind", default="", help="doc_kind (chooses the template)")
    p.add_argument("--title", required=True)
    p.add_argument("--purpose", required=True, help="one sentence: when to read it (routing ranks on it)")
    p.add_argument("--derived", help="comma-separated derived_from paths, relative to the new document")
    p.add_argument("--canonical", help="comma-separated canonical_for keys")
    p.add_argument("--must-not-define", help="comma-separated must_not_define keys")
    p.add_argument("--status", help="draft (default), active or another declared status")
    p.add_argument("--body", help="the body (replaces the template's prose)")
    p.add_argument("--body-file", help="read the body from this file")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an extra frontmatter field")
    p.add_argument("--inbox", action="store_true", help="capture into _inbox/ as a draft note")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_create)

    p = sub.add_parser("edit", parents=[common], help="replace one exact fragment of a document's body")
    p.add_argument("path")
    p.add_argument("--find", required=True)
    p.add_argument("--replace", required=True)
    p.add_argument("--section", help="only look in this ## section")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_edit)

    p = sub.add_parser("update-section", parents=[common], help="replace or append to one ## section")
    p.add_argument("path")
    p.add_argument("section")
    p.add_argument("--content")
    p.add_argument("--content-file")
    p.add_argument("--append", action="store_true", help="append instead of replacing")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_update_section)

    p = sub.add_parser("set-status", parents=[common], help="move a document to a lifecycle status, through its gates")
    p.add_argument("path")
    p.add_argument("status")
    p.add_argument("--release-canonical", action="store_true", help="when archiving, give up its canonical_for keys")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_set_status)

    p = sub.add_parser("set-field", parents=[common], help="set one scalar frontmatter value in place")
    p.add_argument("path")
    p.add_argument("field")
    p.add_argument("value")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_set_field)

    p = sub.add_parser("promote", parents=[common], help="move an _inbox/ note to its place in the bank")
    p.add_argument("path", help="the note, e.g. _inbox/note.md")
    p.add_argument("--to", required=True, help="destination bank path")
    p.add_argument("--kind", dest="doc_kind")
    p.add_argument("--title")
    p.add_argument("--purpose")
    p.add_argument("--derived", help="comma-separated, relative to the destination")
    p.add_argument("--canonical", help="comma-separated canonical_for keys")
    p.add_argument("--must-not-define")
    p.add_argument("--status", help="default active")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_promote)

    p = sub.add_parser("discard", parents=[common], help="drop an _inbox/ note, with a reason")
    p.add_argument("path")
    p.add_argument("--reason", required=True)
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_discard)

    inbox = sub.add_parser("inbox", parents=[common], help="the quarantine: list notes, apply or reject proposals")
    actions = inbox.add_subparsers(dest="inbox_action", metavar="ACTION")
    p = actions.add_parser("list", parents=[common], help="notes oldest first, with age, origin and proposals")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_list)
    p = actions.add_parser("apply", parents=[common], help="carry out an agent's proposal (every gate runs again)")
    p.add_argument("path")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_apply)
    p = actions.add_parser("reject", parents=[common], help="clear an agent's proposal")
    p.add_argument("path")
    p.add_argument("--note", help="why, for the agent that proposed it")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_reject)
    p = actions.add_parser(
        "fold",
        parents=[common],
        help="put a note's text into its owner's ## section, then discard it (reason: where it went)",
    )
    p.add_argument("path", help="the note, e.g. _inbox/note.md")
    p.add_argument("--into", required=True, help="the owner document's bank path")
    p.add_argument("--section", required=True, help="the ## section to update")
    p.add_argument("--append", action="store_true", help="append to the section instead of replacing it")
    p.add_argument("--content", help="the text to fold (default: the note's body without its title)")
    p.add_argument("--dry-run", action="store_true")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_fold)
    inbox.set_defaults(handler=run_inbox_list, json=False)


def _print_write(verb: str, result: Any, args: argparse.Namespace, lines: list[str]) -> int:
    if args.json:
        emit_json(result)
        return 0
    print(verb)
    for line in lines:
        if line:
            print(line)
    for warning in getattr(result, "warnings", None) or []:
        print(f"warning: {warning}")
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
        body=args.body,
        body_file=args.body_file,
        extra=_extras(args.set),
        inbox=args.inbox,
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
        verb, result, args, [f"bytes: {result.bytes_before} -> {result.bytes_after}", "", result.context]
    )


def run_update_section(args: argparse.Namespace) -> int:
    result = update_section(
        open_bank(args),
        path=args.path,
        section=args.section,
        content=args.content,
        content_file=args.content_file,
        mode="append" if args.append else "replace",
        dry_run=args.dry_run,
    )
    verb = f"{'WOULD UPDATE' if result.dry_run else 'UPDATED'} {result.path} :: {result.section} ({result.mode})"
    return _print_write(verb, result, args, [f"bytes: {result.bytes_before} -> {result.bytes_after}"])


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
    result = set_field(open_bank(args), path=args.path, field=args.field, value=args.value, dry_run=args.dry_run)
    if not result.changed and not result.dry_run:
        verb = f"UNCHANGED {result.path}: {result.field} already holds that value"
    else:
        verb = f"{'WOULD SET' if result.dry_run else 'SET'} {result.path}: {result.line}"
    lines = [
        f"also updated: {', '.join(result.indexes)}" if result.indexes else "",
        "renamed the H1" if result.heading else "",
    ]
    return _print_write(verb, result, args, lines)


def run_promote(args: argparse.Namespace) -> int:
    result = promote(
        open_bank(args),
        path=args.path,
        to=args.to,
        doc_kind=args.doc_kind,
        title=args.title,
        purpose=args.purpose,
        derived_from=_csv(args.derived),
        canonical_for=_csv(args.canonical),
        must_not_define=_csv(args.must_not_define),
        status=args.status,
        dry_run=args.dry_run,
    )
    return _print_promote(result, args)


def _print_promote(result: Any, args: argparse.Namespace) -> int:
    verb = f"{'WOULD PROMOTE' if result.dry_run else 'PROMOTED'} {result.source} -> {result.path}"
    return _print_write(
        verb,
        result,
        args,
        [
            f"template: {result.template or '(none)'}",
            f"registered in: {', '.join(result.registered_in) or '(nothing)'}",
        ],
    )


def run_discard(args: argparse.Namespace) -> int:
    result = discard(open_bank(args), path=args.path, reason=args.reason, dry_run=args.dry_run)
    verb = f"{'WOULD DISCARD' if result.dry_run else 'DISCARDED'} {result.path} ({result.title})"
    return _print_write(verb, result, args, [f"reason: {result.reason}"])


def run_inbox_list(args: argparse.Namespace) -> int:
    bank: Bank = open_bank(args)
    entries = list_inbox(bank)
    if getattr(args, "json", False):
        emit_json({"root": str(bank.root), "count": len(entries), "entries": entries})
        return 0
    if not entries:
        print("(inbox empty)")
        return 0
    for entry in entries:
        origin = f" from {entry.captured_by}" if entry.captured_by else ""
        stale = " STALE" if entry.stale else ""
        print(f"{entry.age_days:4}d{stale} {entry.path}{origin}  [{entry.doc_kind or '-'}] {entry.title}")
        if entry.purpose:
            print(f"      {entry.purpose}")
        if entry.proposal:
            p = entry.proposal
            target = f" -> {p['to']}" if p.get("to") else ""
            reason = f" ({p['reason']})" if p.get("reason") else ""
            print(
                f"      proposal: {p.get('action')}{target}{reason} by {p.get('proposed_by', '?')} at {p.get('proposed_at', '?')}"
            )
    print(f"total: {len(entries)}")
    return 0


def run_inbox_apply(args: argparse.Namespace) -> int:
    result = apply_proposal(open_bank(args), path=args.path, dry_run=args.dry_run)
    if isinstance(result, FoldResult):
        if args.json:
            emit_json(result)
        else:
            print(_fold_lines(result))
        return 0
    if hasattr(result, "source"):
        return _print_promote(result, args)
    verb = f"{'WOULD DISCARD' if result.dry_run else 'DISCARDED'} {result.path} ({result.title})"
    return _print_write(verb, result, args, [f"reason: {result.reason}"])


def run_inbox_reject(args: argparse.Namespace) -> int:
    proposal = reject_proposal(open_bank(args), path=args.path, note=args.note)
    if args.json:
        emit_json({"path": args.path, "rejected": proposal})
        return 0
    print(f"REJECTED the {proposal.get('action')} proposal on {args.path} by {proposal.get('proposed_by', '?')}")
    return 0


def run_inbox_fold(args: argparse.Namespace) -> int:
    result = fold(
        open_bank(args),
        note=args.path,
        path=args.into,
        section=args.section,
        content=args.content,
        mode="append" if args.append else "replace",
        by="owner",
        dry_run=args.dry_run,
    )
    if args.json:
        emit_json(result)
        return 0
    print(_fold_lines(result))
    return 0


def _fold_lines(result: FoldResult) -> str:
    update, gone = result.update, result.discard
    lines = [
        f"{'WOULD FOLD' if result.dry_run else 'FOLDED'} {gone.path} into {update.path} :: {update.section} ({update.mode})",
        f"bytes: {update.bytes_before} -> {update.bytes_after}",
        f"{'would discard' if result.dry_run else 'discarded'} {gone.path}: {gone.reason}",
        "",
    ]
    diff = difflib.unified_diff(result.before.split("\n"), result.after.split("\n"), lineterm="", n=3)
    lines += [line for line in diff if not line.startswith(("---", "+++"))]
    return "\n".join(lines)
