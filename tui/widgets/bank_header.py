"""The one-line header: which bank, how many documents, errors and warnings, the inbox, the contract,
and the MCP server the workbench hosts, if any."""

from __future__ import annotations

from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.paths import BANK_DIR_NAMES
from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

DEGRADED_HELP = (
    "This bank declares no contract (no dna/): reading, routing, search, the graph and the structural "
    "checks work, but the rules a contract sets (derived_from, cycles, value sets) are not applied. "
    "Add a dna/governance.md (a bank made by `memorybank init` starts with one) to apply them."
)
"""What "degraded" in the header means, said once when such a bank opens."""


@dataclass(frozen=True)
class BankSummary:
    """What the header shows, gathered from the core in one go."""

    name: str
    documents: int
    """Documents outside the inbox."""
    errors: int
    warnings: int
    inbox: int
    proposals: int
    stale: int
    """Inbox notes older than the core's stale age."""
    contract: bool
    """Whether the bank's dna/ declares a contract (False: degraded mode)."""


def bank_name(bank: Bank) -> str:
    """The project's name: as ``init`` recorded it in the root index (the name typed on the welcome
    screen or given to ``memorybank init``), else the directory holding ``memory_bank/``, or the
    bank's own directory."""
    from memorybank.core.init import recorded_name

    recorded = recorded_name(bank)
    if recorded:
        return recorded
    root = bank.root
    return root.parent.name if root.name in BANK_DIR_NAMES and root.parent.name else root.name


def summarise(bank: Bank) -> BankSummary:
    """Count what the header shows (validation is cached per bank generation, so this is cheap).
    It runs in a worker, which imports the validator and the inbox: the first frame does not."""
    from memorybank.core.validate import validate
    from memorybank.core.write.inbox import list_inbox

    report = validate(bank)
    notes = list_inbox(bank)
    with bank.lock:
        documents = sum(1 for doc in bank if doc.is_placed)  # as the index and drift count
        contract = bank.contract.present
    return BankSummary(
        name=bank_name(bank),
        documents=documents,
        errors=report.errors,
        warnings=report.warnings,
        inbox=len(notes),
        proposals=sum(1 for n in notes if n.proposal),
        stale=sum(1 for n in notes if n.stale),
        contract=contract,
    )


LEVELS = 5
"""How many ways the header line has of saying the same, from all words to the fewest cells."""
NAME_CELLS = 8
"""The fewest cells the bank's name is cut to when even the shortest line is too wide."""


class BankHeader(Static):
    """The bank at a glance, always on top."""

    summary: reactive[BankSummary | None] = reactive(None)
    """Set by the screen whenever the bank changed."""
    busy: reactive[str] = reactive("")
    """What is running in the background, shown at the end of the line ("validating", ...)."""
    serving: reactive[str] = reactive("")
    """The URL of the MCP server the workbench hosts (``--serve-mcp``); empty when none."""

    def render(self) -> Text:
        if self.summary is None:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(" memorybank ", style="bold reverse")
            text.append(f"  {self.busy or 'reading the bank'}…", style="bold")
            return text
        for level in range(LEVELS):  # the widest line that fits
            text = self._line(self.summary, level)
            if text.cell_len <= self.size.width:
                return text
        # Still too wide: the bank's name gives up cells before what comes after it (the MCP port).
        over = text.cell_len - self.size.width
        name = Text(self.summary.name)
        name.truncate(max(cell_len(self.summary.name) - over, NAME_CELLS), overflow="ellipsis")
        return self._line(self.summary, LEVELS - 1, name=name.plain)

    def _line(self, s: BankSummary, level: int, *, name: str | None = None) -> Text:
        """Level 0 says everything in words; each level after it says less for narrower terminals:
        tighter separators, then the counts without their words (✗ and ⚠ say which), then the inbox's
        proposals and stale notes shortened, then left out."""

        def plural(n: int, word: str) -> str:
            return f"{n:,} {word}{'' if n == 1 else 's'}"

        sep = "  │  " if level == 0 else " │ "
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {name or s.name} ", style="bold reverse")
        text.append(f"  {s.documents:,} documents" if level == 0 else f" {s.documents:,} docs", style="bold")
        text.append(sep)
        worded = level < 2
        if s.errors:
            text.append(f"✗ {plural(s.errors, 'error')}" if worded else f"✗ {s.errors:,}", style="bold red")
        else:
            text.append("✓ 0 errors" if worded else "✓ 0", style="bold green")
        warnings = plural(s.warnings, "warning") if worded else f"{s.warnings:,}"
        text.append(f" ⚠ {warnings}", style="bold yellow" if s.warnings else "dim")
        text.append(sep)
        text.append(f"inbox {s.inbox}", style="bold" if s.inbox else "dim")
        if level < 3:
            if s.proposals:
                text.append(f" ({plural(s.proposals, 'proposal')})")
            if s.stale:
                text.append(f" {s.stale} stale", style="yellow")
        elif level == 3 and (s.proposals or s.stale):
            parts = [f"{s.proposals} prop." if s.proposals else "", f"{s.stale} stale" if s.stale else ""]
            text.append(f" ({' · '.join(p for p in parts if p)})", style="yellow" if s.stale else "")
        text.append(sep)
        if s.contract:
            text.append("contract ✓", style="green")
        else:
            text.append("no contract: degraded" if level == 0 else "degraded", style="bold yellow")
        if self.serving:
            text.append(sep)
            address = self.serving.removeprefix("http://").removesuffix("/mcp")
            shown = (f"MCP on {address}", f"mcp {address}", f"mcp :{address.rsplit(':', 1)[-1]}")[min(level, 2)]
            text.append(shown, style="bold cyan")
        if self.busy:
            text.append(f" · {self.busy}…", style="italic dim")
        return text
