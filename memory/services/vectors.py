"""Every memory an owner can have recalled gets a vector, off the request path or just after it.

A memory written by the owner or their assistant (remember, a correction, a promoted
hypothesis) is embedded as soon as its transaction commits, so that the next recall finds
it by meaning. Memories that the background writes (formation, reconsolidation) are
embedded by the maintenance sweep: the writing transaction marks the principal due in the
content-free ``VectorState``, and the sweep embeds what waits, a principal at a time. The
sweep also embeds everything again, in the background, when the embedder changes, and
drops the vectors of the one before.

A vector goes with its memory's text: when a memory stops being live or is erased, its
vector is deleted in the same transaction (``vectors_forget``, and the listener on retired
beliefs). A vector is stored only if, in the storing transaction, its row is still live
and still says what was embedded, so an erasure that lands while the text is being
embedded never leaves a vector of the erased text behind.
"""

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from common.principal import principal_context, principal_transaction
from common.selectors.flags import flag_enabled
from memory.embeddings import Embedder, EmbeddingFailed, TextLabels, embedders
from memory.embeddings.codec import vector_bytes
from memory.models import MemoryVector, VectorState
from memory.search import BELIEFS, Collection
from memory.selectors.recall_rows import ids_in

logger = logging.getLogger(__name__)

# Texts embedded at once: large enough to keep the model busy, small enough that a sweep
# stops near its deadline.
BATCH = 32
PRINCIPALS_PER_SWEEP = 20
SWEEP_DEADLINE_SECONDS = 45


@dataclass(frozen=True)
class Embedded:
    """A table whose rows get vectors: memory's beliefs, or an app's (its derived memories)."""

    collection: Collection
    # The row's text, as SQL on the row ``a``.
    text: str
    # The rows that get a vector, as a condition on ``a``: those recall can give, and those
    # an owner's action can make recallable again without changing their text.
    embeddable: str


_embedded: dict[str, Embedded] = {}


def vectors_register(collection: Collection, *, text: str, embeddable: str) -> None:
    """Give every row of ``collection`` meeting ``embeddable`` a vector of ``text``; recall
    finds them by meaning with the collection's searches (``memory.search.meaning``)."""
    _embedded[collection.statistics] = Embedded(collection, text, embeddable)


vectors_register(BELIEFS, text="a.statement", embeddable=BELIEFS.searchable)


def embedders_signature(found: Sequence[Embedder]) -> str:
    """The embedders in use, as ``VectorState`` records them: when it changes, every
    principal's memories are embedded again."""
    return "+".join(embedder.key for embedder in found)


def vectors_due(*, owner_id: int) -> None:
    """Note, in the writing transaction, that a memory of ``owner_id`` waits for its vector."""
    if not embedders():
        return
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    # One statement whether the principal has a state yet or not. An earlier wait keeps its
    # time, so the sweep serves the longest wait first, and the row is not written again
    # while it waits: formation marks the same principal with every consolidation.
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_vectorstate (owner_id, embedder, due_at) VALUES (%s, '', %s) "
            "ON CONFLICT (owner_id) DO UPDATE SET due_at = excluded.due_at "
            "WHERE memory_vectorstate.due_at IS NULL",
            [owner_id, now],
        )


def vectors_forget(*, owner_id: int, collection: str, row_ids: Iterable[int]) -> int:
    """Delete the vectors of ``row_ids`` of ``collection``, in the caller's transaction: their
    memories were erased or stopped being live. Returns how many."""
    ids = list(row_ids)
    if not ids:
        return 0
    deleted, _ = MemoryVector.objects.filter(
        owner_id=owner_id, collection=collection, row_id__in=ids
    ).delete()
    return deleted


def beliefs_retired_forget(*, owner_id: int, belief_ids: Sequence[int], erased: bool) -> None:
    """``memory.changes`` listener: a retired belief is no longer recalled, and an erased one
    must leave nothing of its text behind. A belief relabelled more sensitive is reported
    here too while still live: it waits for a vector its new label allows."""
    forgotten = vectors_forget(owner_id=owner_id, collection=BELIEFS.statistics, row_ids=belief_ids)
    if forgotten and not erased:
        vectors_due(owner_id=owner_id)


class Missing(NamedTuple):
    """A row waiting for its vector: its id, its text and the labels the egress rules read."""

    id: int
    text: str
    labels: TextLabels


