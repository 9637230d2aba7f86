"""Run one bounded reconsolidation pass over one principal's memory bank by hand."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from common.selectors.flags import flag_state
from reconsolidation.management.owners import principal_from_option
from reconsolidation.planners.summaries import SummaryPlan, summary_statement
from reconsolidation.planning import MergePlan, NoticePlan, Plan, notice_statement
from reconsolidation.services.passes import reconsolidation_pass, reconsolidation_plan

HOW_TO_TURN_ON = (
    "certify the current code (`manage.py evaluate_reconsolidation --out DIR`, then "
    "`manage.py certify --results DIR/results.json --capability reconsolidation`), then turn "
    "reconsolidation_surface and reconsolidation on (operator admin > Flags, or "
    "REVERIE_FLAG_RECONSOLIDATION_SURFACE=1 and REVERIE_FLAG_RECONSOLIDATION=1); --dry-run "
    "shows what a pass would do meanwhile"
)


def refusal() -> str | None:
    """Why a pass may not run now, or None: only while the capability is effectively on."""
    state = flag_state("reconsolidation")
    if state.enabled:
        return None
    why = f"it is off because {state.reason}" if state.reason else "it is switched off"
    return f"reconsolidation does no new processing: {why}. To run it, {HOW_TO_TURN_ON}."


def derived_text(plan: Plan) -> str:
    """What applying ``plan`` would write, before the commit-time checks."""
    if isinstance(plan, MergePlan):
        return plan.sources[0].statement
    if isinstance(plan, SummaryPlan):
        return summary_statement(plan.subject, plan.claims, len(plan.omitted))
    if isinstance(plan, NoticePlan):
        return notice_statement(plan.sources[0].subject, [s.statement for s in plan.sources])
    return plan.statement


class Command(BaseCommand):
    help = (
        "Run one bounded reconsolidation pass over the bank of the principal --owner (a "
        "username or public id) and print what it did. Only while the reconsolidation "
        "capability is effectively on (certified for the current code, reconsolidation_surface "
        "on, the kill switch off); --dry-run prints the plans of the next pass and writes "
        "nothing, whatever the flags. The output holds the owner's memory text: this is the "
        "machine administrator's command."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", required=True)
        parser.add_argument("--once", action="store_true", help="one pass (the only mode)")
        parser.add_argument("--slice", type=int, help="beliefs read at most")
        parser.add_argument(
            "--dry-run", action="store_true", help="print the plans and write nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["slice"] is not None and options["slice"] < 1:
            raise CommandError("--slice must be at least 1")
        dry_run = options["dry_run"]
        principal = principal_from_option(
            options["owner"],
            command="reconsolidate --dry-run" if dry_run else "reconsolidate",
            changes=not dry_run,
        )
        if options["dry_run"]:
            self._dry_run(principal, options["slice"])
            return
        if reason := refusal():
            raise CommandError(reason)
        report = reconsolidation_pass(principal=principal, slice_size=options["slice"])
        if not report.leased:
            self.stdout.write(f"nothing done: {report.stopped.replace('_', ' ')}")
            return
        outcomes = ", ".join(f"{n} {o}" for o, n in sorted(report.outcomes.items())) or "none"
        self.stdout.write(
            f"read {report.read} memories; planned {report.planned} operations; "
            f"outcomes: {outcomes}"
            + ("; full scan completed" if report.full_scan_completed else "")
            + (f"; stopped: {report.stopped}" if report.stopped else "")
            + "\nsee them with `manage.py operations --owner "
            + f"{principal.get_username()}` or on the review site (Operations)"
        )

    def _dry_run(self, principal: User, slice_size: int | None) -> None:
        plans, suppressed, report = reconsolidation_plan(principal=principal, slice_size=slice_size)
        done = report.outcomes.get("already_applied", 0)
        self.stdout.write(
            f"dry run: read {report.read} memories; {len(plans) - len(suppressed)} operation(s) "
            f"would be applied ({done} done already, {len(suppressed)} dismissed by the owner "
            "before); nothing was written"
        )
        for number, plan in enumerate(plans, start=1):
            dismissed = " [dismissed by the owner: not applied]" if plan in suppressed else ""
            self.stdout.write(
                f"\n{number}. {plan.kind.replace('_', ' ')}{dismissed}: {derived_text(plan)}"
            )
            for source in sorted(plan.sources, key=lambda source: source.pk):
                self.stdout.write(
                    f"   from {source.public_id} (revision {source.revision}): {source.statement}"
                )
