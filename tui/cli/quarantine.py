"""The quarantine's commands: ``promote``, ``discard`` and ``inbox`` (``list``, ``apply``, ``reject``,
``fold``). Each is one core call, the same gates an agent's tools run; the owner's ``apply`` is the
only way an agent's proposal leaves ``_inbox/``.
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.write.fold import FoldResult, fold
from memorybank.core.write.inbox import discard, list_inbox, promote
from memorybank.core.write.proposals import apply_proposal, reject_proposal
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.output import emit_json
from memorybank.tui.cli.writing import _csv, _json_flag, _print_write


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``promote``, ``discard`` and ``inbox``."""
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
