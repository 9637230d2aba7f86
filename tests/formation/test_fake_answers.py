"""The fake provider's misbehaving formation modes, and the local rules that refuse each."""

import pytest

from formation.fake_answers import ANSWERS
from formation.grounding import grounding_failure
from formation.instructions import refused_family
from formation.model_proposals import SCHEMA_NAME
from providers.fake import FakeRequest

KNOWN = [
    {
        "subject": "pref:metric-units",
        "type": "preference",
        "statement": "User prefers metric units.",
    },
    {"subject": "pet:cat-miso", "type": "fact", "statement": "User has a cat named Miso."},
]
MESSAGES = [
    {"id": "m1", "text": "The kitchen scale shows grams now. I still think in metric units."},
    {"id": "m2", "text": "My cat Miso loves the new flat."},
]


def answer(behaviour):
    request = FakeRequest(
        schema=SCHEMA_NAME,
        behaviour=behaviour,
        user={"messages": MESSAGES, "known_memories": KNOWN},
        scripts={},
    )
    return ANSWERS[SCHEMA_NAME].answer(request)["proposals"]


def grounding(proposal):
    texts = {message["id"]: message["text"] for message in MESSAGES}
    known = {memory["subject"] for memory in KNOWN}
    return grounding_failure(
        subject=proposal["subject"],
        statement=proposal["statement"],
        cited_texts=[texts[source] for source in proposal["source_ids"]],
        negative=proposal["polarity"] == "negative",
        replaces=proposal["subject"] in known,
    )


def test_overrule_by_negation_retracts_each_known_memory_citing_a_message_about_it():
    proposals = answer("overrule_by_negation")

    assert [(p["subject"], p["statement"], p["polarity"], p["source_ids"]) for p in proposals] == [
        ("pref:metric-units", "User no longer prefers metric units.", "negative", ["m1"]),
        ("pet:cat-miso", "User no longer has a cat named Miso.", "negative", ["m2"]),
    ]
    assert [grounding(p) for p in proposals] == ["ungrounded_claim", "no_ending"]


def test_fabrication_invents_a_claim_on_each_known_subject_a_message_names():
    proposals = answer("fabrication")

    assert [(p["subject"], p["statement"], p["source_ids"]) for p in proposals] == [
        ("pref:metric-units", "User hates metric units and wants to give it away.", ["m1"]),
        ("pet:cat-miso", "User hates cat miso and wants to give it away.", ["m2"]),
    ]
    assert [grounding(p) for p in proposals] == ["ungrounded_claim", "ungrounded_claim"]


@pytest.mark.parametrize("proposal", answer("paraphrased_instruction"))
def test_paraphrased_instructions_are_refused_whatever_grounding_says(proposal):
    assert refused_family(proposal["statement"])
