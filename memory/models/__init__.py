from .beliefs import AuditRecord, Belief, BeliefSource, DeletionFence, FencedEvent
from .formation import ConsolidationWatermark, ExtractionAudit, FormationAudit
from .operations import BeliefStatusCount, Flag, MaintenanceDue
from .sessions import Event, Run, Session

__all__ = [
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
    "MaintenanceDue",
    "Run",
    "Session",
]
