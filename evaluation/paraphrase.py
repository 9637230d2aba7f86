"""The paraphrase set: memories in Reverie's form, and questions worded as people ask them.

``fixtures/paraphrase.json`` holds invented people, each with explicit memories ("User has
a cat named Biscuit.") and questions about them ("Do I have any pets?"): some share a word
with their answer, some share none, some have no answer among the memories, and a few ask
for the owner's profile. It was written and frozen before recall by meaning was tuned, and
is split by person: choices are made on the deciding half and the confirming half is only
reported. Its digest is pinned here so that a changed set cannot pass for the frozen one.

An arm imports each person as a principal of its own, asks every question through recall
as the arm recalls, and records the ids of the memories it was given; scoring happens in the
parent process (``paraphrase_metrics``).
"""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accounts.models import User
from common.principal import principal_context
from memory.models import Belief
from memory.selectors.recall import recall
from memory.services.beliefs import belief_remember
from memory.stemming import stem
from memory.text import query_terms
from reconsolidation.selectors.recall import derived_recall_evaluating

PARAPHRASE = Path(__file__).parent / "fixtures" / "paraphrase.json"
# SHA-256 of the frozen set.
PARAPHRASE_DIGEST = "c9fd8f476c3cf9a8c7738a8579d37d429a2d3108f5848781d9be1c33d8419891"
USERNAME_PREFIX = "paraphrase-"
SPLITS = ("deciding", "confirming")
# Positions the set is scored at: the right memory first, and among the first three.
HITS = (1, 3)


class ParaphraseError(ValueError):
    pass


@dataclass(frozen=True)
class Memory:
    id: str
    statement: str
    type: str
    subject: str


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    # The memories that answer it; none for a question whose answer is not there.
    answers: tuple[str, ...]
    profile: bool


@dataclass(frozen=True)
class Person:
    name: str
    split: str
    memories: tuple[Memory, ...]
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class ParaphraseSet:
    people: tuple[Person, ...]
    digest: str


def read_paraphrase(
    path: Path = PARAPHRASE, *, digest: str | None = PARAPHRASE_DIGEST
) -> ParaphraseSet:
    """The set at ``path``; refused unless its SHA-256 is ``digest`` (None: any)."""
    data = path.read_bytes()
    found = hashlib.sha256(data).hexdigest()
    if digest is not None and found != digest:
        raise ParaphraseError(f"{path.name} is not the frozen paraphrase set (sha256 {found})")
    raw = json.loads(data)
    people = []
    for person in raw["people"]:
        if person["split"] not in SPLITS:
            raise ParaphraseError(f"{person['person']}: unknown split {person['split']!r}")
        memories = tuple(Memory(**memory) for memory in person["memories"])
        known = {memory.id for memory in memories}
        questions = tuple(
            Question(
                id=question["id"],
                text=question["question"],
                answers=tuple(question["answers"]),
                profile=bool(question.get("profile")),
            )
            for question in person["questions"]
        )
        if unknown := {a for q in questions for a in q.answers} - known:
            raise ParaphraseError(f"{person['person']}: answers name no memory: {sorted(unknown)}")
        people.append(Person(person["person"], person["split"], memories, questions))
    return ParaphraseSet(tuple(people), found)


def category(question: Question, memories: Sequence[Memory]) -> str:
    """``profile``; ``no_answer``; ``shares_words`` when a query term meets a word of an
    answer as full-text matching would (stemmed); else ``no_shared_words``."""
    if question.profile:
        return "profile"
    if not question.answers:
        return "no_answer"
    asked = {stem(term) for term in query_terms(question.text)}
    said = {
        stem(term)
        for memory in memories
        if memory.id in question.answers
        for term in query_terms(memory.statement)
    }
    return "shares_words" if asked & said else "no_shared_words"


