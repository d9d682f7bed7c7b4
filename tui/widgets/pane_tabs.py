"""The workbench's tabs: one per pane, and never brought to the front by stale news of a focus.

When a widget inside a tab takes the focus, the tab tells ``TabbedContent``, which brings that tab
to the front. The news travels up the widget tree as messages, hops behind the focus itself, so a
pane key read meanwhile (Esc to Route's results, then 8 at once) showed the Inbox, and then the news
arrived and brought Route back: the Inbox, made but hidden, never listed its notes. The news is
heard only while the focus is still inside that tab; once it has moved on (the screen clears it as
it switches panes) it is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.widgets import TabbedContent, TabPane


class PaneTabs(TabbedContent):
    """A tab for each pane id, labelled, each empty until the screen mounts its pane in it."""

    def __init__(self, labels: Mapping[str, str], *, initial: str, id: str) -> None:
        super().__init__(initial=initial, id=id)
        for pane_id, label in labels.items():
            self.compose_add_child(TabPane(label, id=pane_id))

    def on_tab_pane_focused(self, message: TabPane.Focused) -> None:
        focused = self.screen.focused
        if focused is None or message.tab_pane not in focused.ancestors:
            message.stop()
            message.prevent_default()  # TabbedContent's own handler would bring that tab to the front
