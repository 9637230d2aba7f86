"""The owner's reconsolidation routes: operations, undo previews and undo, derived memories and
their controls, the summaries' evidence journal, and derived memories in the memory list and
the export."""

import json

import pytest

from common.principal import principal_context
from common.services.flags import flag_set
from memory.models import IdempotencyRecord
from memory.services.beliefs import belief_correct, belief_delete
from reconsolidation.models import DerivedMemory, Operation, Receipt, Suppression
from tests.reconsolidation.banks import MAYA_CLAIMS, reconsolidated

from .conftest import client_for as token_client
from .helpers import error_of

API = "/api/v1"


@pytest.fixture
def surface_on(db):
    flag_set(key="reconsolidation_surface", enabled=True)


@pytest.fixture
def bank(owner, surface_on):
    return reconsolidated(owner)


def client_for(principal):
    client = token_client(principal)
    client.default_format = "json"
    return client


def ok(response, status=200):
    assert response.status_code == status, response.content
    return response.json()


def refused(response, status, code):
    assert (response.status_code, error_of(response)) == (status, code), response.content
    return response.json()["error"]


def derived_row(owner, derived):
    with principal_context(owner):
        return DerivedMemory.objects.get(pk=derived.pk)


def operation_row(owner, operation):
    with principal_context(owner):
        return Operation.objects.get(pk=operation.pk)


def routes(bank):
    """Every new route with one of the bank's ids: (method, path, body)."""
    merge = bank.operations["merge"].public_id
    derived = bank["merged"].public_id
    summary = bank["summary"].public_id
    revision = {"expected_revision": 1}
    return [
        ("get", f"{API}/operations", None),
        ("get", f"{API}/operations/{merge}", None),
        ("get", f"{API}/operations/{merge}/undo-preview", None),
        ("post", f"{API}/operations/{merge}/undo", revision),
        ("get", f"{API}/derived/{derived}", None),
        ("delete", f"{API}/derived/{derived}?expected_revision=1", None),
        *(
            ("post", f"{API}/derived/{derived}/{action}", revision)
            for action in ("review", "restrict", "unrestrict", "reject", "promote")
        ),
        ("get", f"{API}/summaries/{summary}", None),
    ]


def call(client, method, path, body):
    return (
        getattr(client, method)(path, body, format="json")
        if body
        else getattr(client, method)(path)
    )


# Flags: both surfaces, never the processing flag


def test_with_the_surface_off_every_route_is_absent_and_derived_is_an_unknown_include(
    owner, anonymous
):
    bank = reconsolidated(owner)
    api = client_for(owner)

    anonymous.default_format = "json"
    for client in (api, anonymous):
        for method, path, body in routes(bank):
            refused(call(client, method, path, body), 404, "not_found")
    error = refused(api.get(f"{API}/memories?include=derived"), 400, "validation_error")
    assert error["details"] == {"field": "include", "allowed": []}
    assert derived_row(owner, bank["merged"]).status == "active"


def test_with_the_memory_api_off_every_route_is_absent_even_with_the_surface_on(bank, owner):
    flag_set(key="memory_api", enabled=False)
    api = client_for(owner)

    for method, path, body in routes(bank):
        refused(call(api, method, path, body), 404, "not_found")
    for path in (f"{API}/schema/", f"{API}/docs/"):
        refused(api.get(path), 404, "not_found")


def test_inspection_and_undo_do_not_need_the_processing_flag(bank, owner):
    api = client_for(owner)
    merge = bank.operations["merge"]

    assert ok(api.get(f"{API}/operations"))["results"]
    receipt = ok(api.post(f"{API}/operations/{merge.public_id}/undo", {"expected_revision": 1}))

    assert receipt["receipt"]["result"]["state"] == "undone"


