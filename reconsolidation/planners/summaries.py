"""Lossless related summaries: one view over the many claims of one subject. Pure.

A summary never replaces what it summarises. Each claim in it is attributed
to every original that states it, the originals stay intact, and whatever the
summary leaves out (claims over the cap) stays attributed to it as omitted
input, so that the summary says what it does not cover. Uncertainty is kept
in the open: a claim resting on a provisional original, or on one side of a
contradiction, is marked uncertain, and both sides of a contradiction stay in.
A summary covers one subject in one scope: beliefs about different people or
things, or visible to different assistants, are never summarised together.
"""

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import ClassVar, Literal, TypedDict, Unpack

from formation.subjects import shared_subjects
from memory.enums import BeliefStatus
from memory.text import claim_key
from reconsolidation.planners.hypotheses import NAMELESS_SUBJECTS
from reconsolidation.planners.labels import subject_label
from reconsolidation.planning import (
    SourceView,
    contradicts,
    current_policy_version,
    statement_words,
)

# Fewer distinct claims than this is a merge's business, or nothing to summarise.
SUMMARY_MIN_CLAIMS = 3
# Claims shown in one summary; the rest are recorded as omitted inputs.
SUMMARY_MAX_CLAIMS = 12

_NO_EVIDENCE = datetime.max.replace(tzinfo=UTC)
# Kinds whose one-word entity may be a first name ("person:maya", "pet:miso").
_FIRST_NAME_KINDS = frozenset({"person", "pet"})
_CAPITALISED_WORD = re.compile(r"(?<![\w'’-])[A-Z][^\W_]*(?![\w-])")


def may_be_first_name(shared: str, sources: Iterable[SourceView]) -> bool:
    """Whether the shared subject ``shared`` names one word that ``sources`` write as a
    name or hold as a person's or pet's key: anyone's first name, which does not tell
    two people apart. "Maya" may be Maya Lopez in one memory and Maya Chen in the next;
    "Maya Lopez", "the guitar" and "pottery" are more than a first name."""
    name = shared.partition(":")[2]
    if not name or "-" in name:
        return False
    for source in sources:
        kind, _, entity = source.subject.partition(":")
        if kind in _FIRST_NAME_KINDS and entity == name:
            return True
        if any(word.casefold() == name for word in _CAPITALISED_WORD.findall(source.statement)):
            return True
    return False


def claim_fingerprint(subject: str, type: str, polarity: str, statement: str) -> str:
    """A namespaced hash of one summary claim, without its text.

    Equivalent statements (case, punctuation and articles aside) share it, so
    a suppressed claim stays suppressed however it is restated; "" for a
    statement without words.
    """
    key = claim_key(subject, type, polarity, statement)
    if not key:
        return ""
    return hashlib.sha256(f"reconsolidation:summary-claim:{key}".encode()).hexdigest()


@dataclass(frozen=True)
class ClaimPlan:
    """One distinct claim of a subject and every original that states it, earliest first."""

    type: str
    polarity: str
    # The earliest support's wording: a copy of source text.
    statement: str
    uncertain: bool
    fingerprint: str
    supports: tuple[SourceView, ...]

    def __hash__(self) -> int:
        # Equal claims have equal fingerprints; hashing every support instead
        # would make each lookup as long as the claim's list of originals.
        return hash(self.fingerprint)

    # Computed once: the committing transaction asks for it with every check of a plan.
    @cached_property
    def belief_ids(self) -> frozenset[int]:
        return frozenset(source.pk for source in self.supports)


@dataclass(frozen=True)
class SummaryPlan:
    """The claims of one subject in one scope: ``claims`` shown, ``omitted`` left out."""

    subject: str
    scope: str
    claims: tuple[ClaimPlan, ...]
    omitted: tuple[ClaimPlan, ...]
    # Every belief read, shown or omitted, by primary key.
    sources: tuple[SourceView, ...]
    policy_version: str = field(default_factory=current_policy_version, compare=False)
    # A topic a model proposed and verified, and the verification call that agreed
    # (``reconsolidation.assisted``).
    assisted: bool = field(default=False, compare=False)
    provider_call_id: int | None = field(default=None, compare=False)
    kind: ClassVar[Literal["summary"]] = "summary"

    def __hash__(self) -> int:
        # Plans are looked up by value while they are applied; a popular
        # subject's plan holds thousands of sources, and equal plans share
        # their subject and scope.
        return hash((self.subject, self.scope))

    # Computed once: a popular subject's plan holds thousands of sources.
    @cached_property
    def belief_ids(self) -> frozenset[int]:
        return frozenset(source.pk for source in self.sources)


