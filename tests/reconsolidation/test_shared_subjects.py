"""What the owner said about one name in different sessions is summarised together, and a
replayed bank judges hypothesis lifetimes by its own newest evidence."""

from datetime import UTC, datetime, timedelta

from common.principal import principal_context
from memory.models import BeliefSource
from memory.selectors.recall import recall
from memory.services.sessions import session_create
from reconsolidation.models import DerivedMemory
from reconsolidation.selectors.recall import derived_recall, derived_recall_evaluating
from reconsolidation.services.passes import reconsolidation_pass
from tests.memory.helpers import remember, say

RECORDED = datetime(2023, 5, 1, tzinfo=UTC)


def noted(owner, statement, subject, *, text=None, occurred_at=None):
    """A memory of ``subject`` from a message of a session of its own."""
    event = say(owner, session_create(principal=owner), text or statement, occurred_at=occurred_at)
    return remember(owner, statement, subject=subject, sources=[event])


def derived(owner, kind):
    with principal_context(owner):
        return list(
            DerivedMemory.objects.filter(owner=owner, kind=kind, status="active").order_by("id")
        )


def test_memories_of_different_subjects_naming_one_person_by_full_name_are_summarised_together(
    owner,
):
    noted(owner, "User went hiking with Maya Lopez.", "event:hiking")
    noted(owner, "User gave Maya Lopez a book.", "event:gave-book")
    noted(owner, "User met Maya Lopez at the climbing gym.", "event:climbing-gym")
    noted(owner, "User went hiking with Jonas.", "event:hiking-jonas")

    reconsolidation_pass(principal=owner)

    (summary,) = derived(owner, "summary")
    assert summary.subject == "entity:maya-lopez"
    assert summary.statement == (
        "About Maya Lopez: User went hiking with Maya Lopez; User gave Maya Lopez a book; "
        "User met Maya Lopez at the climbing gym."
    )


def test_memories_that_share_only_a_first_name_are_not_summarised_together(owner):
    noted(owner, "User went hiking with Maya.", "event:hiking")
    noted(owner, "User gave Maya a book.", "event:gave-book")
    noted(owner, "User met Maya at the climbing gym.", "event:climbing-gym")

    reconsolidation_pass(principal=owner)

    assert derived(owner, "summary") == []


def test_different_names_and_pronouns_are_never_summarised_together(owner):
    noted(owner, "User went hiking with Maya.", "event:hiking")
    noted(owner, "User gave Mia a book.", "event:gave-book")
    noted(owner, "User met her at the climbing gym.", "event:climbing-gym")

    reconsolidation_pass(principal=owner)

    assert derived(owner, "summary") == []


def test_a_name_only_one_subject_uses_is_left_to_that_subjects_summary(owner):
    for statement in ("User owns a Kindle.", "User reads on the Kindle.", "User lost the Kindle."):
        noted(owner, statement, "device:kindle")

    reconsolidation_pass(principal=owner)

    assert [s.subject for s in derived(owner, "summary")] == ["device:kindle"]


def recorded_watch_and_run(owner):
    noted(owner, "User owns an Apple Watch.", "device:apple-watch", occurred_at=RECORDED)
    noted(
        owner,
        "User runs with the Apple Watch every morning.",
        "topic:running",
        occurred_at=RECORDED + timedelta(days=3),
    )


def test_on_the_wall_clock_a_connection_between_old_memories_is_past_its_lifetime(owner):
    recorded_watch_and_run(owner)

    reconsolidation_pass(principal=owner)

    assert derived(owner, "hypothesis") == []


def test_a_replay_counts_the_lifetime_from_the_banks_newest_evidence(owner):
    recorded_watch_and_run(owner)
    newest = RECORDED + timedelta(days=3)

    reconsolidation_pass(principal=owner, now=newest)

    (hypothesis,) = derived(owner, "hypothesis")
    assert (hypothesis.evidence_at, hypothesis.expires_at) == (newest, newest + timedelta(days=30))
    # Recall judges it by the same clock in the replay, and by the wall clock otherwise.
    with derived_recall_evaluating(now=newest):
        assert [i.id for i in derived_recall(owner, ["watch"], None, 10)] == [
            str(hypothesis.public_id)
        ]
    with derived_recall_evaluating():
        assert derived_recall(owner, ["watch"], None, 10) == []


def test_a_replay_clock_still_ends_hypotheses_past_their_lifetime(owner):
    recorded_watch_and_run(owner)
    reconsolidation_pass(principal=owner, now=RECORDED + timedelta(days=3))

    reconsolidation_pass(principal=owner, now=RECORDED + timedelta(days=40))

    assert derived(owner, "hypothesis") == []


