"""Automatic formation: consolidate a quiet session's new messages into memories.

The extractor only proposes (``formation``); this service decides. It
reads the unconsolidated prefix of a session, runs the extractor outside any
transaction, then claims the (principal, session) prefix, rechecks the
watermark and commits the accepted beliefs, one aggregate audit and the new
watermark together. Every proposal the extractor returned ends in exactly one
count of that audit.
"""

import logging
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.module_loading import import_string

from accounts.models import User
from common.principal import principal_context, principal_transaction
from common.selectors.flags import flag_enabled
from formation.candidates import (
    PROPOSER_MODEL,
    ExtractionMessage,
    ExtractionRequest,
    ExtractionResult,
    KnownBelief,
    MemoryCandidate,
    MemoryCandidateExtractor,
)
from formation.challenges import challenge_raise, kept_before
from formation.checks import Rejected, TemporalBounds, proposal_check
from formation.grounding import says_nothing_more
from formation.hybrid import HybridExtractor
from formation.models import ConsolidationWatermark, ExtractionAudit, FormationAudit, FormationRetry
from formation.preference_axes import relation
from formation.selectors import formation_due
from formation.subjects import PERSON_PREFIX
from memory.enums import (
    LIVE_BELIEF_STATUSES,
    MESSAGE_EVENT_TYPES,
    Actor,
    AuditAction,
    Authority,
    BeliefStatus,
    BeliefType,
    EventType,
    Polarity,
    Portability,
    Sensitivity,
    most_restrictive,
)
from memory.evidence import independent, pieces
from memory.models import Belief, BeliefSource, Event, FencedEvent, Session
from memory.screening import classify_sensitivity
from memory.selectors.sessions import session_get
from memory.services.records import DeferredRecords, excerpt_of, insert_beliefs, retire_if_unchanged
from memory.services.sessions import formation_request_for_messages, system_event_append
from memory.text import claim_fingerprint

logger = logging.getLogger(__name__)

# The service reads at most this many proposals of one consolidation, however
# many the extractor returned; the rest count as rejected ("excess").
MAX_CONSUMED = 12
# An inferred memory's confidence stays at or below this until a message of another
# conversation, independent evidence (memory.evidence), states it again.
INFERRED_CONFIDENCE_CAP = 0.55
REINFORCED_CONFIDENCE_CAP = 0.8
REINFORCEMENT_STEP = 0.15
# Live memories shown to the extractor, newest first, so that "I sold the BMW"
# can name the subject it retracts.
KNOWN_BELIEFS = 500
# Advisory lock namespace of formation claims (any fixed 32-bit number).
FORMATION_LOCK = 0x52564D46


@dataclass
class _Tally:
    returned: int = 0
    consumed: int = 0
    committed: int = 0
    reinforced: int = 0
    superseded: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def reject(self, reason: str, count: int = 1) -> None:
        if count:
            self.reasons[reason] += count

    @property
    def rejected(self) -> int:
        return sum(self.reasons.values())


def configured_extractor() -> MemoryCandidateExtractor:
    """The configured extractor (``REVERIE_FORMATION["extractor"]``), on its own."""
    extractor: MemoryCandidateExtractor = import_string(settings.REVERIE_FORMATION["extractor"])()
    return extractor


def formation_extractor() -> MemoryCandidateExtractor:
    """The configured extractor, assisted by the configured provider while the certified
    ``formation_provider`` capability is on."""
    extractor = configured_extractor()
    if flag_enabled("formation_provider"):
        return HybridExtractor(extractor)
    return extractor


def _prefix(
    principal: User, session_id: uuid.UUID | str
) -> tuple[Session, int, int, list[Event]] | None:
    """The session, its watermark and its unconsolidated messages, or None if up to date."""
    session = Session.objects.select_related("watermark", "formation_retry").get(
        owner=principal, public_id=session_id
    )
    watermark = session.watermark.sequence if hasattr(session, "watermark") else 0
    if session.last_sequence <= watermark:
        return None
    messages = list(
        Event.objects.filter(
            owner=principal,
            session=session,
            sequence__gt=watermark,
            sequence__lte=session.last_sequence,
            event_type__in=MESSAGE_EVENT_TYPES,
            redacted_at__isnull=True,
        ).order_by("sequence")
    )
    return session, watermark, session.last_sequence, messages


