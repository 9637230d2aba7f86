"""PostgreSQL's BM25 against SQLite FTS5's ``bm25()``, and the statistics it divides by.

The reference is SQLite itself: the same rows go into an in-memory FTS5 table
built like the product's (``porter unicode61``; messages with their author's
name as a second column weighted 0.4) and are ranked with the match
expression the SQLite backend sends. The tokenisers differ: PostgreSQL's
english configuration drops stop words and measures a row's length in
distinct lexemes, FTS5 counts every token; so scores differ slightly and the
test asks that the top-10 sets agree, not the scores.
"""

import sqlite3

import pytest
from django.db import connection

from benchmarks.corpus import Corpus
from common.principal import principal_context
from memory import search
from memory.enums import LIVE_BELIEF_STATUSES, EventType
from memory.migration_operations import SEARCH_LENGTH
from memory.models import Belief, Event, SearchStatistics, SearchTerm
from memory.search.sqlite import _match_expression
from memory.services.account import account_purge
from memory.services.erasure import event_erase
from memory.text import query_terms

from .helpers import conversation, remember, say

pytestmark = pytest.mark.postgres

BELIEFS = 1500
QUERIES = 60
AUTHORS = ("Maren Holt", "Tobias Quill")


def _corpus_rows():
    rows = Corpus(seed=11).beliefs(0, 0, BELIEFS)
    return [row for row in rows if row["status"] in LIVE_BELIEF_STATUSES]


def _queries():
    return [query for _, query in Corpus(seed=11).queries(QUERIES, 1, stream="parity")]


def _fts5(texts, authored):
    database = sqlite3.connect(":memory:")
    columns = "text, author" if authored else "text"
    database.execute(f"CREATE VIRTUAL TABLE t USING fts5({columns}, tokenize='porter unicode61')")
    database.executemany(
        f"INSERT INTO t(rowid, {columns}) VALUES (?, ?{', ?' if authored else ''})",
        [(row_id, *values) for row_id, values in texts.items()],
    )
    return database


def _reference(database, terms, authored):
    """Every row with its FTS5 score, best first (higher is better)."""
    weights = ", 1.0, 0.4" if authored else ""
    return [
        (row_id, -score)
        for row_id, score in database.execute(
            f"SELECT rowid, bm25(t{weights}) AS s FROM t WHERE t MATCH ? ORDER BY s, rowid DESC",
            [_match_expression(terms)],
        )
    ]


def _agreement(database, match, authored, limit=10):
    """The share of queries whose PostgreSQL top ``limit`` are all among the reference's top
    ``limit`` (rows tied with the reference's last one count as in it), and the queries
    that did not agree."""
    agreed, disagreed = 0, []
    for query in _queries():
        terms = query_terms(query)
        reference = _reference(database, terms, authored)
        ours = [row_id for row_id, _ in match(terms)]
        if not reference:
            agreed += not ours
            continue
        floor = reference[min(limit, len(reference)) - 1][1] - 1e-9
        best = {row_id for row_id, score in reference if score >= floor}
        if len(ours) == min(limit, len(reference)) and set(ours) <= best:
            agreed += 1
        else:
            disagreed.append(query)
    return agreed / QUERIES, disagreed


def test_beliefs_rank_as_sqlite_fts5_ranks_them(owner):
    with principal_context(owner):
        beliefs = Belief.objects.bulk_create(
            Belief(owner=owner, scope="principal", **row) for row in _corpus_rows()
        )
    database = _fts5({belief.pk: (belief.statement,) for belief in beliefs}, authored=False)

    def match(terms):
        with principal_context(owner):
            return search.belief_matches(
                owner_id=owner.pk, terms=terms, statuses=LIVE_BELIEF_STATUSES, limit=10
            )

    share, disagreed = _agreement(database, match, authored=False)

    assert share >= 0.9, disagreed


def test_messages_rank_as_sqlite_fts5_ranks_them_with_their_authors(owner):
    session, _ = conversation(owner)
    rows = _corpus_rows()[:800]
    with principal_context(owner):
        events = Event.objects.bulk_create(
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
            for index, row in enumerate(rows)
        )
    database = _fts5({event.pk: (event.text, event.author_name) for event in events}, authored=True)

    def match(terms):
        with principal_context(owner):
            return search.message_matches(owner_id=owner.pk, terms=terms, limit=10)

    share, disagreed = _agreement(database, match, authored=True)

    assert share >= 0.9, disagreed


