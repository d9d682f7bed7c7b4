"""The demo bank: a small, realistic project with history, drift, an inbox and a few findings.

``build_demo(dest)`` makes a git repository for an invented invoicing product, seeds its bank with
``core.init.init`` and fills it only through ``core.write.create.create`` (the gates every user
goes through), commits in stages with fixed dates so the history is the same on every machine,
moves some anchored code on after its documents (real drift), leaves one anchor pointing at a file
nobody committed, captures inbox notes from three different clients with one agent proposal, and
adds a document written by hand that nobody registered. Nothing here decides a rule: every step is
one core call or one git command.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.write.create import create
from memorybank.core.write.edit import update_section
from memorybank.core.write.proposals import propose

PROJECT = "harbor"
"""Name of the demo project: its directory and the name written into the root index."""


@dataclass(frozen=True)
class DemoDoc:
    """A document of the demo bank, created through the gates."""

    path: str
    kind: str
    title: str
    purpose: str
    body: str
    derived: tuple[str, ...] = ()
    canonical: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    status: str = "active"
    extra: dict[str, object] = field(default_factory=dict)


def _git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada Harbor",
        "GIT_AUTHOR_EMAIL": "ada@harbor.example",
        "GIT_COMMITTER_NAME": "Ada Harbor",
        "GIT_COMMITTER_EMAIL": "ada@harbor.example",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _commit(repo: Path, message: str, date: str) -> None:
    _git(repo, "add", "-A", "--", ".", ":(exclude)memory_bank/_inbox")
    _git(repo, "commit", "-q", "-m", message, date=f"{date}T10:00:00+00:00")


def _write(repo: Path, rel: str, text: str) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _create(bank: Bank, doc: DemoDoc) -> None:
    extra = dict(doc.extra)
    if doc.anchors:
        extra["anchors"] = list(doc.anchors)
    create(
        bank,
        path=doc.path,
        doc_kind=doc.kind,
        title=doc.title,
        purpose=doc.purpose,
        body=doc.body,
        derived_from=list(doc.derived),
        canonical_for=list(doc.canonical),
        status=doc.status,
        extra=extra or None,
    )


CODE_V1 = {
    "src/billing/invoice.py": (
        '"""Invoices: numbering and totals."""\n\n\ndef next_number(series, last):\n'
        '    return f"{series}-{last + 1:06d}"\n'
    ),
    "src/billing/tax.py": '"""VAT by country."""\n\nRATES = {"DE": 0.19, "FR": 0.20, "NL": 0.21}\n',
    "src/payments/retry.py": '"""Card payment retries."""\n\nDELAYS = [60, 300, 3600]\n',
    "src/worker/queue.py": '"""The job queue on Postgres (SELECT ... FOR UPDATE SKIP LOCKED)."""\n',
    "deploy/pipeline.yml": "stages: [test, build, canary, rollout]\n",
}

FOUNDATION = (
    DemoDoc(
        "product/plans-and-limits.md",
        "product",
        "Plans and Limits",
        "What each pricing plan includes and the usage limits the product enforces.",
        "# Plans and Limits\n\n## Plans\n\nStarter (1 seat, 50 invoices a month), Workshop (5 seats, unlimited\n"
        "invoices) and Guild (unlimited seats, API access).\n\n## Limits\n\nA Starter account that reaches "
        "50 invoices is asked to upgrade; drafts never count.\n\n## Trials\n\nEvery plan starts with a 30-day "
        "trial; no card is asked for.\n",
        derived=("context.md",),
        canonical=("plan_limits",),
    ),
    DemoDoc(
        "domain/invoicing-rules.md",
        "domain",
        "Invoicing Rules",
        "How invoices are numbered, rounded and corrected: the rules every invoice obeys.",
        "# Invoicing Rules\n\n## Numbering\n\nEach account has one gapless series per year: `2026-000001`,\n"
        "`2026-000002`, ... A number is taken when the invoice is issued, never when it is drafted.\n\n"
        "## Rounding\n\nLine totals are rounded half-up to the cent; the invoice total is the sum of rounded\n"
        "lines, so it always matches what the customer can add up.\n\n## Credit Notes\n\nAn issued invoice is "
        "never edited. A correction is a credit note in its own series\n(`CN-2026-000001`) that points at the "
        "invoice it corrects.\n\n## Invariants\n\n- A series has no gaps.\n- An issued invoice is immutable.\n"
        "- Totals are computed from rounded lines.\n",
        derived=("../product/plans-and-limits.md",),
        canonical=("invoice_numbering", "rounding_rules"),
        anchors=("src/billing/invoice.py",),
    ),
    DemoDoc(
        "domain/tax-model.md",
        "domain",
        "VAT and Tax Model",
        "Which VAT rate applies to an invoice line, by country and customer type.",
        "# VAT and Tax Model\n\n## Rates\n\nRates come from the seller's country: Germany 19 %, France 20 %,\n"
        "the Netherlands 21 %.\n\n## Exemptions\n\nLines marked as exempt carry the legal mention required "
        "by the seller's country.\n\n## Open Questions\n\nCross-border B2B invoices inside the EU are not "
        "handled yet.\n",
        derived=("invoicing-rules.md",),
        canonical=("vat_rates",),
        anchors=("src/billing/tax.py",),
    ),
    DemoDoc(
        "engineering/architecture.md",
        "engineering",
        "System Architecture",
        "How the web app, the API, the worker and the job queue fit together.",
        "# System Architecture\n\n## Services\n\nOne Django web app, a JSON API served by the same process, and\n"
        "a worker that sends e-mails, renders PDFs and charges cards.\n\n## Job Queue\n\nJobs live in "
        "Postgres (see [the decision](../adr/ADR-20260105T100000Z-postgres-job-queue.md)); the\n"
        "worker takes them with `SELECT ... FOR UPDATE SKIP LOCKED`.\n\n## Data Flow\n\nAn invoice is drafted "
        "in the web app, issued through the API, rendered and e-mailed by\nthe worker.\n",
        derived=("../domain/invoicing-rules.md",),
        canonical=("service_topology",),
        anchors=("src/worker/",),
    ),
    DemoDoc(
        "engineering/payment-retries.md",
        "engineering",
        "Payment Retry Policy",
        "When and how often a failed card payment is retried, and when we give up.",
        "# Payment Retry Policy\n\n## Schedule\n\nA failed charge is retried after 1 minute, 5 minutes and 1 "
        "hour.\n\n## Backoff and Jitter\n\nDelays are fixed; every retry of the same minute fires together.\n\n"
        "## Giving Up\n\nAfter the third failure the invoice is marked `payment_failed` and the owner\nis "
        "e-mailed.\n",
        derived=("architecture.md",),
        canonical=("retry_policy",),
        anchors=("src/payments/retry.py",),
    ),
    DemoDoc(
        "ops/deploy-runbook.md",
        "ops",
        "Deploy and Rollback Runbook",
        "How a release is deployed through the canary and rolled back when it misbehaves.",
        "# Deploy and Rollback Runbook\n\n## Deploy\n\nMerge to `main`; the pipeline tests, builds, deploys a "
        "canary to 5 % of\ntraffic, then rolls out.\n\n## Rollback\n\nRun `scripts/rollback.sh RELEASE`; it "
        "re-points the load balancer at the previous\nrelease.\n\n## Deploy Freeze\n\nNo deploys during the "
        "last two days of a month: invoices are issued then.\n",
        derived=("../engineering/architecture.md",),
        canonical=("deploy_procedure",),
        anchors=("deploy/pipeline.yml", "scripts/rollback.sh"),
    ),
    DemoDoc(
        "adr/ADR-20260105T100000Z-postgres-job-queue.md",
        "adr",
        "Use Postgres as the Job Queue",
        "Why background jobs live in Postgres instead of a separate broker.",
        "# Use Postgres as the Job Queue\n\n## Context\n\nA handful of job types, a few thousand jobs a day, one "
        "database already run well.\n\n## Decision\n\nJobs are rows; workers claim them with `SKIP LOCKED`.\n\n"
        "## Rejected\n\nRedis queues and RabbitMQ: one more system to run and back up for no gain at\nour "
        "volume.\n",
        derived=("../engineering/architecture.md",),
    ),
)

LATER = (
    DemoDoc(
        "adr/ADR-20260202T100000Z-stripe-payments.md",
        "adr",
        "Stripe for Card Payments",
        "Why card payments go through Stripe and what we keep on our side.",
        "# Stripe for Card Payments\n\n## Decision\n\nCards are charged through Stripe; we store the customer "
        "and payment method ids,\nnever card data.\n\n## Consequences\n\nRetries follow our own policy "
        "([Payment Retry Policy](../engineering/payment-retries.md)),\nnot Stripe's smart retries.\n",
        derived=("../engineering/payment-retries.md",),
    ),
    DemoDoc(
        "ops/monitoring.md",
        "ops",
        "Monitoring and Alerts",
        "Which dashboards and alerts watch invoicing and payments, and who is paged.",
        "# Monitoring and Alerts\n\n## Dashboards\n\nInvoices issued per hour, payment success rate, queue "
        "depth.\n\n## Alerts\n\nPayment success under 90 % for 15 minutes pages the on-call engineer; the\n"
        "thresholds are listed in [the alert catalogue](../engineering/alert-catalogue.md).\n",
        derived=("deploy-runbook.md",),
    ),
    DemoDoc(
        "use-cases/UC-001-send-an-invoice.md",
        "use_case",
        "Send an Invoice",
        "How a workshop owner drafts, issues and sends an invoice to a customer.",
        "# Send an Invoice\n\n## Main Flow\n\n1. The owner drafts an invoice from a template.\n2. They issue it: "
        "it takes the next number of the series.\n3. The customer receives a PDF and a payment link.\n\n"
        "## Alternatives\n\nA draft can be deleted; an issued invoice can only be credited.\n",
        derived=("../domain/invoicing-rules.md",),
    ),
    DemoDoc(
        "features/FT-001-recurring-invoices.md",
        "feature",
        "Recurring Invoices",
        "Delivery of invoices that repeat monthly or yearly for subscriptions and retainers.",
        "# Recurring Invoices\n\n## Scope\n\nA schedule issues a copy of a template invoice each period.\n\n"
        "## Acceptance\n\nThe issued copies take consecutive numbers of the series.\n",
        derived=("../domain/invoicing-rules.md",),
        status="draft",
    ),
)

HAND_WRITTEN = """---
title: Notes on Caching
doc_kind: engineering
doc_function: canonical
purpose: What we cache in front of the invoice PDFs and for how long.
status: active
---
# Notes on Caching

