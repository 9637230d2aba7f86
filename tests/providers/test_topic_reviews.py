"""Model-assisted topic reviews through the real HTTP adapter against the loopback fake
provider: memories of different subjects about one topic become a summary only when local
rules admit the topic, its name is the owner's own words, and the verifier agrees with the
exact proposal; what leaves is decided memory by memory, and a completed review is not paid
for twice."""

import json

import pytest

from common.principal import principal_context
from memory.selectors.recall import recall
from reconsolidation.assisted import admission
from reconsolidation.assisted.execution import topic_review
from reconsolidation.assisted.topic_preparation import prepare_topic_proposal
from reconsolidation.assisted.topics import label_decision, topic_words
from reconsolidation.models import DerivedMemory, ProviderCall
from reconsolidation.planning import SourceView
from reconsolidation.selectors.recall import derived_recall_evaluating
from reconsolidation.services.controls import derived_control
from reconsolidation.services.passes import lease_acquire
from tests.memory.helpers import conversation, remember

HOLDER = "test-holder"


@pytest.fixture(autouse=True)
def capability_on(monkeypatch):
    monkeypatch.setattr(admission, "flag_enabled", lambda key: True)


def _remember(owner, statement, message, subject, **fields):
    _, (event,) = conversation(owner, message)
    return remember(owner, statement, subject=subject, sources=[event], **fields)


@pytest.fixture
def running(owner, provider_settings):
    """Three memories about running under three subjects, and one about something else."""
    beliefs = [
        _remember(
            owner, "User goes running every morning.", "I go running every morning.", "habit:run"
        ),
        _remember(
            owner,
            "User bought new running shoes.",
            "I bought new running shoes yesterday.",
            "object:shoes",
        ),
        _remember(
            owner,
            "User's running club meets on Thursdays.",
            "My running club meets on Thursdays.",
            "org:club",
        ),
        _remember(owner, "User likes green tea.", "I like green tea.", "preference:tea"),
    ]
    assert lease_acquire(owner, HOLDER)
    return beliefs


def review(owner, **options):
    return topic_review(owner, holder=HOLDER, deadline_seconds=30, **options)


def summaries(owner):
    with principal_context(owner):
        return list(
            DerivedMemory.objects.filter(owner=owner, status="active", kind="summary").order_by(
                "id"
            )
        )


def calls(owner):
    return list(ProviderCall.objects.filter(principal=owner).order_by("id"))


def _topic(labels, topic="running", block="b1"):
    return [{"block": block, "topic": topic, "memories": labels}]


def test_a_verified_topic_becomes_a_summary_of_its_memories_and_both_calls_are_settled(
    owner, running, fake_provider
):
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))

    report = review(owner)

    assert report.stopped == "" and report.verified == 1 and report.outcomes == {"applied": 1}
    (summary,) = summaries(owner)
    assert summary.assisted and summary.subject == "topic:running"
    assert summary.statement.startswith("About running: ")
    for belief in running[:3]:
        assert belief.statement.rstrip(".") in summary.statement
    assert "green tea" not in summary.statement
    with principal_context(owner):
        assert set(summary.lineage.values_list("belief_id", flat=True)) == {
            belief.pk for belief in running[:3]
        }
        assert summary.operation.provider_call_id == calls(owner)[1].pk
    proposal, verification = calls(owner)
    assert [proposal.stage, verification.stage] == ["topic_proposal", "topic_verification"]
    assert {proposal.state, verification.state} == {"settled"}
    assert verification.decisions["outcomes"] == {"applied": 1}


def test_the_proposal_carries_statements_only_and_the_verifier_sees_the_messages(
    owner, running, fake_provider, config
):
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))
    prepared = prepare_topic_proposal(owner, config=config)

    review(owner, config=config)

    proposal, verification = fake_provider.raw_requests
    assert proposal == prepared.payload
    assert b"User goes running every morning." in proposal
    assert b"I go running every morning." not in proposal
    assert b"I go running every morning." in verification
    # Only the topic's own memories go to the verifier.
    assert b"green tea" not in verification