def _missing(
    principal: User,
    embedded: Embedded,
    keys: Sequence[str],
    *,
    after: int = 0,
    limit: int,
    row_ids: Sequence[int] = (),
) -> list[Missing]:
    """Up to ``limit`` of the principal's rows of ``embedded`` past ``after`` (of ``row_ids``,
    when given) that have no vector of any of ``keys``, in id order."""
    table = embedded.collection.table
    embedder, embedder_params = ids_in_text("v.embedder", keys)
    rows, row_params = ids_in("a.id", row_ids) if row_ids else ("true", [])
    with principal_context(principal), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT a.id, {embedded.text}, a.sensitivity, a.portability, a.scope FROM {table} a "
            f"WHERE a.owner_id = %s AND a.id > %s AND {rows} AND {embedded.embeddable} "
            f"AND {embedded.text} <> '' AND NOT EXISTS (SELECT 1 FROM memory_memoryvector v "
            "WHERE v.owner_id = a.owner_id AND v.collection = %s AND v.row_id = a.id "
            f"AND {embedder}) ORDER BY a.id LIMIT %s",
            [
                principal.pk,
                after,
                *row_params,
                embedded.collection.statistics,
                *embedder_params,
                limit,
            ],
        )
        return [
            Missing(row_id, text, TextLabels(sensitivity, portability, scope))
            for row_id, text, sensitivity, portability, scope in cursor.fetchall()
        ]


