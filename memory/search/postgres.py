"""Full-text matching on PostgreSQL: ``tsvector`` columns with GIN indexes, ranked by BM25.

The score is SQLite FTS5's ``bm25()`` (k1 = 1.2, b = 0.75, the same IDF and
weighted term frequency), computed over the principal's own rows:

- the query's lexemes are the english configuration's stems of its terms;
- each lexeme's document frequency comes from ``SearchTerm`` and the number
  of searchable rows and their total length from ``SearchStatistics``, both
  kept by triggers in the transaction of every write
  (``memory.migration_operations.KeepSearchStatistics``);
- a row's length is its number of tokens, stop words included: the position
  of its last lexeme, as FTS5 counts them.

Candidates are the rows matching any query lexeme. When those number more than
``recall_candidate_cap``, the cap keeps the rows most likely to rank highest:
those holding every lexeme or one of the rarest, then all lexemes but one, then
any (see docs/search.md).
"""

import math
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from memory.enums import MESSAGE_EVENT_TYPES, Sensitivity
from memory.migration_operations import TOKEN_COUNT

# FTS5's constants, so that both databases rank alike.
K1 = 1.2
B = 0.75
# The filling stage scores at most this many times the rows asked for: enough
# to choose among rows that hold only common words, few enough to stay cheap.
FILL_ROWS = 5
# FTS5 floors a non-positive IDF (a lexeme in more than half the rows) here.
MIN_IDF = 1e-6

# These predicates repeat the partial GIN indexes' WHERE clauses word for word
# (the ``pg_condition`` of the operations that create them) so that the planner
# can use them.
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
    # message authors are indexed at weight B (``IndexMessageAuthors``), which
    # counts 0.4 as FTS5's column weight does for SQLite.
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
    # The derived-memory GIN index's condition, word for word, as above.
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


def _capped_stages(frequencies, cap):
    """When more rows match than the cap holds: the tsqueries whose matches are candidates,
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
    stages = [(" | ".join(strongest), False)] if strongest else []
    if len(lexemes) >= 3:
        all_but_one = " | ".join(
            f"({_all_of(lexemes[:index] + lexemes[index + 1 :])})" for index in range(len(lexemes))
        )
        stages.append((all_but_one, False))
    return [*stages, (_any_of(lexemes), True)]


# A stage's rows are selected in a materialised CTE, planned on its own: with
# the LIMIT beside the match, the planner would walk the owner's btree even for
# rare words, filtering every row it passed. A later stage leaves out the rows
# of the earlier ones by their tsqueries: a stage that runs follows only stages
# that found every row they matched.
_STAGE = (
    "WITH matching AS MATERIALIZED (SELECT a.id, a.search_vector FROM {table} a "
    "WHERE {where} AND a.search_vector @@ %s::tsquery{earlier}), "
    "candidates AS (SELECT * FROM matching LIMIT %s) "
)


def _scored(collection, count):
    """The BM25 score of each ``candidates`` row (id, search_vector) over ``count`` lexemes,
    with the number of candidates, best first.

    One pass over a row's lexemes gives its length and the frequency of each
    query lexeme in it; its parameters are each lexeme's IDF, the lexemes, and
    the two terms of the length normalisation, then how many rows to return.
    """
    frequencies = ", ".join(
        f"sum(({collection.frequency})::float8) FILTER (WHERE t.lexeme = %s) AS f{index}"
        for index in range(count)
    )
    terms = " + ".join(
        f"coalesce(%s * s.f{index} * {K1 + 1} / (s.f{index} + s.k), 0)" for index in range(count)
    )
    return (
        f"SELECT c.id, {terms} AS score, count(*) OVER () FROM candidates c "
        f"CROSS JOIN LATERAL (SELECT %s + %s * {TOKEN_COUNT.format('t')} AS k, {frequencies} "
        "FROM unnest(c.search_vector) t) s ORDER BY score DESC, c.id DESC LIMIT %s"
    )


@contextmanager
def _planned_for_its_values(connection):
    """Run the block's statements unprepared, each planned for the values it is given.

    For the filling stage: whether to read its matches through the GIN index or
    walk the owner's rows until its small LIMIT is reached depends on how many
    rows its tsquery matches, and a prepared statement soon runs a generic plan
    that cannot know; the wrong one reads thousands of rows where a hundred are
    needed. The other stages keep their prepared plans, which read through the
    GIN index: planned for their values, they were seen to walk every row of
    a 10,000-memory bank instead.
    """
    raw = connection.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = None
    try:
        yield
    finally:
        raw.prepare_threshold = threshold


def _ranked(*, collection, owner_id, where, where_params, terms, limit):
    """The best ``limit`` rows by BM25, as (id, score), over the candidates of each stage.

    Each stage returns its own best rows: the best overall are among them.
    """
    with connection.cursor() as cursor:
        documents, average, frequencies = _statistics(cursor, collection, owner_id, terms)
        if not frequencies:
            return []
        # Never fewer candidates than the rows asked for.
        cap = max(settings.REVERIE_LIMITS["recall_candidate_cap"], limit)
        where = " AND ".join([_OWNER.format("a"), collection.searchable.format("a"), *where])
        idf = {lexeme: _idf(documents, count) for lexeme, count in frequencies.items()}
        # k1 x (1 - b + b x length / average), as a + b' x length.
        scoring = [*idf.values(), K1 * (1 - B), K1 * B / average, *idf, limit]
        scored = _scored(collection, len(idf))
        best, found, earlier = [], 0, None
        # When every matching row fits in the cap, one stage ranks them all: exactly.
        exact = sum(frequencies.values()) <= cap
        stages = [(_any_of(frequencies), False)] if exact else _capped_stages(frequencies, cap)
        for query, fills in stages:
            if found >= (limit if fills else cap):
                break
            stage = _STAGE.format(
                table=collection.table,
                where=where,
                earlier="" if earlier is None else " AND NOT a.search_vector @@ %s::tsquery",
            )
            with _planned_for_its_values(connection) if fills else nullcontext():
                cursor.execute(
                    stage + scored,
                    [owner_id, *where_params, query, *([] if earlier is None else [earlier])]
                    + [min(cap - found, FILL_ROWS * limit) if fills else cap - found, *scoring],
                )
            rows = cursor.fetchall()
            found += rows[0][2] if rows else 0
            best += [(row_id, score) for row_id, score, _ in rows]
            earlier = query if earlier is None else f"({earlier}) | ({query})"
        best.sort(key=lambda row: (-row[1], -row[0]))
        return best[:limit]


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


def message_matches(*, owner_id, terms, since, limit, include_sensitive):
    where = ["NOT EXISTS (SELECT 1 FROM memory_fencedevent f WHERE f.event_id = a.id)"]
    params = []
    if not include_sensitive:
        where.append("a.sensitivity <> %s")
        params.append(str(Sensitivity.SENSITIVE))
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
