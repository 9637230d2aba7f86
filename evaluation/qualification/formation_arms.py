"""One arm of formation qualification: each case in a throwaway account, through the product.

A case's explicit memories are stated as the owner states them
(``belief_remember``); then each session is opened, its messages appended, and
the session consolidated by ``formation_consolidate`` with the arm's extractor,
exactly as the formation task does: one request per session, holding the whole
session, under the live egress rules and the owner's choice. What each session
stored, the questions it raised for the owner (challenges) and the content-free
record of the provider attempt are observed; at the end, whether any explicit
memory changed. The account is purged afterwards, whatever happened.

The labels are never read here: ``formation_scoring`` meets them with the
observations.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from common.principal import principal_context
from core.errors import ReverieError
from formation.candidates import MemoryCandidateExtractor
from formation.models import Challenge, ExtractionAudit
from formation.services import formation_consolidate
from memory.enums import BeliefStatus, EventType
from memory.models import Belief, Session
from memory.services.account import account_purge
from memory.services.beliefs import belief_remember
from memory.services.sessions import event_append, session_create

ROLE_EVENT = {"user": EventType.USER_MESSAGE, "assistant": EventType.ASSISTANT_MESSAGE}
# Sessions of a case happen a day apart, ending before the run starts.
SESSION_SPACING = timedelta(days=1)


def _append(
    principal: User, session: Session, messages: Iterable[dict[str, Any]], at: datetime
) -> int:
    refused = 0
    for offset, message in enumerate(messages):
        try:
            event_append(
                principal=principal,
                session_id=session.public_id,
                event_type=ROLE_EVENT[message["role"]],
                parts=[{"type": "text", "text": message["text"]}],
                occurred_at=at + timedelta(seconds=offset),
            )
        except ReverieError:
            # Refused at the door, as it would be live; nothing of it can be formed.
            refused += 1
    return refused


def _observe_session(principal: User, session: Session, challenges_before: int) -> dict[str, Any]:
    with principal_context(principal):
        stored = [
            {
                "statement": belief.statement,
                "polarity": belief.polarity,
                "sensitivity": belief.sensitivity,
                "model": belief.model_proposed,
            }
            for belief in Belief.objects.filter(owner=principal, formation__session=session)
            .only("statement", "polarity", "sensitivity", "model_proposed")
            .order_by("id")
        ]
        challenges = [
            {
                "statement": challenge.statement,
                "polarity": challenge.polarity,
                "model": challenge.model_proposed,
            }
            for challenge in Challenge.objects.filter(owner=principal, pk__gt=challenges_before)
            .only("statement", "polarity", "model_proposed")
            .order_by("id")
        ]
        attempt = (
            ExtractionAudit.objects.filter(owner=principal, formation__session=session)
            .values("returned_count", "dropped", "fallback", "error_class")
            .first()
        )
    return {
        "stored": stored,
        "challenges": challenges,
        "attempt": None
        if attempt is None
        else {
            "returned": attempt["returned_count"],
            "dropped": attempt["dropped"],
            "fallback": attempt["fallback"],
            "error_class": attempt["error_class"],
        },
    }


def _last_challenge(principal: User) -> int:
    with principal_context(principal):
        last = Challenge.objects.filter(owner=principal).order_by("-id").first()
    return last.pk if last else 0


def _explicit_changed(principal: User, known: Sequence[Belief]) -> int:
    """How many of the owner's explicit memories no longer stand as they were stated."""
    with principal_context(principal):
        now = {
            belief.pk: belief
            for belief in Belief.objects.filter(owner=principal, pk__in=[b.pk for b in known])
        }
    return sum(
        1
        for belief in known
        if belief.pk not in now
        or now[belief.pk].status != BeliefStatus.ACTIVE
        or now[belief.pk].statement != belief.statement
    )


def _run_case(
    principal: User, case: dict[str, Any], extractor: MemoryCandidateExtractor
) -> dict[str, Any]:
    known = [
        belief_remember(
            principal=principal,
            statement=entry["statement"],
            type=entry["type"],
            subject=entry["subject"],
            polarity=entry["polarity"],
        )
        for entry in case.get("known", [])
    ]
    first = timezone.now().replace(microsecond=0) - SESSION_SPACING * (len(case["sessions"]) + 1)
    sessions: list[dict[str, Any]] = []
    for index, spec in enumerate(case["sessions"]):
        at = first + SESSION_SPACING * index
        session = session_create(principal=principal, started_at=at)
        refused = _append(principal, session, spec["messages"], at)
        before = _last_challenge(principal)
        formation_consolidate(
            principal=principal, session_id=session.public_id, extractor=extractor
        )
        sessions.append({**_observe_session(principal, session, before), "refused": refused})
    return {"sessions": sessions, "explicit_changed": _explicit_changed(principal, known)}


def run_formation_case(
    case: dict[str, Any], *, extractor: MemoryCandidateExtractor, username: str
) -> dict[str, Any]:
    """What the product did with one case through ``extractor``; nothing of it is kept."""
    observation: dict[str, Any] = {
        "case": case["id"],
        "sessions": [],
        "explicit_changed": 0,
        "failed": None,
    }
    principal = User.objects.create_user(username=username[:150])
    try:
        observation.update(_run_case(principal, case, extractor))
    except ReverieError as error:
        # A failed case counts as such, with its reason; it never drops out.
        observation["failed"] = repr(error)
    finally:
        account_purge(principal=principal)
    return observation
