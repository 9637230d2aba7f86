"""Explicit memory writes and the owner's actions on beliefs.

Every function here changes beliefs inside one transaction, bumps the
revision of each row it changes, writes an ``AuditRecord`` per change and
shifts the status counts in that same transaction.
"""

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypedDict, Unpack

from django.conf import settings
from django.db.models import TextChoices
from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import ReverieError, conflict, validation_error
from core.ids import parse_public_id
from memory.enums import (
    LIVE_BELIEF_STATUSES,
    MESSAGE_EVENT_TYPES,
    Actor,
    AuditAction,
    Authority,
    BeliefStatus,
    BeliefType,
    Polarity,
    Portability,
    Sensitivity,
    is_valid_scope,
)
from memory.models import Belief, Event
from memory.reach import FULL_REACH, Reach
from memory.screening import contains_secret, looks_like_injection
from memory.search import BELIEFS, forget_erased
from memory.selectors.beliefs import belief_get, belief_versions
from memory.sensitivity import sensitivity_raised
from memory.text import claim_fingerprint, is_valid_subject, topic_subject

from .erasure import belief_erase
from .records import EXPLICIT_CONFIDENCE, confirm_by_owner, create_belief, set_status
from .vectors import vectors_embed_on_commit

MAX_SOURCES = 20


def _belief_at_revision(
    *, principal: User, belief_id: object, expected_revision: object, reach: Reach
) -> Belief:
    """The principal's belief, locked until the transaction ends, if ``reach`` may change
    it and it is still at ``expected_revision``; else ``forbidden`` (a read-only reach),
    ``not_found`` (one it does not see) or a conflict naming its current revision.

    The row is locked before its revision is compared, so that of two requests acting on
    the same revision the second waits for the first to commit, then sees the revision the
    first made and is refused, instead of both passing the check.
    """
    reach.check_write()
    belief = belief_get(principal=principal, belief_id=belief_id, for_update=True, reach=reach)
    if isinstance(expected_revision, bool) or not isinstance(expected_revision, int):
        raise validation_error("expected_revision must be an integer.", field="expected_revision")
    if belief.revision != expected_revision:
        raise conflict(
            "The memory has changed since you read it.",
            field="expected_revision",
            current_revision=belief.revision,
        )
    return belief


def _settle(
    belief: Belief, status: str, *, action: str, details: dict[str, Any] | None = None
) -> Belief:
    """The owner's decision on ``belief``: its new status, and nothing left for them to review."""
    belief.needs_review = False
    return set_status(
        belief,
        status,
        action=action,
        actor=Actor.PRINCIPAL,
        extra_fields=["needs_review"],
        details=details,
    )


def _check_choice(value: str, enum: type[TextChoices], field: str) -> str:
    if value not in enum.values:
        raise validation_error(
            f"{field} must be one of {', '.join(enum.values)}.", field=field, allowed=enum.values
        )
    return value


def _check_claim(
    *,
    statement: object,
    subject: str | None,
    confidence: object,
    scope: str,
    valid_from: datetime | None,
    valid_until: datetime | None,
    expires_at: datetime | None,
) -> tuple[str, str, float]:
    limit = settings.REVERIE_LIMITS["statement_max_chars"]
    if not isinstance(statement, str) or not statement.strip():
        raise validation_error("statement must be a non-empty string.", field="statement")
    statement = statement.strip()
    if len(statement) > limit:
        raise validation_error(
            f"statement is longer than {limit} characters.", field="statement", limit=limit
        )
    # The gates formation applies hold for what the owner or a runtime states too.
    if contains_secret(statement):
        raise validation_error(
            "statement holds what looks like a secret (a password, key, card or account "
            "number); Reverie does not keep secrets.",
            field="statement",
            reason="secret",
        )
    if looks_like_injection(statement):
        raise validation_error(
            "statement reads as an instruction to the assistant, not as something about "
            "the person; Reverie does not keep instructions as memories.",
            field="statement",
            reason="injection",
        )
    if subject is None:
        subject = topic_subject(statement)
    elif not is_valid_subject(subject):
        raise validation_error(
            "subject must look like '<kind>:<entity>', e.g. 'device:apple-watch'.",
            field="subject",
        )
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise validation_error("confidence must be a number.", field="confidence")
    if not 0 <= confidence <= 1:
        raise validation_error("confidence must lie between 0 and 1.", field="confidence")
    if not is_valid_scope(scope):
        raise validation_error("scope must be 'principal' or 'assistant:<slug>'.", field="scope")
    for field, value in (
        ("valid_from", valid_from),
        ("valid_until", valid_until),
        ("expires_at", expires_at),
    ):
        if value is not None and (not isinstance(value, datetime) or timezone.is_naive(value)):
            raise validation_error(f"{field} must be a datetime with a timezone.", field=field)
    if valid_from and valid_until and valid_until < valid_from:
        raise validation_error("valid_until is before valid_from.", field="valid_until")
    if expires_at is not None and expires_at <= timezone.now():
        raise validation_error("expires_at must be in the future.", field="expires_at")
    return statement, subject, float(confidence)