def _request(principal: User, session: Session, messages: Sequence[Event]) -> ExtractionRequest:
    known = tuple(
        KnownBelief(**fields)
        for fields in Belief.objects.filter(
            owner=principal, status__in=LIVE_BELIEF_STATUSES, scope=session.scope
        )
        .order_by("-updated_at", "-id")
        .values("subject", "statement", "type", "polarity", "sensitivity", "portability", "scope")[
            :KNOWN_BELIEFS
        ]
    )
    return ExtractionRequest(
        messages=tuple(
            ExtractionMessage(
                id=str(event.public_id),
                event_type=event.event_type,
                author_kind=event.author_kind,
                parts=tuple(part.get("text", "") for part in event.parts),
                occurred_at=event.occurred_at,
            )
            for event in messages
        ),
        known=known,
        scope=session.scope,
        principal=principal,
    )


def _claim(session: Session) -> bool:
    """Claim the session's prefix for this transaction; False if another worker holds it.

    Two workers may select the same session; only one may commit its prefix.
    PostgreSQL: a transaction-scoped advisory lock, released at commit or
    rollback. SQLite: the IMMEDIATE transaction already holds the database's
    write lock, so the watermark recheck that follows is enough.
    """
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock(%s, %s)",
            [FORMATION_LOCK, session.pk % 2_147_483_647],
        )
        row = cursor.fetchone()
        return bool(row and row[0])


def formation_consolidate(
    *,
    principal: User,
    session_id: uuid.UUID | str,
    extractor: MemoryCandidateExtractor | None = None,
) -> FormationAudit | None:
    """Form memories from the session's messages since its watermark; return the audit.

    Returns None when there is nothing new to consolidate. Contention (another
    worker holds or has already committed the prefix) is a no-op recorded as
    such; an exception rolls everything back and leaves the prefix pending.
    """
    started_at, started = timezone.now(), time.monotonic()
    extractor = extractor or formation_extractor()
    with principal_context(principal):
        prefix = _prefix(principal, session_id)
        if prefix is None:
            return None
        session, from_watermark, to_sequence, messages = prefix
        request = _request(principal, session, messages)
    # No transaction is open while the extractor works.
    result = extractor.extract(request)
    returned = list(result.candidates)
    tally = _Tally(returned=len(returned))
    with principal_transaction(principal):
        # The session's lock first, then its watermark's: the order appends and
        # erasure take them in.
        Session.objects.select_for_update().get(pk=session.pk)
        formation = FormationAudit.objects.create(
            owner=principal,
            session=session,
            policy_version=result.policy_version,
            outcome=FormationAudit.Outcome.COMMITTED,
            from_sequence=from_watermark + 1,
            to_sequence=to_sequence,
            started_at=started_at,
        )
        watermark = (
            ConsolidationWatermark.objects.select_for_update()
            .filter(owner=principal, session=session)
            .first()
        )
        _record_extraction(principal, session, formation, result)
        if not _claim(session) or (watermark and watermark.sequence >= to_sequence):
            tally.reject("contention", len(returned))
            return _finish(formation, tally, started, FormationAudit.Outcome.CONTENTION)
        selected = {str(event.public_id): event for event in messages}
        _consume(principal, session, formation, returned[:MAX_CONSUMED], selected, tally)
        tally.reject("excess", len(returned[MAX_CONSUMED:]))
        if watermark is None:
            ConsolidationWatermark.objects.create(
                owner=principal, session=session, sequence=to_sequence
            )
        else:
            watermark.sequence = to_sequence
            watermark.save(update_fields=["sequence", "updated_at"])
        # Messages appended while the extractor worked are past the new watermark:
        # flag them unless a flag already waits (the session's lock ordered this
        # after any append in flight, whose own check saw the old watermark).
        formation_request_for_messages(Session.objects.select_for_update().get(pk=session.pk))
        if hasattr(session, "formation_retry"):
            # Consolidated at last: nothing is waiting for a retry any more.
            FormationRetry.objects.filter(owner=principal, session=session).delete()
        return _finish(formation, tally, started, FormationAudit.Outcome.COMMITTED)


