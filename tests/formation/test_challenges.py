"""Nothing inferred overrules the owner: a proposal that would retract, supersede or correct an
explicit memory, or a model's proposal that would replace a memory more conversations support
than it cites (memory.evidence), becomes a challenge the owner decides, and recall keeps the
standing memory."""

import pytest

from common.principal import principal_context
from core.errors import ReverieError
from formation.challenge_selectors import challenge_list, challenge_views
from formation.challenges import challenge_keep, challenge_replace
from formation.extractor import DeterministicExtractor
from formation.hybrid import HybridExtractor
from formation.models import Challenge, ChallengeSource, ConsolidationWatermark
from formation.services import formation_consolidate
from memory.enums import BeliefType
from memory.models import AuditRecord, Belief
from memory.selectors.recall import recall
from memory.services.account import account_export, account_purge
from memory.services.beliefs import belief_confirm, belief_delete, belief_import
from memory.services.erasure import event_erase, session_erase
from tests.memory.helpers import conversation, remember

METRIC = "User prefers metric units."
NO_LONGER_METRIC = "User no longer prefers metric units."


def consolidate(principal, session, *, model=False):
    extractor = DeterministicExtractor()
    return formation_consolidate(
        principal=principal,
        session_id=session.public_id,
        extractor=HybridExtractor(extractor) if model else extractor,
    )


def proposal(event, subject, statement, **fields):
    return {
        "type": fields.pop("type", "preference"),
        "subject": subject,
        "statement": statement,
        "polarity": fields.pop("polarity", "positive"),
        "source_ids": fields.pop("source_ids", [str(event.public_id)]),
    }


def beliefs(principal, **filters):
    with principal_context(principal):
        return list(Belief.objects.filter(owner=principal, **filters).order_by("id"))


def challenges(principal, state=None):
    with principal_context(principal):
        return challenge_views(principal, challenge_list(principal, state=state))


def recalled(principal, query):
    return [item.text for item in recall(principal=principal, query=query).items]


@pytest.fixture
def metric_challenged(owner, provider_settings, fake_provider):
    """The owner's explicit "User prefers metric units." and a model's proposal that it no
    longer holds, read from one message."""
    stated = remember(owner, METRIC, subject="pref:metric-units", type=BeliefType.PREFERENCE)
    session, (message,) = conversation(owner, "I no longer prefer metric units.")
    fake_provider.set(
        "valid",
        proposals=[proposal(message, "pref:metric-units", NO_LONGER_METRIC, polarity="negative")],
    )
    audit = consolidate(owner, session, model=True)
    return stated, session, message, audit


def test_a_model_retraction_of_an_explicit_memory_waits_for_the_owner(owner, metric_challenged):
    stated, _, message, audit = metric_challenged

    (standing,) = beliefs(owner, pk=stated.pk)
    assert (standing.status, standing.revision) == ("active", stated.revision)
    assert beliefs(owner, statement=NO_LONGER_METRIC) == []
    assert audit.rejection_reasons == {"challenged": 1}
    (challenge,) = challenges(owner, "open")
    assert challenge["standing"]["id"] == str(stated.public_id)
    assert challenge["standing"]["statement"] == METRIC
    assert challenge["proposal"]["statement"] == NO_LONGER_METRIC
    assert challenge["proposal"]["polarity"] == "negative"
    assert challenge["proposal"]["model_proposed"] is True
    assert challenge["proposal"]["sources"] == [
        {"event_id": str(message.public_id), "excerpt": "I no longer prefer metric units."}
    ]
    # The challenge is no memory: recall keeps the owner's and never returns the proposal.
    assert recalled(owner, "metric units") == [METRIC]


def test_a_deterministic_retraction_of_an_explicit_memory_waits_for_the_owner(owner):
    stated = remember(
        owner, "User owns a BMW X3.", subject="vehicle:bmw-x3", type=BeliefType.OWNERSHIP
    )
    session, _ = conversation(owner, "I sold the BMW X3.")

    audit = consolidate(owner, session)

    (standing,) = beliefs(owner, pk=stated.pk)
    assert standing.status == "active"
    assert audit.rejection_reasons == {"challenged": 1}
    (challenge,) = challenges(owner, "open")
    assert challenge["proposal"]["statement"] == "User no longer owns a BMW X3."
    assert challenge["proposal"]["model_proposed"] is False
    assert recalled(owner, "BMW X3") == ["User owns a BMW X3."]