def ids_in_text(column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
    """A condition that ``column`` is one of ``values`` (strings), with its parameters."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::text[])", [list(values)]
    return f"{column} IN ({', '.join('%s' for _ in values)})", list(values)


def _store(
    principal: User,
    embedded: Embedded,
    found: Sequence[Embedder],
    rows: Sequence[Missing],
    *,
    local_only: bool = False,
) -> int:
    """Embed each of ``rows`` by the first of ``found`` that may embed it (a remote embedder
    what the egress rules let leave, the local one the rest) and store the vectors; return
    how many were stored. ``local_only``: the rows a remote embedder would embed are left
    for the sweep."""
    stored = 0
    waiting = list(rows)
    for embedder in found:
        if not waiting:
            break
        allowed = embedder.admitted(principal, [row.labels for row in waiting])
        mine = [row for row, yes in zip(waiting, allowed, strict=True) if yes]
        waiting = [row for row, yes in zip(waiting, allowed, strict=True) if not yes]
        if mine and not (local_only and embedder.remote):
            stored += _store_by(principal, embedded, embedder, mine)
    return stored


def _store_by(
    principal: User, embedded: Embedded, embedder: Embedder, rows: Sequence[Missing]
) -> int:
    vectors = embedder.passages([row.text for row in rows], principal=principal)
    table = embedded.collection.table
    condition, params = ids_in("a.id", [row.id for row in rows])
    # Locked where the database locks rows, so that an erasure waits for this transaction
    # or this one sees the erasure: a vector is stored only for a row still live and still
    # saying what was embedded.
    lock = " FOR UPDATE" if connection.vendor == "postgresql" else ""
    with principal_transaction(principal):
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT a.id, {embedded.text} FROM {table} a WHERE a.owner_id = %s "
                f"AND {condition} AND {embedded.embeddable}{lock}",
                [principal.pk, *params],
            )
            now_saying = dict(cursor.fetchall())
        fresh = [
            MemoryVector(
                owner=principal,
                collection=embedded.collection.statistics,
                row_id=row.id,
                embedder=embedder.key,
                vector=vector_bytes(vector),
            )
            for row, vector in zip(rows, vectors, strict=True)
            if now_saying.get(row.id) == row.text
        ]
        # Two workers may embed the same rows at once: the second's are the same vectors.
        MemoryVector.objects.bulk_create(fresh, ignore_conflicts=True)
    return len(fresh)


def vectors_embed_rows(*, principal: User, collection: str, row_ids: Sequence[int]) -> int:
    """Embed the rows ``row_ids`` of ``collection`` that have no vector yet, now; return how
    many were stored. For the services that write what the owner said: called when their
    transaction has committed, and never failing it (the sweep tries again). Only with the
    local embedder: what a remote one embeds waits for the sweep, rather than a write
    waiting on a server."""
    found = embedders()
    if not found or not row_ids:
        return 0
    embedded = _embedded[collection]
    keys = [embedder.key for embedder in found]
    try:
        rows = _missing(principal, embedded, keys, limit=len(row_ids), row_ids=row_ids)
        return _store(principal, embedded, found, rows, local_only=True) if rows else 0
    except EmbeddingFailed as error:
        logger.warning("memories left to the sweep for their vectors: %s", error.error_class)
        return 0


def vectors_embed_on_commit(*, principal: User, collection: str, row_ids: Sequence[int]) -> None:
    """``vectors_embed_rows`` once the caller's transaction commits."""
    ids = list(row_ids)
    transaction.on_commit(
        lambda: vectors_embed_rows(principal=principal, collection=collection, row_ids=ids)
    )


@dataclass(frozen=True)
class PrincipalEmbedded:
    stored: int
    dropped: int
    complete: bool


def vectors_embed_principal(*, principal: User, deadline: float | None = None) -> PrincipalEmbedded:
    """Give every embeddable memory of ``principal`` a vector of the embedders in use, drop
    the vectors of other embedders and of rows no longer embeddable, and record it. Stops
    at ``deadline`` (``time.monotonic``) with the rest left due."""
    found = embedders()
    started = timezone.now()
    if not found:
        return PrincipalEmbedded(stored=0, dropped=0, complete=True)
    keys = [embedder.key for embedder in found]
    stored = dropped = 0
    for embedded in _embedded.values():
        after = 0
        while rows := _missing(principal, embedded, keys, after=after, limit=BATCH):
            stored += _store(principal, embedded, found, rows)
            after = rows[-1].id
            if deadline is not None and time.monotonic() > deadline:
                return PrincipalEmbedded(stored=stored, dropped=dropped, complete=False)
        dropped += _drop_stale(principal, embedded, keys)
    _record_complete(principal, embedders_signature(found), started)
    # A memory committed after the last look above but before the record cleared the wait
    # found the principal waiting already and left the mark as it was: look once more, now
    # that a memory written from here on marks the principal itself.
    if any(_missing(principal, embedded, keys, limit=1) for embedded in _embedded.values()):
        vectors_due(owner_id=principal.pk)
    return PrincipalEmbedded(stored=stored, dropped=dropped, complete=True)


def _drop_stale(principal: User, embedded: Embedded, keys: Sequence[str]) -> int:
    """Delete the principal's vectors of ``embedded`` made by another embedder, or of rows
    that are no longer embeddable."""
    condition, params = ids_in_text("v.embedder", keys)
    with principal_transaction(principal), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM memory_memoryvector WHERE id IN (SELECT v.id FROM memory_memoryvector v "
            "WHERE v.owner_id = %s AND v.collection = %s AND (NOT "
            f"{condition} OR NOT EXISTS (SELECT 1 FROM {embedded.collection.table} a "
            f"WHERE a.id = v.row_id AND a.owner_id = v.owner_id AND {embedded.embeddable})))",
            [principal.pk, embedded.collection.statistics, *params],
        )
        deleted: int = cursor.rowcount
        return deleted


def _record_complete(principal: User, signature: str, started: datetime) -> None:
    """Record that the principal's memories have the vectors of ``signature``, and clear a
    wait marked before ``started`` (one marked since stays)."""
    state, _ = VectorState.objects.get_or_create(owner=principal)
    VectorState.objects.filter(pk=state.pk).update(embedder=signature, embedded_at=started)
    VectorState.objects.filter(pk=state.pk, due_at__lte=started).update(due_at=None)


def vectors_due_principals(*, limit: int) -> list[User]:
    """Principals whose memories wait for vectors, longest wait first: those the embedders
    in use have not embedded yet, then those with memories written since. Reads only the
    content-free ``VectorState`` and the principals."""
    found = embedders()
    if not found or limit <= 0:
        return []
    signature = embedders_signature(found)
    current = VectorState.objects.filter(embedder=signature).values("owner_id")
    waiting = list(
        VectorState.objects.filter(embedder=signature, due_at__isnull=False)
        .order_by("due_at", "owner_id")
        .values_list("owner_id", flat=True)[:limit]
    )
    never = list(
        User.objects.exclude(Q(pk__in=current) | Q(pk__in=waiting))
        .order_by("pk")
        .values_list("pk", flat=True)[: max(0, limit - len(waiting))]
    )
    by_id = User.objects.in_bulk([*waiting, *never])
    return [by_id[pk] for pk in (*waiting, *never) if pk in by_id]


def vectors_sweep(
    *, principals: int = PRINCIPALS_PER_SWEEP, deadline_seconds: float = SWEEP_DEADLINE_SECONDS
) -> int:
    """Embed what waits for a vector, up to ``principals`` principals, until
    ``deadline_seconds``; return how many vectors were stored."""
    if flag_enabled("maintenance_kill_switch"):
        return 0
    deadline = time.monotonic() + deadline_seconds
    stored = 0
    for principal in vectors_due_principals(limit=principals):
        try:
            stored += vectors_embed_principal(principal=principal, deadline=deadline).stored
        except EmbeddingFailed as error:
            # The embedder is failing: every principal after this one would fail the same way.
            logger.warning("vector sweep stopped: %s", error.error_class)
            break
        if time.monotonic() > deadline:
            break
    return stored
