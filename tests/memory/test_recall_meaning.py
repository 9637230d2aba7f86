"""Recall finds memories by meaning as well as by words, under the same rules.

The suite's embedder is the deterministic fake (``memory.embeddings.fake``): "pets" and
"dog" are one concept to it, as they are near for a real model, and texts about nothing
in common are far apart. ``tests/memory/test_local_embedder.py`` runs the real model.
"""

import pytest

from common.principal import principal_context
from memory.models import MemoryVector, VectorState
from memory.reach import Reach
from memory.selectors.recall import recall
from memory.services.beliefs import belief_correct, belief_delete, belief_reject
from memory.services.vectors import vectors_embed_principal, vectors_sweep

from .helpers import remember

PEPPER = "User has a dog named Pepper."


def texts(result):
    return [item.text for item in result.items]


def vectors_of(owner, belief):
    """How many vectors ``belief`` has."""
    with principal_context(owner):
        return MemoryVector.objects.filter(
            owner=owner, collection="belief", row_id=belief.pk
        ).count()


@pytest.fixture
def bank(owner):
    memories = {
        "pepper": remember(owner, PEPPER),
        "metric": remember(owner, "User prefers metric units."),
        "maria": remember(owner, "User has a wife named Maria."),
        "penicillin": remember(owner, "User is allergic to penicillin."),
    }
    vectors_embed_principal(principal=owner)
    return memories


def test_a_question_sharing_no_word_with_a_memory_finds_it_by_meaning(owner, bank):
    result = recall(principal=owner, query="Do I have any pets?")

    assert texts(result)[0] == PEPPER
    assert result.terms == ["pets"]


def test_with_embeddings_off_the_same_question_finds_nothing(owner, bank, settings):
    settings.REVERIE_EMBEDDINGS = {**settings.REVERIE_EMBEDDINGS, "mode": "off"}

    assert texts(recall(principal=owner, query="Do I have any pets?")) == []
    assert texts(recall(principal=owner, query="dog")) == [PEPPER]


def test_words_and_meaning_fuse_into_one_ranking(owner, bank):
    # "wife" is a word of one memory and, to the fake, the meaning of none but that one.
    result = recall(principal=owner, query="What is my partner called? My wife!")

    assert texts(result)[0] == "User has a wife named Maria."
    assert len(set(texts(result))) == len(texts(result))


def test_a_question_whose_answer_is_not_there_gets_nothing_below_the_floor(owner, bank):
    assert texts(recall(principal=owner, query="What is the capital of France?")) == []


