"""Extraction quality against a labelled corpus, and the fabrication rule. No database.

A corpus item is one message with the beliefs it should form (possibly none).
``score`` runs an extractor and the pure gates over the corpus and reports
precision and recall of what the gates accept, gate accuracy, fabrications
and unsafe content that would have been stored.

Matching rule: an accepted proposal matches an expected belief when type,
subject and polarity are equal and the statements are equal after
``normalise_statement``; when the label gives temporal fields, those must be
equal too. Each proposal matches at most one label.
"""

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from memory.enums import EventType, Polarity
from memory.screening import contains_secret, looks_like_injection
from memory.text import normalise_statement

from .candidates import (
    ExtractionRequest,
    KnownBelief,
    MemoryCandidate,
    MemoryCandidateExtractor,
)
from .extraction import (
    CandidateDecision,
    ExtractionOutcome,
    KnownLedger,
    extraction_decide,
    user_message,
)
from .gates import is_transient
from .subjects import STABLE_PREFERENCE_SUBJECTS

# Words of canonical statements that name no entity: the owner and the
# stable preference vocabulary.
FIXED_VOCABULARY = frozenset(
    {"user", "user's"}
    | {word for subject in STABLE_PREFERENCE_SUBJECTS for word in re.split(r"[:-]", subject)}
)
SAFETY_TAGS = ("secret", "injection", "transient")
# When a corpus item gives no time, its message is read as sent at this moment.
DEFAULT_OCCURRED_AT = datetime(2026, 8, 19, 10, 0, tzinfo=UTC)

_NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "hundred": "100",
    "thousand": "1000",
}
_TERM_RE = re.compile(r"[^\W_][\w'\-.+&]*")


class _HasStatement(Protocol):
    @property
    def statement(self) -> str: ...


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return text.replace("\u2019", "'").replace("\u2018", "'")


def _named_terms(statement: str) -> list[str]:
    """The statement's names and numbers: words with a capital letter or a digit, and
    number words."""
    terms: list[str] = []
    for raw in _TERM_RE.findall(unicodedata.normalize("NFKC", statement)):
        raw = raw.rstrip(".'")
        if raw.endswith(("'s", "\u2019s")):
            raw = raw[:-2]
        if not raw:
            continue
        lowered = raw.casefold()
        if any(c.isupper() or c.isdigit() for c in raw) or lowered in _NUMBER_WORDS:
            terms.append(lowered)
    return terms


def _grounded(term: str, source: str) -> bool:
    if re.search(rf"(?<!\w){re.escape(term)}(?!\w)", source):
        return True
    if term in _NUMBER_WORDS:
        return bool(re.search(rf"(?<!\w){_NUMBER_WORDS[term]}(?!\w)", source))
    digits = {v: k for k, v in _NUMBER_WORDS.items()}
    if term in digits:
        return bool(re.search(rf"(?<!\w){digits[term]}(?!\w)", source))
    return False


def ungrounded_terms(
    statement: str, source_texts: Iterable[object], *, exempt: Collection[str] = FIXED_VOCABULARY
) -> list[str]:
    """Names and numbers of ``statement`` that none of ``source_texts`` contains.

    Compared case-insensitively after Unicode normalisation, as whole words;
    a number matches its spelled-out form and back ("two" and "2").
    """
    source = _fold(" \n ".join(text for text in source_texts if isinstance(text, str)))
    return [
        term
        for term in _named_terms(statement)
        if term not in exempt and not _grounded(term, source)
    ]


def fabricated(
    candidate: "str | _HasStatement",
    source_texts: Iterable[object],
    *,
    exempt: Collection[str] = FIXED_VOCABULARY,
) -> bool:
    """Whether a proposal's statement names an entity or a number its sources do not.

    ``candidate`` is anything with a ``statement`` (or a statement string).
    The fixed vocabulary of canonical statements ("User", stable preference
    words) is exempt.
    """
    statement = candidate if isinstance(candidate, str) else candidate.statement
    return bool(ungrounded_terms(statement, source_texts, exempt=exempt))


# -- corpus ------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedBelief:
    type: str
    subject: str
    statement: str
    polarity: str = Polarity.POSITIVE
    # (name, ISO time or None) pairs of the hint the proposal must carry, sorted.
    temporal: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True)
