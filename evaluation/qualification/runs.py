"""Qualifying the configured provider: checks before anything is sent, the estimate, the arms.

Both arms read the shipped data in throwaway accounts: ``deterministic`` (the
product without the provider) and the capability's provider-assisted arm, under
the live egress rules. Nothing is sent before ``preflight`` has found the
provider configured and priced, the data the pinned one, the egress rules letting
something leave and, for reconsolidation, a current formation_provider certificate.
"""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.crypto import get_random_string

from evaluation.arms import database_description
from evaluation.certificates import (
    Capability,
    CertificationError,
    capability,
    current_provider,
    upstream_refusal,
)
from evaluation.provenance import code_digest, policy_versions
from evaluation.reconsolidation_runner import (
    REVIEWS_PER_BANK,
    evaluate_case,
)
from formation.candidates import MemoryCandidateExtractor
from formation.hybrid import BUDGET as FORMATION_BUDGET
from formation.hybrid import HybridExtractor
from formation.model_proposals import SYSTEM_PROMPT
from formation.services import configured_extractor
from providers.config import ProviderConfig, price_refusal, provider_config
from providers.egress import egress_rules, residency_allowed
from reconsolidation.assisted.preparation import BUDGET as RECONSOLIDATION_BUDGET

from .data import DataError, pinned_cases
from .formation_arms import run_formation_case
from .metrics import BASELINE, K, qualification_metrics
from .signing import sign

# The capability each kind of qualification certifies.
KINDS = {"formation": "formation_provider", "reconsolidation": "reconsolidation_provider"}
# Calls of one reconsolidation review round at most: a merge and a topic review, each a
# proposal and a verification.
CALLS_PER_ROUND = 4
# What a typical answer costs in output tokens, for the estimate (the ceiling is the budget).
TYPICAL_OUTPUT_TOKENS = 400


class QualificationError(ValueError):
    """Qualification cannot start; the message says why."""


@dataclass(frozen=True)
class Preflight:
    kind: str
    spec: Capability
    config: ProviderConfig
    cases: list[dict[str, Any]]
    digest: str


@dataclass(frozen=True)
class Estimate:
    cases: int
    calls_most: int
    usd_most: Decimal
    usd_typical: Decimal


def preflight(kind: str) -> Preflight:
    """Everything qualification needs before a call is made, or QualificationError."""
    if kind not in KINDS:
        raise QualificationError(f"unknown qualification {kind!r}: formation or reconsolidation")
    name = KINDS[kind]
    try:
        spec = capability(name)
    except CertificationError as error:
        raise QualificationError(str(error)) from None
    config = provider_config()
    if config is None:
        raise QualificationError(
            "no provider is configured: set REVERIE_PROVIDER_BASE_URL and REVERIE_PROVIDER_MODEL"
        )
    if refusal := price_refusal(config):
        raise QualificationError(refusal)
    if not residency_allowed(config.residency) or not egress_rules():
        raise QualificationError(
            "the egress rules let nothing leave for this provider, so qualification would send "
            "nothing: set REVERIE_PROVIDER_RESIDENCY, list it in REVERIE_EGRESS_RESIDENCY and "
            "allow what may leave in REVERIE_EGRESS_ALLOW (docs/providers.md)"
        )
    try:
        cases, digest = pinned_cases(kind, pin=spec.datasets.get("qualification"), capability=name)
    except DataError as error:
        raise QualificationError(str(error)) from None
    if refusal := upstream_refusal(spec):
        raise QualificationError(refusal)
    return Preflight(kind=kind, spec=spec, config=config, cases=cases, digest=digest)


def _formation_estimate(check: Preflight) -> Estimate:
    config = check.config
    calls = typical_input = 0
    for case in check.cases:
        for session in case["sessions"]:
            texts = [m["text"] for m in session["messages"] if m["role"] == "user"]
            if texts:
                calls += 1
                # About four bytes a token, the prompt and the known memories included.
                typical_input += (len(SYSTEM_PROMPT) + len(json.dumps(texts)) + 2_000) // 4
    per_call = min(
        config.cost(FORMATION_BUDGET.input_tokens, FORMATION_BUDGET.output_tokens),
        FORMATION_BUDGET.usd,
    )
    return Estimate(
        cases=len(check.cases),
        calls_most=calls,
        usd_most=per_call * calls,
        usd_typical=config.cost(typical_input, TYPICAL_OUTPUT_TOKENS * calls),
    )


def _reconsolidation_estimate(check: Preflight) -> Estimate:
    config = check.config
    calls = len(check.cases) * REVIEWS_PER_BANK * CALLS_PER_ROUND
    input_tokens = RECONSOLIDATION_BUDGET.input_bytes // 4
    per_call = min(
        config.cost(input_tokens, RECONSOLIDATION_BUDGET.output_tokens), RECONSOLIDATION_BUDGET.usd
    )
    # Typically one round per bank: a round that applies nothing ends its reviews.
    typical = config.cost(2_000, TYPICAL_OUTPUT_TOKENS) * len(check.cases) * CALLS_PER_ROUND
    return Estimate(
        cases=len(check.cases),
        calls_most=calls,
        usd_most=per_call * calls,
        usd_typical=typical,
    )


def estimate(check: Preflight) -> Estimate:
    """How many calls qualification makes at most, and what they cost at most and typically."""
    if check.kind == "formation":
        return _formation_estimate(check)
    return _reconsolidation_estimate(check)


def _arms(
    check: Preflight, run: str, progress: Callable[[str, int, int], None] | None
) -> dict[str, list[Any]]:
    """{arm: observations} of both arms over the shipped cases."""
    name = check.spec.name
    observed: dict[str, list[Any]] = {}
    for arm in (BASELINE, name):
        observations: list[Any] = []
        for done, case in enumerate(check.cases, start=1):
            if check.kind == "formation":
                extractor: MemoryCandidateExtractor = configured_extractor()
                if arm != BASELINE:
                    extractor = HybridExtractor(extractor, config=check.config)
                observation = run_formation_case(
                    case, extractor=extractor, username=f"qualification-{run}-{arm}-{case['id']}"
                )
            else:
                observation = evaluate_case(
                    case,
                    k=K,
                    run=f"qualification-{run}",
                    arm="reconsolidation" if arm == BASELINE else arm,
                    live=True,
                )
            observations.append(observation)
            if progress:
                progress(arm, done, len(check.cases))
        observed[arm] = observations
    return observed


def qualify(
    check: Preflight, *, progress: Callable[[str, int, int], None] | None = None
) -> dict[str, Any]:
    """Run both arms over the shipped data; return the signed results (nothing certified)."""
    run = get_random_string(8).lower()
    name = check.spec.name
    started = time.perf_counter()
    observed = _arms(check, run, progress)
    results: dict[str, Any] = {
        "meta": {
            "evaluation": "qualification",
            "capability": name,
            "qualification": check.kind,
            "run": run,
            "finished_at": timezone.now().isoformat(),
            "seconds": round(time.perf_counter() - started, 1),
            "database": database_description(),
            "policy_versions": policy_versions(),
            "code_digests": {check.spec.policy: code_digest([check.spec.policy])},
            "dataset_digest": check.digest,
            "provider": current_provider(check.spec),
            "settings": {"k": K},
        },
        "observed": observed,
        "arms": {name: qualification_metrics(check.kind, check.cases, observed, arm=name, k=K)},
    }
    return sign(results)
