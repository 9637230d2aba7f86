"""API tokens: issued, rotated and revoked by operators for one principal each."""

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from memory.errors import conflict, not_found, validation_error

from .models import ApiToken

TOKEN_PREFIX = "rvk_"
NAME_MAX_CHARS = 100
# last_used_at is a hint for operators; refreshing it on every request would
# turn each read into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def token_digest(secret):
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, principal, name, created_by=None):
    """Issue a token for ``principal``; return ``(token, secret)``.

    The secret is not stored and cannot be shown again.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX_CHARS:
        raise validation_error(f"name must be 1 to {NAME_MAX_CHARS} characters.", field="name")
    if not principal.is_active:
        raise conflict("The principal is not active.", field="principal")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        principal=principal,
        name=name.strip(),
        prefix=secret[: len(TOKEN_PREFIX) + 6],
        digest=token_digest(secret),
        created_by=created_by,
    )
    return token, secret


def _token_for_update(token_id):
    token = ApiToken.objects.select_for_update().filter(public_id=token_id).first()
    if token is None:
        raise not_found("token")
    return token


def api_token_revoke(*, token_id):
    """Revoke a token; it stops working at once. Revoking twice changes nothing."""
    with transaction.atomic():
        token = _token_for_update(token_id)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
        return token


def api_token_rotate(*, token_id, created_by=None):
    """Replace a live token with a new one of the same name; return ``(token, secret)``."""
    with transaction.atomic():
        old = _token_for_update(token_id)
        if old.revoked_at is not None:
            raise conflict("A revoked token cannot be rotated.", field="token")
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
        return api_token_create(principal=old.principal, name=old.name, created_by=created_by)


def api_token_authenticate(secret):
    """The active principal a presented secret belongs to, with its token; or None."""
    if not isinstance(secret, str) or not secret.startswith(TOKEN_PREFIX):
        return None
    # No ordering: the digest is unique, and this runs on every request.
    token = next(
        iter(
            ApiToken.objects.select_related("principal")
            .filter(digest=token_digest(secret), revoked_at__isnull=True)
            .order_by()[:1]
        ),
        None,
    )
    if token is None or not token.principal.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.principal, token
