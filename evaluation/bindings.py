"""What a provider-assisted certificate is bound to besides code: the provider's server, model
and prices, and the privacy settings that decide what leaves the machine and to where."""

import hashlib
import json
from decimal import Decimal

from django.conf import settings

from providers.config import ProviderConfig, provider_config


def privacy_digest(config: ProviderConfig) -> str:
    """A short digest of what may leave the machine (the egress policy), and to where."""
    current = {"egress": settings.REVERIE_EGRESS, "residency": config.residency}
    encoded = json.dumps(current, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def price_text(price: Decimal) -> str:
    """A price as a certificate stores it: one spelling for one amount ("0.15", "2")."""
    return f"{price.normalize():f}"


def provider_terms(config: ProviderConfig | None = None) -> dict | None:
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


def binding_text(terms: dict) -> str:
    """``terms`` as one string, which results.json and a certificate's provider_binding hold."""
    return (
        f"{terms['base_url']} {terms['model']} "
        f"price:{terms['input_price']}/{terms['output_price']} privacy:{terms['privacy']}"
    )


def provider_binding() -> str | None:
    """The configured provider's binding, or None when none is configured."""
    terms = provider_terms()
    return None if terms is None else binding_text(terms)
