"""A recall answers in a fixed number of statements, whatever kinds it includes and finds."""

from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.selectors import flags
from tests.api.conftest import client_for
from tests.memory.helpers import conversation, remember
from tests.reconsolidation.test_recall_derived import derived_by_hand

API = "/api/v1"
KINDS = {"messages": "message", "derived": "derived"}

# Every statement of the second of two recalls made with a token, as a request outside any
# test transaction sends them: the token, the candidates of every kind, their rows with
# their sources (for memories alone, the first ``limit`` rows: the rest take one more
# statement when the budget leaves one of those out, test_recall), the access record.
# PostgreSQL's add the transaction (BEGIN, COMMIT) that
# carries the principal's setting (made by the statement that finds the token); both
# search in one statement, which on PostgreSQL also reads the BM25 statistics, and SQLite
# opens no transaction for a read. Messages add one: the neighbouring turns of those found
# (memory.selectors.conversation), which decide which rows are read; and with
# ``context_turns`` one more, the turns around the messages returned
# (memory.selectors.recall_context). With embeddings on, one more: the vectors of every
# kind searched by meaning, read together (memory.search.meaning).
STATEMENTS = {
    # include: {vendor: statements}
    (): {"sqlite": 4, "postgresql": 6},
    ("messages",): {"sqlite": 5, "postgresql": 7},
    ("derived",): {"sqlite": 4, "postgresql": 6},
    ("messages", "derived"): {"sqlite": 5, "postgresql": 7},
}


@pytest.fixture(params=["on", "off"])
def embeddings(request, settings):
    """Recall with embeddings on (the suite's fake embedder) and off; how many statements
    the meaning adds."""
    if request.param == "off":
        settings.REVERIE_EMBEDDINGS = {**settings.REVERIE_EMBEDDINGS, "mode": "off"}
    return int(request.param == "on")


@pytest.fixture
def flags_held(monkeypatch):
    """Surface and capability flags read once and then reused: the clock their cache reads
    stands still, so that no flag is read again however long the test takes."""
    monkeypatch.setattr(flags, "time", SimpleNamespace(monotonic=lambda: 0.0))


@pytest.mark.parametrize("context_turns", [0, 2])
@pytest.mark.parametrize("include", list(STATEMENTS))
def test_a_recall_of_every_kind_takes_a_fixed_number_of_statements(
    transactional_db, owner, processing_on, flags_held, embeddings, include, context_turns
):
    _, (bought, arrived) = conversation(owner, "I bought an e-reader.", "It arrived on Monday.")
    remember(owner, "User owns a kindle.", sources=[arrived])
    # A merge the question finds and its memory not: given for the message behind it.
    reader = remember(owner, "User owns an e-reader.", sources=[bought])
    derived_by_hand(owner, "merged", "User reads on a kindle.", [reader])
    conversation(owner, "We spoke of books.", "It sits on the shelf.", "I read my kindle nightly.")
    api = client_for(owner)
    body = {"query": "kindle", "include": list(include), "context_turns": context_turns}
    # The first reads the flags and marks the token used.
    api.post(f"{API}/recall", body, format="json")

    with CaptureQueriesContext(connection) as captured:
        response = api.post(f"{API}/recall", body, format="json")

    items = response.json()["items"]
    assert {item["kind"] for item in items} == {"belief", *(KINDS[name] for name in include)}
    assert all(item["sources"] for item in items)
    with_context = bool(context_turns) and "messages" in include
    assert any(item.get("context") for item in items) == with_context
    expected = STATEMENTS[include][connection.vendor] + with_context + embeddings
    assert len(captured.captured_queries) == expected, [
        query["sql"][:50] for query in captured.captured_queries
    ]


@pytest.mark.parametrize("query", ["kindle", "my kindle in June 2023", "kindle on 2023-06-01"])
def test_a_question_naming_a_period_takes_no_more_statements(
    transactional_db, owner, processing_on, flags_held, embeddings, query
):
    # When each turn was said is read in the statement that finds the neighbouring turns.
    conversation(owner, "We spoke of books.", "It sits on the shelf.", "I read my kindle nightly.")
    api = client_for(owner)
    body = {"query": query, "include": ["messages"]}
    api.post(f"{API}/recall", body, format="json")

    with CaptureQueriesContext(connection) as captured:
        response = api.post(f"{API}/recall", body, format="json")

    assert [item["text"] for item in response.json()["items"]][:1] == ["I read my kindle nightly."]
    expected = STATEMENTS[("messages",)][connection.vendor] + embeddings
    assert len(captured.captured_queries) == expected