## PDF Cache

Rendered PDFs are cached for a day, keyed by invoice number and version.

## Invalidation

A credit note invalidates the cached PDF of the invoice it corrects.
"""

INBOX = (
    (
        "retries-bunch-up.md",
        "claude-code",
        "Retries bunch up at the top of the hour",
        "Observed while debugging payments: fixed retry delays make failed charges retry together.",
        "Fixed delays line every retry up on the same minute; Stripe rate-limited us twice last week.\n"
        "The code now uses jitter, the policy document does not say so.\n",
    ),
    (
        "eu-reverse-charge.md",
        "cursor",
        "EU reverse charge for B2B invoices",
        "Cross-border B2B invoices inside the EU carry no VAT and a reverse-charge mention.",
        "Implemented in `src/billing/tax.py`: when buyer and seller are VAT-registered businesses in\n"
        'different EU countries, the rate is 0 and the invoice says "reverse charge".\n',
    ),
    (
        "deploy-freeze-calendar.md",
        "codex",
        "Deploy freeze calendar",
        "The exact days deploys are frozen around month-end invoicing, as a calendar to check.",
        "## Freeze Days\n\nThe last two calendar days of every month, and the first business day.\n",
    ),
    (
        "flaky-pdf-test.md",
        "claude-code",
        "Flaky PDF rendering test",
        "A note that the PDF snapshot test fails on machines without the Inter font.",
        "Install the font or skip the test; nothing for the bank really.\n",
    ),
)


def build_demo(dest: str | os.PathLike[str] | None = None) -> Path:
    """Build the demo repository and return the path of its bank (``<dest>/harbor/memory_bank``).

    Args:
        dest: a directory to build in; a new temporary directory when None.
    """
    base = Path(dest) if dest is not None else Path(tempfile.mkdtemp(prefix="memorybank-demo-"))
    repo = base / PROJECT
    root = repo / "memory_bank"
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    with clock.pinned("2026-01-05T09:00:00Z"):
        init(root, name=PROJECT.title())
    for rel, text in CODE_V1.items():
        _write(repo, rel, text)
    _commit(repo, "Seed the memory bank and the first code", "2026-01-05")

    bank = Bank.open(root)
    with clock.pinned("2026-01-12T09:00:00Z"):
        for doc in FOUNDATION:
            _create(bank, doc)
    _commit(repo, "Document invoicing, tax, the architecture, retries and deploys", "2026-01-12")

    with clock.pinned("2026-02-02T09:00:00Z"):
        for doc in LATER:
            _create(bank, doc)
    _commit(repo, "Decision on Stripe, monitoring, the first use case and feature", "2026-02-02")

    _write(repo, "src/payments/retry.py", '"""Card payment retries."""\n\nDELAYS = [60, 300, 3600]\nJITTER = 0.3\n')
    _commit(repo, "Retry card payments with decorrelated jitter", "2026-04-20")
    _write(
        repo,
        "src/billing/invoice.py",
        CODE_V1["src/billing/invoice.py"] + "\n\ndef credit_number(series, last):\n"
        '    return f"CN-{series}-{last + 1:06d}"\n',
    )
    _commit(repo, "Number credit notes in their own series", "2026-05-04")
    _write(
        repo,
        "src/billing/tax.py",
        CODE_V1["src/billing/tax.py"] + "\n\ndef reverse_charge(buyer, seller):\n"
        "    return buyer.vat_id and seller.country != buyer.country\n",
    )
    _commit(repo, "Apply the EU reverse charge to cross-border B2B invoices", "2026-05-11")

    bank.refresh()
    with clock.pinned("2026-05-12T09:00:00Z"):
        update_section(
            bank,
            path="domain/invoicing-rules.md",
            section="Credit Notes",
            mode="append",
            content="Credit notes are numbered by `credit_number()`, one series per year.",
        )
    _commit(repo, "Invoicing rules: say how credit notes are numbered", "2026-05-12")

    _write(root, "engineering/caching-notes.md", HAND_WRITTEN)
    _commit(repo, "Add caching notes", "2026-05-20")

    bank.refresh()
    # The notes are captured now (they are not committed), so the demo's inbox is fresh whenever
    # it is built; pictures and tests pin their capture times themselves.
    for name, client, title, purpose, body in INBOX:
        create(bank, path=f"_inbox/{name}", title=title, purpose=purpose, body=body, inbox=True, client=client)
    propose(
        bank,
        action="promote",
        path="_inbox/deploy-freeze-calendar.md",
        client="codex",
        to="ops/deploy-freeze-calendar.md",
        doc_kind="ops",
        derived_from=["deploy-runbook.md"],
        reason="The runbook names the freeze but not its days; this is the calendar.",
    )
    return root


def main() -> None:  # pragma: no cover - a convenience for looking at the bank without the app
    print(build_demo())


if __name__ == "__main__":  # pragma: no cover
    main()
