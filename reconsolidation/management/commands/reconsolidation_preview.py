"""Preview the next model-assisted reconsolidation requests of one owner, sending nothing."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from providers.config import provider_config
from reconsolidation.management.owners import principal_from_option
from reconsolidation.selectors.preview import PREVIEW_STAGES


class Command(BaseCommand):
    help = (
        "Prepare the requests that model-assisted reconsolidation would open its merge and "
        "topic reviews with for one owner now, and print what the egress policy decided, "
        "each request's size, digest and conservative price: never its content. Writes "
        "nothing and sends nothing; the access is recorded in the owner's operator trail."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", required=True, help="the owner's username or public id")

    def handle(self, *args: Any, owner: str, **options: Any) -> None:
        principal = principal_from_option(owner, command="reconsolidation_preview")
        config = provider_config()
        out = self.stdout.write
        out(f"provider: {config.binding if config else 'none configured'}")
        for stage in PREVIEW_STAGES:
            request = stage.prepare(principal, config=config)
            out(f"{stage.key} review:")
            for reason, count in sorted(request.excluded.items()):
                out(f"  left out ({reason}): {count}")
            if request.deferred:
                out(f"  nothing would be sent: {request.deferred}")
                continue
            decisions = request.decisions()
            blocks = decisions["groups"]
            out(
                f"  memories offered: {decisions['offered']} in {blocks} "
                f"block{'' if blocks == 1 else 's'}"
            )
            out(f"  request: {len(request.payload)} bytes, sha256 {request.digest}")
            out(f"  price at most: ${request.price:.6f} (reserved before sending)")
