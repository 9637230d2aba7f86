"""Tentative hypotheses: two different subjects of one owner that may be connected. Pure.

A subject key names an entity (``device:apple-watch`` names "apple watch");
when beliefs of another subject mention it (``topic:running``: "Runs with the
Apple Watch"), the two subjects may be connected. Such a guess is only made
when it rests on at least two independent original events: a belief on one
side and a belief on the other that are independent evidence (memory.evidence: from
different sessions), so that one conversation cannot corroborate itself. It never
links beliefs of different scopes, it is never evidence (its confidence is
capped and it creates no belief), and it lives only a finite time after the
newest evidence it rests on.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar, Literal, Protocol

from django.conf import settings
from django.utils import timezone

from memory.evidence import independent
from memory.text import STOPWORDS, claim_words
from reconsolidation.planners.labels import subject_label
from reconsolidation.planning import SINGLE_VALUED_SUBJECTS, SourceView, current_policy_version

# A guess is never surer than this, whatever its sources say.
CONFIDENCE_CAP = 0.5
# Beliefs kept per side of a hypothesis, oldest first: enough to show where the
# connection comes from, and few enough that its lineage and promotion stay small.
SIDE_BELIEFS = 4
# ``topic:general`` is where statements without content words land: it names nothing.
NAMELESS_SUBJECTS = frozenset({"topic:general"})
_ENTITY_SEPARATOR_RE = re.compile(r"[-:]")

# A belief's original evidence: (its source events' ids, their sessions' ids).
BeliefEvents = tuple[frozenset[int], frozenset[int]]


class _Claim(Protocol):
    """A belief as a ``SourceView`` or a ``Belief`` row: what its subject and words are."""

    @property
    def subject(self) -> str: ...
    @property
    def statement(self) -> str: ...


class _Dated(Protocol):
    """A belief as a ``SourceView`` or a ``Belief`` row: when its evidence and life end."""

    @property
    def evidence_at(self) -> datetime | None: ...
    @property
    def expires_at(self) -> datetime | None: ...
    @property
    def valid_until(self) -> datetime | None: ...


@dataclass(frozen=True)
class HypothesisPlan:
    """Subject ``subjects[0]`` (whose entity is ``entity``) may be connected to ``subjects[1]``."""

    sources: tuple[SourceView, ...]
    subjects: tuple[str, str]
    entity: str
    confidence: float
    evidence_at: datetime
    expires_at: datetime
    policy_version: str = field(default_factory=current_policy_version, compare=False)
    kind: ClassVar[Literal["hypothesis"]] = "hypothesis"

    @property
    def belief_ids(self) -> frozenset[int]:
        return frozenset(source.pk for source in self.sources)

    @property
    def statement(self) -> str:
        return hypothesis_statement(*self.subjects, [source.statement for source in self.sources])


def hypothesis_statement(subject: str, other: str, texts: Iterable[str] = ()) -> str:
    """What a hypothesis says: fixed words around the two subjects, named as ``texts`` (their
    sources' statements) write them. The first subject is the entity both mention."""
    named = subject_label(subject, texts)
    return (
        f"{named} and {subject_label(other, texts)} may be connected: "
        f"memories of both mention {named}."
    )


def promotion_statement(subject: str, sources: Sequence[_Claim]) -> str:
    """What an owner who promotes the hypothesis about ``subject`` over ``sources`` (beliefs
    with a subject and a statement) asserts, unless they word it themselves: the connection
    it names, its subjects written as the sources write them."""
    other = next((source.subject for source in sources if source.subject != subject), "")
    texts = [source.statement for source in sources]
    return f"{subject_label(subject, texts)} is connected to {subject_label(other, texts)}."


def entity_words(subject: str) -> tuple[str, ...]:
    """The words an entity subject's key names, in order; () when it names no entity.

    Preference subjects hold settings rather than entities, and a key made only
    of function words would match almost any statement.
    """
    if not subject or subject in SINGLE_VALUED_SUBJECTS or subject in NAMELESS_SUBJECTS:
        return ()
    kind, _, entity = subject.partition(":")
    if kind == "pref":
        return ()
    tokens = claim_words(_ENTITY_SEPARATOR_RE.sub(" ", entity))
    if not any(token not in STOPWORDS and len(token) > 1 for token in tokens):
        return ()
    return tokens


def _mentions(words: tuple[str, ...], tokens: tuple[str, ...]) -> bool:
    """Whether ``tokens`` occur in ``words`` as one contiguous run."""
    width = len(tokens)
    return any(words[i : i + width] == tokens for i in range(len(words) - width + 1))


def _independent(
    side: list[SourceView], other: list[SourceView], events: Mapping[int, BeliefEvents]
) -> list[SourceView]:
    """The beliefs of ``side`` that are independent evidence (``memory.evidence``: no
    session in common, so no source event either) of some belief of ``other``."""
    return [
        source
        for source in side
        if any(independent(events[source.pk][1], events[o.pk][1]) for o in other)
    ]


def _grounded(
    side: Mapping[int, SourceView], events: Mapping[int, BeliefEvents]
) -> list[SourceView]:
    """Beliefs with original source events, oldest first, at most ``SIDE_BELIEFS``.

    The cap comes before the independence check, so that the work per pair is
    bounded; a pair whose first beliefs all share sessions is not guessed at.
    """
    return sorted(
        (source for source in side.values() if events.get(source.pk, ((), ()))[0]),
        key=lambda source: source.pk,
    )[:SIDE_BELIEFS]


def hypothesis_lifetime(
    sources: Sequence[_Dated], lifetime: timedelta
) -> tuple[datetime, datetime] | None:
    """(newest evidence, end of life) of a hypothesis over ``sources``, or None without evidence.

    The end is counted from the sources' evidence, never from the time of
    derivation, and comes no later than any source expires or stops being valid.
    """
    evidence = [source.evidence_at for source in sources if source.evidence_at]
    if not evidence:
        return None
    newest = max(evidence)
    ends = [newest + lifetime]
    ends += [source.expires_at for source in sources if source.expires_at]
    ends += [source.valid_until for source in sources if source.valid_until]
    return newest, min(ends)


def configured_lifetime() -> timedelta:
    return timedelta(days=settings.REVERIE_RECONSOLIDATION["hypothesis_lifetime_days"])


def plan_hypotheses(
    sources: Iterable[SourceView],
    events: Mapping[int, BeliefEvents],
    *,
    now: datetime | None = None,
    lifetime: timedelta | None = None,
) -> list[HypothesisPlan]:
    """Hypothesis plans among ``sources`` (live original beliefs of one owner).

    ``events`` maps a belief's pk to ``(frozenset of source event ids, frozenset
    of session ids)``; a belief missing from it has no original evidence. A
    hypothesis whose lifetime is already over at ``now`` is not planned.

    Mentions are found through an index of statement words: each entity is
    looked up under its rarest word, so no two beliefs are compared directly.
    """
    now = now or timezone.now()
    lifetime = configured_lifetime() if lifetime is None else lifetime
    unique = {source.pk: source for source in sources}
    words = {pk: claim_words(source.statement) for pk, source in unique.items()}
    by_word: dict[str, list[SourceView]] = {}
    subjects: dict[tuple[str, str], dict[int, SourceView]] = {}
    for pk, source in unique.items():
        for word in set(words[pk]):
            by_word.setdefault(word, []).append(source)
        if source.subject:
            subjects.setdefault((source.scope, source.subject), {})[pk] = source

    # (scope, pair of subjects) -> {subject: {pk: belief on that side}}, plus the
    # subjects whose entity the other side mentions.
    sides: dict[tuple[str, frozenset[str]], dict[str, dict[int, SourceView]]] = {}
    entities: dict[tuple[str, frozenset[str]], set[str]] = {}
    for (scope, subject), own in subjects.items():
        tokens = entity_words(subject)
        if not tokens:
            continue
        postings = min((by_word.get(token, ()) for token in tokens), key=len)
        for source in postings:
            if (
                source.scope != scope
                or source.subject == subject
                or not source.subject
                or not _mentions(words[source.pk], tokens)
            ):
                continue
            key = (scope, frozenset((subject, source.subject)))
            pair = sides.setdefault(key, {subject: {}, source.subject: {}})
            pair[subject].update(own)
            pair[source.subject][source.pk] = source
            entities.setdefault(key, set()).add(subject)

    plans: list[HypothesisPlan] = []
    for key, pair in sides.items():
        named = min(entities[key])
        (other,) = set(pair) - {named}
        side, other_side = _grounded(pair[named], events), _grounded(pair[other], events)
        kept = _independent(side, other_side, events) + _independent(other_side, side, events)
        if not kept:
            continue
        lifetime_span = hypothesis_lifetime(kept, lifetime)
        if lifetime_span is None or lifetime_span[1] <= now:
            continue
        plans.append(
            HypothesisPlan(
                sources=tuple(sorted(kept, key=lambda source: source.pk)),
                subjects=(named, other),
                entity=" ".join(entity_words(named)),
                confidence=min(CONFIDENCE_CAP, *(source.confidence for source in kept)),
                evidence_at=lifetime_span[0],
                expires_at=lifetime_span[1],
            )
        )
    return sorted(plans, key=lambda plan: (min(plan.belief_ids), plan.subjects))
