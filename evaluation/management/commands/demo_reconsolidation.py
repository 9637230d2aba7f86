"""Switch reconsolidation on for the demo owner, certified by the shipped labelled fixture."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evaluation.certificates import CertificationError
from evaluation.demo import demo_reconsolidation
from memory.demo import OWNER


class Command(BaseCommand):
    help = (
        "For the demo only: certify the current reconsolidation code with the shipped labelled "
        "fixture unless a certificate of it exists, switch reconsolidation_surface and "
        "reconsolidation on, and reconsolidate the demo owner's memories once."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", default=OWNER[0])
        parser.add_argument(
            "--out",
            help="where the evaluation writes results.json "
            "(default var/evaluation/demo-reconsolidation)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = demo_reconsolidation(username=options["owner"], out_dir=options["out"])
        except CertificationError as error:
            raise CommandError(f"reconsolidation stays off: {error}") from None
        certificate = result.certificate
        how = "certified now" if result.certified_now else "certificate reused"
        self.stdout.write(
            f"reconsolidation on ({how}: certificate {certificate.pk}, policy "
            f"{certificate.policy_version}, code {certificate.code_digest[:12]}); "
            f"{result.applied} operation(s) applied for {options['owner']}"
        )
