"""API tokens, each acting for one principal; principals' activation; the owner's
choice about model processing; operators' refused admin lookups.

Owners create and revoke their own tokens on the review site; the machine's
administrator does it for anyone from the shell (``manage.py api_tokens``);
operators may only revoke. Whatever an operator or the administrator does is
recorded in the operator trail (``accounts.audit``) in the same transaction,
and so is an owner opting out of model processing or allowing it again.
"""

import hashlib
import secrets
import uuid
from collections.abc import Callable, Iterable
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from core.compiled import CompiledLookup
from core.errors import ReverieError, conflict, not_found, validation_error
from core.scopes import SCOPE_PRINCIPAL, is_valid_scope

from .audit import operator_action_record
from .models import ApiToken, OperatorAction, User

TOKEN_PREFIX = "rvk_"
NAME_MAX_CHARS = 100
# last_used_at is a hint for operators; refreshing it on every request would
# turn each read into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)

# A token's public id, as a UUID or as the text of one.
TokenId = uuid.UUID | str
# ``common.principal.principal_setting``: (principal id SQL, *, when=SQL) -> SQL.
PrincipalSetting = Callable[..., str]


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(
    *,
    principal: User,
    name: str,
    created_by: User | None = None,
    via: str | None = None,
    scope: str = SCOPE_PRINCIPAL,
    read_only: bool = False,
    include_sensitive: bool = True,
) -> tuple[ApiToken, str]:
    """Issue a token for ``principal``; return ``(token, secret)``.

    The secret is not stored and cannot be shown again. ``via`` names the
    operator surface when someone other than the owner issues it (the shell).
    ``scope``, ``read_only`` and ``include_sensitive`` narrow what it reaches
    (``memory.reach``); by default it reaches everything.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX_CHARS:
        raise validation_error(f"name must be 1 to {NAME_MAX_CHARS} characters.", field="name")
    if not is_valid_scope(scope):
        raise validation_error(
            "scope must be 'principal' or 'assistant:<slug>' (lower-case letters, digits, "
            "'-' and '_').",
            field="scope",
        )
    if not isinstance(read_only, bool) or not isinstance(include_sensitive, bool):
        raise validation_error("read_only and include_sensitive are true or false.")
    if not principal.is_active:
        raise conflict("The principal is not active.", field="principal")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            principal=principal,
            name=name.strip(),
            prefix=secret[: len(TOKEN_PREFIX) + 6],
            digest=token_digest(secret),
            created_by=created_by,
            scope=scope,
            read_only=read_only,
            include_sensitive=include_sensitive,
        )
        if via is not None:
            operator_action_record(
                action=OperatorAction.Action.TOKEN_ISSUED,
                actor=created_by,
                via=via,
                principal=principal,
                target=token.public_id,
            )
    return token, secret


def _token_for_update(token_id: TokenId, principal: User | None = None) -> ApiToken:
    tokens = ApiToken.objects.select_for_update().filter(public_id=token_id)
    if principal is not None:
        tokens = tokens.filter(principal=principal)
    token = tokens.first()
    if token is None:
        raise not_found("token")
    return token


def api_token_revoke(
    *,
    token_id: TokenId,
    principal: User | None = None,
    actor: User | None = None,
    via: str | None = None,
) -> ApiToken:
    """Revoke a token; it stops working at once. Revoking twice changes nothing.

    An owner passes ``principal`` (only their own tokens are found); an
    operator passes ``actor`` and ``via``, and the revocation is recorded.
    """
    with transaction.atomic():
        token = _token_for_update(token_id, principal)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            if via is not None:
                operator_action_record(
                    action=OperatorAction.Action.TOKEN_REVOKED,
                    actor=actor,
                    via=via,
                    principal=token.principal,
                    target=token.public_id,
                )
        return token


def api_token_pause(*, token_id: TokenId, principal: User, via: str) -> ApiToken:
    """The owner pauses one of their tokens: it is refused on every route at once, until
    resumed. Pausing a paused token changes and records nothing. Returns the token.

    Only the owner's own tokens are found (another owner's answers like a
    missing one); ``via`` is the surface they used (the review site or the API),
    recorded with the owner as actor.
    """
    return _token_pause_set(token_id=token_id, principal=principal, via=via, paused=True)


def api_token_resume(*, token_id: TokenId, principal: User, via: str) -> ApiToken:
    """The owner resumes a paused token: it works again at once. Returns the token."""
    return _token_pause_set(token_id=token_id, principal=principal, via=via, paused=False)


def _token_pause_set(*, token_id: TokenId, principal: User, via: str, paused: bool) -> ApiToken:
    with transaction.atomic():
        # Locked, so that of two submissions racing (two tabs, a retried
        # request) the second finds nothing to change and records nothing.
        token = _token_for_update(token_id, principal)
        if token.revoked_at is not None:
            raise conflict("The token is revoked; it cannot be paused or resumed.", field="token")
        if (token.paused_at is not None) != paused:
            token.paused_at = timezone.now() if paused else None
            token.save(update_fields=["paused_at"])
            operator_action_record(
                action=OperatorAction.Action.TOKEN_PAUSED
                if paused
                else OperatorAction.Action.TOKEN_RESUMED,
                actor=principal,
                via=via,
                principal=principal,
                target=token.public_id,
            )
        return token


def api_token_rotate(
    *, token_id: TokenId, created_by: User | None = None, via: str | None = None
) -> tuple[ApiToken, str]:
    """Replace a live token with a new one of the same name; return ``(token, secret)``.

    The machine's administrator's tool (the shell): the new secret is shown to
    whoever rotates, so no web surface offers it.
    """
    with transaction.atomic():
        old = _token_for_update(token_id)
        if old.revoked_at is not None:
            raise conflict("A revoked token cannot be rotated.", field="token")
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
        token, secret = api_token_create(
            principal=old.principal,
            name=old.name,
            created_by=created_by,
            scope=old.scope,
            read_only=old.read_only,
            include_sensitive=old.include_sensitive,
        )
        if via is not None:
            operator_action_record(
                action=OperatorAction.Action.TOKEN_ROTATED,
                actor=created_by,
                via=via,
                principal=old.principal,
                target=old.public_id,
                details={"replaced_by": str(token.public_id)},
            )
        return token, secret


def principal_activation_set(
    *, principal: User, active: bool, actor: User | None, via: str
) -> User:
    """An operator activates or deactivates an account; recorded. Returns the principal."""
    if not isinstance(active, bool):
        raise validation_error("active must be true or false.", field="is_active")
    with transaction.atomic():
        if principal.is_active != active:
            principal.is_active = active
            principal.save(update_fields=["is_active"])
            operator_action_record(
                action=OperatorAction.Action.PRINCIPAL_ACTIVATED
                if active
                else OperatorAction.Action.PRINCIPAL_DEACTIVATED,
                actor=actor,
                via=via,
                principal=principal,
                target=principal.public_id,
            )
    return principal


def admin_lookup_refusal_record(
    *, actor: User | None, model_label: str, lookups: Iterable[str]
) -> OperatorAction:
    """Record that an operator asked an admin list for lookups it does not offer.

    The list refused them before any query ran (``core.admin_lookups``); a
    lookup on a password's hash or a token's digest is how one would be read
    out a character at a time, so the attempt is kept. ``lookups`` are the
    parameter names asked for, never their values.
    """
    with transaction.atomic():
        return operator_action_record(
            action=OperatorAction.Action.ADMIN_LOOKUP_REFUSED,
            actor=actor,
            via=OperatorAction.Via.ADMIN,
            target=model_label,
            details={"lookups": list(lookups)},
        )


def model_processing_set(*, principal: User, allowed: bool) -> User:
    """The owner allows model processing of their data, or opts out of all of it, on the
    review site; recorded.

    Effective at once: whatever would send their data to a language model asks
    ``accounts.selectors.model_processing_allowed`` right before, and that reads
    the row written here. It is the owner's choice alone: the owner is the
    actor, and no operator surface calls this. Setting the value the account
    already has writes nothing and records nothing, so a form sent twice (or
    from two tabs) leaves one record per actual change. Returns the principal.
    """
    if not isinstance(allowed, bool):
        raise validation_error("allowed must be true or false.", field="allowed")
    opt_out = not allowed
    with transaction.atomic():
        # Compare with the locked row, not with the instance passed in, which
        # may be stale: of two submissions racing from two tabs, the second
        # waits here and then finds nothing to change. (SQLite's transactions
        # take the write lock when they begin, to the same effect.)
        stored = (
            User.objects.select_for_update()
            .filter(pk=principal.pk)
            .values_list("model_processing_opt_out", flat=True)
            .first()
        )
        if stored is None:
            raise not_found("principal")
        if stored != opt_out:
            User.objects.filter(pk=principal.pk).update(model_processing_opt_out=opt_out)
            operator_action_record(
                action=OperatorAction.Action.MODEL_PROCESSING_OPTED_OUT
                if opt_out
                else OperatorAction.Action.MODEL_PROCESSING_ALLOWED,
                actor=principal,
                via=OperatorAction.Via.REVIEW,
                principal=principal,
                target=principal.public_id,
            )
    principal.model_processing_opt_out = opt_out
    return principal


def _token_lookup(principal_setting: PrincipalSetting | None) -> CompiledLookup[ApiToken]:
    """The statement that finds a token by its digest, compiled once (it runs on every
    request)."""
    if principal_setting not in _token_lookups:

        def build(digest: str) -> QuerySet[ApiToken]:
            # No ordering: the digest is unique.
            tokens = (
                ApiToken.objects.select_related("principal")
                .filter(digest=digest, revoked_at__isnull=True)
                .order_by()
            )
            if principal_setting is None:
                return tokens
            # The conditions under which the token is accepted below, and only those.
            return tokens.annotate(
                principal_set=RawSQL(
                    principal_setting(
                        f"{ApiToken._meta.db_table}.principal_id",
                        when=f"{User._meta.db_table}.is_active "
                        f"AND {ApiToken._meta.db_table}.paused_at IS NULL",
                    ),
                    [],
                )
            )

        _token_lookups[principal_setting] = CompiledLookup(build, values=1)
    return _token_lookups[principal_setting]


_token_lookups: dict[PrincipalSetting | None, CompiledLookup[ApiToken]] = {}


def api_token_authenticate(
    secret: object, *, principal_setting: PrincipalSetting | None = None
) -> tuple[User, ApiToken] | None:
    """The active principal a presented secret belongs to, with its token; or None.

    A token its owner has paused is refused with ``forbidden`` (the caller holds
    a valid secret and should learn why it stopped working), before it counts
    as used.

    ``principal_setting`` (``common.principal.principal_setting``, which this layer
    below ``common`` takes from its caller): on PostgreSQL, the statement that finds
    the token also makes its principal the open transaction's, when it is accepted;
    the caller then activates it with ``already_set``.
    """
    if not isinstance(secret, str) or not secret.startswith(TOKEN_PREFIX):
        return None
    setting = principal_setting if connection.vendor == "postgresql" else None
    token = _token_lookup(setting).first(token_digest(secret))
    if token is None or not token.principal.is_active:
        return None
    if token.paused_at is not None:
        raise ReverieError(
            "forbidden",
            "This token is paused by its owner; it works again when they resume it.",
        )
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.principal, token
