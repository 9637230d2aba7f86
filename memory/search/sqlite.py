from collections.abc import Sequence
from typing import Any

from django.db import connection

from .searches import Collection, Match, Search


def _match_expression(terms: Sequence[str]) -> str:
    # Each term is a quoted FTS5 string, so user text never reaches the query
    # syntax; OR lets any term match and BM25 favours rows matching more.
    return " OR ".join('"{}"'.format(term.replace('"', '""')) for term in terms)


def _fts(collection: Collection) -> str:
    """The FTS5 index of ``collection`` (see AddFullTextIndex, and an app's own, such as
    reconsolidation's AddDerivedFullTextIndex)."""
    return f"{collection.table}_fts"


def _select(index: int, search: Search, owner_id: int, match: str) -> tuple[str, list[Any]]:
    """The best rows of ``search`` as (index, id, bm25), by ascending bm25 (lower is better)."""
    fts = _fts(search.collection)
    # Message authors count at 0.4 of the text, as a lexeme of weight B does in
    # PostgreSQL's BM25 (memory.search.postgres).
    weights = "".join(f", {weight}" for weight in search.collection.weights)
    where = [
        f"{fts} MATCH %s",
        "a.owner_id = %s",
        search.collection.searchable,
        *search.where,
    ]
    # A member of a compound select takes no ORDER BY or LIMIT of its own: a subquery does.
    sql = (
        f"SELECT * FROM (SELECT {index} AS search, a.id, bm25({fts}{weights}) AS score "
        f"FROM {fts} JOIN {search.collection.table} a ON a.id = {fts}.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score, a.id DESC LIMIT %s)"
    )
    return sql, [match, owner_id, *search.params, search.limit]


def ranked(searches: Sequence[Search], *, owner_id: int, terms: Sequence[str]) -> list[list[Match]]:
    """Every search's best rows, in one statement."""
    match = _match_expression(terms)
    selects = [_select(index, search, owner_id, match) for index, search in enumerate(searches)]
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(sql for sql, _ in selects),
            [param for _, params in selects for param in params],
        )
        rows = cursor.fetchall()
    # Each search's rows in its own order: the union keeps no order of its own.
    rows.sort(key=lambda row: (row[0], row[2], -row[1]))
    matches: list[list[Match]] = [[] for _ in searches]
    for index, row_id, score in rows:
        # BM25 is lower for better matches; negate it so higher is better.
        matches[index].append((row_id, -score))
    return matches


def belief_mentions(
    *, owner_id: int, terms: Sequence[str], exclude_subject: str, limit: int
) -> list[int]:
    # Space-separated quoted strings: FTS5 wants every one of them.
    match = " ".join('"{}"'.format(term.replace('"', '""')) for term in terms)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT b.id FROM memory_belief_fts "
            "JOIN memory_belief b ON b.id = memory_belief_fts.rowid "
            "WHERE memory_belief_fts MATCH %s AND b.owner_id = %s "
            "AND b.status IN ('active', 'provisional') AND b.subject <> %s LIMIT %s",
            [match, owner_id, exclude_subject, limit],
        )
        return [row_id for (row_id,) in cursor.fetchall()]


def forget_erased_from(collection: Collection) -> None:
    # Deleting from an FTS5 index only adds delete markers: the erased words
    # stay in older segments until they merge. 'optimize' merges every segment
    # into one now, which drops them. (SQLite 3.42's secure-delete option would
    # avoid the full merge; Debian's SQLite here is older.)
    index = _fts(collection)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {index}({index}) VALUES ('optimize')")