class CorpusItem:
    """One labelled message. ``event_type`` other than a user message must form nothing."""

    id: str
    text: str | tuple[str, ...]
    expected: tuple[ExpectedBelief, ...] = ()
    tags: tuple[str, ...] = ()
    session: str = ""
    known: tuple[KnownBelief, ...] = ()
    occurred_at: datetime = DEFAULT_OCCURRED_AT
    event_type: str = EventType.USER_MESSAGE

    @property
    def texts(self) -> list[str]:
        return list(self.text) if isinstance(self.text, list | tuple) else [self.text]


def corpus_item(data: dict[str, Any]) -> CorpusItem:
    """A ``CorpusItem`` from one decoded corpus line."""
    occurred_at = DEFAULT_OCCURRED_AT
    if data.get("occurred_at"):
        occurred_at = datetime.fromisoformat(data["occurred_at"])
    return CorpusItem(
        id=str(data["id"]),
        text=tuple(data["text"]) if isinstance(data["text"], list) else data["text"],
        expected=tuple(
            ExpectedBelief(
                type=e["type"],
                subject=e["subject"],
                statement=e["statement"],
                polarity=e.get("polarity", Polarity.POSITIVE),
                temporal=tuple(sorted((e.get("temporal") or {}).items())),
            )
            for e in data.get("expected", [])
        ),
        tags=tuple(data.get("tags", [])),
        session=str(data.get("session") or ""),
        known=tuple(
            KnownBelief(
                subject=k["subject"],
                statement=k["statement"],
                type=k["type"],
                polarity=k.get("polarity", Polarity.POSITIVE),
            )
            for k in data.get("known", [])
        ),
        occurred_at=occurred_at,
        event_type=data.get("event_type", EventType.USER_MESSAGE),
    )


def load_corpus(path: str | Path) -> list[CorpusItem]:
    """The items of a JSONL corpus file, in file order."""
    with open(path, encoding="utf-8") as handle:
        return [corpus_item(json.loads(line)) for line in handle if line.strip()]


def belief_matches(candidate: MemoryCandidate, expected: ExpectedBelief) -> bool:
    """The matching rule of the module docstring."""
    if (
        str(candidate.type) != expected.type
        or candidate.subject != expected.subject
        or str(candidate.polarity) != expected.polarity
        or normalise_statement(candidate.statement) != normalise_statement(expected.statement)
    ):
        return False
    hint = candidate.temporal
    for name, value in expected.temporal:
        actual = getattr(hint, name, None)
        if (actual.isoformat() if actual else None) != value:
            return False
    return True


# -- scoring -----------------------------------------------------------------------


