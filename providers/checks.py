from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error, register
from django.core.exceptions import ImproperlyConfigured

from .egress import egress_rules
from .embeddings import embeddings_refusal


@register()
def egress_policy_is_well_formed(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    """A malformed egress rule is a configuration error at start-up, not at the first call."""
    try:
        egress_rules()
    except ImproperlyConfigured as error:
        return [Error(str(error), id="providers.E001")]
    return []


@register()
def remote_embedder_is_configured(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    """REVERIE_EMBEDDINGS=remote names a server with all it needs, or the start says so,
    rather than recall silently keeping to the local model."""
    if settings.REVERIE_EMBEDDINGS["mode"] != "remote":
        return []
    remote = settings.REVERIE_EMBEDDINGS["remote"]
    if not remote["base_url"] or not remote["model"]:
        return [
            Error(
                "REVERIE_EMBEDDINGS=remote needs REVERIE_EMBEDDINGS_REMOTE_BASE_URL and "
                "REVERIE_EMBEDDINGS_REMOTE_MODEL.",
                id="providers.E002",
            )
        ]
    if refusal := embeddings_refusal(remote):
        return [Error(refusal, id="providers.E002")]
    return []
