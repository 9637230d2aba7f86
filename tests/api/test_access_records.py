"""Every read made with a token records, in the same request, which token read what: the
route's name, the request id and the ids of the memories, messages and derived memories its
answer carried; never a query and never any text."""

import uuid

import pytest
from django.db import connection
from django.urls import URLPattern, get_resolver
from rest_framework.test import APIClient

from accounts.services import api_token_create
from common.principal import principal_context
from common.services.flags import flag_set
from memory.api.base import ApiView
from memory.models import AccessRecord, AccessRecordFailure, Belief
from memory.services.beliefs import belief_correct, belief_import
from memory.services.sessions import run_create
from reconsolidation.models import DerivedMemory
from tests.conftest import PROXIED_HTTPS
from tests.memory.helpers import conversation, remember
from tests.reconsolidation.banks import reconsolidated

API = "/api/v1"
QUERY = "Which gadgets does the zanzibarian owner read with"


def bearer(secret):
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    client.default_format = "json"
    return client


@pytest.fixture
def assistant(owner):
    token, secret = api_token_create(principal=owner, name="desktop assistant")
    return token, bearer(secret)


@pytest.fixture
def bank(owner):
    flag_set(key="reconsolidation_surface", enabled=True)
    bank = reconsolidated(owner)
    kindle = bank.originals["kindle"][0]
    bank.corrected = belief_correct(
        principal=owner,
        belief_id=kindle.public_id,
        expected_revision=kindle.revision,
        statement="User owns a Kindle Paperwhite.",
    )
    return bank


def records(owner):
    with principal_context(owner):
        return list(
            AccessRecord.objects.filter(owner=owner)
            .select_related("token")
            .order_by("created_at", "id")
        )


def carried(record):
    return {
        "memory": set(record.memory_ids),
        "message": set(record.message_ids),
        "derived": set(record.derived_ids),
    }


def ids(*rows, key="id"):
    return {str(row[key]) for row in rows}


# What each read route's answer carries, read off the answer itself: (memories, messages,
# derived). References (an operation's inputs, a derived memory's memory_ids, a
# memory's sources) are not reads of what they name.
EXPECTED = {
    "api:sessions": lambda body: (set(), set(), set()),
    "api:session": lambda body: (set(), set(), set()),
    "api:events": lambda body: (set(), ids(*body), set()),
    "api:run": lambda body: (set(), set(), set()),
    "api:memories": lambda body: (ids(*body["results"]), set(), ids(*body.get("derived", []))),
    "api:memory": lambda body: ({body["id"]}, set(), set()),
    "api:memory-history": lambda body: (ids(*body["versions"]), set(), set()),
    # A message's context turns are read with it.
    "api:recall": lambda body: (
        ids(*(item for item in body["items"] if item["kind"] == "belief")),
        ids(
            *(item for item in body["items"] if item["kind"] == "message"),
            *(turn for item in body["items"] for turn in item.get("context", [])),
        ),
        ids(*(item for item in body["items"] if item["kind"] == "derived")),
    ),
    "api:export": lambda body: (
        ids(*body["memories"]),
        ids(*(event for session in body["sessions"] for event in session["events"])),
        ids(*body["derived_memories"]),
    ),
    "reconsolidation_api:operations": lambda body: (set(), set(), set()),
    "reconsolidation_api:operation": lambda body: (set(), set(), ids(*body["outputs"])),
    "reconsolidation_api:operation-undo-preview": lambda body: (
        set(),
        set(),
        ids(*body["sets_aside"]),
    ),
    "reconsolidation_api:derived": lambda body: (set(), set(), {body["id"]}),
    "reconsolidation_api:summary": lambda body: (
        ids(
            *(original for claim in body["claims"] for original in claim["supports"]),
            *body["omitted"],
            key="memory_id",
        ),
        set(),
        {body["id"]},
    ),
}


def read_routes():
    """The name of every route of the API that reads with GET (the access list itself
    aside: reading the record of reads is not a read of memories), and recall."""
    names = {"api:recall"}
    resolver = get_resolver()
    for namespace in ("api", "reconsolidation_api"):
        for pattern in resolver.namespace_dict[namespace][1].url_patterns:
            view_class = getattr(pattern.callback, "view_class", None)
            if not isinstance(pattern, URLPattern) or view_class is None:
                continue
            if issubclass(view_class, ApiView) and hasattr(view_class, "get"):
                names.add(f"{namespace}:{pattern.name}")
    return names - {"api:access"}


