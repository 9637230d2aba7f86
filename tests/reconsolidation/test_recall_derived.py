"""Derived memories in recall: opt-in, the principal's own, active and unrestricted only."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from common.principal import principal_context
from common.selectors.flags import flag_cache_clear
from common.services.flags import flag_set
from evaluation.models import Certificate
from memory.models import Belief, MemoryVector
from memory.reach import Reach
from memory.selectors.recall import recall
from memory.services.beliefs import belief_delete
from memory.services.vectors import vectors_sweep
from reconsolidation.models import DerivedMemory, Lineage, Operation
from reconsolidation.selectors.recall import derived_recall_evaluating
from reconsolidation.services.owner_actions import derived_restrict
from reconsolidation.services.passes import reconsolidation_pass
from tests.api.conftest import client_for
from tests.memory.helpers import conversation, remember


@pytest.fixture(autouse=True)
def capability_on(processing_on):
    """Derived recall needs the certified capability on; the last tests turn it off."""


def kindle_merge(owner, sources=()):
    beliefs = [
        remember(owner, text, subject="device:kindle", type="ownership", sources=sources)
        for text in ("User owns a Kindle.", "user owns the kindle")
    ]
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        return DerivedMemory.objects.get(owner=owner, kind="merged", status="active"), beliefs


def derived_by_hand(owner, kind, statement, sources, **fields):
    """A derived memory of a kind whose planner is not under test here."""
    with principal_context(owner):
        operation = Operation.objects.create(
            owner=owner,
            kind={"merged": "merge"}.get(kind, kind),
            state="applied",
            policy_version="test",
            inputs=[],
        )
        derived = DerivedMemory.objects.create(
            owner=owner,
            operation=operation,
            kind=kind,
            type=fields.pop("type", "fact"),
            subject=fields.pop("subject", ""),
            statement=statement,
            polarity="positive",
            sensitivity="normal",
            portability="portable",
            confidence=fields.pop("confidence", 0.5),
            **fields,
        )
        for belief in sources:
            Lineage.objects.create(
                owner=owner, derived=derived, belief=belief, belief_revision=belief.revision
            )
    return derived


def derived_items(principal, query, **options):
    result = recall(principal=principal, query=query, include=["derived"], **options)
    return [item for item in result.items if item.kind == "derived"]


def test_derived_memories_appear_only_when_asked_for(owner):
    derived, _ = kindle_merge(owner)

    plain = recall(principal=owner, query="kindle")
    asked = recall(principal=owner, query="kindle", include=["derived"])

    assert {item.kind for item in plain.items} == {"belief"}
    assert [item.id for item in asked.items if item.kind == "derived"] == [str(derived.public_id)]
    assert len([item for item in asked.items if item.kind == "belief"]) == 2


def reader_merge(owner, sources):
    """A merge whose words are not its memories': a question can find it alone."""
    beliefs = [
        remember(owner, text, subject="device:kindle", type="ownership", sources=sources)
        for text in ("User owns a Kindle.", "user owns the kindle")
    ]
    return derived_by_hand(
        owner,
        "merged",
        "User owns an e-reader.",
        beliefs,
        type="ownership",
        subject="device:kindle",
    )


def test_a_derived_item_shows_its_kind_text_and_the_messages_behind_it(owner):
    _, (message,) = conversation(owner, "I bought a Kindle yesterday")
    derived = reader_merge(owner, sources=[message])

    (item,) = derived_items(owner, "which e-reader?")

    assert (item.kind, item.derived_kind, item.tentative) == ("derived", "merged", False)
    assert (item.text, item.type, item.subject) == (
        derived.statement,
        "ownership",
        "device:kindle",
    )
    assert item.confidence == derived.confidence
    assert [source.event_id for source in item.sources] == [str(message.public_id)]


def test_a_summary_follows_the_memories_it_restates_and_brings_the_others_messages(owner):
    _, messages = conversation(
        owner, "I threw a bowl at class", "Pottery calms me", "My new vase is done"
    )
    beliefs = [
        remember(owner, text, sources=[message])
        for text, message in zip(
            ("User threw a bowl.", "User likes pottery.", "User finished a vase."),
            messages,
            strict=True,
        )
    ]
    summary = derived_by_hand(
        owner,
        "summary",
        "About pottery: User threw a bowl; User likes pottery; User finished a vase.",
        beliefs,
    )

    with derived_recall_evaluating():
        one = recall(principal=owner, query="bowl", include=["derived"])
        every = recall(principal=owner, query="bowl pottery vase", include=["derived"])

    # The memory the question matches comes first, then the summary with the messages of
    # the others.
    assert [item.id for item in one.items] == [str(beliefs[0].public_id), str(summary.public_id)]
    assert {source.event_id for source in one.items[1].sources} == {
        str(message.public_id) for message in messages
    }
    # Where every memory it restates matches, they already give each message behind it.
    assert [item.kind for item in every.items] == ["belief", "belief", "belief"]


