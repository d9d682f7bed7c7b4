"""The performance table of SPEC section 11, measured on synthetic banks and the real banks.

    python -m tests.benchmarks.run [--sizes 368,1000,10000] [--no-real] [--only NAME]

Each bank is measured in a fresh child process, so import costs, caches and peak memory of one
measurement never leak into another. Synthetic banks are generated once into the system temporary
directory and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
REAL = sorted((PROJECT.parent / "shared" / "banks").glob("*/memory_bank"))


def _median_ms(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def peak_mb() -> float:
    """Peak resident memory of this process. /proc's VmHWM is reset by exec; ru_maxrss is not."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(root: str) -> dict[str, object]:
    """Runs inside the child: every figure for one bank."""
    base_rss = peak_mb()
    from memorybank.core.bank import Bank

    bank = Bank(root)
    started = time.perf_counter()
    bank.refresh()
    cold = (time.perf_counter() - started) * 1000
    figures: dict[str, object] = {"docs": len(bank), "cold_ms": round(cold, 1)}
    figures["recheck_ms"] = round(_median_ms(bank.refresh, 30), 2)
    figures["index_mb"] = round(peak_mb() - base_rss, 1)
    for name, probe in extra_probes():
        try:
            figures.update(probe(bank))
        except Exception as error:  # a probe for a feature not built yet
            figures[name] = f"n/a ({error.__class__.__name__})"
    figures["peak_mb"] = round(peak_mb(), 1)
    return figures


def extra_probes() -> list[tuple[str, object]]:
    """``PROBES`` of every ``tests/benchmarks/probe_*.py``: (name, function(bank) -> figures)."""
    import importlib

    probes: list[tuple[str, object]] = []
    for path in sorted(Path(__file__).parent.glob("probe_*.py")):
        module = importlib.import_module(f"tests.benchmarks.{path.stem}")
        probes.extend(getattr(module, "PROBES", []))
    return probes


def synthetic(size: int) -> Path:
    root = Path(tempfile.gettempdir()) / f"memorybank-bench-{size}"
    if not (root / "README.md").exists():
        from tests.benchmarks.generate import generate

        generate(root, size)
    return root


def child(root: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.run", "--child", str(root)],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def table(rows: list[tuple[str, dict[str, object]]]) -> str:
    columns: list[str] = []
    for _, figures in rows:
        for key in figures:
            if key not in columns:
                columns.append(key)
    header = ["bank", *columns]
    body = [[name, *(str(figures.get(c, "")) for c in columns)] for name, figures in rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    return "\n".join([fmt(header), fmt(["-" * w for w in widths]), *map(fmt, body)])


BARS = """bars (SPEC 11): cold 368 <= 85 ms; re-check 368 <= 5 ms; cold 10,000 < 2,500 ms and < 300 MB;
route 10,000 < 30 ms; search 10,000 < 50 ms; validate 10,000 < 2,000 ms warm"""


def main() -> None:
    parser = argparse.ArgumentParser(description="Print the performance table of SPEC section 11.")
    parser.add_argument("--sizes", default="368,1000,10000")
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    rows = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        rows.append((f"synthetic-{size}", child(synthetic(size))))
    if not args.no_real:
        for root in REAL:
            rows.append((root.parent.name, child(root)))
    print(table(rows))
    print()
    print(BARS)


if __name__ == "__main__":
    main()