@dataclass
class QualityReport:
    """The figures of one scoring run, and what went wrong, item by item."""

    items: int = 0
    negatives: int = 0
    expected: int = 0
    accepted: int = 0
    matched: int = 0
    proposals: int = 0
    gate_items: int = 0
    gate_correct: int = 0
    fabrications: int = 0
    secrets_stored: int = 0
    injections_stored: int = 0
    transients_stored: int = 0
    tags: Counter[str] = field(default_factory=Counter)
    by_tag: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    # (item id, what) of each kind of mistake, in corpus order.
    misses: list[tuple[str, ExpectedBelief]] = field(default_factory=list)
    false_positives: list[tuple[str, MemoryCandidate]] = field(default_factory=list)
    gate_errors: list[tuple[str, str]] = field(default_factory=list)
    fabricated: list[tuple[str, str]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.accepted if self.accepted else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    @property
    def gate_accuracy(self) -> float:
        return self.gate_correct / self.gate_items if self.gate_items else 1.0

    def figures(self) -> dict[str, int | float]:
        """The headline figures, rounded, as a dict."""
        return {
            "items": self.items,
            "negatives": self.negatives,
            "expected": self.expected,
            "proposals": self.proposals,
            "accepted": self.accepted,
            "matched": self.matched,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "gate_accuracy": round(self.gate_accuracy, 4),
            "fabrications": self.fabrications,
            "secrets_stored": self.secrets_stored,
            "injections_stored": self.injections_stored,
            "transients_stored": self.transients_stored,
        }

    def summary(self) -> str:
        """A plain-text report: figures, per-tag counts and every miss and false positive."""
        lines = [f"{name}: {value}" for name, value in self.figures().items()]
        lines.append("per tag (items / expected / matched / false positives):")
        for tag in sorted(self.tags):
            counts = self.by_tag[tag]
            lines.append(
                f"  {tag}: {self.tags[tag]} / {counts['expected']} / {counts['matched']} / "
                f"{counts['false_positive']}"
            )
        for item_id, belief in self.misses:
            lines.append(f"miss {item_id}: {belief.subject} | {belief.statement}")
        for item_id, candidate in self.false_positives:
            lines.append(f"false positive {item_id}: {candidate.subject} | {candidate.statement}")
        for item_id, reason in self.gate_errors:
            lines.append(f"gate error {item_id}: {reason}")
        for item_id, statement in self.fabricated:
            lines.append(f"fabricated {item_id}: {statement}")
        return "\n".join(lines)


def _score_item(report: QualityReport, item: CorpusItem, outcome: ExtractionOutcome) -> None:
    safety = [tag for tag in SAFETY_TAGS if tag in item.tags]
    remaining = list(item.expected)
    matched_ids: set[int] = set()
    for decision in outcome.decisions:
        if not decision.accepted:
            continue
        candidate = decision.candidate
        for belief in remaining:
            if belief_matches(candidate, belief):
                remaining.remove(belief)
                matched_ids.add(id(candidate))
                break
        else:
            report.false_positives.append((item.id, candidate))
            for tag in item.tags:
                report.by_tag[tag]["false_positive"] += 1
        if contains_secret(candidate.statement) or (
            "secret" in safety and id(candidate) not in matched_ids
        ):
            report.secrets_stored += 1
        if looks_like_injection(candidate.statement) or (
            "injection" in safety and id(candidate) not in matched_ids
        ):
            report.injections_stored += 1
        if is_transient(candidate.statement) or (
            "transient" in safety and id(candidate) not in matched_ids
        ):
            report.transients_stored += 1
    matched = len(item.expected) - len(remaining)
    report.expected += len(item.expected)
    report.matched += matched
    report.accepted += sum(1 for d in outcome.decisions if d.accepted)
    report.misses.extend((item.id, belief) for belief in remaining)
    for tag in item.tags:
        report.tags[tag] += 1
        report.by_tag[tag]["expected"] += len(item.expected)
        report.by_tag[tag]["matched"] += matched

    # Gates: a proposal a label asks for must pass them; in an item labelled
    # as a secret, an injection or a transient detail, every other proposal
    # must be stopped. Extractor mistakes elsewhere are precision, not gates.
    checked: list[tuple[CandidateDecision, bool]] = []
    for decision in outcome.decisions:
        wanted = any(belief_matches(decision.candidate, b) for b in item.expected)
        if wanted:
            checked.append((decision, True))
        elif safety:
            checked.append((decision, False))
    if checked or safety:
        report.gate_items += 1
        wrong = [d for d, should_accept in checked if d.accepted != should_accept]
        if wrong:
            report.gate_errors.extend(
                (item.id, f"{d.candidate.statement} -> {d.decision} {d.reason}") for d in wrong
            )
        else:
            report.gate_correct += 1


def score(
    items: Iterable[CorpusItem], extractor: MemoryCandidateExtractor | None = None
) -> QualityReport:
    """Score ``extractor`` (the deterministic one by default) over corpus ``items``.

    Items that share a session are read in order, each seeing the beliefs the
    earlier ones had accepted as known, as the formation service would.
    """
    report = QualityReport()
    ledgers: dict[str, KnownLedger] = {}
    for item in items:
        report.items += 1
        if not item.expected:
            report.negatives += 1
        # A session's items share what they accepted; a lone item starts afresh.
        ledger = ledgers.setdefault(item.session, KnownLedger()) if item.session else KnownLedger()
        known = {b.subject: b for b in (*ledger.known, *item.known)}
        message = user_message(
            id=item.id, text=item.texts, occurred_at=item.occurred_at, event_type=item.event_type
        )
        request = ExtractionRequest(messages=(message,), known=tuple(known.values()))
        outcome = extraction_decide(request, extractor=extractor)
        ledger.record(outcome.decisions)
        report.proposals += len(outcome.result.candidates)
        for candidate in outcome.result.candidates:
            if fabricated(candidate, item.texts):
                report.fabrications += 1
                report.fabricated.append((item.id, candidate.statement))
        _score_item(report, item, outcome)
    return report
