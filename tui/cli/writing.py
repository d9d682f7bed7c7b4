"""Write commands: ``init``, ``materialize-flows``, ``create``, ``edit``, ``update-section``,
``set-status``, ``set-field``, ``promote``, ``discard`` and ``inbox list|apply|reject|fold``.

Every one calls the same core function as the MCP tools and the TUI, so it refuses the same
things in the same words. ``--dry-run`` runs every gate and writes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memorybank.core.init import init, materialize_flows
from memorybank.core.write.create import create
from memorybank.core.write.edit import edit, update_section
from memorybank.core.write.fields import set_field, set_status
from memorybank.tui.cli.context import open_bank, root_path
from memorybank.tui.cli.output import emit_json

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
