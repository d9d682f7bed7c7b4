"""Cold start, measured the way agents and hooks pay it: a fresh process each time.

    python -m tests.benchmarks.startup [--runs 7] [--docs 10000] [--no-real] [--code DIR]

For each bank (the demo, ``Arshev__apartus``, a synthetic bank of ``--docs`` documents):

- **mcp start -> tools/list**: from spawning ``memorybank mcp --root BANK`` with a real client (the
  SDK's ``Client`` over stdio) to its ``list_tools()`` answer, the handshake included; and the CPU
  the server process used over its whole life (it exits when the client leaves); and the time to
  the answer of a first ``bank_route`` (the bank indexed, from the parse cache when kept).
- **validate** and **hook stop**: wall and CPU of ``memorybank validate`` / ``memorybank hook stop``.

Each is measured **cold** (an empty cache directory every run: nothing kept from an earlier
process) and **cached** (the cache directory of the previous run kept). Figures are medians of
``--runs``; CPU is user + system of the child. Bytecode is written and used, as in an installed
package. ``--code DIR`` runs another checkout of the project (its ``core``, ``tui``, ``mcp_server``
imported instead of this one's) with the same interpreter, to compare with an earlier revision.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
APARTUS = PROJECT.parent / "shared" / "banks" / "Arshev__apartus" / "memory_bank"
COMMAND = str(Path(sys.executable).parent / "memorybank")

CLIENT = """
import json, sys, time
import anyio
from mcp import Client, StdioServerParameters

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["mcp", "--root", sys.argv[2]], env=json.loads(sys.argv[3]))
    started = time.perf_counter()
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        elapsed = time.perf_counter() - started
        routed = await client.call_tool("bank_route", {"question": "how do we deploy"})
        first_call = time.perf_counter() - started
    assert len(tools) >= 16 and not routed.is_error, tools
    print(elapsed, first_call)

anyio.run(main)
"""


LAUNCHER = """#!{python}
import sys
# An editable install maps core, tui and mcp_server to its own checkout: take it out of the way.
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, {code!r})
from memorybank.tui.cli import main
sys.exit(main())
"""


def launcher(code: Path) -> str:
    """An executable that runs the ``memorybank`` command of another checkout."""
    path = code / ".memorybank-bench"
    path.write_text(LAUNCHER.format(python=sys.executable, code=str(code.resolve())))
    path.chmod(0o755)
    return str(path)


def child_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["MEMORYBANK_CACHE_DIR"] = str(cache)
    return env


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


FIRST_CALL: list[float] = []
"""Seconds from spawning to the first ``bank_route`` answered, per run (the bank indexed by then)."""


def tools_list(root: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds to tools/list, CPU seconds of the client process tree minus the client's own)."""
    before = _cpu()
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, COMMAND, str(root), json.dumps(env)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    listed, routed = (float(x) for x in done.stdout.strip().splitlines()[-1].split())
    FIRST_CALL.append(routed)
    return listed, _cpu() - before


def command(argv: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, float]:
    before, started = _cpu(), time.perf_counter()
    subprocess.run([COMMAND, *argv], input=stdin, capture_output=True, text=True, env=env)
    return time.perf_counter() - started, _cpu() - before


def client_overhead(runs: int) -> float:
    """CPU of the client process alone (importing the SDK), subtracted from the tools/list CPU."""
    samples = []
    for _ in range(runs):
        before = _cpu()
        subprocess.run([sys.executable, "-c", "import anyio, mcp"], check=True)
        samples.append(_cpu() - before)
    return statistics.median(samples)


def measure(root: Path, runs: int, overhead: float) -> dict[str, str]:
    row: dict[str, str] = {}
    work = Path(tempfile.mkdtemp(prefix="memorybank-startup-"))
    hook_input = json.dumps({"session_id": "bench", "cwd": str(root.parent), "stop_hook_active": False})
    probes = {
        "mcp tools/list": lambda env: tools_list(root, env),
        "validate": lambda env: command(["validate", "--root", str(root)], env),
        "hook stop": lambda env: command(["hook", "stop"], {**env, "MEMORYBANK_ROOT": str(root)}, hook_input),
    }
    try:
        for name, probe in probes.items():
            for mode in ("cold", "cached"):
                walls, cpus = [], []
                cache = work / f"{name}-{mode}".replace(" ", "-").replace("/", "-")
                for number in range(runs + 1):
                    if mode == "cold" or number == 0:
                        shutil.rmtree(cache, ignore_errors=True)
                    wall, cpu = probe(child_env(cache))
                    if number == 0:
                        continue  # a warm-up run writes bytecode (and, for "cached", the cache)
                    walls.append(wall)
                    cpus.append(cpu - (overhead if name == "mcp tools/list" else 0.0))
                row[f"{name} {mode}"] = f"{statistics.median(walls):.2f}s / {statistics.median(cpus):.2f}cpu"
                if name == "mcp tools/list":
                    row[f"first route {mode}"] = f"{statistics.median(FIRST_CALL[-runs:]):.2f}s"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return row


def banks(docs: int, real: bool) -> list[tuple[str, Path]]:
    from memorybank.core.demo import build_demo

    from tests.benchmarks.generate import generate

    base = Path(tempfile.gettempdir())
    demo_dir = base / "memorybank-startup-demo"
    demo = demo_dir / "harbor" / "memory_bank"
    if not demo.is_dir():
        demo = build_demo(demo_dir)
    chosen = [("demo", demo)]
    if real and APARTUS.is_dir():
        chosen.append(("apartus", APARTUS))
    synthetic = base / f"memorybank-bench-{docs}"
    if not (synthetic / "README.md").exists():
        generate(synthetic, docs)
    chosen.append((f"synthetic-{docs}", synthetic))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description="Cold-start figures: mcp tools/list, validate, hook stop.")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--code", type=Path, help="another checkout of the project to measure")
    parser.add_argument("--only", help="measure one bank (demo, apartus, synthetic-N)")
    args = parser.parse_args()
    global COMMAND
    if args.code is not None:
        COMMAND = launcher(args.code)
    overhead = client_overhead(3)
    print(f"load average {os.getloadavg()[0]:.2f}; client-side CPU subtracted from tools/list: {overhead:.2f}s")
    rows = []
    for name, root in banks(args.docs, not args.no_real):
        if args.only and name != args.only:
            continue
        rows.append((name, measure(root, args.runs, overhead)))
        print(name, json.dumps(rows[-1][1]), flush=True)
    from tests.benchmarks.run import table

    print()
    print(table(rows))
    print("\nwall seconds / CPU seconds (user+sys), medians; cold = empty cache directory each run")


if __name__ == "__main__":
    main()