def _record_extraction(
    principal: User, session: Session, formation: FormationAudit, result: ExtractionResult
) -> None:
    """The content-free record of a provider attempt: an ``ExtractionAudit`` and a
    ``memory.extraction.completed`` event in the session's log: provider, model,
    policy, usage, counts, fallback and error class, never text."""
    if not result.attempted:
        return
    extraction = ExtractionAudit.objects.create(
        owner=principal,
        formation=formation,
        provider=result.provider,
        model=result.model,
        model_policy=result.policy_version,
        usage=result.usage,
        returned_count=result.returned_count,
        dropped=result.dropped,
        fallback=result.fallback,
        error_class=result.error_class,
    )
    system_event_append(
        principal=principal,
        session_id=session.public_id,
        event_type=EventType.EXTRACTION_COMPLETED,
        payload={
            "extraction_id": str(extraction.public_id),
            "provider": result.provider,
            "model": result.model,
            "policy": result.policy_version,
            "usage": result.usage,
            "returned_count": result.returned_count,
            "fallback": result.fallback,
            "error_class": result.error_class,
        },
    )


def _finish(
    formation: FormationAudit, tally: _Tally, started: float, outcome: str
) -> FormationAudit:
    formation.outcome = outcome
    formation.returned_count = tally.returned
    formation.consumed_count = tally.consumed
    formation.committed_count = tally.committed
    formation.reinforced_count = tally.reinforced
    formation.superseded_count = tally.superseded
    formation.rejected_count = tally.rejected
    formation.rejection_reasons = dict(sorted(tally.reasons.items()))
    formation.duration_ms = int((time.monotonic() - started) * 1000)
    formation.save()
    return formation


@dataclass(frozen=True)
class _Proposal:
    """A proposal that passed every check needing no database: ready for a decision."""

    candidate: MemoryCandidate
    events: list[Event]
    statement: str
    fingerprint: str
    temporal: TemporalBounds


def _checked(
    candidate: MemoryCandidate,
    session: Session,
    selected: dict[str, Event],
    seen: set[tuple[str, str, str]],
) -> _Proposal:
    """The pure checks of ``formation.checks``, as a proposal ready for a decision."""
    checked = proposal_check(candidate, scope=session.scope, messages_by_id=selected, seen=seen)
    return _Proposal(
        candidate=candidate,
        events=list(checked.sources),
        statement=checked.statement,
        fingerprint=claim_fingerprint(candidate.subject, checked.statement),
        temporal=checked.temporal,
    )