def _source_events(
    principal: User, source_event_ids: object, reach: Reach = FULL_REACH
) -> list[Event]:
    """The principal's message events named by public id that ``reach`` sees (their
    conversation's scope and their label), in the order given; ``not_found`` names those it
    does not, exactly as it names those that do not exist, so a token learns nothing of
    conversations outside its reach, nor which messages are labelled sensitive."""
    if not isinstance(source_event_ids, (list, tuple)):
        raise validation_error("source_event_ids must be a list.", field="source_event_ids")
    if len(source_event_ids) > MAX_SOURCES:
        raise validation_error(
            f"At most {MAX_SOURCES} sources.", field="source_event_ids", limit=MAX_SOURCES
        )
    ids = list(dict.fromkeys(parse_public_id(i, "source_event_ids") for i in source_event_ids))
    reachable = reach.filter(
        Event.objects.filter(
            owner=principal,
            public_id__in=ids,
            event_type__in=MESSAGE_EVENT_TYPES,
            redacted_at__isnull=True,
        ),
        scope_field="session__scope",
    )
    events = {e.public_id: e for e in reachable}
    missing = [str(i) for i in ids if i not in events]
    if missing:
        # Another owner's event, and one outside the token's reach, answer exactly like
        # a missing one.
        raise ReverieError(
            "not_found",
            "Some source events do not exist.",
            field="source_event_ids",
            missing=missing,
        )
    return [events[i] for i in ids]


def _labelled(statement: str, *, sensitivity: str, portability: str) -> tuple[str, str]:
    """The (sensitivity, portability) a memory stating ``statement`` is stored with, as a
    formed one would be: the classifier may raise the sensitivity asked for, never lower
    it, and what it finds sensitive stays on the machine. An owner who marks a memory
    sensitive themselves keeps the portability they chose."""
    label = sensitivity_raised(sensitivity, statement)
    if label == Sensitivity.SENSITIVE and sensitivity != Sensitivity.SENSITIVE:
        portability = Portability.LOCAL
    return label, portability


class Claim(TypedDict):
    """A claim as it is stated: the fields of a belief its caller chooses."""

    statement: str
    type: str
    # None: the subject of the statement's topic.
    subject: str | None
    polarity: str
    confidence: float
    scope: str
    portability: str
    sensitivity: str
    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None


class _StatedClaim(TypedDict):
    type: str
    subject: str
    statement: str
    polarity: str
    confidence: float
    scope: str
    portability: str
    sensitivity: str
    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None


def _stated_claim(
    *,
    statement: str,
    type: str,
    subject: str | None,
    polarity: str,
    confidence: float,
    scope: str,
    portability: str,
    sensitivity: str,
    valid_from: datetime | None,
    valid_until: datetime | None,
    expires_at: datetime | None,
    labelled: bool = True,
) -> _StatedClaim:
    """A claim as it is stated to be stored, checked, as the fields of a belief; its
    sensitivity raised by its words unless ``labelled`` is False (a bank loaded as it is)."""
    _check_choice(type, BeliefType, "type")
    _check_choice(polarity, Polarity, "polarity")
    _check_choice(portability, Portability, "portability")
    _check_choice(sensitivity, Sensitivity, "sensitivity")
    statement, subject, confidence = _check_claim(
        statement=statement,
        subject=subject,
        confidence=confidence,
        scope=scope,
        valid_from=valid_from,
        valid_until=valid_until,
        expires_at=expires_at,
    )
    if labelled:
        sensitivity, portability = _labelled(
            statement, sensitivity=sensitivity, portability=portability
        )
    return {
        "type": type,
        "subject": subject,
        "statement": statement,
        "polarity": polarity,
        "confidence": confidence,
        "scope": scope,
        "portability": portability,
        "sensitivity": sensitivity,
        "valid_from": valid_from,
        "valid_until": valid_until,
        "expires_at": expires_at,
    }


def _store(
    principal: User,
    claim: _StatedClaim,
    sources: Sequence[Event],
    *,
    status: str,
    supersedes: Belief | None = None,
) -> Belief:
    """A belief of a stated claim: explicit when it is active, else inferred and waiting for
    the owner's review."""
    return create_belief(
        principal=principal,
        sources=sources,
        action=AuditAction.REMEMBERED,
        actor=Actor.PRINCIPAL,
        authority=Authority.EXPLICIT if status == BeliefStatus.ACTIVE else Authority.INFERRED,
        status=status,
        needs_review=status == BeliefStatus.PROVISIONAL,
        evidence_at=max((e.occurred_at for e in sources), default=None),
        supersedes=supersedes,
        **claim,
    )


