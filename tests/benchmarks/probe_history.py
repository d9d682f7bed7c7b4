"""Benchmarks for the graph walk and for drift against git.

``PROBES`` adds the graph figures to ``python -m tests.benchmarks.run``: a ``down`` walk with the
default depth and cap from the most depended-on document (``domain/topic-00001.md`` in the synthetic
banks), and the widest walk allowed (both ways, depth 6, cap 300).

Drift needs a git repository, which the banks of the table are not, so it is measured here:

    python -m tests.benchmarks.probe_history [--anchored 1000] [--commits 60]

builds (once, in the system temporary directory) a synthetic bank inside a git repository whose
documents each anchor a code file or directory, with a year of dated commits, and prints the time
of one drift check, of one age check (``drift --stale``) on the same repository, and of the graph
walk on the 10,000-document synthetic bank. ``--long-history 20000`` also builds (with ``git
fast-import``) a repository of that many commits over three years, 5,000 code files and a
400-document bank whose documents name some of them, and times the age check there with every
document stale since the first commit: the worst case, ``git log --numstat`` over the whole history.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.graph import walk_graph

HUB = "domain/topic-00001.md"


def _median_ms(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def hub_of(bank: Bank) -> str:
    """The generator's hub, or else the document with the most distinct dependents."""
    if HUB in bank.documents:
        return HUB
    return max(bank.documents, key=lambda p: (len(set(bank.incoming(p))), p))


def graph_probe(bank: Bank) -> dict[str, object]:
    hub = hub_of(bank)
    graph = walk_graph(bank, hub)
    return {
        "graph_hub_ms": round(_median_ms(lambda: walk_graph(bank, hub), 20), 2),
        "graph_nodes": f"{len(graph.nodes)}{'+' if graph.truncated else ''}",
        "graph_widest_ms": round(_median_ms(lambda: walk_graph(bank, hub, direction="both", depth=6, limit=300), 5), 2),
    }


PROBES = [("graph", graph_probe)]


# -- drift on a generated repository ---------------------------------------------------------------


def _git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def anchored_repository(anchored: int = 1000, commits: int = 60, seed: int = 11) -> Path:
    """A git repository holding ``memory_bank/`` with ``anchored`` documents declaring ``anchors:``.

    Each anchored document names its module's directory or its main file; the history spans 2026,
    each commit touching a random handful of modules and, now and then, their documents.
    """
    from tests.benchmarks.generate import generate

    repo = Path(tempfile.gettempdir()) / f"memorybank-drift-{anchored}-{commits}"
    bank_root = repo / "memory_bank"
    if (repo / ".git").is_dir() and (repo / ".complete").exists():
        return bank_root
    rng = random.Random(seed)
    generate(bank_root, anchored + 120)
    candidates = sorted(p for p in bank_root.rglob("*.md") if p.name != "README.md" and "dna" not in p.parts)
    modules: list[tuple[Path, str]] = []
    for index, path in enumerate(candidates[:anchored]):
        module = f"src/mod{index:04d}"
        anchor = module if index % 3 == 0 else f"{module}/main.py"
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("\nstatus: ", f"\nanchors:\n  - {anchor}\nstatus: ", 1), encoding="utf-8")
        for name in ("main.py", "util.py"):
            target = repo / module / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"# {module}/{name}\n", encoding="utf-8")
        modules.append((path, module))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Import", date="2026-01-01T09:00:00+00:00")
    for number in range(1, commits + 1):
        day = 1 + number * 360 // (commits + 1)
        for doc, module in rng.sample(modules, 40):
            code = repo / module / rng.choice(("main.py", "util.py"))
            code.write_text(code.read_text(encoding="utf-8") + f"# change {number}\n", encoding="utf-8")
            if rng.random() < 0.2:
                doc.write_text(doc.read_text(encoding="utf-8") + f"\nRevised in change {number}.\n", encoding="utf-8")
        _git(repo, "add", "-A")
        month, mday = 1 + (day - 1) // 30, 1 + (day - 1) % 30
        date = f"2026-{min(month, 12):02d}-{min(mday, 28):02d}T09:00:00+00:00"
        _git(repo, "commit", "-q", "-m", f"Change {number}", date=date)
    (repo / ".complete").write_text("")
    return bank_root


