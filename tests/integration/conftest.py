"""A project to wire agents into: a seeded bank in a git repository."""

from __future__ import annotations

import pytest
from memorybank.core.init import init

from tests.conftest import git


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    init(root / "memory_bank", name="Wired")
    git(root, "init", "-q")
    return root
