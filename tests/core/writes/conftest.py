"""Banks to write into: a copy of the reference fixture, and a freshly seeded bank."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.init import init


@pytest.fixture
def fixture_copy(fixture_bank) -> Bank:
    return Bank.open(fixture_bank())


@pytest.fixture
def seeded(tmp_path) -> Bank:
    root = tmp_path / "memory_bank"
    init(root, name="ebook_parser")
    return Bank.open(root)