def test_a_summary_of_a_name_over_other_memories_replaces_the_earlier_one(owner):
    from reconsolidation.planners.summaries import plan_entity_summaries
    from reconsolidation.selectors.sources import source_views
    from reconsolidation.services.operations import Outcome, operations_apply

    first = [
        noted(owner, "User went hiking with Maya Lopez.", "event:hiking"),
        noted(owner, "User gave Maya Lopez a book.", "event:gave-book"),
        noted(owner, "User met Maya Lopez at the climbing gym.", "event:climbing-gym"),
    ]
    later = [
        noted(owner, "User cooked dinner for Maya Lopez.", "event:dinner"),
        noted(owner, "User taught Maya Lopez to swim.", "event:swim"),
        noted(owner, "User visited Maya Lopez in Porto.", "event:porto"),
    ]

    def apply(beliefs):
        with principal_context(owner):
            views = source_views(owner, pk__in=[belief.pk for belief in beliefs])
        return operations_apply(principal=owner, plans=plan_entity_summaries(views))

    assert apply(first) == [Outcome.APPLIED]
    # A plan that holds none of the earlier summary's memories (another slice's view).
    assert apply(later) == [Outcome.APPLIED]

    (summary,) = derived(owner, "summary")
    assert "cooked dinner" in summary.statement and "hiking" not in summary.statement


def test_a_subjects_summary_and_a_names_summary_over_one_memory_both_stand(owner):
    for statement in (
        "User went hiking with Maya Lopez.",
        "User goes hiking every Sunday.",
        "User bought hiking boots.",
    ):
        noted(owner, statement, "hobby:hiking")
    noted(owner, "User gave Maya Lopez a book.", "event:gave-book")
    noted(owner, "User met Maya Lopez at the climbing gym.", "event:climbing-gym")

    reconsolidation_pass(principal=owner)
    # The subject gains a memory: its summary is replaced, and nothing else.
    noted(owner, "User hiked the Rainier trail.", "hobby:hiking")
    for _ in range(3):
        reconsolidation_pass(principal=owner)

    summaries = derived(owner, "summary")
    assert sorted(summary.subject for summary in summaries) == ["entity:maya-lopez", "hobby:hiking"]
    with principal_context(owner):
        replaced = DerivedMemory.objects.filter(owner=owner, status="invalidated")
        assert [summary.subject for summary in replaced] == ["hobby:hiking"]


def test_an_activity_named_in_several_sessions_is_summarised_and_recalled_with_each_message(owner):
    beliefs = [
        noted(owner, "User signed up for a pottery class.", "event:pottery-class"),
        noted(owner, "User likes pottery.", "topic:pottery"),
        noted(owner, "User finished another pottery project.", "outcome:pottery-project"),
    ]

    reconsolidation_pass(principal=owner)

    (summary,) = derived(owner, "summary")
    assert summary.subject == "entity:pottery"
    assert summary.statement.startswith("About pottery: User signed up for a pottery class;")
    # A question that matches one of its memories finds that memory, then the summary, and
    # through its lineage every message its memories were formed from.
    with derived_recall_evaluating():
        result = recall(principal=owner, query="project", include=["derived"])
    (memory, item) = [
        item
        for item in result.items
        if item.id == str(beliefs[2].public_id) or item.derived_kind == "summary"
    ]
    assert (memory.kind, item.kind) == ("belief", "derived")
    with principal_context(owner):
        messages = {
            str(source.event.public_id)
            for belief in beliefs
            for source in BeliefSource.objects.filter(owner=owner, belief=belief)
        }
    assert {source.event_id for source in item.sources} == messages
    assert len(messages) == 3


def test_words_of_one_compound_are_summarised_once_across_passes(owner):
    noted(owner, "User made vegan ice cream.", "event:vegan-ice-cream")
    noted(owner, "User made their friend some ice cream.", "event:friend-ice-cream")
    noted(owner, "User likes ice cream.", "topic:ice-cream")

    for _ in range(3):
        reconsolidation_pass(principal=owner)

    assert [summary.subject for summary in derived(owner, "summary")] == ["entity:cream"]
    with principal_context(owner):
        assert not DerivedMemory.objects.filter(owner=owner, status="invalidated").exists()


def test_names_past_a_slices_lookups_are_reached_by_later_passes(owner, monkeypatch):
    monkeypatch.setattr("reconsolidation.selectors.summaries.ENTITIES_PER_SLICE", 1)
    for statement, subject in (
        ("User signed up for a pottery class.", "event:pottery-class"),
        ("User likes pottery.", "topic:pottery"),
        ("User finished another pottery project.", "outcome:pottery-project"),
        ("User went camping in the forest.", "event:camping-forest"),
        ("User likes camping.", "topic:camping"),
        ("User went camping with their family.", "event:camping-family"),
    ):
        noted(owner, statement, subject)

    # One lookup per slice: a name already summarised costs none, so the other's turn comes.
    for _ in range(4):
        reconsolidation_pass(principal=owner)

    assert sorted(summary.subject for summary in derived(owner, "summary")) == [
        "entity:camping",
        "entity:pottery",
    ]
