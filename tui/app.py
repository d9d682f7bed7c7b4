"""The Textual app: a thin composition root over one bank, built by ``make_app`` for the CLI, the
tests and the screenshot script.

The app owns the ``Bank`` and keeps it in step with the disk: a cheap mtime/size re-check every
couple of seconds and whenever the terminal regains focus, in a worker, so a document an agent
writes shows up without a restart. Where the system tells of file changes (``watchfiles``: inotify,
FSEvents...), a change re-checks at once; the poll stays as the fallback for file systems that do
not tell (network mounts) or when ``watchfiles`` is missing. The first frame never waits for the bank: ``make_app`` only
checks that the directory holds a document, the workbench paints, and the first index runs in the
same worker as every re-check, with its progress in the header. Everything the user sees is on the screens; the app adds the
command palette's entries, the editor, and the keys that work everywhere.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memorybank.core.bank import Bank, find_root
from memorybank.core.errors import BankError
from memorybank.tui import typed_ahead
from memorybank.tui.collector import CHECK_SECONDS, QuietCollector
from memorybank.tui.commands import DocumentsProvider, JumpProvider
from memorybank.tui.screens.workbench import WorkbenchScreen
from memorybank.tui.settings import Settings
from memorybank.tui.terminal_guard import install as guard_terminal
from textual import events, work
from textual.app import App, SuspendNotSupported, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

if TYPE_CHECKING:
    from memorybank.mcp_server.server import ToolCall
    from memorybank.tui.mcp_host import McpHost
    from textual.notifications import SeverityLevel

guard_terminal()  # a bank's text never reaches the terminal as escape sequences

POLL_SECONDS = 2.0
"""How often the disk is re-checked for writes made by others (agents, editors, the CLI)."""


TOAST_WIDTH, TOAST_EDGES = 60, 4
"""A toast's width (Textual's, at most half the screen) and the cells its padding and edge take."""


QUIT_AGAIN_SECONDS = 4.0
"""How long a second ctrl+q, with a form open, has to follow the first."""


class MemoryBankApp(App[None]):
    """The owner's workbench."""

    CSS_PATH = "app.tcss"
    TITLE = "memorybank"
    COMMANDS = App.COMMANDS | {DocumentsProvider}
    BINDINGS = [
        Binding("question_mark", "keys", "Keys", key_display="?"),
        Binding("f1", "keys", "Keys", show=False),
        Binding("ctrl+t", "change_theme", "Theme", show=False),
        Binding("ctrl+r", "recheck", "Re-check disk", show=False),
    ]

    class DiskChanged(Message):
        """A re-check found documents added, changed or removed."""

    class ToolCalled(Message):
        """An agent made a tool call to the hosted MCP server (posted from the server's thread)."""

        def __init__(self, call: ToolCall) -> None:
            super().__init__()
            self.call = call

    def __init__(
        self,
        bank: Bank | None,
        root: Path,
        *,
        poll_seconds: float = POLL_SECONDS,
        mcp: McpHost | None = None,
        watch_files: bool = True,
    ) -> None:
        super().__init__()
        self.mcp = mcp
        """The MCP server hosted in this process (``--serve-mcp``), started on mount."""
        self.activity: deque[ToolCall] = deque(maxlen=500)
        """The tool calls agents made to it, oldest first."""
        self.bank = bank
        """The bank on screen; None until one is created or the demo is built."""
        self.root = root
        """Where the bank is, or where ``init`` would create it."""
        self.poll_seconds = poll_seconds
        self.watch_files = watch_files
        """Whether to listen for file-system notifications (besides the poll)."""
        self._poll: Timer | None = None
        self.settings = Settings.load()
        """Theme, last pane and outline width, remembered between runs."""
        self.watching = threading.Event()
        """Set while file-system notifications are being received for the bank."""
        self._stop_watching = threading.Event()
        self.collector = QuietCollector()
        """Runs the full garbage collection in the pauses between keys (``tui.collector``)."""

    def on_mount(self) -> None:
        self.collector.start()
        self.set_interval(CHECK_SECONDS, self.collector.collect_if_quiet, name="quiet collector")
        if self.settings.theme and self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        if self.mcp is not None:
            self.mcp.start(lambda call: self.post_message(self.ToolCalled(call)))
        if self.bank is not None:
            self._show_workbench()
        else:
            from memorybank.tui.screens.welcome import WelcomeScreen

            self.push_screen(WelcomeScreen(self.root))

    # -- the bank ----------------------------------------------------------------------------

    def open_bank(self, root: Path) -> None:
        """Open a bank (just created, or the demo) in place of the welcome screen."""
        try:
            self.bank = Bank.open(root)
        except BankError as error:
            self.notify(error.message, title="Could not open the bank", severity="error")
            return
        self.root = self.bank.root
        self._show_workbench(replace=True)

    def _show_workbench(self, *, replace: bool = False) -> None:
        assert self.bank is not None
        self.sub_title = str(self.bank.root)
        screen = WorkbenchScreen(
            self.bank, serving=self.mcp.url if self.mcp else None, activity=self.activity, settings=self.settings
        )
        typed_ahead.hold(self, WorkbenchScreen)  # the keys typed from now wait for its first pane
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        if self.bank.last_refresh is None:
            self.call_after_refresh(self.recheck)  # the first index, once the first frame is out
        if self.poll_seconds > 0 and self._poll is None:
            self._poll = self.set_interval(self.poll_seconds, self.recheck, name="disk re-check")

    @property
    def workbench(self) -> WorkbenchScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, WorkbenchScreen):
                return screen
        return None

    def recheck(self) -> None:
        """Re-check the disk in a worker; the screens hear about it only when something changed."""
        if self.bank is not None:
            self._refresh_bank()

    @work(thread=True, exclusive=True, exit_on_error=False, group="disk")
    def _refresh_bank(self) -> None:
        assert self.bank is not None
        first = self.bank.last_refresh is None
        before = self.bank.generation
        try:
            self.bank.refresh()
            if first:  # a cached bank's first refresh only walked: its documents are read here
                self.bank.load()
        except Exception as error:
            if first:  # a re-check that fails is retried at the next tick; the first index says why
                message = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
                self.call_from_thread(self.notify, message, title="Could not read the bank", severity="error")
            return
        if self.bank.generation != before:
            self.post_message(self.DiskChanged())
        if first and self.watch_files:
            self.call_from_thread(self._watch)

    @work(thread=True, exclusive=True, exit_on_error=False, group="watch")
    def _watch(self) -> None:
        """Re-check the disk as soon as the system reports a change under the bank (the poll stays)."""
        assert self.bank is not None
        try:
            from watchfiles import watch
        except ImportError:  # the poll alone, as before
            return
        self.watching.set()
        try:
            for _ in watch(
                self.bank.root, debounce=150, stop_event=self._stop_watching, rust_timeout=1000, raise_interrupt=False
            ):
                self.call_from_thread(self.recheck)
        except Exception:  # a file system that cannot be watched: the poll carries on
            pass
        finally:
            self.watching.clear()

    def on_memory_bank_app_disk_changed(self) -> None:
        workbench = self.workbench
        if workbench is not None and self.bank is not None:
            workbench.indexed()

    def on_memory_bank_app_tool_called(self, message: ToolCalled) -> None:
        self.activity.append(message.call)
        workbench = self.workbench
        if workbench is not None:
            workbench.record_call(message.call)
        self.recheck()  # an agent's write shows at once, not at the next tick

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's toast, with each path too long for its lines cut as the tables cut paths
        (``…/eu-reverse-charge.md``) rather than folded mid-word onto the next line."""
        room = min(TOAST_WIDTH, self.size.width // 2) - TOAST_EDGES
        words = message.split(" ")
        long = [i for i, word in enumerate(words) if "/" in word and len(word) > room]
        if long:
            from memorybank.tui.widgets.path_cut import cut_path

            for i in long:
                words[i] = cut_path(words[i], room)
            message = " ".join(words)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def watch_theme(self, theme: str) -> None:
        if self.is_mounted:
            self.settings.update(theme=theme)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self.collector.saw_input()
        if isinstance(event, events.Key) and not event.is_forwarded and typed_ahead.held(self, event):
            return  # typed before the workbench's first pane took the focus: handed over in its turn
        await super().on_event(event)

    def on_unmount(self) -> None:
        self.collector.stop()
        self._stop_watching.set()
        if self.mcp is not None:
            self.mcp.stop()

    def on_app_focus(self, event: events.AppFocus) -> None:
        self.recheck()

    def action_recheck(self) -> None:
        self.recheck()
        self.notify("Checked the disk for changes.", timeout=2)

    _quit_asked = 0.0

    async def action_quit(self) -> None:
        """ctrl+q. With a form open, the first press says what would be lost and a second one, within
        a few seconds, quits: a tired owner's ctrl+q meant for the form dropped its edits."""
        from memorybank.tui.dialogs.core_dialog import CoreDialog

        if isinstance(self.screen, CoreDialog) and time.monotonic() - self._quit_asked > QUIT_AGAIN_SECONDS:
            self._quit_asked = time.monotonic()
            self.notify(
                "A form is open: ctrl+q again quits and drops what it holds; Esc closes the form.", title="Quit?"
            )
            return
        self.exit()

    # -- actions every screen has ------------------------------------------------------------------

    def action_keys(self) -> None:
        """The keys of the pane on screen, then the workbench's (elsewhere, Textual's key panel)."""
        from memorybank.tui.dialogs.keys import KeysDialog, pane_keys

        workbench = self.screen if isinstance(self.screen, WorkbenchScreen) else None
        if workbench is not None:
            pane = workbench.active_pane
            bound = [binding for found in pane._bindings.key_to_bindings.values() for binding in found]
            keys = pane_keys(bound, self.get_key_display)
            keys = [*pane.EXTRA_KEYS, *keys]
            self.push_screen(KeysDialog(pane.TITLE, keys))
        elif self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def _close_overlays(self) -> None:
        """A list or a help shown over the workbench (``OVERLAY``: it holds nothing typed) closes
        before a palette opens: the palette then offers the workbench's commands, and what it opens
        is not left under the overlay, which would take the next keys."""
        while len(self.screen_stack) > 1 and getattr(self.screen, "OVERLAY", False):
            self.screen.dismiss(None)

    def action_command_palette(self) -> None:
        self._close_overlays()
        super().action_command_palette()

    def action_jump(self) -> None:
        self._close_overlays()
        if self.bank is not None and not CommandPalette.is_open(self):
            self.push_screen(
                CommandPalette(providers=[JumpProvider], placeholder="Jump to a document…", id="--command-palette")
            )

    def open_document(self, path: str) -> None:
        workbench = self.workbench
        if workbench is not None:
            workbench.open_document(path)

    def open_in_editor(self, path: Path, line: int = 1) -> None:
        """Open a file in ``$VISUAL``/``$EDITOR`` at a line, then re-check the disk."""
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            self.notify(
                "Set $EDITOR (for example `export EDITOR=vim`) to open documents from here.",
                title="No editor",
                severity="warning",
                timeout=6,
            )
            return
        from memorybank.tui.editor import editor_command

        command = editor_command(editor, path, line)
        try:
            with self.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:
            self.notify("This terminal cannot hand itself over to an editor.", title="Editor", severity="warning")
        except OSError as error:
            self.notify(f"Could not run {command[0]}: {error.strerror or error}", title="Editor", severity="error")
        self.recheck()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        workbench = screen if isinstance(screen, WorkbenchScreen) else None
        if workbench is not None:
            yield from workbench.palette_commands()
            yield SystemCommand(
                "Jump to a document…", "Every document of the bank, by path or title (ctrl+o)", self.action_jump
            )
            yield SystemCommand(
                "Re-check the disk now", "Pick up writes made by agents, editors or the CLI", self.action_recheck
            )
        yield from super().get_system_commands(screen)


