"""One bounded reconsolidation pass over one principal's bank.

A pass holds the principal's lease (content-free, so a scheduler can see it
across principals), reads a slice of beliefs through the changed-input cursor
first and the full-scan cursor after, plans without any transaction open, and
commits operations in groups, one transaction each (``operations_apply`` rechecks what
the plan read). Two workers never run passes over the same bank at once, and
if they raced anyway each operation would still be applied once.
"""

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from common.principal import principal_context
from common.selectors.flags import flag_enabled
from core.cycles import cycle_collection_paused
from core.lookups import AnyOf
from memory.enums import LIVE_BELIEF_STATUSES, Polarity
from memory.models import Belief
from reconsolidation.consistent_subjects import consistent_remember, consistent_unchanged
from reconsolidation.models import Cursor, Lease, Lineage, Suppression
from reconsolidation.planners.claim_parts import claim_parts, turns
from reconsolidation.planners.hypotheses import plan_hypotheses
from reconsolidation.planners.summaries import plan_entity_summaries, plan_summaries
from reconsolidation.planning import (
    SINGLE_VALUED_SUBJECTS,
    Plan,
    SourceView,
    contradicts,
    plan_merges,
    plan_notices,
    suppression_fingerprint,
)
from reconsolidation.selectors.dependents import active_dependents
from reconsolidation.selectors.hypotheses import hypothesis_inputs
from reconsolidation.selectors.sources import ClaimRow, claim_rows, source_views, subject_marks
from reconsolidation.selectors.summaries import entity_summary_inputs, summary_inputs

from .hypotheses import hypotheses_expire
from .operations import KINDS, Outcome, operations_apply

# Plans committed together in one transaction; between groups a pass looks at
# the kill switch and renews its lease.
GROUP_PLANS = 100


@dataclass
class PassReport:
    principal_id: int
    leased: bool = True
    read: int = 0
    planned: int = 0
    # How many plans had each ``Outcome``.
    outcomes: dict[str, int] = field(default_factory=dict)
    full_scan_completed: bool = False
    stopped: str = ""
    expired_hypotheses: int = 0

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


class PassPreview(NamedTuple):
    """What ``reconsolidation_plan`` found the next pass would try to apply."""

    plans: list[Plan]
    # The plans the owner dismissed before, which a pass would not apply.
    suppressed: set[Plan]
    report: PassReport


def default_holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def lease_acquire(principal: User, holder: str, *, now: datetime | None = None) -> bool:
    """Take the principal's lease for ``holder``; False while someone else holds a live one."""
    now = now or timezone.now()
    expires_at = now + timedelta(seconds=settings.REVERIE_RECONSOLIDATION["lease_seconds"])
    with transaction.atomic():
        taken = (
            Lease.objects.filter(principal=principal)
            .filter(Q(holder=holder) | Q(expires_at__lte=now))
            .update(holder=holder, expires_at=expires_at, heartbeat_at=now)
        )
        if taken:
            return True
        try:
            with transaction.atomic():
                Lease.objects.create(
                    principal=principal, holder=holder, expires_at=expires_at, heartbeat_at=now
                )
        except IntegrityError:
            return False  # a live lease of another holder
        return True


def lease_heartbeat(principal: User, holder: str, *, now: datetime | None = None) -> bool:
    """Extend the lease, at most every ``heartbeat_seconds``; False if it was lost."""
    now = now or timezone.now()
    config = settings.REVERIE_RECONSOLIDATION
    lease = Lease.objects.filter(principal=principal, holder=holder).first()
    if lease is None:
        return False
    if (now - lease.heartbeat_at).total_seconds() < config["heartbeat_seconds"]:
        return True
    return bool(
        Lease.objects.filter(principal=principal, holder=holder).update(
            heartbeat_at=now, expires_at=now + timedelta(seconds=config["lease_seconds"])
        )
    )


def lease_release(principal: User, holder: str) -> None:
    Lease.objects.filter(principal=principal, holder=holder).delete()


