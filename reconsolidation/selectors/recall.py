"""Derived memories in recall (``include=["derived"]``): active, unrestricted views of the
principal's originals whose words match the query.

They reach recall only while the ``reconsolidation`` capability is on:
revoking it (the flag turned off, or code changed since its certificate)
takes derived memories out of what assistants are told at once, while the
owner keeps their history and controls.
"""

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from common.principal import principal_context
from common.selectors.flags import SURFACE_FLAG_MAX_AGE, flag_enabled
from memory import search
from memory.derived import DERIVED
from memory.reach import FULL_REACH, Reach
from memory.search import Search
from memory.selectors.recall import RecallItem, recall_items
from memory.selectors.recall_rows import NO_ID, ids_in
from reconsolidation.models import DerivedMemory, Lineage
from reconsolidation.search import derived_search

# Registered under memory's own name for derived memories, which its surfaces use.
KIND = DERIVED
_evaluating: ContextVar[bool] = ContextVar("derived_recall_evaluating", default=False)
_replay_now: ContextVar[datetime | None] = ContextVar("derived_recall_replay_now", default=None)


@contextmanager
def derived_recall_evaluating(*, now: datetime | None = None) -> Iterator[None]:
    """Recall derived memories while the capability is off, inside this block only: for the
    evaluation that produces the certificate the capability needs.

    ``now``, when given, is the replayed bank's clock (its newest evidence
    time): a hypothesis counts as expired against it rather than against the
    day the evaluation runs, as the passes that derived it did.
    """
    token, clock = _evaluating.set(True), _replay_now.set(now)
    try:
        yield
    finally:
        _replay_now.reset(clock)
        _evaluating.reset(token)


def derived_recall_enabled() -> bool:
    # Read like the surface flags: a change reaches every process within seconds.
    return _evaluating.get() or flag_enabled("reconsolidation", max_age=SURFACE_FLAG_MAX_AGE)


def assisted_recall_enabled() -> bool:
    """Whether merges a model proposed and verified reach recall: only while the capability
    that made them is on, so that revoking it takes them out at once."""
    return _evaluating.get() or flag_enabled(
        "reconsolidation_provider", max_age=SURFACE_FLAG_MAX_AGE
    )


def derived_recall_select(
    principal: User, row_ids: Collection[int], reach: Reach = FULL_REACH
) -> tuple[str, list[object]]:
    """The derived memories ``row_ids`` as recall reads them (``memory.selectors.recall_rows``):
    a row for each original memory it concerns, whose sources are its own. Merges a model
    proposed are left out while the capability that made them is off."""
    condition: str
    params: list[object]
    condition, params = ids_in("a.id", row_ids)
    assisted = "" if assisted_recall_enabled() else " AND NOT a.assisted"
    return (
        "SELECT a.id, a.public_id, a.statement, a.type, a.subject, '', false, a.confidence, "
        f"a.revision, a.kind, a.kind = '{DerivedMemory.Kind.HYPOTHESIS}', a.scope, "
        f"a.sensitivity, l.belief_id, {NO_ID} FROM reconsolidation_derivedmemory a "
        "LEFT JOIN reconsolidation_lineage l ON l.derived_id = a.id "
        f"AND l.role = '{Lineage.Role.SOURCE}' AND l.owner_id = a.owner_id "
        f"WHERE a.owner_id = %s AND {condition}{assisted}",
        [principal.pk, *params],
    )


def derived_recall_search(
    principal: User,
    terms: Sequence[str],
    since: datetime | None,
    limit: int,
    reach: Reach = FULL_REACH,
) -> Search | None:
    """What recall searches for derived memories (``reconsolidation.search``), to run in
    one statement with its own searches; None adds nothing: without terms, as for
    messages, and while the capability is off."""
    if not terms or not derived_recall_enabled():
        return None
    return derived_search(now=_replay_now.get() or timezone.now(), since=since, limit=limit)


def derived_meaning_search(
    principal: User, since: datetime | None, limit: int, reach: Reach = FULL_REACH
) -> Search | None:
    """What recall searches by meaning for derived memories (``memory.search.meaning``): the
    same rows as by words, with or without terms; None while the capability is off."""
    if not derived_recall_enabled():
        return None
    return derived_search(now=_replay_now.get() or timezone.now(), since=since, limit=limit)


def derived_recall(
    principal: User,
    terms: Sequence[str],
    since: datetime | None,
    limit: int,
    reach: Reach = FULL_REACH,
) -> list[RecallItem]:
    """The principal's derived memories matching ``terms`` that ``reach`` sees, best first
    (BM25, through the full-text index like beliefs and messages). Without terms nothing is
    added, as for messages, and nothing while the capability is off."""
    found = derived_recall_search(principal, terms, since, limit, reach)
    if found is None:
        return []
    with principal_context(principal):
        (matches,) = search.ranked([found], owner_id=principal.pk, terms=terms)
        items: list[RecallItem]
        (items,) = recall_items(principal, [(KIND, matches)], reach)
    return items
