"""Model-assisted reconsolidation through the real HTTP adapter against the loopback fake
provider: what is sent, what is reserved and settled, and that nothing is written without
local admission and a verifier's agreement bound to the proposal."""

import hashlib
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from accounts.models import OperatorAction
from accounts.services import model_processing_set
from common.principal import principal_context
from memory.selectors.recall import recall
from providers.ledger import spent_today
from reconsolidation.assisted import admission, execution
from reconsolidation.assisted.admission import Refused, admit
from reconsolidation.assisted.calls import SendRefused, calls_recover, send
from reconsolidation.assisted.execution import assisted_review
from reconsolidation.assisted.preparation import Budget, prepare_proposal
from reconsolidation.models import DerivedMemory, ProviderCall
from reconsolidation.selectors.recall import derived_recall_evaluating
from reconsolidation.services.passes import lease_acquire, lease_release
from reconsolidation.services.scheduling import reconsolidation_tick
from tests.fake_provider import DEADLINE
from tests.memory.helpers import conversation, remember

HOLDER = "test-holder"
PEPPER = "pet:pepper"
VISITS = "person:noor"


@pytest.fixture(autouse=True)
def capability_on(monkeypatch):
    # The flag's certificate machinery has tests of its own (test_capability_gate); here
    # the capability is on unless a test turns it off.
    monkeypatch.setattr(admission, "flag_enabled", lambda key: True)


def _remember(owner, statement, message, subject):
    _, (event,) = conversation(owner, message)
    return remember(owner, statement, subject=subject, sources=[event])


@pytest.fixture
def bank(owner, provider_settings):
    """Two wordings of one claim, and two claims a careless reader would call one."""
    beliefs = {
        "called": _remember(
            owner, "User has a dog called Pepper.", "I have a dog called Pepper.", PEPPER
        ),
        "named": _remember(owner, "User's dog is named Pepper.", "My dog is named Pepper.", PEPPER),
        "noor": _remember(owner, "Noor visited Tariq.", "Noor visited Tariq last week.", VISITS),
        "tariq": _remember(owner, "Tariq visited Noor.", "Then Tariq visited Noor.", VISITS),
    }
    assert lease_acquire(owner, HOLDER)
    return beliefs


def review(owner, **options):
    return assisted_review(owner, holder=HOLDER, deadline_seconds=30, **options)


def derived(owner):
    with principal_context(owner):
        return list(DerivedMemory.objects.filter(owner=owner, status="active"))


def calls(owner):
    return list(ProviderCall.objects.filter(principal=owner).order_by("id"))


def test_a_verified_merge_of_two_wordings_is_applied_and_both_calls_are_settled(
    owner, bank, fake_provider
):
    report = review(owner)

    assert report.stopped == "" and report.verified == 1 and report.outcomes == {"applied": 1}
    (merged,) = derived(owner)
    assert merged.kind == "merged" and merged.assisted
    assert merged.statement == "User has a dog called Pepper."
    proposal, verification = calls(owner)
    assert [proposal.stage, verification.stage] == ["proposal", "verification"]
    assert {proposal.state, verification.state} == {"settled"}
    assert verification.validation == "accepted"
    assert verification.decisions["outcomes"] == {"applied": 1}
    assert proposal.sends == verification.sends == 1 and fake_provider.requests == 2
    # The fake reports 900 input and 120 output tokens per call at $0.15 / $0.60 per million.
    assert spent_today(owner) == Decimal("0.000414")
    assert proposal.charged_micros == verification.charged_micros == 207


def test_the_operation_names_the_verification_call_that_agreed(owner, bank):
    review(owner)
    (merged,) = derived(owner)
    with principal_context(owner):
        operation = merged.operation
    assert operation.provider_call_id == calls(owner)[1].pk


def test_claims_that_local_rules_keep_apart_are_never_sent(owner, bank, fake_provider):
    fake_provider.set("valid")
    review(owner)

    sent = json.dumps(fake_provider.last_body)
    assert "Tariq" not in sent and "Noor" not in sent
    assert calls(owner)[0].decisions["excluded"] == {"order_differs": 1}
    assert all(not {bank["noor"].pk, bank["tariq"].pk} & _sources(owner, d) for d in derived(owner))


