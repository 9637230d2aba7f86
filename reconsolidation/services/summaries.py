"""Writing a lossless related summary: its view, its attributed claims and its lineage.

Called by ``operations_apply`` inside the committing transaction, with the
plan's sources locked and rechecked; nothing here commits on its own.
"""

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from accounts.models import User
from memory.enums import BeliefType, Portability, Sensitivity, most_restrictive
from reconsolidation.models import ClaimSupport, DerivedMemory, Lineage, Operation, SummaryClaim
from reconsolidation.planners.summaries import (
    SUMMARY_MIN_CLAIMS,
    ClaimPlan,
    SummaryPlan,
    summary_statement,
)
from reconsolidation.planning import Plan
from reconsolidation.rows import rows_insert

if TYPE_CHECKING:
    # ``operations`` calls into this module with the beliefs it locked.
    from .operations import LockedBelief

# The columns of a lineage row, in the order ``summary_lineage`` gives them.
LINEAGE_COLUMNS = ["owner_id", "derived_id", "belief_id", "belief_revision", "role"]
# A lineage row: owner, derived memory and belief ids, the belief's revision, and its role.
LineageRow = tuple[int, int, int, int, str]


def summary_shown(plan: SummaryPlan, suppressed: Collection[str]) -> tuple[ClaimPlan, ...] | None:
    """The plan's claims that the owner has not rejected before, in order; None when fewer
    than ``SUMMARY_MIN_CLAIMS`` remain (there is then nothing worth a summary)."""
    shown = tuple(claim for claim in plan.claims if claim.fingerprint not in suppressed)
    return shown if len(shown) >= SUMMARY_MIN_CLAIMS else None


def summary_dependents(principal: User, plans: Iterable[Plan]) -> Iterable[tuple[int, int]]:
    """(derived id, belief id) of the lineage of the active summaries over the subjects and
    scopes of the summary ``plans``: the summaries those plans repeat or regroup.

    Found by subject rather than through the lineage of every belief a plan
    read, which for a popular subject would be thousands of lookups.
    """
    wanted = {(plan.subject, plan.scope) for plan in plans if isinstance(plan, SummaryPlan)}
    if not wanted:
        return []
    summaries = [
        pk
        for pk, subject, scope in DerivedMemory.objects.filter(
            owner=principal,
            kind=DerivedMemory.Kind.SUMMARY,
            status=DerivedMemory.Status.ACTIVE,
            subject__in={subject for subject, _ in wanted},
        ).values_list("pk", "subject", "scope")
        if (subject, scope) in wanted
    ]
    return Lineage.objects.filter(owner=principal, derived_id__in=summaries).values_list(
        "derived_id", "belief_id"
    )


def summary_restated_ids(shown: Iterable[ClaimPlan]) -> set[int]:
    """The originals whose text the summary copies: the supports of its shown claims."""
    return {pk for claim in shown for pk in claim.belief_ids}


def summary_view(
    principal: User,
    operation: Operation,
    plan: SummaryPlan,
    shown: Sequence[ClaimPlan],
    beliefs: Mapping[int, "LockedBelief"],
) -> DerivedMemory:
    """The summary as a derived memory. ``beliefs`` are the locked sources by primary key.

    Its visibility is the most restrictive of everything it read, omitted
    inputs included; its confidence is no higher than its weakest shown
    claim's best support, since a summary corroborates nothing; its evidence
    time is the newest evidence of what it shows, never the time it was made.
    """
    read = list(beliefs.values())
    supports = [[beliefs[pk] for pk in claim.belief_ids] for claim in shown]
    stated = [belief for group in supports for belief in group]
    evidence = [belief.evidence_at for belief in stated if belief.evidence_at]
    types = {claim.type for claim in shown}
    polarities = {claim.polarity for claim in shown}
    return DerivedMemory(
        owner=principal,
        operation=operation,
        kind=DerivedMemory.Kind.SUMMARY,
        type=types.pop() if len(types) == 1 else BeliefType.FACT,
        subject=plan.subject,
        statement=summary_statement(
            plan.subject, shown, len(plan.claims) + len(plan.omitted) - len(shown)
        ),
        # Each claim keeps its own polarity; the summary as a whole affirms them.
        polarity=polarities.pop() if len(polarities) == 1 else "positive",
        scope=plan.scope,
        sensitivity=most_restrictive(Sensitivity, [b.sensitivity for b in read]),
        portability=most_restrictive(Portability, [b.portability for b in read]),
        confidence=min(max(b.confidence for b in group) for group in supports),
        valid_from=_envelope([b.valid_from for b in stated], min),
        valid_until=_envelope([b.valid_until for b in stated], max),
        evidence_at=max(evidence) if evidence else None,
    )


def _envelope(
    bounds: list[datetime | None], pick: Callable[[list[datetime]], datetime]
) -> datetime | None:
    """The widest of the claims' validity bounds; open when any claim's is open."""
    closed = [bound for bound in bounds if bound is not None]
    return None if len(closed) < len(bounds) else pick(closed)


def summary_lineage(
    principal: User,
    derived: DerivedMemory,
    plan: SummaryPlan,
    shown: Iterable[ClaimPlan],
    beliefs: Mapping[int, "LockedBelief"],
) -> list[LineageRow]:
    """Lineage rows for every belief the summary read, as ``LINEAGE_COLUMNS`` tuples:
    ``source`` for the supports of its shown claims, ``omitted`` for the rest, so that a
    change to either invalidates it."""
    stated = summary_restated_ids(shown)
    # Tuples rather than models: a popular subject's summary has thousands of rows.
    return [
        (
            principal.pk,
            derived.pk,
            pk,
            belief.revision,
            Lineage.Role.SOURCE if pk in stated else Lineage.Role.OMITTED,
        )
        for pk, belief in sorted(beliefs.items())
    ]


def summary_claims_create(
    principal: User,
    summaries: Sequence[tuple[DerivedMemory, Sequence[ClaimPlan], Mapping[int, "LockedBelief"]]],
) -> None:
    """The claim rows of each ``(derived, shown, beliefs)``, each attributed to every
    original that states it, at the revision read."""
    claims = SummaryClaim.objects.bulk_create(
        SummaryClaim(
            owner_id=principal.pk,
            derived_id=derived.pk,
            position=position,
            statement=claim.statement,
            polarity=claim.polarity,
            uncertain=claim.uncertain,
            fingerprint=claim.fingerprint,
        )
        for derived, shown, _ in summaries
        for position, claim in enumerate(shown, start=1)
    )
    plans = [(claim, beliefs) for _, shown, beliefs in summaries for claim in shown]
    rows_insert(
        ClaimSupport,
        ["owner_id", "claim_id", "belief_id", "belief_revision"],
        (
            (principal.pk, row.pk, pk, beliefs[pk].revision)
            for row, (claim, beliefs) in zip(claims, plans, strict=True)
            for pk in sorted(claim.belief_ids)
        ),
    )
