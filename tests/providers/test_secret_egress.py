"""No secret leaves for a provider: the egress redaction over the shipped corpus of secrets
and near misses, the owner's messages and the known memories of a real call, and a
provider that echoes a password back."""

import json

import pytest

from common.principal import principal_context
from formation.extractor import DeterministicExtractor
from formation.hybrid import HybridExtractor
from formation.services import formation_consolidate
from memory.models import Belief, BeliefSource
from memory.selectors.recall import recall
from providers.egress import outgoing_text
from tests.memory.helpers import conversation, remember
from tests.memory.secrets_corpus import ALL, SECRETS, left_in


def consolidate(principal, session):
    return formation_consolidate(
        principal=principal,
        session_id=session.public_id,
        extractor=HybridExtractor(DeterministicExtractor()),
    )


@pytest.mark.parametrize("line", ALL)
def test_outgoing_text_holds_no_secret_and_leaves_near_misses_alone(line):
    sent = outgoing_text(line["text"])

    if line["secret"]:
        assert left_in(sent, line) == [] and "[redacted]" in sent
    else:
        assert sent == line["text"]


@pytest.mark.parametrize("line", SECRETS)
def test_a_call_carries_no_secret_from_a_message_or_an_older_memory(
    owner, provider_settings, fake_provider, line
):
    legacy = remember(owner, "User keeps a note.")
    with principal_context(owner):
        # Written before today's gates: stored memories are not trusted either.
        Belief.objects.filter(pk=legacy.pk).update(statement=line["text"])
    session, _ = conversation(owner, "I own a Kindle.", line["text"])

    consolidate(owner, session)

    assert fake_provider.requests == 1
    assert left_in(json.dumps(fake_provider.last_body, ensure_ascii=False), line) == []


def test_a_provider_echoing_a_password_forms_recalls_and_resends_nothing_of_it(
    owner, provider_settings, fake_provider
):
    session, _ = conversation(owner, "password Winter2025", "I adopted a cat last spring.")
    fake_provider.set("secret_echo")

    consolidate(owner, session)

    with principal_context(owner):
        kept = list(Belief.objects.values_list("statement", flat=True)) + list(
            BeliefSource.objects.values_list("excerpt", flat=True)
        )
    assert not any("Winter2025" in text for text in kept)
    shown = recall(principal=owner, query="password everywhere").items
    assert not any("Winter2025" in item.text for item in shown)
    later, _ = conversation(owner, "I started learning Portuguese.")
    consolidate(owner, later)
    assert "Winter2025" not in json.dumps(fake_provider.last_body)