def _slice(principal: User, cursor: Cursor, size: int, report: PassReport) -> set[str]:
    """Claim keys to (re)plan: of changed beliefs first, then the next keys of the full scan.

    Planning reads every live belief with one of these keys through the
    (owner, claim_key) index. The full scan walks the distinct keys in order,
    so a full pass reads each belief once: near-linear in the bank. The
    changed-input cursor starts where the first full scan starts, which
    covers everything older.
    """
    keys: set[str] = set()
    rows: list[tuple[datetime, int, str]] = []
    if cursor.changed_at is None:
        newest = (
            Belief.objects.filter(owner=principal)
            .order_by("-updated_at", "-id")
            .values_list("updated_at", "id")
            .first()
        )
        cursor.changed_at, cursor.changed_id = newest or (timezone.now(), 0)
    else:
        # A range on updated_at that the (owner, updated_at) index can seek to;
        # an OR of the two halves would be read from the start of the index.
        rows = list(
            Belief.objects.filter(owner=principal, updated_at__gte=cursor.changed_at)
            .exclude(updated_at=cursor.changed_at, id__lte=cursor.changed_id)
            .order_by("updated_at", "id")
            .values_list("updated_at", "id", "claim_key")[:size]
        )
        for updated_at, belief_id, key in rows:
            keys.add(key)
            cursor.changed_at, cursor.changed_id = updated_at, belief_id
    room = size - len(rows)
    if room > 0:
        scanned = list(
            Belief.objects.filter(
                owner=principal,
                status__in=LIVE_BELIEF_STATUSES,
                claim_key__gt=cursor.scanned_key,
            )
            .order_by("claim_key")
            .values_list("claim_key", flat=True)
            .distinct()[:room]
        )
        keys.update(scanned)
        if len(scanned) < room:
            cursor.scanned_key = ""
            cursor.full_scans += 1
            report.full_scan_completed = True
        else:
            cursor.scanned_key = scanned[-1]
    keys.discard("")
    return keys


def _contested_views(
    principal: User, views: Sequence[SourceView]
) -> tuple[set[int], list[SourceView]]:
    """``(ids read, views)``: the live beliefs of the subjects among ``views`` that may hold
    a contradiction, and as ``SourceView``s those of the subjects that do hold one.

    A subject is weighed whole only when the slice holds a negative claim on it,
    a claim that may turn another around (a negation in its words, "sold",
    "distrusts"), or when it is single-valued: reading every subject a slice
    touches would reload popular subjects in every slice. A contradiction whose
    turning side is not in this slice is found when the full scan reaches that
    side. A popular subject holds a turning claim in nearly every slice and
    seldom a contradiction, so it is weighed through ``claim_rows``, read as
    views only when it contradicts itself, and weighed again only once one of
    its live beliefs is added, changed or retired (``consistent_subjects``).
    """
    contested: set[str] = set()
    for view in views:
        if (
            view.subject
            # Parsed only while its subject is not weighed yet.
            and view.subject not in contested
            and (
                view.polarity == Polarity.NEGATIVE
                or view.subject in SINGLE_VALUED_SUBJECTS
                or turns(claim_parts(view.statement))
            )
        ):
            contested.add(view.subject)
    if not contested:
        return set(), []
    marks = subject_marks(principal, contested)
    weighed = set(marks) - consistent_unchanged(principal.pk, marks)
    groups: dict[tuple[str, str], list[ClaimRow]] = {}
    for row in claim_rows(principal, subject__in=weighed) if weighed else ():
        groups.setdefault((row.subject, row.scope), []).append(row)
    # The groups ``plan_notices`` makes a plan of.
    contradicting = {
        subject for (subject, _), rows in groups.items() if len(rows) > 1 and contradicts(rows)
    }
    consistent_remember(
        principal.pk, {subject: marks[subject] for subject in weighed - contradicting}
    )
    read = {row.pk for rows in groups.values() for row in rows}
    return read, source_views(principal, subject__in=contradicting) if contradicting else []


def _done_groups(principal: User, plans: Sequence[Plan]) -> set[tuple[str, frozenset[int]]]:
    """(derived kind, beliefs) of the active derived memories that share a belief with one of
    ``plans`` of their own kind.

    Only those are read whole: a popular subject's summary shares beliefs with
    the merges of every slice, and reading its whole lineage for each of them
    would cost a full bank per slice. Summary plans are left to the committing
    transaction: one is only made for a subject that no active summary covers
    whole, so it is hardly ever done already, and looking up every belief of a
    popular subject here would repeat the lookups that applying it makes.
    """
    kinds: dict[int, set[str]] = {}
    for plan in plans:
        for pk in plan.belief_ids if plan.kind != "summary" else ():
            kinds.setdefault(pk, set()).add(KINDS[plan.kind][1])
    wanted = {
        derived_id: kind
        for derived_id, belief_id, kind in active_dependents(principal, kinds)
        if kind in kinds[belief_id]
    }
    groups: dict[int, set[int]] = {}
    for derived_id, belief_id in Lineage.objects.filter(
        owner=principal, derived_id__in=list(wanted)
    ).values_list("derived_id", "belief_id"):
        groups.setdefault(derived_id, set()).add(belief_id)
    return {(wanted[derived_id], frozenset(group)) for derived_id, group in groups.items()}


