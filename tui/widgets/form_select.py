"""A ``Select`` for forms: Enter submits the form, as the form's hint says, instead of opening the list.

Textual's ``Select`` opens its list on Enter, so in the Fold form (whose hint says "Enter previews")
Enter on the Section field opened a dropdown. Here the list opens with space, ↑ or ↓, and Enter
goes up to the form.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Select


class FormSelect(Select, inherit_bindings=False):  # type: ignore[type-arg]
    """A dropdown that leaves Enter to the form around it, and shows plainly when it has the focus
    (compact, Textual's own select only shifts its background by a shade)."""

    DEFAULT_CSS = """
    FormSelect:focus > SelectCurrent {
        background: $accent 35%;
        text-style: bold;
    }
    """

    BINDINGS = [Binding("down,space,up", "show_overlay", "Show menu", show=False)]