def test_a_proposal_that_says_less_than_the_owner_supports_the_memory_without_a_challenge(owner):
    stated = remember(
        owner,
        "User's sister Ana lives in Lisbon.",
        subject="person:ana",
        type=BeliefType.RELATIONSHIP,
    )
    # Read as "User has a sister named Ana.": nothing the owner's memory does not say.
    session, (message,) = conversation(owner, "Remember that my sister Ana lives in Lisbon.")

    audit = consolidate(owner, session)

    assert challenges(owner) == []
    assert audit.rejection_reasons == {}
    (standing,) = beliefs(owner, subject="person:ana")
    assert (standing.pk, standing.status) == (stated.pk, "active")
    with principal_context(owner):
        assert list(standing.sources.values_list("event_id", flat=True)) == [message.pk]


def test_a_proposal_that_says_something_else_of_the_subject_is_still_a_challenge(owner):
    remember(owner, METRIC, subject="pref:units", type=BeliefType.PREFERENCE)
    session, _ = conversation(owner, "I prefer imperial units.")

    audit = consolidate(owner, session)

    assert audit.rejection_reasons == {"challenged": 1}
    (challenge,) = challenges(owner, "open")
    assert challenge["proposal"]["statement"] == "User prefers imperial units."


def test_a_deterministic_retraction_of_an_inferred_memory_still_retracts_it(owner):
    first, _ = conversation(owner, "I own a BMW X3.")
    consolidate(owner, first)
    (formed,) = beliefs(owner, subject="vehicle:bmw-x3")
    second, _ = conversation(owner, "I sold the BMW X3.")

    consolidate(owner, second)

    assert beliefs(owner, pk=formed.pk)[0].status == "retracted"
    assert challenges(owner) == []


@pytest.mark.parametrize(
    "text",
    [
        "Thinking about whether I should sell the BMW X3.",
        "Should I sell the BMW X3?",
        "If I sell the BMW X3 I'll buy a bike.",
        "I might sell the BMW X3.",
        "I'm considering selling the BMW X3.",
    ],
)
def test_a_question_or_a_plan_retracts_nothing(owner, text):
    first, _ = conversation(owner, "I own a BMW X3.")
    consolidate(owner, first)
    second, _ = conversation(owner, text)

    consolidate(owner, second)

    (formed,) = beliefs(owner, subject="vehicle:bmw-x3")
    assert formed.status == "provisional"
    assert challenges(owner) == []


@pytest.mark.parametrize(
    "text",
    [
        "I'm not sure I prefer imperial units anymore.",
        "I'm unsure whether I prefer imperial units now.",
        "I'm wondering if I prefer imperial units.",
    ],
)
def test_a_hedge_supersedes_nothing(owner, text):
    first, _ = conversation(owner, "I prefer metric units.")
    consolidate(owner, first)
    (formed,) = beliefs(owner, status="provisional")
    second, _ = conversation(owner, text)

    consolidate(owner, second)

    assert beliefs(owner, pk=formed.pk)[0].status == "provisional"
    assert [b.statement for b in beliefs(owner, status="provisional")] == [formed.statement]


def miso_memory(owner, *, conversations=2):
    """An inferred memory two messages support, from two conversations or from one."""
    if conversations == 2:
        _, (first,) = conversation(owner, "I have a cat named Miso.")
        _, (second,) = conversation(owner, "Miso is my cat.")
    else:
        _, (first, second) = conversation(owner, "I have a cat named Miso.", "Miso is my cat.")
    return belief_import(
        principal=owner,
        status="provisional",
        statement="User has a cat named Miso.",
        type=BeliefType.OWNERSHIP,
        subject="pet:miso",
        polarity="positive",
        confidence=0.55,
        scope="principal",
        portability="portable",
        sensitivity="normal",
        valid_from=None,
        valid_until=None,
        expires_at=None,
        source_event_ids=[first.public_id, second.public_id],
    )


def misread_miso(owner, fake_provider):
    """A model's proposal about the cat Miso, grounded word for word (formation.grounding), yet
    a misreading of whose dislike it is; the audit of its consolidation."""
    session, (message,) = conversation(owner, "My cat Miso hates the new flat.")
    fake_provider.set(
        "valid",
        proposals=[
            proposal(message, "pet:miso", "User hates the cat Miso.", type="ownership"),
        ],
    )
    return consolidate(owner, session, model=True)