def test_every_read_route_says_what_its_answer_carries():
    assert read_routes() == set(EXPECTED)


def requests_for(owner, bank):
    with principal_context(owner):
        session = bank.originals["watch"][0].sources.get().event.session
    run = run_create(principal=owner, session_id=session.public_id)
    merge = bank.operations["merge"].public_id
    return {
        "api:sessions": ("get", f"{API}/sessions", None),
        "api:session": ("get", f"{API}/sessions/{session.public_id}", None),
        "api:events": ("get", f"{API}/sessions/{session.public_id}/events", None),
        "api:run": ("get", f"{API}/runs/{run.public_id}", None),
        "api:memories": ("get", f"{API}/memories?include=derived&limit=5", None),
        "api:memory": ("get", f"{API}/memories/{bank.originals['units'][0].public_id}", None),
        "api:memory-history": ("get", f"{API}/memories/{bank.corrected.public_id}/history", None),
        "api:recall": (
            "post",
            f"{API}/recall",
            {
                "query": "Apple Watch Kindle Maya",
                "include": ["messages", "derived"],
                "context_turns": 1,
            },
        ),
        "api:export": ("get", f"{API}/export", None),
        "reconsolidation_api:operations": ("get", f"{API}/operations", None),
        "reconsolidation_api:operation": ("get", f"{API}/operations/{merge}", None),
        "reconsolidation_api:operation-undo-preview": (
            "get",
            f"{API}/operations/{merge}/undo-preview",
            None,
        ),
        "reconsolidation_api:derived": ("get", f"{API}/derived/{bank['merged'].public_id}", None),
        "reconsolidation_api:summary": (
            "get",
            f"{API}/summaries/{bank['summary'].public_id}",
            None,
        ),
    }


def test_each_read_route_records_exactly_what_it_returned(owner, assistant, bank):
    token, api = assistant
    for route, (method, path, body) in requests_for(owner, bank).items():
        before = len(records(owner))
        response = getattr(api, method)(path, body)
        assert response.status_code == 200, (route, response.content)

        new = records(owner)[before:]
        assert len(new) == 1, route
        (record,) = new
        memories, messages, derived = EXPECTED[route](response.json())
        assert carried(record) == {"memory": memories, "message": messages, "derived": derived}, (
            route
        )
        assert (record.route, record.token, record.request_id) == (
            route,
            token,
            response["X-Request-ID"],
        )
        # Each id once, however often the answer carried it.
        assert len(record.memory_ids) == len(memories), route
    # The answers carried something of every kind: the comparisons above were not empty.
    kinds = set()
    for record in records(owner):
        kinds |= {kind for kind, ids in carried(record).items() if ids}
    assert kinds == {"memory", "message", "derived"}


def test_the_owners_browser_session_reads_are_not_recorded(owner, client):
    client.force_login(owner)
    assert client.get(f"{API}/memories").status_code == 200
    assert client.post(f"{API}/recall", {"query": "x"}, "application/json").status_code == 200

    assert records(owner) == []


def test_a_refused_read_records_nothing(owner, assistant):
    _, api = assistant
    assert api.get(f"{API}/memories/{uuid.uuid4()}").status_code == 404

    assert records(owner) == []


def all_cells(table):
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT * FROM "{table}"')
        return [str(cell) for row in cursor.fetchall() for cell in row]


def test_no_memory_message_or_query_text_reaches_the_access_tables(owner, assistant, bank):
    _, api = assistant
    for method, path, body in requests_for(owner, bank).values():
        getattr(api, method)(path, body)
    assert api.post(f"{API}/recall", {"query": QUERY}).status_code == 200
    export = api.get(f"{API}/export").json()
    texts = {memory["statement"] for memory in export["memories"]}
    texts |= {
        part["text"]
        for session in export["sessions"]
        for event in session["events"]
        for part in event["parts"]
    }
    texts |= {derived["statement"] for derived in export["derived_memories"]}
    texts |= {QUERY, "zanzibarian"}
    texts.discard("")
    # Distinctive words of the bank too, so that no fragment slips through.
    words = {"Kindle", "Maya", "Apple", "dragons", "imperial"}

    with principal_context(owner):
        cells = all_cells("memory_accessrecord")
    assert len(cells) > 100
    leaked = [
        cell
        for cell in cells
        if any(text in cell for text in texts) or any(w.lower() in cell.lower() for w in words)
    ]
    assert leaked == []


