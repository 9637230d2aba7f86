from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.onboarding import password_link_issue, principal_create
from core.errors import ReverieError


class Command(BaseCommand):
    help = (
        "Create an owner account, or give an owner a link to set a forgotten password. "
        "Prints a one-time link (valid for PASSWORD_RESET_TIMEOUT) to hand to the owner; "
        "nobody but the owner ever sets the password. The machine administrator's tool."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="A new account and its set-password link.")
        create.add_argument("username")
        link = actions.add_parser("password-link", help="A set-password link for an account.")
        link.add_argument("username")

    def handle(self, *args: Any, action: str, username: str, **options: Any) -> None:
        try:
            if action == "create":
                principal, link = principal_create(username=username)
                self.stdout.write(f"account {principal.username} created ({principal.public_id})")
            else:
                existing = User.objects.filter(username=username).first()
                if existing is None:
                    raise CommandError(f"No account named {username!r}.")
                principal, link = existing, password_link_issue(principal=existing)
        except ReverieError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"set-password link (give it to {principal.username} only): {link}")
