from .models import ApiToken


def api_token_list(*, principal=None, include_revoked=False):
    tokens = ApiToken.objects.select_related("principal")
    if principal is not None:
        tokens = tokens.filter(principal=principal)
    if not include_revoked:
        tokens = tokens.filter(revoked_at__isnull=True)
    return tokens.order_by("-created_at", "-id")
