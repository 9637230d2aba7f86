"""How much of LoCoMo's observation facts the formation extractor forms a memory from.

For each conversation and each of its two speakers, that speaker plays the
owner: their turns are the owner's user messages and the other speaker's
turns are participant messages, which must form nothing. Sessions are read in
order, each as one extraction request that knows what earlier sessions
accepted. An observation fact (the dataset authors' per-speaker facts, each
citing its evidence turns) counts as covered when at least one accepted
proposal was read from one of its evidence turns.

Nothing is written anywhere, and the dataset is read in place.
"""

import time
from collections import Counter
from typing import Any

from evaluation.locomo import Conversation, Dataset, DialogSession
from formation.candidates import (
    PROPOSER_MODEL,
    ExtractionMessage,
    ExtractionRequest,
    MemoryCandidateExtractor,
)
from formation.extraction import CandidateDecision, KnownLedger, extraction_decide, user_message
from formation.extractor import DeterministicExtractor
from formation.scoring import fabricated
from formation.services import MAX_CONSUMED
from memory.enums import EventType

# What each conversation's row counts; the report sums them over the conversations.
ROW_FIGURES = (
    "facts",
    "covered",
    "principal_turns",
    "proposals",
    "accepted",
    "participant_proposals",
)


def coverage(
    dataset: Dataset, *, extractor: MemoryCandidateExtractor | None = None
) -> dict[str, Any]:
    """Coverage figures of a parsed dataset, per conversation and overall."""
    extractor = extractor or DeterministicExtractor()
    report: dict[str, Any] = {
        "conversations": [],
        "facts": 0,
        "covered": 0,
        "principal_turns": 0,
        "proposals": 0,
        "accepted": 0,
        "participant_proposals": 0,
        "consolidations": 0,
        "over_ceiling": 0,
        "types": Counter(),
        "reasons": Counter(),
        # "<sample>:<fact number>" of every covered fact, for a certificate to recount.
        "covered_facts": [],
        # Accepted proposals a model made, and those of them naming an entity or a
        # number their source turns do not (``formation.scoring.fabricated``).
        "model_accepted": 0,
        "model_fabricated": 0,
    }
    started = time.perf_counter()
    for conversation in dataset.conversations:
        # Every figure starts at zero: a conversation nothing was formed from still
        # reports (and prints) its whole row.
        row = Counter(dict.fromkeys(ROW_FIGURES, 0))
        accepted_turns = {
            principal: _read_as_owner(conversation, principal, extractor, report, row)
            for principal in conversation.speakers
        }
        _count_facts(conversation, accepted_turns, report, row)
        report["conversations"].append({"sample_id": conversation.sample_id, **row})
        for name in ROW_FIGURES:
            report[name] += row[name]
    report["seconds"] = round(time.perf_counter() - started, 3)
    return report


def _read_as_owner(
    conversation: Conversation,
    principal: str,
    extractor: MemoryCandidateExtractor,
    report: dict[str, Any],
    row: Counter[str],
) -> set[str]:
    """Extract from the conversation's sessions in order with ``principal`` as the owner,
    counting into ``report`` and ``row``; the ids of the turns an accepted proposal was
    read from."""
    accepted_turns: set[str] = set()
    ledger = KnownLedger()
    for dialog in conversation.sessions:
        messages = _session_messages(conversation.sample_id, dialog, principal)
        row["principal_turns"] += sum(turn.speaker == principal for turn in dialog.turns)
        request = ExtractionRequest(messages=messages, known=ledger.known)
        outcome = extraction_decide(request, extractor=extractor)
        ledger.record(outcome.decisions)
        report["consolidations"] += 1
        by_id = {message.id: message for message in messages}
        accepted_here = 0
        for decision in outcome.decisions:
            if _count_decision(decision, by_id, report, row):
                accepted_here += 1
                accepted_turns.update(
                    source.split(":", 1)[1] for source in decision.candidate.source_ids
                )
        report["over_ceiling"] += accepted_here > MAX_CONSUMED
    return accepted_turns


def _session_messages(
    sample_id: str, dialog: DialogSession, principal: str
) -> tuple[ExtractionMessage, ...]:
    """The session's turns as the messages of ``principal``'s bank: theirs are the owner's,
    the other speaker's are a participant's. Ids are "<sample>:<turn>"."""
    return tuple(
        user_message(
            id=f"{sample_id}:{turn.dia_id}",
            text=tuple(part for part in (turn.text, turn.caption) if part),
            occurred_at=dialog.started_at,
            event_type=EventType.USER_MESSAGE
            if turn.speaker == principal
            else EventType.PARTICIPANT_MESSAGE,
        )
        for turn in dialog.turns
    )


def _count_decision(
    decision: CandidateDecision,
    by_id: dict[str, ExtractionMessage],
    report: dict[str, Any],
    row: Counter[str],
) -> bool:
    """Count one decision into ``report`` and ``row``; whether it was accepted."""
    candidate = decision.candidate
    row["proposals"] += 1
    if any(
        by_id[s].event_type != EventType.USER_MESSAGE for s in candidate.source_ids if s in by_id
    ):
        row["participant_proposals"] += 1
    if not decision.accepted:
        report["reasons"][decision.reason] += 1
        return False
    row["accepted"] += 1
    if candidate.proposer == PROPOSER_MODEL:
        report["model_accepted"] += 1
        sources = [by_id[s].text for s in candidate.source_ids if s in by_id]
        report["model_fabricated"] += fabricated(candidate, sources)
    report["types"][str(candidate.type)] += 1
    return True


def _count_facts(
    conversation: Conversation,
    accepted_turns: dict[str, set[str]],
    report: dict[str, Any],
    row: Counter[str],
) -> None:
    """Count the conversation's facts, and those an accepted proposal was read from the
    evidence of, into ``row``; note each covered one in ``report``."""
    for number, fact in enumerate(conversation.facts):
        row["facts"] += 1
        turns = accepted_turns.get(fact.speaker, set())
        if any(dia_id in turns for dia_id in fact.evidence):
            row["covered"] += 1
            report["covered_facts"].append(f"{conversation.sample_id}:{number}")
