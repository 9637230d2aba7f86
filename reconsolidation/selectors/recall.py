"""Derived memories in recall (``include=["derived"]``): active, unrestricted views of the
principal's originals whose words match the query.

They reach recall only while the ``reconsolidation`` capability is on:
revoking it (the flag turned off, or code changed since its certificate)
takes derived memories out of what assistants are told at once, while the
owner keeps their history and controls.
"""

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from memory.access import FULL_ACCESS
from memory.models import BeliefSource
from memory.principal import principal_context
from memory.selectors.flags import SURFACE_FLAG_MAX_AGE, flag_enabled
from memory.selectors.recall import SOURCE_COLUMNS, RecallItem, recall_source
from memory.text import words
from reconsolidation.models import DerivedMemory, Lineage, SummaryClaim

KIND = "derived"
_evaluating = ContextVar("derived_recall_evaluating", default=False)


@contextmanager
def derived_recall_evaluating():
    """Recall derived memories while the capability is off, inside this block only: for the
    evaluation that produces the certificate the capability needs."""
    token = _evaluating.set(True)
    try:
        yield
    finally:
        _evaluating.reset(token)


def derived_recall_enabled():
    # Read like the surface flags: a change reaches every process within seconds.
    return _evaluating.get() or flag_enabled("reconsolidation", max_age=SURFACE_FLAG_MAX_AGE)


_PLURAL_RE = re.compile(r"(?:(?<=sh)|(?<=ch)|(?<=[xz])|(?<=ss))es$")


def stem(word):
    """A crude English stem, so that "hikes", "hiked" and "hiking" match "hike".

    Both full-text backends stem belief text; derived memories are matched in
    Python, and this keeps their matching about as forgiving.
    """
    word = word.casefold().replace("’", "'").removesuffix("'s")
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif _PLURAL_RE.search(word):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # "running" -> "run"
            break
    return word.removesuffix("e") if len(word) > 3 else word


def _searchable_words(kind, subject, statement):
    """What a derived memory is found by: its statement, or, for a notice, whose text is
    the same fixed sentence for every subject, the entity of its subject."""
    if kind == DerivedMemory.Kind.UNCERTAINTY_NOTICE:
        return {stem(w) for w in re.split(r"[-:]", subject.partition(":")[2]) if w}
    return {stem(w) for w in words(statement)}


def _candidates(principal, stems, since, access):
    """Active, unrestricted, unexpired derived memories holding one of ``stems``, newest first.

    Derived memories are a small fraction of the originals (a view over
    groups of them), so a substring prefilter over the principal's active
    rows, reached through the (owner, status, kind) index and bounded by the
    recall candidate cap, is enough; the words are matched exactly below.
    """
    text = Q()
    for value in stems:
        text |= Q(statement__icontains=value)
        text |= Q(kind=DerivedMemory.Kind.UNCERTAINTY_NOTICE, subject__icontains=value)
        text |= Q(kind=DerivedMemory.Kind.SUMMARY, claims__statement__icontains=value)
    rows = DerivedMemory.objects.filter(
        text,
        owner=principal,
        status=DerivedMemory.Status.ACTIVE,
        restricted=False,
    ).filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
    if since is not None:
        rows = rows.filter(updated_at__gte=since)
    rows = access.filter(rows)
    cap = settings.REVERIE_LIMITS["recall_candidate_cap"]
    return list(
        rows.distinct()
        .order_by("-updated_at", "-id")
        .values(
            "id",
            "public_id",
            "kind",
            "type",
            "subject",
            "statement",
            "confidence",
            "revision",
            "updated_at",
        )[:cap]
    )


def _with_claims(principal, rows):
    """A summary states its claims, one by one, when it has no statement of its own."""
    summaries = [row["id"] for row in rows if not row["statement"]]
    claims = {}
    for derived_id, statement in (
        SummaryClaim.objects.filter(owner=principal, derived_id__in=summaries)
        .order_by("derived_id", "position")
        .values_list("derived_id", "statement")
    ):
        if statement:
            claims.setdefault(derived_id, []).append(statement)
    for row in rows:
        if row["id"] in claims:
            row["statement"] = " ".join(claims[row["id"]])
    return rows


def derived_with_sources(principal, items):
    """The items, each derived one now carrying the ids of the original memories it
    concerns and the original messages behind them, each message once, in two queries for
    all of them."""
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
        for belief_id, excerpt, *event in (
            BeliefSource.objects.filter(owner=principal, belief_id__in=list(beliefs))
            .order_by("event__occurred_at", "id")
            .values_list("belief_id", "excerpt", *SOURCE_COLUMNS)
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


def derived_recall(principal, terms, since, limit, access=FULL_ACCESS):
    """The principal's derived memories matching ``terms`` that ``access`` sees, best first:
    most terms matched, then most recently changed. Without terms nothing is added, as for
    messages, and nothing while the capability is off."""
    if not terms or not derived_recall_enabled():
        return []
    stems = list(dict.fromkeys(stem(term) for term in terms))
    with principal_context(principal):
        scored = []
        for row in _with_claims(principal, _candidates(principal, stems, since, access)):
            found = _searchable_words(row["kind"], row["subject"], row["statement"])
            matched = sum(1 for value in stems if value in found)
            if matched:
                scored.append((matched, row))
        scored.sort(key=lambda pair: (-pair[0], _newest(pair[1]["updated_at"]), -pair[1]["id"]))
        chosen = scored[:limit]
    return [
        RecallItem(
            kind=KIND,
            id=str(row["public_id"]),
            text=row["statement"],
            rank=0,
            score=float(matched),
            type=row["type"],
            subject=row["subject"],
            confidence=row["confidence"],
            revision=row["revision"],
            derived_kind=row["kind"],
            tentative=row["kind"] == DerivedMemory.Kind.HYPOTHESIS,
        )
        for matched, row in chosen
    ]


def _newest(moment: datetime):
    return -moment.timestamp()
