"""The quarantine's commands: ``promote``, ``discard`` and ``inbox`` (``list``, ``apply``, ``reject``,
``fold``). Each is one core call, the same gates an agent's tools run; the owner's ``apply`` is the
only way an agent's proposal leaves ``_inbox/``.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.write.fold import FoldResult, fold
from memorybank.core.write.inbox import discard, list_inbox, promote
from memorybank.core.write.proposals import apply_proposal, reject_proposal
from memorybank.core.write.restore import restore
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.helptext import examples
from memorybank.tui.cli.output import emit_json, in_cli_words, visible
from memorybank.tui.cli.writing import _csv, _json_flag, _print_write

NOTE = "the note, e.g. _inbox/retries-bunch-up.md"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``promote``, ``discard`` and ``inbox``."""
    p = sub.add_parser(
        "promote",
        parents=[common],
        help="move an _inbox/ note to its place in the bank",
        description="Move a note out of _inbox/ to its place in the bank as a governed document (active by "
        "default), registered in its index, through every gate a new document meets. Use it for a new "
        "fact; a fact that already has an owner document is folded into it (inbox fold).",
        epilog=examples(
            "memorybank promote _inbox/eu-reverse-charge.md --to domain/eu-reverse-charge.md --kind domain \\",
            "    --derived tax-model.md --dry-run",
        ),
    )
    p.add_argument("path", help=NOTE)
    p.add_argument("--to", required=True, metavar="PATH", help="destination bank path, e.g. domain/reverse-charge.md")
    p.add_argument(
        "--kind",
        dest="doc_kind",
        help="doc_kind of the document (default: the note's; required when the note has none)",
    )
    p.add_argument("--title", help="a new title (default: the note's)")
    p.add_argument("--purpose", help="a new purpose (default: the note's)")
    p.add_argument("--derived", metavar="PATHS", help="comma-separated derived_from paths, relative to the destination")
    p.add_argument("--canonical", metavar="KEYS", help="comma-separated canonical_for keys")
    p.add_argument("--must-not-define", metavar="KEYS", help="comma-separated must_not_define keys")
    p.add_argument("--status", help="the status at its destination (default active)")
    p.add_argument("--dry-run", action="store_true", help="run every gate and show the document; write nothing")
    _json_flag(p)
    p.set_defaults(handler=run_promote)

    p = sub.add_parser(
        "discard",
        parents=[common],
        help="drop an _inbox/ note, with a reason",
        description="Delete a note from _inbox/, with the reason kept on record in _inbox/.record.jsonl. Use "
        "it for a note that holds nothing the bank should keep.",
        epilog=examples(
            'memorybank discard _inbox/flaky-pdf-test.md --reason "a local font problem, not project knowledge"'
        ),
    )
    p.add_argument("path", help=NOTE)
    p.add_argument("--reason", required=True, help="why the note goes, kept on record")
    p.add_argument("--dry-run", action="store_true", help="check the note and show the discard; write nothing")
    _json_flag(p)
    p.set_defaults(handler=run_discard)

    inbox = sub.add_parser(
        "inbox",
        parents=[common],
        help="the quarantine: list notes, apply or reject proposals, fold a note into its owner",
        description="The quarantine of notes agents capture in _inbox/. Only the owner empties it: list the "
        "notes, apply or reject the proposal an agent recorded on one, or fold a note into the document "
        "that owns its fact. With no action it lists the notes.",
        epilog=examples(
            "memorybank inbox",
            "memorybank inbox apply _inbox/deploy-freeze-calendar.md --dry-run",
        ),
    )
    inbox.add_argument("--json", action="store_true", help="with no action: list the notes as JSON")
    actions = inbox.add_subparsers(dest="inbox_action", metavar="ACTION")
    p = actions.add_parser(
        "list",
        parents=[common],
        help="notes oldest first, with age, origin and proposals",
        description="List the notes in _inbox/, oldest first: age (STALE after 14 days), the client that "
        "captured each, its purpose, and the proposal an agent recorded on it.",
        epilog=examples("memorybank inbox list", "memorybank inbox list --json"),
    )
    _json_flag(p)
    p.set_defaults(handler=run_inbox_list)
    p = actions.add_parser(
        "apply",
        parents=[common],
        help="carry out an agent's proposal (every gate runs again)",
        description="Carry out the proposal an agent recorded on a note (promote, fold or discard), as the "
        "owner: every gate runs again, so a proposal that no longer fits the bank is refused.",
        epilog=examples(
            "# see what it would write, then do it",
            "memorybank inbox apply _inbox/deploy-freeze-calendar.md --dry-run",
            "memorybank inbox apply _inbox/deploy-freeze-calendar.md",
        ),
    )
    p.add_argument("path", help="a note that carries a proposal, e.g. _inbox/deploy-freeze-calendar.md")
    p.add_argument("--dry-run", action="store_true", help="run every gate and show the result; write nothing")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_apply)
    p = actions.add_parser(
        "reject",
        parents=[common],
        help="clear an agent's proposal",
        description="Clear the proposal an agent recorded on a note; the note stays in _inbox/, and the agent "
        "may propose again.",
        epilog=examples(
            'memorybank inbox reject _inbox/deploy-freeze-calendar.md --note "fold the days into the runbook instead"'
        ),
    )
    p.add_argument("path", help="a note that carries a proposal, e.g. _inbox/deploy-freeze-calendar.md")
    p.add_argument("--note", help="why, for the agent that proposed it")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_reject)
    p = actions.add_parser(
        "restore",
        parents=[common],
        help="bring a discarded note back, byte for byte, from the record",
        description="Write a discarded note back to its path in _inbox/ from _inbox/.record.jsonl, where a discard "
        "keeps the note (up to 256 KB), and record the restore. Refused when the path is taken again.",
        epilog=examples(
            "# a note discarded by mistake",
            'memorybank discard _inbox/deploy-freeze-calendar.md --reason "the calendar"',
            "memorybank inbox restore _inbox/deploy-freeze-calendar.md --dry-run",
            "memorybank inbox restore _inbox/deploy-freeze-calendar.md",
        ),
    )
    p.add_argument("path", help=NOTE)
    p.add_argument("--dry-run", action="store_true", help="check the record and the path; write nothing")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_restore)
    p = actions.add_parser(
        "fold",
        parents=[common],
        help="put a note's text into its owner's ## section, then discard it (reason: where it went)",
        description="Put a note's text into a ## section of the document that owns its fact, then discard the "
        'note with the reason "folded into PATH#Section": one write. Use it when the fact already has '
        "an owner; promote makes a new document instead.",
        epilog=examples(
            "memorybank inbox fold _inbox/retries-bunch-up.md --into engineering/payment-retries.md \\",
            '    --section "Backoff and Jitter" --dry-run',
        ),
    )
    p.add_argument("path", help=NOTE)
    p.add_argument("--into", required=True, metavar="PATH", help="the owner document's bank path")
    p.add_argument("--section", required=True, help="the ## section to update")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--append", action="store_true", help="append to the section (the default)")
    how.add_argument("--replace", action="store_true", help="replace the section's text with the note's")
    p.add_argument("--content", help="the text to fold (default: the note's body without its title)")
    p.add_argument("--dry-run", action="store_true", help="show the section's diff and the discard; write nothing")
    _json_flag(p)
    p.set_defaults(handler=run_inbox_fold)
    inbox.set_defaults(handler=run_inbox_list)


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
    verb = f"{'WOULD DISCARD' if result.dry_run else 'DISCARDED'} {result.path} ({visible(result.title)})"
    return _print_write(verb, result, args, [f"reason: {visible(result.reason)}"])


