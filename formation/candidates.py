"""What an extractor proposes, and the port every extractor implements."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from core.scopes import SCOPE_PRINCIPAL
from memory.enums import Polarity, Portability, Sensitivity

if TYPE_CHECKING:
    from accounts.models import User

POLICY_DETERMINISTIC = "formation@2"
# A consolidation to which a provider contributed: its answer was used.
POLICY_PROVIDER_ASSISTED = "formation@4"

# Who proposed a candidate.
PROPOSER_DETERMINISTIC = "deterministic"
PROPOSER_MODEL = "model"


@dataclass(frozen=True)
class TemporalHint:
    """When a proposed claim holds, as the message said it ("until Friday")."""

    phrase: str = ""
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    expires_at: datetime | None = None


@dataclass(frozen=True)
class MemoryCandidate:
    """One proposed memory. A proposal only: the formation service decides.

    ``source_ids`` are public ids of the events the claim was read from;
    ``confidence`` is the extractor's own estimate and is not trusted.
    """

    type: str
    subject: str
    statement: str
    source_ids: tuple[str, ...]
    polarity: str = Polarity.POSITIVE
    confidence: float = 0.5
    scope: str = SCOPE_PRINCIPAL
    portability: str = Portability.PORTABLE
    sensitivity: str = Sensitivity.NORMAL
    temporal: TemporalHint = field(default_factory=TemporalHint)
    proposer: str = PROPOSER_DETERMINISTIC


@dataclass(frozen=True)
class ExtractionMessage:
    """A message of the prefix being consolidated, as extractors see it."""

    id: str
    event_type: str
    author_kind: str
    parts: tuple[str, ...]
    occurred_at: datetime

    @property
    def text(self) -> str:
        return "\n".join(self.parts)


@dataclass(frozen=True)
class KnownBelief:
    """A live memory the owner already has, so that a retraction can name its subject."""

    subject: str
    statement: str
    type: str
    polarity: str = Polarity.POSITIVE
    # What the egress policy judges before a provider may see the memory.
    sensitivity: str = Sensitivity.NORMAL
    portability: str = Portability.PORTABLE
    scope: str = SCOPE_PRINCIPAL


@dataclass(frozen=True)
class ExtractionRequest:
    messages: tuple[ExtractionMessage, ...]
    known: tuple[KnownBelief, ...] = ()
    scope: str = SCOPE_PRINCIPAL
    # Whose messages these are; a provider-assisted extractor asks the owner's
    # choice and charges the owner's budget. None in dry runs.
    principal: "User | None" = field(default=None, compare=False)


@dataclass(frozen=True)
class ExtractionResult:
    candidates: tuple[MemoryCandidate, ...]
    policy_version: str
    # Content-free facts about the attempt, for the extraction audit.
    provider: str = "deterministic"
    fallback: bool = False
    error_class: str = ""
    usage: dict[str, Any] = field(default_factory=dict)
    # The model the provider says answered, and how many proposals it returned.
    model: str = ""
    returned_count: int = 0
    # Model proposals left out before the service saw them: {"reason": count}.
    dropped: dict[str, int] = field(default_factory=dict)

    @property
    def attempted(self) -> bool:
        """Whether a provider was considered for this extraction (an audit is due)."""
        return self.provider != PROPOSER_DETERMINISTIC


class MemoryCandidateExtractor(Protocol):
    """The replaceable part of formation: messages in, proposals out.

    An implementation may return any number of proposals; the service reads
    at most its own ceiling of them and records the rest as rejected.
    """

    policy_version: str

    def extract(self, request: ExtractionRequest) -> ExtractionResult: ...
