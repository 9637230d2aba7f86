"""Everything of one principal: export it, or erase it for good.

Erasure is confirmed in two steps: ``account_erasure_request`` returns a
short-lived signed token naming the principal, and ``account_erase`` only acts
on a valid, unexpired token for that same principal. Nothing is stored between
the steps, and a token is useless once the account is gone.
"""

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, TypedDict

from django.core import signing
from django.utils import timezone

from accounts.models import User
from common.principal import principal_context, principal_transaction
from core.errors import conflict, validation_error
from memory.derived import derived_surface
from memory.embeddings.queries import QUERIES
from memory.models import (
    AccessRecord,
    AuditRecord,
    Belief,
    BeliefSource,
    BeliefStatusCount,
    DeletionFence,
    Event,
    FencedEvent,
    IdempotencyRecord,
    MaintenanceDue,
    MemoryVector,
    Run,
    SearchStatistics,
    SearchTerm,
    Session,
)
from memory.search import forget_erased
from memory.selectors.access import AccessItems, access_items, access_record_list

from .batches import delete_in_batches

ERASURE_SALT = "reverie.account-erasure"
ERASURE_TOKEN_LIFETIME = timedelta(minutes=10)

# Deleted child first, so that no foreign key ever points at a deleted row.
_OWNED_MODELS = (
    # Before the tokens go with the principal: each record names its token.
    AccessRecord,
    FencedEvent,
    DeletionFence,
    AuditRecord,
    BeliefSource,
    MemoryVector,
    Belief,
    Run,
    Event,
    Session,
    MaintenanceDue,
    BeliefStatusCount,
    IdempotencyRecord,
    # After the beliefs and events, whose deletion the triggers count here.
    SearchStatistics,
    SearchTerm,
)


# What apps built on ``memory`` keep per principal, registered from their ``AppConfig.ready``:
# each is ``purge(principal) -> {model name: rows deleted}``, run in the erasing
# transaction before memory's own rows go, so that none of theirs points at a deleted one.
_purges: list[Callable[[User], Mapping[str, int]]] = []


def account_purge_extend(purge: Callable[[User], Mapping[str, int]]) -> None:
    """Have ``account_purge`` delete an app's rows of the principal too."""
    if purge not in _purges:
        _purges.append(purge)


# What such apps hold for the owner beside memories and derived memories, for the export:
# each is ``export(principal) -> {key: plain data}``, read in the principal's context.
_exports: list[Callable[[User], Mapping[str, object]]] = []


def account_export_extend(export: Callable[[User], Mapping[str, object]]) -> None:
    """Have ``account_export`` include an app's rows of the principal too."""
    if export not in _exports:
        _exports.append(export)


class ErasureRequest(TypedDict):
    """The token that confirms an account's erasure, and when it stops doing so."""

    token: str
    expires_at: datetime


def account_erasure_request(*, principal: User) -> ErasureRequest:
    """Start erasing the principal's account; return the token and when it expires."""
    token = signing.TimestampSigner(salt=ERASURE_SALT).sign(str(principal.public_id))
    return {"token": token, "expires_at": timezone.now() + ERASURE_TOKEN_LIFETIME}


def account_erase(*, principal: User, token: object) -> dict[str, int]:
    """Irreversibly delete the principal and everything they own.

    ``token`` must come from ``account_erasure_request`` for this principal
    within the last ten minutes. Returns how many rows of each kind were
    deleted (content-free counts).
    """
    if not isinstance(token, str) or not token:
        raise validation_error("A confirmation token is required.", field="token")
    try:
        public_id = signing.TimestampSigner(salt=ERASURE_SALT).unsign(
            token, max_age=ERASURE_TOKEN_LIFETIME
        )
    except signing.SignatureExpired:
        raise conflict(
            "The confirmation token has expired; ask for a new one.", field="token"
        ) from None
    except signing.BadSignature:
        raise validation_error("The confirmation token is not valid.", field="token") from None
    if public_id != str(principal.public_id):
        raise validation_error("The confirmation token is not valid.", field="token")
    return account_purge(principal=principal)


def account_purge(*, principal: User) -> dict[str, int]:
    """Delete the principal and everything they own, with no confirmation step.

    For ``account_erase`` once confirmed, and for tools that own their
    principals (benchmarks). Returns content-free counts per kind of row.
    """
    deleted: dict[str, int] = {}
    with principal_transaction(principal):
        # Children before parents, each delete scoped to the owner, so that
        # the cascade collector never has to gather a whole bank into memory.
        Belief.objects.filter(owner=principal).update(supersedes=None)
        for purge in _purges:
            deleted.update(purge(principal))
        for model in _OWNED_MODELS:
            deleted[model.__name__.lower()] = delete_in_batches(
                model.objects.filter(owner=principal)
            )
        principal_id = principal.pk
        principal.delete()
        forget_erased()
    # The queries' vectors this process kept for the account; other processes' go with
    # their age (memory.embeddings.queries).
    QUERIES.forget(principal_id)
    return deleted


# The export's own keys ("principal", "exported_at", "sessions", "memories", "access")
# and whatever keys the derived surface and the apps' exports add: plain data for JSON.
AccountExport = dict[str, Any]


