"""Summaries as the owner reads them, and what a pass reads to plan them.

A summary is shown as an evidence journal: each claim with the originals
that support it, and the inputs it read but left out. Originals are shown as
they are now (status, revision and text), beside the revision the summary
read, so that the owner can see which claims still stand. A restricted
summary withholds its own generated text, as history reads do; the originals
are the owner's own records and are shown as usual.
"""

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.db.models import F

from accounts.models import User
from common.principal import principal_context
from core.errors import not_found
from core.ids import parse_public_id
from core.lookups import AnyOf
from formation.subjects import shared_subjects
from memory import search
from memory.enums import BeliefStatus
from memory.models import Belief
from memory.text import query_terms
from reconsolidation.models import ClaimSupport, DerivedMemory, Lineage, SummaryClaim
from reconsolidation.planners.hypotheses import NAMELESS_SUBJECTS
from reconsolidation.planning import SourceView
from reconsolidation.selectors.dependents import active_dependents
from reconsolidation.selectors.sources import source_views


class SummaryOriginal(TypedDict):
    """An original a summary read, as it is now beside the revision read."""

    belief: str
    read_revision: int
    status: str
    revision: int
    statement: str
    tombstone: bool


class SummaryJournalClaim(TypedDict):
    position: int
    statement: str
    polarity: str
    uncertain: bool
    supports: list[SummaryOriginal]


class SummaryJournal(TypedDict):
    """A summary as an evidence journal (``summary_detail``)."""

    id: str
    operation: str
    status: str
    review_state: str
    revision: int
    restricted: bool
    subject: str
    statement: str
    created_at: datetime
    updated_at: datetime
    claims: list[SummaryJournalClaim]
    omitted: list[SummaryOriginal]


def _original(belief: Belief, read_revision: int) -> SummaryOriginal:
    return {
        "belief": str(belief.public_id),
        "read_revision": read_revision,
        "status": belief.status,
        "revision": belief.revision,
        "statement": belief.statement,
        # Erased since: only its tombstone remains to link to.
        "tombstone": belief.status == BeliefStatus.DELETED,
    }


def summary_detail(principal: User, derived_id: object) -> SummaryJournal:
    """One of the principal's summaries as an evidence journal: the operation that made it,
    its claims in order, each with its supporting originals as they are now (a tombstone
    for an erased one), and its omitted inputs. Another owner's summary answers like a
    missing one."""
    with principal_context(principal):
        derived = DerivedMemory.objects.filter(
            owner=principal,
            kind=DerivedMemory.Kind.SUMMARY,
            public_id=parse_public_id(derived_id, "derived_id"),
        ).first()
        if derived is None:
            raise not_found("summary")
        claims = list(
            SummaryClaim.objects.filter(owner=principal, derived=derived).order_by("position")
        )
        supports = list(
            ClaimSupport.objects.filter(owner=principal, claim__in=claims).values_list(
                "claim_id", "belief_id", "belief_revision"
            )
        )
        omitted = list(
            Lineage.objects.filter(
                owner=principal, derived=derived, role=Lineage.Role.OMITTED
            ).values_list("belief_id", "belief_revision")
        )
        originals = Belief.objects.filter(
            owner=principal, pk__in={pk for _, pk, _ in supports} | {pk for pk, _ in omitted}
        ).in_bulk()
        operation_public_id = derived.operation.public_id
    by_claim: dict[int, list[SummaryOriginal]] = {}
    for claim_id, belief_id, revision in sorted(supports):
        by_claim.setdefault(claim_id, []).append(_original(originals[belief_id], revision))
    withheld = derived.restricted
    return {
        "id": str(derived.public_id),
        "operation": str(operation_public_id),
        "status": derived.status,
        "review_state": derived.review_state,
        "revision": derived.revision,
        "restricted": derived.restricted,
        "subject": "" if withheld else derived.subject,
        "statement": "" if withheld else derived.statement,
        "created_at": derived.created_at,
        "updated_at": derived.updated_at,
        "claims": [
            {
                "position": claim.position,
                "statement": "" if withheld else claim.statement,
                "polarity": claim.polarity,
                "uncertain": claim.uncertain,
                "supports": by_claim.get(claim.pk, []),
            }
            for claim in claims
        ],
        "omitted": [
            _original(originals[belief_id], revision) for belief_id, revision in sorted(omitted)
        ],
    }


