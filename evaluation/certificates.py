"""Certificates: a capability is switched on only with evidence from the current code.

``certify`` recomputes an arm's metrics from the observations recorded in a
``results.json`` (so that an edited figure cannot pass), checks them against
the thresholds configured for the capability in ``REVERIE_CAPABILITIES`` and
stores a ``Certificate`` bound to the policy version, the digest of the policy
code and the dataset digest. ``certificate_refusal`` is the check that
``memory`` calls (through ``REVERIE_CERTIFICATE_CHECK``) before a certified
capability's flag may be on.
"""

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from providers.config import price_refusal, provider_config

from .arms import ARMS
from .bindings import ProviderTerms, binding_text, provider_terms
from .formation_evaluation import sha256
from .models import Certificate
from .provenance import code_digest, policy_versions
from .qualification.data import DataError, pinned_cases
from .qualification.metrics import qualification_metrics
from .qualification.signing import signed
from .reconsolidation_runner import DEFAULT_FIXTURES, FixtureError, read_fixtures
from .reconsolidation_scoring import reconsolidation_metrics
from .results import arm_metrics

# How to produce results for a capability, by the evaluation that scores it.
HOW_TO_CERTIFY = {
    "recall": (
        "run `manage.py evaluate FILE --arms {arm},... --out DIR` and then "
        "`manage.py certify --results DIR/results.json --capability {capability}`"
    ),
    "reconsolidation": (
        "run `manage.py evaluate_reconsolidation --arms control,{arm} --out DIR` and then "
        "`manage.py certify --results DIR/results.json --capability {capability}`"
    ),
    "qualification": (
        "configure the provider and run `manage.py qualify_provider {qualification}`, which "
        "certifies on success (docs/providers.md)"
    ),
}


class CertificationError(ValueError):
    """The results cannot certify the capability; the message says why."""


@dataclass(frozen=True)
class Capability:
    name: str
    arm: str
    policy: str
    # {"metric": {"min" | "max": value}}
    thresholds: dict[str, dict[str, float]]
    # The evaluation whose results certify it: "recall" (``evaluate``),
    # "reconsolidation" (``evaluate_reconsolidation``) or "qualification"
    # (``qualify_provider``, for the capabilities that call a provider).
    evaluation: str = "recall"
    # Whether it calls the configured provider: then a certificate also binds the
    # provider's server, model, prices and privacy settings (``bindings.provider_terms``).
    provider: bool = False
    # SHA-256 of the data its evaluation must have read, by input ("fixtures",
    # "qualification"); certify checks the files themselves.
    datasets: dict[str, str] = field(default_factory=dict)
    # For reconsolidation: the least a labelled fixture must hold
    # ({"merges" | "notices" | "no_merge_traps": count}).
    fixture_minimums: dict[str, int] = field(default_factory=dict)
    # Capabilities whose current certificates this one's rests on.
    upstream: tuple[str, ...] = ()
    # For a capability certified by provider qualification: which ("formation" or
    # "reconsolidation"), whose shipped data ``datasets["qualification"]`` pins.
    qualification: str = ""

    @property
    def how(self) -> str:
        return HOW_TO_CERTIFY[self.evaluation].format(
            arm=self.arm, capability=self.name, qualification=self.qualification
        )


def capability(name: str) -> Capability:
    config: dict[str, Any] | None = settings.REVERIE_CAPABILITIES.get(name)
    if config is None:
        known = ", ".join(sorted(settings.REVERIE_CAPABILITIES)) or "none"
        raise CertificationError(f"unknown capability {name!r} (configured: {known})")
    return Capability(name=name, **config)


def current_binding(spec: Capability) -> tuple[str, str]:
    """The policy version and code digest a certificate of ``spec`` must carry now."""
    return policy_versions().get(spec.policy, ""), code_digest([spec.policy])


def current_terms(spec: Capability) -> ProviderTerms | dict[str, str] | None:
    """The provider terms a certificate of ``spec`` must carry now: {} for a capability that
    calls none, None when it calls one and none is configured."""
    if not spec.provider:
        return {}
    return provider_terms()


