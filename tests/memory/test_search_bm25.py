"""PostgreSQL's BM25 scores against the same BM25 worked out in Python over the same rows.

The statement that reads the statistics also works out the IDFs and the length
normalisation, and scores the candidates of every search within the candidate cap;
a search over the cap takes its stages with figures worked out in Python from the
statistics that statement returns. Both must give FTS5's score: the reference here
computes it from each row's lexemes, positions and weights, and from the owner's
statistics (held to a recount by test_search_ranking).
"""

import math

import pytest
from django.db import connection

from common.principal import principal_context
from memory import search
from memory.enums import LIVE_BELIEF_STATUSES, EventType
from memory.models import Belief, Event, SearchStatistics, SearchTerm
from memory.search import postgres, tables
from memory.text import query_terms
from reconsolidation.search import DERIVED_MEMORIES

from .helpers import conversation
from .test_search_ranking import AUTHORS, _corpus_rows, _queries

pytestmark = pytest.mark.postgres

LIMIT = 10
# Past any query's matches: every search is ranked exactly, in one statement.
NO_CAP = 10**9


def _lexemes(terms):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT unnest(tsvector_to_array(to_tsvector('english', %s)))", [" ".join(terms)]
        )
        return {lexeme for (lexeme,) in cursor.fetchall()}


def _rows(owner, table, condition):
    """{row id: (length, {lexeme: (positions, weights)})} of the owner's searchable rows."""
    rows = {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT a.id, t.lexeme, t.positions, t.weights FROM {table} a "
            f"CROSS JOIN LATERAL unnest(a.search_vector) t WHERE a.owner_id = %s AND {condition}",
            [owner.pk],
        )
        for row_id, lexeme, positions, weights in cursor.fetchall():
            rows.setdefault(row_id, {})[lexeme] = (positions, weights)
    # A row's length is its number of tokens: the position of its last lexeme.
    return {
        row_id: (max(positions[-1] for positions, _ in lexemes.values()), lexemes)
        for row_id, lexemes in rows.items()
    }


def _bm25(owner, collection, rows, terms, *, author_weight):
    """FTS5's bm25() of every row holding a query lexeme, best first, ties by id, descending."""
    statistics = SearchStatistics.objects.get(owner=owner, collection=collection)
    lexemes = _lexemes(terms)
    frequencies = dict(
        SearchTerm.objects.filter(
            owner=owner, collection=collection, lexeme__in=lexemes, documents__gt=0
        ).values_list("lexeme", "documents")
    )
    documents = max(statistics.documents, *frequencies.values(), 1)
    average = max(statistics.length / documents, 1.0)
    idf = {
        lexeme: max(math.log((documents - n + 0.5) / (n + 0.5)), 1e-6)
        for lexeme, n in frequencies.items()
    }
    scores = []
    for row_id, (length, held) in rows.items():
        k = 1.2 * (1 - 0.75 + 0.75 * length / average)
        score = 0.0
        for lexeme in idf.keys() & held.keys():
            positions, weights = held[lexeme]
            # An author's name counts ``author_weight`` of the text (weight B).
            f = len(positions) - (1 - author_weight) * weights.count("B")
            score += idf[lexeme] * f * 2.2 / (f + k)
        if idf.keys() & held.keys():
            scores.append((row_id, score))
    return sorted(scores, key=lambda row: (-row[1], -row[0]))


def _assert_ranked_alike(ours, reference):
    assert [row_id for row_id, _ in ours] == [row_id for row_id, _ in reference[:LIMIT]]
    for (_, score), (_, expected) in zip(ours, reference, strict=False):
        assert score == pytest.approx(expected, rel=1e-12)


def _beliefs(owner):
    with principal_context(owner):
        Belief.objects.bulk_create(
            Belief(owner=owner, scope="principal", **row) for row in _corpus_rows()
        )
        return _rows(owner, "memory_belief", "a.status IN ('active', 'provisional')")


def _messages(owner, count):
    """``count`` of the corpus's statements as messages of a conversation, by two authors in
    turn, as ``_rows`` reads them."""
    session, _ = conversation(owner)
    with principal_context(owner):
        Event.objects.bulk_create(
            Event(
                owner=owner,
                session=session,
                sequence=index + 1,
                event_type=EventType.PARTICIPANT_MESSAGE,
                author_kind="participant",
                author_name=AUTHORS[index % 2],
                text=row["statement"],
                occurred_at=session.created_at,
            )
            for index, row in enumerate(_corpus_rows()[:count])
        )
        return _rows(owner, "memory_event", "a.event_type = 'participant.message.created'")


def _belief_matches(owner, terms):
    with principal_context(owner):
        return search.belief_matches(
            owner_id=owner.pk, terms=terms, statuses=LIVE_BELIEF_STATUSES, limit=LIMIT
        )


