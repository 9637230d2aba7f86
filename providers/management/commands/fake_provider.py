"""Run the fake OpenAI-compatible provider on loopback, to try provider-assisted formation."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from providers.fake import FakeProvider, behaviours


class Command(BaseCommand):
    help = (
        "Serve a fake OpenAI-compatible provider on 127.0.0.1 until interrupted. It reads no "
        "model: its answers follow --behaviour. Point REVERIE_PROVIDER_BASE_URL at it."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--behaviour", choices=behaviours(), default="valid")
        parser.add_argument(
            "--delay",
            type=float,
            default=90.0,
            help="Seconds the 'slow' behaviour waits, and 'drip' between bytes.",
        )

    def handle(self, *args: Any, port: int, behaviour: str, delay: float, **options: Any) -> None:
        fake = FakeProvider(behaviour=behaviour, port=port, delay=delay)
        self.stdout.write(
            f"Fake provider ({behaviour}) at {fake.base_url}\n"
            f"  REVERIE_PROVIDER_BASE_URL={fake.base_url}\n"
            "  REVERIE_PROVIDER_MODEL=fake-1\n"
            "Stop with Ctrl-C."
        )
        try:
            fake.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            fake.stop_serving()
