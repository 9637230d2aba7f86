"""Rows found by meaning: the nearest of an owner's stored vectors to a query's vector.

The same searches as full-text matching (``Search``, with its collection's ``searchable``
condition and every filter the caller added), over the rows that have a vector of the
query's embedder: status, type, expiry and reach apply as they do to words. Portable
SQL reads the candidates' vectors and numpy scores them exactly; PostgreSQL without an
extension has no index for vectors, so a search reads every candidate vector of the
owner (docs/scaling.md says what that costs and what replaces it at a million).
"""

import contextlib
from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

import numpy as np
import psycopg
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

from memory.embeddings import Vectors
from memory.embeddings.codec import vectors_read

from .searches import Match, Search

VECTORS = "memory_memoryvector"


def _rows(sql: str, params: list[Any]) -> list[tuple[int, int, bytes]]:
    with connection.cursor() as cursor:
        raw = cursor.cursor
        if connection.vendor == "postgresql" and not isinstance(raw, psycopg.ClientCursor):
            # Vectors as bytes, not as the hex text of bytea: half the data to read. Django's
            # cursor has no way to ask for them, so the driver's cursor is asked directly,
            # with the statement logged as Django logs its own when it keeps a log.
            logged = (
                cursor.debug_sql(sql, params)
                if isinstance(cursor, CursorDebugWrapper)
                else contextlib.nullcontext()
            )
            with logged, connection.wrap_database_errors:
                raw.execute(sql, params, binary=True)
                rows: list[tuple[int, int, bytes]] = raw.fetchall()
            return rows
        cursor.execute(sql, params)
        return cursor.fetchall()


class Nearest(NamedTuple):
    # ``[(row id, cosine)]``, best first.
    matches: list[Match]
    # Those of the rows asked about (``judged``) whose vector is below the floor.
    below: frozenset[int]


class Space(NamedTuple):
    """A vector space searched: an embedder's key and dimensions, the query as it embedded
    it (a unit vector), and the floor of its cosines."""

    embedder: str
    dimensions: int
    query: Vectors
    floor: float | None = None


def _select(branch: int, search: Search, space: Space, owner_id: int) -> tuple[str, list[Any]]:
    collection = search.collection
    where = " AND ".join(
        [
            "v.owner_id = %s",
            "v.collection = %s",
            "v.embedder = %s",
            "a.owner_id = %s",
            collection.searchable,
            *search.where,
        ]
    )
    return (
        f"SELECT {branch} AS branch, v.row_id, v.vector FROM {VECTORS} v "
        f"JOIN {collection.table} a ON a.id = v.row_id WHERE {where}",
        [owner_id, collection.statistics, space.embedder, owner_id, *search.params],
    )


def nearest(
    searches: Sequence[Search],
    spaces: Sequence[Space],
    *,
    owner_id: int,
    judged: Sequence[Collection[int]] = (),
) -> list[list[Nearest]]:
    """For each of ``searches`` and each of ``spaces``, the search's rows with a vector of
    that space's embedder, nearest its query: ``[(row id, cosine)]`` best first, at most
    the search's ``limit``, none below the space's floor; and which of the search's
    ``judged`` rows have a vector below it. In one statement for them all, as
    ``result[search][space]``."""
    pairs = [(search, space) for search in searches for space in spaces]
    if not pairs:
        return [[] for _ in searches]
    selects = [
        _select(branch, search, space, owner_id) for branch, (search, space) in enumerate(pairs)
    ]
    rows = _rows(
        " UNION ALL ".join(sql for sql, _ in selects),
        [param for _, params in selects for param in params],
    )
    by_branch: list[list[tuple[int, bytes]]] = [[] for _ in pairs]
    for branch, row_id, vector in rows:
        by_branch[branch].append((row_id, vector))
    found = [
        _scored(
            by_branch[branch],
            space,
            limit=search.limit,
            judged=judged[branch // len(spaces)] if judged else (),
        )
        for branch, (search, space) in enumerate(pairs)
    ]
    return [found[at : at + len(spaces)] for at in range(0, len(found), len(spaces))]


def _scored(
    rows: Sequence[tuple[int, bytes]], space: Space, *, limit: int, judged: Collection[int]
) -> Nearest:
    if not rows:
        return Nearest([], frozenset())
    ids = np.fromiter((row_id for row_id, _ in rows), dtype=np.int64, count=len(rows))
    vectors = vectors_read([vector for _, vector in rows], space.dimensions)
    scores = vectors @ space.query.astype(np.float32)
    below: frozenset[int] = frozenset()
    if space.floor is not None:
        kept = scores >= space.floor
        if judged:
            below = frozenset(int(row_id) for row_id in ids[~kept]) & frozenset(judged)
        ids, scores = ids[kept], scores[kept]
    count = min(limit, len(ids))
    if count == 0:
        return Nearest([], below)
    best = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
    # Best first; ties by the newer row, as full-text matching breaks them.
    order = best[np.lexsort((-ids[best], -scores[best]))]
    return Nearest([(int(ids[at]), float(scores[at])) for at in order], below)
