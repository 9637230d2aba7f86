"""What a result or certificate is bound to: policy versions and digests of code and data."""

import hashlib
from pathlib import Path

from django.conf import settings

from memory.formation.candidates import POLICY_PROVIDER_ASSISTED
from memory.services.formation import configured_extractor
from reconsolidation.planning import POLICY_VERSION as RECONSOLIDATION_POLICY

# The code that decides what an evaluated capability does, by part. A change
# to any of these files changes the digest, and so invalidates certificates
# issued for the code before it.
POLICY_CODE = {
    "formation": ("memory/formation", "memory/services/formation.py"),
    # Provider-assisted formation: the same, and the adapter, egress policy and ledger.
    "formation_provider": (
        "memory/formation",
        "memory/services/formation.py",
        "memory/providers",
    ),
    "recall": ("memory/selectors/recall.py", "memory/search"),
    # What reconsolidation reads, plans, applies and invalidates, and how derived
    # memories are recalled. Scheduling, budgets and the owner's actions and undo
    # decide nothing the evaluation measures, so changing them needs no new certificate.
    "reconsolidation": (
        "reconsolidation/planning.py",
        "reconsolidation/planners",
        "reconsolidation/services/passes.py",
        "reconsolidation/services/operations.py",
        "reconsolidation/services/summaries.py",
        "reconsolidation/services/hypotheses.py",
        "reconsolidation/services/invalidation.py",
        "reconsolidation/selectors/sources.py",
        "reconsolidation/selectors/hypotheses.py",
        "reconsolidation/selectors/summaries.py",
        "reconsolidation/selectors/recall.py",
    ),
}


def _files(relative):
    path = Path(settings.BASE_DIR) / relative
    if path.is_dir():
        return sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return [path]


def code_digest(parts=tuple(POLICY_CODE)):
    """SHA-256 over the named parts' files: their paths and contents, in a fixed order."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for part in sorted(parts):
        for relative in POLICY_CODE[part]:
            for path in _files(relative):
                digest.update(str(path.relative_to(base)).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def policy_versions():
    return {
        # Not ``formation_extractor()``: that asks whether formation_provider is
        # certified, which asks for these versions.
        "formation": configured_extractor().policy_version,
        "formation_provider": POLICY_PROVIDER_ASSISTED,
        "reconsolidation": RECONSOLIDATION_POLICY,
    }
