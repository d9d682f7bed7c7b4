"""Benchmark probes for routing and search: warm per-query times and the search index build."""

from __future__ import annotations

import statistics
import time

from memorybank.core.bank import Bank
from memorybank.core.route import route
from memorybank.core.search import BodyIndex, search

QUESTIONS = (
    "where are the cache invalidation rules",
    "why one shared queue instead of per-tenant queues",
    "retry backoff jitter for the scheduler",
    "где пороги фильтрации",
    "deployment rollout runbook",
    "почему выбрана эта очередь",
    "payment invoice account",
    "how is the search index tokenizer stemming done",
)


def _per_query_ms(run, queries: tuple[str, ...], rounds: int = 3) -> tuple[float, float]:
    """Median wall and CPU milliseconds per query, warm. On a shared machine the wall time also
    holds the time other processes took the core; the CPU time is this process's own."""
    for query in queries:  # warm: indexes built, caches filled
        run(query)
    wall, cpu = [], []
    for _ in range(rounds):
        for query in queries:
            started, used = time.perf_counter(), time.process_time()
            run(query)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
    return round(statistics.median(wall), 2), round(statistics.median(cpu), 2)


def index_build(bank: Bank) -> dict[str, object]:
    started = time.perf_counter()
    BodyIndex().sync(bank)
    return {"search_index_ms": round((time.perf_counter() - started) * 1000, 1)}


def route_warm(bank: Bank) -> dict[str, object]:
    wall, cpu = _per_query_ms(lambda q: route(bank, q), QUESTIONS)
    return {"route_ms": wall, "route_cpu_ms": cpu}


def search_warm(bank: Bank) -> dict[str, object]:
    wall, cpu = _per_query_ms(lambda q: search(bank, q), QUESTIONS)
    return {"search_ms": wall, "search_cpu_ms": cpu}


PROBES = [("search_index_ms", index_build), ("route_ms", route_warm), ("search_ms", search_warm)]