def belief_remember(
    *,
    principal: User,
    statement: str,
    type: str = BeliefType.FACT,
    subject: str | None = None,
    polarity: str = Polarity.POSITIVE,
    confidence: float = EXPLICIT_CONFIDENCE,
    scope: str | None = None,
    portability: str = Portability.PORTABLE,
    sensitivity: str = Sensitivity.NORMAL,
    valid_from: datetime | None = None,
    valid_until: datetime | None = None,
    expires_at: datetime | None = None,
    source_event_ids: Sequence[uuid.UUID | str] = (),
    reach: Reach = FULL_REACH,
) -> Belief:
    """Store an explicit memory the owner (or their assistant on their word) stated.

    Explicit memories are active at once. Remembering a claim that is already
    an active explicit memory returns that memory unchanged; an equal inferred
    memory is superseded by the explicit one. Without a ``scope`` it lands in
    the reach's own; its scope and every source must lie within ``reach``.
    """
    scope = reach.write_scope(scope)
    claim = _stated_claim(
        statement=statement,
        type=type,
        subject=subject,
        polarity=polarity,
        confidence=confidence,
        scope=scope,
        portability=portability,
        sensitivity=sensitivity,
        valid_from=valid_from,
        valid_until=valid_until,
        expires_at=expires_at,
    )
    # After the classifier: a reach kept from sensitive memories cannot write one by
    # leaving the label off.
    reach.check_sensitivity(claim["sensitivity"])
    with principal_transaction(principal):
        sources = _source_events(principal, source_event_ids, reach)
        fingerprint = claim_fingerprint(claim["subject"], claim["statement"])
        equal = list(
            Belief.objects.select_for_update()
            .filter(
                owner=principal,
                fingerprint=fingerprint,
                polarity=polarity,
                scope=scope,
                status__in=LIVE_BELIEF_STATUSES,
            )
            .order_by("id")
        )
        for existing in equal:
            if existing.authority == Authority.EXPLICIT and existing.status == BeliefStatus.ACTIVE:
                return existing
        # The explicit statement replaces an equal memory that was only inferred.
        replaced = equal[0] if equal else None
        belief = _store(principal, claim, sources, status=BeliefStatus.ACTIVE, supersedes=replaced)
        # What the owner said is found by meaning from the next recall on.
        vectors_embed_on_commit(
            principal=principal, collection=BELIEFS.statistics, row_ids=[belief.pk]
        )
        if replaced is not None:
            set_status(
                replaced,
                BeliefStatus.SUPERSEDED,
                action=AuditAction.SUPERSEDED,
                actor=Actor.PRINCIPAL,
                details={"superseded_by": str(belief.public_id)},
            )
        return belief


IMPORTED_STATUSES = (BeliefStatus.ACTIVE.value, BeliefStatus.PROVISIONAL.value)


def belief_import(
    *,
    principal: User,
    status: str,
    source_event_ids: Sequence[uuid.UUID | str] = (),
    **claim: Unpack[Claim],
) -> Belief:
    """Store a memory as another bank of memories held it, for the owner.

    An active memory is explicit; a provisional one is inferred and waits for
    the owner's review. ``claim`` is every field ``belief_remember`` takes
    besides its sources (statement, type, subject, polarity, confidence, scope,
    portability, sensitivity, valid_from, valid_until, expires_at), checked the
    same way. Unlike ``belief_remember``, a memory equal to one already held is
    stored beside it, not merged into it, and its labels are kept as given: the bank
    being loaded decides what it holds (the reconsolidation evaluation loads its
    labelled banks so, traps of one claim under two labels included). No route of the
    API or the review site reaches it.
    """
    if status not in IMPORTED_STATUSES:
        raise validation_error(
            f"status must be one of {', '.join(IMPORTED_STATUSES)}.",
            field="status",
            allowed=list(IMPORTED_STATUSES),
        )
    stated = _stated_claim(**claim, labelled=False)
    with principal_transaction(principal):
        belief = _store(
            principal, stated, _source_events(principal, source_event_ids), status=status
        )
        vectors_embed_on_commit(
            principal=principal, collection=BELIEFS.statistics, row_ids=[belief.pk]
        )
        return belief


def belief_confirm(
    *, principal: User, belief_id: object, expected_revision: object, reach: Reach = FULL_REACH
) -> Belief:
    """The owner confirms a memory: provisional becomes active, review is done, and it is
    theirs from then on (``records.confirm_by_owner``)."""
    with principal_transaction(principal):
        belief = _belief_at_revision(
            principal=principal,
            belief_id=belief_id,
            expected_revision=expected_revision,
            reach=reach,
        )
        if belief.status == BeliefStatus.PROVISIONAL or (
            belief.status == BeliefStatus.ACTIVE and belief.needs_review
        ):
            return confirm_by_owner(belief)
        raise conflict(
            f"A {belief.status} memory cannot be confirmed.", field="status", status=belief.status
        )


