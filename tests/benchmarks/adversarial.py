"""Reading hostile documents: a 50 MB set written to make a reader quadratic or explode.

    python -m tests.benchmarks.adversarial [--megabytes 50]

Ten kinds of document, repeated until the set reaches the size asked for: headings padded with
tens of thousands of spaces, the same run inside a frontmatter value YAML rejects, twenty thousand
headings, YAML alias bombs, lines of nothing but backticks or brackets, one enormous line, deep
lists. Prints the CPU seconds (user + sys) of a cold index and a full validation of the set.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.validate import validate

SPACES = " " * 50_000
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9)
)
KINDS = {
    "wide-heading": "---\ntitle: W\n---\n# W\n\n" + f"## x{SPACES}y\n\ntext\n" * 20,
    "wide-purpose": f"---\ntitle: P\npurpose: read this: when{SPACES}y\n---\n# P\n",
    "many-headings": "---\ntitle: M\n---\n# M\n\n" + "## Heading\n\nx\n\n" * 20_000,
    "alias-bomb": f"---\ntitle: B\n{BOMB}---\n# B\n",
    "backticks": "# T\n\n" + ("`" * 5_000 + "\n") * 40,
    "brackets": "# K\n\n" + ("[" * 5_000 + "](" * 2_000 + "\n") * 40,
    "one-line": "# O\n\n" + "word " * 400_000 + "\n",
    "deep-list": "---\ntitle: D\nderived_from:\n" + "  - ../x.md\n" * 20_000 + "---\n# D\n",
    "links": "# L\n\n" + "[a](b.md) " * 100_000 + "\n",
    "fences": "# F\n\n" + "```\n## not a heading\n" * 20_000,
}


def cpu() -> float:
    times = os.times()
    return times.user + times.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=50)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memorybank-hostile-")) / "memory_bank"
    init(root, name="Hostile")
    written, number = 0, 0
    while written < args.megabytes * 1_000_000:
        for kind, text in KINDS.items():
            path = root / "domain" / f"{kind}-{number}.md"
            path.write_text(text, encoding="utf-8")
            written += len(text.encode("utf-8"))
        number += 1
    files = len(list(root.rglob("*.md")))
    start_cpu, start = cpu(), time.perf_counter()
    bank = Bank.open(root, cache=False)
    index_cpu, index_wall = cpu() - start_cpu, time.perf_counter() - start
    start_cpu, start = cpu(), time.perf_counter()
    report = validate(bank)
    check_cpu, check_wall = cpu() - start_cpu, time.perf_counter() - start
    print(f"{written / 1e6:.0f} MB in {files} files")
    print(f"cold index   {index_cpu:6.2f} CPU s  {index_wall:6.2f} s wall")
    print(f"validation   {check_cpu:6.2f} CPU s  {check_wall:6.2f} s wall  ({report.total} findings)")


if __name__ == "__main__":
    main()
