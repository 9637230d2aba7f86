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
import numpy.typing as npt
import psycopg
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

from memory.embeddings import Vectors
from memory.embeddings.codec import vector_size, vectors_read_joined

from .searches import Match, Search

VECTORS = "memory_memoryvector"


class _Read(NamedTuple):
    """Vectors read: each row's branch and id, and their stored bytes one after another, in
    branch order."""

    branches: npt.NDArray[np.int64]
    ids: npt.NDArray[np.int64]
    joined: bytes


def _read(union: str, params: list[Any]) -> _Read:
    sql = union + " ORDER BY 1"
    with connection.cursor() as cursor:
        raw = cursor.cursor
        if connection.vendor == "postgresql" and not isinstance(raw, psycopg.ClientCursor):
            # The bytes as bytes, not as the hex text of bytea: half the data to read.
            # Django's cursor has no way to ask for them, so the driver's cursor is asked
            # directly, with the statement logged as Django logs its own when it keeps a log.
            # (Gathering each branch's rows into one value in PostgreSQL cost it more than
            # sending them.)
            logged = (
                cursor.debug_sql(sql, params)
                if isinstance(cursor, CursorDebugWrapper)
                else contextlib.nullcontext()
            )
            with logged, connection.wrap_database_errors:
                raw.execute(sql, params, binary=True)
                rows = raw.fetchall()
        else:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    # A bank's thousands of rows, without a Python step per row where numpy can do it.
    count = len(rows)
    return _Read(
        np.fromiter((row[0] for row in rows), dtype=np.int64, count=count),
        np.fromiter((row[1] for row in rows), dtype=np.int64, count=count),
        b"".join([row[2] for row in rows]),
    )


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
    # In branch order, so that each branch's vectors are one run of the joined bytes.
    branches, ids, joined = _read(
        " UNION ALL ".join(sql for sql, _ in selects),
        [param for _, params in selects for param in params],
    )
    starts = np.searchsorted(branches, np.arange(len(pairs) + 1))
    found = []
    offset = 0
    for branch, (search, space) in enumerate(pairs):
        first, last = int(starts[branch]), int(starts[branch + 1])
        size = (last - first) * vector_size(space.dimensions)
        found.append(
            _scored(
                ids[first:last],
                vectors_read_joined(joined[offset : offset + size], space.dimensions),
                space,
                limit=search.limit,
                judged=judged[branch // len(spaces)] if judged else (),
            )
        )
        offset += size
    return [found[at : at + len(spaces)] for at in range(0, len(found), len(spaces))]


def _scored(
    ids: npt.NDArray[np.int64],
    vectors: Vectors,
    space: Space,
    *,
    limit: int,
    judged: Collection[int],
) -> Nearest:
    if not len(ids):
        return Nearest([], frozenset())
    # Not a BLAS product: for a bank's thousands of rows one core is quick, and BLAS's
    # threads would take the other cores' time from the requests beside this one.
    scores = np.einsum("ij,j->i", vectors, space.query.astype(np.float32))
    below: frozenset[int] = frozenset()
    if space.floor is not None:
        kept = scores >= space.floor
        if judged:
            asked = np.fromiter(judged, dtype=np.int64, count=len(judged))
            below = frozenset(ids[~kept & np.isin(ids, asked)].tolist())
        ids, scores = ids[kept], scores[kept]
    count = min(limit, len(ids))
    if count == 0:
        return Nearest([], below)
    best = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
    # Best first; ties by the newer row, as full-text matching breaks them.
    order = best[np.lexsort((-ids[best], -scores[best]))]
    return Nearest(list(zip(ids[order].tolist(), scores[order].tolist(), strict=True)), below)
