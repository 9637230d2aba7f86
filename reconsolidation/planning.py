"""Deterministic planners: which original beliefs an operation would cover. Pure functions.

A false merge (two different claims shown as one) is the worst failure of
reconsolidation, so equivalence is strict: the same subject, type, polarity,
scope, sensitivity and validity window, and the same statement once case,
spacing, punctuation and articles are set aside. Word order counts ("Ann
called Bob" is not "Bob called Ann"), and so does every other word.
"""

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol, TypeAlias

from memory.text import claim_key, claim_words
from reconsolidation.planners.claim_parts import PredicateKey, claim_parts, predicate_sides
from reconsolidation.planners.labels import subject_label

if TYPE_CHECKING:
    from reconsolidation.planners.hypotheses import HypothesisPlan
    from reconsolidation.planners.summaries import SummaryPlan

POLICY_VERSION = "reconsolidation@1"


def current_policy_version() -> str:
    """The policy planners plan under now; each plan keeps the one it was made under, and
    the commit refuses a plan whose policy is no longer current."""
    return POLICY_VERSION


@dataclass(frozen=True)
class SourceView:
    """What a planner reads of one original belief."""

    pk: int
    public_id: str
    revision: int
    type: str
    subject: str
    statement: str
    polarity: str
    scope: str
    sensitivity: str
    portability: str
    confidence: float
    valid_from: datetime | None
    valid_until: datetime | None
    evidence_at: datetime | None
    # A hypothesis lives no longer than any of its sources.
    expires_at: datetime | None = None
    # A summary claim resting on a provisional original is uncertain.
    status: str = "active"
    # The indexed hash of the claim: where the full scan meets the belief.
    claim_key: str = ""


@dataclass(frozen=True)
class MergePlan:
    sources: tuple[SourceView, ...]
    policy_version: str = field(default_factory=current_policy_version, compare=False)
    # A merge of different wordings that a model proposed and verified, and the
    # verification call that agreed (``reconsolidation.assisted``).
    assisted: bool = False
    provider_call_id: int | None = field(default=None, compare=False)
    kind: ClassVar[Literal["merge"]] = "merge"

    @property
    def belief_ids(self) -> frozenset[int]:
        return frozenset(source.pk for source in self.sources)


# What beliefs with the same claim share: subject, type, polarity, scope, sensitivity,
# validity window and words.
EquivalenceKey: TypeAlias = tuple[
    str, str, str, str, str, datetime | None, datetime | None, tuple[str, ...]
]

# Every kind of plan an operation is made from.
Plan: TypeAlias = "MergePlan | NoticePlan | HypothesisPlan | SummaryPlan"


def statement_words(statement: str) -> tuple[str, ...]:
    """The statement's words, in order, without case, punctuation or articles."""
    return claim_words(statement)


def equivalence_key(source: SourceView) -> EquivalenceKey | None:
    """Beliefs with equal keys state the same claim; anything else that differs keeps them apart."""
    words = statement_words(source.statement)
    if not words:
        return None
    return (
        source.subject,
        source.type,
        source.polarity,
        source.scope,
        source.sensitivity,
        source.valid_from,
        source.valid_until,
        words,
    )


def plan_merges(sources: Iterable[SourceView]) -> list[MergePlan]:
    """Merge plans for every group of two or more equivalent beliefs among ``sources``.

    One pass over the input with a dictionary keyed by the equivalence key:
    no pair of beliefs is ever compared directly. (The pass finds the input
    through ``Belief.claim_key``, the indexed hash of the same words.)
    """
    groups: dict[EquivalenceKey, list[SourceView]] = {}
    for source in sources:
        key = equivalence_key(source)
        if key is not None:
            groups.setdefault(key, []).append(source)
    return [
        MergePlan(sources=tuple(sorted(group, key=lambda s: s.pk)))
        for group in groups.values()
        if len(group) > 1
    ]


# Subjects that hold one value at a time: two different live claims on one of
# them cannot both be true.
SINGLE_VALUED_SUBJECTS = frozenset(
    {"pref:answer-style", "pref:interface-theme", "pref:indentation-style", "pref:units"}
)


def notice_statement(subject: str, texts: Iterable[str] = ()) -> str:
    """What a notice says: fixed words around its subject, named as ``texts`` (its sources'
    statements) write it. Nothing else of their text is copied: a notice takes no side."""
    return f"Your memories about {subject_label(subject, texts)} may contradict each other."


