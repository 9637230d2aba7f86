"""Formation's rows go with the principal's account (``memory.services.account``)."""

from accounts.models import User
from formation.models import (
    Challenge,
    ChallengeSource,
    ConsolidationWatermark,
    ExtractionAudit,
    FormationAudit,
    FormationRetry,
)
from memory.services.batches import delete_in_batches

# Deleted child first, so that no foreign key ever points at a deleted row; a memory a
# formation formed forgets which one (its link is set to null) until it goes too.
_MODELS = (
    ChallengeSource,
    Challenge,
    ExtractionAudit,
    FormationAudit,
    ConsolidationWatermark,
    FormationRetry,
)


def formation_purge(principal: User) -> dict[str, int]:
    """Delete formation's rows of ``principal``; return how many of each kind went."""
    return {
        model.__name__.lower(): delete_in_batches(model.objects.filter(owner=principal))
        for model in _MODELS
    }
