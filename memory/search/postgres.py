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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from datetime import datetime
from typing import NamedTuple, TypeAlias

from django.conf import settings
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper

from .searches import Collection, Match, Search
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

# A statement's parameter, of the kinds the searches here pass.
_Param: TypeAlias = None | bool | int | float | str | datetime | list[str]

# A row of the first statement: a search's index and either one of its scored rows
# (id, score) or, for a search whose matches exceed its cap, its collection's
# statistics (N, the length normalisation's scale, the lexemes some row holds and
# their document frequencies: see ``_STATISTICS``).
_Row = tuple[int, int | None, float | None, int | None, float | None, list[str], list[int]]


def _float(value: float) -> str:
    """``value`` as a float8 literal of exactly the same double."""
    return f"{value!r}::float8"


def _quoted(lexeme: str) -> str:
    """A lexeme as a tsquery operand, taken as is (no parsing or stemming again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _quoted_sql(lexeme: str) -> str:
    """SQL: the text ``lexeme`` (SQL of a text) as a tsquery operand, quoted as ``_quoted``
    quotes one."""
    return f"'''' || replace(replace({lexeme}, '\\', '\\\\'), '''', '''''') || ''''"


def _any_of(lexemes: Iterable[str]) -> str:
    return " | ".join(_quoted(lexeme) for lexeme in lexemes)


def _all_of(lexemes: Iterable[str]) -> str:
    return " & ".join(_quoted(lexeme) for lexeme in lexemes)


# The BM25 statistics of each searched collection, as the first statement's CTEs:
#
# - ``statistics``: a row for each query lexeme, with the owner's rows and their
#   total length, and the lexeme's document frequency when some row holds it.
#   Each frequency is a subquery of its own, so that the (owner, collection,
#   lexeme) index looks each one up, whatever the plan: as a join or a filter on
#   an array of them, a prepared statement's generic plan, which cannot know how
#   few they are, read every term of the owner's instead;
# - ``collections``: FTS5's N (never below a frequency, nor 1); the sum of the
#   frequencies, which bounds the rows matching; the lexemes held with their
#   frequencies and a tsquery of each alone, and the tsquery of any of them; and
#   ``scale``, the factor of a
#   row's length in the length normalisation k1 x (1 - b + b x length / average)
#   taken as k1 x (1 - b) + scale x length, with an average length of at least 1;
# - ``idfs``: each held lexeme's IDF, FTS5's log((N - n + 0.5) / (n + 0.5)), floored, in
#   the order of ``lexemes``.
#
# The arithmetic is Python's, operation for operation (``_idf``, ``_Ranking``), so
# that a ranking scored here and one scored with Python's figures as parameters agree.
#
# The statement is prepared, and keeps one generic plan only while plans made for the
# values given cost no less. Those would know how many lexemes and collections there
# are, and PostgreSQL would then plan the statement again on every recall: so the
# lexemes come out of a subquery, whose value no plan knows, and the collections
# are named in the statement's text.
_STATISTICS = (
    "WITH statistics AS (SELECT s.collection, s.documents, s.length, q.lexeme, "
    "(SELECT t.documents FROM memory_searchterm t WHERE t.owner_id = s.owner_id "
    "AND t.collection = s.collection AND t.lexeme = q.lexeme AND t.documents > 0) AS frequency "
    "FROM memory_searchstatistics s LEFT JOIN LATERAL "
    "unnest((SELECT tsvector_to_array(to_tsvector('english', %s)))) q(lexeme) ON true "
    "WHERE s.owner_id = %s AND s.collection IN ({collections})), "
    "collections AS (SELECT s.*, "
    f"{_float(K1 * B)} / greatest(s.length::float8 / s.documents, 1.0::float8) AS scale "
    "FROM (SELECT collection, greatest(max(documents), max(frequency), 1) AS documents, "
    "max(length) AS length, sum(frequency) AS total, "
    "array_agg(lexeme ORDER BY lexeme) FILTER (WHERE frequency IS NOT NULL) AS lexemes, "
    "array_agg(frequency ORDER BY lexeme) FILTER (WHERE frequency IS NOT NULL) AS frequencies, "
    f"array_agg(({_quoted_sql('lexeme')})::tsquery ORDER BY lexeme) "
    "FILTER (WHERE frequency IS NOT NULL) AS queries, "
    f"(string_agg({_quoted_sql('lexeme')}, ' | ') "
    "FILTER (WHERE frequency IS NOT NULL))::tsquery AS query "
    "FROM statistics GROUP BY collection) s), "
    "idfs AS (SELECT s.collection, array_agg(greatest(ln((c.documents - s.frequency + "
    f"0.5::float8) / (s.frequency + 0.5::float8)), {_float(MIN_IDF)}) ORDER BY s.lexeme) AS idfs "
    "FROM statistics s JOIN collections c USING (collection) WHERE s.frequency IS NOT NULL "
    "GROUP BY s.collection) "
)


def _idf(documents: int, frequency: int) -> float:
    # FTS5's: log((N - n + 0.5) / (n + 0.5)), floored.
    return max(math.log((documents - frequency + 0.5) / (frequency + 0.5)), MIN_IDF)


def _capped_stages(frequencies: dict[str, int], cap: int) -> list[tuple[str, bool]]:
    """When more rows match than the cap holds: the tsqueries whose matches are candidates,
    strongest first, each with whether it only fills up the rows asked for.

    A row's score grows with the lexemes it holds and with their rarity: rows
    holding every lexeme or one of the rarest (as many as the cap holds) come
    first, then rows holding all lexemes but one; rows holding any lexeme are
    only looked at while the others have not filled the rows asked for.
    """
    lexemes = sorted(frequencies, key=lambda lexeme: (frequencies[lexeme], lexeme))
    rare: list[str] = []
    total = 0
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
    "WITH matching AS MATERIALIZED (SELECT a.id, a.search_vector, {length} AS length "
    "FROM {table} a WHERE {where} AND a.search_vector @@ %s::tsquery{earlier}), "
    "candidates AS (SELECT * FROM matching LIMIT %s)"
)
# A weight no indexed text carries. A lexeme given it and the rest filtered out leaves a
# vector of that lexeme alone, whose text reads ``'lexeme':3C,7C``: one C for each of its
# positions after the last ``':``.
_APART = "C"


def _positions(vector: str, lexeme: str) -> str:
    """SQL: how many positions the lexeme of the ``text[]`` ``lexeme`` (of one lexeme, or
    none) has in ``vector``.

    Scalar functions only: unnesting each candidate's vector for its few query lexemes
    cost recall more than the rest of its scoring.
    """
    alone = f"ts_filter(setweight({vector}, '{_APART}', {lexeme}), '{{{_APART.lower()}}}')"
    return (
        f"coalesce(array_length(string_to_array(split_part({alone}::text, ''':', -1), "
        f"'{_APART}'), 1) - 1, 0)"
    )


def _frequency(collection: Collection, lexeme: str, query: str) -> str:
    """SQL: the weighted frequency in the candidate ``c`` of the lexeme of the ``text[]``
    ``lexeme``: its positions, less what each of a discounted weight's counts less.

    ``query`` is the SQL of a tsquery of that lexeme alone (NULL for none). Counting
    copies the candidate's vector, where whether it holds the lexeme is a lookup in it;
    most candidates of a query of several words hold only some of them, so positions
    are counted only where the lexeme is.
    """
    counted = _positions("c.search_vector", lexeme)
    for weight, discount in collection.discounts:
        weighted = _positions(f"ts_filter(c.search_vector, '{{{weight.lower()}}}')", lexeme)
        counted += f" - {discount!r} * {weighted}"
    return f"(CASE WHEN c.search_vector @@ {query} THEN ({counted})::float8 ELSE 0 END)"


def _scored(
    index: int,
    collection: Collection,
    lexemes: Sequence[str],
    queries: Sequence[str],
    idfs: Sequence[str],
    k: str,
    columns: str,
) -> str:
    """The BM25 score of each ``candidates`` row (id, search_vector, length), best first,
    each led by ``index`` and followed by ``columns``, with a ``%s`` for how many to return.

    ``lexemes`` (SQL of a ``text[]`` of one lexeme or none), ``queries`` (SQL of a tsquery
    of each one alone) and ``idfs`` (SQL of each one's IDF, NULL for none) are the query's,
    in the same order; ``k`` is the SQL of the length
    normalisation of the candidate ``c``, k1 x (1 - b + b x length / average). Each
    lexeme's frequency is worked out once per candidate, in a CTE of its own: inline, it
    would be worked out again wherever the score names it.
    """
    frequencies = ", ".join(
        f"{_frequency(collection, lexeme, query)} AS f{number}"
        for number, (lexeme, query) in enumerate(zip(lexemes, queries, strict=True))
    )
    terms = " + ".join(
        f"coalesce({idf} * c.f{number} * {K1 + 1} / (c.f{number} + c.k), 0)"
        for number, idf in enumerate(idfs)
    )
    return (
        f", counted AS MATERIALIZED (SELECT c.id, {k} AS k, {frequencies} FROM candidates c) "
        f"SELECT {index} AS search, c.id, {terms} AS score, {columns} "
        "FROM counted c ORDER BY score DESC, c.id DESC LIMIT %s"
    )


@contextmanager
def _planned_for_its_values(connection: BaseDatabaseWrapper) -> Iterator[None]:
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


class _Stage(NamedTuple):
    sql: str
    params: list[_Param]
    fills: bool


class _Ranking:
    """One search's way to its best rows: scored in the first statement when every row it
    matches fits in its cap, or else through candidate stages, each in a later statement.

    Each stage returns its own best rows: the best overall are among them.
    """

    def __init__(self, search: Search, owner_id: int) -> None:
        self.search = search
        self.best: list[Match] = []
        self.found = 0
        self.earlier: str | None = None
        self.stages: list[tuple[str, bool]] = []
        self.scoring: list[_Param] = []
        self.lexemes = 0
        # Never fewer candidates than the rows asked for.
        self.cap: int = max(settings.REVERIE_LIMITS["recall_candidate_cap"], search.limit)
        self.where = " AND ".join([_OWNER.format("a"), search.collection.searchable, *search.where])
        self.where_params: list[_Param] = [owner_id, *search.params]

    def exact(self, index: int, slots: int) -> tuple[str, list[_Param]]:
        """This search's part of the first statement: its rows ranked exactly, each led by
        ``index``, when the sum of its lexemes' frequencies is within its cap and they are
        at most ``slots``.

        The frequencies bound the rows matching. The condition on them refers to no
        row, so the planner tests it once, before reading any: a search over its cap
        reads no rows here. The query's lexemes are not known before the statement
        runs, so each of ``slots`` scores the lexeme of its place (or none), and the
        statement's text depends only on how many terms the query has.
        """
        collection = self.search.collection
        name = f"'{collection.statistics}'"
        held = f"FROM collections e WHERE e.collection = {name}"
        sql = (
            "(WITH matching AS MATERIALIZED (SELECT a.id, a.search_vector, "
            f"{collection.length} AS length FROM {collection.table} a WHERE {self.where} "
            f"AND a.search_vector @@ (SELECT e.query {held}) AND (SELECT e.total <= %s "
            f"AND cardinality(e.lexemes) <= {slots} {held})), "
            "candidates AS (SELECT * FROM matching)"
            + _scored(
                index,
                collection,
                [f"(SELECT e.lexemes[{slot}:{slot}] {held})" for slot in range(1, slots + 1)],
                [f"(SELECT e.queries[{slot}] {held})" for slot in range(1, slots + 1)],
                [
                    f"(SELECT f.idfs[{slot}] FROM idfs f WHERE f.collection = {name})"
                    for slot in range(1, slots + 1)
                ],
                f"{_float(K1 * (1 - B))} + (SELECT e.scale {held}) * c.length",
                "NULL::bigint, NULL::float8, NULL::text[], NULL::bigint[]",
            )
            + ")"
        )
        return sql, [*self.where_params, self.cap, self.search.limit]

    def over_the_cap(self, documents: int, scale: float, frequencies: dict[str, int]) -> None:
        """Take the stages for matches exceeding the cap, with the collection's statistics
        as the first statement found them."""
        idf = {lexeme: _idf(documents, count) for lexeme, count in frequencies.items()}
        apart = 1 + len(self.search.collection.discounts)
        # k1 x (1 - b + b x length / average), as a + b' x length; then each lexeme where
        # its frequency is worked out (as a tsquery, then as a text[] for each count),
        # and its IDF where its term is.
        counted: list[_Param] = []
        for lexeme in idf:
            counted += [_quoted(lexeme), *([lexeme] for _ in range(apart))]
        self.scoring = [K1 * (1 - B), scale, *counted, *idf.values(), self.search.limit]
        self.lexemes = len(idf)
        self.stages = _capped_stages(frequencies, self.cap)

    def next_stage(self, index: int) -> _Stage | None:
        """The next stage's (SQL, parameters, whether it fills), each row led by ``index``;
        None once the stages before it found enough."""
        if not self.stages:
            return None
        query, fills = self.stages[0]
        if self.found >= (self.search.limit if fills else self.cap):
            self.stages = []
            return None
        collection = self.search.collection
        stage = _STAGE.format(
            length=collection.length,
            table=collection.table,
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
        scored = _scored(
            index,
            collection,
            ["%s::text[]"] * self.lexemes,
            ["%s::tsquery"] * self.lexemes,
            ["%s"] * self.lexemes,
            "%s + %s * c.length",
            "count(*) OVER ()",
        )
        return _Stage(stage + scored, params, fills)

    def take(self, rows: list[tuple[int, int, float, int]]) -> None:
        """The rows of the stage ``next_stage`` gave, as (index, id, score, candidates)."""
        query, _ = self.stages.pop(0)
        self.found += rows[0][3] if rows else 0
        self.best += [(row_id, score) for _, row_id, score, _ in rows]
        self.earlier = query if self.earlier is None else f"({self.earlier}) | ({query})"

    def matches(self) -> list[Match]:
        self.best.sort(key=lambda row: (-row[1], -row[0]))
        return self.best[: self.search.limit]


def _first_statement(
    rankings: Sequence[_Ranking], owner_id: int, terms: Sequence[str]
) -> tuple[str, list[_Param]]:
    """The statistics of every searched collection and the exact ranking of every search
    whose matches fit in its cap; for each other search, a row of its collection's
    statistics, from which it takes its stages."""
    # The query's lexemes are at most its terms: each term is one word of letters and
    # digits, which the parser reads as one token (a search with more takes its stages).
    slots = max(len(terms), 1)
    exact = [ranking.exact(index, slots) for index, ranking in enumerate(rankings)]
    searched = ", ".join(
        f"({index}, '{ranking.search.collection.statistics}', %s::bigint)"
        for index, ranking in enumerate(rankings)
    )
    over_the_cap = (
        "SELECT s.search, NULL::bigint, NULL::float8, c.documents, c.scale, c.lexemes, "
        f"c.frequencies FROM (VALUES {searched}) s(search, collection, cap) "
        f"JOIN collections c USING (collection) WHERE c.total > s.cap "
        f"OR cardinality(c.lexemes) > {slots}"
    )
    collections = sorted({ranking.search.collection.statistics for ranking in rankings})
    statistics = _STATISTICS.format(collections=", ".join(f"'{name}'" for name in collections))
    return (
        statistics + " UNION ALL ".join([*(sql for sql, _ in exact), f"({over_the_cap})"]),
        [
            " ".join(terms),
            owner_id,
            *(param for _, params in exact for param in params),
            *(ranking.cap for ranking in rankings),
        ],
    )


def ranked(searches: Sequence[Search], *, owner_id: int, terms: Sequence[str]) -> list[list[Match]]:
    """Every search's best rows by BM25, as (id, score).

    One statement when each search's matches fit in the candidate cap: it reads
    the statistics of every searched collection and ranks every search's
    candidates with them. A search
    with more matches takes its stages in later statements, at most three,
    alongside the other searches' stages; a filling stage goes in a statement
    of its own, since only it is planned for its values.
    """
    rankings = [_Ranking(search, owner_id) for search in searches]
    with connection.cursor() as cursor:
        cursor.execute(*_first_statement(rankings, owner_id, terms))
        row: _Row
        for row in cursor.fetchall():
            index, row_id, score, documents, scale, lexemes, frequencies = row
            if row_id is not None and score is not None:
                rankings[index].best.append((row_id, score))
            elif documents is not None and scale is not None:
                rankings[index].over_the_cap(
                    documents, scale, dict(zip(lexemes, frequencies, strict=True))
                )
        while stages := [
            (index, stage)
            for index, ranking in enumerate(rankings)
            if (stage := ranking.next_stage(index)) is not None
        ]:
            for fills in (False, True):
                statement = [(index, stage) for index, stage in stages if stage.fills == fills]
                if not statement:
                    continue
                # Each stage in parentheses, with its own CTEs, ORDER BY and LIMIT.
                sql = " UNION ALL ".join(
                    f"({stage.sql})" if len(statement) > 1 else stage.sql for _, stage in statement
                )
                params = [param for _, stage in statement for param in stage.params]
                with _planned_for_its_values(connection) if fills else nullcontext():
                    cursor.execute(sql, params)
                rows = cursor.fetchall()
                for index, _ in statement:
                    rankings[index].take([row for row in rows if row[0] == index])
        return [ranking.matches() for ranking in rankings]


def belief_mentions(
    *, owner_id: int, terms: Sequence[str], exclude_subject: str, limit: int
) -> list[int]:
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
