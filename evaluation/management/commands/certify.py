"""Certify a capability from an evaluation's results.json, or say which capabilities may be on."""

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from evaluation.certificates import (
    CertificationError,
    certificate_refusal,
    certify,
    matching_certificate,
)


class Command(BaseCommand):
    help = (
        "Recompute the capability's metrics from the observations in results.json, check them "
        "against its thresholds (REVERIE_CAPABILITIES) and store a certificate bound to the "
        "policy version, the policy code digest, the dataset digest and, for a capability "
        "that calls a provider, the provider's terms. With --status, say for each configured "
        "capability whether a certificate allows it on now, and if not, why."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--results", help="a results.json of `evaluate`, or a qualification.json"
        )
        parser.add_argument("--capability")
        parser.add_argument(
            "--status",
            action="store_true",
            help="for each configured capability: the certificate that allows it on, or why "
            "none does",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["status"]:
            self.status()
            return
        missing = [f"--{name}" for name in ("results", "capability") if not options[name]]
        if missing:
            raise CommandError(
                f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} required to "
                "certify (or pass --status to see which capabilities may be on)"
            )
        self.certify(options)

    def status(self) -> None:
        for name in sorted(settings.REVERIE_CAPABILITIES):
            refusal = certificate_refusal(name)
            # No refusal: a certificate matches.
            certificate = None if refusal else matching_certificate(name)
            if certificate is None:
                self.stdout.write(f"{name}: {refusal}")
                continue
            metrics = ", ".join(f"{key} = {value}" for key, value in certificate.metrics.items())
            self.stdout.write(
                f"{name}: on-able: certificate {certificate.pk} issued "
                f"{certificate.issued_at:%Y-%m-%d %H:%M} UTC, {metrics or 'no metrics'}"
            )

    def certify(self, options: dict[str, Any]) -> None:
        path = Path(options["results"])
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            certificate = certify(raw_results=raw, capability_name=options["capability"])
        except CertificationError as error:
            raise CommandError(f"not certified: {error}") from None
        self.stdout.write(
            f"certified {certificate.capability} (certificate {certificate.pk}): policy "
            f"{certificate.policy_version}, code {certificate.code_digest[:12]}, dataset "
            f"{certificate.dataset_digest[:12]}"
        )
        for metric, value in certificate.metrics.items():
            self.stdout.write(f"  {metric} = {value} (thresholds {certificate.thresholds[metric]})")
