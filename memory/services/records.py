"""Building blocks of the belief services: each runs inside the caller's transaction."""

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from memory.changes import beliefs_retired
from memory.enums import (
    LIVE_BELIEF_STATUSES,
    Actor,
    AuditAction,
    Authority,
    BeliefStatus,
    Polarity,
)
from memory.excerpts import excerpt_for
from memory.models import AuditRecord, Belief, BeliefSource, Event, MaintenanceDue
from memory.text import claim_fingerprint, claim_key

from .tallies import belief_status_count_shift, transition
from .vectors import vectors_due

# How sure a memory the owner stated or confirmed is.
EXPLICIT_CONFIDENCE = 0.95


def excerpt_of(event: Event, statement: str) -> str:
    """The part of a source message a belief stating ``statement`` keeps (``memory.excerpts``)."""
    return excerpt_for(event.text, statement)


def _audit_record(
    belief: Belief,
    action: str,
    *,
    actor: str,
    from_status: str = "",
    details: dict[str, Any] | None = None,
) -> AuditRecord:
    return AuditRecord(
        owner_id=belief.owner_id,
        belief=belief,
        action=action,
        actor=actor,
        revision=belief.revision,
        from_status=from_status,
        to_status=belief.status,
        details=details or {},
    )


def audit(
    belief: Belief,
    action: str,
    *,
    actor: str,
    from_status: str = "",
    details: dict[str, Any] | None = None,
) -> AuditRecord:
    """Record one change to ``belief`` (already saved with its new revision)."""
    record = _audit_record(belief, action, actor=actor, from_status=from_status, details=details)
    record.save(force_insert=True)
    return record


def set_status(
    belief: Belief,
    status: str,
    *,
    action: str,
    actor: str,
    extra_fields: Sequence[str] = (),
    details: dict[str, Any] | None = None,
) -> Belief:
    """Move a locked belief to ``status``: revision, audit and counts together."""
    old_status = belief.status
    belief.status = status
    belief.revision += 1
    belief.save(update_fields=["status", "revision", "updated_at", *extra_fields])
    belief_status_count_shift(owner_id=belief.owner_id, changes=transition(old_status, status))
    audit(belief, action, actor=actor, from_status=old_status, details=details)
    if status not in LIVE_BELIEF_STATUSES:
        beliefs_retired(
            owner_id=belief.owner_id,
            belief_ids=[belief.pk],
            erased=status == BeliefStatus.DELETED,
        )
    return belief


def confirm_by_owner(belief: Belief, *, details: dict[str, Any] | None = None) -> Belief:
    """The owner confirms locked ``belief``: it becomes active and theirs (explicit, which
    nothing inferred overrules), at least as sure as a memory they stated, with nothing
    left for them to review."""
    belief.needs_review = False
    belief.authority = Authority.EXPLICIT
    belief.confidence = max(belief.confidence, EXPLICIT_CONFIDENCE)
    return set_status(
        belief,
        BeliefStatus.ACTIVE,
        action=AuditAction.CONFIRMED,
        actor=Actor.PRINCIPAL,
        extra_fields=["needs_review", "authority", "confidence"],
        details=details,
    )


def retire_if_unchanged(belief: Belief, status: str) -> bool:
    """Move ``belief`` to ``status`` only if it is still live at the revision read.

    Returns False, changing nothing, when someone changed the row meanwhile.
    The caller records the audit and the count change.
    """
    changed = Belief.objects.filter(
        pk=belief.pk, revision=belief.revision, status__in=LIVE_BELIEF_STATUSES
    ).update(status=status, revision=F("revision") + 1, updated_at=timezone.now())
    if changed:
        belief.status, belief.revision = status, belief.revision + 1
        beliefs_retired(owner_id=belief.owner_id, belief_ids=[belief.pk])
    return bool(changed)


