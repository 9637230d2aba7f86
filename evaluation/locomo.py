"""Reading LoCoMo-format conversation files: a JSON list of samples, each a conversation
between two speakers in dated sessions with its questions and per-speaker observation facts.

A file that is not the format is refused with ``DatasetError`` before anything
is written. Quirks of real data (date keys of sessions that do not exist,
evidence ids that name no turn, turns without an id) are tolerated and counted
in ``Dataset.quirks`` so that a report can show them.
"""

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .scoring import evidence_ids

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_SESSION_DATE_KEY = re.compile(r"^session_(\d+)_date_time$")
_DATE_PATTERNS = ("%I:%M %p on %d %B %Y", "%I:%M %p on %d %b %Y")
# Sessions whose date is missing or unreadable follow the previous one; the
# first falls back to this moment so that every event has a time.
FALLBACK_TIME = datetime(2023, 1, 1, 12, 0, tzinfo=UTC)


class DatasetError(ValueError):
    """The file cannot be read or is not a LoCoMo-format dataset; nothing was read from it."""


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    caption: str = ""


@dataclass(frozen=True)
class DialogSession:
    number: int
    started_at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """A question with its labels. Labels stay in the evaluation app."""

    id: str
    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Fact:
    """One of the dataset authors' observation facts about a speaker."""

    speaker: str
    text: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[DialogSession, ...]
    questions: tuple[Question, ...]
    facts: tuple[Fact, ...]

    @property
    def turn_ids(self) -> set[str]:
        return {turn.dia_id for session in self.sessions for turn in session.turns}


@dataclass(frozen=True)
class Dataset:
    conversations: tuple[Conversation, ...]
    digest: str
    quirks: Counter[str] = field(default_factory=Counter)


def session_time(value: object, previous: datetime) -> datetime:
    """A session's "1:56 pm on 8 May, 2023" as an aware datetime (UTC), else ``previous``."""
    if isinstance(value, str):
        cleaned = " ".join(value.replace(",", " ").split())
        for pattern in _DATE_PATTERNS:
            try:
                return datetime.strptime(cleaned, pattern).replace(tzinfo=UTC)
            except ValueError:
                continue
    return previous


def load_dataset(raw: bytes | str) -> Dataset:
    """Parse the bytes of a LoCoMo-format file into a ``Dataset``, or raise ``DatasetError``."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError) as error:
        raise DatasetError(f"not JSON: {error}") from None
    if not isinstance(data, list) or not data:
        raise DatasetError("expected a non-empty JSON list of conversations")
    quirks: Counter[str] = Counter()
    conversations: list[Conversation] = []
    for index, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("conversation"), dict):
            raise DatasetError(f"item {index} has no 'conversation' object")
        conversations.append(_conversation(entry, index, quirks))
    sample_ids = [conversation.sample_id for conversation in conversations]
    if len(set(sample_ids)) != len(sample_ids):
        raise DatasetError("two conversations share a sample_id")
    return Dataset(
        conversations=tuple(conversations),
        digest=hashlib.sha256(raw if isinstance(raw, bytes) else raw.encode()).hexdigest(),
        quirks=quirks,
    )


def read_dataset(path: str | Path) -> Dataset:
    """Parse the dataset file at ``path``, or raise ``DatasetError`` saying why it cannot be
    used."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise DatasetError(f"cannot read {path}: {error.strerror}") from None
    try:
        return load_dataset(raw)
    except DatasetError as error:
        raise DatasetError(f"{path} is not a LoCoMo-format dataset: {error}") from None


def _conversation(entry: dict[str, Any], index: int, quirks: Counter[str]) -> Conversation:
    body = entry["conversation"]
    speaker_a, speaker_b = body.get("speaker_a"), body.get("speaker_b")
    if not (
        isinstance(speaker_a, str)
        and speaker_a.strip()
        and isinstance(speaker_b, str)
        and speaker_b.strip()
    ):
        raise DatasetError(f"item {index} does not name speaker_a and speaker_b")
    speakers = (speaker_a, speaker_b)
    sample_id = str(entry.get("sample_id") or f"conversation-{index}")
    sessions = _sessions(body, quirks)
    if not sessions:
        raise DatasetError(f"item {index} has no sessions of turns")
    conversation = Conversation(
        sample_id=sample_id,
        speakers=speakers,
        sessions=sessions,
        questions=_questions(entry.get("qa"), sample_id),
        facts=_facts(entry.get("observation")),
    )
    known = conversation.turn_ids
    for question in conversation.questions:
        quirks["evidence ids naming no turn"] += sum(
            turn not in known for turn in question.evidence
        )
    return conversation


def _sessions(body: dict[str, Any], quirks: Counter[str]) -> tuple[DialogSession, ...]:
    numbered: dict[int, list[Any]] = {}
    for key, value in body.items():
        match = _SESSION_KEY.match(key)
        if match and isinstance(value, list):
            numbered[int(match.group(1))] = value
    for key in body:
        match = _SESSION_DATE_KEY.match(key)
        if match and int(match.group(1)) not in numbered:
            quirks["session dates without a session"] += 1
    sessions: list[DialogSession] = []
    moment = FALLBACK_TIME
    for number in sorted(numbered):
        moment = session_time(body.get(f"session_{number}_date_time"), moment)
        turns: list[Turn] = []
        for raw in numbered[number]:
            turn = _turn(raw)
            if turn is None:
                quirks["turns without an id, a speaker or text"] += 1
                continue
            turns.append(turn)
        if turns:
            sessions.append(DialogSession(number=number, started_at=moment, turns=tuple(turns)))
    return tuple(sessions)


def _turn(raw: object) -> Turn | None:
    if not isinstance(raw, dict):
        return None
    dia_id, speaker, text = raw.get("dia_id"), raw.get("speaker"), raw.get("text")
    caption = raw.get("blip_caption")
    if not (isinstance(dia_id, str) and dia_id and isinstance(speaker, str)):
        return None
    text = text if isinstance(text, str) else ""
    caption = caption.strip() if isinstance(caption, str) else ""
    if not text.strip() and not caption:
        return None
    return Turn(dia_id=dia_id, speaker=speaker, text=text, caption=caption)


def _questions(raw: object, sample_id: str) -> tuple[Question, ...]:
    questions: list[Question] = []
    for index, entry in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("question"), str):
            continue
        category = entry.get("category")
        questions.append(
            Question(
                id=f"{sample_id}:q{index}",
                text=entry["question"],
                category=category if isinstance(category, int) else 0,
                evidence=evidence_ids(entry.get("evidence")),
            )
        )
    return tuple(questions)


def _facts(raw: object) -> tuple[Fact, ...]:
    facts: list[Fact] = []
    for per_session in (raw if isinstance(raw, dict) else {}).values():
        if not isinstance(per_session, dict):
            continue
        for speaker, entries in per_session.items():
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, list | tuple) and len(entry) >= 2:
                    evidence = entry[1] if isinstance(entry[1], list) else [entry[1]]
                    facts.append(
                        Fact(
                            speaker=speaker,
                            text=str(entry[0]),
                            evidence=evidence_ids([e for e in evidence if isinstance(e, str)]),
                        )
                    )
    return tuple(facts)