def test_every_query_ranks_beliefs_by_the_bm25_of_their_rows(owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": NO_CAP}
    rows = _beliefs(owner)

    for query in _queries():
        terms = query_terms(query)
        with principal_context(owner):
            reference = _bm25(owner, "belief", rows, terms, author_weight=1.0)

        _assert_ranked_alike(_belief_matches(owner, terms), reference)


def test_every_query_ranks_messages_by_the_bm25_of_their_rows_with_their_authors(owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": NO_CAP}
    rows = _messages(owner, 800)

    # The authors' names among the queries: their rows hold them at weight B.
    for query in [*_queries()[:30], "Maren harbour", "Tobias Quill"]:
        terms = query_terms(query)
        with principal_context(owner):
            reference = _bm25(owner, "message", rows, terms, author_weight=0.4)
            ours = search.message_matches(owner_id=owner.pk, terms=terms, limit=LIMIT)

        _assert_ranked_alike(ours, reference)


def test_a_search_over_the_cap_takes_its_stages_with_the_statistics_as_read_apart(
    owner, settings, monkeypatch
):
    """Past the cap, the stages rank with the figures worked out in Python from the
    statistics the first statement returns: the same, to the bit, as those of the
    statistics read on their own, and each row they return is scored by its BM25."""
    cap = 40
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": cap}
    rows = _beliefs(owner)
    taken = []
    over_the_cap = postgres._Ranking.over_the_cap

    def observe(ranking, documents, scale, frequencies):
        taken.append((documents, scale, list(frequencies.items())))
        return over_the_cap(ranking, documents, scale, frequencies)

    monkeypatch.setattr(postgres._Ranking, "over_the_cap", observe)
    staged = 0
    for query in _queries():
        terms = query_terms(query)
        with principal_context(owner):
            statistics = SearchStatistics.objects.get(owner=owner, collection="belief")
            frequencies = list(
                SearchTerm.objects.filter(
                    owner=owner, collection="belief", lexeme__in=_lexemes(terms), documents__gt=0
                )
                .order_by("lexeme")
                .values_list("lexeme", "documents")
            )
            ranking = _bm25(owner, "belief", rows, terms, author_weight=1.0)
        taken.clear()

        ours = _belief_matches(owner, terms)

        if sum(count for _, count in frequencies) <= cap:
            assert taken == []
            _assert_ranked_alike(ours, ranking)
            continue
        staged += 1
        documents = max(statistics.documents, *(count for _, count in frequencies), 1)
        scale = 1.2 * 0.75 / max(statistics.length / documents, 1.0)
        assert taken == [(documents, scale, frequencies)]
        assert ours == sorted(ours, key=lambda row: (-row[1], -row[0]))
        assert len({row_id for row_id, _ in ours}) == len(ours) == LIMIT
        reference = dict(ranking)
        for row_id, score in ours:
            assert score == pytest.approx(reference[row_id], rel=1e-12)
    assert staged >= 10


def test_a_search_over_the_cap_reads_no_rows_in_the_first_statement(owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 1}
    _beliefs(owner)
    statements = []

    def capture(execute, sql, params, many, context):
        if "search_vector @@" in sql:
            statements.append((sql, params))
        return execute(sql, params, many, context)

    # The corpus's commonest word, in many more rows than the cap holds.
    with principal_context(owner):
        common = SearchTerm.objects.filter(owner=owner).order_by("-documents")[0].lexeme

    with connection.execute_wrapper(capture):
        assert _belief_matches(owner, [common])
    (first, params), *stages = statements
    assert stages

    with principal_context(owner), connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS off, TIMING off) {first}", params)
        plan = "\n".join(row for (row,) in cursor.fetchall())
    # However the planner reads the owner's beliefs, it never starts.
    scans = [line for line in plan.splitlines() if " on memory_belief a " in line]
    assert scans, plan
    assert all("never executed" in scan for scan in scans), plan


def test_each_row_stores_the_length_of_the_vector_it_is_searched_by(owner):
    """BM25's length is read from ``search_length``, generated beside each vector: a
    message's counts its author's name after its text, as its vector does."""
    rows = _beliefs(owner)
    messages = _messages(owner, 50)
    for table, expected in (("memory_belief", rows), ("memory_event", messages)):
        with principal_context(owner), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id, search_length FROM {table} WHERE owner_id = %s AND id = ANY(%s)",
                [owner.pk, list(expected)],
            )
            stored = dict(cursor.fetchall())
        assert len(stored) == len(expected) >= 50
        assert stored == {row_id: length for row_id, (length, _) in expected.items()}


@pytest.mark.django_db
def test_no_searched_vector_carries_the_weight_that_sets_a_lexeme_apart():
    """Scoring counts a lexeme's positions by giving it a weight of its own
    (``postgres._APART``): a vector holding that weight would count other lexemes too."""
    collections = [tables.BELIEFS, tables.MESSAGES, DERIVED_MEMORIES]
    with connection.cursor() as cursor:
        for collection in collections:
            cursor.execute(
                "SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_attribute a "
                "ON a.attrelid = d.adrelid AND a.attnum = d.adnum "
                "WHERE d.adrelid = %s::regclass AND a.attname = 'search_vector'",
                [collection.table],
            )
            (expression,) = cursor.fetchone()
            assert "to_tsvector" in expression
            assert f"'{postgres._APART}'" not in expression, collection.table
            weights = {weight for weight, _ in collection.discounts}
            assert postgres._APART not in weights