def belief_reject(
    *, principal: User, belief_id: object, expected_revision: object, reach: Reach = FULL_REACH
) -> Belief:
    """The owner rejects a memory. Formation will not propose the same claim again."""
    with principal_transaction(principal):
        belief = _belief_at_revision(
            principal=principal,
            belief_id=belief_id,
            expected_revision=expected_revision,
            reach=reach,
        )
        if belief.status not in LIVE_BELIEF_STATUSES:
            raise conflict(
                f"A {belief.status} memory cannot be rejected.",
                field="status",
                status=belief.status,
            )
        return _settle(belief, BeliefStatus.REJECTED, action=AuditAction.REJECTED)


def belief_correct(
    *,
    principal: User,
    belief_id: object,
    expected_revision: int,
    statement: str,
    subject: str | None = None,
    polarity: str | None = None,
    sensitivity: str | None = None,
    valid_from: datetime | None = None,
    valid_until: datetime | None = None,
    expires_at: datetime | None = None,
    reach: Reach = FULL_REACH,
) -> Belief:
    """Replace a memory's claim with the owner's correction; return the new memory.

    The correction is a new, active, explicit belief that supersedes the old
    one; the old row keeps its text as history. It keeps the old subject unless
    one is given, so it supersedes only the belief it corrects.
    """
    with principal_transaction(principal):
        old = _belief_at_revision(
            principal=principal,
            belief_id=belief_id,
            expected_revision=expected_revision,
            reach=reach,
        )
        if old.status not in LIVE_BELIEF_STATUSES:
            raise conflict(
                f"A {old.status} memory cannot be corrected.", field="status", status=old.status
            )
        polarity = (
            old.polarity if polarity is None else _check_choice(polarity, Polarity, "polarity")
        )
        sensitivity = (
            old.sensitivity
            if sensitivity is None
            else _check_choice(sensitivity, Sensitivity, "sensitivity")
        )
        statement, subject, confidence = _check_claim(
            statement=statement,
            subject=old.subject if subject is None else subject,
            confidence=max(old.confidence, EXPLICIT_CONFIDENCE),
            scope=old.scope,
            valid_from=valid_from,
            valid_until=valid_until,
            expires_at=expires_at,
        )
        sensitivity, portability = _labelled(
            statement, sensitivity=sensitivity, portability=old.portability
        )
        reach.check_sensitivity(sensitivity)
        if (subject, polarity) == (old.subject, old.polarity) and claim_fingerprint(
            subject, statement
        ) == old.fingerprint:
            raise validation_error("The correction states the same claim.", field="statement")
        new = create_belief(
            principal=principal,
            action=AuditAction.CORRECTED,
            actor=Actor.PRINCIPAL,
            type=old.type,
            subject=subject,
            statement=statement,
            polarity=polarity,
            authority=Authority.EXPLICIT,
            status=BeliefStatus.ACTIVE,
            confidence=confidence,
            scope=old.scope,
            portability=portability,
            sensitivity=sensitivity,
            valid_from=valid_from,
            valid_until=valid_until,
            expires_at=expires_at,
            evidence_at=old.evidence_at,
            supersedes=old,
        )
        vectors_embed_on_commit(
            principal=principal, collection=BELIEFS.statistics, row_ids=[new.pk]
        )
        _settle(
            old,
            BeliefStatus.SUPERSEDED,
            action=AuditAction.SUPERSEDED,
            details={"superseded_by": str(new.public_id)},
        )
        return new


def belief_delete(
    *, principal: User, belief_id: object, expected_revision: int, reach: Reach = FULL_REACH
) -> Belief:
    """Erase a memory and every earlier version of it, leaving tombstones and fences.

    The text and copied excerpts are removed; what remains is the row's id,
    kind and history, and a fence so the same claim is not formed again from
    the same messages.
    """
    with principal_transaction(principal):
        belief = _belief_at_revision(
            principal=principal,
            belief_id=belief_id,
            expected_revision=expected_revision,
            reach=reach,
        )
        if belief.status == BeliefStatus.DELETED:
            raise conflict("The memory is already deleted.", field="status", status=belief.status)
        versions = belief_versions(principal=principal, belief=belief)
        # This version and the ones it corrected; later corrections stay.
        versions = versions[: versions.index(belief) + 1]
        for version in versions:
            if version.status != BeliefStatus.DELETED:
                belief_erase(version, actor=Actor.PRINCIPAL)
        forget_erased()
        belief.refresh_from_db()
        return belief
