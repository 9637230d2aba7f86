import uuid

from django.db.models import QuerySet

from core.errors import not_found

from .models import ApiToken, OperatorAction, User


def api_token_list(
    *, principal: User | None = None, include_revoked: bool = False
) -> QuerySet[ApiToken]:
    tokens = ApiToken.objects.select_related("principal")
    if principal is not None:
        tokens = tokens.filter(principal=principal)
    if not include_revoked:
        tokens = tokens.filter(revoked_at__isnull=True)
    return tokens.order_by("-created_at", "-id")


def api_token_get(*, principal: User, token_id: uuid.UUID | str) -> ApiToken:
    """One of ``principal``'s tokens; another owner's answers like a missing one."""
    token = ApiToken.objects.filter(principal=principal, public_id=token_id).first()
    if token is None:
        raise not_found("token")
    return token


def model_processing_allowed(principal: User) -> bool:
    """Whether anything of ``principal``'s may be sent to a language model: True unless the
    owner opted out.

    Ask it right before each use. It reads the database, never the instance
    passed in: a worker may hold a ``User`` loaded before the owner opted out,
    and the opt-out takes effect at once. An account that no longer exists
    (erased meanwhile) is not allowed either. This is only the owner's say;
    a capability that calls a model still needs its own flag and certificate.
    """
    return User.objects.filter(pk=principal.pk, model_processing_opt_out=False).exists()


_MODEL_PROCESSING_ACTIONS = (
    OperatorAction.Action.MODEL_PROCESSING_OPTED_OUT,
    OperatorAction.Action.MODEL_PROCESSING_ALLOWED,
)


def model_processing_history(*, principal: User) -> QuerySet[OperatorAction]:
    """When ``principal`` opted out of model processing or allowed it again, newest first."""
    return OperatorAction.objects.filter(
        principal=principal, action__in=_MODEL_PROCESSING_ACTIONS
    ).order_by("-created_at", "-id")


_TOKEN_PAUSE_ACTIONS = (OperatorAction.Action.TOKEN_PAUSED, OperatorAction.Action.TOKEN_RESUMED)


def token_pause_history(*, principal: User) -> QuerySet[OperatorAction]:
    """When ``principal`` paused or resumed one of their tokens, newest first (``target``
    is the token's public id)."""
    return OperatorAction.objects.filter(
        principal=principal, action__in=_TOKEN_PAUSE_ACTIONS
    ).order_by("-created_at", "-id")
