from memory.errors import validation_error
from memory.flags import CATALOGUE
from memory.models import Flag
from memory.selectors.flags import flag_cache_clear


def flag_set(*, key, enabled, actor=None):
    """An operator turns a catalogued flag or kill switch on or off."""
    if key not in CATALOGUE:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    if not isinstance(enabled, bool):
        raise validation_error("enabled must be true or false.", field="enabled")
    flag, _ = Flag.objects.update_or_create(
        key=key, defaults={"enabled": enabled, "updated_by": actor}
    )
    flag_cache_clear()
    return flag