def schedule_expiry(owner_id: int, expires_at: datetime | None) -> None:
    """Make sure the expiry sweep visits the owner by ``expires_at``."""
    if expires_at is None:
        return
    MaintenanceDue.objects.get_or_create(
        owner_id=owner_id,
        kind=MaintenanceDue.Kind.BELIEF_EXPIRY,
        defaults={"due_at": expires_at},
    )
    MaintenanceDue.objects.filter(
        owner_id=owner_id, kind=MaintenanceDue.Kind.BELIEF_EXPIRY, due_at__gt=expires_at
    ).update(due_at=expires_at)


def insert_beliefs(
    *, principal: User, specs: Sequence[tuple[dict[str, Any], Sequence[Event]]]
) -> list[Belief]:
    """Insert beliefs with their sources, nothing else; ``specs`` are ``(fields, events)``."""
    beliefs = [
        Belief(
            owner=principal,
            fingerprint=claim_fingerprint(fields["subject"], fields["statement"]),
            claim_key=claim_key(
                fields["subject"],
                fields["type"],
                fields.get("polarity", Polarity.POSITIVE),
                fields["statement"],
            ),
            **fields,
        )
        for fields, _ in specs
    ]
    if not beliefs:
        return []
    Belief.objects.bulk_create(beliefs)
    vectors_due(owner_id=principal.pk)
    BeliefSource.objects.bulk_create(
        BeliefSource(
            owner=principal,
            belief=belief,
            event=event,
            excerpt=excerpt_of(event, belief.statement),
        )
        for belief, (_, events) in zip(beliefs, specs, strict=True)
        for event in events
    )
    return beliefs


class DeferredRecords:
    """The audit records, status counts and expiry of many changes, written in a few statements.

    For services that change many beliefs in one transaction: each change is
    noted as it happens and ``write`` records them all before the commit.
    """

    def __init__(self, principal: User) -> None:
        self.principal = principal
        self.counts: Counter[str] = Counter()
        self.audits: list[AuditRecord] = []
        self.expiry: datetime | None = None

    def created(self, beliefs: Sequence[Belief], action: str, *, actor: str) -> None:
        for belief in beliefs:
            self.counts[belief.status] += 1
            self.audits.append(_audit_record(belief, action, actor=actor))
            if belief.expires_at is not None:
                self.expiry = min(filter(None, [self.expiry, belief.expires_at]))

    def changed(
        self,
        belief: Belief,
        action: str,
        *,
        actor: str,
        from_status: str,
        details: dict[str, Any] | None = None,
    ) -> None:
        """``belief`` (saved, at its new revision) changed, from ``from_status``."""
        self.counts.update(transition(from_status, belief.status))
        self.audits.append(
            _audit_record(belief, action, actor=actor, from_status=from_status, details=details)
        )

    def write(self) -> None:
        belief_status_count_shift(owner_id=self.principal.pk, changes=self.counts)
        schedule_expiry(self.principal.pk, self.expiry)
        AuditRecord.objects.bulk_create(self.audits)
        self.counts, self.audits, self.expiry = Counter(), [], None


def create_beliefs(
    *,
    principal: User,
    specs: Sequence[tuple[dict[str, Any], Sequence[Event]]],
    action: str,
    actor: str,
) -> list[Belief]:
    """Insert beliefs with their sources, audit and counts in a few statements.

    ``specs`` is a list of ``(fields, source events)``. The caller holds the
    transaction.
    """
    beliefs = insert_beliefs(principal=principal, specs=specs)
    records = DeferredRecords(principal)
    records.created(beliefs, action, actor=actor)
    records.write()
    return beliefs


def create_belief(
    *,
    principal: User,
    sources: Iterable[Event] = (),
    action: str,
    actor: str,
    **fields: Any,
) -> Belief:
    """Insert one belief with its sources, audit and counts (caller holds the transaction)."""
    (belief,) = create_beliefs(
        principal=principal, specs=[(fields, list(sources))], action=action, actor=actor
    )
    return belief