class _Bank:
    """What the decisions read of the owner's memories, loaded in a few queries.

    The live beliefs of the proposals' subjects are locked for the rest of the
    transaction, and kept current here as the decisions change them. Plain new
    beliefs wait in ``pending`` and are inserted together; a later proposal on
    a pending subject flushes them first, so that it sees them.
    """

    def __init__(
        self,
        principal: User,
        session: Session,
        formation: FormationAudit,
        proposals: Sequence[_Proposal],
        tally: _Tally,
    ) -> None:
        self.principal, self.session, self.formation = principal, session, formation
        self.tally = tally
        fingerprints = {proposal.fingerprint for proposal in proposals}
        self.fenced = set(
            FencedEvent.objects.filter(
                owner=principal,
                fence__fingerprint__in=fingerprints,
                event__in={event.pk for proposal in proposals for event in proposal.events},
            ).values_list("fence__fingerprint", "event_id")
        )
        self.kept = kept_before(
            principal=principal,
            fingerprints=fingerprints,
            events={event.pk for proposal in proposals for event in proposal.events},
        )
        self.current: dict[str, list[Belief]] = {}
        self.rejected: set[str] = set()
        for belief in (
            Belief.objects.select_for_update()
            .filter(owner=principal)
            .filter(
                Q(
                    subject__in={proposal.candidate.subject for proposal in proposals},
                    scope=session.scope,
                    status__in=LIVE_BELIEF_STATUSES,
                )
                | Q(fingerprint__in=fingerprints, status=BeliefStatus.REJECTED)
            )
            .order_by("id")
        ):
            if belief.status == BeliefStatus.REJECTED:
                self.rejected.add(belief.fingerprint)
            else:
                self.current.setdefault(belief.subject, []).append(belief)
        # The source messages of each live memory, and the sessions they come from.
        self.linked: dict[int, set[int]] = {}
        self.sessions: dict[int, set[int]] = {}
        for belief_id, event_id, session_id in BeliefSource.objects.filter(
            owner=principal,
            belief__in=[belief.pk for live in self.current.values() for belief in live],
        ).values_list("belief_id", "event_id", "event__session_id"):
            self.linked.setdefault(belief_id, set()).add(event_id)
            self.sessions.setdefault(belief_id, set()).add(session_id)
        # (fields, events) of each new belief, and (belief, new events) of each reinforced.
        self.pending: list[tuple[dict[str, Any], list[Event]]] = []
        self.reinforcing: list[tuple[Belief, list[Event]]] = []
        self.records = DeferredRecords(principal)

    def live(self, subject: str) -> list[Belief]:
        if any(fields["subject"] == subject for fields, _ in self.pending) or any(
            belief.subject == subject for belief, _ in self.reinforcing
        ):
            self.flush()
        return self.current.get(subject, [])

    def reinforce(self, belief: Belief, events: Sequence[Event]) -> None:
        """The same claim again: a replay from the same messages, else a reinforcement.

        The new messages become sources of the memory either way; an inferred memory's
        confidence rises only when they are independent evidence (``memory.evidence``):
        from a conversation none of its sources come from.
        """
        linked = self.linked.setdefault(belief.pk, set())
        fresh = [event for event in events if event.pk not in linked]
        if not fresh:
            raise Rejected("replay")
        linked.update(event.pk for event in fresh)
        sessions = self.sessions.setdefault(belief.pk, set())
        new_sessions = {event.session_id for event in fresh} - sessions
        if belief.authority == Authority.INFERRED and independent(new_sessions, sessions):
            belief.confidence = min(
                REINFORCED_CONFIDENCE_CAP, belief.confidence + REINFORCEMENT_STEP
            )
        sessions.update(new_sessions)
        belief.evidence_at = max(
            [event.occurred_at for event in fresh]
            + ([belief.evidence_at] if belief.evidence_at else [])
        )
        belief.revision += 1
        belief.updated_at = timezone.now()
        self.reinforcing.append((belief, fresh))
        self.tally.reinforced += 1

    def replaced(
        self, subject: str, retired: Sequence[Belief], new: Belief, events: Sequence[Event]
    ) -> None:
        self.current[subject] = [b for b in self.current.get(subject, []) if b not in retired]
        self.current[subject].append(new)
        self.linked[new.pk] = {event.pk for event in events}
        self.sessions[new.pk] = {event.session_id for event in events}

    def challenge(self, proposal: _Proposal, standing: Belief) -> None:
        """Leave the proposal to the owner, beside the ``standing`` memory it would retire."""
        challenge_raise(
            principal=self.principal,
            formation=self.formation,
            standing=standing,
            candidate=proposal.candidate,
            statement=proposal.statement,
            fingerprint=proposal.fingerprint,
            events=proposal.events,
        )

    def flush(self) -> None:
        created = insert_beliefs(principal=self.principal, specs=self.pending)
        self.records.created(created, AuditAction.FORMED, actor=Actor.SYSTEM)
        for belief, (_, events) in zip(created, self.pending, strict=True):
            self.current.setdefault(belief.subject, []).append(belief)
            self.linked[belief.pk] = {event.pk for event in events}
            self.sessions[belief.pk] = {event.session_id for event in events}
        self.tally.committed += len(created)
        self.pending = []
        if self.reinforcing:
            reinforced = [belief for belief, _ in self.reinforcing]
            Belief.objects.bulk_update(
                reinforced, ["confidence", "evidence_at", "revision", "updated_at"]
            )
            BeliefSource.objects.bulk_create(
                BeliefSource(
                    owner=self.principal,
                    belief=belief,
                    event=event,
                    excerpt=excerpt_of(event, belief.statement),
                )
                for belief, events in self.reinforcing
                for event in events
            )
            for belief in reinforced:
                self.records.changed(
                    belief, AuditAction.REINFORCED, actor=Actor.SYSTEM, from_status=belief.status
                )
            self.reinforcing = []

    def write(self) -> None:
        """Insert what is pending, then every audit record and count change."""
        self.flush()
        self.records.write()


