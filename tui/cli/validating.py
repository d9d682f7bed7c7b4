"""``memorybank validate``: every rule, filters, and output made for CI.

Exit codes: 0 when no finding is an error, 1 when one is, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.validate import RULE_ORDER, validate
from memorybank.core.validate.formats import FORMATS, format_github, format_json, format_sarif, format_text
from memorybank.core.write.state import work_tree
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.helptext import Once, examples
from memorybank.tui.cli.output import in_cli_words, visible


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "validate",
        parents=[common],
        help="check the bank against the rules it declares (exit 1 on errors)",
        description="Check the bank against every validation rule: broken derived_from and links, canonical_for "
        "conflicts, unregistered documents, and the contract rules its dna/ declares. Run it before a "
        "commit and in CI. Exit 0 when no finding is an error, 1 when one is, 2 on a usage error.",
        epilog=examples(
            "memorybank validate",
            "# errors only, under adr/",
            "memorybank validate --scope adr --severity error",
            "# one rule",
            "memorybank validate --rule broken-link",
            "# only the files a commit changes (what the pre-commit hook passes)",
            "memorybank validate memory_bank/domain/tax-model.md memory_bank/domain/README.md",
            "# for GitHub code scanning",
            "memorybank validate --format sarif > memorybank.sarif",
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="only findings on these files (from here, or from the bank's root); the whole bank is still read",
    )
    parser.add_argument(
        "--scope", metavar="DIR", action=Once, help="only findings on documents under this directory, e.g. adr"
    )
    parser.add_argument("--rule", choices=RULE_ORDER, metavar="RULE", help=f"only this rule: {', '.join(RULE_ORDER)}")
    parser.add_argument("--severity", choices=("error", "warning"), help="only findings of this severity")
    parser.add_argument("--summary", action="store_true", help="counts only, no findings")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="text (default), json, github (default under GitHub Actions) or sarif",
    )
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.set_defaults(handler=run_validate)


def package_version() -> str:
    try:
        return version("memorybank")
    except PackageNotFoundError:  # running from a source tree
        return "0.0.0"


def _seen_from_here(root: Path) -> str:
    """The bank's folder relative to the working directory when the bank lies under it (a
    pre-commit hook runs at the repository's top), so each finding's path opens from there."""
    try:
        here = Path.cwd().resolve()
        inside = root.resolve().relative_to(here)
    except (OSError, ValueError):
        return ""
    return "" if inside == Path(".") else f"{inside.as_posix()}/"


def _bank_files(bank: Bank, given: list[str]) -> tuple[list[str] | None, list[str]]:
    """Each file given, as the bank names it: a path from the working directory (what pre-commit
    passes, from the repository's top) or from the bank's root; a folder stands for every file
    under it (``engineering/``). Returns the bank's paths (None when the bank's root is among them:
    every file) and the files given that lie outside the bank (another bank's, in a repository that
    has two).

    Raises:
        UsageError: a path given names nothing, from here or from the bank's root: a typo must
            not pass as a file with no findings.
    """
    real_root = Path(os.path.realpath(bank.root))
    inside: list[str] = []
    outside: list[str] = []
    whole = False
    for raw in given:
        here = Path(raw) if Path(raw).is_absolute() else Path.cwd() / raw
        candidates = [here] if Path(raw).is_absolute() else [here, bank.root / raw]
        chosen = next((c for c in candidates if c.exists()), None)
        if chosen is None:
            where = "" if Path(raw).is_absolute() else f" (looked for from here and from {bank.root})"
            raise UsageError(f"No such file: {raw}{where}.")
        try:
            rel = Path(os.path.realpath(chosen)).relative_to(real_root).as_posix()
        except ValueError:
            outside.append(raw)
            continue
        whole = whole or rel == "."
        inside.append(rel + "/" if chosen.is_dir() else rel)
    return (None if whole else inside), outside


def run_validate(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    files = None
    if args.files:
        files, outside = _bank_files(bank, args.files)
        if outside:
            names = ", ".join(outside[:3]) + (f" and {len(outside) - 3} more" if len(outside) > 3 else "")
            print(f"not in the bank at {bank.root}, not checked: {visible(names)}", file=sys.stderr)
    report = validate(bank, scope=args.scope, severity=args.severity, rule=args.rule, files=files)
    report = replace(report, findings=[replace(f, message=in_cli_words(f.message)) for f in report.findings])
    chosen = "json" if args.json else args.format
    if chosen is None:  # in GitHub Actions, annotations; unless a summary alone was asked for
        chosen = "github" if os.environ.get("GITHUB_ACTIONS") == "true" and not args.summary else "text"
    if args.summary and chosen in ("github", "sarif"):
        raise UsageError(f"--summary gives counts, and {chosen} is made of findings: use one or the other")
    if args.summary:
        report = replace(report, findings=[])  # the counts stay
    base = Path(os.environ.get("GITHUB_WORKSPACE") or work_tree(bank.root) or Path.cwd())
    args.verdict = 1 if report.errors else 0  # the exit code even if the reader stops early
    if chosen == "json":
        print(format_json(report))
    elif chosen == "github":
        print(format_github(report, bank.root, base))
    elif chosen == "sarif":
        print(format_sarif(report, bank.root, base, package_version()))
    else:
        filtered = bool(args.scope or args.rule or args.severity or files is not None)
        print(visible(format_text(report, summary=args.summary, filtered=filtered, prefix=_seen_from_here(bank.root))))
    return args.verdict
