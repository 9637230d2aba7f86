"""A narrowed token stays in its lane on every write route, because the write services
enforce its reach: what lies outside it answers exactly as what does not exist
(``not_found``), a write it may not make at all is ``forbidden``, and nothing changes.

The routes are enumerated from the URL configuration, so a new write route is covered (or
this test fails until it says what it expects)."""

import json
import uuid

import pytest

from accounts.services import api_token_create
from common.principal import principal_context
from common.services.flags import flag_set
from memory.models import Belief, Event, Run, Session
from memory.services.sessions import run_create
from reconsolidation.models import DerivedMemory, Operation
from tests.memory.helpers import conversation, remember
from tests.reconsolidation.banks import reconsolidated

from .helpers import error_of
from .test_access_records import write_routes
from .test_token_narrowing import token_client

API = "/api/v1"


@pytest.fixture
def phone(owner):
    """What belongs to the owner's phone assistant, plus what only a full-reach token may
    touch: a reconsolidated bank and a token."""
    flag_set(key="reconsolidation_surface", enabled=True)
    session, (message,) = conversation(
        owner, "My secret project codename is BLUEHERON.", scope="assistant:phone"
    )
    bank = reconsolidated(owner)
    with principal_context(owner):
        notice = DerivedMemory.objects.get(pk=bank["uncertainty_notice"].pk)
        merge = Operation.objects.get(pk=bank.operations["merge"].pk)
    return {
        "session": session,
        "message": message,
        "run": run_create(principal=owner, session_id=session.public_id),
        "memory": remember(owner, "User calls mum on Sundays.", scope="assistant:phone"),
        "notice": notice,
        "merge": merge,
        "token": api_token_create(principal=owner, name="phone")[0],
    }


def requests_outside(targets, some_id=None):
    """A request of each write route aimed at the phone assistant's things, and each id
    replaced by ``some_id`` when one is given (a missing one, to compare answers with)."""

    def the(name):
        return some_id or targets[name].public_id

    memory, revision = the("memory"), {"expected_revision": 1}
    derived = f"{API}/derived/{the('notice')}"
    return {
        ("post", "api:sessions"): (f"{API}/sessions", {"scope": "assistant:phone"}),
        ("post", "api:session-close"): (f"{API}/sessions/{the('session')}/close", None),
        ("post", "api:session-erase"): (f"{API}/sessions/{the('session')}/erase", None),
        ("post", "api:events"): (
            f"{API}/sessions/{the('session')}/events",
            {"type": "user.message.created", "parts": [{"text": "hello"}]},
        ),
        ("post", "api:event-erase"): (f"{API}/events/{the('message')}/erase", None),
        ("post", "api:runs"): (f"{API}/sessions/{the('session')}/runs", None),
        ("post", "api:run-complete"): (f"{API}/runs/{the('run')}/complete", None),
        ("post", "api:run-fail"): (f"{API}/runs/{the('run')}/fail", {"error_code": "x"}),
        ("post", "api:run-wait"): (f"{API}/runs/{the('run')}/wait", None),
        ("post", "api:memories"): (
            f"{API}/memories",
            {"statement": "User's codename is BLUEHERON.", "source_event_ids": [the("message")]},
        ),
        ("post", "api:memory-confirm"): (f"{API}/memories/{memory}/confirm", revision),
        ("post", "api:memory-reject"): (f"{API}/memories/{memory}/reject", revision),
        ("post", "api:memory-correct"): (
            f"{API}/memories/{memory}/correct",
            {**revision, "statement": "User calls mum on Saturdays."},
        ),
        ("delete", "api:memory"): (f"{API}/memories/{memory}?expected_revision=1", None),
        ("post", "api:erasure"): (f"{API}/account/erasure", None),
        ("post", "api:erasure-confirm"): (f"{API}/account/erasure/confirm", {"token": "x"}),
        ("post", "api:token-pause"): (f"{API}/tokens/{the('token')}/pause", None),
        ("post", "api:token-resume"): (f"{API}/tokens/{the('token')}/resume", None),
        ("post", "reconsolidation_api:operation-undo"): (
            f"{API}/operations/{the('merge')}/undo",
            revision,
        ),
        **{
            ("post", f"reconsolidation_api:derived-{action}"): (f"{derived}/{action}", revision)
            for action in ("review", "restrict", "unrestrict", "reject", "promote")
        },
        ("delete", "reconsolidation_api:derived"): (f"{derived}?expected_revision=1", None),
    }


# Routes only a token of full reach may use at all; the rest answer a token narrowed to
# another assistant as if the phone's things did not exist, or refuse a scope it may not
# write in.
FULL_REACH_ONLY = {
    ("post", "api:erasure"),
    ("post", "api:erasure-confirm"),
    ("post", "api:token-pause"),
    ("post", "api:token-resume"),
    ("post", "reconsolidation_api:operation-undo"),
    *(
        ("post", f"reconsolidation_api:derived-{action}")
        for action in ("review", "restrict", "unrestrict", "reject", "promote")
    ),
    ("delete", "reconsolidation_api:derived"),
}
NAMES_A_SCOPE = {("post", "api:sessions")}


def state(owner):
    """Everything a write could change of the owner's, to compare before and after."""
    with principal_context(owner):
        return (
            list(Session.objects.values_list("pk", "last_sequence", "closed_at", "erased_at")),
            list(Event.objects.values_list("pk", "text", "redacted_at")),
            list(Run.objects.values_list("pk", "status")),
            list(Belief.objects.values_list("pk", "status", "revision")),
            list(DerivedMemory.objects.values_list("pk", "status", "revision", "restricted")),
        )


def answer(api, route, path, body):
    return getattr(api, route[0])(path, body, format="json")


