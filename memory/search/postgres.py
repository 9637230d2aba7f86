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


def _tsquery(terms):
    # Any term may match (OR); ts_rank_cd then favours rows matching more of
    # them, closer together. plainto_tsquery keeps user text out of the query
    # syntax.
    sql = " || ".join("plainto_tsquery('english', %s)" for _ in terms)
    return f"(SELECT {sql} AS query)", list(terms)


def _ranked(sql, params, limit):
    """Rank at most the candidate cap of matches, best first."""
    cap = settings.REVERIE_LIMITS["recall_candidate_cap"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, ts_rank_cd(search_vector, query) AS score FROM ({sql} LIMIT %s) c "
            "ORDER BY score DESC, id DESC LIMIT %s",
            [*params, max(cap, limit), limit],
        )
        return cursor.fetchall()


def belief_matches(*, owner_id, terms, statuses, types, since, limit):
    query_sql, params = _tsquery(terms)
    where = [
        "b.owner_id = %s",
        _LIVE_BELIEF,
        "b.search_vector @@ q.query",
        "b.status = ANY(%s)",
    ]
    params += [owner_id, list(statuses)]
    if types:
        where.append("b.type = ANY(%s)")
        params.append(list(types))
    if since is not None:
        where.append("b.updated_at >= %s")
        params.append(since)
    sql = (
        f"SELECT b.id, b.search_vector, q.query FROM memory_belief b, {query_sql} q "
        f"WHERE {' AND '.join(where)}"
    )
    return _ranked(sql, params, limit)


def message_matches(*, owner_id, terms, since, limit):
    query_sql, params = _tsquery(terms)
    where = [
        "e.owner_id = %s",
        _SEARCHABLE_MESSAGE,
        "e.search_vector @@ q.query",
        "NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = e.id)",
    ]
    params.append(owner_id)
    if since is not None:
        where.append("e.occurred_at >= %s")
        params.append(since)
    sql = (
        f"SELECT e.id, e.search_vector, q.query FROM memory_event e, {query_sql} q "
        f"WHERE {' AND '.join(where)}"
    )
    return _ranked(sql, params, limit)
