"""Fixtures for the workbench tests: the demo bank, deterministic rendering, and waiting for workers.

Every test drives a real app with Pilot. Nothing sleeps to wait for a result: ``settle`` awaits
the app's workers and lets the messages they posted be handled, until nothing is left running.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import time
from pathlib import Path

import pytest
import textual.constants
from memorybank.core.demo import build_demo
from memorybank.tui.typed_ahead import handing_over
from rich.console import Console
from textual.widgets import Input, TextArea
from textual.worker import WorkerCancelled, WorkerFailed

from tests.conftest import FIXTURES

SIZE = (80, 24)
"""The smallest terminal the workbench must fit; snapshots are taken at it."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blinking cursor makes two screenshots of the same screen differ."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sliding tab underline caught half-way differs between runs, and waiting for it is slow."""
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def private_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The workbench remembers its theme, last pane and split in the user's config directory; each
    test gets its own, so no test reads what another (or the person running them) chose."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    return config


@pytest.fixture(autouse=True)
def no_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)


@pytest.fixture(scope="session")
def demo_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo bank, built once per session (its git history is the same on every machine)."""
    return build_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def demo_bank(demo_source: Path, tmp_path: Path) -> Path:
    """A private copy of the demo repository, for tests that write."""
    repo = demo_source.parent
    shutil.copytree(repo, tmp_path / repo.name, symlinks=True)
    return tmp_path / repo.name / demo_source.name


@pytest.fixture
def reference_bank(tmp_path: Path) -> Path:
    """A copy of the reference fixture bank: broken and external edges, a conflict, no git."""
    target = tmp_path / "reference"
    shutil.copytree(FIXTURES / "reference", target)
    return target


async def workers_done(app) -> None:
    """Await every worker of the app, cancelled ones (a newer request replaced them) included; the
    file watcher, which runs as long as the app, is not waited for."""
    for worker in [w for w in app.workers if w.group != "watch"]:
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await worker.wait()


async def settle(pilot, rounds: int = 2) -> None:
    """Let workers finish and the messages they posted be handled (never a sleep), the workbench's
    first pane made and handed the keys typed before it (every one of them) included."""
    deadline = time.monotonic() + 20.0
    while time.monotonic() < deadline and handing_over(pilot.app):
        await pilot.pause()
    for _ in range(rounds):
        await workers_done(pilot.app)
        await pilot.pause()


async def until(pilot, condition, seconds: float = 20.0) -> bool:
    """Settle until ``condition`` holds, or ``seconds`` pass (each round awaits every worker;
    nothing sleeps). For what happens after a pane made on first use is mounted: how many rounds
    that takes depends on how loaded the machine is, so the bound is time, and generous."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await settle(pilot, rounds=1)
    return True


class Notes:
    """The notifications an app raised, captured (``run_test`` does not display them)."""

    def __init__(self, app, monkeypatch: pytest.MonkeyPatch) -> None:
        self.messages: list[tuple[str, str]] = []
        original = app.notify

        def notify(message, *args, **kwargs):
            self.messages.append((str(message), kwargs.get("severity", "information")))
            return original(message, *args, **kwargs)

        monkeypatch.setattr(app, "notify", notify)

    def errors(self) -> list[str]:
        return [m for m, severity in self.messages if severity == "error"]


def screen_text(app) -> list[str]:
    """The screen as plain text, one string per row: what a person would read at this size."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().splitlines()


def write_doc(bank: Path, path: str, front: str, body: str) -> None:
    """A document at ``path`` in ``bank``, with ``front`` as its frontmatter's YAML."""
    target = bank / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")