@pytest.mark.parametrize(
    ("topic", "labels", "reason"),
    [
        ("fitness", ["m1", "m2", "m3"], "label_ungrounded"),
        ("running shoes", ["m1", "m2", "m3"], ""),
        ("running, shoes and more words", ["m1", "m2", "m3"], "label_invalid"),
        ("running", ["m1", "m2", "m9"], "unknown_item"),
        ("running", ["m1", "m2"], "schema"),
    ],
)
def test_a_topic_stands_only_under_local_rules(
    owner, running, fake_provider, topic, labels, reason
):
    fake_provider.set("valid", topics=_topic(labels, topic=topic))

    report = review(owner)

    if reason == "schema":
        assert report.stopped == "schema" and summaries(owner) == []
    elif reason:
        assert report.stopped == "nothing_admitted" and report.dropped == {reason: 1}
        assert summaries(owner) == [] and fake_provider.requests == 1
    else:
        assert report.outcomes == {"applied": 1}
        assert summaries(owner)[0].subject == "topic:running-shoes"


def test_memories_of_one_subject_are_not_a_topic(owner, provider_settings, fake_provider):
    for statement in ("User runs daily.", "User runs fast.", "User runs far."):
        _remember(owner, statement, statement.replace("User", "I"), "habit:run")
    assert lease_acquire(owner, HOLDER)
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"], topic="runs"))

    report = review(owner)

    assert report.dropped == {"one_subject": 1} and summaries(owner) == []


def test_a_name_more_sensitive_than_its_memories_is_refused(
    owner, provider_settings, fake_provider
):
    # The memories are ordinary (a cause the owner supports says nothing of their health);
    # the proposed name is classified on its own.
    for statement, subject in (
        ("User runs for cancer research every spring.", "habit:running"),
        ("User's cancer research run starts at noon.", "event:run"),
        ("User bakes bread for the cancer research fair.", "habit:baking"),
    ):
        _remember(owner, statement, statement.replace("User", "I"), subject, sensitivity="normal")
    assert lease_acquire(owner, HOLDER)
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"], topic="cancer"))

    report = review(owner)

    assert report.dropped == {"label_sensitive": 1} and summaries(owner) == []


def test_a_memory_the_policy_keeps_never_leaves(owner, running, fake_provider, settings):
    _remember(
        owner,
        "User runs to the clinic for therapy.",
        "I run to the clinic for therapy.",
        "health:therapy",
        sensitivity="sensitive",
    )
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))

    review(owner)

    sent = b"".join(fake_provider.raw_requests)
    assert b"therapy" not in sent and fake_provider.requests == 2
    assert calls(owner)[0].decisions["excluded"] == {"egress_denied": 1}


def test_another_owners_memories_are_never_offered(
    owner, other_owner, running, fake_provider, config
):
    _remember(other_owner, "User runs marathons.", "I run marathons in the rain.", "habit:marathon")

    prepared = prepare_topic_proposal(owner, config=config)

    assert b"marathons" not in prepared.payload and len(prepared.items) == 4


@pytest.mark.parametrize("behaviour", ["disagree", "other_digest", "other_clauses"])
def test_nothing_is_written_without_the_verifiers_agreement_to_this_proposal(
    owner, running, fake_provider, behaviour
):
    fake_provider.set(behaviour, topics=_topic(["m1", "m2", "m3"]), stage="topic_verdicts")

    report = review(owner)

    assert summaries(owner) == []
    verification = calls(owner)[1]
    if behaviour == "disagree":
        assert report.refuted == 1 and verification.validation == "accepted"
    else:
        assert report.stopped == {"other_digest": "other_proposal"}.get(behaviour, behaviour)
        assert verification.validation == report.stopped


def test_a_completed_review_is_not_paid_for_again_until_the_bank_changes(
    owner, running, fake_provider
):
    fake_provider.set("disagree", topics=_topic(["m1", "m2", "m3"]), stage="topic_verdicts")
    review(owner)
    assert fake_provider.requests == 2

    assert review(owner).stopped == "unchanged" and fake_provider.requests == 2

    _remember(owner, "User ran a marathon in May.", "I ran a marathon in May.", "event:race")
    review(owner)
    assert fake_provider.requests == 4


def test_a_review_that_broke_off_is_asked_again(owner, running, fake_provider):
    fake_provider.set("other_digest", topics=_topic(["m1", "m2", "m3"]), stage="topic_verdicts")
    review(owner)
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))

    report = review(owner)

    assert report.outcomes == {"applied": 1} and fake_provider.requests == 4


def test_memories_a_summary_shows_are_not_offered_again(owner, running, fake_provider):
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))
    review(owner)

    report = review(owner)

    assert report.stopped == "nothing_to_ask" and fake_provider.requests == 2
    assert len(summaries(owner)) == 1


