"""One evaluation arm, run against its own fresh database: import, form, ask.

This is the system-under-test side of an evaluation. It imports the dataset's
conversations, runs formation when the arm needs it, then reconsolidation passes
over every bank when the arm needs those too, and asks every question
through the product's recall, recording what came back: item kinds, the turns
each item came from and its length. It never reads the labels (evidence,
categories, facts); scoring happens in the parent process, from this record.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Max

from accounts.models import User
from common.principal import principal_context
from core.errors import ReverieError
from formation.candidates import MemoryCandidateExtractor
from formation.services import formation_extractor, formation_sweep
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Belief, BeliefSource, Event
from memory.selectors.recall import recall
from memory.services.vectors import vectors_sweep
from reconsolidation.models import DerivedMemory
from reconsolidation.selectors.recall import derived_recall_evaluating
from reconsolidation.services.passes import reconsolidation_pass

from .locomo import Dataset, Question
from .paraphrase import ParaphraseSet, ask_people, import_people
from .scoring import fuse
from .services.importer import import_conversations, principal_username

# Sessions consolidated per formation sweep while an arm forms its memories.
SWEEP_BATCH = 500
# A full scan of a bank takes a pass per slice; more than this means the passes
# are not advancing, and the arm fails rather than loops.
MAX_PASSES_PER_BANK = 10_000


@dataclass(frozen=True)
class Arm:
    name: str
    description: str
    forms: bool
    include: tuple[str, ...]
    # Reconsolidation passes run over every bank after formation.
    reconsolidates: bool = False


ARMS = {
    arm.name: arm
    for arm in (
        Arm("control", "original messages only (no formation)", False, ("messages",)),
        Arm("formation", "formed memories only", True, ()),
        Arm(
            "reconsolidation",
            "formed memories and the memories derived from them",
            True,
            ("derived",),
            reconsolidates=True,
        ),
        Arm(
            "hybrid",
            "formed and derived memories and original messages, fused",
            True,
            ("messages", "derived"),
            reconsolidates=True,
        ),
    )
}


def banks_for(question_text: str, speakers: Sequence[str]) -> list[str]:
    """The speakers whose banks answer a question: those it names, or both if it names both or
    neither."""
    named = [
        speaker
        for speaker in speakers
        if re.search(rf"\b{re.escape(speaker.split()[0])}\b", question_text, re.IGNORECASE)
    ]
    return named if len(named) == 1 else list(speakers)


def replay_clock(principal: User) -> datetime | None:
    """The replayed bank's "now": the time of its newest evidence (message), or None for an
    empty bank. Conversations recorded long ago would otherwise be judged by the day the
    evaluation runs, when every hypothesis over them is past its lifetime. Only messages
    count: the import closes each session and formation flags it today, and those events
    would set the clock back to the wall clock."""
    with principal_context(principal):
        newest: datetime | None = Event.objects.filter(
            owner=principal, event_type__in=MESSAGE_EVENT_TYPES
        ).aggregate(newest=Max("occurred_at"))["newest"]
        return newest


def reconsolidate_bank(principal: User) -> tuple[int, dict[str, int]]:
    """Run passes over one bank until a full scan has completed; return their counts.

    The passes judge hypothesis lifetimes by the bank's replay clock."""
    passes = 0
    outcomes: dict[str, int] = {}
    now = replay_clock(principal)
    while True:
        report = reconsolidation_pass(principal=principal, now=now)
        passes += 1
        if report.stopped:
            raise RuntimeError(f"a reconsolidation pass stopped: {report.stopped}")
        for outcome, count in report.outcomes.items():
            outcomes[outcome] = outcomes.get(outcome, 0) + count
        if report.full_scan_completed:
            return passes, outcomes
        if passes >= MAX_PASSES_PER_BANK:
            raise RuntimeError("reconsolidation passes do not complete a full scan")


def reconsolidate_all(principals: Iterable[User]) -> dict[str, Any]:
    """Reconsolidate every bank, one principal at a time; return what was done and derived."""
    passes = 0
    outcomes: dict[str, int] = {}
    derived: dict[str, int] = {}
    for principal in principals:
        bank_passes, bank_outcomes = reconsolidate_bank(principal)
        passes += bank_passes
        for outcome, count in bank_outcomes.items():
            outcomes[outcome] = outcomes.get(outcome, 0) + count
        with principal_context(principal):
            for kind in DerivedMemory.objects.filter(
                owner=principal, status=DerivedMemory.Status.ACTIVE
            ).values_list("kind", flat=True):
                derived[kind] = derived.get(kind, 0) + 1
    return {
        "passes": passes,
        "outcomes": dict(sorted(outcomes.items())),
        "derived": dict(sorted(derived.items())),
    }


def form_all(extractor: MemoryCandidateExtractor | None = None) -> int:
    """Consolidate every due session; return the number of consolidations."""
    extractor = extractor or formation_extractor()
    total = 0
    while audits := formation_sweep(batch=SWEEP_BATCH, extractor=extractor):
        total += len(audits)
    return total