def test_a_memory_just_remembered_is_found_by_meaning_once_its_write_commits(
    owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pepper = remember(owner, PEPPER)

    assert vectors_of(owner, pepper) == 1
    assert texts(recall(principal=owner, query="Any pets?")) == [PEPPER]


def test_another_owners_memories_are_never_found_by_meaning(owner, other_owner, bank):
    remember(other_owner, "User has a cat named Biscuit.")
    vectors_embed_principal(principal=other_owner)

    assert "User has a cat named Biscuit." not in texts(recall(principal=owner, query="pets?"))
    assert texts(recall(principal=other_owner, query="pets?")) == ["User has a cat named Biscuit."]


def test_a_token_narrowed_to_one_assistant_finds_by_meaning_only_what_it_sees(owner):
    shared = remember(owner, PEPPER)
    remember(owner, "User has a cat named Biscuit.", scope="assistant:phone")
    remember(owner, "User has a parrot named Lola.", scope="assistant:ide")
    vectors_embed_principal(principal=owner)
    ide = Reach(scopes=("principal", "assistant:ide"))

    found = texts(recall(principal=owner, query="Do I have any pets?", reach=ide))

    assert sorted(found) == sorted([shared.statement, "User has a parrot named Lola."])


def test_a_token_kept_from_sensitive_memories_finds_none_of_them_by_meaning(owner):
    remember(owner, "User is allergic to penicillin.", sensitivity="sensitive")
    remember(owner, "User reacts badly to antibiotics.")
    vectors_embed_principal(principal=owner)
    discreet = Reach(include_sensitive=False)

    assert texts(recall(principal=owner, query="Any medicine I react to?", reach=discreet)) == [
        "User reacts badly to antibiotics."
    ]
    assert len(recall(principal=owner, query="Any medicine I react to?").items) == 2


def test_an_erased_memory_loses_its_vector_and_is_no_longer_found_by_meaning(owner, bank):
    assert vectors_of(owner, bank["pepper"]) == 1

    belief_delete(principal=owner, belief_id=bank["pepper"].public_id, expected_revision=1)

    assert vectors_of(owner, bank["pepper"]) == 0
    assert PEPPER not in texts(recall(principal=owner, query="Do I have any pets?"))


def test_a_rejected_memory_is_not_found_by_meaning(owner, bank):
    belief_reject(principal=owner, belief_id=bank["pepper"].public_id, expected_revision=1)

    assert PEPPER not in texts(recall(principal=owner, query="Do I have any pets?"))


def test_a_correction_is_embedded_and_found_by_meaning_in_place_of_the_old_memory(
    owner, bank, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        corrected = belief_correct(
            principal=owner,
            belief_id=bank["pepper"].public_id,
            expected_revision=1,
            statement="User has a cat named Pepper.",
        )

    assert vectors_of(owner, corrected) == 1
    assert vectors_of(owner, bank["pepper"]) == 0
    assert texts(recall(principal=owner, query="Do I have any pets?")) == [corrected.statement]


def test_memories_written_in_the_background_wait_for_the_sweep(owner):
    pepper = remember(owner, PEPPER)
    state = VectorState.objects.get(owner=owner)

    assert state.due_at is not None and vectors_of(owner, pepper) == 0
    assert texts(recall(principal=owner, query="pets?")) == []

    assert vectors_sweep() == 1

    state.refresh_from_db()
    assert state.due_at is None and state.embedder == "fake-meanings/1"
    assert texts(recall(principal=owner, query="pets?")) == [PEPPER]
    assert vectors_sweep() == 0


def test_a_memory_written_while_the_sweep_finished_keeps_the_principal_waiting(owner, monkeypatch):
    from memory.services import vectors

    remember(owner, PEPPER)
    record = vectors._record_complete

    def written_meanwhile(principal, signature, started):
        # Committed after the sweep's last look, while the principal was still marked.
        remember(owner, "User has a cat named Biscuit.")
        record(principal, signature, started)

    monkeypatch.setattr(vectors, "_record_complete", written_meanwhile)
    vectors_sweep()
    monkeypatch.setattr(vectors, "_record_complete", record)

    assert VectorState.objects.get(owner=owner).due_at is not None
    assert vectors_sweep() == 1
    assert sorted(texts(recall(principal=owner, query="pets?"))) == sorted(
        [PEPPER, "User has a cat named Biscuit."]
    )


def test_a_new_embedder_embeds_everything_again_and_its_vectors_replace_the_old(
    owner, bank, settings, monkeypatch
):
    monkeypatch.setattr("memory.embeddings.fake.FakeEmbedder.key", "fake-meanings/2")

    assert texts(recall(principal=owner, query="pets?")) == []
    assert vectors_sweep() == len(bank)

    with principal_context(owner):
        assert set(MemoryVector.objects.values_list("embedder", flat=True)) == {"fake-meanings/2"}
    assert texts(recall(principal=owner, query="pets?")) == [PEPPER]


def test_a_vector_of_text_erased_while_it_was_embedded_is_never_stored(owner, monkeypatch):
    pepper = remember(owner, PEPPER)
    from memory.embeddings.fake import FakeEmbedder

    embed = FakeEmbedder.passages

    def erasing_meanwhile(self, texts, **kwargs):
        belief_delete(principal=owner, belief_id=pepper.public_id, expected_revision=1)
        return embed(self, texts, **kwargs)

    monkeypatch.setattr(FakeEmbedder, "passages", erasing_meanwhile)

    vectors_embed_principal(principal=owner)

    with principal_context(owner):
        assert not MemoryVector.objects.filter(owner=owner).exists()


def test_asking_what_is_known_about_oneself_answers_with_the_profile(owner, bank):
    from memory.services.records import create_belief

    with principal_context(owner):
        inferred = create_belief(
            principal=owner,
            action="remembered",
            actor="system",
            type="preference",
            subject="pref:tea",
            statement="User drinks jasmine tea.",
            authority="inferred",
            status="provisional",
            confidence=0.5,
        )

    result = recall(principal=owner, query="What do you know about me?")

    assert result.profile
    assert sorted(texts(result)[:4]) == sorted(belief.statement for belief in bank.values())
    assert texts(result)[4:] == [inferred.statement]


@pytest.mark.parametrize(
    "query", ["Tell me about myself.", "Who am I?", "What do you remember about me so far?"]
)
def test_the_profile_is_asked_for_in_everyday_words(owner, bank, query):
    assert recall(principal=owner, query=query).profile


@pytest.mark.parametrize("query", ["What do you know about my dog?", "Who am I meeting today?"])
def test_a_question_about_one_thing_is_no_request_for_the_profile(owner, bank, query):
    assert not recall(principal=owner, query=query).profile


def test_the_profile_keeps_to_the_reach_and_the_budget(owner, bank):
    remember(owner, "User is seeing a therapist.", sensitivity="sensitive")

    result = recall(
        principal=owner,
        query="What do you know about me?",
        reach=Reach(include_sensitive=False),
        budget_chars=60,
    )

    assert "User is seeing a therapist." not in texts(result)
    assert result.chars <= 60 and result.truncated
