"""From labels and what each arm returned to the metrics of ``results.json``.

Used by the runner to write results and by certification to recompute them
from the recorded observations, so that both agree by construction.
"""

from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from . import scoring
from .locomo import Dataset
from .services.importer import principal_username

KS = (1, 5, 10)


class Labels(TypedDict):
    """A dataset's labels as results.json records them (turn ids as "<sample>:<turn>")."""

    # {"id", "category", "evidence"} of each question.
    questions: list[dict[str, Any]]
    known_turns: list[str]
    # {"principal", "evidence"} of each fact.
    facts: list[dict[str, Any]]


def labels_of(dataset: Dataset) -> Labels:
    """The labels of ``dataset`` as plain data, with turn ids qualified by conversation."""
    questions: list[dict[str, Any]] = []
    known: list[str] = []
    facts: list[dict[str, Any]] = []
    for conversation in dataset.conversations:
        sample = conversation.sample_id
        known.extend(f"{sample}:{turn}" for turn in sorted(conversation.turn_ids))
        questions.extend(
            {
                "id": question.id,
                "category": question.category,
                "evidence": [f"{sample}:{turn}" for turn in question.evidence],
            }
            for question in conversation.questions
        )
        facts.extend(
            {
                "principal": principal_username(sample, fact.speaker),
                "evidence": [f"{sample}:{turn}" for turn in fact.evidence],
            }
            for fact in conversation.facts
        )
    return {"questions": questions, "known_turns": known, "facts": facts}


def _observations(cases: Iterable[dict[str, Any]]) -> list[scoring.Observation]:
    return [
        scoring.Observation(
            question_id=case["question_id"],
            items=tuple(
                scoring.Item(sources=tuple(item["sources"]), chars=item["chars"])
                for item in case["items"]
            ),
            failed=case["failed"],
        )
        for case in cases
    ]


def arm_metrics(
    labels: Labels, cases: Iterable[dict[str, Any]], observed: dict[str, Any], *, forms: bool
) -> dict[str, Any]:
    """The metrics of one arm: ``cases`` are its per-question records, ``observed`` its beliefs."""
    questions = [
        scoring.Question(id=q["id"], category=q["category"], evidence=tuple(q["evidence"]))
        for q in labels["questions"]
    ]
    observations = _observations(cases)
    recall = scoring.recall_report(questions, observations, set(labels["known_turns"]), ks=KS)
    metrics: dict[str, Any] = {
        **{f"evidence_recall@{k}": recall[f"evidence_recall@{k}"] for k in KS},
        "by_category": recall["by_category"],
        **scoring.context_cost(observations),
        "formation_coverage": None,
        "fabrication": None,
        "questions": recall["questions"],
        "unscorable": recall["unscorable"],
        "unknown_evidence": recall["unknown_evidence"],
        "failed_cases": recall["failed_cases"],
    }
    if forms:
        beliefs = observed["beliefs"]
        formed = {
            f"{belief['principal']}|{turn}" for belief in beliefs for turn in belief["sources"]
        }
        # A fact is about one speaker: only that speaker's bank can cover it.
        facts = [
            (fact["principal"], tuple(f"{fact['principal']}|{turn}" for turn in fact["evidence"]))
            for fact in labels["facts"]
        ]
        coverage = scoring.formation_coverage(facts, formed)
        fabricated = scoring.fabrication(
            ((belief["statement"], tuple(belief["sources"])) for belief in beliefs),
            observed["turn_texts"],
        )
        metrics.update(
            formation_coverage=coverage["formation_coverage"],
            facts=coverage["facts"],
            facts_covered=coverage["covered"],
            fabrication=fabricated["fabrication"],
            beliefs=fabricated["beliefs"],
            fabricated=fabricated["fabricated"],
            fabrication_examples=fabricated["examples"],
        )
    return metrics


def case_records(
    arm: str, labels: Labels, record: dict[str, Any], k_values: Sequence[int] = KS
) -> list[dict[str, Any]]:
    """One case per question of the arm: what came back and what it scored."""
    by_id = {q["id"]: q for q in labels["questions"]}
    known = set(labels["known_turns"])
    cases: list[dict[str, Any]] = []
    for observation in record["observations"]:
        question = by_id[observation["question_id"]]
        scored = scoring.Question(
            id=question["id"], category=question["category"], evidence=tuple(question["evidence"])
        )
        (parsed,) = _observations([observation])
        cases.append(
            {
                "arm": arm,
                "question_id": observation["question_id"],
                "category": question["category"],
                "banks": observation["banks"],
                "items": observation["items"],
                "failed": observation["failed"],
                **{
                    f"evidence_recall@{k}": scoring.evidence_recall(scored, parsed, k, known)
                    for k in k_values
                },
            }
        )
    return cases
