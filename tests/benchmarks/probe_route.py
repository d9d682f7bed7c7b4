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


def _per_query_ms(run, queries: tuple[str, ...], rounds: int = 3) -> float:
    for query in queries:  # warm: indexes built, caches filled
        run(query)
    samples = []
    for _ in range(rounds):
        for query in queries:
            started = time.perf_counter()
            run(query)
            samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 2)


def index_build(bank: Bank) -> dict[str, object]:
    started = time.perf_counter()
    BodyIndex().sync(bank)
    return {"search_index_ms": round((time.perf_counter() - started) * 1000, 1)}


def route_warm(bank: Bank) -> dict[str, object]:
    return {"route_ms": _per_query_ms(lambda q: route(bank, q), QUESTIONS)}


def search_warm(bank: Bank) -> dict[str, object]:
    return {"search_ms": _per_query_ms(lambda q: search(bank, q), QUESTIONS)}


PROBES = [("search_index_ms", index_build), ("route_ms", route_warm), ("search_ms", search_warm)]
