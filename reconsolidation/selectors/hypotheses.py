"""What the hypothesis planner reads for one slice of a pass: found through indexes, bounded.

An entity subject is looked up once per full scan: in the slice that holds
its smallest live claim key (one probe of the (owner, subject, claim_key)
index tells), since a popular subject has beliefs in nearly every slice.
Then the owner's full-text index names a few beliefs of other subjects that
mention the entity, unranked, and the same index gives the subject's own
first beliefs. The work per subject is a fixed number of index lookups,
never a comparison of every belief with every other.
"""

import hashlib
from collections.abc import Iterable, Sequence

from django.db.models import F

from accounts.models import User
from common.principal import principal_context
from core.lookups import AnyOf
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief, BeliefSource
from memory.search import belief_mentions
from memory.selectors.beliefs import belief_subjects_first_keyed
from memory.text import query_terms
from reconsolidation.planners.hypotheses import SIDE_BELIEFS, BeliefEvents, entity_words
from reconsolidation.planning import SourceView
from reconsolidation.selectors.sources import source_views

# Beliefs of other subjects read per entity.
MATCHES_PER_SUBJECT = 8
# Beliefs of the entity subject itself read per entity, of which the planner
# keeps the first grounded ones.
OWN_BELIEFS = 2 * SIDE_BELIEFS
# Entity subjects looked up per slice: a full-text search each. A slice touching
# more leaves the rest to later slices and full scans; the choice is a hash
# salted with the full scan's number, so that no subject is always left out.
SUBJECTS_PER_SLICE = 100


def _events(principal: User, belief_ids: Iterable[int]) -> dict[int, BeliefEvents]:
    """{belief pk: (source event ids, their session ids)} for the grounded ones among them."""
    found: dict[int, tuple[set[int], set[int]]] = {}
    for belief_id, event_id, session_id in BeliefSource.objects.filter(
        AnyOf(F("belief_id"), belief_ids), owner=principal
    ).values_list("belief_id", "event_id", "event__session_id"):
        events, sessions = found.setdefault(belief_id, (set(), set()))
        events.add(event_id)
        sessions.add(session_id)
    return {pk: (frozenset(e), frozenset(s)) for pk, (e, s) in found.items()}


def _grounded(principal: User, belief_ids: Iterable[int]) -> set[int]:
    """The ids among ``belief_ids`` of beliefs formed from at least one event."""
    return set(
        BeliefSource.objects.filter(AnyOf(F("belief_id"), belief_ids), owner=principal).values_list(
            "belief_id", flat=True
        )
    )


def _first_in_scan(principal: User, views: Iterable[SourceView]) -> list[str]:
    """The entity subjects of grounded ``views`` whose smallest live claim key is among them.

    One statement for the whole slice (``belief_subjects_first_keyed``).
    """
    smallest: dict[str, str] = {}
    for view in views:
        key, subject = view.claim_key, view.subject
        if key and entity_words(subject) and key < smallest.get(subject, "\uffff"):
            smallest[subject] = key
    subjects: list[str] = belief_subjects_first_keyed(principal=principal, claim_keys=smallest)
    return subjects


def hypothesis_inputs(
    principal: User, views: Sequence[SourceView], *, rotation: int = 0
) -> tuple[list[SourceView], dict[int, BeliefEvents]]:
    """``(sources, events)`` for ``plan_hypotheses`` over the subjects first met in ``views``.

    ``rotation`` (e.g. the number of full scans so far) varies which subjects a
    slice holding more than ``SUBJECTS_PER_SLICE`` looks up.
    """
    with principal_context(principal):
        grounded = _grounded(principal, [view.pk for view in views])
        subjects = sorted(
            _first_in_scan(principal, [view for view in views if view.pk in grounded]),
            key=lambda subject: hashlib.sha256(f"{rotation}:{subject}".encode()).digest(),
        )[:SUBJECTS_PER_SLICE]
        wanted: set[int] = set()
        for subject in subjects:
            terms = query_terms(" ".join(entity_words(subject)))
            if not terms:
                continue
            matches = belief_mentions(
                owner_id=principal.pk,
                terms=terms,
                exclude_subject=subject,
                limit=MATCHES_PER_SUBJECT,
            )
            if not matches:
                continue
            wanted.update(matches)
            # The subject's first beliefs, grounded or not: a filter on their
            # sources would look up every belief of a popular subject.
            wanted.update(
                Belief.objects.filter(
                    owner=principal, subject=subject, status__in=LIVE_BELIEF_STATUSES
                )
                .order_by("claim_key")
                .values_list("id", flat=True)[:OWN_BELIEFS]
            )
        if not wanted:
            return [], {}
        return source_views(principal, AnyOf(F("id"), wanted)), _events(principal, wanted)
