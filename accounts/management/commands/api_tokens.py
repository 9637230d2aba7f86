import uuid
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import OperatorAction, User
from accounts.selectors import api_token_list
from accounts.services import api_token_create, api_token_revoke, api_token_rotate
from core.errors import ReverieError
from core.ids import parse_public_id


class Command(BaseCommand):
    help = (
        "Create, list, rotate and revoke API tokens (one principal per token). The machine "
        "administrator's tool: each change is recorded where the owner sees it."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="Issue a token; prints the secret once.")
        create.add_argument("username")
        create.add_argument("--name", default="runtime")
        create.add_argument(
            "--scope",
            default="principal",
            help="'principal' (all memories, the default) or 'assistant:<slug>'.",
        )
        create.add_argument("--read-only", action="store_true", help="It may only read.")
        create.add_argument(
            "--no-sensitive", action="store_true", help="Keep sensitive memories from it."
        )
        listing = actions.add_parser("list", help="List tokens (never their secrets).")
        listing.add_argument("--username")
        listing.add_argument("--all", action="store_true", help="Include revoked tokens.")
        rotate = actions.add_parser("rotate", help="Replace a token; prints the new secret.")
        rotate.add_argument("token_id")
        revoke = actions.add_parser("revoke", help="Revoke a token at once.")
        revoke.add_argument("token_id")

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        try:
            getattr(self, f"_{action}")(**options)
        except ReverieError as error:
            raise CommandError(error.message) from None

    def _principal(self, username: str) -> User:
        principal = User.objects.filter(username=username).first()
        if principal is None:
            raise CommandError(f"No principal named {username!r}.")
        return principal

    def _create(
        self,
        username: str,
        name: str,
        scope: str,
        read_only: bool,
        no_sensitive: bool,
        **options: Any,
    ) -> None:
        token, secret = api_token_create(
            principal=self._principal(username),
            name=name,
            via=OperatorAction.Via.SHELL,
            scope=scope,
            read_only=read_only,
            include_sensitive=not no_sensitive,
        )
        self.stdout.write(f"token {token.public_id} for {username}: {secret}")

    def _list(self, username: str | None = None, all: bool = False, **options: Any) -> None:
        principal = self._principal(username) if username else None
        for token in api_token_list(principal=principal, include_revoked=all):
            state = "revoked" if token.revoked_at else "active"
            self.stdout.write(
                f"{token.public_id}  {token.principal.username:<20} {token.name:<20} "
                f"{token.prefix}…  {state}  {token.scope}{' read-only' if token.read_only else ''}"
                f"{' no-sensitive' if not token.include_sensitive else ''}  "
                f"last used {token.last_used_at or 'never'}"
            )

    def _rotate(self, token_id: str, **options: Any) -> None:
        token, secret = api_token_rotate(
            token_id=self._token_id(token_id), via=OperatorAction.Via.SHELL
        )
        self.stdout.write(f"token {token.public_id} replaces {token_id}: {secret}")

    def _revoke(self, token_id: str, **options: Any) -> None:
        api_token_revoke(token_id=self._token_id(token_id), via=OperatorAction.Via.SHELL)
        self.stdout.write(f"token {token_id} revoked")

    def _token_id(self, value: str) -> uuid.UUID:
        return parse_public_id(value, "token_id")
