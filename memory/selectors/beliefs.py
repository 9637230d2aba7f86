from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TypedDict

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet

from accounts.models import User
from core.errors import not_found, validation_error
from core.ids import parse_public_id
from memory.enums import LIVE_BELIEF_STATUSES, BeliefStatus, BeliefType
from memory.models import AuditRecord, Belief, BeliefSource
from memory.reach import FULL_REACH, Reach

from .feeds import change_feed


def _check_choices(values: Iterable[str], allowed: Sequence[str], field: str) -> list[str]:
    values = list(values)
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise validation_error(
            f"Unknown {field}: {', '.join(map(str, unknown))}.", field=field, allowed=list(allowed)
        )
    return values


def belief_list(
    *,
    principal: User,
    statuses: Iterable[str] | None = None,
    types: Iterable[str] | None = None,
    needs_review: bool | None = None,
    since: datetime | None = None,
    reach: Reach = FULL_REACH,
    related: bool = False,
) -> QuerySet[Belief]:
    """The principal's beliefs that ``reach`` sees, newest change first; every filter is
    optional. ``related`` fetches what a memory's representation shows with each page of
    them (see ``with_relations``)."""
    beliefs = reach.filter(Belief.objects.filter(owner=principal))
    if related:
        beliefs = with_relations(beliefs, reach=reach)
    if statuses is not None:
        beliefs = beliefs.filter(
            status__in=_check_choices(statuses, BeliefStatus.values, "statuses")
        )
    if types is not None:
        beliefs = beliefs.filter(type__in=_check_choices(types, BeliefType.values, "types"))
    if needs_review is not None:
        beliefs = beliefs.filter(needs_review=needs_review)
    if since is not None:
        beliefs = beliefs.filter(updated_at__gte=since)
    return beliefs.order_by("-updated_at", "-id")


def belief_review_queue(*, principal: User) -> QuerySet[Belief]:
    """Live memories waiting for the owner: provisional, or flagged for review."""
    return belief_list(principal=principal, statuses=LIVE_BELIEF_STATUSES).filter(
        Q(status=BeliefStatus.PROVISIONAL) | Q(needs_review=True)
    )


def belief_get(
    *, principal: User, belief_id: object, for_update: bool = False, reach: Reach = FULL_REACH
) -> Belief:
    """The principal's belief with this public id, if ``reach`` sees it; else ``not_found``."""
    beliefs = reach.filter(Belief.objects.filter(owner=principal))
    if for_update:
        beliefs = beliefs.select_for_update()
    return _one(beliefs, belief_id)


def belief_detail(*, principal: User, belief_id: object, reach: Reach = FULL_REACH) -> Belief:
    """``belief_get`` with what a memory's representation shows: the versions either side
    of it and its sources with their messages, fetched with it (two queries, not four)."""
    beliefs = with_relations(reach.filter(Belief.objects.filter(owner=principal)), reach=reach)
    return _one(beliefs, belief_id)


def belief_subjects_first_keyed(*, principal: User, claim_keys: Mapping[str, str]) -> list[str]:
    """The subjects of ``claim_keys`` ({subject: claim key}) of which no live belief of the
    principal has a smaller claim key than the one given.

    One statement for them all: for each subject, whether a live belief of it
    has a smaller key, each answered by a probe of the (owner, subject,
    claim_key) index.
    """
    if not claim_keys:
        return []
    values = ", ".join(["(%s, %s)"] * len(claim_keys))
    statuses = ", ".join(["%s"] * len(LIVE_BELIEF_STATUSES))
    sql = (
        f"WITH slice (subject, claim_key) AS (VALUES {values}) "
        "SELECT slice.subject FROM slice WHERE NOT EXISTS ("
        "SELECT 1 FROM memory_belief b WHERE b.owner_id = %s AND b.subject = slice.subject "
        f"AND b.claim_key < slice.claim_key AND b.claim_key <> '' AND b.status IN ({statuses}))"
    )
    params = [value for pair in sorted(claim_keys.items()) for value in pair]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, principal.pk, *LIVE_BELIEF_STATUSES])
        return [subject for (subject,) in cursor.fetchall()]