def current_provider(spec: Capability) -> str | None:
    """``current_terms`` as the string a certificate's provider_binding holds: "" for a
    capability that calls none, None when it calls one and none is configured."""
    if not spec.provider:
        return ""
    terms = provider_terms()
    return None if terms is None else binding_text(terms)


def upstream_refusal(spec: Capability) -> str:
    """Why a capability this one rests on has no current certificate with real evidence, or "".

    The upstream certificate's metrics must meet the upstream's thresholds as configured
    now, every thresholded metric present: a certificate whose figures were never
    measured, or fall short of raised bars, is no ground to rest on."""
    for name in spec.upstream:
        upstream = capability(name)
        certificate = matching_certificate(name)
        if certificate is None:
            return (
                f"{spec.name} rests on {name}, which has no certificate for its current code "
                "and provider"
            )
        failures = threshold_failures(certificate.metrics, upstream.thresholds)
        if failures:
            return (
                f"{spec.name} rests on {name}, whose certificate {certificate.pk} does not meet "
                f"{name}'s current thresholds ({'; '.join(failures)}); {upstream.how}"
            )
    return ""


def threshold_failures(
    metrics: dict[str, Any], thresholds: dict[str, dict[str, float]]
) -> list[str]:
    """Readable failures of ``metrics`` against ``{"metric": {"min"|"max": value}}``."""
    failures: list[str] = []
    for metric, bounds in sorted(thresholds.items()):
        value = metrics.get(metric)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            failures.append(f"{metric} is missing")
            continue
        if "min" in bounds and value < bounds["min"]:
            failures.append(f"{metric} = {value} is below the minimum {bounds['min']}")
        if "max" in bounds and value > bounds["max"]:
            failures.append(f"{metric} = {value} is above the maximum {bounds['max']}")
    return failures


def _recall_metrics(results: dict[str, Any], spec: Capability) -> dict[str, Any]:
    cases = [case for case in results.get("cases", []) if case.get("arm") == spec.arm]
    return arm_metrics(
        results["labels"],
        cases,
        results.get("observed", {}).get(spec.arm),
        forms=ARMS[spec.arm].forms,
    )


def _reconsolidation_metrics(results: dict[str, Any], spec: Capability) -> dict[str, Any]:
    return reconsolidation_metrics(
        results["labels"]["cases"],
        results["observed"][spec.arm],
        k=results["meta"]["settings"]["k"],
    )


def _fixture_counts(cases: Iterable[dict[str, Any]]) -> dict[str, int]:
    labels = [case["labels"] for case in cases]
    return {
        "merges": sum(len(label.get("merge", [])) for label in labels),
        "notices": sum(len(label.get("notice", [])) for label in labels),
        "no_merge_traps": sum(len(label.get("no_merge", [])) for label in labels),
    }


def _reconsolidation_inputs(
    results: dict[str, Any], spec: Capability
) -> tuple[dict[str, Any], str]:
    """The results with the labels of the shipped fixture, and its digest.

    The labels are read from the fixture in the repository, which must be the
    pinned one and hold at least the labelled merges, notices and no-merge traps
    it holds today; the results must be of exactly it. Nothing is taken from
    results.json but the observations.
    """
    raw = DEFAULT_FIXTURES.read_bytes()
    pin = spec.datasets.get("fixtures")
    if pin and sha256(raw) != pin:
        raise CertificationError(
            f"the labelled fixture (sha256 {sha256(raw)[:12]}) is not the one "
            f"{spec.name} is certified on (sha256 {pin[:12]})"
        )
    try:
        cases, digest = read_fixtures(DEFAULT_FIXTURES)
    except FixtureError as error:
        raise CertificationError(str(error)) from None
    counts = _fixture_counts(cases)
    short = [
        f"{name} = {counts[name]} is below {minimum}"
        for name, minimum in sorted(spec.fixture_minimums.items())
        if counts[name] < minimum
    ]
    if short:
        raise CertificationError("the labelled fixture is too small: " + "; ".join(short))
    if results["meta"].get("dataset_digest") != digest:
        raise CertificationError(f"the results are not of the shipped labelled fixture; {spec.how}")
    return {**results, "labels": {"cases": cases}}, digest


