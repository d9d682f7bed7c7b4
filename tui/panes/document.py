"""The Document pane: one document's outline beside the selected section, rendered or as source.

The outline lists the ``##`` sections with their line ranges, what the document derives from (up,
external and broken edges marked), what derives from it (down) and its frontmatter. Highlighting a
section shows it; Enter on an edge opens that document (or says why none). ``s`` switches the rendered
section and the numbered source, ``e`` opens ``$EDITOR`` at the line, ``g`` walks the graph, ``/`` finds.

Opening must feel instant on a 2,000-line plan, so the rendered view never holds the whole file:
it renders the selected section, or the document's first ``WINDOW`` lines (a screenful of them
for the first frame, the rest just after it), and ``m`` renders the next window. It is a
``MarkdownView`` (Rich's rendering, made once per width, drawn a line at a time), not Textual's
``Markdown`` widget, which mounts a widget per block (a table alone is dozens) and took a second to
lay out. The body's links to other documents are in the outline, where Enter follows them. The
source view is a ``TextArea``, which draws only the lines on screen; its lines come from the bank's
in-memory text, sliced here, not re-read.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.model import Section
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane
from memorybank.tui.panes.doc_find import FindInDocument
from memorybank.tui.panes.opened import Opened, more_note, read_opened, window
from memorybank.tui.panes.outline import LOOSE, Outline, build_outline
from memorybank.tui.widgets.cut_tree import CutTree
from memorybank.tui.widgets.markdown_view import MarkdownView
from memorybank.tui.widgets.source_area import SourceArea
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Static, TextArea, Tree

EMPTY = "No document open: choose one in Route, Search or Findings, or press ctrl+o."
MIN_OUTLINE = 16
"""The narrowest the outline goes (< narrows it, > widens it)."""
WINDOW = 80
"""Lines the rendered view renders at a time (a screenful or two; ``m`` renders the next ones)."""
HEAD = 8
"""Lines rendered for the first frame of an opened window beyond the view's height (a line renders
to a row or more): the rest of the window is rendered once that frame is out."""
SOURCE_WINDOW = 300
"""Lines of the raw file the source view holds; ``m`` loads them all (wrapping 2,000 lines is slow)."""
SOURCE_BEFORE = 60
"""Lines kept above the line the source view opens at."""
SOURCE_ABOVE = 3
"""Lines shown above the line the source view opens at."""
ELSEWHERE = "ctrl+o jumps to another document; alt+← goes back to the one before."


class DocumentPane(FindInDocument, Pane):
    """One document: outline, section, edges, frontmatter."""

    TITLE = "Document"
    SUMMARY = "A document's sections, edges and frontmatter; a section rendered or as source"
    BINDINGS = [
        Binding("s", "toggle_source", "Source"),
        Binding("e", "edit", "Editor"),
        Binding("g", "graph", "Graph"),
        Binding("m", "more", "More", show=False),
        Binding("less_than_sign", "outline(-4)", "Narrower outline", key_display="<", show=False),
        Binding("greater_than_sign", "outline(4)", "Wider outline", key_display=">", show=False),
        Binding("w", "whole", "Whole document", show=False),
    ]
    EXTRA_KEYS = (
        ("↑ · ↓", "in the outline: show each section as you move"),
        ("← · →", "in the outline: fold or unfold a group, or go to its parent"),
        ("Enter", "on an edge or a link: open that document"),
        ("Tab", "between the outline and the text"),
    )
    COMMANDS_OFFERED = (
        PaletteCommand("Document: open in $EDITOR", "At the selected section's (or finding's) line", "edit"),
        PaletteCommand("Document: switch between rendered and source", "Numbered lines or markdown", "toggle_source"),
        PaletteCommand("Document: show the whole document", "From its first line, a window at a time", "whole"),
    )

    class EdgeFollowed(DocumentChosen):
        """An edge of the outline (or a link in the text) was followed to another document."""

    class OutlineResized(Message):
        """The user made the outline wider or narrower (the screen remembers it)."""

        def __init__(self, width: int) -> None:
            super().__init__()
            self.width = width

    class GraphRequested(Message):
        """The user asked for the graph around the open document."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.path: str | None = None  # bank path of the open document (None before one is chosen)
        self.opened: Opened | None = None
        self.section: Section | None = None  # the section shown (None: the whole document)
        self.line: int | None = None  # the line the document was opened at (a finding's, a search hit's)
        self.source_mode = False
        self.shown_lines = WINDOW  # lines of the section (or document) the rendered view holds
        self.shown_source = SOURCE_WINDOW  # lines of the raw file the source view holds
        self.source_start = 1  # the raw line the source view's first line is
        # The raw lines of the source view's cursor and first visible row, kept when `m` loads every line.
        self._keep: tuple[int, int] | None = None
        self._follow = False  # leaving the source: the rendered view goes to ``line`` once
        self._wanted_section: str | None = None
        self._built: Outline | None = None  # the outline in the tree, and the document it was built for
        # What a re-read of the same document restores: lines shown (rendered, source), the rendered
        # view's scroll and the source view's place (see _source_place).
        self._place: tuple[int, int, float, tuple[int, int] | None] | None = None
        self.markdown_source = ""
        """The markdown the rendered view shows."""
        self.more_note = ""
        """What the rendered view says under it about the lines it left out."""

    def compose(self) -> ComposeResult:
        yield Static(EMPTY, id="doc-heading", classes="pane-heading")
        with Horizontal(id="doc-body"):
            tree: CutTree[tuple[str, Any]] = CutTree("outline", id="doc-outline")
            tree.show_root = False
            tree.guide_depth = 2
            yield tree
            with ContentSwitcher(initial="doc-rendered", id="doc-view"):
                yield MarkdownView(id="doc-rendered")
                yield SourceArea(id="doc-source", read_only=True, show_line_numbers=True, soft_wrap=True)

    # -- opening ----------------------------------------------------------------------------

    def open(self, path: str, *, section: str | None = None, line: int | None = None) -> None:
        """Show a document, scoped to a section or placed at a line (the screen calls this).

        Reading it is slicing text the bank holds, so it is done here, in this frame, unless a
        re-check holds the bank; then a worker waits for it while the heading says what is coming.
        """
        self.path, self.line = path, line
        self._wanted_section, self._place = section, None
        self.source_mode = line is not None
        self._shown_generation = self.generation
        if self.bank.lock.acquire(blocking=False):
            self.forget()  # an answer still on its way is older than this one
            try:
                opened = read_opened(self.bank, path)
            except Exception as error:
                self.show_error(error)
                self._failed(error)
                return
            finally:
                self.bank.lock.release()
            self._opened(opened)
            return
        if self.opened is None or path != self.opened.doc.path:
            self._clear(Text.assemble(("Opening ", "italic"), (path, "bold"), ("…", "italic")))
        self.run_core(lambda: read_opened(self.bank, path), self._opened, failed=self._failed)

    def reload(self) -> None:
        """Read the open document again (the disk changed): the reader keeps their place."""
        if self.path is not None:
            path = self.path
            self._wanted_section = self.section.title if self.section else None
            if self.opened is not None:
                rendered = self.query_one("#doc-rendered", MarkdownView)
                self._place = (self.shown_lines, self.shown_source, rendered.scroll_offset.y, self._source_place())
            self.run_core(lambda: read_opened(self.bank, path), self._opened, failed=self._failed)

    def place(self) -> tuple[str, str | None, int | None] | None:
        """Where the reader stands: document, section shown, source cursor line (when shown)."""
        if self.opened is None or self.path is None:
            return None
        source = self._source_place()
        return self.path, self.section.title if self.section else None, source[0] if source else None

    def _source_place(self) -> tuple[int, int] | None:
        """The raw lines of the source view's cursor and of its first row on screen."""
        if not self.source_mode:
            return None
        area = self.query_one("#doc-source", TextArea)
        top = area.wrapped_document.offset_to_location(Offset(0, area.scroll_offset.y))[0]
        return self.source_start + area.cursor_location[0], self.source_start + top

    def _clear(self, heading: Text | str, note: Text | None = None) -> None:
        """Nothing of the previous document stays on screen under another heading."""
        self.opened = self._built = None
        self.query_one("#doc-heading", Static).update(heading)
        self.query_one("#doc-outline", Tree).clear()
        self._render_markdown("", note)
        self.query_one("#doc-source", TextArea).load_text("")

    def _failed(self, error: BaseException) -> None:
        message = str(getattr(error, "message", error))  # a bank's refusal names the path itself
        self._clear(Text(message if f"{self.path}" in message else f"{self.path}: {message}"), Text(ELSEWHERE))

    def _opened(self, opened: Opened) -> None:
        self.opened = opened
        doc = opened.doc
        self.path = doc.path
        wanted = self._wanted_section
        section = next((s for s in doc.sections if s.title == wanted), None) if wanted else None
        if section is None and self.line is not None:
            section = next((s for s in doc.sections if s.line <= self.line <= s.end_line), None)
        self.section = section
        self.shown_lines, self.shown_source = WINDOW, SOURCE_WINDOW
        place, self._place = self._place, None
        if place is not None:  # the same document read again: as much shown, from the same place
            self.shown_lines, self.shown_source, scroll_y, self._keep = place
        self._heading()
        self._outline()
        self._show()
        if place is not None and not self.source_mode:
            view = self.query_one("#doc-rendered", MarkdownView)
            view.call_after_refresh(view.scroll_to, y=scroll_y, animate=False)  # once wholly rendered

    def _heading(self, note: str = "") -> None:
        """Path and facts on the first line, the title on the second: a long title never hides the path."""
        assert self.opened is not None
        doc = self.opened.doc
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(doc.path, style="bold")
        if self.line is not None:  # before the facts: a long path cuts those first, never the line
            text.append(f" at line {self.line}", style="bold")
        facts = [doc.doc_kind, doc.status, doc.layer, f"{doc.line_count} lines"]
        text.append("  " + " · ".join(f for f in facts if f), style="dim")
        text.append("\n")
        if note:
            text.append(f"{note}  ", style="italic")
        text.append(doc.title, style="bold")
        self.query_one("#doc-heading", Static).update(text)

    def _outline(self) -> None:
        """Build the outline for the open document, or only move its cursor when it is the same one."""
        assert self.opened is not None
        tree = self.query_one("#doc-outline", Tree)
        built = self._built
        if built is not None and built.opened == self.opened and tree.root.children:
            built.choose(tree, self.section)
            return
        self._built = build_outline(tree, self.opened)
        self._built.choose(tree, self.section)
        # Placed before the tree is laid out, the cursor can scroll it and hide the first lines.
        tree.call_after_refresh(self._outline_from_top)

    def _outline_from_top(self) -> None:
        tree = self.query_one("#doc-outline", Tree)
        if 0 <= tree.cursor_line < tree.scrollable_content_region.height:
            tree.scroll_home(animate=False)

    # -- showing --------------------------------------------------------------------------------

    def _show(self) -> None:
        """Fill the view with the chosen section (or the whole document), rendered or as source."""
        if self.opened is None:
            return
        switcher = self.query_one("#doc-view", ContentSwitcher)
        if self.source_mode:
            switcher.current = "doc-source"
            area = self.query_one("#doc-source", SourceArea)
            line = self.line if self.line is not None else (self.section.line if self.section else 1)
            keep, self._keep = self._keep, None
            line = keep[0] if keep else line
            lines = self.opened.lines
            start = max(1, min(line - SOURCE_BEFORE, len(lines) - self.shown_source + 1))
            end = min(len(lines), start + self.shown_source - 1)
            source = "\n".join(lines[start - 1 : end])
            if area.text != source or area.line_number_start != start:
                area.line_number_start = start
                area.load_text(source)
            self.source_start = start
            area.move_cursor((max(line - start, 0), 0))
            # The same raw line stays at the top of the view (`m`, a re-read), or the line opened at
            # shows with a few above it. Rows, not lines: a wrapped line takes several. The text
            # area wraps at the width it is shown at, known once laid out, so it is placed again then.
            top = keep[1] - start if keep else max(line - start - SOURCE_ABOVE, 0)
            area.show_at_top(top)
            area.call_after_refresh(area.show_at_top, top)
            if start > 1 or end < len(lines):
                self._heading(f"source lines {start}–{end} of {len(lines)}; m: all")
            else:
                self._heading()
        else:
            switcher.current = "doc-rendered"
            self._heading()
            start, end = self.opened.span(self.section)
            follow, self._follow = self._follow and self.line is not None and start <= self.line <= end, False
            if follow:  # back from the source: windows rendered to hold its line and a screenful on
                self.shown_lines = max(self.shown_lines, (self.line - start + WINDOW // 2) // WINDOW * WINDOW + WINDOW)
            content, left = window(self.opened.lines, start, end, self.shown_lines)
            note = more_note(left)
            view = self.query_one("#doc-rendered", MarkdownView)
            head, cut = window(self.opened.lines, start, end, (view.size.height or 4 * HEAD) + HEAD)
            self._render_markdown(
                content, note, head=head if cut and self.shown_lines == WINDOW and not follow else None
            )
            if follow:
                view.scroll_past(window(self.opened.lines, start, self.line - 1, end)[0], above=SOURCE_ABOVE)
            elif self.shown_lines == WINDOW:
                view.scroll_home(animate=False)

    @on(Tree.NodeHighlighted, "#doc-outline")
    def _highlighted(self, event: Tree.NodeHighlighted[Any]) -> None:
        if event.node is not event.control.cursor_node or not event.control.has_focus:
            return  # a stale highlight from rebuilding the outline, not the user moving
        kind, value = event.node.data or ("group", None)
        if kind == "whole" and self.section is not None:
            self.section, self.line, self.shown_lines = None, None, WINDOW
            self._show()
        elif kind == "section" and value != self.section:
            self.section, self.line, self.shown_lines = value, None, WINDOW
            self._show()

    @on(Tree.NodeSelected, "#doc-outline")
    def _selected(self, event: Tree.NodeSelected[Any]) -> None:
        kind, value = event.node.data or ("group", None)
        if kind == "edge":
            self.post_message(self.EdgeFollowed(value))
        elif kind in LOOSE:  # nothing of the bank to open: say so, so the key visibly did something
            self.notify(LOOSE[kind].format(value), title="Nothing to open", severity="warning")
        elif kind in ("section", "whole"):
            self.query_one("#doc-source" if self.source_mode else "#doc-rendered").focus()

    def _render_markdown(self, content: str, note: Text | None = None, *, head: str | None = None) -> None:
        self.markdown_source = content
        self.more_note = note.plain if note is not None else ""
        self.query_one("#doc-rendered", MarkdownView).update(content, note, head=head)

    # -- actions ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("toggle_source", "edit", "graph", "whole", "more", "find", "find_next") and self.opened is None:
            return None
        return super().check_action(action, parameters)

    outline_width: reactive[int | None] = reactive(None, init=False)
    """Columns of the outline; None: the stylesheet's share of the pane."""

    def watch_outline_width(self, width: int | None) -> None:
        outline = self.query_one("#doc-outline", Tree)
        if width is None:  # back to the stylesheet's share
            outline.styles.width = outline.styles.min_width = outline.styles.max_width = None
        else:
            outline.styles.min_width = MIN_OUTLINE
            outline.styles.max_width = "50%"  # the text keeps half the pane, whatever was remembered
            outline.styles.width = width

    def action_outline(self, step: int) -> None:
        """Move the split between the outline and the text (< and >)."""
        outline = self.query_one("#doc-outline", Tree)
        room = max(min(self.size.width // 2, self.size.width - 20), MIN_OUTLINE)
        # From the width last asked for: presses quicker than a layout each move it on from there.
        now = min(self.outline_width, room) if self.outline_width is not None else outline.outer_size.width
        width = min(max(now + step, MIN_OUTLINE), room)
        self.outline_width = width
        self.post_message(self.OutlineResized(width))

    def action_toggle_source(self) -> None:
        views = self.query_one("#doc-rendered", MarkdownView), self.query_one("#doc-source", TextArea)
        in_view = self.screen.focused in views
        if self.source_mode and self.opened is not None:  # the rendered view goes to the cursor's line
            self.line, self._follow = self._source_place()[0], True  # type: ignore[index]
        self.source_mode = not self.source_mode
        self._show()
        if in_view:  # the focus goes with the text, never stays on the view just hidden
            views[self.source_mode].focus()

    def action_whole(self) -> None:
        self.section, self.line, self.shown_lines = None, None, WINDOW
        self._show()

    def action_more(self) -> None:
        """Render the next window of the section (or document); in the source view, every line."""
        if self.opened is None:
            return
        if self.source_mode:
            self.shown_source = len(self.opened.lines)
            # Every line is loaded, and the cursor stays on the line it was on, not the first.
            self._keep = self._source_place()
        else:
            self.shown_lines += WINDOW
        self._show()

    def action_edit(self) -> None:
        if self.opened is None:
            return
        line = self.line or (self.section.line if self.section else 1)
        if self.source_mode:
            line = self.query_one("#doc-source", TextArea).cursor_location[0] + self.source_start
        self.app.open_in_editor(self.bank.root / self.opened.doc.path, line)  # type: ignore[attr-defined]

    def action_graph(self) -> None:
        if self.opened is not None:
            self.post_message(self.GraphRequested(self.opened.doc.path))

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#doc-outline", Tree))
