import pytest

from evaluation import certificates
from evaluation.models import Certificate
from memory.services.flags import flag_set


@pytest.fixture
def processing_on(db):
    """A certificate of the current reconsolidation code, then the owner's surface and the
    capability's flag on."""
    spec = certificates.capability("reconsolidation")
    policy_version, digest = certificates.current_binding(spec)
    Certificate.objects.create(
        capability=spec.name,
        arm=spec.arm,
        policy_version=policy_version,
        code_digest=digest,
        dataset_digest="0" * 64,
        results_digest="0" * 64,
        metrics={},
        thresholds={},
    )
    flag_set(key="reconsolidation_surface", enabled=True)
    flag_set(key="reconsolidation", enabled=True)