def run_inbox_list(args: argparse.Namespace) -> int:
    bank: Bank = open_bank(args)
    entries = list_inbox(bank)
    if getattr(args, "json", False):
        emit_json({"root": str(bank.root), "count": len(entries), "entries": entries})
        return 0
    if not entries:
        print("(inbox empty)")
        return 0
    for entry in entries:  # every field but the age was written by an agent: shown, never obeyed
        origin = f" from {visible(entry.captured_by)}" if entry.captured_by else ""
        stale = " STALE" if entry.stale else ""
        print(
            f"{entry.age_days:4}d{stale} {visible(entry.path)}{origin}  [{visible(entry.doc_kind or '-')}] {visible(entry.title)}"
        )
        if entry.purpose:
            print(f"      {visible(entry.purpose)}")
        if entry.proposal:
            p = {key: visible(value) for key, value in entry.proposal.items()}
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
        return _print_fold(result, args)
    if hasattr(result, "source"):
        return _print_promote(result, args)
    verb = f"{'WOULD DISCARD' if result.dry_run else 'DISCARDED'} {result.path} ({visible(result.title)})"
    return _print_write(verb, result, args, [f"reason: {visible(result.reason)}"])


def run_inbox_reject(args: argparse.Namespace) -> int:
    proposal = reject_proposal(open_bank(args), path=args.path, note=args.note)
    if args.json:
        emit_json({"path": args.path, "rejected": proposal})
        return 0
    print(
        f"REJECTED the {visible(proposal.get('action'))} proposal on {args.path} by {visible(proposal.get('proposed_by', '?'))}"
    )
    return 0


def run_inbox_restore(args: argparse.Namespace) -> int:
    result = restore(open_bank(args), path=args.path, dry_run=args.dry_run)
    verb = f"{'WOULD RESTORE' if result.dry_run else 'RESTORED'} {result.path} ({visible(result.title)})"
    lines = [f"discarded at {result.discarded_at}: {visible(result.reason)}", f"bytes: {result.bytes}"]
    return _print_write(verb, result, args, lines)


def run_inbox_fold(args: argparse.Namespace) -> int:
    result = fold(
        open_bank(args),
        note=args.path,
        path=args.into,
        section=args.section,
        content=args.content,
        mode="replace" if args.replace else "append",
        by="owner",
        dry_run=args.dry_run,
    )
    return _print_fold(result, args)


def _print_fold(result: FoldResult, args: argparse.Namespace) -> int:
    if args.json:
        emit_json(result)
        return 0
    print(_fold_lines(result))
    for warning in result.warnings:
        print(f"warning: {in_cli_words(warning)}", file=sys.stderr)  # as git does: stdout stays the result
    return 0


def _fold_lines(result: FoldResult) -> str:
    update, gone = result.update, result.discard
    lines = [
        f"{'WOULD FOLD' if result.dry_run else 'FOLDED'} {gone.path} into {update.path} :: {update.section} ({update.mode})",
        f"bytes: {update.bytes_before} -> {update.bytes_after}",
        f"{'would discard' if result.dry_run else 'discarded'} {gone.path}: {visible(gone.reason)}",
        "",
    ]
    diff = difflib.unified_diff(result.before.split("\n"), result.after.split("\n"), lineterm="", n=3)
    lines += [visible(line) for line in diff if not line.startswith(("---", "+++"))]
    return "\n".join(lines)