def _sources(owner, derived_memory):
    with principal_context(owner):
        return set(derived_memory.lineage.values_list("belief_id", flat=True))


def test_the_exact_bytes_prepared_are_the_bytes_sent(owner, bank, fake_provider, config):
    prepared = prepare_proposal(owner, config=config)
    review(owner, config=config)

    proposal = calls(owner)[0]
    assert fake_provider.raw_requests[0] == prepared.payload
    assert proposal.request_digest == hashlib.sha256(prepared.payload).hexdigest()
    assert proposal.request_length == len(prepared.payload)


def test_a_policy_that_allows_nothing_sends_nothing(owner, bank, fake_provider, settings):
    settings.REVERIE_EGRESS = {**settings.REVERIE_EGRESS, "allow": []}

    report = review(owner)

    assert report.stopped == "nothing_to_ask"
    assert report.excluded == {"egress_denied": 2, "order_differs": 1}
    assert fake_provider.requests == 0 and calls(owner) == [] and derived(owner) == []


def test_sensitive_messages_stay_behind_and_their_memories_with_them(
    owner, provider_settings, fake_provider
):
    _remember(owner, "User has a dog called Pepper.", "I have a dog called Pepper.", PEPPER)
    _remember(
        owner,
        "User's dog is named Pepper.",
        "My dog is named Pepper, my therapist says he helps my depression.",
        PEPPER,
    )
    assert lease_acquire(owner, HOLDER)

    report = review(owner)

    assert report.stopped == "nothing_to_ask"
    assert report.excluded["message_egress_denied"] == 1
    assert fake_provider.requests == 0


def test_an_unpinned_residency_defers_before_anything_is_read_or_sent(
    owner, bank, fake_provider, settings
):
    settings.REVERIE_EGRESS = {**settings.REVERIE_EGRESS, "residency": ["eu"]}

    assert review(owner).stopped == "residency_unknown"
    assert fake_provider.requests == 0 and calls(owner) == []


def test_an_owner_who_opted_out_is_never_sent(owner, bank, fake_provider):
    model_processing_set(principal=owner, allowed=False)

    assert review(owner).stopped == "opted_out"
    assert fake_provider.requests == 0


def test_a_request_over_its_budget_is_never_reserved_or_sent(owner, bank, fake_provider):
    report = review(owner, budget=Budget(usd=Decimal("0.0001")))

    assert report.stopped == "over_budget"
    assert fake_provider.requests == 0 and calls(owner) == [] and spent_today() == 0


def test_a_call_over_the_spend_cap_is_never_sent(owner, bank, fake_provider, settings):
    settings.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 0.0001, "daily_usd_global": 1}

    assert review(owner).stopped == "spend_cap"
    assert fake_provider.requests == 0 and calls(owner) == [] and spent_today() == 0


def test_a_capability_switched_off_reserves_and_sends_nothing(
    owner, bank, fake_provider, monkeypatch
):
    monkeypatch.setattr(admission, "flag_enabled", lambda key: False)

    assert review(owner).stopped == "capability_off"
    assert fake_provider.requests == 0 and calls(owner) == []


@pytest.mark.parametrize(
    ("behaviour", "validation"),
    [("other_digest", "other_proposal"), ("other_clauses", "other_clauses"), ("schema", "schema")],
)
def test_a_verifier_reply_not_bound_to_the_proposal_writes_nothing(
    owner, bank, fake_provider, behaviour, validation
):
    fake_provider.set(behaviour, stage="merge_verdicts")

    report = review(owner)

    assert report.stopped == validation and derived(owner) == []
    verification = calls(owner)[1]
    assert verification.state == "settled" and verification.validation == validation


def test_a_disagreeing_verifier_merges_nothing(owner, bank, fake_provider):
    fake_provider.set("disagree", stage="merge_verdicts")

    report = review(owner)

    assert report.refuted == 1 and report.verified == 0 and derived(owner) == []
    assert calls(owner)[1].decisions["refuted"] == 1


