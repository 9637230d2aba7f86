"""Derived memories in recall (``include=["derived"]``): active, unrestricted views of the
principal's originals whose words match the query.

They reach recall only while the ``reconsolidation`` capability is on:
revoking it (the flag turned off, or code changed since its certificate)
takes derived memories out of what assistants are told at once, while the
owner keeps their history and controls.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

from django.utils import timezone

from common.principal import principal_context
from common.selectors.flags import SURFACE_FLAG_MAX_AGE, flag_enabled
from memory import search
from memory.derived import DERIVED
from memory.models import BeliefSource
from memory.reach import FULL_REACH
from memory.selectors.recall import SOURCE_COLUMNS, RecallItem, recall_source
from reconsolidation.models import DerivedMemory, Lineage
from reconsolidation.search import derived_search

# Registered under memory's own name for derived memories, which its surfaces use.
KIND = DERIVED
_evaluating = ContextVar("derived_recall_evaluating", default=False)
_replay_now = ContextVar("derived_recall_replay_now", default=None)


@contextmanager
def derived_recall_evaluating(*, now=None):
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


def derived_recall_enabled():
    # Read like the surface flags: a change reaches every process within seconds.
    return _evaluating.get() or flag_enabled("reconsolidation", max_age=SURFACE_FLAG_MAX_AGE)


def assisted_recall_enabled():
    """Whether merges a model proposed and verified reach recall: only while the capability
    that made them is on, so that revoking it takes them out at once."""
    return _evaluating.get() or flag_enabled(
        "reconsolidation_provider", max_age=SURFACE_FLAG_MAX_AGE
    )


def _rows(principal, matches, reach):
    """The matched derived memories that ``reach`` sees, in match order."""
    derived = DerivedMemory.objects.filter(owner=principal, pk__in=[i for i, _ in matches])
    if not assisted_recall_enabled():
        derived = derived.exclude(assisted=True)
    rows = {
        row["id"]: row
        for row in reach.filter(derived).values(
            "id",
            "public_id",
            "kind",
            "type",
            "subject",
            "statement",
            "confidence",
            "revision",
        )
    }
    return [(rows[row_id], score) for row_id, score in matches if row_id in rows]


def derived_with_sources(principal, items, reach=FULL_REACH):
    """The items, each derived one now carrying the ids of the original memories it
    concerns and the original messages behind them that ``reach`` sees, each message
    once, in two queries for all of them."""
    wanted = {item.id for item in items if item.kind == KIND}
    if not wanted:
        return items
    with principal_context(principal):
        beliefs, memory_ids = {}, {}
        for public_id, belief_id, belief_public_id in (
            Lineage.objects.filter(
                owner=principal, derived__public_id__in=wanted, role=Lineage.Role.SOURCE
            )
            .order_by("belief_id")
            .values_list("derived__public_id", "belief_id", "belief__public_id")
        ):
            beliefs.setdefault(belief_id, []).append(str(public_id))
            memory_ids.setdefault(str(public_id), []).append(str(belief_public_id))
        sources = {}
        reached = reach.filter(
            BeliefSource.objects.filter(owner=principal, belief_id__in=list(beliefs)),
            scope_field="event__session__scope",
            sensitivity_field="event__sensitivity",
        ).order_by("event__occurred_at", "id")
        for belief_id, excerpt, *event in reached.values_list(
            "belief_id", "excerpt", *SOURCE_COLUMNS
        ):
            source = recall_source(event, excerpt)
            for derived_id in beliefs[belief_id]:
                sources.setdefault(derived_id, {}).setdefault(source.event_id, source)
    return [
        replace(
            item,
            sources=tuple(sources.get(item.id, {}).values()),
            memory_ids=tuple(memory_ids.get(item.id, ())),
        )
        if item.kind == KIND
        else item
        for item in items
    ]


def derived_recall_search(principal, terms, since, limit, reach=FULL_REACH):
    """What recall searches for derived memories (``reconsolidation.search``), to run in
    one statement with its own searches; None adds nothing: without terms, as for
    messages, and while the capability is off."""
    if not terms or not derived_recall_enabled():
        return None
    return derived_search(now=_replay_now.get() or timezone.now(), since=since, limit=limit)


def derived_recall_items(principal, matches, reach=FULL_REACH):
    """The matched derived memories (``[(row id, score)]``, best first) that ``reach`` sees,
    as recall items without their sources."""
    with principal_context(principal):
        chosen = _rows(principal, matches, reach)
    return [
        RecallItem(
            kind=KIND,
            id=str(row["public_id"]),
            text=row["statement"],
            rank=0,
            score=score,
            type=row["type"],
            subject=row["subject"],
            confidence=row["confidence"],
            revision=row["revision"],
            derived_kind=row["kind"],
            tentative=row["kind"] == DerivedMemory.Kind.HYPOTHESIS,
        )
        for row, score in chosen
    ]


def derived_recall(principal, terms, since, limit, reach=FULL_REACH):
    """The principal's derived memories matching ``terms`` that ``reach`` sees, best first
    (BM25, through the full-text index like beliefs and messages). Without terms nothing is
    added, as for messages, and nothing while the capability is off."""
    found = derived_recall_search(principal, terms, since, limit, reach)
    if found is None:
        return []
    with principal_context(principal):
        (matches,) = search.ranked([found], owner_id=principal.pk, terms=terms)
        return derived_recall_items(principal, matches, reach)