def _qualification_inputs(results: dict[str, Any], spec: Capability) -> tuple[dict[str, Any], str]:
    """The results with the labels of the shipped qualification data, and its digest.

    The file must be one this installation signed and of this capability; the data
    must be the pinned one, and the results must be of exactly it. The labels are read
    from the data in the repository, never from the file.
    """
    if not signed(results):
        raise CertificationError(
            "the qualification file was not written by this installation's qualify_provider, "
            f"or was edited since; {spec.how}"
        )
    meta = results["meta"]
    if meta.get("capability") != spec.name or meta.get("qualification") != spec.qualification:
        raise CertificationError(f"the qualification file is not of {spec.name}; {spec.how}")
    try:
        cases, digest = pinned_cases(
            spec.qualification, pin=spec.datasets.get("qualification"), capability=spec.name
        )
    except DataError as error:
        raise CertificationError(str(error)) from None
    if meta.get("dataset_digest") != digest:
        raise CertificationError(
            f"the results are not of the shipped qualification data; {spec.how}"
        )
    return {**results, "labels": cases}, digest


RECOMPUTE: dict[str, Callable[[dict[str, Any], Capability], dict[str, Any]]] = {
    "recall": _recall_metrics,
    "reconsolidation": _reconsolidation_metrics,
    "qualification": lambda results, spec: qualification_metrics(
        spec.qualification,
        results["labels"],
        results["observed"],
        arm=spec.arm,
        k=results["meta"]["settings"]["k"],
    ),
}


def certify(*, raw_results: bytes, capability_name: str) -> Certificate:
    """Check ``raw_results`` (the bytes of results.json) for a capability; store and return the
    certificate, or raise ``CertificationError`` with every reason."""
    spec = capability(capability_name)
    how = spec.how
    try:
        results = json.loads(raw_results)
        meta = results["meta"]
        if not isinstance(meta, dict):
            raise TypeError
    except (ValueError, TypeError, KeyError):
        raise CertificationError("not a results.json written by `manage.py evaluate`") from None
    evaluation = meta.get("evaluation", "recall")
    if evaluation != spec.evaluation:
        raise CertificationError(
            f"the results are of the {evaluation} evaluation, {spec.name} is certified by the "
            f"{spec.evaluation} one; {how}"
        )
    if spec.arm not in results.get("arms", {}):
        raise CertificationError(f"the results have no {spec.arm!r} arm; {how}")
    policy_version, digest = current_binding(spec)
    if meta.get("policy_versions", {}).get(spec.policy) != policy_version:
        raise CertificationError(
            f"the results are of policy {meta.get('policy_versions', {}).get(spec.policy)!r}, "
            f"the code now runs {policy_version!r}; {how}"
        )
    if meta.get("code_digests", {}).get(spec.policy) != digest:
        raise CertificationError(
            f"the results were produced by other {spec.policy} code than this; {how}"
        )
    provider = current_provider(spec)
    if provider is None:
        raise CertificationError(f"{spec.name} calls a provider and none is configured; {how}")
    if refusal := upstream_refusal(spec):
        raise CertificationError(refusal)
    dataset_digest = meta.get("dataset_digest", "")
    if spec.evaluation == "reconsolidation":
        results, dataset_digest = _reconsolidation_inputs(results, spec)
    elif spec.evaluation == "qualification":
        results, dataset_digest = _qualification_inputs(results, spec)
    if meta.get("provider", "") != provider:
        raise CertificationError(
            f"the results are of provider {meta.get('provider')!r}, the configured one is "
            f"{provider!r}; {how}"
        )
    try:
        # Through JSON, as the recorded figures went, so that equal values compare equal.
        recomputed = json.loads(json.dumps(RECOMPUTE[spec.evaluation](results, spec)))
    except (ValueError, TypeError, KeyError):
        raise CertificationError(
            "the results do not hold the observations their metrics need"
        ) from None
    recorded = results["arms"][spec.arm]
    differing = sorted(key for key, value in recomputed.items() if recorded.get(key) != value)
    if differing:
        raise CertificationError(
            "the recorded metrics do not follow from the recorded observations "
            f"({', '.join(differing)})"
        )
    failures = threshold_failures(recomputed, spec.thresholds)
    if failures:
        raise CertificationError(
            f"{spec.name} does not meet its thresholds: " + "; ".join(failures)
        )
    return Certificate.objects.create(
        capability=spec.name,
        arm=spec.arm,
        policy_version=policy_version,
        code_digest=digest,
        dataset_digest=dataset_digest,
        provider_binding=provider,
        provider_terms=current_terms(spec),
        results_digest=hashlib.sha256(raw_results).hexdigest(),
        metrics={key: recomputed[key] for key in sorted(spec.thresholds)},
        thresholds=spec.thresholds,
    )


