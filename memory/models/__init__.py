from .access import AccessRecord, AccessRecordFailure
from .beliefs import AuditRecord, Belief, BeliefSource, DeletionFence, FencedEvent
from .operations import BeliefStatusCount, LabelsClassified, MaintenanceDue, SearchStatistics
from .receipts import IdempotencyRecord
from .search import SearchTerm
from .sessions import Event, Run, Session
from .vectors import MemoryVector, VectorState

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
    "MemoryVector",
    "Run",
    "SearchStatistics",
    "SearchTerm",
    "Session",
    "VectorState",
]