def test_a_model_proposal_does_not_supersede_a_memory_with_more_sources_than_it_cites(
    owner, provider_settings, fake_provider
):
    miso = miso_memory(owner)

    audit = misread_miso(owner, fake_provider)

    assert beliefs(owner, pk=miso.pk)[0].status == "provisional"
    assert audit.rejection_reasons == {"challenged": 1}
    (challenge,) = challenges(owner, "open")
    assert challenge["standing"]["id"] == str(miso.public_id)
    # The deterministic extractor read "my cat Miso" in the new message too: a third source.
    assert len(challenge["standing"]["sources"]) == 3


def test_messages_of_one_conversation_do_not_outweigh_a_model_proposal(
    owner, provider_settings, fake_provider
):
    # As above, but the memory's two messages come from one conversation: one piece of
    # evidence, as the model's message is, so the proposal is decided, not challenged.
    miso = miso_memory(owner, conversations=1)

    audit = misread_miso(owner, fake_provider)

    assert challenges(owner, "open") == []
    assert "challenged" not in audit.rejection_reasons
    assert beliefs(owner, pk=miso.pk)[0].status == "superseded"


def test_a_model_proposal_citing_as_many_messages_supersedes_an_inferred_memory(
    owner, provider_settings, fake_provider
):
    _, (said,) = conversation(owner, "I prefer tea.")
    tea = belief_import(
        principal=owner,
        status="provisional",
        statement="User prefers tea.",
        type=BeliefType.PREFERENCE,
        subject="pref:hot-drink",
        polarity="positive",
        confidence=0.55,
        scope="principal",
        portability="portable",
        sensitivity="normal",
        valid_from=None,
        valid_until=None,
        expires_at=None,
        source_event_ids=[said.public_id],
    )
    session, (message,) = conversation(owner, "These days I prefer hot drink coffee.")
    fake_provider.set(
        "valid", proposals=[proposal(message, "pref:hot-drink", "User prefers coffee.")]
    )

    consolidate(owner, session, model=True)

    assert beliefs(owner, pk=tea.pk)[0].status == "superseded"
    assert challenges(owner) == []


def test_keeping_closes_the_challenge_and_the_same_messages_never_reopen_it(
    owner, metric_challenged, fake_provider
):
    stated, session, message, _ = metric_challenged
    (challenge,) = challenges(owner, "open")

    kept = challenge_keep(principal=owner, challenge_id=challenge["id"])
    again = challenge_keep(principal=owner, challenge_id=challenge["id"])

    assert kept.state == again.state == "kept"
    assert beliefs(owner, pk=stated.pk)[0].status == "active"
    with principal_context(owner):
        record = AuditRecord.objects.filter(belief_id=stated.pk).order_by("id").last()
        assert (record.action, record.actor) == ("confirmed", "principal")
        assert record.details == {"challenge": challenge["id"], "decision": "kept"}
        # Read again from the start, the same messages propose the same again.
        ConsolidationWatermark.objects.filter(owner=owner, session=session).delete()
    audit = consolidate(owner, session, model=True)

    assert audit.rejection_reasons == {"kept_by_owner": 1}
    assert challenges(owner, "open") == []
    with pytest.raises(ReverieError) as refused:
        challenge_replace(principal=owner, challenge_id=challenge["id"])
    assert refused.value.code == "conflict"


def test_a_memory_the_owner_confirmed_is_protected_like_one_they_stated(owner):
    inferred = remember(
        owner, "User owns a BMW X3.", subject="vehicle:bmw-x3", type=BeliefType.OWNERSHIP
    )
    with principal_context(owner):
        Belief.objects.filter(pk=inferred.pk).update(
            status="provisional", authority="inferred", confidence=0.55
        )
    confirmed = belief_confirm(
        principal=owner, belief_id=inferred.public_id, expected_revision=inferred.revision
    )
    session, _ = conversation(owner, "I sold the BMW X3.")

    audit = consolidate(owner, session)

    (standing,) = beliefs(owner, pk=confirmed.pk)
    assert (standing.status, standing.authority) == ("active", "explicit")
    assert audit.rejection_reasons == {"challenged": 1}
    assert recalled(owner, "BMW X3") == ["User owns a BMW X3."]