def _consume(
    principal: User,
    session: Session,
    formation: FormationAudit,
    candidates: Sequence[MemoryCandidate],
    selected: dict[str, Event],
    tally: _Tally,
) -> None:
    """Decide every consumed proposal and write the outcome; count each exactly once."""
    proposals: list[_Proposal] = []
    seen: set[tuple[str, str, str]] = set()
    for candidate in candidates:
        tally.consumed += 1
        try:
            proposals.append(_checked(candidate, session, selected, seen))
        except Rejected as rejection:
            tally.reject(rejection.reason)
    if not proposals:
        return
    bank = _Bank(principal, session, formation, proposals, tally)
    for proposal in proposals:
        try:
            _decide(bank, proposal, tally)
        except Rejected as rejection:
            tally.reject(rejection.reason)
    bank.write()


def _decide(bank: _Bank, proposal: _Proposal, tally: _Tally) -> None:
    """The prior-rejection, fence and conflict gates, then form, reinforce or replace."""
    candidate, events = proposal.candidate, proposal.events
    if proposal.fingerprint in bank.rejected:
        raise Rejected("previously_rejected")
    if any((proposal.fingerprint, event.pk) in bank.fenced for event in events):
        raise Rejected("fenced")
    if any((proposal.fingerprint, event.pk) in bank.kept for event in events):
        # The owner kept the memory this proposal challenged, from these messages.
        raise Rejected("kept_by_owner")
    current = bank.live(candidate.subject)
    same = [
        b
        for b in current
        if b.fingerprint == proposal.fingerprint and b.polarity == candidate.polarity
    ]
    if same:
        bank.reinforce(same[0], events)
        return
    sensitivity = most_restrictive(
        Sensitivity, [candidate.sensitivity, classify_sensitivity(proposal.statement)]
    )
    fields: dict[str, Any] = {
        "type": candidate.type,
        "subject": candidate.subject,
        "statement": proposal.statement,
        "polarity": candidate.polarity,
        "authority": Authority.INFERRED,
        "status": BeliefStatus.PROVISIONAL,
        "needs_review": sensitivity == Sensitivity.SENSITIVE,
        "confidence": max(0.0, min(float(candidate.confidence), INFERRED_CONFIDENCE_CAP)),
        "scope": bank.session.scope,
        "portability": Portability.LOCAL
        if sensitivity == Sensitivity.SENSITIVE
        else candidate.portability,
        "sensitivity": sensitivity,
        "evidence_at": max(event.occurred_at for event in events),
        "formation": bank.formation,
        "model_proposed": candidate.proposer == PROPOSER_MODEL,
        **proposal.temporal,
    }
    if candidate.subject.startswith(PERSON_PREFIX):
        # A person has a relationship with the owner and many facts of their own: "User's
        # brother Tom works at a bakery." neither replaces "User has a brother named Tom."
        # nor the fact that he lives in Leeds. Only the same kind of claim may replace.
        current = [b for b in current if b.type == candidate.type]
        if candidate.type == BeliefType.FACT and candidate.polarity == Polarity.POSITIVE:
            current = []
    if candidate.type == BeliefType.PREFERENCE and candidate.polarity == Polarity.POSITIVE:
        relations = _preference_relations(proposal.statement, current)
        if restated := [b for b in current if relations.get(b.pk) == "restates"]:
            bank.reinforce(restated[0], events)
            return
        # "Answers in bullet points" beside "short answers": both hold, neither replaces.
        current = [b for b in current if relations.get(b.pk) != "compatible"]
    if candidate.polarity == Polarity.NEGATIVE:
        # A retraction ("I sold the BMW") retires what it contradicts.
        retired = [b for b in current if b.polarity == Polarity.POSITIVE]
        if not retired:
            raise Rejected("nothing_to_retract")
        if standing := _owner_decides(bank, proposal, retired):
            bank.challenge(proposal, standing)
            raise Rejected("challenged")
        _replace(bank, events, fields, retired, BeliefStatus.RETRACTED, tally)
        return
    explicit = [b for b in current if b.authority == Authority.EXPLICIT]
    if explicit and (possessed := _same_possession(candidate, explicit)):
        bank.reinforce(possessed[0], events)
        return
    if current:
        if standing := _owner_decides(bank, proposal, current):
            if says_nothing_more(proposal.statement, standing.statement):
                # Nothing to change, nothing to ask the owner: more evidence for the memory.
                bank.reinforce(standing, events)
                return
            bank.challenge(proposal, standing)
            raise Rejected("challenged")
        _replace(bank, events, fields, current, BeliefStatus.SUPERSEDED, tally)
        return
    bank.pending.append((fields, events))


