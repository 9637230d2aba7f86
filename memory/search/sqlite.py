from django.db import connection

from memory.enums import MESSAGE_EVENT_TYPES, Sensitivity


def _match_expression(terms):
    # Each term is a quoted FTS5 string, so user text never reaches the query
    # syntax; OR lets any term match and BM25 favours rows matching more.
    return " OR ".join('"{}"'.format(term.replace('"', '""')) for term in terms)


def _placeholders(values):
    return ", ".join("%s" for _ in values)


def _ranked(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        # BM25 is lower for better matches; negate it so higher is better.
        return [(row_id, -score) for row_id, score in cursor.fetchall()]


def belief_matches(*, owner_id, terms, statuses, types, since, limit):
    statuses = list(statuses)
    where = [
        "memory_belief_fts MATCH %s",
        "b.owner_id = %s",
        f"b.status IN ({_placeholders(statuses)})",
    ]
    params = [_match_expression(terms), owner_id, *statuses]
    if types:
        where.append(f"b.type IN ({_placeholders(types)})")
        params += list(types)
    if since is not None:
        where.append("b.updated_at >= %s")
        params.append(connection.ops.adapt_datetimefield_value(since))
    return _ranked(
        "SELECT b.id, bm25(memory_belief_fts) AS score FROM memory_belief_fts "
        "JOIN memory_belief b ON b.id = memory_belief_fts.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score, b.id DESC LIMIT %s",
        [*params, limit],
    )


def belief_mentions(*, owner_id, terms, exclude_subject, limit):
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


def message_matches(*, owner_id, terms, since, limit, include_sensitive):
    types = list(MESSAGE_EVENT_TYPES)
    where = [
        "memory_event_fts MATCH %s",
        "e.owner_id = %s",
        "e.redacted_at IS NULL",
        f"e.event_type IN ({_placeholders(types)})",
        "NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = e.id)",
    ]
    params = [_match_expression(terms), owner_id, *types]
    if not include_sensitive:
        where.append("e.sensitivity <> %s")
        params.append(str(Sensitivity.SENSITIVE))
    if since is not None:
        where.append("e.occurred_at >= %s")
        params.append(connection.ops.adapt_datetimefield_value(since))
    return _ranked(
        # The author's name counts at 0.4 of the text, as a lexeme of weight B
        # does in PostgreSQL's BM25 (memory.search.postgres).
        "SELECT e.id, bm25(memory_event_fts, 1.0, 0.4) AS score FROM memory_event_fts "
        "JOIN memory_event e ON e.id = memory_event_fts.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score, e.id DESC LIMIT %s",
        [*params, limit],
    )


def derived_matches(*, owner_id, terms, now, since, limit):
    where = [
        "reconsolidation_derivedmemory_fts MATCH %s",
        "d.owner_id = %s",
        "d.status = 'active'",
        "NOT d.restricted",
        "(d.expires_at IS NULL OR d.expires_at > %s)",
    ]
    params = [_match_expression(terms), owner_id, connection.ops.adapt_datetimefield_value(now)]
    if since is not None:
        where.append("d.updated_at >= %s")
        params.append(connection.ops.adapt_datetimefield_value(since))
    return _ranked(
        "SELECT d.id, bm25(reconsolidation_derivedmemory_fts) AS score "
        "FROM reconsolidation_derivedmemory_fts "
        "JOIN reconsolidation_derivedmemory d ON d.id = reconsolidation_derivedmemory_fts.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score, d.id DESC LIMIT %s",
        [*params, limit],
    )


# The FTS5 indexes of the searchable tables (see AddFullTextIndex and
# AddDerivedFullTextIndex).
_INDEXES = ("memory_belief_fts", "memory_event_fts", "reconsolidation_derivedmemory_fts")


def forget_erased():
    # Deleting from an FTS5 index only adds delete markers: the erased words
    # stay in older segments until they merge. 'optimize' merges every segment
    # into one now, which drops them. (SQLite 3.42's secure-delete option would
    # avoid the full merge; Debian's SQLite here is older.)
    with connection.cursor() as cursor:
        for index in _INDEXES:
            cursor.execute(f"INSERT INTO {index}({index}) VALUES ('optimize')")