def make_app(
    root: str | os.PathLike[str] | None = None,
    *,
    poll_seconds: float = POLL_SECONDS,
    mcp: McpHost | None = None,
    watch_files: bool | None = None,
) -> MemoryBankApp:
    """The app over the bank at ``root`` (found as every command finds it when None).

    ``mcp`` is an MCP server bound to a loopback port (``tui.mcp_host``); the app serves it while it
    runs and lists every tool call in the Activity pane.

    With no bank there (no directory, or a directory holding no documents) the app opens on the
    welcome screen, which offers to create one at that place or to open the demo. The bank is not
    read here: the app indexes it in a worker once its first frame is on screen.

    ``watch_files`` listens for file-system notifications besides the poll; by default it follows
    the poll (``poll_seconds=0``, as the tests use, means the app never re-checks by itself).
    """
    found = find_root(root)
    target = found if found is not None else Path.cwd() / "memory_bank"
    # Indexed by the app after its first frame, from the parse cache as every command reads it.
    bank = Bank(target, cache=True) if holds_a_document(target) else None
    watching = poll_seconds > 0 if watch_files is None else watch_files
    return MemoryBankApp(bank, target, poll_seconds=poll_seconds, mcp=mcp, watch_files=watching)


def holds_a_document(directory: Path) -> bool:
    """Whether a markdown file is anywhere under ``directory`` (hidden directories skipped); it stops
    at the first one, so deciding between the welcome screen and the workbench costs nothing."""
    if not directory.is_dir():
        return False
    for _, dirs, files in os.walk(directory):
        if any(name.endswith(".md") for name in files):
            return True
        dirs[:] = [d for d in dirs if not d.startswith(".")]
    return False