def _owner_decides(bank: _Bank, proposal: _Proposal, beliefs: Sequence[Belief]) -> Belief | None:
    """The memory among ``beliefs`` (the live ones the proposal would retire) that only the
    owner may retire, or None.

    What the owner stated outranks anything inferred; and one message a model
    read does not outweigh a memory more independent evidence supports (``memory.evidence``:
    more conversations)."""
    if explicit := [b for b in beliefs if b.authority == Authority.EXPLICIT]:
        return explicit[0]
    if proposal.candidate.proposer != PROPOSER_MODEL:
        return None
    cited = {event.session_id for event in proposal.events}
    # What supports the memory apart from the proposal's own conversations (the same
    # message may have reinforced it a moment ago) against what supports the proposal.
    outweighing = [
        b for b in beliefs if pieces(bank.sessions.get(b.pk, set()) - cited) > pieces(cited)
    ]
    return outweighing[0] if outweighing else None


def _preference_relations(statement: str, beliefs: Sequence[Belief]) -> dict[int, str]:
    """{pk: relation} of the positive preferences among ``beliefs`` (all of one subject) to
    a new preference's ``statement`` (``formation.preference_axes``)."""
    return {
        b.pk: relation(statement, b.statement)
        for b in beliefs
        if b.type == BeliefType.PREFERENCE and b.polarity == Polarity.POSITIVE
    }


def _same_possession(candidate: MemoryCandidate, beliefs: Sequence[Belief]) -> list[Belief]:
    """The positive ownership claims among ``beliefs`` (all of the candidate's subject) that a
    positive ownership candidate restates: "User drives a BMW X3." beside the owner's "User
    owns a BMW X3." is the same thing owned, said otherwise, not a conflict."""
    if candidate.type != BeliefType.OWNERSHIP or candidate.polarity != Polarity.POSITIVE:
        return []
    return [
        b for b in beliefs if b.type == BeliefType.OWNERSHIP and b.polarity == Polarity.POSITIVE
    ]


class _StaleCurrent(Exception):
    pass


def _replace(
    bank: _Bank,
    events: list[Event],
    fields: dict[str, Any],
    retired: Sequence[Belief],
    status: str,
    tally: _Tally,
) -> None:
    """Insert the new belief and retire the ones it replaces, all or nothing.

    The savepoint keeps a retirement that finds its row changed meanwhile (a
    stale current belief) from leaving the new belief behind as an orphan.
    """
    read = [(old.status, old.revision) for old in retired]
    try:
        with transaction.atomic():
            (new,) = insert_beliefs(
                principal=bank.principal, specs=[({**fields, "supersedes": retired[0]}, events)]
            )
            for old in retired:
                if not retire_if_unchanged(old, status):
                    raise _StaleCurrent
    except _StaleCurrent:
        # The savepoint undid the writes; undo what this process believed of the rows too.
        for old, (old_status, revision) in zip(retired, read, strict=True):
            old.status, old.revision = old_status, revision
        raise Rejected("stale_current") from None
    bank.records.created([new], AuditAction.FORMED, actor=Actor.SYSTEM)
    retired_as = (
        AuditAction.RETRACTED if status == BeliefStatus.RETRACTED else AuditAction.SUPERSEDED
    )
    for old, (old_status, _) in zip(retired, read, strict=True):
        bank.records.changed(
            old,
            retired_as,
            actor=Actor.SYSTEM,
            from_status=old_status,
            details={"superseded_by": str(new.public_id)},
        )
    bank.replaced(fields["subject"], retired, new, events)
    tally.committed += 1
    tally.superseded += len(retired)


