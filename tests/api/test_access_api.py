"""GET /access: the owner reads which of their tokens read what, filtered and paginated; no
one else's records, and no assistant with less than full reach."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import api_token_create
from common.principal import principal_context
from memory.models import AccessRecord
from tests.memory.helpers import remember

from .helpers import error_of
from .test_access_records import bearer

API = "/api/v1"


@pytest.fixture
def desktop(owner):
    token, secret = api_token_create(principal=owner, name="desktop")
    return token, bearer(secret)


@pytest.fixture
def phone(owner):
    token, secret = api_token_create(principal=owner, name="phone")
    return token, bearer(secret)


@pytest.fixture
def reads(owner, desktop, phone):
    """The desktop reads a kayak memory, then the phone recalls a canoe one (the owner
    stated both, which no token recorded)."""
    kayak, canoe = (
        {"id": str(remember(owner, statement).public_id)}
        for statement in ("User owns a red kayak.", "User owns a green canoe.")
    )
    assert desktop[1].get(f"{API}/memories/{kayak['id']}").status_code == 200
    assert phone[1].post(f"{API}/recall", {"query": "canoe"}).status_code == 200
    return kayak, canoe


def listed(client, query=""):
    response = client.get(f"{API}/access{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_owner_lists_the_reads_newest_first_with_what_each_carried(
    owner, client, desktop, phone, reads
):
    kayak, canoe = reads
    client.force_login(owner)

    newest, oldest = listed(client)

    assert (newest["token_id"], newest["token_name"], newest["route"]) == (
        str(phone[0].public_id),
        "phone",
        "api:recall",
    )
    assert (newest["memory_ids"], newest["message_ids"], newest["derived_ids"]) == (
        [canoe["id"]],
        [],
        [],
    )
    assert (oldest["token_name"], oldest["route"], oldest["memory_ids"]) == (
        "desktop",
        "api:memory",
        [kayak["id"]],
    )
    assert set(newest) == {
        "id",
        "token_id",
        "token_name",
        "route",
        "request_id",
        "at",
        "memory_ids",
        "message_ids",
        "derived_ids",
    }


def test_it_filters_by_token_memory_and_time_and_pages(owner, desktop, phone, reads):
    kayak, canoe = reads
    owner_api = desktop[1]

    by_phone = listed(owner_api, f"?token={phone[0].public_id}")
    by_kayak = listed(owner_api, f"?memory={kayak['id']}")
    with principal_context(owner):
        AccessRecord.objects.filter(route="api:memory").update(
            created_at=timezone.now() - timedelta(days=3)
        )
    since = (timezone.now() - timedelta(days=1)).isoformat()
    recent = owner_api.get(f"{API}/access", {"since": since}).json()

    assert [r["route"] for r in by_phone] == ["api:recall"]
    assert [r["token_name"] for r in by_kayak] == ["desktop"]
    assert [r["route"] for r in recent] == ["api:recall"]
    assert [r["route"] for r in listed(owner_api, "?limit=1&offset=1")] == ["api:memory"]


def test_reading_the_access_list_is_not_itself_recorded(owner, desktop, reads):
    listed(desktop[1])

    assert len(listed(desktop[1])) == 2


def test_another_owners_records_are_invisible(other_owner, desktop, reads):
    kayak, _ = reads
    _, secret = api_token_create(principal=other_owner, name="theirs")
    theirs = bearer(secret)

    assert listed(theirs) == []
    assert listed(theirs, f"?memory={kayak['id']}") == []
    assert listed(theirs, f"?token={desktop[0].public_id}") == []


@pytest.mark.parametrize(
    "fields", [{"read_only": True}, {"scope": "assistant:ide"}, {"include_sensitive": False}]
)
def test_a_token_without_full_reach_may_not_read_the_list(owner, fields):
    _, secret = api_token_create(principal=owner, name="narrow", **fields)

    response = bearer(secret).get(f"{API}/access")

    assert (response.status_code, error_of(response)) == (403, "forbidden")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?token=not-an-id", "token"),
        ("?memory=42", "memory"),
        ("?since=yesterday", "since"),
        ("?since=2026-01-01T00:00:00", "since"),
        ("?since=2026-13-45T00:00:00Z", "since"),
        ("?limit=0", "limit"),
    ],
)
def test_bad_filters_are_refused(desktop, query, field):
    response = desktop[1].get(f"{API}/access{query}")

    assert (response.status_code, error_of(response)) == (400, "validation_error")
    assert response.json()["error"]["details"]["field"] == field


def test_it_needs_a_signed_in_owner(anonymous):
    response = anonymous.get(f"{API}/access")

    assert (response.status_code, error_of(response)) == (401, "unauthenticated")
