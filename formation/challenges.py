"""Challenges: what formation may not decide alone waits for the owner (``Challenge``).

Formation raises one when a proposal would retract, supersede or correct an
explicit memory, or when a model's proposal would replace a memory that more
messages support than it cites. The owner keeps the standing memory or
replaces it with the proposal; either is the owner's act, audited on the
standing memory. Keeping closes the challenge for good: the same proposal read
again from the same messages does not reopen it. Replacing makes the proposal
an explicit memory of the owner's, the way their own correction would.

A challenge goes with what it rests on: erasing one of its messages, or its
standing memory or the memory made of it, deletes it; an open challenge of a
memory that stops being live otherwise has nothing left to decide and goes too.
"""

from collections.abc import Iterable, Sequence

from django.utils import timezone

from accounts.models import User
from common.principal import principal_transaction
from core.errors import conflict, not_found
from core.ids import parse_public_id
from formation.candidates import PROPOSER_MODEL, MemoryCandidate
from formation.models import Challenge, ChallengeSource, FormationAudit
from memory.enums import (
    LIVE_BELIEF_STATUSES,
    Actor,
    AuditAction,
    Authority,
    BeliefStatus,
    Polarity,
    Sensitivity,
    most_restrictive,
)
from memory.models import Belief, Event
from memory.reach import FULL_REACH, Reach
from memory.screening import classify_sensitivity
from memory.services.records import audit, confirm_by_owner, create_belief, set_status

# An owner's decision gives the memory it makes this confidence, as their correction does.
OWNER_CONFIDENCE = 0.95


def challenge_raise(
    *,
    principal: User,
    formation: FormationAudit,
    standing: Belief,
    candidate: MemoryCandidate,
    statement: str,
    fingerprint: str,
    events: Sequence[Event],
) -> bool:
    """The open challenge of ``standing`` by the proposal, with ``events`` among its sources;
    False when it was open already with every one of them (nothing new to show)."""
    challenge = (
        Challenge.objects.select_for_update()
        .filter(
            owner=principal,
            standing=standing,
            fingerprint=fingerprint,
            polarity=candidate.polarity,
            state=Challenge.State.OPEN,
        )
        .first()
    )
    if challenge is None:
        challenge = Challenge.objects.create(
            owner=principal,
            standing=standing,
            type=candidate.type,
            subject=candidate.subject,
            statement=statement,
            polarity=candidate.polarity,
            fingerprint=fingerprint,
            model_proposed=candidate.proposer == PROPOSER_MODEL,
            formation=formation,
        )
        cited: set[int] = set()
    else:
        cited = set(
            ChallengeSource.objects.filter(challenge=challenge).values_list("event_id", flat=True)
        )
    fresh = [event for event in events if event.pk not in cited]
    ChallengeSource.objects.bulk_create(
        ChallengeSource(owner=principal, challenge=challenge, event=event) for event in fresh
    )
    return bool(fresh)


def kept_before(
    *, principal: User, fingerprints: Iterable[str], events: Iterable[Event | int]
) -> set[tuple[str, int]]:
    """{(fingerprint, event pk)} of the challenges the owner kept, among ``fingerprints`` and
    ``events``: a proposal read again from one of those messages stays closed."""
    return set(
        ChallengeSource.objects.filter(
            owner=principal,
            challenge__state=Challenge.State.KEPT,
            challenge__fingerprint__in=fingerprints,
            event__in=events,
        ).values_list("challenge__fingerprint", "event_id")
    )


def _challenge_locked(principal: User, challenge_id: object) -> Challenge:
    public_id = parse_public_id(challenge_id, "challenge_id")
    challenge = (
        Challenge.objects.select_for_update()
        .filter(owner=principal, public_id=public_id)
        .select_related("standing")
        .first()
    )
    if challenge is None:
        raise not_found("challenge")
    return challenge


def _decided(challenge: Challenge, state: str, *, other: str) -> bool:
    """Whether the challenge is already ``state`` (a repeat: nothing to do); a conflict when
    the owner decided ``other``."""
    if challenge.state == state:
        return True
    if challenge.state == other:
        raise conflict(
            f"This was decided already: the memory was {other}.",
            field="state",
            state=challenge.state,
        )
    return False


def _standing_locked(challenge: Challenge) -> Belief:
    standing = Belief.objects.select_for_update().get(pk=challenge.standing_id)
    if standing.status not in LIVE_BELIEF_STATUSES:
        raise conflict(
            f"The memory is {standing.status} now; there is nothing left to decide.",
            field="status",
            status=standing.status,
        )
    return standing


