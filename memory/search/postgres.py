"""Full-text matching on PostgreSQL: ``tsvector`` columns with GIN indexes.

Matches are ranked by coordination level first (rows matching every query term,
then rows matching all but one, then rows matching any) and by ``ts_rank``
within a level. Each level is a separate index scan, strongest first, and at
most ``recall_candidate_cap`` candidates of a level are ranked, so a capped
query still returns rows of the strongest level that has any (see
docs/benchmarks.md).
"""

from django.conf import settings
from django.db import connection

from memory.enums import MESSAGE_EVENT_TYPES

# These predicates repeat the partial GIN indexes' WHERE clauses word for word
# (migration 0002) so that the planner can use them.
_LIVE_BELIEF = "b.status IN ('active', 'provisional')"
_SEARCHABLE_MESSAGE = (
    "e.redacted_at IS NULL AND e.event_type IN ("
    + ", ".join(f"'{t}'" for t in MESSAGE_EVENT_TYPES)
    + ")"
)
# The owner filter is cast to bigint so that the GIN indexes can answer it. They
# index (owner_id, search_vector) through btree_gin, whose int8 operator class
# has no cross-type operators: an integer parameter arrives as an int4 literal,
# and ``owner_id = 6`` (int8 = int4) is then usable by the plain btree on
# owner_id only. The planner would match the search terms in the GIN index
# across every principal's rows and intersect that with all of the owner's rows;
# ``owner_id = 6::bigint`` lets one GIN scan look at the owner's rows alone.
_OWNER = "{}.owner_id = %s::bigint"

# plainto_tsquery keeps user text out of the query syntax.
_TERM = "plainto_tsquery('english', %s)"


def _all_of(terms):
    return "(" + " && ".join(_TERM for _ in terms) + ")", list(terms)


def _any_of(groups):
    sql = " || ".join(sql for sql, _ in groups)
    return f"({sql})", [param for _, params in groups for param in params]


def _levels(terms):
    """The tsqueries of each coordination level, strongest first; each contains the next."""
    if len(terms) == 1:
        return [_all_of(terms)]
    levels = [_all_of(terms)]
    if len(terms) >= 3:
        levels.append(
            _any_of([_all_of(terms[:index] + terms[index + 1 :]) for index in range(len(terms))])
        )
    levels.append(_any_of([_all_of([term]) for term in terms]))
    return levels


def _ranked(*, table, alias, where, where_params, terms, limit):
    """The best ``limit`` matches, level by level, best first.

    A weaker level is only searched while the stronger ones have not filled
    ``limit``, since none of its rows could outrank theirs. Within a level, at
    most the candidate cap of rows is ranked.
    """
    levels = _levels(terms)
    any_sql, any_params = levels[-1]
    cap = settings.REVERIE_LIMITS["recall_candidate_cap"]
    found = []
    for index, (match_sql, match_params) in enumerate(levels):
        level = len(levels) - 1 - index
        conditions = [*where, f"{alias}.search_vector @@ {match_sql}"]
        params = [*where_params, *match_params]
        if index:
            stronger_sql, stronger_params = levels[index - 1]
            conditions.append(f"NOT ({alias}.search_vector @@ {stronger_sql})")
            params += stronger_params
        wanted = limit - len(found)
        # ts_rank normalisation 1 divides by the log of the row's length, so
        # that of two rows matching the same terms the more concise ranks higher.
        sql = (
            f"SELECT id, {level} + rank / (1 + rank) AS score FROM ("
            f"SELECT id, ts_rank(search_vector, {any_sql}, 1) AS rank FROM ("
            f"SELECT {alias}.id, {alias}.search_vector FROM {table} {alias} "
            f"WHERE {' AND '.join(conditions)} LIMIT %s) candidates) ranked "
            "ORDER BY score DESC, id DESC LIMIT %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*any_params, *params, max(cap, wanted), wanted])
            found += cursor.fetchall()
        if len(found) >= limit:
            break
    return found


def belief_matches(*, owner_id, terms, statuses, types, since, limit):
    where = [_OWNER.format("b"), _LIVE_BELIEF, "b.status = ANY(%s)"]
    params = [owner_id, list(statuses)]
    if types:
        where.append("b.type = ANY(%s)")
        params.append(list(types))
    if since is not None:
        where.append("b.updated_at >= %s")
        params.append(since)
    return _ranked(
        table="memory_belief",
        alias="b",
        where=where,
        where_params=params,
        terms=terms,
        limit=limit,
    )


def message_matches(*, owner_id, terms, since, limit):
    where = [
        _OWNER.format("e"),
        _SEARCHABLE_MESSAGE,
        "NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = e.id)",
    ]
    params = [owner_id]
    if since is not None:
        where.append("e.occurred_at >= %s")
        params.append(since)
    return _ranked(
        table="memory_event",
        alias="e",
        where=where,
        where_params=params,
        terms=terms,
        limit=limit,
    )


def belief_mentions(*, owner_id, terms, exclude_subject, limit):
    """Up to ``limit`` live beliefs outside ``exclude_subject`` holding every one of ``terms``,
    in no particular order: a lookup, not a ranking, so it stops at the first rows found."""
    match_sql, match_params = _all_of(terms)
    sql = (
        "SELECT b.id FROM memory_belief b "
        f"WHERE {_OWNER.format('b')} AND {_LIVE_BELIEF} AND b.subject <> %s "
        f"AND b.search_vector @@ {match_sql} LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner_id, exclude_subject, *match_params, limit])
        return [row_id for (row_id,) in cursor.fetchall()]