def with_relations(beliefs: QuerySet[Belief], *, reach: Reach = FULL_REACH) -> QuerySet[Belief]:
    """``beliefs`` with their neighbouring versions and their sources' messages and sessions.

    Only the sources whose messages ``reach`` sees: a memory every assistant sees may
    have been formed from one assistant's conversation, whose messages (and their ids)
    another assistant's token must not learn through it, or from a message labelled
    sensitive, which a token kept from sensitive things must not read in an excerpt.
    """
    sources = BeliefSource.objects.select_related("event__session").order_by("id")
    sources = reach.filter(
        sources, scope_field="event__session__scope", sensitivity_field="event__sensitivity"
    )
    return beliefs.select_related("supersedes", "superseded_by").prefetch_related(
        Prefetch("sources", queryset=sources)
    )


def _one(beliefs: QuerySet[Belief], belief_id: object) -> Belief:
    # No ordering: the public id is unique.
    belief = next(
        iter(beliefs.filter(public_id=parse_public_id(belief_id, "belief_id")).order_by()[:1]),
        None,
    )
    if belief is None:
        raise not_found("memory")
    return belief


def belief_versions(*, principal: User, belief: Belief) -> list[Belief]:
    """Every version of the memory ``belief`` belongs to, oldest first.

    Versions are linked by corrections: each new belief ``supersedes`` the one
    it corrected. The chain is walked in both directions from ``belief``.
    """
    earlier: list[Belief] = []
    current = belief
    while current.supersedes_id is not None:
        current = Belief.objects.get(owner=principal, pk=current.supersedes_id)
        earlier.append(current)
    later: list[Belief] = []
    current = belief
    while successor := Belief.objects.filter(owner=principal, supersedes=current).first():
        later.append(successor)
        current = successor
    return [*reversed(earlier), belief, *later]


class BeliefHistory(TypedDict):
    """A memory's versions, as ``reach`` sees them, and the audited changes to them."""

    belief: Belief
    versions: list[Belief]
    changes: list[AuditRecord]


def belief_history(
    *, principal: User, belief_id: object, reach: Reach = FULL_REACH
) -> BeliefHistory:
    """The versions of a memory and every audited change to them, oldest first."""
    belief = belief_get(principal=principal, belief_id=belief_id, reach=reach)
    versions = belief_versions(principal=principal, belief=belief)
    # A correction may have marked one version sensitive: each shows only if ``reach``
    # sees it, with the sources it reaches.
    shown = with_relations(reach.filter(Belief.objects.filter(owner=principal)), reach=reach)
    by_pk = shown.in_bulk([version.pk for version in versions])
    versions = [by_pk[version.pk] for version in versions if version.pk in by_pk]
    changes = (
        AuditRecord.objects.filter(owner=principal, belief__in=versions)
        .select_related("belief")
        .order_by("created_at", "id")
    )
    return {"belief": belief, "versions": versions, "changes": list(changes)}


def belief_changes(
    *,
    principal: User,
    after: tuple[datetime, int] | None = None,
    limit: int,
    now: datetime | None = None,
    among: QuerySet[Belief] | None = None,
) -> tuple[list[Belief], tuple[datetime, int] | None]:
    """Beliefs changed after ``after`` (a position), oldest change first.

    A position is ``(updated_at, row id)``. Returns the beliefs and the position
    to ask from next time (see ``memory.selectors.feeds``). With ``among`` (a
    ``belief_list``), only the changed beliefs it holds are returned, as it
    fetches them; the position still moves past the others, so that a filtered
    feed advances through the principal's changes as the unfiltered one does.
    """
    changed, position = change_feed(
        Belief.objects.filter(owner=principal), after=after, limit=limit, now=now
    )
    if among is not None:
        changed = list(
            among.filter(pk__in=[belief.pk for belief in changed]).order_by("updated_at", "id")
        )
    return changed, position
