"""Full-text matching on PostgreSQL: ``tsvector`` columns with GIN indexes, ranked by BM25.

The score is SQLite FTS5's ``bm25()`` (k1 = 1.2, b = 0.75, the same IDF and
weighted term frequency), computed over the principal's own rows:

- the query's lexemes are the english configuration's stems of its terms;
- each lexeme's document frequency comes from ``SearchTerm`` and the number
  of searchable rows and their total length from ``SearchStatistics``, both
  kept by triggers in the transaction of every write (migration 0012);
- a row's length is its number of tokens, stop words included: the position
  of its last lexeme, as FTS5 counts them.

Candidates are the rows matching any query lexeme. When those number more than
``recall_candidate_cap``, the cap keeps the rows most likely to rank highest:
those holding every lexeme or one of the rarest, then all lexemes but one, then
any (see docs/search.md).
"""

import math
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from memory.enums import MESSAGE_EVENT_TYPES
from memory.migration_operations import SEARCH_LENGTH

# FTS5's constants, so that both databases rank alike.
K1 = 1.2
B = 0.75
# FTS5 floors a non-positive IDF (a lexeme in more than half the rows) here.
MIN_IDF = 1e-6

# These predicates repeat the partial GIN indexes' WHERE clauses word for word
# (migrations 0002 and 0011) so that the planner can use them.
_LIVE_BELIEF = "{0}.status IN ('active', 'provisional')"
_SEARCHABLE_MESSAGE = (
    "{0}.redacted_at IS NULL AND {0}.event_type IN ("
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
_OWNER = "{0}.owner_id = %s::bigint"


@dataclass(frozen=True)
class _Collection:
    table: str
    statistics: str
    searchable: str
    # A lexeme's weighted frequency in a row, from ``unnest(search_vector)``:
    # message authors are indexed at weight B, which counts 0.4 as FTS5's
    # column weight does for SQLite (migration 0011).
    frequency: str


_BELIEFS = _Collection(
    table="memory_belief",
    statistics="belief",
    searchable=_LIVE_BELIEF,
    frequency="cardinality(t.positions)",
)
_MESSAGES = _Collection(
    table="memory_event",
    statistics="message",
    searchable=_SEARCHABLE_MESSAGE,
    frequency="cardinality(t.positions) - 0.6 * cardinality(array_positions(t.weights, 'B'))",
)
_DERIVED = _Collection(
    table="reconsolidation_derivedmemory",
    statistics="derived",
    # The GIN index's condition (reconsolidation migration 0004).
    searchable="{0}.status = 'active' AND NOT {0}.restricted",
    frequency="cardinality(t.positions)",
)


def _quoted(lexeme):
    """A lexeme as a tsquery operand, taken as is (no parsing or stemming again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _any_of(lexemes):
    return " | ".join(_quoted(lexeme) for lexeme in lexemes)


def _all_of(lexemes):
    return " & ".join(_quoted(lexeme) for lexeme in lexemes)


def _statistics(cursor, collection, owner_id, terms):
    """(rows, average length, {lexeme: document frequency}) of the owner's searchable rows,
    for the query lexemes some of those rows hold."""
    # The lexemes are an InitPlan, so that the (owner, collection, lexeme) index
    # looks each of them up instead of the scan filtering all the owner's terms.
    cursor.execute(
        "SELECT s.documents, s.length, t.lexeme, t.documents FROM memory_searchstatistics s "
        "LEFT JOIN memory_searchterm t ON t.owner_id = s.owner_id "
        "AND t.collection = s.collection AND t.documents > 0 AND t.lexeme = ANY(ARRAY("
        "SELECT unnest(tsvector_to_array(to_tsvector('english', %s))))) "
        "WHERE s.owner_id = %s AND s.collection = %s ORDER BY t.lexeme",
        [" ".join(terms), owner_id, collection.statistics],
    )
    rows = cursor.fetchall()
    if not rows:
        return 0, 0.0, {}
    documents, length = rows[0][:2]
    frequencies = {lexeme: count for _, _, lexeme, count in rows if lexeme is not None}
    documents = max(documents, *frequencies.values(), 1)
    return documents, max(length / documents, 1.0), frequencies


def _idf(documents, frequency):
    # FTS5's: log((N - n + 0.5) / (n + 0.5)), floored.
    return max(math.log((documents - frequency + 0.5) / (frequency + 0.5)), MIN_IDF)


def _candidate_queries(frequencies, cap):
    """The tsqueries whose matches are candidates when more rows match than the cap,
    strongest first, each with whether it only fills up the rows asked for.

    A row's score grows with the lexemes it holds and with their rarity: rows
    holding every lexeme or one of the rarest (as many as the cap holds) come
    first, then rows holding all lexemes but one; rows holding any lexeme are
    only looked at while the others have not filled the rows asked for.
    """
    lexemes = sorted(frequencies, key=lambda lexeme: (frequencies[lexeme], lexeme))
    rare, total = [], 0
    for lexeme in lexemes:
        total += frequencies[lexeme]
        if total > cap:
            break
        rare.append(lexeme)
    strongest = [f"({_all_of(lexemes)})"] if len(lexemes) > 1 else []
    if rare:
        strongest.append(_any_of(rare))
    queries = [(" | ".join(strongest), False)] if strongest else []
    if len(lexemes) >= 3:
        all_but_one = " | ".join(
            f"({_all_of(lexemes[:index] + lexemes[index + 1 :])})" for index in range(len(lexemes))
        )
        queries.append((all_but_one, False))
    return [*queries, (_any_of(lexemes), True)]


# The matching rows are selected in a materialised CTE: planned on its own, it
# reads them through the GIN index, where a LIMIT next to the match lets the
# planner walk the owner's btree instead, filtering every row it passes.
_MATCHING = (
    "WITH matching AS MATERIALIZED (SELECT a.id, a.search_vector FROM {table} a "
    "WHERE {where} AND a.search_vector @@ %s::tsquery)"
)


def _capped_candidates(cursor, collection, where, where_params, frequencies, cap, limit):
    matching = _MATCHING.format(table=collection.table, where=" AND ".join(where))
    found = []
    for query, fills in _candidate_queries(frequencies, cap):
        if len(found) >= (limit if fills else cap):
            break
        cursor.execute(
            f"{matching} SELECT id FROM matching WHERE NOT (id = ANY(%s)) LIMIT %s",
            [*where_params, query, found, cap - len(found)],
        )
        found += [row_id for (row_id,) in cursor.fetchall()]
    return found


def _score(collection):
    """BM25 of each candidate row (``candidates``: id, search_vector) over the query lexemes.

    Each row's length is worked out once (``lengths``, materialised), not once
    per lexeme of it that matches.
    """
    return (
        ", lengths AS MATERIALIZED (SELECT id, search_vector, "
        f"{SEARCH_LENGTH.format('search_vector')} AS length FROM candidates) "
        "SELECT c.id, sum(q.idf * f.frequency * %s "
        "/ (f.frequency + %s * (1 - %s + %s * c.length / %s))) AS score "
        "FROM lengths c CROSS JOIN LATERAL unnest(c.search_vector) t "
        "JOIN unnest(%s::text[], %s::float8[]) q(lexeme, idf) ON q.lexeme = t.lexeme "
        f"CROSS JOIN LATERAL (SELECT {collection.frequency} AS frequency) f "
        "GROUP BY c.id ORDER BY score DESC, c.id DESC LIMIT %s"
    )


def _ranked(*, collection, owner_id, where, where_params, terms, limit):
    with connection.cursor() as cursor:
        documents, average, frequencies = _statistics(cursor, collection, owner_id, terms)
        if not frequencies:
            return []
        # Never fewer candidates than the rows asked for.
        cap = max(settings.REVERIE_LIMITS["recall_candidate_cap"], limit)
        where = [_OWNER.format("a"), collection.searchable.format("a"), *where]
        where_params = [owner_id, *where_params]
        idf = {lexeme: _idf(documents, count) for lexeme, count in frequencies.items()}
        scoring = [K1 + 1, K1, B, B, average, list(idf), list(idf.values()), limit]
        if sum(frequencies.values()) <= cap:
            # Every matching row is ranked: the ranking is exact.
            cursor.execute(
                _MATCHING.format(table=collection.table, where=" AND ".join(where))
                + ", candidates AS (SELECT * FROM matching LIMIT %s) "
                + _score(collection),
                [*where_params, _any_of(frequencies), cap, *scoring],
            )
            return cursor.fetchall()
        candidates = _capped_candidates(
            cursor, collection, where, where_params, frequencies, cap, limit
        )
        cursor.execute(
            f"WITH candidates AS (SELECT a.id, a.search_vector FROM {collection.table} a "
            f"WHERE {_OWNER.format('a')} AND a.id = ANY(%s)) " + _score(collection),
            [owner_id, candidates, *scoring],
        )
        return cursor.fetchall()


def belief_matches(*, owner_id, terms, statuses, types, since, limit):
    where = ["a.status = ANY(%s)"]
    params = [list(statuses)]
    if types:
        where.append("a.type = ANY(%s)")
        params.append(list(types))
    if since is not None:
        where.append("a.updated_at >= %s")
        params.append(since)
    return _ranked(
        collection=_BELIEFS,
        owner_id=owner_id,
        where=where,
        where_params=params,
        terms=terms,
        limit=limit,
    )


def message_matches(*, owner_id, terms, since, limit):
    where = ["NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = a.id)"]
    params = []
    if since is not None:
        where.append("a.occurred_at >= %s")
        params.append(since)
    return _ranked(
        collection=_MESSAGES,
        owner_id=owner_id,
        where=where,
        where_params=params,
        terms=terms,
        limit=limit,
    )


def derived_matches(*, owner_id, terms, now, since, limit):
    where = ["(a.expires_at IS NULL OR a.expires_at > %s)"]
    params = [now]
    if since is not None:
        where.append("a.updated_at >= %s")
        params.append(since)
    return _ranked(
        collection=_DERIVED,
        owner_id=owner_id,
        where=where,
        where_params=params,
        terms=terms,
        limit=limit,
    )


def belief_mentions(*, owner_id, terms, exclude_subject, limit):
    """Up to ``limit`` live beliefs outside ``exclude_subject`` holding every one of ``terms``,
    in no particular order: a lookup, not a ranking, so it stops at the first rows found."""
    match_sql = " && ".join("plainto_tsquery('english', %s)" for _ in terms)
    sql = (
        "SELECT b.id FROM memory_belief b "
        f"WHERE {_OWNER.format('b')} AND {_LIVE_BELIEF.format('b')} AND b.subject <> %s "
        f"AND b.search_vector @@ ({match_sql}) LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner_id, exclude_subject, *terms, limit])
        return [row_id for (row_id,) in cursor.fetchall()]
