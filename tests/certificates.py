"""Certificates as ``certify`` would store them, for tests of what rests on one: bound to the
current code and provider terms, with figures that meet the capability's thresholds."""

from evaluation import certificates
from evaluation.models import Certificate


def passing_metrics(thresholds):
    """Figures on the bar of every threshold: its minimum, else its maximum (both allowed)."""
    return {
        metric: bounds["min"] if "min" in bounds else bounds["max"]
        for metric, bounds in thresholds.items()
    }


def certificate_create(name, **fields):
    """A certificate of capability ``name`` for what is configured now; ``fields`` override."""
    spec = certificates.capability(name)
    policy_version, digest = certificates.current_binding(spec)
    terms = certificates.current_terms(spec)
    values = {
        "capability": spec.name,
        "arm": spec.arm,
        "policy_version": policy_version,
        "code_digest": digest,
        "dataset_digest": "0" * 64,
        "provider_binding": certificates.current_provider(spec),
        "provider_terms": terms,
        "results_digest": "0" * 64,
        "metrics": passing_metrics(spec.thresholds),
        "thresholds": spec.thresholds,
    }
    return Certificate.objects.create(**{**values, **fields})