@dataclass(frozen=True)
class NoticePlan:
    """Live beliefs of one subject that contradict each other: a notice depends on all."""

    sources: tuple[SourceView, ...]
    policy_version: str = field(default_factory=current_policy_version, compare=False)
    kind: ClassVar[Literal["uncertainty_notice"]] = "uncertainty_notice"

    @property
    def belief_ids(self) -> frozenset[int]:
        return frozenset(source.pk for source in self.sources)


class Claim(Protocol):
    """What ``contradicts`` weighs of a belief: a ``SourceView`` or a lighter row."""

    @property
    def subject(self) -> str: ...
    @property
    def polarity(self) -> str: ...
    @property
    def statement(self) -> str: ...


def contradicts(group: Sequence[Claim]) -> bool:
    """Whether live beliefs of one subject and scope contradict each other: they hold both
    polarities, different claims on a single-valued subject, or one object with opposite
    signs ("likes coffee", "does not like coffee") or contrasting predicates ("owns a red
    bicycle", "sold the red bicycle").

    Each belief's sign is found under a key per side it stands on, so no two beliefs are
    compared directly. The answer depends on the subject and its distinct claims alone.
    """
    return _contradicting(
        group[0].subject, frozenset((source.polarity, source.statement) for source in group)
    )


# A full scan weighs a popular subject again in most of its slices (whenever one
# holds a claim that may turn another), and plans its summary from the same claims.
@lru_cache(maxsize=1 << 12)
def _contradicting(subject: str, claims: frozenset[tuple[str, str]]) -> bool:
    """``contradicts`` of a subject's distinct ``(polarity, statement)`` claims."""
    if len({polarity for polarity, _ in claims}) > 1:
        return True
    if subject in SINGLE_VALUED_SUBJECTS and (
        len({statement_words(statement) for _, statement in claims}) > 1
    ):
        return True
    signs: dict[tuple[frozenset[str], PredicateKey], int] = {}
    for polarity, statement in claims:
        parts = claim_parts(statement)
        if not parts.predicate:
            continue
        form = dict(parts.forms).get(parts.predicate, "")
        for key, side in predicate_sides(parts.predicate, form):
            sign = side ^ parts.negated ^ (polarity == "negative")
            seen = signs.setdefault((parts.objects, key), sign)
            if seen != sign:
                return True
    return False


def plan_notices(sources: Iterable[SourceView]) -> list[NoticePlan]:
    """A notice plan for every subject (and scope) whose live beliefs contradict each other.

    Neither side is chosen or suppressed: the notice only points at all of them.
    """
    groups: dict[tuple[str, str], dict[int, SourceView]] = {}
    for source in sources:
        if source.subject:
            groups.setdefault((source.subject, source.scope), {})[source.pk] = source
    return [
        NoticePlan(sources=tuple(sorted(group.values(), key=lambda s: s.pk)))
        for group in groups.values()
        if len(group) > 1 and contradicts(list(group.values()))
    ]


def suppression_fingerprint(plan: Plan) -> str:
    """A namespaced hash of what ``plan`` would claim, without its text.

    A merge claims its sources' statement, so equivalent claims share the
    fingerprint whatever their sources; a notice claims that one subject (in
    one scope) is contradictory; a hypothesis claims that two subjects (in one
    scope) are connected, whichever of them names the shared entity; a summary
    claims exactly its shown claims about one subject in one scope (each of
    those claims has its own fingerprint too).
    """
    # The planners of hypotheses and summaries build on this module.
    from reconsolidation.planners.hypotheses import HypothesisPlan
    from reconsolidation.planners.summaries import SummaryPlan

    first = plan.sources[0]
    if isinstance(plan, MergePlan) and plan.assisted:
        # Its sources are worded differently: the merge claims all their wordings are one.
        what = "\x1f".join(
            sorted({claim_key(s.subject, s.type, s.polarity, s.statement) for s in plan.sources})
        )
    elif isinstance(plan, MergePlan):
        what = claim_key(first.subject, first.type, first.polarity, first.statement)
    elif isinstance(plan, HypothesisPlan):
        what = "\x1f".join([*sorted(plan.subjects), first.scope])
    elif isinstance(plan, SummaryPlan):
        what = "\x1f".join([plan.subject, plan.scope, *sorted(c.fingerprint for c in plan.claims)])
    else:
        what = f"{first.subject}\x1f{first.scope}"
    return hashlib.sha256(f"reconsolidation:{plan.kind}:{what}".encode()).hexdigest()
