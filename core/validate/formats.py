"""Validation output for people and for CI: text, JSON, GitHub annotations and SARIF 2.1.0."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict
from pathlib import Path
from urllib.parse import quote

from memorybank.core.validate import ValidationReport
from memorybank.core.validate.registry import Rule, ordered_rules

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _location(root: Path, path: str, base: Path) -> str:
    """A finding's file relative to ``base`` (the repository or working directory), POSIX style."""
    target = root / path.rstrip("/")
    try:
        return Path(os.path.relpath(target, base)).as_posix()
    except ValueError:  # another drive on Windows
        return target.as_posix()


def format_text(report: ValidationReport, *, summary: bool = False, filtered: bool = False, prefix: str = "") -> str:
    """The findings and their counts; ``filtered`` (a scope, rule or severity was asked for) keeps a
    run that found nothing from calling the whole bank clean; ``prefix`` leads each path (the bank's
    folder seen from the working directory, so a terminal or an editor can open ``path:line``)."""
    lines: list[str] = []
    if not summary:
        for f in report.findings:
            where = f"{prefix}{f.path}:{f.line}" if f.line else f"{prefix}{f.path}"
            lines.append(f"{f.severity.upper():7} {f.rule:26} {where}  {f.message}")
        if report.findings:
            lines.append("")
    errors = f"{report.errors} error{'' if report.errors == 1 else 's'}"
    warnings = f"{report.warnings} warning{'' if report.warnings == 1 else 's'}"
    lines.append(f"total: {report.total} ({errors}, {warnings})")
    for rule, count in report.by_rule.items():
        lines.append(f"  {rule}: {count}")
    if not report.total:
        lines[-1] = (
            "total: 0 where you asked (not the whole bank: the files given, --scope, --rule or --severity)"
            if filtered
            else "total: 0, the bank is clean"
        )
    return "\n".join(lines)


def format_json(report: ValidationReport) -> str:
    return json.dumps(asdict(report), ensure_ascii=False, indent=2)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: ValidationReport, root: Path, base: Path) -> str:
    """Workflow commands GitHub Actions turns into annotations on the changed files."""
    lines = []
    for f in report.findings:
        props = [f"file={_escape_property(_location(root, f.path, base))}"]
        if f.line:
            props.append(f"line={f.line}")
        props.append(f"title={_escape_property('memorybank ' + f.rule)}")
        lines.append(f"::{f.severity} {','.join(props)}::{_escape_data(f.message)}")
    lines.append(f"memorybank: {report.total} findings ({report.errors} errors, {report.warnings} warnings)")
    return "\n".join(lines)


_ITEM = re.compile(r"^(Why|Example|Fix):")


def _rule_help(doc: str) -> list[str]:
    """A rule's docstring as paragraphs whose lines are unwrapped, "Why:", "Example:" and "Fix:"
    each on a line of its own, and literals (double backticks in docstrings) as markdown writes them."""
    paragraphs = []
    for block in doc.strip().split("\n\n"):
        lines: list[str] = []
        for line in block.splitlines():
            if lines and not _ITEM.match(line):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.strip())
        paragraphs.append(_LITERAL.sub(_markdown_code, "\n".join(lines)))
    return paragraphs


_LITERAL = re.compile(r"``(.+?)``")


def _markdown_code(match: re.Match[str]) -> str:
    code = match[1]
    return f"`` {code} ``" if "`" in code else f"`{code}`"


def _sarif_rule(rule: Rule) -> dict:
    """A rule as SARIF describes one, its help carried in the log itself (no help URI)."""
    paragraphs = _rule_help(rule.doc)
    lines = [line for paragraph in paragraphs for line in paragraph.split("\n")]
    name = "".join(part.title() for part in rule.name.split("-"))
    return {
        "id": rule.name,
        # SARIF asks for a name that differs from the id, or none: a one-word rule gets none.
        **({"name": name} if name.lower() != rule.name.lower() else {}),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": paragraphs[0]},
        "help": {
            "text": "\n\n".join(paragraphs),
            "markdown": "\n\n".join(_ITEM.sub(r"**\1:**", line) for line in lines),
        },
        "defaultConfiguration": {"level": rule.severity},
        "properties": {"kind": rule.kind},
    }


def sarif_document(report: ValidationReport, root: Path, base: Path, version: str) -> dict:
    """A SARIF 2.1.0 log with one run; rule ids are the stable rule names."""
    rules = ordered_rules()
    index = {r.name: i for i, r in enumerate(rules)}
    results = []
    for f in report.findings:
        # a URI reference, so a file named "a b%.md" stays that file for a consumer that decodes it
        uri = quote(_location(root, f.path, base), safe="/")
        location: dict = {"artifactLocation": {"uri": uri, "uriBaseId": "SRCROOT"}}
        # A finding about the whole file points at its first line: SARIF viewers want a region.
        location["region"] = {"startLine": f.line or 1}
        results.append(
            {
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": f.severity,
                "message": {"text": f.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memorybank",
                        "version": version,
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": base.absolute().as_uri() + "/"}},
                "results": results,
            }
        ],
    }


def format_sarif(report: ValidationReport, root: Path, base: Path, version: str) -> str:
    return json.dumps(sarif_document(report, root, base, version), ensure_ascii=False, indent=2)
