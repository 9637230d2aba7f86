from .access import AccessRecord, AccessRecordFailure
from .beliefs import AuditRecord, Belief, BeliefSource, DeletionFence, FencedEvent
from .formation import ConsolidationWatermark, ExtractionAudit, FormationAudit, FormationRetry
from .operations import BeliefStatusCount, Flag, MaintenanceDue, SearchStatistics
from .receipts import Heartbeat, IdempotencyRecord
from .search import SearchTerm
from .sessions import Event, Run, Session
from .spend import ProviderSpend

__all__ = [
    "AccessRecord",
    "AccessRecordFailure",
    "AuditRecord",
    "Belief",
    "BeliefSource",
    "BeliefStatusCount",
    "ConsolidationWatermark",
    "DeletionFence",
    "Event",
    "ExtractionAudit",
    "FencedEvent",
    "Flag",
    "FormationAudit",
    "FormationRetry",
    "Heartbeat",
    "IdempotencyRecord",
    "MaintenanceDue",
    "ProviderSpend",
    "Run",
    "SearchStatistics",
    "SearchTerm",
    "Session",
]
