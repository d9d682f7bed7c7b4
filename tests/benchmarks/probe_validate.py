"""Benchmark probe: full validation, cold (first run on a fresh index) and warm (cached, unchanged disk)."""

from __future__ import annotations

import time


def validation(bank) -> dict[str, object]:
    from memorybank.core.validate import validate

    started = time.perf_counter()
    report = validate(bank)
    cold = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    bank.refresh()
    validate(bank)
    warm = (time.perf_counter() - started) * 1000
    return {"validate_ms": round(cold, 1), "validate_warm_ms": round(warm, 1), "findings": report.total}


PROBES = [("validate", validation)]
