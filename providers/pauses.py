"""A provider's Retry-After, shared by every caller: no call to its server before then.

A 429 or 503 carrying Retry-After pauses the server for that long (at most
``client.MAX_RETRY_AFTER``), in the database so that every worker sees it;
formation and reconsolidation ask ``provider_paused`` before reserving a call
and send nothing while it holds. A later, shorter Retry-After never shortens
a pause.
"""

import hashlib
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from providers.client import MAX_RETRY_AFTER, ProviderError
from providers.config import ProviderConfig
from providers.models import ProviderPause


def _server(config: ProviderConfig) -> str:
    return hashlib.sha256(config.base_url.rstrip("/").encode()).hexdigest()


def provider_pause(config: ProviderConfig, seconds: float, *, now: datetime | None = None) -> None:
    """Hold calls to ``config``'s server for ``seconds`` (bounded) from ``now``."""
    now = now or timezone.now()
    until = now + timedelta(seconds=min(max(seconds, 0), MAX_RETRY_AFTER))
    with transaction.atomic():
        pause, created = ProviderPause.objects.select_for_update().get_or_create(
            server=_server(config), defaults={"not_before": until}
        )
        if not created and pause.not_before < until:
            pause.not_before = until
            pause.save(update_fields=["not_before", "updated_at"])


def provider_pause_after(config: ProviderConfig, error: ProviderError) -> None:
    """Pause ``config``'s server if the ``ProviderError`` it answered carries Retry-After."""
    if error.retry_after is not None:
        provider_pause(config, error.retry_after)


def provider_paused(config: ProviderConfig, *, now: datetime | None = None) -> bool:
    """Whether ``config``'s server asked not to be called yet."""
    return ProviderPause.objects.filter(
        server=_server(config), not_before__gt=now or timezone.now()
    ).exists()
