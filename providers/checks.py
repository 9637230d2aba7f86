from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Error, register
from django.core.exceptions import ImproperlyConfigured

from .egress import egress_rules


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
