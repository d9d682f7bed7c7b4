"""Realistic synthetic banks for benchmarks: a contract in dna/, knowledge, decisions, delivery
packages, section indexes that register everything, derived_from edges (some with fit, some
external, a few broken), a hub document, Russian and English prose, and a little invalid YAML.

    python -m tests.benchmarks.generate DEST --docs 10000 [--seed 7]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

WORDS = (
    "cache invalidation queue tenant scheduler retry backoff jitter threshold filter scoring rule "
    "invariant migration schema index route search graph drift anchor commit release deploy rollout "
    "latency budget token session owner contract template section registry feature epic decision "
    "gateway parser tokenizer stemming locale payment invoice account profile upload storage bucket "
    "replica shard failover alert metric dashboard incident runbook onboarding permission role audit"
).split()
RUSSIAN = "порог фильтр очередь кеш развертывание решение требование документ проверка модель".split()

DNA_GOVERNANCE = """---
title: Governance
doc_kind: governance
doc_function: canonical
purpose: How ownership, the dependency tree and the value sets are enforced.
derived_from:
  - principles.md
status: active
---
# Governance

The root document is `principles.md`; it has no `derived_from`. Every `active` non-root document
must define `derived_from`. Cyclic dependencies are forbidden.

| Field | Values |
|-|-|
| `doc_kind` | `governance`, `product`, `domain`, `engineering`, `ops`, `adr`, `feature`, `epic` |
| `doc_function` | `canonical`, `index`, `template`, `reference` |

| Directory | Layer | Weight |
|-|-|-|
| dna | dna | 1.0 |
| product | knowledge | 1.5 |
| domain | knowledge | 1.5 |
| engineering | knowledge | 1.5 |
| ops | knowledge | 1.5 |
| adr | decision | 1.2 |
| features | delivery | 0.6 |
| epics | delivery | 0.6 |
"""

DNA_FRONTMATTER = """---
title: Frontmatter Schema
doc_kind: governance
doc_function: canonical
purpose: The fields every document carries and the values they take.
derived_from:
  - governance.md
canonical_for:
  - frontmatter_schema
status: active
---
# Frontmatter Schema

