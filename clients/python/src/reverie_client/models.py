"""The API's resources as frozen dataclasses, one per schema component.

Each class names the OpenAPI component it mirrors in ``__schema__``; the client's
tests read the schema the service serves and fail when a field, its type or its
nullability drifts from it. Fields the service adds later are ignored when decoding,
so an older client keeps working against a newer service.

Ids are strings (UUIDs as the API writes them); times are aware ``datetime`` values.
"""

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Literal, TypeVar, Union

# -- the closed sets of values the schema names ---------------------------------------

MemoryType = Literal[
    "ownership", "preference", "attribute", "relationship", "decision", "outcome", "fact"
]
MessageType = Literal[
    "user.message.created", "assistant.message.created", "participant.message.created"
]
PartType = Literal["text", "caption"]
Polarity = Literal["positive", "negative"]
Portability = Literal["portable", "local"]
Sensitivity = Literal["normal", "personal", "sensitive"]
# The statuses recall returns (and filters on).
LiveStatus = Literal["active", "provisional"]
RecallInclude = Literal["messages", "derived"]
RecallItemKind = Literal["belief", "message", "derived"]
# Where a context turn stands beside the recalled message.
ContextPosition = Literal["before", "after"]
DerivedKind = Literal["merged", "summary", "hypothesis", "uncertainty_notice"]
DerivedStatus = Literal[
    "active", "invalidated", "undone", "expired", "promoted", "rejected", "deleted"
]
ReviewState = Literal["unreviewed", "reviewed"]
OperationKind = Literal["merge", "summary", "hypothesis", "uncertainty_notice"]
OperationState = Literal["planned", "applied", "invalidated", "undone", "failed"]
ChallengeState = Literal["open", "kept", "replaced"]
ErrorCode = Literal[
    "validation_error",
    "unauthenticated",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "not_acceptable",
    "conflict",
    "payload_too_large",
    "unsupported_media_type",
    "rate_limited",
    "internal_error",
]

ModelT = TypeVar("ModelT", bound="Model")


class Model:
    """Base of the resources: ``from_dict`` decodes the API's JSON."""

    __schema__: ClassVar[str]

    @classmethod
    def from_dict(cls: type[ModelT], data: dict[str, Any]) -> ModelT:
        return decode(cls, data)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (times as ISO-8601 strings)."""
        return _jsonable(dataclasses.asdict(self))  # type: ignore[call-overload]


# -- sessions, events, runs -----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Session(Model):
    __schema__ = "SessionOutput"

    id: str
    external_id: str | None
    scope: str
    created_at: datetime
    last_activity_at: datetime
    closed_at: datetime | None
    erased_at: datetime | None
    last_sequence: int


@dataclass(frozen=True, kw_only=True)
class Part(Model):
    __schema__ = "PartOutput"

    type: str
    text: str


@dataclass(frozen=True, kw_only=True)
class Event(Model):
    __schema__ = "EventOutput"

    id: str
    session_id: str
    sequence: int
    type: str
    author_kind: str
    author_name: str
    parts: list[Part]
    payload: dict[str, Any]
    external_id: str | None
    # Read from the text when it was appended; a token kept from sensitive things
    # never reads a sensitive message.
    sensitivity: str
    occurred_at: datetime
    created_at: datetime
    redacted_at: datetime | None

    @property
    def text(self) -> str:
        """The message's text parts, joined."""
        return "\n".join(part.text for part in self.parts)


@dataclass(frozen=True, kw_only=True)
class Run(Model):
    __schema__ = "RunOutput"

    id: str
    session_id: str
    status: str
    error_code: str
    created_at: datetime
    finished_at: datetime | None


# -- memories -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Source(Model):
    __schema__ = "SourceOutput"

    event_id: str
    session_id: str
    sequence: int
    excerpt: str


@dataclass(frozen=True, kw_only=True)
class Memory(Model):
    __schema__ = "MemoryOutput"

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
    superseded_by: str | None
    revision: int
    created_at: datetime
    updated_at: datetime
    sources: list[Source]


@dataclass(frozen=True, kw_only=True)
class Derived(Model):
    """A memory derived by reconsolidation (a merge, summary, hypothesis or uncertainty
    notice): never evidence, never an original."""

    __schema__ = "DerivedOutput"

    id: str
    derived_kind: DerivedKind
    status: DerivedStatus
    tentative: bool
    review_state: ReviewState
    restricted: bool
    statement: str
    subject: str
    subject_label: str
    type: str
    polarity: str
    authority: str
    scope: str
    sensitivity: str
    portability: str
    confidence: float
    valid_from: datetime | None
    valid_until: datetime | None
    evidence_at: datetime | None
    expires_at: datetime | None
    revision: int
    created_at: datetime
    updated_at: datetime
    operation_id: str | None
    memory_ids: list[str]
    omitted_memory_ids: list[str]