def test_a_notice_follows_the_memories_it_concerns_and_is_given_whatever_they_give(owner):
    _, (first, second) = conversation(owner, "Keep it short", "I like long answers")
    short = remember(
        owner,
        "User prefers short answers.",
        subject="pref:answer-style",
        type="preference",
        sources=[first],
    )
    long = remember(
        owner,
        "User prefers long answers.",
        subject="pref:answer-style",
        type="preference",
        sources=[second],
    )
    reconsolidation_pass(principal=owner)

    with derived_recall_evaluating():
        result = recall(principal=owner, query="answers style", include=["derived"])

    assert [(item.kind, item.derived_kind) for item in result.items] == [
        ("belief", ""),
        ("belief", ""),
        ("derived", "uncertainty_notice"),
    ]
    assert {item.id for item in result.items[:2]} == {str(short.public_id), str(long.public_id)}


def test_another_principals_derived_memories_never_appear(owner, other_owner):
    kindle_merge(other_owner)

    assert derived_items(owner, "kindle") == []
    assert len(derived_items(other_owner, "kindle")) == 1


def test_restricted_derived_memories_never_appear(owner):
    derived, _ = kindle_merge(owner)

    derived_restrict(principal=owner, derived_id=derived.public_id, expected_revision=1)

    assert derived_items(owner, "kindle") == []


def test_derived_memories_that_stopped_holding_never_appear(owner):
    derived, (first, _) = kindle_merge(owner)

    belief_delete(principal=owner, belief_id=first.public_id, expected_revision=first.revision)

    with principal_context(owner):
        assert DerivedMemory.objects.get(pk=derived.pk).status == "invalidated"
    assert derived_items(owner, "kindle") == []


def test_an_expired_hypothesis_never_appears_and_a_live_one_is_tentative(owner):
    hiking = remember(owner, "User went hiking with Ann.", subject="person:ann")
    lake = remember(owner, "Ann lives by the lake.", subject="person:ann")
    live = derived_by_hand(
        owner,
        "hypothesis",
        "Ann may hike near the lake.",
        [hiking, lake],
        expires_at=timezone.now() + timedelta(days=30),
    )
    derived_by_hand(
        owner,
        "hypothesis",
        "Ann hikes every weekend.",
        [hiking],
        expires_at=timezone.now() - timedelta(days=1),
    )

    items = derived_items(owner, "where does Ann hike?")

    assert [(item.id, item.tentative) for item in items] == [(str(live.public_id), True)]


def test_uncertainty_notices_are_found_by_their_subject_and_name_their_memories(owner):
    short = remember(
        owner, "User prefers short answers.", subject="pref:answer-style", type="preference"
    )
    long = remember(
        owner, "User prefers long answers.", subject="pref:answer-style", type="preference"
    )
    reconsolidation_pass(principal=owner)

    (item,) = derived_items(owner, "what answer style?")
    unrelated = derived_items(owner, "short")

    assert item.derived_kind == "uncertainty_notice"
    assert item.text == "Your memories about answer style may contradict each other."
    assert item.memory_ids == (str(short.public_id), str(long.public_id))
    assert len(item.sources) == 0  # remembered without messages
    assert unrelated == []  # the fixed text is not the notice's content


def test_more_terms_matched_rank_first_then_the_most_recent(owner):
    three = derived_by_hand(owner, "summary", "Ann plays chess and tennis.", [])
    older_one = derived_by_hand(owner, "summary", "Bob plays tennis.", [])
    two = derived_by_hand(owner, "summary", "Ann plays tennis.", [])
    newer_one = derived_by_hand(owner, "summary", "Cleo plays tennis.", [])
    derived_by_hand(owner, "summary", "Dan plays golf.", [])

    items = derived_items(owner, "ann chess tennis")

    assert [item.id for item in items] == [
        str(d.public_id) for d in (three, two, newer_one, older_one)
    ]


def test_derived_memories_are_found_by_word_stems_through_the_index(owner):
    hikes = derived_by_hand(owner, "summary", "Ann hiked the ridge twice.", [])
    derived_by_hand(owner, "summary", "Ann swims at dawn.", [])

    (item,) = derived_items(owner, "hiking")

    assert item.id == str(hikes.public_id)


def searching(statements):
    """The statements that read a full-text index or the BM25 statistics."""
    return [
        sql
        for sql in statements
        if "_fts MATCH" in sql or "search_vector @@" in sql or "memory_searchstatistics" in sql
    ]


def recall_searching(owner):
    """The statements that read a full-text index or the BM25 statistics in a recall of
    beliefs, messages and derived memories that finds each of them."""
    kindle_merge(owner)
    conversation(owner, "I read my kindle every night.")

    with CaptureQueriesContext(connection) as captured:
        result = recall(principal=owner, query="kindle", include=["messages", "derived"])

    assert {item.kind for item in result.items} == {"belief", "message", "derived"}
    return searching(query["sql"] for query in captured.captured_queries)


def test_recall_searches_beliefs_messages_and_derived_memories_in_one_statement(owner):
    # On PostgreSQL the statement also reads every source's BM25 statistics.
    assert len(recall_searching(owner)) == 1


def test_an_erased_summary_is_found_by_nothing_it_said(owner):
    from reconsolidation.services.owner_actions import erase_generated_copies

    summary = derived_by_hand(owner, "summary", "Ann adopted a beagle.", [])
    with principal_context(owner):
        erase_generated_copies(owner, summary)
        summary.save()

    assert derived_items(owner, "beagle") == []