def drift_figures(anchored: int = 1000, commits: int = 60) -> dict[str, object]:
    from memorybank.core.drift import check_drift

    root = anchored_repository(anchored, commits)
    bank = Bank.open(root)
    started = time.perf_counter()
    drift = check_drift(bank, threshold_days=0)
    first = (time.perf_counter() - started) * 1000
    return {
        "anchored": drift.anchored,
        "pairs_drifted": len(drift.drifted),
        "drift_first_ms": round(first, 1),
        "drift_ms": round(_median_ms(lambda: check_drift(bank, threshold_days=0), 5), 1),
    }


def stale_figures(root: Path, now: str) -> dict[str, object]:
    from memorybank.core import clock
    from memorybank.core.staleness import find_stale

    bank = Bank.open(root)
    len(bank)
    with clock.pinned(now):
        started = time.perf_counter()
        found = find_stale(bank, days=0)
        first = (time.perf_counter() - started) * 1000
        again = _median_ms(lambda: find_stale(bank, days=0), 3)
    return {
        "live": found.live,
        "stale": len(found.stale),
        "stale_first_ms": round(first, 1),
        "stale_ms": round(again, 1),
    }


def long_history(commits: int, seed: int = 3) -> Path:
    """A repository of ``commits`` commits over three years (built once with ``git fast-import``)."""
    repo = Path(tempfile.gettempdir()) / f"memorybank-age-{commits}"
    if (repo / ".complete").exists():
        return repo / "memory_bank"
    rng = random.Random(seed)
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "-q")
    files = [f"src/mod{i % 50}/sub{i % 7}/file{i}.py" for i in range(5000)]

    def entry(path: str, text: str) -> bytes:
        data = text.encode()
        return b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data)

    stream = bytearray()
    for number in range(commits):
        when = 1640995200 + number * (3 * 365 * 86400 // commits)
        stream += b"commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\n" % when
        stream += b"data %d\nc%d\n" % (len(str(number)) + 1, number)
        if number == 0:
            for i in range(400):
                body = f"---\ntitle: Doc {i}\nstatus: active\n---\n# Doc {i}\n\n`{files[i * 7 % 5000]}`, src/mod{i % 50}/\n"
                stream += entry(f"memory_bank/area{i % 10}/doc{i}.md", body)
            stream += b"".join(entry(path, "x\n") for path in files)
        else:
            for path in rng.sample(files, rng.randint(1, 6)):
                stream += entry(path, "x\n" * rng.randint(1, 200) + str(number))
        stream += b"\n"
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=bytes(stream), check=True)
    _git(repo, "checkout", "-q", "main")
    (repo / ".complete").write_text("")
    return repo / "memory_bank"


def main() -> None:
    parser = argparse.ArgumentParser(description="Graph and drift timings.")
    parser.add_argument("--anchored", type=int, default=1000)
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--docs", type=int, default=10_000, help="size of the synthetic bank for the graph walk")
    parser.add_argument(
        "--long-history", type=int, metavar="COMMITS", help="also time the age check on this many commits"
    )
    args = parser.parse_args()
    from tests.benchmarks.run import synthetic

    bank = Bank.open(synthetic(args.docs))
    figures = {"docs": len(bank), **graph_probe(bank)}
    print(f"graph on synthetic-{args.docs}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    drift = drift_figures(args.anchored, args.commits)
    print(
        f"drift on a repository with {args.anchored} anchored documents and {args.commits + 1} commits: "
        + ", ".join(f"{k} {v}" for k, v in drift.items())
    )
    stale = stale_figures(anchored_repository(args.anchored, args.commits), "2027-01-01T00:00:00Z")
    print("age (drift --stale, 0 days) on the same repository: " + ", ".join(f"{k} {v}" for k, v in stale.items()))
    if args.long_history:
        stale = stale_figures(long_history(args.long_history), "2025-01-15T00:00:00Z")
        print(
            f"age on {args.long_history} commits, 400 documents stale since the first: "
            + ", ".join(f"{k} {v}" for k, v in stale.items())
        )
    print(
        "bars: graph on the 10,000-document hub < 50 ms with the cap honoured; "
        "drift with 1,000 anchored documents < 5 s"
    )


if __name__ == "__main__":
    main()