def test_the_schema_documents_the_routes_only_while_the_surface_is_on(client, db):
    paths = set(client.get(f"{API}/schema/?format=json").json()["paths"])
    assert not {p for p in paths if p.startswith(("/api/v1/operations", "/api/v1/derived"))}

    flag_set(key="reconsolidation_surface", enabled=True)

    paths = set(client.get(f"{API}/schema/?format=json").json()["paths"])
    assert {
        "/api/v1/operations",
        "/api/v1/operations/{operation_id}",
        "/api/v1/operations/{operation_id}/undo-preview",
        "/api/v1/operations/{operation_id}/undo",
        "/api/v1/derived/{derived_id}",
        "/api/v1/derived/{derived_id}/promote",
        "/api/v1/summaries/{summary_id}",
    } <= paths


# Operations


def test_operations_are_listed_newest_first_and_filtered(bank, owner):
    api = client_for(owner)

    everything = ok(api.get(f"{API}/operations"))["results"]
    merges = ok(api.get(f"{API}/operations?kind=merge"))["results"]
    undone = ok(api.get(f"{API}/operations?state=undone"))["results"]
    page = ok(api.get(f"{API}/operations?limit=2&offset=1"))["results"]

    assert sorted(o["kind"] for o in everything) == sorted(Operation.Kind.values)
    assert [o["created_at"] for o in everything] == sorted(
        (o["created_at"] for o in everything), reverse=True
    )
    assert [o["id"] for o in merges] == [str(bank.operations["merge"].public_id)]
    assert undone == []
    assert page == everything[1:3]
    for query in ("kind=dream", "state=asleep", "limit=0", "changed_since=yesterday"):
        refused(api.get(f"{API}/operations?{query}"), 400, "validation_error")


def test_changed_since_feeds_operations_changed_after_a_cursor(bank, owner, monkeypatch):
    from memory.selectors import feeds

    monkeypatch.setattr(feeds, "SETTLE", feeds.SETTLE * 0)
    api = client_for(owner)
    first = ok(api.get(f"{API}/operations?changed_since=2000-01-01T00:00:00Z"))
    merge = bank.operations["merge"]
    ok(api.post(f"{API}/operations/{merge.public_id}/undo", {"expected_revision": 1}))

    after = ok(api.get(f"{API}/operations?changed_since={first['next_changed_since']}"))

    assert len(first["results"]) == 4
    assert [(o["id"], o["state"]) for o in after["results"]] == [(str(merge.public_id), "undone")]


def test_an_operation_shows_what_it_read_made_and_what_the_owner_did(bank, owner):
    api = client_for(owner)
    merge = bank.operations["merge"]
    kept, deleted = bank.originals["kindle"]
    belief_delete(principal=owner, belief_id=deleted.public_id, expected_revision=1)
    ok(api.post(f"{API}/operations/{merge.public_id}/undo", {"expected_revision": 2}))

    detail = ok(api.get(f"{API}/operations/{merge.public_id}"))

    assert (detail["kind"], detail["state"], detail["revision"]) == ("merge", "undone", 3)
    assert [
        (i["memory_id"], i["read_revision"], i["status"], i["revision"]) for i in detail["inputs"]
    ] == [
        (str(kept.public_id), 1, "active", 1),
        (str(deleted.public_id), 1, "deleted", 2),
    ]
    assert [(o["kind"], o["status"], o["statement"]) for o in detail["outputs"]] == [
        ("merged", "undone", "")
    ]
    assert [r["action"] for r in detail["receipts"]] == ["undo"]


def test_the_undo_preview_says_what_undo_restores_and_what_it_cannot_and_why(bank, owner):
    api = client_for(owner)
    merge = bank.operations["merge"]
    corrected, kept = bank.originals["kindle"]
    belief_correct(
        principal=owner,
        belief_id=corrected.public_id,
        expected_revision=1,
        statement="User owns a Kobo.",
        subject="device:kobo",
    )

    preview = ok(api.get(f"{API}/operations/{merge.public_id}/undo-preview"))

    assert (preview["undoable"], preview["expected_revision"]) == (True, 2)
    assert [(e["memory_id"], e["status"]) for e in preview["restores"]] == [
        (str(kept.public_id), "active")
    ]
    (gone,) = preview["does_not_restore"]
    assert (gone["memory_id"], gone["status"], gone["read_revision"]) == (
        str(corrected.public_id),
        "superseded",
        1,
    )
    assert gone["reason"] == "It was corrected since; the correction stands."
    assert [(d["kind"], d["status"]) for d in preview["sets_aside"]] == [("merged", "invalidated")]


