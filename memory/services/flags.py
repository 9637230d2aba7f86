from memory.errors import conflict, validation_error
from memory.flags import CATALOGUE, certificate_refusal
from memory.models import Flag
from memory.selectors.flags import flag_cache_clear


def flag_set(*, key, enabled, actor=None):
    """An operator turns a catalogued flag or kill switch on or off."""
    if key not in CATALOGUE:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    if not isinstance(enabled, bool):
        raise validation_error("enabled must be true or false.", field="enabled")
    spec = CATALOGUE[key]
    if enabled and spec.capability:
        refusal = certificate_refusal(spec.capability)
        if refusal:
            raise conflict(refusal, field="key", capability=spec.capability)
    flag, _ = Flag.objects.update_or_create(
        key=key, defaults={"enabled": enabled, "updated_by": actor}
    )
    flag_cache_clear()
    return flag