def import_people(dataset: ParaphraseSet) -> dict[str, tuple[User, dict[int, str]]]:
    """Each person as a principal of their own with their memories stated explicitly:
    ``{person: (principal, {belief id: memory id})}``."""
    imported = {}
    for person in dataset.people:
        principal = User.objects.create(username=f"{USERNAME_PREFIX}{person.name}")
        ids = {}
        for memory in person.memories:
            belief = belief_remember(
                principal=principal,
                statement=memory.statement,
                type=memory.type,
                subject=memory.subject,
            )
            ids[belief.pk] = memory.id
        imported[person.name] = (principal, ids)
    return imported


def ask_people(
    dataset: ParaphraseSet,
    imported: dict[str, tuple[User, dict[int, str]]],
    *,
    include: Sequence[str],
    k: int,
) -> list[dict[str, Any]]:
    """Every question asked of its person's principal as an arm recalls: what came back, as
    memory ids (in rank order) and the kinds of the other items."""
    observations = []
    for person in dataset.people:
        principal, ids = imported[person.name]
        with principal_context(principal):
            by_public = {
                str(public_id): ids[pk]
                for pk, public_id in Belief.objects.filter(owner=principal).values_list(
                    "pk", "public_id"
                )
                if pk in ids
            }
        for question in person.questions:
            with derived_recall_evaluating():
                result = recall(principal=principal, query=question.text, include=include, limit=k)
            observations.append(
                {
                    "question_id": question.id,
                    "memories": [by_public.get(item.id) for item in result.items],
                    "kinds": [item.kind for item in result.items],
                    "profile": result.profile,
                }
            )
    return observations


def paraphrase_metrics(
    dataset: ParaphraseSet, observations: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """hit@1 and hit@3 of the questions with an answer, by split and category; the share of
    questions without one answered with something; the share of profile requests answered
    with the profile, its stated memories first."""
    observed = {observation["question_id"]: observation for observation in observations}
    rows = []
    for person in dataset.people:
        for question in person.questions:
            seen = observed.get(question.id)
            if seen is None:
                raise ParaphraseError(f"question {question.id} was not asked")
            rows.append((person, question, category(question, person.memories), seen))

    def scored(selected: Sequence[tuple[Person, Question, str, dict[str, Any]]]) -> dict[str, Any]:
        answered = [row for row in selected if row[1].answers]
        unanswerable = [row for row in selected if row[2] == "no_answer"]
        profile = [row for row in selected if row[2] == "profile"]
        figures: dict[str, Any] = {"questions": len(answered)}
        for at in HITS:
            hits = sum(
                any(memory in question.answers for memory in seen["memories"][:at])
                for _, question, _, seen in answered
            )
            figures[f"hit@{at}"] = round(hits / len(answered), 4) if answered else None
        figures["no_answer_questions"] = len(unanswerable)
        figures["no_answer_answered"] = (
            round(sum(bool(seen["memories"]) for *_, seen in unanswerable) / len(unanswerable), 4)
            if unanswerable
            else None
        )
        figures["profile_questions"] = len(profile)
        figures["profile_answered"] = (
            round(
                sum(_is_profile(person, seen) for person, _, _, seen in profile) / len(profile), 4
            )
            if profile
            else None
        )
        return figures

    metrics = scored(rows)
    metrics["splits"] = {
        split: scored([row for row in rows if row[0].split == split]) for split in SPLITS
    }
    metrics["categories"] = {
        name: scored([row for row in rows if row[2] == name])
        for name in ("shares_words", "no_shared_words")
    }
    metrics["misses"] = sorted(
        question.id
        for _, question, _, seen in rows
        if question.answers and not any(m in question.answers for m in seen["memories"][:3])
    )
    return metrics


def _is_profile(person: Person, seen: dict[str, Any]) -> bool:
    # Every memory of the set is stated by its person, so the profile is made of them: the
    # answer must say so and give nothing but them.
    known = {memory.id for memory in person.memories}
    return bool(seen["profile"]) and bool(seen["memories"]) and set(seen["memories"]) <= known