def formation_sweep(
    *,
    batch: int | None = None,
    now: datetime | None = None,
    extractor: MemoryCandidateExtractor | None = None,
) -> list[FormationAudit]:
    """One maintenance pass: consolidate every due session, oldest first; return the audits.

    No consolidation but the first starts once the sweep has run ``sweep_deadline_seconds``.
    One session's failure is recorded (a ``failed`` audit, its prefix left pending for a
    retry: ``_record_failure``) and the sweep goes on with the others.
    """
    if flag_enabled("maintenance_kill_switch") or not flag_enabled("formation"):
        return []
    # Without an ``extractor``, each consolidation resolves its own (formation_extractor),
    # so that switching formation_provider off takes effect at the next session.
    audits: list[FormationAudit] = []
    due_sessions = formation_due(batch=batch, now=now)
    owners = User.objects.in_bulk({due.owner_id for due in due_sessions})
    deadline = time.monotonic() + settings.REVERIE_FORMATION["sweep_deadline_seconds"]
    for index, due in enumerate(due_sessions):
        if index and time.monotonic() > deadline:
            # A provider may take up to a minute per session: the rest wait for the next
            # sweep rather than outlive the worker's task timeout mid-consolidation. The
            # first always runs, so that every sweep makes progress.
            break
        owner = owners[due.owner_id]
        try:
            formation = formation_consolidate(
                principal=owner, session_id=due.session_public_id, extractor=extractor
            )
        except Exception as error:
            logger.exception("formation failed for a session of principal %s", owner.pk)
            try:
                formation = _record_failure(owner, due.session_public_id, error, extractor)
            except Exception:
                # Unrecorded, the session is simply due again at the next sweep.
                logger.exception("could not record the failure for principal %s", owner.pk)
                formation = None
        if formation is not None:
            audits.append(formation)
    return audits


def retry_delay(attempts: int) -> timedelta:
    """How long formation waits after the ``attempts``-th failure of a session in a row."""
    return timedelta(seconds=settings.REVERIE_FORMATION["retry_seconds"] * 4 ** (attempts - 1))


def _record_failure(
    principal: User,
    session_id: uuid.UUID | str,
    error: Exception,
    extractor: MemoryCandidateExtractor | None,
) -> FormationAudit:
    """Record a failed consolidation and when to try again; its prefix stays pending.

    The sweep leaves the session alone until then, so a session that always
    fails cannot hold up the others. After the last attempt formation gives up
    and waits for the owner (``formation_retry``).
    """
    now = timezone.now()
    with principal_transaction(principal):
        session = Session.objects.select_related("watermark").get(
            owner=principal, public_id=session_id
        )
        watermark = session.watermark.sequence if hasattr(session, "watermark") else 0
        formation = FormationAudit.objects.create(
            owner=principal,
            session=session,
            policy_version=(extractor or formation_extractor()).policy_version,
            outcome=FormationAudit.Outcome.FAILED,
            from_sequence=watermark + 1,
            to_sequence=session.last_sequence,
            started_at=now,
            error_class=type(error).__name__,
        )
        # get_or_create survives another worker recording the same session's first failure.
        retry, _ = FormationRetry.objects.select_for_update().get_or_create(
            owner=principal, session=session, defaults={"attempts": 0, "next_attempt_at": now}
        )
        retry.attempts += 1
        retry.next_attempt_at = now + retry_delay(retry.attempts)
        if retry.attempts >= settings.REVERIE_FORMATION["retry_attempts"]:
            retry.gave_up_at = now
        retry.error_class = type(error).__name__
        retry.save()
        return formation


def formation_retry(*, principal: User, session_id: object) -> bool:
    """The owner asks formation to try a session again now; False if it was not waiting."""
    with principal_transaction(principal):
        session = session_get(principal=principal, session_id=session_id)
        deleted, _ = FormationRetry.objects.filter(owner=principal, session=session).delete()
    return bool(deleted)
