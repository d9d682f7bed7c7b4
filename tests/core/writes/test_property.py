"""Property: a bank built only through the gates validates with zero findings, whatever the writes.

A state machine applies long random sequences of writes of every kind, valid and invalid, to a
freshly seeded bank, and after every step checks: zero findings, no temporary file left behind,
every document outside the quarantine registered in an index. Set MEMORYBANK_PROPERTY_EXAMPLES to
run more sequences than the default.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from memorybank.core.init import init
from memorybank.core.paths import relative_link
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.edit import edit, update_section
from memorybank.core.write.fields import set_field, set_status
from memorybank.core.write.fold import fold
from memorybank.core.write.inbox import discard, promote
from memorybank.core.write.proposals import apply_proposal, propose, reject_proposal

SECTIONS = {
    "product": "product",
    "domain": "domain",
    "engineering": "engineering",
    "ops": "ops",
    "adr": "adr",
    "use-cases": "use_case",
    "features": "feature",
    "epics": "epic",
    "prd": "prd",
    "prompts": "prompt",
}
# Prose without link or claim syntax: a body that links nowhere is a warning by design, not a gate.
prose_chars = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="[]()`\\#<>|")
words = (
    st.text(prose_chars, min_size=1, max_size=40)
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: bool(s) and ".md" not in s and not s.startswith(("-", "*", "+", ">", "=", "~")))
)
names = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)
keys = st.from_regex(r"[a-z][a-z_]{2,10}", fullmatch=True)
EXAMPLES = int(os.environ.get("MEMORYBANK_PROPERTY_EXAMPLES", "12"))


class GatedBank(RuleBasedStateMachine):
    @initialize()
    def seed(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="memorybank-property-"))
        init(self.tmp / "memory_bank", name="Property")
        self.bank = Bank.open(self.tmp / "memory_bank")
        self.refused = 0
        self.landed = 0

    def teardown(self) -> None:
        shutil.rmtree(getattr(self, "tmp", ""), ignore_errors=True)

    def attempt(self, operation) -> None:
        try:
            operation()
            self.landed += 1
        except BankError:
            self.refused += 1

    def documents(self, inbox: bool = False) -> list[str]:
        return [
            d.path for d in self.bank if d.is_inbox == inbox and not d.is_template and not d.path.startswith("dna/")
        ]

    @rule(
        section=st.sampled_from(sorted(SECTIONS)),
        name=names,
        title=words,
        purpose=words,
        status=st.sampled_from(["draft", "active"]),
        upstream=st.integers(0, 10_000),
        key=st.one_of(st.none(), keys),
        with_upstream=st.booleans(),
        nested=st.booleans(),
    )
    def create_document(self, section, name, title, purpose, status, upstream, key, with_upstream, nested):
        path = f"{section}/{name}/brief.md" if nested and section == "features" else f"{section}/{name}.md"
        derived = []
        pool = [p for p in self.documents() if p != path]
        if with_upstream and pool:
            derived = [relative_link(path, pool[upstream % len(pool)])]
        self.attempt(
            lambda: create(
                self.bank,
                doc_kind=SECTIONS[section],
                path=path,
                title=title,
                purpose=purpose,
                derived_from=derived,
                canonical_for=[key] if key else [],
                status=status,
            )
        )

    @rule(
        kind=st.sampled_from(["escape", "txt", "blank", "unresolved", "owned", "secret", "placeholder", "extra"]),
        name=names,
    )
    def refused_create(self, kind, name):
        args = dict(
            doc_kind="domain",
            path=f"domain/{name}-x.md",
            title="T",
            purpose="p",
            derived_from=["../product/context.md"],
        )
        owners = list(self.bank.derived.owners)
        args.update(
            {
                "escape": dict(path=f"../{name}.md"),
                "txt": dict(path=f"domain/{name}.txt"),
                "blank": dict(purpose="   "),
                "unresolved": dict(derived_from=["../nowhere/x.md"]),
                "owned": dict(
                    canonical_for=[owners[0]] if owners else ["x"], must_not_define=[owners[0]] if owners else ["x"]
                ),
                "secret": dict(body="key AKIA" + "ABCDEFGHIJKLMNOP"),
                "placeholder": dict(body="Intro.\n\n[... rest omitted ...]"),
                "extra": dict(extra={"doc_function": "index"}),
            }[kind]
        )
        before = self.bank.generation
        try:
            create(self.bank, **args)
            raise AssertionError(f"{kind} should have been refused")
        except BankError:
            self.refused += 1
        self.bank.refresh()
        assert self.bank.generation == before

    @rule(name=names, title=words, purpose=words, body=words)
    def capture(self, name, title, purpose, body):
        self.attempt(
            lambda: create(
                self.bank,
                doc_kind="domain",
                path=f"{name}.md",
                title=title,
                purpose=purpose,
                body=f"## Claim\n\n{body}",
                inbox=True,
                client="property",
            )
        )

    @precondition(lambda self: self.documents())
    @rule(pick=st.integers(0, 10_000), text=words, append=st.booleans())
    def rewrite_section(self, pick, text, append):
        docs = [p for p in self.documents() if self.bank.documents[p].sections and not self.bank.documents[p].is_index]
        if docs:
            doc = self.bank.documents[docs[pick % len(docs)]]
            section = doc.sections[pick % len(doc.sections)].title
            self.attempt(
                lambda: update_section(
                    self.bank, path=doc.path, section=section, content=text, mode="append" if append else "replace"
                )
            )

    @precondition(lambda self: self.documents())
    @rule(pick=st.integers(0, 10_000), suffix=words)
    def edit_heading(self, pick, suffix):
        docs = self.documents()
        doc = self.bank.documents[docs[pick % len(docs)]]
        self.attempt(
            lambda: edit(self.bank, path=doc.path, find=f"# {doc.title}\n", replace=f"# {doc.title} {suffix}\n")
        )

    @precondition(lambda self: self.documents())
    @rule(pick=st.integers(0, 10_000), status=st.sampled_from(["draft", "active", "archived"]), release=st.booleans())
    def move_status(self, pick, status, release):
        docs = self.documents()
        self.attempt(
            lambda: set_status(
                self.bank,
                path=docs[pick % len(docs)],
                status=status,
                release_canonical=release and status == "archived",
            )
        )

    @precondition(lambda self: self.documents())
    @rule(pick=st.integers(0, 10_000), field=st.sampled_from(["purpose", "title", "owner", "reviewed_on"]), value=words)
    def change_field(self, pick, field, value):
        docs = self.documents()
        self.attempt(lambda: set_field(self.bank, path=docs[pick % len(docs)], field=field, value=value))

    @precondition(lambda self: self.documents(inbox=True))
    @rule(
        pick=st.integers(0, 10_000),
        section=st.sampled_from(["domain", "engineering", "ops", "epics"]),
        name=names,
        via_proposal=st.booleans(),
    )
    def promote_note(self, pick, section, name, via_proposal):
        notes = self.documents(inbox=True)
        note = notes[pick % len(notes)]
        target = f"{section}/{name}-note.md"
        kind = SECTIONS[section]
        upstream = [relative_link(target, "product/context.md")]
        if via_proposal:
            self.attempt(
                lambda: propose(
                    self.bank,
                    action="promote",
                    path=note,
                    to=target,
                    doc_kind=kind,
                    derived_from=upstream,
                    client="property",
                )
            )
            if pick % 3:
                self.attempt(lambda: apply_proposal(self.bank, path=note))
            else:
                self.attempt(lambda: reject_proposal(self.bank, path=note, note="not yet"))
        else:
            self.attempt(lambda: promote(self.bank, path=note, to=target, doc_kind=kind, derived_from=upstream))

    @precondition(lambda self: self.documents(inbox=True) and self.documents())
    @rule(pick=st.integers(0, 10_000), into=st.integers(0, 10_000), append=st.booleans(), via_proposal=st.booleans())
    def fold_note(self, pick, into, append, via_proposal):
        """Fold a note into a section of a document (refused when it has none): one write either way.
        Like ``rewrite_section``, never into an index, whose sections hold the registrations."""
        notes = self.documents(inbox=True)
        docs = [p for p in self.documents() if not self.bank.documents[p].is_index] or ["README.md"]
        note, owner = notes[pick % len(notes)], docs[into % len(docs)]
        sections = [s.title for s in self.bank.document(owner).sections]
        section = sections[pick % len(sections)] if sections else "Missing"
        mode = "append" if append else "replace"
        if via_proposal:
            self.attempt(
                lambda: propose(
                    self.bank, action="fold", path=note, into=owner, section=section, mode=mode, client="property"
                )
            )
            self.attempt(lambda: apply_proposal(self.bank, path=note))
        else:
            self.attempt(lambda: fold(self.bank, note=note, path=owner, section=section, mode=mode))

    @precondition(lambda self: self.documents(inbox=True))
    @rule(pick=st.integers(0, 10_000), reason=st.one_of(st.just(""), words))
    def discard_note(self, pick, reason):
        notes = self.documents(inbox=True)
        self.attempt(lambda: discard(self.bank, path=notes[pick % len(notes)], reason=reason))

    @invariant()
    def stays_valid(self):
        if not hasattr(self, "bank"):
            return
        self.bank.refresh()
        report = validate(self.bank)
        assert report.findings == [], [(f.rule, f.path, f.message) for f in report.findings]
        assert not [p for p in self.bank.root.rglob("*") if p.name.endswith(".tmp")]
        for doc in self.bank:
            if not doc.is_inbox and not doc.path.endswith("README.md"):
                assert self.bank.registered_in(doc.path), doc.path


GatedBank.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
TestGatedBank = GatedBank.TestCase