def test_proposals_outside_what_was_offered_are_dropped(owner, bank, fake_provider):
    fake_provider.set("valid", merges=[{"block": "b1", "memories": ["m1", "m9"]}])

    report = review(owner)

    assert report.stopped == "nothing_admitted" and report.dropped == {"unknown_item": 1}
    assert fake_provider.requests == 1 and derived(owner) == []


def test_a_timeout_mid_send_keeps_the_whole_reservation(owner, bank, fake_provider, short_deadline):
    fake_provider.set("slow", stage="merge_proposals")

    report = review(owner)

    assert report.stopped == "timeout"
    (proposal,) = calls(owner)
    assert proposal.state == "uncertain" and proposal.charged_micros is None
    assert spent_today(owner) * 1_000_000 == proposal.reserved_micros
    assert derived(owner) == []


def test_unknown_usage_keeps_the_whole_reservation(owner, bank, fake_provider):
    fake_provider.set("no_usage")

    assert review(owner).stopped == "usage_missing"
    (proposal,) = calls(owner)
    assert proposal.state == "uncertain" and proposal.error_class == "usage_missing"
    assert spent_today(owner) * 1_000_000 == proposal.reserved_micros


def test_an_absurd_usage_keeps_the_whole_reservation_and_is_never_believed(
    owner, bank, fake_provider
):
    fake_provider.set("absurd_usage")

    assert review(owner).stopped == "absurd_usage"
    (proposal,) = calls(owner)
    assert proposal.state == "uncertain" and proposal.error_class == "absurd_usage"
    assert proposal.charged_micros is None and proposal.input_tokens is None
    assert spent_today(owner) * 1_000_000 == proposal.reserved_micros


def test_retry_after_holds_the_next_review_before_anything_is_reserved(owner, bank, fake_provider):
    fake_provider.set("retry_after")
    assert review(owner).stopped == "rate_limited"

    fake_provider.set("valid")

    assert review(owner).stopped == "retry_after"
    assert fake_provider.requests == 1
    assert len(calls(owner)) == 1 and spent_today(owner) == 0


def test_a_fault_after_the_reply_settles_the_call_at_its_whole_reservation(
    owner, bank, fake_provider, monkeypatch
):
    def broken(*args):
        raise RuntimeError("a fault after the reply was read")

    monkeypatch.setattr(execution, "admitted_groups", broken)

    with pytest.raises(RuntimeError):
        review(owner)
    (proposal,) = calls(owner)
    # Settled now, not left for recovery: the reservation stands, no usage is invented.
    assert proposal.state == "uncertain" and proposal.error_class == "internal_error"
    assert proposal.settled_at is not None and proposal.charged_micros is None
    assert spent_today(owner) * 1_000_000 == proposal.reserved_micros


def test_an_unavailable_provider_is_charged_nothing(owner, bank, fake_provider):
    fake_provider.set("unavailable")

    assert review(owner).stopped == "unavailable"
    (proposal,) = calls(owner)
    assert proposal.state == "failed" and proposal.charged_micros == 0
    assert spent_today(owner) == 0


def test_a_worker_killed_between_reservation_and_send_keeps_its_reservation(
    owner, bank, fake_provider, config
):
    prepared = prepare_proposal(owner, config=config)
    call = admit(
        owner,
        prepare=lambda: prepare_proposal(owner, config=config),
        expected=prepared,
        holder=HOLDER,
    )
    # The worker dies here. Recovery finds the call, keeps its charge and invents no usage.
    assert calls_recover(older_than_seconds=0) == 1
    call.refresh_from_db()
    assert call.state == "abandoned" and call.charged_micros is None and call.input_tokens is None
    assert spent_today(owner) * 1_000_000 == call.reserved_micros
    with pytest.raises(SendRefused):
        send(call, prepared.payload, config, timeout=DEADLINE)
    assert fake_provider.requests == 0