def _plan_slice(
    principal: User,
    cursor: Cursor,
    size: int,
    report: PassReport,
    *,
    now: datetime | None = None,
) -> list[Plan]:
    """Plans for the next slice the ``cursor`` names (moved on in memory only; the caller
    saves it), without the ones done already, which ``report`` counts as such. ``now`` is
    the time hypothesis lifetimes are judged at (the wall clock when None)."""
    with principal_context(principal):
        keys = _slice(principal, cursor, size, report)
        views = source_views(principal, AnyOf(F("claim_key"), keys))
        weighed, contested = _contested_views(principal, views)
        guessed, events = hypothesis_inputs(principal, views, rotation=cursor.full_scans)
        summarised = summary_inputs(principal, views)
        named = entity_summary_inputs(principal, views, rotation=cursor.full_scans)
        plans: list[Plan] = [
            *plan_merges(views),
            *plan_notices(contested),
            *plan_hypotheses(guessed, events, now=now),
            *plan_summaries(summarised),
            *plan_entity_summaries(named.sources, names=named.names, summarised=named.summarised),
        ]
        done = _done_groups(principal, plans)
    report.read = len(
        {view.pk for view in views + contested + guessed + summarised + named.sources} | weighed
    )
    report.planned = len(plans)
    pending: list[Plan] = []
    for plan in plans:
        if (KINDS[plan.kind][1], plan.belief_ids) in done:
            # Done already, as read above; no transaction needed to know it.
            report.count(Outcome.ALREADY_APPLIED)
        else:
            pending.append(plan)
    return pending


def reconsolidation_plan(*, principal: User, slice_size: int | None = None) -> PassPreview:
    """What the next pass over ``principal``'s bank would try to apply, writing nothing:
    a ``PassPreview``, its ``suppressed`` being the plans the owner dismissed
    before (undone, rejected or deleted), which a pass would not apply. No lease is taken
    and no cursor moves; a real pass still rechecks every plan (revisions, fences) when it
    applies it."""
    size = slice_size or settings.REVERIE_RECONSOLIDATION["slice_beliefs"]
    report = PassReport(principal_id=principal.pk)
    cursor = Cursor.objects.filter(principal=principal).first() or Cursor(principal=principal)
    plans = _plan_slice(principal, cursor, size, report)
    fingerprints = {plan: suppression_fingerprint(plan) for plan in plans}
    with principal_context(principal):
        dismissed = set(
            Suppression.objects.filter(
                owner=principal, fingerprint__in=set(fingerprints.values())
            ).values_list("fingerprint", flat=True)
        )
    return PassPreview(plans, {plan for plan in plans if fingerprints[plan] in dismissed}, report)


def reconsolidation_pass(
    *,
    principal: User,
    holder: str | None = None,
    slice_size: int | None = None,
    now: datetime | None = None,
) -> PassReport:
    """Run one bounded pass over ``principal``'s bank; return what it did.

    ``now`` is the clock hypothesis lifetimes are judged by: None (production)
    is the wall clock. A replay of recorded conversations passes the bank's
    newest evidence time, so that a lifetime counts from evidence relative to
    the newest evidence there is, not to the day the replay runs.
    """
    holder = holder or default_holder()
    size = slice_size or settings.REVERIE_RECONSOLIDATION["slice_beliefs"]
    report = PassReport(principal_id=principal.pk)
    if flag_enabled("maintenance_kill_switch"):
        report.leased, report.stopped = False, "kill_switch"
        return report
    if not lease_acquire(principal, holder):
        report.leased, report.stopped = False, "leased_elsewhere"
        return report
    try:
        # At 100,000 beliefs a sixth of a full pass went to full collections walking the
        # slice's working set; a pass builds hardly any cycles for the collector to free.
        with cycle_collection_paused():
            _pass_run(principal, holder, size, report, now=now)
    finally:
        lease_release(principal, holder)
    return report


def _pass_run(
    principal: User, holder: str, size: int, report: PassReport, *, now: datetime | None
) -> None:
    """The leased part of ``reconsolidation_pass``: plan the next slice and apply it in groups."""
    # Whatever the slice holds, every pass ends the guesses whose lifetime is over.
    report.expired_hypotheses = hypotheses_expire(principal=principal, now=now)
    cursor, _ = Cursor.objects.get_or_create(principal=principal)
    pending = _plan_slice(principal, cursor, size, report, now=now)
    for start in range(0, len(pending), GROUP_PLANS):
        if flag_enabled("maintenance_kill_switch"):
            report.stopped = "kill_switch"
            break
        if not lease_heartbeat(principal, holder):
            report.stopped = "lease_lost"
            break
        group = pending[start : start + GROUP_PLANS]
        for outcome in operations_apply(principal=principal, plans=group):
            report.count(outcome)
    if not report.stopped:
        # Only a completed slice moves the cursors; a stopped one is read again.
        cursor.last_pass_at = timezone.now()
        cursor.save()
