"""A provider that proposes everything and a verifier that says yes to everything: what stands
is what local rules admit. Merges never join opposite or contrasting claims or different
objects, the contradicting pairs get notices, and a topic stands only over memories that
share its words."""

import pytest

from common.principal import principal_context
from reconsolidation.assisted import admission
from reconsolidation.assisted.execution import assisted_review, topic_review
from reconsolidation.assisted.fake_answers import YES_TO_EVERYTHING
from reconsolidation.models import DerivedMemory
from reconsolidation.services.passes import lease_acquire, lease_release, reconsolidation_pass
from tests.memory.helpers import conversation, remember

HOLDER = "test-holder"

# Pairs of one subject that a yes-verifier would call one claim.
FALSE_MERGES = {
    "vehicle:red-bicycle": ("User owns a red bicycle.", "User sold a red bicycle."),
    "person:family-doctor": ("User trusts the family doctor.", "User distrusts the family doctor."),
    "org:animal-shelter": (
        "User works at the Riverside animal shelter.",
        "User volunteers at the Riverside animal shelter.",
    ),
    "food:tea": ("User takes honey in their tea.", "User takes milk in their tea."),
}
# Of those, the pairs that contradict each other.
CONTRADICTING = {"vehicle:red-bicycle", "person:family-doctor", "org:animal-shelter"}


@pytest.fixture(autouse=True)
def capability_on(monkeypatch):
    monkeypatch.setattr(admission, "flag_enabled", lambda key: True)


def _remember(owner, statement, subject, message=None):
    _, (event,) = conversation(owner, message or statement.replace("User", "I"))
    # One label for all: the classifier tells work from volunteering, and a pair with two
    # labels is never a candidate, so only the rules under test keep these apart.
    return remember(owner, statement, subject=subject, sources=[event], sensitivity="personal")


def active(owner, kind):
    with principal_context(owner):
        return list(DerivedMemory.objects.filter(owner=owner, kind=kind, status="active"))


def lineage(owner, derived):
    with principal_context(owner):
        return set(derived.lineage.values_list("belief_id", flat=True))


@pytest.fixture
def careless(fake_provider):
    fake_provider.set(YES_TO_EVERYTHING)
    return fake_provider


def test_a_yes_verifier_merges_a_paraphrase_but_nothing_a_local_rule_keeps_apart(
    owner, provider_settings, careless
):
    pairs = {
        subject: [_remember(owner, statement, subject) for statement in statements]
        for subject, statements in FALSE_MERGES.items()
    }
    called = _remember(owner, "User has a dog called Pepper.", "pet:pepper")
    named = _remember(owner, "User's dog is named Pepper.", "pet:pepper")
    assert lease_acquire(owner, HOLDER)

    report = assisted_review(owner, holder=HOLDER, deadline_seconds=30)

    (merged,) = active(owner, "merged")
    assert lineage(owner, merged) == {called.pk, named.pk}
    assert report.excluded == {"contrasting_predicates": 3, "objects_differ": 1}
    assert all(len(beliefs) == 2 for beliefs in pairs.values())


def test_the_pairs_that_contradict_get_notices(owner, provider_settings, careless):
    pairs = {
        subject: {_remember(owner, statement, subject).pk for statement in statements}
        for subject, statements in FALSE_MERGES.items()
    }
    assert lease_acquire(owner, HOLDER)
    assisted_review(owner, holder=HOLDER, deadline_seconds=30)
    lease_release(owner, HOLDER)

    reconsolidation_pass(principal=owner)

    assert active(owner, "merged") == []
    noticed = sorted(notice.subject for notice in active(owner, "uncertainty_notice"))
    assert noticed == sorted(CONTRADICTING)
    for notice in active(owner, "uncertainty_notice"):
        assert lineage(owner, notice) == pairs[notice.subject]


@pytest.mark.parametrize(
    "topic, memories",
    [
        (
            "hospital",
            [
                ("User's bicycle was stolen outside the hospital.", "vehicle:bicycle"),
                ("User trusts the family doctor.", "person:family-doctor"),
                ("User's sister Ines is a nurse.", "person:ines"),
            ],
        ),
        (
            "green tea",
            [
                ("User drinks green tea every afternoon.", "food:green-tea"),
                ("User bakes rye bread on Sundays.", "food:rye-bread"),
                ("User buys rye bread at the farmers market.", "place:farmers-market"),
            ],
        ),
    ],
)
def test_a_topic_stands_only_over_memories_that_share_its_words(
    owner, provider_settings, careless, topic, memories
):
    for statement, subject in memories:
        _remember(owner, statement, subject)
    careless.set(
        YES_TO_EVERYTHING, topics=[{"block": "b1", "topic": topic, "memories": ["m1", "m2", "m3"]}]
    )
    assert lease_acquire(owner, HOLDER)

    report = topic_review(owner, holder=HOLDER, deadline_seconds=30)

    assert active(owner, "summary") == []
    assert report.stopped == "nothing_admitted"


def test_a_topic_whose_memories_share_its_word_in_any_form_stands(
    owner, provider_settings, careless
):
    for statement, subject in [
        ("User goes running every morning.", "habit:run"),
        ("User bought new running shoes.", "object:shoes"),
        ("User runs with the club on Thursdays.", "org:club"),
    ]:
        _remember(owner, statement, subject)
    careless.set(
        YES_TO_EVERYTHING,
        topics=[{"block": "b1", "topic": "running", "memories": ["m1", "m2", "m3"]}],
    )
    assert lease_acquire(owner, HOLDER)

    report = topic_review(owner, holder=HOLDER, deadline_seconds=30)

    assert report.outcomes == {"applied": 1}
    (summary,) = active(owner, "summary")
    assert summary.subject == "topic:running"