class AssistedFields(TypedDict, total=False):
    """What a summary a model proposed and verified adds to its plan."""

    assisted: bool
    provider_call_id: int | None


def _order(source: SourceView) -> tuple[bool, datetime, int]:
    """Earliest evidence first (none last), then the older row."""
    return (source.evidence_at is None, source.evidence_at or _NO_EVIDENCE, source.pk)


def _claims(group: Iterable[SourceView], contested: Collection[str]) -> list[ClaimPlan]:
    """The distinct claims of beliefs about one subject, in order of their earliest support.

    ``contested`` is the set of the beliefs' own subjects that hold a
    contradiction; a claim is kept apart per own subject, so that the same
    words about two subjects stay two claims.
    """
    by_claim: dict[tuple[str, str, str, tuple[str, ...]], list[SourceView]] = {}
    for source in sorted(group, key=_order):
        words = statement_words(source.statement)
        if words:
            key = (source.subject, source.type, source.polarity, words)
            by_claim.setdefault(key, []).append(source)
    return [
        ClaimPlan(
            type=supports[0].type,
            polarity=supports[0].polarity,
            statement=supports[0].statement,
            # On one subject, both polarities or two values of a single-valued
            # subject put every claim on one side of the contradiction.
            uncertain=supports[0].subject in contested
            or any(source.status == BeliefStatus.PROVISIONAL for source in supports),
            fingerprint=claim_fingerprint(
                supports[0].subject, supports[0].type, supports[0].polarity, supports[0].statement
            ),
            supports=tuple(supports),
        )
        for supports in by_claim.values()
    ]


def _shown(claims: list[ClaimPlan], contested: bool) -> list[ClaimPlan]:
    """The first ``SUMMARY_MAX_CLAIMS`` claims, with both sides of a contradiction kept.

    Two values of a single-valued subject are already two sides; a polarity
    contradiction needs a claim of each polarity, so the earliest claim of a
    polarity the cap would drop takes the last place.
    """
    shown = claims[:SUMMARY_MAX_CLAIMS]
    if contested and len(claims) > SUMMARY_MAX_CLAIMS:
        for polarity in sorted({claim.polarity for claim in claims}):
            if all(claim.polarity != polarity for claim in shown):
                first = next(claim for claim in claims if claim.polarity == polarity)
                shown = shown[:-1] + [first]
    order = {claim: index for index, claim in enumerate(claims)}
    return sorted(shown, key=order.__getitem__)


def plan_summaries(sources: Iterable[SourceView]) -> list[SummaryPlan]:
    """A summary plan for every subject (and scope) holding at least ``SUMMARY_MIN_CLAIMS``
    distinct claims among the live beliefs ``sources``.

    One pass with a dictionary keyed by subject and scope: no pair of beliefs
    is compared. Beliefs without a subject, or on the catch-all subject of
    statements without content words, name nothing to summarise.
    """
    groups: dict[tuple[str, str], dict[int, SourceView]] = {}
    for source in sources:
        if source.subject and source.subject not in NAMELESS_SUBJECTS:
            groups.setdefault((source.subject, source.scope), {})[source.pk] = source
    plans: list[SummaryPlan] = []
    for (subject, scope), by_pk in sorted(groups.items()):
        group = list(by_pk.values())
        contested: set[str] = {subject} if contradicts(group) else set()
        plan = _plan(subject, scope, group, contested)
        if plan:
            plans.append(plan)
    return plans


def _plan(
    subject: str,
    scope: str,
    group: list[SourceView],
    contested: Collection[str],
    **fields: Unpack[AssistedFields],
) -> SummaryPlan | None:
    claims = _claims(group, contested)
    if len(claims) < SUMMARY_MIN_CLAIMS:
        return None
    shown = _shown(claims, bool(contested))
    # A set: a popular subject has thousands of claims to leave out.
    kept = set(shown)
    return SummaryPlan(
        subject=subject,
        scope=scope,
        claims=tuple(shown),
        omitted=tuple(claim for claim in claims if claim not in kept),
        sources=tuple(sorted(group, key=lambda source: source.pk)),
        **fields,
    )


