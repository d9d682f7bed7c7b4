"""The welcome screen, shown when no bank was found: create one here, or open the demo."""

from __future__ import annotations

from pathlib import Path

from memorybank.tui.dialogs.name_prompt import NamePrompt
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, LoadingIndicator, Static

INTRO = (
    "A memory bank is a directory of governed markdown documents that a project's people and "
    "coding agents share: every fact has one owning document, documents say what they derive "
    "from, and indexes make everything reachable. None was found from here."
)


def shown_path(path: Path) -> str:
    """A path as a person would type it from here: relative when it is under the working directory."""
    try:
        return "./" + str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class WelcomeScreen(Screen[None]):
    """No bank yet: offer ``init`` (with a name) or the demo."""

    BINDINGS = [
        Binding("i", "init", "Create a bank"),
        Binding("d", "demo", "Open the demo"),
        Binding("q", "app.quit", "Quit"),
    ]

    class BankReady(Message):
        """A bank was created (or the demo built); the app opens it."""

        def __init__(self, root: Path | None, error: BaseException | None = None) -> None:
            super().__init__()
            self.root = root
            self.error = error

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        """Where ``init`` creates the bank."""

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="welcome"):
            yield Label("memorybank", id="welcome-title")
            yield Static(INTRO, id="welcome-intro")
            yield Button(f"Create a bank in {shown_path(self.root)}  (i)", id="init", variant="primary")
            yield Button("Open the demo bank  (d)", id="demo")
            yield LoadingIndicator(id="welcome-busy")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#welcome-busy").display = False
        self.query_one("#init", Button).focus()

    @on(Button.Pressed, "#init")
    def action_init(self) -> None:
        def named(name: str | None) -> None:
            if name:
                self._busy(True)
                self._create(name)

        self.app.push_screen(NamePrompt(shown_path(self.root)), named)

    @on(Button.Pressed, "#demo")
    def action_demo(self) -> None:
        self._busy(True)
        self._build_demo()

    def _busy(self, busy: bool) -> None:
        self.query_one("#welcome-busy").display = busy
        for button in self.query(Button):
            button.disabled = busy

    @work(thread=True, exclusive=True, exit_on_error=False, group="welcome")
    def _create(self, name: str) -> None:
        try:
            from memorybank.core.init import init  # only here: the workbench's first frame never pays for it

            init(self.root, name=name)
        except Exception as error:
            self.post_message(self.BankReady(None, error))
        else:
            self.post_message(self.BankReady(self.root))

    @work(thread=True, exclusive=True, exit_on_error=False, group="welcome")
    def _build_demo(self) -> None:
        try:
            from memorybank.core.demo import build_demo  # only here: the workbench's first frame never pays for it

            root = build_demo()
        except Exception as error:
            self.post_message(self.BankReady(None, error))
        else:
            self.post_message(self.BankReady(root))

    def on_welcome_screen_bank_ready(self, message: BankReady) -> None:
        self._busy(False)
        if message.root is None:
            self.notify(
                str(getattr(message.error, "message", message.error)),
                title="Could not create the bank",
                severity="error",
                timeout=10,
            )
            return
        self.app.open_bank(message.root)  # type: ignore[attr-defined]