def matching_certificate(capability_name: str) -> Certificate | None:
    """The newest certificate that still matches the capability's current code and provider
    terms (server, model, prices, privacy), or None."""
    spec = capability(capability_name)
    policy_version, digest = current_binding(spec)
    terms = current_terms(spec)
    if terms is None:
        return None
    candidates = Certificate.objects.filter(
        capability=spec.name,
        policy_version=policy_version,
        code_digest=digest,
        provider_binding=current_provider(spec),
    ).order_by("-issued_at", "-id")
    # The string holds every term; the structured terms must agree with it too.
    return next((c for c in candidates if c.provider_terms == terms), None)


# What changed since a certificate, in the operator's words, by provider term.
TERM_CHANGES = (
    (("base_url",), "the provider's base URL changed"),
    (("model",), "the model changed"),
    (("input_price", "output_price"), "the provider's prices changed"),
    # The egress policy and the provider's residency label, which it is checked against.
    (("privacy",), "the egress rules changed"),
)


def changes_since(certificate: Certificate, spec: Capability) -> list[str]:
    """What differs now from what ``certificate`` was issued for, in the operator's words."""
    changes: list[str] = []
    terms: dict[str, Any] = {**(current_terms(spec) or {})}
    issued = certificate.provider_terms
    if terms and not issued:
        changes.append("certificates bind the provider's prices and egress rules too")
    else:
        changes += [
            change
            for keys, change in TERM_CHANGES
            if any(issued.get(key) != terms.get(key) for key in keys)
        ]
    policy_version, digest = current_binding(spec)
    if (certificate.policy_version, certificate.code_digest) != (policy_version, digest):
        changes.append("the code changed")
    return changes


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def certificate_refusal(capability_name: str) -> str | None:
    """Why the capability may not be on now, or None when a matching certificate exists."""
    try:
        spec = capability(capability_name)
    except CertificationError as error:
        return f"{capability_name} cannot be switched on: {error}."
    if spec.provider:
        config = provider_config()
        if config is None:
            return (
                f"{spec.name} calls a provider and none is configured "
                "(REVERIE_PROVIDER_BASE_URL and REVERIE_PROVIDER_MODEL)."
            )
        if refusal := price_refusal(config):
            return f"{spec.name} cannot be switched on: {refusal}."
    if refusal := upstream_refusal(spec):
        return f"{refusal}."
    if matching_certificate(capability_name) is not None:
        return None
    policy_version, _ = current_binding(spec)
    how = spec.how
    newest = Certificate.objects.filter(capability=spec.name).order_by("-issued_at", "-id").first()
    if newest is not None and (changes := changes_since(newest, spec)):
        return (
            f"{spec.name} has no certificate for what runs now: since certificate {newest.pk} "
            f"was issued ({newest.issued_at:%Y-%m-%d}), {_and(changes)}; {how}."
        )
    return (
        f"{spec.name} needs an evaluation certificate for its current code "
        f"(policy {policy_version}) and has none; {how}."
    )