class _Bank:
    """One principal's bank, with the map from its events to qualified turn ids."""

    def __init__(self, principal: User, sample_id: str) -> None:
        self.principal = principal
        self.now = replay_clock(principal)
        with principal_context(principal):
            self.turns = {
                str(public_id): f"{sample_id}:{external_id}"
                for public_id, external_id in Event.objects.filter(owner=principal)
                .exclude(external_id=None)
                .values_list("public_id", "external_id")
            }

    def _key(self, kind: str, item_id: str) -> tuple[str, str]:
        # Each bank of a conversation holds every turn as a message of its own: a question
        # asked of both banks finds the same turn in each, and fused as two it would take
        # two of the k places, where an assistant asking both would show it once.
        if kind == "message" and item_id in self.turns:
            return ("turn", self.turns[item_id])
        return (kind, item_id)

    def ask(
        self, text: str, *, include: Sequence[str], limit: int
    ) -> list[tuple[tuple[str, Any], dict[str, Any]]]:
        # The evaluation measures derived recall before any certificate allows it.
        with derived_recall_evaluating(now=self.now):
            result = recall(principal=self.principal, query=text, include=include, limit=limit)
        return [
            (
                self._key(item.kind, item.id),
                {
                    "kind": item.kind,
                    "sources": [
                        self.turns[source.event_id]
                        for source in item.sources
                        if source.event_id in self.turns
                    ],
                    "chars": len(item.text),
                },
            )
            for item in result.items
        ]


def embed_all() -> int:
    """Give every memory its vector, as the maintenance sweep does; return how many."""
    total = 0
    while stored := vectors_sweep(principals=1000, deadline_seconds=3600):
        total += stored
    return total


def run_arm(
    arm: Arm, dataset: Dataset | None, *, k: int, paraphrase: ParaphraseSet | None = None
) -> dict[str, Any]:
    """Import, form (if the arm does) and ask every question; return the arm's record.

    ``dataset`` (LoCoMo conversations) and ``paraphrase`` are each optional: the arm asks
    the questions of each it is given."""
    if dataset is not None:
        import_conversations(dataset)
    people = import_people(paraphrase) if paraphrase is not None else None
    consolidations = form_all() if arm.forms else 0
    reconsolidation = reconsolidate_all(User.objects.order_by("pk")) if arm.reconsolidates else None
    embedded = embed_all()
    observations: list[dict[str, Any]] = []
    beliefs: list[dict[str, Any]] = []
    turn_texts: dict[str, str] = {}
    for conversation in dataset.conversations if dataset is not None else ():
        banks = {
            speaker: _Bank(
                User.objects.get(username=principal_username(conversation.sample_id, speaker)),
                conversation.sample_id,
            )
            for speaker in conversation.speakers
        }
        for question in conversation.questions:
            observations.append(_observe(question, conversation.speakers, banks, arm, k))
        if arm.forms:
            for speaker, bank in banks.items():
                _collect_beliefs(bank, speaker, beliefs, turn_texts)
    return {
        "arm": arm.name,
        "database": database_description(),
        "consolidations": consolidations,
        "reconsolidation": reconsolidation,
        "observations": observations,
        "beliefs": beliefs,
        "turn_texts": turn_texts,
        "embedded": embedded,
        "embeddings": settings.REVERIE_EMBEDDINGS["mode"],
        "paraphrase": (
            ask_people(paraphrase, people, include=arm.include, k=k)
            if paraphrase is not None and people is not None
            else None
        ),
    }


def _observe(
    question: Question, speakers: Sequence[str], banks: dict[str, _Bank], arm: Arm, k: int
) -> dict[str, Any]:
    asked = banks_for(question.text, speakers)
    try:
        rankings = [
            banks[speaker].ask(question.text, include=arm.include, limit=k) for speaker in asked
        ]
    except ReverieError as error:
        # Recall refused the question: a failed case with its reason, never a dropped one.
        return {
            "question_id": question.id,
            "banks": asked,
            "items": [],
            "failed": f"{error.code}: {error}",
        }
    items = dict(pair for ranking in rankings for pair in ranking)
    fused = fuse([[key for key, _ in ranking] for ranking in rankings])[:k]
    return {
        "question_id": question.id,
        "banks": asked,
        "items": [items[key] for key in fused],
        "failed": None,
    }


def _collect_beliefs(
    bank: _Bank, speaker: str, beliefs: list[dict[str, Any]], turn_texts: dict[str, str]
) -> None:
    """Every formed belief of the bank with the turns it cites (for coverage and fabrication)."""
    principal = bank.principal
    with principal_context(principal):
        sources: dict[int, list[str]] = {}
        for belief_id, event_id, text in BeliefSource.objects.filter(owner=principal).values_list(
            "belief_id", "event__public_id", "event__text"
        ):
            turn = bank.turns.get(str(event_id))
            if turn is not None:
                sources.setdefault(belief_id, []).append(turn)
                turn_texts[turn] = text
        for belief_id, statement, status in Belief.objects.filter(owner=principal).values_list(
            "id", "statement", "status"
        ):
            beliefs.append(
                {
                    "principal": principal.username,
                    "speaker": speaker,
                    "statement": statement,
                    "status": status,
                    "sources": sources.get(belief_id, []),
                }
            )


def database_description() -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW server_version")
        else:
            cursor.execute("SELECT sqlite_version()")
        row = cursor.fetchone()
        version = row[0] if row else "unknown"
    return f"{connection.vendor} {version}"