def _close(challenge: Challenge, state: str, replacement: Belief | None = None) -> None:
    challenge.state = state
    challenge.replacement = replacement
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["state", "replacement", "decided_at", "updated_at"])


def challenge_keep(
    *, principal: User, challenge_id: object, reach: Reach = FULL_REACH
) -> Challenge:
    """The owner keeps the standing memory; return the challenge, closed.

    A provisional standing memory is confirmed by it. Keeping a kept
    challenge again does nothing; keeping a replaced one is a conflict.
    """
    reach.check_write()
    with principal_transaction(principal):
        challenge = _challenge_locked(principal, challenge_id)
        if _decided(challenge, Challenge.State.KEPT, other=Challenge.State.REPLACED):
            return challenge
        standing = _standing_locked(challenge)
        _close(challenge, Challenge.State.KEPT)
        details = {"challenge": str(challenge.public_id), "decision": "kept"}
        if (
            standing.status == BeliefStatus.PROVISIONAL
            or standing.needs_review
            or standing.authority != Authority.EXPLICIT
        ):
            confirm_by_owner(standing, details=details)
        else:
            audit(
                standing,
                AuditAction.CONFIRMED,
                actor=Actor.PRINCIPAL,
                from_status=standing.status,
                details=details,
            )
        return challenge


def challenge_replace(
    *, principal: User, challenge_id: object, reach: Reach = FULL_REACH
) -> Challenge:
    """The owner replaces the standing memory with the proposal; return the challenge.

    The proposal becomes an active, explicit memory citing the proposal's
    messages that are still there, and supersedes the standing memory (a
    negative proposal retracts it), as the owner's correction would.
    Replacing a replaced challenge again does nothing; replacing a kept one is
    a conflict.
    """
    reach.check_write()
    with principal_transaction(principal):
        challenge = _challenge_locked(principal, challenge_id)
        if _decided(challenge, Challenge.State.REPLACED, other=Challenge.State.KEPT):
            return challenge
        standing = _standing_locked(challenge)
        sources = list(challenge.events.filter(redacted_at__isnull=True).order_by("sequence"))
        new = create_belief(
            principal=principal,
            sources=sources,
            action=AuditAction.CORRECTED,
            actor=Actor.PRINCIPAL,
            type=challenge.type,
            subject=challenge.subject,
            statement=challenge.statement,
            polarity=challenge.polarity,
            authority=Authority.EXPLICIT,
            status=BeliefStatus.ACTIVE,
            confidence=max(standing.confidence, OWNER_CONFIDENCE),
            scope=standing.scope,
            portability=standing.portability,
            sensitivity=most_restrictive(
                Sensitivity, [standing.sensitivity, classify_sensitivity(challenge.statement)]
            ),
            evidence_at=max((event.occurred_at for event in sources), default=None),
            model_proposed=challenge.model_proposed,
            supersedes=standing,
        )
        # Closed before the standing memory retires, so that the retirement's clean-up
        # (``challenges_retired``) leaves this one be.
        _close(challenge, Challenge.State.REPLACED, replacement=new)
        retracted = challenge.polarity == Polarity.NEGATIVE
        standing.needs_review = False
        set_status(
            standing,
            BeliefStatus.RETRACTED if retracted else BeliefStatus.SUPERSEDED,
            action=AuditAction.RETRACTED if retracted else AuditAction.SUPERSEDED,
            actor=Actor.PRINCIPAL,
            extra_fields=["needs_review"],
            details={"superseded_by": str(new.public_id), "challenge": str(challenge.public_id)},
        )
        return challenge


def challenges_retired(*, owner_id: int, belief_ids: Iterable[int], erased: bool) -> None:
    """``memory.changes`` listener: an erased memory takes every challenge of it (or made
    into it) along; a memory retired otherwise takes its open ones."""
    if erased:
        Challenge.objects.filter(owner_id=owner_id, standing__in=belief_ids).delete()
        Challenge.objects.filter(owner_id=owner_id, replacement__in=belief_ids).delete()
    else:
        # Only those no longer live: a relabelling is announced the same way.
        Challenge.objects.filter(
            owner_id=owner_id, standing__in=belief_ids, state=Challenge.State.OPEN
        ).exclude(standing__status__in=LIVE_BELIEF_STATUSES).delete()


def challenges_erased_messages(*, owner_id: int, event_ids: Iterable[int]) -> None:
    """``memory.changes`` listener: a challenge citing an erased message goes with it."""
    Challenge.objects.filter(
        owner_id=owner_id,
        pk__in=ChallengeSource.objects.filter(owner_id=owner_id, event__in=event_ids).values(
            "challenge_id"
        ),
    ).delete()