def account_export(*, principal: User) -> AccountExport:
    """All of the principal's sessions (with their logs) and memories, as plain data, with
    whatever an app built on memory derived from them (``memory.derived``) or holds of
    them (``account_export_extend``)."""
    surface = derived_surface(whatever_the_surface=True)
    derived = surface.export(principal) if surface is not None else {}
    with principal_context(principal):
        extended = {key: rows for export in _exports for key, rows in export(principal).items()}
        return {
            "principal": {"id": str(principal.public_id), "username": principal.get_username()},
            "exported_at": timezone.now(),
            "sessions": _exported_sessions(principal),
            "memories": _exported_memories(principal),
            # Which of the owner's tokens read what, and when: ids only, like the rows.
            "access": [
                _exported_access(record)
                for record in access_record_list(principal=principal).reverse()
            ],
            **derived,
            **extended,
        }


class ExportedEvent(TypedDict):
    id: str
    sequence: int
    type: str
    author_kind: str
    author_name: str
    parts: list[dict[str, str]]
    payload: dict[str, object]
    external_id: str | None
    sensitivity: str
    occurred_at: datetime
    redacted_at: datetime | None


class ExportedSession(TypedDict):
    id: str
    external_id: str | None
    scope: str
    created_at: datetime
    last_activity_at: datetime
    closed_at: datetime | None
    erased_at: datetime | None
    events: list[ExportedEvent]


class ExportedSource(TypedDict):
    event_id: str
    excerpt: str


class ExportedMemory(TypedDict):
    id: str
    type: str
    subject: str
    statement: str
    polarity: str
    authority: str
    status: str
    needs_review: bool
    confidence: float
    scope: str
    portability: str
    sensitivity: str
    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None
    supersedes: str | None
    revision: int
    created_at: datetime
    updated_at: datetime
    sources: list[ExportedSource]


class ExportedAccess(AccessItems):
    id: str
    token_id: str
    token_name: str
    route: str
    request_id: str
    at: datetime


def _exported_sessions(principal: User) -> list[ExportedSession]:
    """The principal's sessions, oldest first, each with its log in order."""
    sessions = list(Session.objects.filter(owner=principal).order_by("created_at", "id"))
    events: dict[int, list[ExportedEvent]] = {}
    for event in Event.objects.filter(owner=principal).order_by("session_id", "sequence"):
        events.setdefault(event.session_id, []).append(_exported_event(event))
    return [_exported_session(session, events.get(session.pk, [])) for session in sessions]


def _exported_session(session: Session, events: list[ExportedEvent]) -> ExportedSession:
    return {
        "id": str(session.public_id),
        "external_id": session.external_id,
        "scope": session.scope,
        "created_at": session.created_at,
        "last_activity_at": session.last_activity_at,
        "closed_at": session.closed_at,
        "erased_at": session.erased_at,
        "events": events,
    }


def _exported_event(event: Event) -> ExportedEvent:
    return {
        "id": str(event.public_id),
        "sequence": event.sequence,
        "type": event.event_type,
        "author_kind": event.author_kind,
        "author_name": event.author_name,
        "parts": event.parts,
        "payload": event.payload,
        "external_id": event.external_id,
        "sensitivity": event.sensitivity,
        "occurred_at": event.occurred_at,
        "redacted_at": event.redacted_at,
    }


def _exported_memories(principal: User) -> list[ExportedMemory]:
    """The principal's memories, oldest first, each with the excerpts it was formed from."""
    sources: dict[int, list[ExportedSource]] = {}
    for source in BeliefSource.objects.filter(owner=principal).select_related("event"):
        sources.setdefault(source.belief_id, []).append(
            {"event_id": str(source.event.public_id), "excerpt": source.excerpt}
        )
    beliefs = Belief.objects.filter(owner=principal).select_related("supersedes")
    return [
        _exported_memory(belief, sources.get(belief.pk, []))
        for belief in beliefs.order_by("created_at", "id")
    ]


def _exported_memory(belief: Belief, sources: list[ExportedSource]) -> ExportedMemory:
    return {
        "id": str(belief.public_id),
        "type": belief.type,
        "subject": belief.subject,
        "statement": belief.statement,
        "polarity": belief.polarity,
        "authority": belief.authority,
        "status": belief.status,
        "needs_review": belief.needs_review,
        "confidence": belief.confidence,
        "scope": belief.scope,
        "portability": belief.portability,
        "sensitivity": belief.sensitivity,
        "valid_from": belief.valid_from,
        "valid_until": belief.valid_until,
        "expires_at": belief.expires_at,
        "supersedes": None if belief.supersedes is None else str(belief.supersedes.public_id),
        "revision": belief.revision,
        "created_at": belief.created_at,
        "updated_at": belief.updated_at,
        "sources": sources,
    }


def _exported_access(record: AccessRecord) -> ExportedAccess:
    return {
        "id": str(record.public_id),
        "token_id": str(record.token.public_id),
        "token_name": record.token.name,
        "route": record.route,
        "request_id": record.request_id,
        "at": record.created_at,
        **access_items(record),
    }
