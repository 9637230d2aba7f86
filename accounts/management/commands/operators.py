from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.operators import OPERATOR_GROUP, operator_grant, operator_revoke


class Command(BaseCommand):
    help = (
        "Grant or withdraw the operator role (the only way into /admin/), or list operators. "
        "The machine administrator's tool."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="Make an existing account an operator.")
        add.add_argument("username")
        remove = actions.add_parser("remove", help="Withdraw the operator role.")
        remove.add_argument("username")
        actions.add_parser("list", help="List operators.")

    def handle(self, *args: Any, action: str, username: str | None = None, **options: Any) -> None:
        users = get_user_model().objects
        if action == "list":
            for operator in users.filter(groups__name=OPERATOR_GROUP).order_by("username"):
                state = "active" if operator.is_active else "inactive"
                self.stdout.write(f"{operator.username}  {state}")
            return
        user = users.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account named {username!r}.")
        if action == "add":
            operator_grant(user=user)
            self.stdout.write(f"{username} is an operator")
        else:
            operator_revoke(user=user)
            self.stdout.write(f"{username} is no longer an operator")
