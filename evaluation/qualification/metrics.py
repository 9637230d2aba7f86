"""The figures a qualification certifies on, by kind, from the shipped labels and what was
observed; ``certify`` recomputes them with this, never trusting the recorded ones."""

from typing import Any

from .formation_scoring import formation_qualification_metrics
from .reconsolidation_scoring import reconsolidation_qualification_metrics

# The arm without the provider, which the provider's arm must improve on.
BASELINE = "deterministic"
# Recall depth of the reconsolidation banks' queries.
K = 10


def qualification_metrics(
    kind: str, cases: Any, observed: dict[str, Any], *, arm: str, k: int = K
) -> dict[str, Any]:
    if kind == "formation":
        return formation_qualification_metrics(cases, observed, arm=arm, baseline=BASELINE)
    return reconsolidation_qualification_metrics(cases, observed, k=k, arm=arm, baseline=BASELINE)
