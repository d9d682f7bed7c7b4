"""``memorybank validate``: formats, exit codes, GitHub annotations, SARIF structure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest
from memorybank.tui.cli.main import main

from tests.conftest import FIXTURES, REAL_BANKS, real_bank_ids

REFERENCE = str(FIXTURES / "reference")
CLEAN = str(FIXTURES / "rules" / "broken-link" / "clean")

# The parts of the SARIF 2.1.0 schema a consumer (GitHub code scanning) relies on.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs", "$schema"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name", "rules"],
                                "properties": {
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id", "shortDescription", "defaultConfiguration"],
                                            "properties": {
                                                "defaultConfiguration": {
                                                    "properties": {
                                                        "level": {"enum": ["none", "note", "warning", "error"]}
                                                    }
                                                }
                                            },
                                        },
                                    }
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ruleId", "message", "locations", "level"],
                            "properties": {
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {"type": "object", "required": ["text"]},
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["physicalLocation"],
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "region": {
                                                        "type": "object",
                                                        "properties": {"startLine": {"type": "integer", "minimum": 1}},
                                                    }
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_exit_codes_follow_error_findings(capsys):
    assert main(["validate", "--root", REFERENCE]) == 1
    assert main(["validate", "--root", REFERENCE, "--severity", "warning"]) == 0
    assert main(["validate", "--root", CLEAN]) == 0
    assert "the bank is clean" in capsys.readouterr().out
    with pytest.raises(SystemExit) as usage:
        main(["validate", "--root", REFERENCE, "--rule", "no-such-rule"])
    assert usage.value.code == 2


def test_text_lists_findings_then_counts_and_summary_only_counts(capsys):
    main(["validate", "--root", REFERENCE])
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("ERROR   invalid-frontmatter") and "broken/bad-yaml.md:5" in out
    assert "total: 5 (3 errors, 2 warnings)" in out
    main(["validate", "--root", REFERENCE, "--summary"])
    summary = capsys.readouterr().out
    assert "broken/bad-yaml.md" not in summary and "ssot-conflict: 1" in summary


def test_json_format(capsys):
    main(["validate", "--root", REFERENCE, "--format", "json", "--scope", "engineering"])
    data = json.loads(capsys.readouterr().out)
    assert (
        data["total"] == 1 and data["findings"][0]["rule"] == "broken-derived-from" and data["findings"][0]["line"] == 8
    )


def test_github_annotations_are_chosen_under_actions(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(FIXTURES.parent.parent.parent))
    main(["validate", "--root", REFERENCE])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "::error file=tests/fixtures/banks/reference/broken/bad-yaml.md,line=5,title=memorybank invalid-frontmatter::"
        "YAML frontmatter does not parse (mapping values are not allowed in this context). Values were "
        'recovered leniently; quote any value containing ": " (memorybank set-field with the value it has quotes '
        "it)."
    )
    assert any(line.startswith("::warning file=tests/fixtures/banks/reference/orphan.md,title=") for line in lines)
    main(["validate", "--root", REFERENCE, "--format", "text"])
    assert capsys.readouterr().out.startswith("ERROR")


def test_sarif_is_valid_and_uses_stable_rule_ids(capsys):
    main(["validate", "--root", REFERENCE, "--format", "sarif"])
    log = json.loads(capsys.readouterr().out)
    jsonschema.validate(log, SARIF_SUBSET)
    run = log["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert (
        ids[:3] == ["unreadable", "not-utf8", "invalid-frontmatter"]
        and "broken-link" in ids
        and len(ids) == len(set(ids))
    )
    results = run["results"]
    assert [r["ruleId"] for r in results][:2] == ["invalid-frontmatter", "broken-derived-from"]
    assert all(ids[r["ruleIndex"]] == r["ruleId"] for r in results)
    assert results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "reference/engineering/architecture.md"
    )


@pytest.mark.parametrize("root", REAL_BANKS, ids=real_bank_ids())
def test_validate_runs_on_every_real_bank(root, capsys):
    code = main(["validate", "--root", str(root), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == (1 if data["errors"] else 0)


def test_every_sarif_result_has_a_region_even_for_a_whole_file_finding(capsys):
    import json

    main(["validate", "--root", str(FIXTURES / "reference"), "--format", "sarif"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert results and all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1 for r in results)


SARIF_SCHEMA = FIXTURES.parent / "sarif" / "sarif-schema-2.1.0.json"
"""The OASIS SARIF 2.1.0 schema (errata01, the file its ``id`` names), kept here so the check
needs no network."""


@pytest.mark.parametrize("root", [REFERENCE, CLEAN], ids=["findings", "clean"])
def test_sarif_is_valid_against_the_full_2_1_0_schema(root, capsys):
    main(["validate", "--root", root, "--format", "sarif"])
    log = json.loads(capsys.readouterr().out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]
    assert errors == []
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] = "fatal"
    assert not validator.is_valid(broken), "the schema check must be able to fail"


def test_sarif_rules_carry_their_help_and_name_no_url(capsys):
    """No help URI or information URI (there is no page to point at): each rule brings its help in
    the log, a paragraph per part, and a friendly name only where it differs from the id."""
    main(["validate", "--root", REFERENCE, "--format", "sarif"])
    driver = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    for rule in driver["rules"]:
        assert "helpUri" not in rule
        assert rule["fullDescription"]["text"] and "\n" not in rule["fullDescription"]["text"]
        assert rule["help"]["text"].startswith(rule["fullDescription"]["text"]) and "\nFix: " in rule["help"]["text"]
        assert "\n\n**Fix:** " in rule["help"]["markdown"]
        assert rule.get("name", "").lower() != rule["id"].lower()
    names = {rule["id"]: rule.get("name") for rule in driver["rules"]}
    assert names["broken-link"] == "BrokenLink" and names["unreadable"] is None
    helps = {rule["id"]: rule["help"]["markdown"] for rule in driver["rules"]}
    assert "**Example:** `derived_from: [../missing/nowhere.md]`." in helps["broken-derived-from"]
    assert "`` | where are the filter thresholds | `domain/rules.md` | ``" in helps["route-check-failed"]


def test_annotations_name_files_from_the_work_tree_top_wherever_validate_runs(capsys, monkeypatch, tmp_path):
    """A CI job with a working-directory: GitHub resolves annotation paths from the repository's top."""
    shutil.copytree(Path(REFERENCE), tmp_path / "docs" / "memory_bank")
    (tmp_path / ".git").mkdir()
    deep = tmp_path / "src" / "deep"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    main(["validate", "--root", str(tmp_path / "docs" / "memory_bank"), "--format", "github"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("::error file=docs/memory_bank/broken/bad-yaml.md,line=5,")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    main(["validate", "--root", str(tmp_path / "docs" / "memory_bank"), "--summary"])
    summary = capsys.readouterr().out
    assert "::error" not in summary and "total: 5 (3 errors, 2 warnings)" in summary


def test_an_odd_file_name_is_a_valid_uri_reference_in_sarif(tmp_path, capsys):
    """SARIF locations are URI references: "a,b c%25.md" must read back as that file, not "a,b c%.md"."""
    root = tmp_path / "memory_bank"
    shutil.copytree(REFERENCE, root)
    (root / "domain" / "a,b c%25.md").write_text("---\ntitle: Odd\n---\n# Odd\n", encoding="utf-8")
    main(["validate", "--root", str(root), "--format", "sarif"])
    uris = [
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in json.loads(capsys.readouterr().out)["runs"][0]["results"]
        for location in result["locations"]
    ]
    odd = [uri for uri in uris if "a%2Cb" in uri or "a,b" in uri]
    assert odd and all(uri.endswith("domain/a%2Cb%20c%2525.md") for uri in odd)
    assert all(unquote(uri).endswith("domain/a,b c%25.md") for uri in odd)


def test_a_filtered_run_that_finds_nothing_does_not_call_the_bank_clean(capsys):
    assert main(["validate", "--root", REFERENCE, "--rule", "no-contract"]) == 0
    out = capsys.readouterr().out
    assert "the bank is clean" not in out and "not the whole bank" in out


def test_a_scope_given_twice_is_a_usage_error_not_the_last_one_silently(capsys):
    with pytest.raises(SystemExit) as done:
        main(["validate", "--scope", "adr", "--scope", "ops", "--root", REFERENCE])
    assert done.value.code == 2 and "--scope takes one value" in capsys.readouterr().err


def test_text_paths_open_from_the_working_directory(tmp_path):
    """A pre-commit hook runs at the repository's top: ``memory_bank/domain/a.md:5`` opens from
    there, ``domain/a.md:5`` does not."""
    import subprocess
    import sys

    shutil.copytree(FIXTURES / "rules" / "invalid-frontmatter" / "fires", tmp_path / "memory_bank")
    command = [sys.executable, "-m", "memorybank", "validate"]
    top = subprocess.run([*command, "--root", "memory_bank"], cwd=tmp_path, capture_output=True, text=True)
    assert top.returncode == 1 and "memory_bank/domain/a.md:5  YAML" in top.stdout
    inside = subprocess.run(command, cwd=tmp_path / "memory_bank", capture_output=True, text=True)
    assert " domain/a.md:5  YAML" in inside.stdout


def test_summary_gives_counts_in_json_and_is_refused_with_a_format_made_of_findings(capsys):
    assert main(["validate", "--json", "--summary", "--root", REFERENCE]) == 1  # errors still fail
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == [] and report["errors"] >= 1 and report["by_rule"]
    assert main(["validate", "--format", "sarif", "--summary", "--root", REFERENCE]) == 2
    assert "--summary gives counts" in capsys.readouterr().err


def test_files_are_read_from_the_working_directory_or_the_bank_and_others_are_named_not_checked(tmp_path):
    """What pre-commit passes (paths from the repository's top) and what a person types inside the
    bank name the same documents; a file of another bank is said to be left out, on stderr."""
    import subprocess
    import sys

    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    (tmp_path / "other.md").write_text("# elsewhere\n", encoding="utf-8")
    command = [sys.executable, "-m", "memorybank", "validate", "--root", "memory_bank"]
    top = subprocess.run([*command, "memory_bank/orphan.md", "other.md"], cwd=tmp_path, capture_output=True, text=True)
    assert top.returncode == 0, top.stderr  # a warning only
    assert "unregistered-doc" in top.stdout and "memory_bank/orphan.md" in top.stdout
    assert "broken-derived-from" not in top.stdout and "total: 1 (0 errors, 1 warning)" in top.stdout
    assert "not checked: other.md" in top.stderr
    inside = subprocess.run(
        [sys.executable, "-m", "memorybank", "validate", "engineering/architecture.md"],
        cwd=tmp_path / "memory_bank",
        capture_output=True,
        text=True,
    )
    assert inside.returncode == 1 and "broken-derived-from" in inside.stdout and "orphan" not in inside.stdout
    from_bank_root = subprocess.run([*command, "conflict.md"], cwd=tmp_path, capture_output=True, text=True)
    assert from_bank_root.returncode == 1 and "ssot-conflict" in from_bank_root.stdout


def test_a_folder_given_stands_for_its_files_and_a_path_to_nothing_is_a_usage_error(tmp_path, monkeypatch, capsys):
    """``validate memory_bank/engineering`` passed with an error in a file under it; a typo passed
    as a file with no findings. Both would let CI through."""
    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    monkeypatch.chdir(tmp_path)
    for folder in ("memory_bank/engineering", "memory_bank/engineering/", "engineering"):
        assert main(["validate", "--root", "memory_bank", folder]) == 1, folder
        out = capsys.readouterr().out
        assert "broken-derived-from" in out and "orphan" not in out
    assert main(["validate", "--root", "memory_bank", "memory_bank/adr"]) == 0
    assert "total: 0 where you asked" in capsys.readouterr().out
    assert main(["validate", "--root", "memory_bank", "memory_bank"]) == 1  # the root: every file
    out = capsys.readouterr().out
    assert "orphan" in out and "not the whole bank" not in out
    assert main(["validate", "--root", "memory_bank", "memory_bank/orphan.md", "nosuch.md"]) == 2
    assert "No such file: nosuch.md" in capsys.readouterr().err