def test_the_agreement_measure_refuses_a_ranking_that_ignores_the_query(owner):
    # The gate above must be able to fail: the newest rows, whatever was asked, do not pass.
    with principal_context(owner):
        beliefs = Belief.objects.bulk_create(
            Belief(owner=owner, scope="principal", **row) for row in _corpus_rows()
        )
    database = _fts5({belief.pk: (belief.statement,) for belief in beliefs}, authored=False)
    newest = sorted((belief.pk for belief in beliefs), reverse=True)[:10]

    share, _ = _agreement(database, lambda terms: [(pk, 1.0) for pk in newest], authored=False)

    assert share < 0.1


def _recounted(owner):
    """The statistics and document frequencies recomputed from the rows as they are now."""
    conditions = {
        "belief": ("memory_belief", "status IN ('active', 'provisional')"),
        "message": (
            "memory_event",
            "redacted_at IS NULL AND event_type IN ('user.message.created', "
            "'assistant.message.created', 'participant.message.created')",
        ),
    }
    statistics, terms = {}, {}
    with principal_context(owner), connection.cursor() as cursor:
        for collection, (table, condition) in conditions.items():
            rows = f"FROM {table} WHERE owner_id = %s AND {condition}"
            length = SEARCH_LENGTH.format("search_vector")
            cursor.execute(f"SELECT count(*), coalesce(sum({length}), 0) {rows}", [owner.pk])
            documents, length = cursor.fetchone()
            if documents:
                statistics[collection] = (documents, length)
            cursor.execute(
                "SELECT lexeme, count(*) FROM (SELECT "
                f"unnest(tsvector_to_array(search_vector)) AS lexeme {rows}) t GROUP BY lexeme",
                [owner.pk],
            )
            terms.update({(collection, lexeme): count for lexeme, count in cursor.fetchall()})
    return statistics, terms


def _kept(owner):
    with principal_context(owner):
        statistics = {
            collection: (documents, length)
            for collection, documents, length in SearchStatistics.objects.filter(
                owner=owner
            ).values_list("collection", "documents", "length")
            if documents
        }
        terms = {
            (collection, lexeme): documents
            for collection, lexeme, documents in SearchTerm.objects.filter(owner=owner).values_list(
                "collection", "lexeme", "documents"
            )
        }
    return statistics, terms


def test_the_triggers_keep_the_statistics_through_writes_status_changes_and_erasure(
    owner, other_owner
):
    session, messages = conversation(
        owner, "I moor my boat at the harbour.", "The harbour smells of tar."
    )
    say(other_owner, conversation(other_owner)[0], "My own harbour story.")
    first = remember(owner, "User moors a boat at the harbour.", sources=messages[:1])
    remember(owner, "User dislikes the smell of tar.")
    assert _kept(owner) == _recounted(owner)

    with principal_context(owner):
        Belief.objects.filter(pk=first.pk).update(status="rejected")
    event_erase(principal=owner, event_id=messages[1].public_id)

    kept = _kept(owner)
    assert kept == _recounted(owner)
    assert kept[0]["message"][0] == 1
    # "tar" is gone from the messages with the one message that held it, and stays for
    # the belief that still holds it.
    assert ("message", "tar") not in kept[1]
    assert kept[1][("belief", "tar")] == 1


def test_an_erased_word_leaves_no_document_frequency_behind(owner):
    session, messages = conversation(owner, "We sailed past zorblat island.")
    assert ("message", "zorblat") in _kept(owner)[1]

    event_erase(principal=owner, event_id=messages[0].public_id)

    with principal_context(owner):
        assert not SearchTerm.objects.filter(owner=owner, lexeme__contains="zorblat").exists()


def test_deleting_an_account_deletes_its_statistics(owner):
    conversation(owner, "I moor my boat at the harbour.")
    remember(owner, "User moors a boat.")

    account_purge(principal=owner)

    assert not SearchStatistics.objects.filter(owner_id=owner.pk).exists()
    with principal_context(owner):
        assert not SearchTerm.objects.filter(owner_id=owner.pk).exists()