@pytest.fixture
def refusing_records(db):
    """The database refuses every access record, as a full disk or a broken constraint
    would: the insert itself fails."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE FUNCTION refuse_access_record() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'refused'; END $$"
            )
            cursor.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON memory_accessrecord "
                "FOR EACH ROW EXECUTE FUNCTION refuse_access_record()"
            )
        else:
            cursor.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON memory_accessrecord "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER refuse ON memory_accessrecord"
            if connection.vendor == "postgresql"
            else "DROP TRIGGER refuse"
        )


def test_a_record_the_database_refuses_leaves_the_read_answering_and_is_counted(
    owner, assistant, refusing_records
):
    _, api = assistant
    remember(owner, "User owns a red kayak.")

    first = api.get(f"{API}/memories")
    second = api.post(f"{API}/recall", {"query": "kayak"})

    assert first.status_code == 200 and len(first.json()["results"]) == 1
    assert second.status_code == 200 and len(second.json()["items"]) == 1
    assert records(owner) == []
    assert list(AccessRecordFailure.objects.values_list("count", flat=True)) == [2]


def test_a_record_whose_write_breaks_the_transaction_leaves_the_read_answering_and_is_counted(
    owner, assistant, monkeypatch
):
    _, api = assistant
    from memory.services import access_log

    def broken_write(*args):
        # A real database error outside any savepoint: on PostgreSQL the transaction
        # carrying the read takes no more statements.
        with connection.cursor() as cursor:
            cursor.execute("SELECT no_such_column FROM memory_accessrecord")

    monkeypatch.setattr(access_log, "_record_write", broken_write)
    remember(owner, "User owns a red kayak.")

    first = api.get(f"{API}/memories")
    second = api.post(f"{API}/recall", {"query": "kayak"})

    assert first.status_code == 200 and len(first.json()["results"]) == 1
    assert second.status_code == 200 and len(second.json()["items"]) == 1
    assert records(owner) == []
    # Counted once each read's transaction was over.
    assert list(AccessRecordFailure.objects.values_list("count", flat=True)) == [2]


# What each write route's answer carries: (memories, messages, derived). An answer of a
# session, a run, a token, a receipt or erasure counts carries nothing and is not recorded.
WRITE_EXPECTED = {
    ("post", "api:memories"): lambda body: ({body["id"]}, set(), set()),
    ("post", "api:memory-confirm"): lambda body: ({body["id"]}, set(), set()),
    ("post", "api:memory-reject"): lambda body: ({body["id"]}, set(), set()),
    ("post", "api:memory-correct"): lambda body: ({body["id"]}, set(), set()),
    ("delete", "api:memory"): lambda body: ({body["id"]}, set(), set()),
    ("post", "api:events"): lambda body: (set(), {body["id"]}, set()),
    ("post", "api:event-erase"): lambda body: (set(), {body["id"]}, set()),
    **{
        ("post", f"reconsolidation_api:derived-{action}"): lambda body: (
            {body["memory"]["id"]} if "memory" in body else set(),
            set(),
            {body["derived"]["id"]},
        )
        for action in ("review", "restrict", "unrestrict", "reject", "promote")
    },
    ("delete", "reconsolidation_api:derived"): lambda body: (
        set(),
        set(),
        {body["derived"]["id"]},
    ),
}
WRITES_CARRYING_NOTHING = {
    ("post", "api:sessions"),
    ("post", "api:session-close"),
    ("post", "api:session-erase"),
    ("post", "api:runs"),
    ("post", "api:run-complete"),
    ("post", "api:run-fail"),
    ("post", "api:run-wait"),
    ("post", "api:erasure"),
    ("post", "api:erasure-confirm"),
    ("post", "api:token-pause"),
    ("post", "api:token-resume"),
    ("post", "reconsolidation_api:operation-undo"),
}


def write_routes():
    """``(method, route name)`` of every route of the API that writes (recall, a POST that
    only reads, aside)."""
    routes = set()
    resolver = get_resolver()
    for namespace in ("api", "reconsolidation_api"):
        for pattern in resolver.namespace_dict[namespace][1].url_patterns:
            view_class = getattr(pattern.callback, "view_class", None)
            if not isinstance(pattern, URLPattern) or view_class is None:
                continue
            if issubclass(view_class, ApiView):
                routes |= {
                    (method, f"{namespace}:{pattern.name}")
                    for method in ("post", "put", "patch", "delete")
                    if hasattr(view_class, method)
                }
    return routes - {("post", "api:recall")}


def test_every_write_route_says_whether_its_answer_carries_memories_or_messages():
    assert write_routes() == set(WRITE_EXPECTED) | WRITES_CARRYING_NOTHING


def write_requests(owner, bank):
    """A request of each write route that carries something, in an order in which each
    succeeds."""
    session, (message,) = conversation(owner, "I keep bees on the roof.")
    flagged = belief_import(
        principal=owner,
        status="provisional",
        statement="User keeps a hive.",
        type="fact",
        subject="topic:hive",
        polarity="positive",
        confidence=0.6,
        scope="principal",
        portability="portable",
        sensitivity="normal",
        valid_from=None,
        valid_until=None,
        expires_at=None,
    )
    with principal_context(owner):
        notice = DerivedMemory.objects.get(pk=bank["uncertainty_notice"].pk)
    to_correct, to_reject, to_delete = (
        remember(owner, statement)
        for statement in ("User keeps bees.", "User owns a boat.", "User likes figs.")
    )
    return [
        (("post", "api:events"), f"{API}/sessions/{session.public_id}/events", MESSAGE),
        (("post", "api:memories"), f"{API}/memories", {"statement": "User likes honey."}),
        (
            ("post", "api:memory-confirm"),
            f"{API}/memories/{flagged.public_id}/confirm",
            {"expected_revision": flagged.revision},
        ),
        (
            ("post", "api:memory-reject"),
            f"{API}/memories/{to_reject.public_id}/reject",
            {"expected_revision": 1},
        ),
        (
            ("post", "api:memory-correct"),
            f"{API}/memories/{to_correct.public_id}/correct",
            {"expected_revision": 1, "statement": "User keeps two hives of bees."},
        ),
        (
            ("delete", "api:memory"),
            f"{API}/memories/{to_delete.public_id}?expected_revision=1",
            None,
        ),
        (("post", "api:event-erase"), f"{API}/events/{message.public_id}/erase", None),
        *(
            (
                ("post", f"reconsolidation_api:derived-{action}"),
                f"{API}/derived/{notice.public_id}/{action}",
                {"expected_revision": notice.revision + step},
            )
            for step, action in enumerate(("review", "restrict", "unrestrict"))
        ),
        (
            ("delete", "reconsolidation_api:derived"),
            f"{API}/derived/{notice.public_id}?expected_revision={notice.revision + 3}",
            None,
        ),
        (
            ("post", "reconsolidation_api:derived-promote"),
            f"{API}/derived/{bank['hypothesis'].public_id}/promote",
            {"expected_revision": bank["hypothesis"].revision},
        ),
        (
            ("post", "reconsolidation_api:derived-reject"),
            f"{API}/derived/{bank['summary'].public_id}/reject",
            {"expected_revision": bank["summary"].revision},
        ),
    ]


MESSAGE = {"type": "user.message.created", "parts": [{"text": "We harvested honey today."}]}


def test_each_write_records_what_its_answer_carried_and_so_does_each_replay(owner, assistant, bank):
    token, api = assistant
    covered = set()
    for number, (route, path, body) in enumerate(write_requests(owner, bank)):
        method, name = route
        answers = [
            getattr(api, method)(path, body, HTTP_IDEMPOTENCY_KEY=f"write-{number}")
            for _ in range(2)
        ]
        assert [a.status_code in (200, 201) for a in answers] == [True, True], (
            route,
            answers[0].content,
        )
        assert answers[1]["Idempotent-Replayed"] == "true", route

        first, replay = (
            r for r in records(owner) if r.request_id in {a["X-Request-ID"] for a in answers}
        )
        for record, answer in zip((first, replay), answers, strict=True):
            memories, messages, derived = WRITE_EXPECTED[route](answer.json())
            assert carried(record) == {
                "memory": memories,
                "message": messages,
                "derived": derived,
            }, route
            assert (record.route, record.token) == (name, token), route
        covered.add(route)

    assert covered == set(WRITE_EXPECTED)


def test_a_write_whose_record_is_refused_is_kept_and_the_failure_counted(
    owner, assistant, refusing_records
):
    _, api = assistant

    made = api.post(f"{API}/memories", {"statement": "User owns a red kayak."})

    assert made.status_code == 201
    with principal_context(owner):
        assert Belief.objects.filter(public_id=made.json()["id"]).exists()
    assert records(owner) == []
    assert list(AccessRecordFailure.objects.values_list("count", flat=True)) == [1]