@dataclass(frozen=True, kw_only=True)
class MemoryPage(Model):
    __schema__ = "MemoryPageOutput"

    results: list[Memory]
    # Pass back as ``changed_since`` for the changes after this page.
    next_changed_since: str | None
    # With ``include=["derived"]`` only.
    derived: list[Derived] | None = None


@dataclass(frozen=True, kw_only=True)
class Change(Model):
    __schema__ = "ChangeOutput"

    memory_id: str
    action: str
    actor: str
    revision: int | None
    from_status: str
    to_status: str
    at: datetime


@dataclass(frozen=True, kw_only=True)
class History(Model):
    __schema__ = "HistoryOutput"

    memory_id: str
    versions: list[Memory]
    changes: list[Change]


# -- challenges -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChallengeSource(Model):
    __schema__ = "ChallengeSourceOutput"

    event_id: str
    excerpt: str


@dataclass(frozen=True, kw_only=True)
class ChallengeStanding(Model):
    """The owner's memory a challenge is about: it stands until the owner decides."""

    __schema__ = "StandingOutput"

    id: str
    type: str
    subject: str
    statement: str
    polarity: str
    authority: str
    status: str
    revision: int
    sources: list[ChallengeSource]


@dataclass(frozen=True, kw_only=True)
class ChallengeProposal(Model):
    """What formation read that may have changed the memory; never a memory itself."""

    __schema__ = "ProposalOutput"

    type: str
    subject: str
    statement: str
    polarity: str
    model_proposed: bool
    sources: list[ChallengeSource]


@dataclass(frozen=True, kw_only=True)
class Challenge(Model):
    """A proposal formation may not decide alone, beside the memory it would retire: the
    owner keeps the memory or replaces it with the proposal."""

    __schema__ = "ChallengeOutput"

    id: str
    state: ChallengeState
    created_at: datetime
    updated_at: datetime
    decided_at: datetime | None
    standing: ChallengeStanding
    proposal: ChallengeProposal
    # Once replaced: the id of the memory made of the proposal.
    replacement: str | None


@dataclass(frozen=True, kw_only=True)
class ChallengePage(Model):
    __schema__ = "ChallengePageOutput"

    results: list[Challenge]


# -- recall ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RecallSource(Model):
    __schema__ = "RecallSourceOutput"

    event_id: str
    session_id: str
    sequence: int
    event_type: str
    occurred_at: datetime
    excerpt: str


@dataclass(frozen=True, kw_only=True)
class RecallContext(Model):
    """A turn around a recalled message, given as its context: not a match."""

    __schema__ = "RecallContextOutput"

    id: str
    text: str
    sequence: int
    event_type: str
    occurred_at: datetime
    position: ContextPosition


@dataclass(frozen=True, kw_only=True)
class RecallItem(Model):
    __schema__ = "RecallItemOutput"

    kind: RecallItemKind
    id: str
    text: str
    rank: int
    score: float
    sources: list[RecallSource]
    type: str
    subject: str
    status: str
    needs_review: bool
    confidence: float | None
    revision: int | None
    session_id: str
    sequence: int | None
    event_type: str
    occurred_at: datetime | None
    # Derived items only.
    derived_kind: DerivedKind | None = None
    tentative: bool | None = None
    memory_ids: list[str] | None = None
    # Message items only, when recalled with ``context_turns``: the turns around it.
    context: list[RecallContext] | None = None


@dataclass(frozen=True, kw_only=True)
class Recall(Model):
    __schema__ = "RecallOutput"

    items: list[RecallItem]
    terms: list[str]
    chars: int
    truncated: bool
    # Whether the query asked what is known about the owner: the items are then the profile.
    profile: bool = False


# -- account --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ErasureRequest(Model):
    __schema__ = "ErasureRequestOutput"

    token: str
    expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class Erasure(Model):
    __schema__ = "ErasureOutput"

    erased: dict[str, int]


# -- tokens ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Token(Model):
    __schema__ = "TokenOutput"

    id: str
    name: str
    prefix: str
    scope: str
    read_only: bool
    include_sensitive: bool
    created_at: datetime
    last_used_at: datetime | None
    paused_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True, kw_only=True)
