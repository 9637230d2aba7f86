"""What every grammar reads and writes: the clause, and the proposals of one message.

A grammar is a function of a ``Clause`` and a ``MessageReader``: it finds its
patterns in the clause (``Clause.find`` skips a pattern whose trigger words the
clause lacks) and adds ``Proposal``s to the reader, which keeps the count of
one extraction under ``MAX_PROPOSALS``.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory.enums import BeliefType, Polarity

from ..candidates import TemporalHint
from ..subjects import PERSON_PREFIX
from ..temporal import find_dates, find_temporal
from .values import strip_temporal, value_phrase

if TYPE_CHECKING:
    from ..subjects import OwnedIndex
    from ..temporal import TemporalMatch

MAX_PROPOSALS = 256


@dataclass
class Proposal:
    """One claim a grammar read, before it becomes a candidate."""

    type: str
    subject: str
    statement: str
    polarity: str = Polarity.POSITIVE
    confidence: float = 0.6
    temporal: TemporalHint = field(default_factory=TemporalHint)
    # The words that name an owned thing, to drop it when the message retracts it.
    tokens: frozenset[str] = frozenset()


def hint(matches: Sequence["TemporalMatch"], near: int = 0) -> TemporalHint:
    """The time phrase of a clause that belongs to a claim starting at ``near``.

    The first phrase within or after the claim, else the closest one before it
    ("Until Friday, I prefer dark mode").
    """
    for match in matches:
        if match.end > near:
            return match.hint
    return matches[-1].hint if matches else TemporalHint()


# Words one of which a clause must contain for a pattern to possibly match;
# checking a set is much cheaper than running the expression. Keyed by
# identity: hashing a compiled pattern costs more than the lookup saves.
_TRIGGERS: dict[int, frozenset[str]] = {}


def triggers(table: dict[re.Pattern[str], str]) -> None:
    """Register each pattern of ``table`` with its trigger words (one string, space-separated)."""
    _TRIGGERS.update({id(pattern): frozenset(words.split()) for pattern, words in table.items()})


# Letters of any script: a trigger word may be "fiancée".
_CLAUSE_WORD_RE = re.compile(r"[^\W\d_]+")


class Clause:
    """One clause being read, with what the grammars found so far.

    ``before`` and ``after`` hold the other clauses of its sentence: where a
    pronoun of the clause finds what it stands for ("My iPad died and I threw
    it out"), and what the sentence goes on to say ("... and bought a new one").
    """

    def __init__(
        self,
        text: str,
        context: "MessageReader",
        *,
        before: Iterable[str] = (),
        after: Iterable[str] = (),
    ) -> None:
        self.text = text
        self.context = context
        self.before = tuple(before)
        self.after = tuple(after)
        self._temporal: list[TemporalMatch] | None = None
        self._dates: list[TemporalMatch] | None = None
        self.words = frozenset(_CLAUSE_WORD_RE.findall(text.lower()))
        # Where the clause's own proposals begin among the message's.
        self.first_proposal = len(context.positives)

    def find(self, pattern: re.Pattern[str]) -> Iterable[re.Match[str]]:
        """``pattern``'s matches, skipping the search when none of its trigger words occur."""
        words = _TRIGGERS.get(id(pattern))
        if words is not None and words.isdisjoint(self.words):
            return ()
        return pattern.finditer(self.text)

    @property
    def temporal(self) -> "list[TemporalMatch]":
        if self._temporal is None:
            self._temporal = find_temporal(self.text, self.context.occurred_at)
        return self._temporal

    @property
    def dates(self) -> "list[TemporalMatch]":
        """The days or periods to come the clause names ("next June", "on March 3rd")."""
        if self._dates is None:
            self._dates = find_dates(self.text, self.context.occurred_at)
        return self._dates

    def value(self, start: int, **options: Any) -> str | None:
        return value_phrase(self.value_text(start), **options)

    def value_text(self, start: int) -> str:
        """The clause's words from ``start``, cut before its first time phrase."""
        return strip_temporal(self.text[start:], self.temporal, start)


@dataclass
class Tally:
    """Proposals read so far in one extraction, duplicates included."""

    proposed: int = 0

    @property
    def exhausted(self) -> bool:
        return self.proposed >= MAX_PROPOSALS


class MessageReader:
    """The proposals of one message, before retractions remove what they retract."""

    def __init__(self, occurred_at: datetime, owned: "OwnedIndex", tally: Tally) -> None:
        self.occurred_at = occurred_at
        self.owned = owned
        self.tally = tally
        self.positives: list[Proposal] = []
        self.negatives: list[Proposal] = []
        self.retracted_mentions: list[frozenset[str]] = []

    def add(self, proposal: Proposal | None) -> None:
        """Keep ``proposal``; None (a claim with no valid subject) is passed over."""
        if proposal is not None and proposal.subject and not self.tally.exhausted:
            self.tally.proposed += 1
            self.positives.append(proposal)

    def add_negative(self, proposal: Proposal) -> None:
        if proposal.subject and not self.tally.exhausted:
            self.tally.proposed += 1
            self.negatives.append(proposal)

    def proposals(self) -> list[Proposal]:
        """Negatives, then the positives the message did not itself retract, deduplicated."""
        retracted = {p.subject for p in self.negatives}
        seen: set[tuple[str, ...]] = set()
        kept: list[Proposal] = []
        for proposal in self.negatives + self.positives:
            if proposal.polarity == Polarity.POSITIVE and (
                proposal.subject in retracted
                or any(m and m <= proposal.tokens for m in self.retracted_mentions)
            ):
                continue
            key: tuple[str, ...] = (proposal.subject, proposal.polarity)
            if proposal.type == BeliefType.FACT and proposal.subject.startswith(PERSON_PREFIX):
                # A person has a relationship with the owner and facts of their own, several.
                key = (*key, proposal.type, proposal.statement)
            if key in seen:
                continue
            seen.add(key)
            kept.append(proposal)
        return kept