def test_a_notice_cannot_be_undone_and_the_preview_says_so(bank, owner):
    api = client_for(owner)
    notice = bank.operations["uncertainty_notice"].public_id

    preview = ok(api.get(f"{API}/operations/{notice}/undo-preview"))
    error = refused(
        api.post(f"{API}/operations/{notice}/undo", {"expected_revision": 1}),
        400,
        "validation_error",
    )

    assert preview["undoable"] is False
    assert preview["refusal"]["code"] == "validation_error"
    assert error["details"]["undoable_kinds"] == ["merge", "summary"]


def test_undo_returns_a_receipt_that_replays_under_its_key(bank, owner):
    api = client_for(owner)
    merge = bank.operations["merge"]
    path = f"{API}/operations/{merge.public_id}/undo"

    first = api.post(path, {"expected_revision": 1}, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    again = api.post(path, {"expected_revision": 1}, format="json", HTTP_IDEMPOTENCY_KEY="u-1")

    assert (first.status_code, again.status_code) == (200, 200)
    assert "Idempotent-Replayed" not in first and again["Idempotent-Replayed"] == "true"
    assert again.json()["receipt"] == first.json()["receipt"]
    assert (first.json()["replayed"], again.json()["replayed"]) == (False, True)
    assert first.json()["receipt"]["key"] == "u-1"
    assert operation_row(owner, merge).state == "undone"
    with principal_context(owner):
        assert Receipt.objects.filter(owner=owner).count() == 1


def test_a_stale_revision_a_reused_key_and_a_bad_body_change_nothing(bank, owner):
    api = client_for(owner)
    merge = bank.operations["merge"]
    path = f"{API}/operations/{merge.public_id}/undo"
    ok(api.post(f"{API}/memories", {"statement": "Tea."}, HTTP_IDEMPOTENCY_KEY="taken"), 201)

    stale = refused(api.post(path, {"expected_revision": 5}), 409, "conflict")
    refused(
        api.post(path, {"expected_revision": 1}, format="json", HTTP_IDEMPOTENCY_KEY="taken"),
        409,
        "conflict",
    )
    for body in ({}, {"expected_revision": "one"}, {"expected_revision": 1, "extra": 1}, []):
        refused(api.post(path, body, format="json"), 400, "validation_error")
    refused(
        api.post(path, {"expected_revision": 1}, HTTP_IDEMPOTENCY_KEY="has space"),
        400,
        "validation_error",
    )

    assert stale["details"]["current_revision"] == 1
    assert operation_row(owner, merge).state == "applied"
    with principal_context(owner):
        assert not Receipt.objects.filter(owner=owner).exists()


# Derived memories in the memory list


def test_include_derived_adds_a_separate_list_and_leaves_the_memories_unchanged(bank, owner):
    api = client_for(owner)

    plain = ok(api.get(f"{API}/memories?status=active"))
    with_derived = ok(api.get(f"{API}/memories?status=active&include=derived"))
    paged = ok(api.get(f"{API}/memories?include=derived&derived_limit=2&derived_offset=1"))

    assert with_derived["results"] == plain["results"]
    assert "derived" not in plain
    derived = with_derived["derived"]
    assert sorted(d["derived_kind"] for d in derived) == sorted(DerivedMemory.Kind.values)
    hypothesis = next(d for d in derived if d["derived_kind"] == "hypothesis")
    assert (hypothesis["tentative"], hypothesis["review_state"], hypothesis["restricted"]) == (
        True,
        "unreviewed",
        False,
    )
    assert [d["id"] for d in paged["derived"]] == [d["id"] for d in derived[1:3]]
    for query in ("include=dreams", "include=derived&derived_limit=0"):
        refused(api.get(f"{API}/memories?{query}"), 400, "validation_error")


def test_a_derived_memory_is_read_at_its_own_route_with_the_memories_it_concerns(bank, owner):
    api = client_for(owner)
    notice = bank["uncertainty_notice"]
    metric, imperial = bank.originals["units"]

    body = ok(api.get(f"{API}/derived/{notice.public_id}"))

    assert body["derived_kind"] == "uncertainty_notice"
    assert body["statement"] == "Your memories about units may contradict each other."
    assert body["memory_ids"] == [str(metric.public_id), str(imperial.public_id)]
    assert body["operation_id"] == str(bank.operations["uncertainty_notice"].public_id)
    refused(api.get(f"{API}/memories/{notice.public_id}"), 404, "not_found")
    refused(api.get(f"{API}/derived/{metric.public_id}"), 404, "not_found")


# Controls of a derived memory


@pytest.mark.parametrize(
    ("action", "status", "review_state", "restricted"),
    [
        ("review", "active", "reviewed", False),
        ("restrict", "active", "unreviewed", True),
        ("reject", "rejected", "unreviewed", False),
    ],
)
def test_each_control_writes_a_receipt_and_leaves_the_originals_alone(
    bank, owner, action, status, review_state, restricted
):
    api = client_for(owner)
    merged = bank["merged"]
    originals = ok(api.get(f"{API}/memories"))["results"]

    body = ok(api.post(f"{API}/derived/{merged.public_id}/{action}", {"expected_revision": 1}))

    derived = body["derived"]
    assert (derived["status"], derived["review_state"], derived["restricted"]) == (
        status,
        review_state,
        restricted,
    )
    assert derived["revision"] == 2
    assert body["receipt"]["action"] == action
    assert body["receipt"]["result"]["previous"] == {
        "status": "active",
        "review_state": "unreviewed",
        "restricted": False,
    }
    assert ok(api.get(f"{API}/memories"))["results"] == originals
    with principal_context(owner):
        (receipt,) = Receipt.objects.filter(owner=owner, derived=merged)
        assert receipt.key.startswith("receipt:")


def test_a_restricted_derived_memory_withholds_its_text_until_lifted(bank, owner):
    api = client_for(owner)
    summary = bank["summary"]
    ok(api.post(f"{API}/derived/{summary.public_id}/restrict", {"expected_revision": 1}))

    hidden = ok(api.get(f"{API}/derived/{summary.public_id}"))
    journal = ok(api.get(f"{API}/summaries/{summary.public_id}"))
    recalled = ok(
        api.post(f"{API}/recall", {"query": "Maya school", "include": ["derived"]}, format="json")
    )
    shown = ok(api.post(f"{API}/derived/{summary.public_id}/unrestrict", {"expected_revision": 2}))

    assert (hidden["statement"], hidden["subject"], hidden["subject_label"]) == ("", "", "")
    assert journal["subject"] == ""
    assert {claim["statement"] for claim in journal["claims"]} == {""}
    assert all(item["kind"] != "derived" for item in recalled["items"])
    assert shown["derived"]["statement"].startswith("About Maya: Maya is my daughter")


def test_delete_erases_the_generated_text_and_suppresses_the_claim(bank, owner):
    api = client_for(owner)
    summary = bank["summary"]

    body = ok(api.delete(f"{API}/derived/{summary.public_id}?expected_revision=1"))

    assert (body["derived"]["status"], body["derived"]["statement"]) == ("deleted", "")
    with principal_context(owner):
        assert Suppression.objects.filter(owner=owner).count() == 1 + len(MAYA_CLAIMS)
    refused(api.delete(f"{API}/derived/{summary.public_id}"), 400, "validation_error")
    refused(api.delete(f"{API}/derived/{summary.public_id}?expected_revision=1"), 409, "conflict")


def test_promoting_a_hypothesis_makes_a_memory_of_the_owners_and_only_a_hypothesis(bank, owner):
    api = client_for(owner)
    hypothesis = bank["hypothesis"]
    watch, run = bank.originals["watch"]

    refused(
        api.post(f"{API}/derived/{bank['merged'].public_id}/promote", {"expected_revision": 1}),
        400,
        "validation_error",
    )
    body = ok(
        api.post(
            f"{API}/derived/{hypothesis.public_id}/promote",
            {"expected_revision": 1, "statement": "I wear the Apple Watch when I run."},
        )
    )

    memory = body["memory"]
    assert (memory["statement"], memory["authority"], memory["status"]) == (
        "I wear the Apple Watch when I run.",
        "explicit",
        "active",
    )
    assert {s["excerpt"] for s in memory["sources"]} == {
        "I just got an Apple Watch.",
        "I run with my Apple Watch every morning.",
    }
    assert body["derived"]["status"] == "promoted"
    assert body["receipt"]["result"]["memory"] == memory["id"]
    assert ok(api.get(f"{API}/memories/{memory['id']}"))["id"] == memory["id"]


def test_a_promotion_replayed_under_its_key_with_another_statement_is_a_conflict(bank, owner):
    api = client_for(owner)
    path = f"{API}/derived/{bank['hypothesis'].public_id}/promote"
    body = {"expected_revision": 1, "statement": "I wear the Apple Watch when I run."}
    first = ok(api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="promote-1"))

    same = api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="promote-1")
    other = api.post(
        path,
        {**body, "statement": "I wear the Apple Watch to sleep."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="promote-1",
    )

    assert same["Idempotent-Replayed"] == "true"
    assert same.json()["memory"]["id"] == first["memory"]["id"]
    refused(other, 409, "conflict")


def test_a_replayed_control_renders_the_current_state_never_erased_text(bank, owner):
    api = client_for(owner)
    merged = bank["merged"]
    path = f"{API}/derived/{merged.public_id}/review"
    first = ok(api.post(path, {"expected_revision": 1}, format="json", HTTP_IDEMPOTENCY_KEY="r"))
    for belief in bank.originals["kindle"]:
        belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

    replay = api.post(path, {"expected_revision": 1}, format="json", HTTP_IDEMPOTENCY_KEY="r")

    assert first["derived"]["statement"] == "User owns a Kindle."
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["receipt"] == first["receipt"]
    assert (replay.json()["derived"]["status"], replay.json()["derived"]["statement"]) == (
        "invalidated",
        "",
    )
    assert "kindle" not in replay.content.decode().lower()


def test_receipts_and_replay_records_hold_no_memory_text(bank, owner):
    api = client_for(owner)
    for number, (action, derived) in enumerate(
        [
            ("review", bank["summary"]),
            ("restrict", bank["merged"]),
            ("reject", bank["uncertainty_notice"]),
            ("promote", bank["hypothesis"]),
        ]
    ):
        ok(
            api.post(
                f"{API}/derived/{derived.public_id}/{action}",
                {"expected_revision": 1},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"key-{number}",
            )
        )
    ok(
        api.post(
            f"{API}/operations/{bank.operations['summary'].public_id}/undo",
            {"expected_revision": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="key-undo",
        )
    )

    with principal_context(owner):
        stored = json.dumps(
            [list(Receipt.objects.values_list("result", flat=True))]
            + [list(IdempotencyRecord.objects.values_list("resource_id", flat=True))]
        ).lower()
        assert Receipt.objects.count() == 5
    for word in ("kindle", "maya", "daughter", "school", "watch", "metric", "imperial"):
        assert word not in stored, word


def test_a_stale_control_is_a_conflict_and_changes_nothing(bank, owner):
    api = client_for(owner)
    merged = bank["merged"]

    error = refused(
        api.post(f"{API}/derived/{merged.public_id}/reject", {"expected_revision": 3}),
        409,
        "conflict",
    )

    assert error["details"]["current_revision"] == 1
    assert derived_row(owner, merged).status == "active"
    with principal_context(owner):
        assert not Receipt.objects.exists() and not Suppression.objects.exists()


# The evidence journal


def test_the_journal_shows_each_claim_with_its_originals_as_they_are_now(bank, owner):
    api = client_for(owner)
    summary = bank["summary"]
    daughter, school, dragons = bank.originals["maya"]
    belief_delete(principal=owner, belief_id=school.public_id, expected_revision=1)

    journal = ok(api.get(f"{API}/summaries/{summary.public_id}"))

    assert journal["operation"] == str(bank.operations["summary"].public_id)
    assert journal["status"] == "invalidated"
    supports = [claim["supports"][0] for claim in journal["claims"]]
    assert [(s["memory_id"], s["status"], s["tombstone"]) for s in supports] == [
        (str(daughter.public_id), "active", False),
        (str(school.public_id), "deleted", True),
        (str(dragons.public_id), "active", False),
    ]
    assert supports[0]["href"] == f"/api/v1/memories/{daughter.public_id}"
    assert ok(api.get(supports[0]["href"]))["statement"] == "Maya is my daughter."
    # The erased claim's copied text went with its original.
    assert "school" not in json.dumps(journal).lower()
    assert journal["omitted"] == []
    refused(api.get(f"{API}/summaries/{bank['merged'].public_id}"), 404, "not_found")


# The export


def test_the_export_holds_derived_memories_operations_receipts_and_suppressions(bank, owner):
    api = client_for(owner)
    ok(api.post(f"{API}/derived/{bank['merged'].public_id}/reject", {"expected_revision": 1}))

    export = json.loads(api.get(f"{API}/export").content)

    kinds = sorted(d["derived_kind"] for d in export["derived_memories"])
    assert kinds == sorted(DerivedMemory.Kind.values)
    summary = next(d for d in export["derived_memories"] if d["derived_kind"] == "summary")
    assert [c["statement"] for c in summary["claims"]] == list(MAYA_CLAIMS)
    assert len(export["operations"]) == 4
    assert [r["action"] for r in export["receipts"]] == ["reject"]
    assert [s["reason"] for s in export["suppressions"]] == ["rejected"]


# Another owner


def test_another_owners_ids_are_not_found_on_every_route_and_nothing_changes(
    bank, owner, other_owner
):
    theirs = client_for(other_owner)
    before = {kind: derived_row(owner, derived).revision for kind, derived in bank.derived.items()}

    for method, path, body in routes(bank):
        if path.endswith("/operations"):
            assert ok(theirs.get(path))["results"] == []
            continue
        refused(call(theirs, method, path, body), 404, "not_found")
    listed = ok(theirs.get(f"{API}/memories?include=derived"))

    assert listed["derived"] == [] and listed["results"] == []
    assert {k: derived_row(owner, d).revision for k, d in bank.derived.items()} == before
    assert operation_row(owner, bank.operations["merge"]).state == "applied"
    assert json.loads(theirs.get(f"{API}/export").content)["derived_memories"] == []


@pytest.mark.django_db(transaction=True)
def test_erasing_the_account_takes_every_derived_memory_operation_and_receipt(owner):
    flag_set(key="reconsolidation_surface", enabled=True)
    bank = reconsolidated(owner)
    api = client_for(owner)
    ok(api.post(f"{API}/derived/{bank['merged'].public_id}/review", {"expected_revision": 1}))
    ok(
        api.post(
            f"{API}/operations/{bank.operations['summary'].public_id}/undo",
            {"expected_revision": 1},
        )
    )
    token = ok(api.post(f"{API}/account/erasure"), 202)["token"]

    ok(api.post(f"{API}/account/erasure/confirm", {"token": token}))

    with principal_context(owner):
        for model in (DerivedMemory, Operation, Receipt, Suppression):
            assert not model.objects.filter(owner_id=owner.pk).exists(), model
