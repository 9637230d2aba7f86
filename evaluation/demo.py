"""Reconsolidation switched on for the demo, with evidence: ``make run`` shows it at once.

The demo certifies the current reconsolidation code with the shipped labelled
fixture (the same evaluation and the same thresholds an operator would use),
switches the owner surface and the capability on, and runs passes over the
demo owner's bank until a full scan completes. A certificate of the current
code is reused; the evaluation (about two seconds) runs only when there is none.
"""

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from accounts.models import User
from common.services.flags import flag_set
from reconsolidation.services.passes import reconsolidation_pass

from .certificates import certify, matching_certificate
from .models import Certificate
from .reconsolidation_runner import DEFAULT_FIXTURES, evaluate_reconsolidation

CAPABILITY = "reconsolidation"
# A bank this size completes its full scan in one pass; the bound only stops a
# runaway loop on a bank far larger than a demo's.
MAX_PASSES = 20


@dataclass(frozen=True)
class DemoReconsolidation:
    certificate: Certificate
    certified_now: bool
    applied: int


def demo_reconsolidation(
    *, username: str, out_dir: str | Path | None = None
) -> DemoReconsolidation:
    """Certify (if need be), switch on and reconsolidate ``username``'s bank; say what."""
    certificate = matching_certificate(CAPABILITY)
    certified_now = certificate is None
    if certificate is None:
        out_dir = Path(out_dir or Path(settings.BASE_DIR) / "var/evaluation/demo-reconsolidation")
        evaluate_reconsolidation(DEFAULT_FIXTURES, k=10, out_dir=out_dir)
        certificate = certify(
            raw_results=(out_dir / "results.json").read_bytes(), capability_name=CAPABILITY
        )
    # The surface first: the capability may not be on while its owner cannot see it.
    flag_set(key="reconsolidation_surface", enabled=True)
    flag_set(key=CAPABILITY, enabled=True)
    owner = User.objects.get(username=username)
    applied = 0
    for _ in range(MAX_PASSES):
        report = reconsolidation_pass(principal=owner)
        applied += report.outcomes.get("applied", 0)
        if report.full_scan_completed or not report.leased:
            break
    return DemoReconsolidation(
        certificate=certificate, certified_now=certified_now, applied=applied
    )
