"""What a provider-assisted certificate is bound to besides code: the provider's server, model
and prices, and the privacy settings that decide what leaves the machine and to where."""

import hashlib
import json
from decimal import Decimal
from typing import TypedDict, overload

from django.conf import settings

from providers.config import ProviderConfig, provider_config


class ProviderTerms(TypedDict):
    """What a provider-assisted certificate binds (stored in its ``provider_terms``)."""

    base_url: str
    model: str
    input_price: str
    output_price: str
    privacy: str


def privacy_digest(config: ProviderConfig) -> str:
    """A short digest of what may leave the machine (the egress policy), and to where."""
    current = {"egress": settings.REVERIE_EGRESS, "residency": config.residency}
    encoded = json.dumps(current, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def price_text(price: Decimal) -> str:
    """A price as a certificate stores it: one spelling for one amount ("0.15", "2")."""
    return f"{price.normalize():f}"


@overload
def provider_terms(config: ProviderConfig) -> ProviderTerms: ...
@overload
def provider_terms(config: None = None) -> ProviderTerms | None: ...
def provider_terms(config: ProviderConfig | None = None) -> ProviderTerms | None:
    """What a certificate of provider-assisted work binds, or None when no provider is
    configured: another server, model, price or egress policy needs new evidence, since each
    changes what the capability does, what it costs or what may leave."""
    config = config or provider_config()
    if config is None:
        return None
    return {
        "base_url": config.base_url.rstrip("/"),
        "model": config.model,
        "input_price": price_text(config.input_price),
        "output_price": price_text(config.output_price),
        "privacy": privacy_digest(config),
    }


def binding_text(terms: ProviderTerms) -> str:
    """``terms`` as one string, which results.json and a certificate's provider_binding hold."""
    return (
        f"{terms['base_url']} {terms['model']} "
        f"price:{terms['input_price']}/{terms['output_price']} privacy:{terms['privacy']}"
    )


def provider_binding() -> str | None:
    """The configured provider's binding, or None when none is configured."""
    terms = provider_terms()
    return None if terms is None else binding_text(terms)
