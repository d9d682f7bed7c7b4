"""Contract rules: they run only where the bank's dna/ declares the law they enforce."""

from __future__ import annotations

from collections.abc import Iterator

from memorybank.core.contract import GOVERNED_FIELDS
from memorybank.core.model import LAYERS
from memorybank.core.validate.locate import key_line
from memorybank.core.validate.registry import RULES, Context, Finding, rule

MISSING_DERIVED_FROM = "Governance requires every active non-root document to declare derived_from."


@rule("missing-derived-from", "error", MISSING_DERIVED_FROM, kind="contract")
def missing_derived_from(ctx: Context) -> Iterator[Finding]:
    """An ``active`` document with no ``derived_from``, where ``dna/`` requires one.

    Runs only when governance says every active non-root document must define ``derived_from``;
    the declared root documents are exempt.
    Why: a document with no upstream has no authority to trace and is missed by every change
    that should reach it.
    Example: ``status: active`` and no ``derived_from`` on ``domain/model.md``.
    Fix: add the document(s) it rests on, or keep it ``draft`` until it has one.
    """
    me = RULES["missing-derived-from"]
    contract = ctx.bank.contract
    if not contract.requires_derived_from:
        return
    for doc in ctx.bank:
        if (
            doc.status == "active"
            and not doc.derived_from
            and doc.path not in contract.roots
            and ctx.in_scope(doc.path)
        ):
            yield me.finding(doc.path, MISSING_DERIVED_FROM, key_line(ctx.bank, doc.path, "status"))


@rule("cycle-in-derived-from", "error", "derived_from edges form a cycle.", kind="contract")
def cycle_in_derived_from(ctx: Context) -> Iterator[Finding]:
    """``derived_from`` edges that lead back to where they started, where ``dna/`` forbids cycles.

    Each cycle is reported once, on the document whose edge closes it.
    Why: authority flows upstream to downstream; in a cycle nothing is upstream of anything and a
    change can never settle.
    Example: ``ops/README.md`` derives from ``ops/config.md``, which derives from ``ops/README.md``.
    Fix: decide which document is the source and drop the edge that points back at it.
    """
    me = RULES["cycle-in-derived-from"]
    bank = ctx.bank
    if not bank.contract.forbids_cycles:
        return
    targets = {
        path: [e.resolved for e in doc.derived_from if e.resolved is not None and e.resolved in bank]
        for path, doc in bank.documents.items()
    }
    colour: dict[str, int] = {}  # 1 on the stack, 2 done
    seen: set[str] = set()
    for start in targets:
        if colour.get(start):
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        path_stack: list[str] = [start]
        colour[start] = 1
        while stack:
            node, index = stack[-1]
            children = targets[node]
            if index < len(children):
                stack[-1] = (node, index + 1)
                child = children[index]
                state = colour.get(child)
                if state == 1:
                    loop = path_stack[path_stack.index(child) :] + [child]
                    key = ">".join(sorted(set(loop)))
                    if key not in seen:
                        seen.add(key)
                        if ctx.in_scope(node):
                            yield me.finding(node, f"Cyclic derived_from: {' -> '.join(loop)}.")
                elif state is None:
                    colour[child] = 1
                    stack.append((child, 0))
                    path_stack.append(child)
            else:
                colour[node] = 2
                stack.pop()
                path_stack.pop()


@rule("unknown-enum-value", "warning", "A governed field holds a value dna/ does not declare.", kind="contract")
def unknown_enum_value(ctx: Context) -> Iterator[Finding]:
    """``doc_kind``, ``doc_function``, ``status``, ``delivery_status`` or ``decision_status`` set to
    a value outside the set the bank's ``dna/`` declares.

    Sets are open: this is a warning, never a refusal. A field whose set is not declared at all is
    not checked.
    Why: routing, templates and gates key on these values; a typo (``activ``) or an undeclared
    kind silently falls out of every filter.
    Example: ``delivery_status: shipped`` where dna declares planned, in_progress, done, cancelled.
    Fix: use a declared value, or declare the new value in the dna/ table that lists them.
    """
    me = RULES["unknown-enum-value"]
    contract = ctx.bank.contract
    for doc in ctx.bank:
        if not ctx.in_scope(doc.path):
            continue
        for field in GOVERNED_FIELDS:
            value = getattr(doc, field)
            allowed = contract.values_for(field)
            if value and allowed and value not in allowed:
                yield me.finding(
                    doc.path,
                    f'{field}: "{value}" is not among the values declared in dna/ ({", ".join(sorted(allowed))}).',
                    key_line(ctx.bank, doc.path, field),
                )


@rule("unknown-layer-value", "warning", "A layer table row names a layer that does not exist.", kind="contract")
def unknown_layer_value(ctx: Context) -> Iterator[Finding]:
    """A ``Directory | Layer`` row in ``dna/`` whose layer is not one of the seven.

    The row is ignored (one bad row never voids the table) and the directory keeps its default.
    Why: the directory silently loses the routing weight its author meant it to have.
    Example: ``| scenarios | decisions | 1.2 |`` (the layer is ``decision``).
    Fix: use one of dna, knowledge, decision, delivery, flow, inbox, other.
    """
    me = RULES["unknown-layer-value"]
    known = ", ".join(LAYERS)
    for row in ctx.bank.layers.unknown:
        if ctx.in_scope(row.source):
            yield me.finding(
                row.source,
                f'"{row.directory}" is declared as layer "{row.layer}", which is not one of {known}. '
                f'The row is ignored and "{row.directory}" keeps its default layer.',
                row.line or None,
            )


@rule("no-contract", "warning", "The bank has no dna/, so contract rules are not applied.", kind="contract")
def no_contract(ctx: Context) -> Iterator[Finding]:
    """The bank has no ``dna/`` directory, so it declares no law of its own.

    The bank still works in degraded mode: reading, routing, search, the graph and the structural
    rules. Reported once, whatever the scope.
    Fix: ``memorybank init`` seeds a dna/ with a contract; or write your own dna/governance.md.
    """
    if not ctx.bank.contract.present:
        yield RULES["no-contract"].finding(
            "dna/",
            "This bank has no dna/ directory, so contract-dependent rules (missing derived_from, cycles, "
            "declared values) are not applied.",
        )