| Field | Type | Values |
|-|-|-|
| `status` | enum | `draft` / `active` / `archived` |
| `delivery_status` | enum | `planned` / `in_progress` / `done` / `cancelled` |
| `decision_status` | enum | `proposed` / `accepted` / `superseded` / `rejected` |
"""


def sentence(rng: random.Random, words: int) -> str:
    chosen = [rng.choice(WORDS) for _ in range(words)]
    if rng.random() < 0.15:
        chosen.insert(rng.randrange(len(chosen)), rng.choice(RUSSIAN))
    return " ".join(chosen).capitalize() + "."


def body(rng: random.Random, title: str, sections: int) -> str:
    parts = [f"# {title}", "", sentence(rng, 14), ""]
    for _ in range(sections):
        parts += [f"## {sentence(rng, 3)[:-1].title()}", ""]
        for _ in range(rng.randint(1, 3)):
            parts += [sentence(rng, rng.randint(10, 30)), ""]
        if rng.random() < 0.2:
            parts += ["```yaml", "key: value", "## not a heading", "```", ""]
    return "\n".join(parts)


def frontmatter(fields: dict[str, object]) -> str:
    lines = ["---"]
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            for item in value:
                if isinstance(item, dict):
                    lines.append(f"  - path: {item['path']}")
                    lines.append(f"    fit: {item['fit']}")
                else:
                    lines.append(f"  - {item}")
        else:
            lines.append(f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def generate(dest: Path, docs: int, seed: int = 7) -> Path:
    """Write a bank of about ``docs`` documents under ``dest`` and return its root."""
    rng = random.Random(seed)
    root = dest
    files: dict[str, str] = {}
    files["dna/principles.md"] = (
        frontmatter(
            {
                "title": "Principles",
                "doc_kind": "governance",
                "doc_function": "canonical",
                "purpose": "The root of the dependency tree.",
                "status": "active",
            }
        )
        + "# Principles\n\n1. One fact, one owner.\n"
    )
    files["dna/governance.md"] = DNA_GOVERNANCE
    files["dna/frontmatter.md"] = DNA_FRONTMATTER
    files["dna/README.md"] = (
        frontmatter(
            {
                "title": "DNA",
                "doc_kind": "governance",
                "doc_function": "index",
                "purpose": "Entry to the governance documents.",
                "derived_from": ["principles.md"],
                "status": "active",
            }
        )
        + "# DNA\n\n- [Principles](principles.md)\n- [Governance](governance.md)\n- [Frontmatter](frontmatter.md)\n"
    )
    knowledge_dirs = ["product", "domain", "engineering", "ops"]
    remaining = max(docs - len(files) - 7, 10)
    plan: list[tuple[str, str]] = []
    knowledge = remaining * 30 // 100
    decisions = remaining * 10 // 100
    features = (remaining - knowledge - decisions) // 2
    for index in range(knowledge):
        plan.append((knowledge_dirs[index % 4], f"{knowledge_dirs[index % 4]}/topic-{index:05d}.md"))
    for index in range(decisions):
        plan.append(("adr", f"adr/ADR-{index:05d}-choice.md"))
    for index in range(features):
        plan.append(("features", f"features/FT-{index:05d}/brief.md"))
        plan.append(("features", f"features/FT-{index:05d}/design.md"))
    for index in range(knowledge, knowledge + remaining - len(plan)):
        plan.append((knowledge_dirs[index % 4], f"{knowledge_dirs[index % 4]}/topic-{index:05d}.md"))
    hub = "domain/topic-00001.md"
    knowledge_paths = [p for d, p in plan if d in knowledge_dirs]
    registries: dict[str, list[tuple[str, str, str]]] = {}
    for position, (section, path) in enumerate(plan):
        title = sentence(rng, 3)[:-1].title()
        purpose = sentence(rng, 10)[:-1]
        kind = {"adr": "adr", "features": "feature"}.get(section, section)
        depth = path.count("/")
        up = "../" * depth
        derived: list[object] = []
        if section in knowledge_dirs:
            derived.append(f"{up}dna/governance.md")
            if path != hub and rng.random() < 0.5:
                derived.append(f"{up}{hub}")
            if knowledge_paths and rng.random() < 0.4:
                other = rng.choice(knowledge_paths)
                if other != path and other < path:
                    derived.append(f"{up}{other}")
        elif section == "adr":
            derived.append(f"{up}{rng.choice(knowledge_paths)}")
        else:
            derived.append({"path": f"{up}{rng.choice(knowledge_paths)}", "fit": "Only the part this feature reuses."})
            if path.endswith("design.md"):
                derived.append("brief.md")
        if rng.random() < 0.01:
            derived.append(f"{up}../outside/upstream.md")
        if rng.random() < 0.005:
            derived.append(f"{up}missing/nowhere.md")
        fields: dict[str, object] = {
            "title": title,
            "doc_kind": kind,
            "doc_function": "canonical",
            "purpose": purpose,
            "derived_from": derived,
            "status": rng.choice(["active"] * 8 + ["draft", "archived"]),
        }
        if section in knowledge_dirs and rng.random() < 0.4:
            fields["canonical_for"] = [f"{section}_fact_{position:05d}"]
        if section == "features" and path.endswith("brief.md"):
            fields["delivery_status"] = rng.choice(["planned", "in_progress", "done"])
        if section == "adr":
            fields["decision_status"] = "accepted"
        text = frontmatter(fields) + body(rng, title, rng.randint(2, 6))
        if rng.random() < 0.01:
            text = text.replace(f"purpose: {purpose}", f"purpose: Note: {purpose}", 1)
        files[path] = text
        registry = section if section != "features" else "features"
        registries.setdefault(registry, []).append((title, path, purpose))
    root_links = []
    for section, entries in registries.items():
        lines = [f"# {section.title()} Registry", "", "| Document | When to read |", "|-|-|"]
        for title, path, purpose in entries:
            rel = path[len(section) + 1 :]
            lines.append(f"| [{title}]({rel}) | {purpose} |")
        files[f"{section}/README.md"] = (
            frontmatter(
                {
                    "title": f"{section.title()} Registry",
                    "doc_kind": "governance",
                    "doc_function": "index",
                    "purpose": f"Registry of {section}.",
                    "derived_from": ["../dna/governance.md"],
                    "status": "active",
                }
            )
            + "\n".join(lines)
            + "\n"
        )
        root_links.append(f"- [{section}]({section}/README.md)")
    files["README.md"] = (
        frontmatter(
            {
                "title": "Bench Bank",
                "doc_kind": "governance",
                "doc_function": "index",
                "purpose": "Entry point of the benchmark bank.",
                "derived_from": ["dna/governance.md"],
                "status": "active",
            }
        )
        + "# Bench Bank\n\n- [DNA](dna/README.md)\n"
        + "\n".join(root_links)
        + "\n"
    )
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--docs", type=int, default=368)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    root = generate(args.dest, args.docs, args.seed)
    print(f"{sum(1 for _ in root.rglob('*.md'))} documents in {root}")


if __name__ == "__main__":
    main()
