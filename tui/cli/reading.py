"""Read-only commands: ``stats`` and ``read``."""

from __future__ import annotations

import argparse
import sys
import time

from memorybank.core.bank import Bank
from memorybank.core.read import read_document
from memorybank.core.stats import Stats, bank_stats
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.helptext import examples
from memorybank.tui.cli.output import emit_json, human_bytes, rows, visible


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    stats = sub.add_parser(
        "stats",
        parents=[common],
        help="counts, contract, edges, keys and defects of the bank",
        description="Describe the bank: its documents, the contract read from dna/ (kinds, statuses, layers), "
        "derived_from edges, canonical_for keys and their conflicts, index links, parse errors, files "
        "without frontmatter and encoding defects. Run it first on a bank you do not know.",
        epilog=examples("memorybank stats", "# the same figures for a script", "memorybank stats --json"),
    )
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(handler=run_stats)

    read = sub.add_parser(
        "read",
        parents=[common],
        help="print a document, one of its sections, or a line range",
        description="Print a document of the bank, or only one of its sections (a ##, ### or #### heading), or a line "
        "range of the raw file (frontmatter included). Reading a section keeps a long document cheap to read.",
        epilog=examples(
            "memorybank read engineering/payment-retries.md",
            "# one section: the heading is matched exactly or as a part, in any case",
            'memorybank read engineering/payment-retries.md --section "giving up"',
            "# lines 1-12 of the file: its frontmatter",
            "memorybank read memory_bank/domain/tax-model.md --lines 1-12",
        ),
    )
    read.add_argument(
        "path",
        help="bank path of the document, e.g. adr/README.md (a memory_bank/ prefix or an absolute path works too)",
    )
    read.add_argument(
        "--section",
        "-s",
        help='a ## heading (exact or contained, case-insensitive), or a ### or #### one ("Parent > Child" where '
        "titles repeat)",
    )
    read.add_argument("--lines", "-l", help='a line range of the raw file: "120-160", "120-" or "120"')
    read.add_argument("--json", action="store_true", help="print JSON")
    read.set_defaults(handler=run_read)


def run_stats(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    bank: Bank = open_bank(args)
    stats = bank_stats(bank, (time.perf_counter() - started) * 1000)
    if args.json:
        emit_json(stats)
    else:
        print(visible(format_stats(stats)))
    return 0


def _join(values: list[str] | dict[str, int]) -> str:
    if isinstance(values, dict):
        return ", ".join(f"{k} {v}" for k, v in values.items()) or "-"
    return ", ".join(values) or "-"


def format_stats(stats: Stats) -> str:
    c = stats.contract
    lines = [
        rows(
            [
                ("root", stats.root),
                ("documents", f"{stats.documents} ({human_bytes(stats.bytes)}), indexed in {stats.index_ms:.0f} ms"),
                ("contract", ", ".join(c.source) if c.present else "ABSENT (degraded mode)"),
            ]
        )
    ]
    if c.present:
        lines.append(
            rows(
                [
                    ("doc_kind", _join(c.doc_kinds)),
                    ("doc_function", _join(c.doc_functions)),
                    ("status", _join(c.statuses)),
                    ("delivery_status", _join(c.delivery_statuses)),
                    ("decision_status", _join(c.decision_statuses)),
                    ("roots", _join(c.roots)),
                    (
                        "derived_from",
                        "required for active non-root documents" if c.requires_derived_from else "not required",
                    ),
                    ("cycles", "forbidden" if c.forbids_cycles else "not forbidden"),
                ],
                indent=2,
            )
        )
    declared = ", ".join(f"{d}={layer}" for d, layer in c.declared_layers.items())
    e = stats.edges
    lines.append(
        rows(
            [
                (
                    "layers",
                    f"declared: {declared}" if declared else "built-in map (no Directory | Layer table in dna/)",
                ),
                *[("  unknown layer", row) for row in c.unknown_layers],
                (
                    "edges",
                    f"{e.total} in {e.documents_with_edges} documents: {e.internal} internal, {e.with_fit} with fit, "
                    f"{e.external} external, {e.broken} broken",
                ),
                ("canonical keys", f"{stats.canonical_keys}, {len(stats.conflicts)} claimed by more than one document"),
                *[("  conflict", f"{k.key}: {', '.join(k.owners)}") for k in stats.conflicts],
                ("index links", f"{stats.index_links} from {stats.index_documents} index documents"),
                ("templates", str(stats.templates)),
                ("inbox notes", str(stats.inbox)),
                ("parse errors", str(len(stats.parse_errors))),
                *[(f"  {p.path}:{p.line}", p.error) for p in stats.parse_errors],
                ("no frontmatter", str(len(stats.without_frontmatter))),
                *[("  -", p) for p in stats.without_frontmatter],
                (
                    "encoding",
                    f"BOM {len(stats.encoding['bom'])}, CRLF {len(stats.encoding['crlf'])}, "
                    f"not UTF-8 {len(stats.encoding['not_utf8'])}",
                ),
                ("unreadable", ", ".join(stats.unreadable) or "0"),
                ("by layer", _join(stats.by_layer)),
                ("by doc_kind", _join(stats.by_kind)),
                ("by doc_function", _join(stats.by_function)),
            ]
        )
    )
    return "\n".join(lines)


def run_read(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    result = read_document(bank, args.path, section=args.section, lines=args.lines)
    if args.json:
        emit_json(result)
        return 0
    where = f" :: {result.section}" if result.section else ""
    if result.lines:
        where = f" :: lines {result.lines[0]}-{result.lines[1]} of {result.total_lines}"
    print(visible(f"# {result.path}{where} ({result.bytes} bytes{', truncated' if result.truncated else ''})"))
    doc = bank.documents.get(result.path)
    if doc is not None and doc.has_frontmatter and not (result.section or result.lines):
        print(f"(frontmatter not shown: --lines 1-{doc.body_line - 1} prints it as written, --json as data)")
    print()
    # on a terminal an escape sequence in the text would recolour, retitle or rewrite the screen, so
    # it is spelled out; into a pipe or a file the text goes as it is written
    print(visible(result.content) if _is_terminal(sys.stdout) else result.content)
    return 0


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False
