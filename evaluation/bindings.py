"""What a provider-assisted certificate is bound to besides code: the provider's server and
model and, for a capability bound to them, the privacy settings that decide what leaves."""

import hashlib
import json

from django.conf import settings

from providers.config import provider_config


def privacy_digest(config):
    """A short digest of what may leave the machine (the egress policy), and to where."""
    current = {"egress": settings.REVERIE_EGRESS, "residency": config.residency}
    encoded = json.dumps(current, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def provider_binding(*, privacy_bound):
    """The configured provider's binding, or None when none is configured."""
    config = provider_config()
    if config is None:
        return None
    if privacy_bound:
        return f"{config.binding} privacy:{privacy_digest(config)}"
    return config.binding