def test_every_write_route_is_aimed_at_something_outside_the_reach():
    assert set(requests_outside({}, some_id=uuid.uuid4())) == write_routes()


def test_a_token_of_another_assistant_changes_nothing_of_the_phones_and_learns_nothing(
    owner, phone
):
    ide = token_client(owner, scope="assistant:ide")
    before = state(owner)
    missing_id = uuid.uuid4()
    missing = requests_outside(phone, some_id=missing_id)
    ids = [str(missing_id), *(str(getattr(t, "public_id", "")) for t in phone.values())]

    def error(response):
        text = json.dumps({**response.json()["error"], "request_id": ""})
        for an_id in ids:
            text = text.replace(an_id, "<id>")
        return text

    for route, (path, body) in requests_outside(phone).items():
        response = answer(ide, route, path, body)
        if route in FULL_REACH_ONLY or route in NAMES_A_SCOPE:
            expected = (403, "forbidden")
        else:
            expected = (404, "not_found")
            # Exactly what a missing id answers: the phone's things might not exist.
            absent = answer(ide, route, *missing[route])
            assert error(response) == error(absent), route
        assert (response.status_code, error_of(response)) == expected, (route, response.content)

    assert state(owner) == before


def test_a_read_only_token_is_refused_every_write_and_changes_nothing(owner, phone):
    reader = token_client(owner, read_only=True)
    before = state(owner)

    answers = {
        route: answer(reader, route, path, body)
        for route, (path, body) in requests_outside(phone).items()
    }

    assert {r: (a.status_code, error_of(a)) for r, a in answers.items()} == dict.fromkeys(
        answers, (403, "forbidden")
    )
    assert state(owner) == before


def test_a_token_kept_from_sensitive_memories_cannot_change_or_write_one(owner):
    sensitive = remember(owner, "User has asthma.", sensitivity="sensitive")
    discreet = token_client(owner, include_sensitive=False)
    before = state(owner)
    memory = f"{API}/memories/{sensitive.public_id}"

    changes = [
        discreet.post(f"{memory}/confirm", {"expected_revision": 1}, format="json"),
        discreet.post(f"{memory}/reject", {"expected_revision": 1}, format="json"),
        discreet.post(
            f"{memory}/correct",
            {"expected_revision": 1, "statement": "User had asthma."},
            format="json",
        ),
        discreet.delete(f"{memory}?expected_revision=1"),
    ]
    writes = [
        discreet.post(
            f"{API}/memories",
            {"statement": "User takes an inhaler.", "sensitivity": "sensitive"},
            format="json",
        ),
    ]

    assert [(a.status_code, error_of(a)) for a in changes] == [(404, "not_found")] * 4
    assert [(a.status_code, error_of(a)) for a in writes] == [(403, "forbidden")]
    assert state(owner) == before


def test_a_narrowed_tokens_writes_in_its_own_lane_still_work(owner):
    ide = token_client(owner, scope="assistant:ide")
    session = ide.post(f"{API}/sessions", {"external_id": "ide-1"}, format="json").json()
    message = ide.post(
        f"{API}/sessions/{session['id']}/events",
        {"type": "user.message.created", "parts": [{"text": "I prefer tabs."}]},
        format="json",
    ).json()

    made = ide.post(
        f"{API}/memories",
        {"statement": "User prefers tabs.", "source_event_ids": [message["id"]]},
        format="json",
    )

    assert made.status_code == 201, made.content
    assert (made.json()["scope"], [s["event_id"] for s in made.json()["sources"]]) == (
        "assistant:ide",
        [message["id"]],
    )


def test_a_shared_memorys_sources_in_another_assistants_conversation_stay_hidden(owner):
    _, (chat_message,) = conversation(
        owner, "My secret project codename is BLUEHERON.", scope="assistant:chat"
    )
    shared = remember(owner, "User has a secret project.", sources=[chat_message])
    ide = token_client(owner, scope="assistant:ide")
    chat = token_client(owner, scope="assistant:chat")

    read = ide.get(f"{API}/memories/{shared.public_id}").json()
    listed = ide.get(f"{API}/memories").json()["results"]
    history = ide.get(f"{API}/memories/{shared.public_id}/history").json()["versions"]
    recalled = ide.post(f"{API}/recall", {"query": "secret project"}, format="json").json()

    assert read["sources"] == [] and [m["sources"] for m in listed] == [[]]
    assert [v["sources"] for v in history] == [[]]
    assert [item["sources"] for item in recalled["items"]] == [[]]
    for body in (read, listed, history, recalled):
        assert str(chat_message.public_id) not in str(body)
        assert "BLUEHERON" not in str(body)
    # The assistant whose conversation it is sees the source.
    assert [s["excerpt"] for s in chat.get(f"{API}/memories/{shared.public_id}").json()["sources"]]


def test_naming_a_conversation_tells_nothing_of_another_assistants(owner):
    chat, ide = (token_client(owner, scope=f"assistant:{a}") for a in ("chat", "ide"))
    theirs = chat.post(f"{API}/sessions", {"external_id": "chat-1"}, format="json")

    mine = ide.post(f"{API}/sessions", {"external_id": "chat-1"}, format="json")
    again = ide.post(f"{API}/sessions", {"external_id": "chat-1"}, format="json")

    assert (theirs.status_code, mine.status_code, again.status_code) == (201, 201, 201)
    assert mine.json()["id"] != theirs.json()["id"]
    assert mine.json()["id"] == again.json()["id"]
    assert (mine.json()["scope"], theirs.json()["scope"]) == ("assistant:ide", "assistant:chat")


def test_a_session_made_without_a_scope_is_the_principals_for_a_full_token(owner):
    full = token_client(owner)

    made = full.post(f"{API}/sessions", {"external_id": "chat-1"}, format="json")

    assert made.json()["scope"] == "principal"
