"""Certify a capability from an evaluation's results.json."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from evaluation.certificates import CertificationError, certify


class Command(BaseCommand):
    help = (
        "Recompute the capability's metrics from the observations in results.json, check them "
        "against its thresholds (REVERIE_CAPABILITIES) and store a certificate bound to the "
        "policy version, the policy code digest and the dataset digest."
    )

    def add_arguments(self, parser):
        parser.add_argument("--results", required=True, help="a results.json of `evaluate`")
        parser.add_argument("--capability", required=True)

    def handle(self, *args, **options):
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
