from django.db import connection
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import ApiToken, User
from accounts.services import api_token_authenticate
from common.principal import principal_activate, principal_setting


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <secret>`` with a token issued to one principal.

    On success the principal becomes the database principal of the request's
    transaction, so row-level security scopes everything the view reads.
    """

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != self.keyword.lower():
            return None
        found = api_token_authenticate(secret.strip(), principal_setting=principal_setting)
        if found is None:
            raise exceptions.AuthenticationFailed("The token is not valid.")
        principal, token = found
        # The statement that found the token set it on PostgreSQL.
        principal_activate(principal, already_set=connection.vendor == "postgresql")
        return principal, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'
