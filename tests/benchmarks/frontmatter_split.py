"""Reading frontmatter over the real banks: python-frontmatter against our reader.

    python -m tests.benchmarks.frontmatter_split

Both read every ``*.md`` of ``../shared/banks/``; the table gives CPU seconds (user + sys, the
firm figure on a shared machine), files each could not read (the library raises on invalid YAML,
where we recover line by line and report), and files where the metadata of both differs.
"""

from __future__ import annotations

import os
from pathlib import Path

import frontmatter
from memorybank.core.frontmatter import parse_frontmatter
from memorybank.core.parse import decode, parse_document, split_frontmatter

BANKS = Path(__file__).resolve().parents[3] / "shared" / "banks"


def cpu() -> float:
    times = os.times()
    return times.user + times.system


def main() -> None:
    files = sorted(p for p in BANKS.glob("*/memory_bank/**/*.md") if p.is_file())
    data = [p.read_bytes() for p in files]
    start = cpu()
    ours = [parse_document(p.name, d)[0].frontmatter for p, d in zip(files, data)]
    whole_cpu = cpu() - start
    start = cpu()
    for d in data:
        split = split_frontmatter(decode(d)[0])
        if split.closed:
            parse_frontmatter(split.yaml_text)
    our_cpu = cpu() - start
    start, failed, theirs = cpu(), 0, []
    for d in data:
        try:
            theirs.append(dict(frontmatter.loads(d.decode("utf-8", errors="replace")).metadata))
        except Exception:
            failed += 1
            theirs.append(None)
    lib_cpu = cpu() - start
    differ = sum(1 for a, b in zip(ours, theirs) if b is not None and a != b)
    print(f"{len(files)} files of {len(list(BANKS.glob('*/memory_bank')))} banks")
    print(f"{'reader':22} {'cpu s':>7} {'unreadable':>10} {'metadata differs':>17}")
    print(f"{'ours: split + YAML':22} {our_cpu:7.2f} {0:>10} {'-':>17}")
    print(f"{'ours: whole document':22} {whole_cpu:7.2f} {0:>10} {'-':>17}   (sections, links, recovery too)")
    print(f"{'python-frontmatter':22} {lib_cpu:7.2f} {failed:>10} {differ:>17}")


if __name__ == "__main__":
    main()
