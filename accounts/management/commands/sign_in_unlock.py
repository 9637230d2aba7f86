from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.login_throttle import login_throttle_clear
from core.errors import ReverieError


class Command(BaseCommand):
    help = (
        "Clear the failed sign-ins that hold back an account (from every address), an "
        "address (for every account), or both, on the review site and the operator admin. "
        "Recorded in the operator trail. The machine administrator's tool."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username", nargs="?", default="", help="The account's username.")
        parser.add_argument("--address", default="", help="A client's IP address.")

    def handle(self, *args: Any, username: str, address: str, **options: Any) -> None:
        try:
            login_throttle_clear(username=username, address=address)
        except ReverieError as error:
            if error.code == "not_found":
                raise CommandError(f"No account named {username!r}.") from None
            raise CommandError(error.message) from None
        cleared = [f"for {username}"] if username else []
        cleared += [f"from {address}"] if address else []
        self.stdout.write(f"failed sign-ins cleared {' and '.join(cleared)}")