def test_keeping_a_memory_makes_it_the_owners(owner, metric_challenged):
    stated, *_ = metric_challenged
    # As a memory formation inferred would stand.
    with principal_context(owner):
        Belief.objects.filter(pk=stated.pk).update(
            authority="inferred", confidence=0.55, needs_review=True
        )
    (challenge,) = challenges(owner, "open")

    challenge_keep(principal=owner, challenge_id=challenge["id"])

    (standing,) = beliefs(owner, pk=stated.pk)
    assert (standing.status, standing.authority, standing.confidence) == (
        "active",
        "explicit",
        0.95,
    )
    assert not standing.needs_review


def test_replacing_makes_the_proposal_the_owners_memory(owner, metric_challenged):
    stated, _, message, _ = metric_challenged
    (challenge,) = challenges(owner, "open")

    replaced = challenge_replace(principal=owner, challenge_id=challenge["id"])
    again = challenge_replace(principal=owner, challenge_id=challenge["id"])

    assert replaced.state == again.state == "replaced"
    (old,) = beliefs(owner, pk=stated.pk)
    (new,) = beliefs(owner, statement=NO_LONGER_METRIC)
    assert old.status == "retracted"
    assert (new.status, new.authority, new.polarity) == ("active", "explicit", "negative")
    assert new.supersedes_id == old.pk
    assert again.replacement_id == new.pk
    with principal_context(owner):
        assert list(new.sources.values_list("event_id", flat=True)) == [message.pk]
        actions = set(
            AuditRecord.objects.filter(belief__in=[old, new]).values_list("action", "actor")
        )
    assert {("corrected", "principal"), ("retracted", "principal")} <= actions
    assert recalled(owner, "metric units") == [NO_LONGER_METRIC]
    with pytest.raises(ReverieError) as refused:
        challenge_keep(principal=owner, challenge_id=challenge["id"])
    assert refused.value.code == "conflict"


def test_another_principal_can_neither_read_nor_decide_a_challenge(
    owner, other_owner, metric_challenged
):
    (challenge,) = challenges(owner, "open")

    assert challenges(other_owner) == []
    for decide in (challenge_keep, challenge_replace):
        with pytest.raises(ReverieError) as refused:
            decide(principal=other_owner, challenge_id=challenge["id"])
        assert refused.value.code == "not_found"
    assert challenges(owner, "open")[0]["id"] == challenge["id"]


def count(principal):
    with principal_context(principal):
        return Challenge.objects.filter(owner=principal).count(), ChallengeSource.objects.filter(
            owner=principal
        ).count()


def test_erasing_a_cited_message_erases_the_challenge(owner, metric_challenged):
    _, _, message, _ = metric_challenged
    assert count(owner) == (1, 1)

    event_erase(principal=owner, event_id=message.public_id)

    assert count(owner) == (0, 0)


def test_erasing_the_conversation_erases_the_challenge(owner, metric_challenged):
    _, session, _, _ = metric_challenged
    assert count(owner) == (1, 1)

    session_erase(principal=owner, session_id=session.public_id)

    assert count(owner) == (0, 0)


def test_forgetting_the_standing_memory_erases_the_challenge(owner, metric_challenged):
    stated, _, _, _ = metric_challenged
    assert count(owner) == (1, 1)

    belief_delete(principal=owner, belief_id=stated.public_id, expected_revision=stated.revision)

    assert count(owner) == (0, 0)


def test_forgetting_the_memory_a_replacement_made_erases_the_challenge(owner, metric_challenged):
    (challenge,) = challenges(owner, "open")
    replaced = challenge_replace(principal=owner, challenge_id=challenge["id"])
    with principal_context(owner):
        new = Belief.objects.get(pk=replaced.replacement_id)
    assert count(owner) == (1, 1)

    belief_delete(principal=owner, belief_id=new.public_id, expected_revision=new.revision)

    assert count(owner) == (0, 0)


def test_the_export_holds_the_challenges_and_account_erasure_removes_them(owner, metric_challenged):
    (challenge,) = challenges(owner, "open")

    exported = account_export(principal=owner)

    assert [c["id"] for c in exported["challenges"]] == [challenge["id"]]
    assert exported["challenges"][0]["proposal"]["statement"] == NO_LONGER_METRIC
    deleted = account_purge(principal=owner)

    assert (deleted["challenge"], deleted["challengesource"]) == (1, 1)
    with principal_context(owner):
        assert not Challenge.objects.filter(owner_id=owner.pk).exists()