def test_a_call_is_sent_at_most_its_send_cap(owner, bank, fake_provider, config):
    prepared = prepare_proposal(owner, config=config)
    call = admit(
        owner,
        prepare=lambda: prepare_proposal(owner, config=config),
        expected=prepared,
        holder=HOLDER,
    )
    send(call, prepared.payload, config, timeout=DEADLINE)
    with pytest.raises(SendRefused):
        send(call, prepared.payload, config, timeout=DEADLINE)
    assert fake_provider.requests == 1


def test_admission_refuses_bytes_that_changed_since_preparation(owner, bank, fake_provider, config):
    prepared = prepare_proposal(owner, config=config)
    _remember(owner, "User's dog is called Pepper.", "My dog is called Pepper.", PEPPER)

    with pytest.raises(Refused) as refused:
        admit(
            owner,
            prepare=lambda: prepare_proposal(owner, config=config),
            expected=prepared,
            holder=HOLDER,
        )
    assert refused.value.error_class == "changed_since_preparation"
    assert calls(owner) == [] and spent_today() == 0


def test_admission_needs_the_callers_lease(owner, bank, config):
    prepared = prepare_proposal(owner, config=config)
    with pytest.raises(Refused) as refused:
        admit(
            owner,
            prepare=lambda: prepare_proposal(owner, config=config),
            expected=prepared,
            holder="someone-else",
        )
    assert refused.value.error_class == "lease_lost"


def test_one_owners_review_never_reads_another_owners_memories(
    owner, other_owner, bank, fake_provider
):
    _remember(other_owner, "User has a cat called Miso.", "I have a cat called Miso.", "pet:miso")
    _remember(other_owner, "User's cat is named Miso.", "My cat is named Miso.", "pet:miso")

    review(owner)

    assert "Miso" not in json.dumps(fake_provider.last_body)
    assert calls(other_owner) == []


def test_the_preview_shows_sizes_and_decisions_never_content_and_sends_nothing(
    owner, bank, fake_provider
):
    out = io.StringIO()
    call_command("reconsolidation_preview", "--owner", owner.username, stdout=out)

    printed = out.getvalue()
    assert "bytes, sha256" in printed and "left out (order_differs): 1" in printed
    assert "Pepper" not in printed and "dog" not in printed
    assert fake_provider.requests == 0 and calls(owner) == []
    assert OperatorAction.objects.filter(principal=owner, target="reconsolidation_preview").exists()


def test_revoking_the_capability_takes_its_merges_out_of_recall_and_keeps_them_for_the_owner(
    owner, bank, processing_on
):
    review(owner)

    def recalled():
        # The merge says "called", as one of its two memories does: it is given after that
        # one for the other's message (where both matched, it would add nothing to them).
        result = recall(principal=owner, query="called", include=["derived"])
        return [item.derived_kind for item in result.items if item.kind == "derived"]

    with derived_recall_evaluating():
        assert recalled() == ["merged"]
    # reconsolidation is on and certified; reconsolidation_provider is not.
    assert recalled() == []
    (kept,) = derived(owner)
    assert kept.assisted and kept.status == "active"


def test_the_maintenance_tick_runs_a_review_after_each_pass_while_the_capability_is_on(
    owner, bank, processing_on, monkeypatch
):
    lease_release(owner, HOLDER)
    monkeypatch.setattr(execution, "flag_enabled", lambda key: key == "reconsolidation_provider")

    report = reconsolidation_tick(holder=HOLDER)

    (entry,) = report.passes
    assert entry["assisted"]["merges"] == {"stopped": "", "calls": 2, "outcomes": {"applied": 1}}
    assert [d.assisted for d in derived(owner)] == [True]


def test_the_tick_runs_no_review_while_the_capability_is_off(owner, bank, processing_on):
    lease_release(owner, HOLDER)

    (entry,) = reconsolidation_tick(holder=HOLDER).passes

    assert "assisted" not in entry and calls(owner) == []


def test_groups_merged_already_are_not_asked_about_again(owner, bank, fake_provider):
    review(owner)
    assert fake_provider.requests == 2

    report = review(owner)

    assert report.stopped == "nothing_to_ask" and fake_provider.requests == 2
    assert len(derived(owner)) == 1
