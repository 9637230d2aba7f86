"""Whatever a provider answers, it cannot break formation: a proposal carrying NUL, control or
bidirectional formatting characters is refused on its own while the rest of the consolidation
stands, on either database."""

import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.hybrid import HybridExtractor
from formation.models import ExtractionAudit, FormationAudit
from formation.services import formation_consolidate
from memory.models import Belief
from providers.ledger import spent_today
from providers.models import ProviderPause
from tests.memory.helpers import conversation

MISO = "I adopted a cat named Miso."
KINDLE = "I own a Kindle."
PORTUGUESE = "I started learning Portuguese in 2024."


def consolidate(principal, session):
    return formation_consolidate(
        principal=principal,
        session_id=session.public_id,
        extractor=HybridExtractor(DeterministicExtractor()),
    )


def statements(principal):
    with principal_context(principal):
        return {
            belief.statement: belief.model_proposed
            for belief in Belief.objects.filter(owner=principal)
        }


def extraction(principal):
    with principal_context(principal):
        (audit,) = ExtractionAudit.objects.filter(owner=principal)
        return audit


def proposal(event, subject, statement):
    return {
        "type": "fact",
        "subject": subject,
        "statement": statement,
        "polarity": "positive",
        "source_ids": [str(event.public_id)],
    }


def test_a_nul_in_one_proposal_refuses_that_proposal_and_nothing_else(
    owner, provider_settings, fake_provider
):
    session, _ = conversation(owner, MISO, KINDLE)
    fake_provider.set("nul")

    formation = consolidate(owner, session)

    assert formation.outcome == FormationAudit.Outcome.COMMITTED
    formed = statements(owner)
    assert not any("\x00" in statement for statement in formed)
    # The deterministic memories and the model's clean proposal all stand.
    assert any("Kindle" in statement for statement in formed)
    assert formed.get("User adopted a cat named Miso.") is not None
    audit = extraction(owner)
    assert (audit.fallback, audit.returned_count) == (False, 3)
    assert audit.dropped.get("unsafe_characters") == 1


@pytest.mark.parametrize(
    "character",
    [
        "\x00",
        "\x07",
        "\x1b",
        "\t",
        "\n",
        "\x7f",
        "\x85",
        "\u202a",
        "\u202e",
        "\u2066",
        "\u2069",
        "\u200e",
        "\u200f",
    ],
)
@pytest.mark.parametrize("field", ["statement", "subject"])
def test_control_and_bidirectional_characters_refuse_the_proposal_alone(
    owner, provider_settings, fake_provider, character, field
):
    session, (miso, portuguese) = conversation(owner, MISO, PORTUGUESE)
    tainted = proposal(portuguese, "skill:portuguese", "User started learning Portuguese in 2024.")
    # Where the character splits no word, so that grounding alone would let it through.
    tainted[field] = (
        tainted[field]
        .replace("Portuguese", f"{character}Portuguese")
        .replace(":portuguese", f":{character}portuguese")
    )
    fake_provider.set(
        "valid",
        proposals=[tainted, proposal(miso, "pet:miso", "User adopted a cat named Miso.")],
    )

    consolidate(owner, session)

    assert statements(owner).get("User adopted a cat named Miso.") is True
    with principal_context(owner):
        stored = Belief.objects.filter(owner=owner).values_list("subject", "statement")
        assert not any(character in subject + statement for subject, statement in stored)
    assert extraction(owner).dropped == {"unsafe_characters": 1}


# The most a call of formation's budget can cost at these prices: 16,384 input tokens at
# $0.15 and 4,096 output tokens at $15 per million, rounded up to the micro-dollar.
RESERVED_AT_FIFTEEN = Decimal("0.063898")


@pytest.mark.parametrize("output_price", [0.60, 15.0])
def test_an_absurd_usage_is_charged_the_reservation_and_formation_stands(
    owner, provider_settings, fake_provider, output_price
):
    provider_settings.REVERIE_PROVIDER = {
        **provider_settings.REVERIE_PROVIDER,
        "output_price": output_price,
    }
    session, _ = conversation(owner, MISO, KINDLE)
    fake_provider.set("absurd_usage")

    formation = consolidate(owner, session)

    assert formation.outcome == FormationAudit.Outcome.COMMITTED
    assert any("Kindle" in statement for statement in statements(owner))
    audit = extraction(owner)
    assert (audit.fallback, audit.error_class) == (True, "absurd_usage")
    reserved = Decimal("0.004916") if output_price == 0.60 else RESERVED_AT_FIFTEEN
    assert spent_today(owner) == reserved
    assert fake_provider.requests == 1


def test_a_dripping_reply_falls_back_at_the_deadline_and_keeps_its_reservation(
    owner, provider_settings, fake_provider, short_deadline
):
    session, _ = conversation(owner, MISO, KINDLE)
    # A byte every half second: never a read timeout, minutes for the whole reply.
    fake_provider.delay = 0.5
    fake_provider.set("drip")
    started = time.monotonic()

    formation = consolidate(owner, session)

    # Generous: reading the drip to its end would take minutes.
    assert time.monotonic() - started < 20
    assert formation.outcome == FormationAudit.Outcome.COMMITTED
    assert any("Kindle" in statement for statement in statements(owner))
    assert (extraction(owner).fallback, extraction(owner).error_class) == (True, "timeout")
    assert spent_today(owner) == Decimal("0.004916")


def test_retry_after_holds_every_call_to_the_provider_until_it_has_passed(
    owner, provider_settings, fake_provider
):
    fake_provider.set("retry_after")
    first, _ = conversation(owner, MISO)
    consolidate(owner, first)
    assert fake_provider.requests == 1

    fake_provider.set("valid")
    second, _ = conversation(owner, KINDLE)
    formation = consolidate(owner, second)

    # Not sent: the provider asked for two minutes. The deterministic memories stand.
    assert fake_provider.requests == 1
    assert formation.outcome == FormationAudit.Outcome.COMMITTED
    assert any("Kindle" in statement for statement in statements(owner))
    with principal_context(owner):
        errors = list(
            ExtractionAudit.objects.filter(owner=owner)
            .order_by("created_at", "id")
            .values_list("error_class", flat=True)
        )
    assert errors == ["rate_limited", "retry_after"]
    assert spent_today(owner) == 0

    ProviderPause.objects.update(not_before=timezone.now() - timedelta(seconds=1))
    third, _ = conversation(owner, PORTUGUESE)
    consolidate(owner, third)
    assert fake_provider.requests == 2
