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

from django.conf import settings
from django.db import connection

from memory.migration_operations import TOKEN_COUNT

from .tables import BELIEFS

# FTS5's constants, so that both databases rank alike.
K1 = 1.2
B = 0.75
# The filling stage scores at most this many times the rows asked for: enough
# to choose among rows that hold only common words, few enough to stay cheap.
FILL_ROWS = 5
# FTS5 floors a non-positive IDF (a lexeme in more than half the rows) here.
MIN_IDF = 1e-6

# The owner filter is cast to bigint so that the GIN indexes can answer it. They
# index (owner_id, search_vector) through btree_gin, whose int8 operator class
# has no cross-type operators: an integer parameter arrives as an int4 literal,
# and ``owner_id = 6`` (int8 = int4) is then usable by the plain btree on
# owner_id only. The planner would match the search terms in the GIN index
# across every principal's rows and intersect that with all of the owner's rows;
# ``owner_id = 6::bigint`` lets one GIN scan look at the owner's rows alone.
_OWNER = "{0}.owner_id = %s::bigint"


def _quoted(lexeme):
    """A lexeme as a tsquery operand, taken as is (no parsing or stemming again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _any_of(lexemes):
    return " | ".join(_quoted(lexeme) for lexeme in lexemes)


def _all_of(lexemes):
    return " & ".join(_quoted(lexeme) for lexeme in lexemes)


def _statistics(cursor, searches, owner_id, terms):
    """{collection's statistics: (rows, average length, {lexeme: document frequency})} of the
    owner's searchable rows of each searched collection, for the query lexemes some of
    those rows hold; in one statement for them all."""
    # Each lexeme's frequency is a subquery of its own, so that the (owner, collection,
    # lexeme) index looks each one up, whatever the plan: as a join or a filter on an
    # array of them, a prepared statement's generic plan, which cannot know how few
    # they are, read every term of the owner's instead.
    cursor.execute(
        "SELECT s.collection, s.documents, s.length, q.lexeme, (SELECT t.documents "
        "FROM memory_searchterm t WHERE t.owner_id = s.owner_id "
        "AND t.collection = s.collection AND t.lexeme = q.lexeme AND t.documents > 0) "
        "FROM memory_searchstatistics s LEFT JOIN LATERAL "
        "unnest(tsvector_to_array(to_tsvector('english', %s))) q(lexeme) ON true "
        "WHERE s.owner_id = %s AND s.collection = ANY(%s) ORDER BY s.collection, q.lexeme",
        [" ".join(terms), owner_id, sorted({search.collection.statistics for search in searches})],
    )
    rows = {}
    for collection, *row in cursor.fetchall():
        rows.setdefault(collection, []).append(row)
    statistics = {}
    for collection, held in rows.items():
        documents, length = held[0][:2]
        frequencies = {lexeme: count for _, _, lexeme, count in held if count is not None}
        documents = max(documents, *frequencies.values(), 1)
        statistics[collection] = (documents, max(length / documents, 1.0), frequencies)
    return statistics


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


def _scored(index, collection, count):
    """The BM25 score of each ``candidates`` row (id, search_vector) over ``count`` lexemes,
    with the number of candidates, best first, each row led by ``index``.

    One pass over a row's lexemes gives its length and the frequency of each
    query lexeme in it; its parameters are each lexeme's IDF, the lexemes, and
    the two terms of the length normalisation, then how many rows to return.
    """
    frequencies = ", ".join(
        f"sum(({collection.frequency})::float8) FILTER (WHERE t.lexeme = %s) AS f{number}"
        for number in range(count)
    )
    terms = " + ".join(
        f"coalesce(%s * s.f{number} * {K1 + 1} / (s.f{number} + s.k), 0)" for number in range(count)
    )
    return (
        f"SELECT {index} AS search, c.id, {terms} AS score, count(*) OVER () "
        "FROM candidates c "
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


class _Ranking:
    """One search's way through its candidate stages, and the best rows they found.

    Each stage returns its own best rows: the best overall are among them.
    """

    def __init__(self, search, owner_id, statistics):
        documents, average, frequencies = statistics
        self.search = search
        self.best, self.found, self.earlier = [], 0, None
        self.stages = []
        if not frequencies:
            return
        collection = search.collection
        # Never fewer candidates than the rows asked for.
        self.cap = max(settings.REVERIE_LIMITS["recall_candidate_cap"], search.limit)
        self.where = " AND ".join([_OWNER.format("a"), collection.searchable, *search.where])
        self.where_params = [owner_id, *search.params]
        idf = {lexeme: _idf(documents, count) for lexeme, count in frequencies.items()}
        # k1 x (1 - b + b x length / average), as a + b' x length.
        self.scoring = [*idf.values(), K1 * (1 - B), K1 * B / average, *idf, search.limit]
        self.lexemes = len(idf)
        # When every matching row fits in the cap, one stage ranks them all: exactly.
        exact = sum(frequencies.values()) <= self.cap
        self.stages = (
            [(_any_of(frequencies), False)] if exact else _capped_stages(frequencies, self.cap)
        )

    def next_stage(self, index):
        """The next stage's (SQL, parameters, whether it fills), each row led by ``index``;
        None once the stages before it found enough."""
        if not self.stages:
            return None
        query, fills = self.stages[0]
        if self.found >= (self.search.limit if fills else self.cap):
            self.stages = []
            return None
        stage = _STAGE.format(
            table=self.search.collection.table,
            where=self.where,
            earlier="" if self.earlier is None else " AND NOT a.search_vector @@ %s::tsquery",
        )
        rows = (
            min(self.cap - self.found, FILL_ROWS * self.search.limit)
            if fills
            else self.cap - self.found
        )
        params = [
            *self.where_params,
            query,
            *([] if self.earlier is None else [self.earlier]),
            rows,
            *self.scoring,
        ]
        return stage + _scored(index, self.search.collection, self.lexemes), params, fills

    def take(self, rows):
        """The rows of the stage ``next_stage`` gave, as (index, id, score, candidates)."""
        query, _ = self.stages.pop(0)
        self.found += rows[0][3] if rows else 0
        self.best += [(row_id, score) for _, row_id, score, _ in rows]
        self.earlier = query if self.earlier is None else f"({self.earlier}) | ({query})"

    def matches(self):
        self.best.sort(key=lambda row: (-row[1], -row[0]))
        return self.best[: self.search.limit]


def ranked(searches, *, owner_id, terms):
    """Every search's best rows by BM25, as (id, score).

    Two statements when each search's matches fit in the candidate cap: the
    statistics of every search, then every search's candidates ranked. A
    search with more matches takes its further stages in later statements, at
    most two more, alongside the other searches' further stages; a filling
    stage goes in a statement of its own, since only it is planned for its
    values.
    """
    with connection.cursor() as cursor:
        statistics = _statistics(cursor, searches, owner_id, terms)
        rankings = [
            _Ranking(search, owner_id, statistics.get(search.collection.statistics, (0, 0.0, {})))
            for search in searches
        ]
        while stages := [
            (index, stage)
            for index, ranking in enumerate(rankings)
            if (stage := ranking.next_stage(index)) is not None
        ]:
            for fills in (False, True):
                statement = [(index, stage) for index, stage in stages if stage[2] == fills]
                if not statement:
                    continue
                # Each stage in parentheses, with its own CTEs, ORDER BY and LIMIT.
                sql = " UNION ALL ".join(
                    f"({sql})" if len(statement) > 1 else sql for _, (sql, _, _) in statement
                )
                params = [param for _, (_, stage, _) in statement for param in stage]
                with _planned_for_its_values(connection) if fills else nullcontext():
                    cursor.execute(sql, params)
                rows = cursor.fetchall()
                for index, _ in statement:
                    rankings[index].take([row for row in rows if row[0] == index])
        return [ranking.matches() for ranking in rankings]


def belief_mentions(*, owner_id, terms, exclude_subject, limit):
    """Up to ``limit`` live beliefs outside ``exclude_subject`` holding every one of ``terms``,
    in no particular order: a lookup, not a ranking, so it stops at the first rows found."""
    match_sql = " && ".join("plainto_tsquery('english', %s)" for _ in terms)
    sql = (
        "SELECT a.id FROM memory_belief a "
        f"WHERE {_OWNER.format('a')} AND {BELIEFS.searchable} AND a.subject <> %s "
        f"AND a.search_vector @@ ({match_sql}) LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner_id, exclude_subject, *terms, limit])
        return [row_id for (row_id,) in cursor.fetchall()]
