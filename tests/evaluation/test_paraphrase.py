"""The paraphrase set: frozen, scored from what recall gave, and reported beside LoCoMo."""

import json
import shutil

import pytest
from django.core.management import CommandError, call_command

from evaluation.paraphrase import (
    PARAPHRASE,
    SPLITS,
    ParaphraseError,
    category,
    paraphrase_metrics,
    read_paraphrase,
)


@pytest.fixture(scope="module")
def frozen():
    return read_paraphrase()


def test_the_shipped_set_is_the_frozen_one_and_large_enough_to_decide_on(frozen):
    memories = [memory for person in frozen.people for memory in person.memories]
    questions = [question for person in frozen.people for question in person.questions]

    assert len(memories) >= 80 and len(questions) >= 120 and len(frozen.people) >= 2
    for split in SPLITS:
        people = [person for person in frozen.people if person.split == split]
        kinds = {category(q, p.memories) for p in people for q in p.questions}
        assert kinds == {"shares_words", "no_shared_words", "no_answer", "profile"}, split


def test_a_set_changed_after_it_was_frozen_is_refused(tmp_path):
    changed = tmp_path / "paraphrase.json"
    shutil.copy(PARAPHRASE, changed)
    changed.write_text(changed.read_text().replace("Biscuit", "Biscotti"))

    with pytest.raises(ParaphraseError, match="not the frozen paraphrase set"):
        read_paraphrase(changed)
    assert read_paraphrase(changed, digest=None).people


def test_a_question_shares_words_with_its_answer_as_full_text_matching_would(frozen):
    helena = next(person for person in frozen.people if person.name == "helena")
    by_text = {question.text: question for question in helena.questions}

    # "live" meets "lives"; "pets" never meets "cat".
    assert category(by_text["Which city do I live in?"], helena.memories) == "shares_words"
    assert category(by_text["Do I have any pets?"], helena.memories) == "no_shared_words"
    assert category(by_text["What's my blood type?"], helena.memories) == "no_answer"
    assert category(by_text["Tell me about myself."], helena.memories) == "profile"


def observed(dataset, answer):
    """An observation of every question, the memories ``answer(person, question)`` gives."""
    return [
        {
            "question_id": question.id,
            "memories": answer(person, question),
            "kinds": [],
            "profile": question.profile,
        }
        for person in dataset.people
        for question in person.questions
    ]


def test_the_scores_count_a_right_memory_in_the_first_three_and_nothing_else(frozen):
    def right_third(person, question):
        if question.profile:
            return [memory.id for memory in person.memories]
        decoys = [m.id for m in person.memories if m.id not in question.answers][:2]
        return [*decoys, *question.answers[:1]]

    perfect = paraphrase_metrics(frozen, observed(frozen, right_third))
    empty = paraphrase_metrics(frozen, observed(frozen, lambda person, question: []))

    assert perfect["hit@3"] == 1.0 and perfect["hit@1"] == 0.0
    assert perfect["no_answer_answered"] == 1.0 and perfect["profile_answered"] == 1.0
    assert perfect["misses"] == []
    assert empty["hit@3"] == 0.0 and empty["no_answer_answered"] == 0.0
    assert empty["profile_answered"] == 0.0
    assert {split: figures["questions"] for split, figures in perfect["splits"].items()} == {
        split: sum(1 for p in frozen.people if p.split == split for q in p.questions if q.answers)
        for split in SPLITS
    }


def test_a_profile_that_holds_another_persons_memory_is_no_profile(frozen):
    def mixed(person, question):
        return ["xm99", *(m.id for m in person.memories)] if question.profile else []

    assert paraphrase_metrics(frozen, observed(frozen, mixed))["profile_answered"] == 0.0


def test_a_question_not_asked_fails_the_scoring(frozen):
    partial = observed(frozen, lambda person, question: [])[1:]

    with pytest.raises(ParaphraseError, match="was not asked"):
        paraphrase_metrics(frozen, partial)


def test_every_arm_reports_the_paraphrase_set_apart_from_the_conversations(evaluated, frozen):
    out, results = evaluated
    report = (out / "report.html").read_text()

    assert set(results["paraphrase"]["arms"]) == {
        "control",
        "formation",
        "reconsolidation",
        "hybrid",
    }
    for metrics in results["paraphrase"]["arms"].values():
        assert set(metrics["splits"]) == set(SPLITS)
        assert metrics["questions"] >= 120 and metrics["profile_answered"] == 1.0
        # The local model in the arms' processes: most right memories in the first three.
        assert metrics["hit@3"] >= 0.9
    asked = {question.id for person in frozen.people for question in person.questions}
    assert asked.isdisjoint(case["question_id"] for case in results["cases"])
    assert results["meta"]["embeddings"] == "local"
    assert "Paraphrase set" in report


def test_the_paraphrase_set_is_evaluated_alone_without_a_dataset(
    tmp_path, monkeypatch, django_db_setup, django_db_blocker
):
    # The arm's process reads its settings from the environment, as a deployment does.
    monkeypatch.setenv("REVERIE_EMBEDDINGS", "off")
    out = tmp_path / "out"

    # Outside a test transaction: on PostgreSQL the arm's database is created beside this one.
    with django_db_blocker.unblock():
        call_command("evaluate", "--arms", "formation", "--out", str(out))

    results = json.loads((out / "results.json").read_text())
    assert results["arms"] == {} and results["cases"] == []
    assert results["meta"]["embeddings"] == "off"
    # By words alone, a question sharing no word with its answer finds nothing.
    words_only = results["paraphrase"]["arms"]["formation"]
    assert words_only["categories"]["no_shared_words"]["hit@3"] == 0.0
    assert (out / "report.html").is_file()


def test_nothing_to_evaluate_is_refused(tmp_path):
    with pytest.raises(CommandError, match="nothing to evaluate"):
        call_command("evaluate", "--no-paraphrase", "--out", str(tmp_path))