def plan_topic_summary(
    subject: str, sources: Sequence[SourceView], **fields: Unpack[AssistedFields]
) -> SummaryPlan | None:
    """The summary plan of the live beliefs ``sources`` (one scope, several subjects) under
    the topic ``subject``, or None when they hold fewer than ``SUMMARY_MIN_CLAIMS`` distinct
    claims. The beliefs are the caller's verified subset: this planner only lays them out,
    exactly as it lays out a subject's or a shared name's beliefs. ``fields`` are the plan's
    ``assisted`` and ``provider_call_id``."""
    own: dict[str, list[SourceView]] = {}
    for source in sources:
        own.setdefault(source.subject, []).append(source)
    contested = {subject for subject, beliefs in own.items() if contradicts(beliefs)}
    return _plan(subject, sources[0].scope, list(sources), contested, **fields)


def plan_entity_summaries(
    sources: Iterable[SourceView],
    *,
    names: Collection[str] | None = None,
    summarised: Mapping[str, Iterable[int]] | None = None,
) -> list[SummaryPlan]:
    """A summary plan for every shared subject (``entity:<name>``, see
    ``formation.subjects.shared_subjects``) that beliefs of at least two of their own
    subjects have in common, in one scope, with at least ``SUMMARY_MIN_CLAIMS`` distinct
    claims among the live beliefs ``sources``.

    This is how what the owner said about one person, place or thing in
    different sessions is read together: formation keeps a subject per claim
    (its conflict key), and the name they share gathers them. A claim is
    uncertain when its own subject holds a contradiction; a group of one own
    subject is that subject's summary, not this.

    ``names``, when given, are the shared subjects whose beliefs ``sources``
    hold whole; no other is planned, since a plan over some of a name's beliefs
    would replace its summary of all of them. ``summarised`` maps a shared
    subject to the beliefs its active summary covers. A name whose beliefs
    another name's group or active summary also holds says nothing new: the
    words of one compound ("ice cream") or one thing ("video game" within
    "game") name the same memories, and only the larger group is summarised
    (of two equal ones, the first name).

    Person identity is never compressed away: a name that may be a first name alone
    (``may_be_first_name``) gathers nothing, since two people can share it. A person's
    memories are read together under their own subject (``person:maya-lopez``) or a
    name of more than one word.
    """
    groups: dict[tuple[str, str], dict[int, SourceView]] = {}
    for source in sources:
        for shared in shared_subjects(source.subject, source.statement):
            groups.setdefault((shared, source.scope), {})[source.pk] = source
    held = {key: frozenset(by_pk) for key, by_pk in groups.items()}
    # What each name is known to hold whole: its group if it was read whole,
    # else its active summary's beliefs.
    # else its active summary's beliefs (which already stands, so an equal group
    # of another name adds nothing whatever the names' order).
    whole = [
        (shared, ids, False)
        for (shared, _scope), ids in held.items()
        if names is None or shared in names
    ]
    whole += [(shared, frozenset(ids), True) for shared, ids in (summarised or {}).items()]
    plans: list[SummaryPlan] = []
    for (shared, scope), by_pk in sorted(groups.items()):
        if names is not None and shared not in names:
            continue
        ids = held[(shared, scope)]
        if any(
            other != shared
            and (ids < other_ids or (ids == other_ids and (active or other < shared)))
            for other, other_ids, active in whole
        ):
            continue
        group = list(by_pk.values())
        own: dict[str, list[SourceView]] = {}
        for source in group:
            own.setdefault(source.subject, []).append(source)
        if len(own) < 2 or may_be_first_name(shared, group):
            continue
        contested = {subject for subject, beliefs in own.items() if contradicts(beliefs)}
        plan = _plan(shared, scope, group, contested)
        if plan:
            plans.append(plan)
    return plans


def summary_statement(subject: str, claims: Sequence[ClaimPlan], omitted: int) -> str:
    """What a summary says: its subject as its claims write it, its claims in order, each
    marked when uncertain, and how many claims it leaves out. Copies source text."""
    parts = [
        claim.statement.strip().rstrip(".!;") + (" (uncertain)" if claim.uncertain else "")
        for claim in claims
    ]
    label = subject_label(subject, [claim.statement for claim in claims])
    text = f"About {label}: " + "; ".join(parts) + "."
    if omitted:
        text += f" ({omitted} more {'claim' if omitted == 1 else 'claims'} omitted.)"
    return text
