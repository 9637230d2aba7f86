from .access import AccessRecord, AccessRecordFailure
from .beliefs import AuditRecord, Belief, BeliefSource, DeletionFence, FencedEvent
from .operations import BeliefStatusCount, LabelsClassified, MaintenanceDue, SearchStatistics
from .receipts import IdempotencyRecord
from .search import SearchTerm
from .sessions import Event, Run, Session

__all__ = [
    "AccessRecord",
    "AccessRecordFailure",
    "AuditRecord",
    "Belief",
    "BeliefSource",
    "BeliefStatusCount",
    "DeletionFence",
    "Event",
    "FencedEvent",
    "IdempotencyRecord",
    "LabelsClassified",
    "MaintenanceDue",
    "Run",
    "SearchStatistics",
    "SearchTerm",
    "Session",
]