class AccessRecord(Model):
    """One read made with one of the owner's tokens: the ids of what its answer carried,
    never a query or any text."""

    __schema__ = "AccessRecordOutput"

    id: str
    token_id: str
    token_name: str
    route: str
    request_id: str
    at: datetime
    memory_ids: list[str]
    message_ids: list[str]
    derived_ids: list[str]


# -- reconsolidation ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Operation(Model):
    __schema__ = "OperationOutput"

    id: str
    kind: OperationKind
    state: OperationState
    revision: int
    policy_version: str
    invalidation_reason: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, kw_only=True)
class OperationPage(Model):
    __schema__ = "OperationPageOutput"

    results: list[Operation]
    next_changed_since: str | None


@dataclass(frozen=True, kw_only=True)
class OperationInput(Model):
    __schema__ = "OperationInputOutput"

    memory_id: str
    read_revision: int
    status: str
    revision: int | None
    live: bool
    reason: str


@dataclass(frozen=True, kw_only=True)
class OperationDerived(Model):
    __schema__ = "OperationDerivedOutput"

    id: str
    kind: str
    status: str
    revision: int
    review_state: str
    restricted: bool
    tentative: bool
    statement: str


@dataclass(frozen=True, kw_only=True)
class Receipt(Model):
    __schema__ = "ReceiptOutput"

    key: str
    action: str
    created_at: datetime
    result: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class OperationDetail(Model):
    __schema__ = "OperationDetailOutput"

    id: str
    kind: OperationKind
    state: OperationState
    revision: int
    policy_version: str
    invalidation_reason: str
    created_at: datetime
    updated_at: datetime
    inputs: list[OperationInput]
    outputs: list[OperationDerived]
    receipts: list[Receipt]


@dataclass(frozen=True, kw_only=True)
class Refusal(Model):
    __schema__ = "RefusalOutput"

    code: str
    message: str


@dataclass(frozen=True, kw_only=True)
class UndoPreview(Model):
    __schema__ = "UndoPreviewOutput"

    id: str
    kind: OperationKind
    state: OperationState
    revision: int
    policy_version: str
    invalidation_reason: str
    created_at: datetime
    updated_at: datetime
    undoable: bool
    refusal: Refusal | None
    # Send this back to ``operation_undo`` to undo exactly what the preview shows.
    expected_revision: int
    restores: list[OperationInput]
    does_not_restore: list[OperationInput]
    sets_aside: list[OperationDerived]


@dataclass(frozen=True, kw_only=True)
class Undo(Model):
    __schema__ = "UndoOutput"

    receipt: Receipt
    replayed: bool


@dataclass(frozen=True, kw_only=True)
class DerivedControl(Model):
    __schema__ = "DerivedControlOutput"

    receipt: Receipt
    replayed: bool
    derived: Derived
    # Promote only: the memory the owner now holds.
    memory: Memory | None = None


@dataclass(frozen=True, kw_only=True)
class JournalOriginal(Model):
    __schema__ = "JournalOriginalOutput"

    memory_id: str
    read_revision: int
    status: str
    revision: int | None
    statement: str
    tombstone: bool
    href: str


@dataclass(frozen=True, kw_only=True)
class JournalClaim(Model):
    __schema__ = "JournalClaimOutput"

    position: int
    statement: str
    polarity: str
    uncertain: bool
    supports: list[JournalOriginal]


@dataclass(frozen=True, kw_only=True)
class SummaryJournal(Model):
    __schema__ = "SummaryJournalOutput"

    id: str
    operation: str
    status: str
    review_state: str
    revision: int
    restricted: bool
    subject: str
    statement: str
    created_at: datetime
    updated_at: datetime
    claims: list[JournalClaim]
    omitted: list[JournalOriginal]


MODELS: tuple[type[Model], ...] = tuple(
    value
    for value in list(globals().values())
    if isinstance(value, type) and issubclass(value, Model) and value is not Model
)


# -- decoding -------------------------------------------------------------------------


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    names = {field.name for field in dataclasses.fields(cls)}
    return {name: hint for name, hint in typing.get_type_hints(cls).items() if name in names}


def decode(tp: Any, value: Any) -> Any:
    """``value`` (decoded JSON) as the type ``tp``: dataclasses, lists, optionals, times."""
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        return decode(inner[0], value)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [decode(item, entry) for entry in value]
    if origin is dict or tp is dict:
        return dict(value)
    if tp is datetime:
        return datetime.fromisoformat(value)
    if tp is float and isinstance(value, int):
        return float(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{name: decode(hint, value.get(name)) for name, hint in hints.items()})
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    return value
