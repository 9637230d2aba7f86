from memory.errors import validation_error
from memory.flags import CATALOGUE
from memory.models import Flag


def flag_enabled(key):
    """Whether flag ``key`` is on: the operator's setting, else the configured default."""
    spec = CATALOGUE.get(key)
    if spec is None:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    row = Flag.objects.filter(key=key).values_list("enabled", flat=True).first()
    return spec.default if row is None else row


def flag_list():
    """Every catalogued flag with its effective value, for the operator admin."""
    rows = dict(Flag.objects.values_list("key", "enabled"))
    return [
        {"spec": spec, "enabled": rows.get(key, spec.default), "overridden": key in rows}
        for key, spec in sorted(CATALOGUE.items())
    ]
