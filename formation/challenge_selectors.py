"""The owner's challenges as plain data: both sides, each with the messages it rests on.

Every function reads only the given principal's rows.
"""

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import TypedDict

from django.db.models import QuerySet

from accounts.models import User
from core.errors import not_found, validation_error
from core.ids import parse_public_id
from formation.models import Challenge, ChallengeSource
from memory.excerpts import excerpt_for
from memory.models import BeliefSource

CHALLENGE_STATES = Challenge.State.values


class SourceView(TypedDict):
    """A message one side of a challenge rests on, by its public id, with the excerpt."""

    event_id: str
    excerpt: str


class StandingView(TypedDict):
    id: str
    type: str
    subject: str
    statement: str
    polarity: str
    authority: str
    status: str
    revision: int
    sources: list[SourceView]


class ProposalView(TypedDict):
    type: str
    subject: str
    statement: str
    polarity: str
    model_proposed: bool
    sources: list[SourceView]


class ChallengeView(TypedDict):
    """A challenge as the API (``ChallengeOutput``) and the review site show it."""

    id: str
    state: str
    created_at: datetime
    updated_at: datetime
    decided_at: datetime | None
    standing: StandingView
    proposal: ProposalView
    replacement: str | None


class ChallengesExport(TypedDict):
    challenges: list[ChallengeView]


def challenge_list(principal: User, *, state: str | None = None) -> QuerySet[Challenge]:
    """The principal's challenges, newest first; only those in ``state`` when given."""
    challenges = Challenge.objects.filter(owner=principal).select_related("standing", "replacement")
    if state is not None:
        if state not in CHALLENGE_STATES:
            raise validation_error(
                f"state must be one of {', '.join(CHALLENGE_STATES)}.",
                field="state",
                allowed=CHALLENGE_STATES,
            )
        challenges = challenges.filter(state=state)
    return challenges.order_by("-created_at", "-id")


def challenge_get(principal: User, challenge_id: uuid.UUID | str) -> Challenge:
    """The principal's challenge with this public id; ``not_found`` otherwise."""
    public_id = parse_public_id(challenge_id, "challenge_id")
    challenge = (
        Challenge.objects.filter(owner=principal, public_id=public_id)
        .select_related("standing", "replacement")
        .first()
    )
    if challenge is None:
        raise not_found("challenge")
    return challenge


def _standing_sources(principal: User, challenges: list[Challenge]) -> dict[int, list[SourceView]]:
    found: dict[int, list[SourceView]] = {}
    for source in (
        BeliefSource.objects.filter(owner=principal, belief__in=[c.standing_id for c in challenges])
        .select_related("event")
        .order_by("event__occurred_at", "id")
    ):
        found.setdefault(source.belief_id, []).append(
            {"event_id": str(source.event.public_id), "excerpt": source.excerpt}
        )
    return found


def _proposal_sources(principal: User, challenges: list[Challenge]) -> dict[int, list[SourceView]]:
    statements = {c.pk: c.statement for c in challenges}
    found: dict[int, list[SourceView]] = {}
    for source in (
        ChallengeSource.objects.filter(owner=principal, challenge__in=list(statements))
        .select_related("event")
        .order_by("event__occurred_at", "id")
    ):
        event = source.event
        found.setdefault(source.challenge_id, []).append(
            {
                "event_id": str(event.public_id),
                "excerpt": ""
                if event.redacted_at
                else excerpt_for(event.text, statements[source.challenge_id]),
            }
        )
    return found


def challenge_views(principal: User, challenges: Iterable[Challenge]) -> list[ChallengeView]:
    """Each of ``challenges`` (the principal's) as plain data, in order."""
    listed = list(challenges)
    standing_sources = _standing_sources(principal, listed)
    proposal_sources = _proposal_sources(principal, listed)
    views: list[ChallengeView] = []
    for challenge in listed:
        standing = challenge.standing
        views.append(
            {
                "id": str(challenge.public_id),
                "state": challenge.state,
                "created_at": challenge.created_at,
                "updated_at": challenge.updated_at,
                "decided_at": challenge.decided_at,
                "standing": {
                    "id": str(standing.public_id),
                    "type": standing.type,
                    "subject": standing.subject,
                    "statement": standing.statement,
                    "polarity": standing.polarity,
                    "authority": standing.authority,
                    "status": standing.status,
                    "revision": standing.revision,
                    "sources": standing_sources.get(standing.pk, []),
                },
                "proposal": {
                    "type": challenge.type,
                    "subject": challenge.subject,
                    "statement": challenge.statement,
                    "polarity": challenge.polarity,
                    "model_proposed": challenge.model_proposed,
                    "sources": proposal_sources.get(challenge.pk, []),
                },
                "replacement": str(challenge.replacement.public_id)
                if challenge.replacement
                else None,
            }
        )
    return views


def challenge_view(principal: User, challenge: Challenge) -> ChallengeView:
    (view,) = challenge_views(principal, [challenge])
    return view


def challenges_export(principal: User) -> ChallengesExport:
    """Every challenge of the principal, oldest first, for the account export."""
    challenges = challenge_list(principal).order_by("created_at", "id")
    return {"challenges": challenge_views(principal, challenges)}


def open_challenge_count(principal: User) -> int:
    return Challenge.objects.filter(owner=principal, state=Challenge.State.OPEN).count()