def summary_inputs(principal: User, views: Iterable[SourceView]) -> list[SourceView]:
    """Every live belief of the subjects among ``views`` that an active summary does not
    already cover, for ``plan_summaries``.

    A subject is read whole, since a summary must hold all of its claims; but
    one whose beliefs in ``views`` all belong to an active summary is not read
    again, or every slice of a full scan would reload the popular subjects. A
    new belief is not covered yet, so its subject is read in the slice that
    finds it; a retired one invalidates the summary, so the next slice that
    meets the subject reads it again.
    """
    touched = {
        view.pk: view.subject
        for view in views
        if view.subject and view.subject not in NAMELESS_SUBJECTS
    }
    if not touched:
        return []
    with principal_context(principal):
        covered = {
            belief_id
            for _, belief_id, _ in active_dependents(
                principal, touched, kinds=[DerivedMemory.Kind.SUMMARY]
            )
        }
        subjects = {subject for pk, subject in touched.items() if pk not in covered}
        if not subjects:
            return []
        return source_views(principal, AnyOf(F("subject"), subjects))


# Beliefs read per shared subject. A name that more memories mention is not
# summarised: a summary of the ones one slice read would be replaced by one of
# others at the next slice that met the name.
ENTITY_BELIEFS = 48
# Shared subjects looked up per slice, a full-text lookup or two each; the rest
# wait for a later slice that meets them. Which ones a slice holding more looks
# up is a hash salted with the full scan's number, so that none is always left out.
ENTITIES_PER_SLICE = 50


@dataclass(frozen=True)
class EntityInputs:
    """What ``plan_entity_summaries`` reads: live ``sources``, the shared subjects whose
    beliefs they hold whole (``names``), and the beliefs the active summaries of the
    shared subjects met cover (``summarised``)."""

    sources: list[SourceView] = field(default_factory=list)
    names: frozenset[str] = frozenset()
    summarised: Mapping[str, frozenset[int]] = field(default_factory=dict)


def entity_summary_inputs(
    principal: User, views: Iterable[SourceView], *, rotation: int = 0
) -> EntityInputs:
    """Live beliefs that name a shared subject (``entity:<name>``) of ``views``, for
    ``plan_entity_summaries``.

    A shared subject whose beliefs in ``views`` an active summary of it already
    covers is not read again, and costs no lookup. Each of the others is looked
    up through the owner's full-text index, at most ``ENTITY_BELIEFS`` beliefs,
    so the work per slice is a bounded number of index lookups; the planner keeps
    only the beliefs that name it exactly, and plans only the names read whole.
    """
    by_entity: dict[str, set[int]] = {}
    own: dict[str, set[str]] = {}
    for view in views:
        for shared in shared_subjects(view.subject, view.statement):
            by_entity.setdefault(shared, set()).add(view.pk)
            own.setdefault(shared, set()).add(view.subject)
    if not by_entity:
        return EntityInputs()
    with principal_context(principal):
        summaries = dict(
            DerivedMemory.objects.filter(
                owner=principal,
                kind=DerivedMemory.Kind.SUMMARY,
                status=DerivedMemory.Status.ACTIVE,
                subject__in=list(by_entity),
            ).values_list("pk", "subject")
        )
        covered: dict[str, set[int]] = {}
        for derived_id, belief_id in Lineage.objects.filter(
            owner=principal, derived_id__in=list(summaries)
        ).values_list("derived_id", "belief_id"):
            covered.setdefault(summaries[derived_id], set()).add(belief_id)
        pending = sorted(
            (
                shared
                for shared in by_entity
                if not by_entity[shared] <= covered.get(shared, set()) and _name_terms(shared)
            ),
            key=lambda shared: hashlib.sha256(f"{rotation}:{shared}".encode()).digest(),
        )
        wanted: set[int] = set()
        names: set[str] = set()
        for shared in pending[:ENTITIES_PER_SLICE]:
            terms = _name_terms(shared)
            if len(own[shared]) == 1 and not search.belief_mentions(
                owner_id=principal.pk,
                terms=terms,
                exclude_subject=next(iter(own[shared])),
                limit=1,
            ):
                # Named by one subject alone: that subject's own summary, if any.
                continue
            mentions = search.belief_mentions(
                owner_id=principal.pk, terms=terms, exclude_subject="", limit=ENTITY_BELIEFS + 1
            )
            if len(mentions) > ENTITY_BELIEFS:
                # Too popular to read whole: a summary of some of its beliefs would
                # be replaced by one of others at every slice that met the name.
                continue
            wanted.update(mentions)
            names.add(shared)
        return EntityInputs(
            sources=source_views(principal, AnyOf(F("id"), wanted)) if wanted else [],
            names=frozenset(names),
            summarised={shared: frozenset(ids) for shared, ids in covered.items()},
        )


def _name_terms(shared: str) -> list[str]:
    """Full-text terms of a shared subject's name: its content words and its numbers, so
    that "gadget 2" is not looked up as every gadget."""
    words = shared.partition(":")[2].split("-")
    terms: list[str] = query_terms(" ".join(words))
    return terms + [word for word in words if word.isdigit() and word not in terms]
