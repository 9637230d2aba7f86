from rest_framework import authentication, exceptions

from accounts.services import api_token_authenticate


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <secret>`` with a token issued to one principal.

    On success the principal becomes the database principal of the request's
    transaction, so row-level security scopes everything the view reads.
    """

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != self.keyword.lower():
            return None
        found = api_token_authenticate(secret.strip(), activate=True)
        if found is None:
            raise exceptions.AuthenticationFailed("The token is not valid.")
        return found

    def authenticate_header(self, request):
        return f'{self.keyword} realm="api"'