def test_revoking_the_capability_takes_topic_summaries_out_of_recall_and_keeps_them(
    owner, running, fake_provider, processing_on
):
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))
    review(owner)

    def recalled():
        # One of its memories speaks of shoes: the summary is given after it for the others'
        # messages (where all three matched, it would add nothing to them).
        result = recall(principal=owner, query="shoes", include=["derived"])
        return [item.derived_kind for item in result.items if item.kind == "derived"]

    with derived_recall_evaluating():
        assert recalled() == ["summary"]
    # reconsolidation is on and certified; reconsolidation_provider is not.
    assert recalled() == []
    (kept,) = summaries(owner)
    assert kept.assisted and kept.status == "active"


def test_a_rejected_topic_summary_is_not_derived_again_under_another_name(
    owner, running, fake_provider, processing_on
):
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))
    review(owner)
    (summary,) = summaries(owner)
    derived_control(
        principal=owner,
        derived_id=summary.public_id,
        action="reject",
        expected_revision=summary.revision,
    )
    # The same memories, the same question: answered before, not asked again.
    assert review(owner).stopped == "unchanged"
    _remember(owner, "User drinks coffee at noon.", "I drink coffee at noon.", "habit:coffee")
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"], topic="running shoes"))

    report = review(owner)

    assert report.verified == 1 and report.outcomes == {"suppressed": 1}
    assert summaries(owner) == []


def test_each_verified_topic_is_applied_on_its_own(owner, running, fake_provider, monkeypatch):
    from django.db.models import F

    from memory.models import Belief
    from reconsolidation.assisted import execution

    for statement, subject in (
        ("User cooks pasta on Fridays.", "habit:pasta"),
        ("User bought a cooking pot.", "object:pot"),
        ("User takes a cooking class.", "event:class"),
    ):
        _remember(owner, statement, statement.replace("User", "I"), subject)
    fake_provider.set(
        "valid", topics=_topic(["m1", "m2", "m3"]) + _topic(["m5", "m6", "m7"], topic="cooking")
    )
    real_apply = execution.operations_apply
    applied = []

    def changed_before_the_first_group(*, principal, plans):
        if not applied:
            # The owner corrects a memory of the first group after it was verified.
            with principal_context(owner):
                Belief.objects.filter(pk=plans[0].sources[0].pk).update(revision=F("revision") + 1)
        applied.append(plans)
        return real_apply(principal=principal, plans=plans)

    monkeypatch.setattr(execution, "operations_apply", changed_before_the_first_group)

    report = review(owner)

    assert [len(plans) for plans in applied] == [1, 1]
    assert report.outcomes == {"applied": 1, "stale": 1}
    (summary,) = summaries(owner)
    assert summary.subject == "topic:cooking"
    assert calls(owner)[1].decisions["outcomes"] == {"applied": 1, "stale": 1}


def test_the_tick_reports_both_reviews(owner, running, fake_provider, processing_on, monkeypatch):
    from reconsolidation.assisted import execution
    from reconsolidation.services.passes import lease_release
    from reconsolidation.services.scheduling import reconsolidation_tick

    lease_release(owner, HOLDER)
    monkeypatch.setattr(execution, "flag_enabled", lambda key: key == "reconsolidation_provider")
    fake_provider.set("valid", topics=_topic(["m1", "m2", "m3"]))

    (entry,) = reconsolidation_tick(holder=HOLDER).passes

    assert entry["assisted"]["topics"] == {"stopped": "", "calls": 2, "outcomes": {"applied": 1}}
    assert json.dumps(entry)  # content-free and serialisable for the operator's log


def _view(pk, statement, sensitivity="normal"):
    return SourceView(
        pk=pk,
        public_id=str(pk),
        revision=1,
        type="fact",
        subject=f"fact:{pk}",
        statement=statement,
        polarity="positive",
        scope="principal",
        sensitivity=sensitivity,
        portability="portable",
        confidence=0.9,
        valid_from=None,
        valid_until=None,
        evidence_at=None,
    )


@pytest.mark.parametrize(
    ("topic", "words"),
    [
        ("Running", ("running",)),
        ("ice hockey.", ("ice", "hockey")),
        ("a b c d e", ()),
        ("", ()),
        ("running; ignore", ()),
        ("rock-climbing", ("rock-climbing",)),
    ],
)
def test_topic_words_are_one_to_four_plain_words(topic, words):
    assert topic_words(topic) == words


def test_a_name_must_be_found_whole_in_one_memory():
    views = [_view(1, "User plays ice hockey."), _view(2, "User skates on ice.")]
    assert label_decision("ice hockey", views) == ""
    assert label_decision("hockey ice", views) == "label_ungrounded"
    assert label_decision("the", views) == "label_invalid"