def test_originals_are_untouched_by_recall_of_derived_memories(owner):
    kindle_merge(owner)
    with principal_context(owner):
        before = list(Belief.objects.filter(owner=owner).values("status", "revision"))

    derived_items(owner, "kindle")

    with principal_context(owner):
        assert list(Belief.objects.filter(owner=owner).values("status", "revision")) == before


# -- the API route ---------------------------------------------------------------------


def test_the_recall_route_shows_derived_items_with_their_kind(owner):
    derived, _ = kindle_merge(owner)

    body = (
        client_for(owner)
        .post("/api/v1/recall", {"query": "kindle", "include": ["derived"]}, format="json")
        .json()
    )

    (item,) = [item for item in body["items"] if item["kind"] == "derived"]
    assert item["id"] == str(derived.public_id)
    assert (item["derived_kind"], item["tentative"], item["subject"]) == (
        "merged",
        False,
        "device:kindle",
    )


def test_an_ordinary_recall_response_keeps_its_shape(owner):
    kindle_merge(owner)

    body = client_for(owner).post("/api/v1/recall", {"query": "kindle"}, format="json").json()

    assert {item["kind"] for item in body["items"]} == {"belief"}
    for item in body["items"]:
        assert "derived_kind" not in item and "tentative" not in item
        assert set(item) == {
            "kind",
            "id",
            "text",
            "rank",
            "score",
            "sources",
            "type",
            "subject",
            "status",
            "needs_review",
            "confidence",
            "revision",
            "session_id",
            "sequence",
            "event_type",
            "occurred_at",
        }


def test_the_recall_route_never_shows_another_principals_derived_memories(owner, other_owner):
    kindle_merge(other_owner)
    remember(owner, "User owns a Kindle.", subject="device:kindle", type="ownership")

    body = (
        client_for(owner)
        .post("/api/v1/recall", {"query": "kindle", "include": ["derived"]}, format="json")
        .json()
    )

    assert [item["kind"] for item in body["items"]] == ["belief"]


@pytest.mark.parametrize("include", [["dreams"], "derived"])
def test_the_recall_route_refuses_an_unknown_include(owner, include):
    response = client_for(owner).post(
        "/api/v1/recall", {"query": "kindle", "include": include}, format="json"
    )

    assert (response.status_code, response.json()["error"]["code"]) == (400, "validation_error")


def test_turning_the_capability_off_takes_derived_memories_out_of_recall(owner):
    derived, _ = kindle_merge(owner)

    flag_set(key="reconsolidation", enabled=False)

    assert derived_items(owner, "kindle") == []
    with principal_context(owner):
        # The owner's history stays.
        assert DerivedMemory.objects.get(pk=derived.pk).status == "active"


def test_code_changed_since_the_certificate_takes_derived_memories_out_of_recall(owner):
    kindle_merge(owner)

    Certificate.objects.all().delete()
    flag_cache_clear()

    assert derived_items(owner, "kindle") == []


def test_the_evaluation_recalls_derived_memories_before_any_certificate(owner):
    derived, _ = kindle_merge(owner)
    flag_set(key="reconsolidation", enabled=False)

    with derived_recall_evaluating():
        (item,) = derived_items(owner, "kindle")

    assert item.id == str(derived.public_id)
    assert derived_items(owner, "kindle") == []


def test_a_derived_items_sensitive_messages_stay_hidden_from_an_access_kept_from_them(owner):
    _, (ordinary, sensitive) = conversation(
        owner, "I bought a Kindle yesterday", "I read on my Kindle after therapy"
    )
    reader_merge(owner, sources=[ordinary, sensitive])

    (discreet,) = derived_items(owner, "which e-reader?", reach=Reach(include_sensitive=False))
    (full,) = derived_items(owner, "which e-reader?")

    assert [source.event_id for source in discreet.sources] == [str(ordinary.public_id)]
    assert [source.event_id for source in full.sources] == [
        str(ordinary.public_id),
        str(sensitive.public_id),
    ]


def test_a_derived_memory_is_found_by_meaning_once_the_sweep_gave_it_a_vector(owner):
    pepper = remember(owner, "User walks Pepper every morning.", subject="topic:pepper")
    derived_by_hand(owner, "hypothesis", "User may have a dog.", [pepper])
    vectors_sweep()

    found = derived_items(owner, "Any pets at home?")

    assert [item.text for item in found] == ["User may have a dog."]


def test_a_restricted_derived_memory_keeps_its_vector_but_is_not_found_by_meaning(owner):
    pepper = remember(owner, "User walks Pepper every morning.", subject="topic:pepper")
    derived = derived_by_hand(owner, "hypothesis", "User may have a dog.", [pepper])
    vectors_sweep()
    derived_restrict(principal=owner, derived_id=derived.public_id, expected_revision=1)

    assert derived_items(owner, "Any pets at home?") == []
    with principal_context(owner):
        assert MemoryVector.objects.filter(collection="derived", row_id=derived.pk).exists()
