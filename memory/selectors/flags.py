import time

from memory.errors import validation_error
from memory.flags import CATALOGUE, certificate_refusal
from memory.models import Flag

# Values read with ``max_age``: {key: (value, monotonic time read)}, per process.
_recent = {}


def flag_enabled(key, *, max_age=0):
    """Whether flag ``key`` is on: the operator's setting, else the configured default.

    With ``max_age`` (seconds) a value this process read that recently is
    reused: for surface flags checked on every request, where a change may
    take that long to reach every process. Kill switches are read fresh.
    """
    spec = CATALOGUE.get(key)
    if spec is None:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    if max_age:
        value, read_at = _recent.get(key, (None, float("-inf")))
        if time.monotonic() - read_at < max_age:
            return value
    row = Flag.objects.filter(key=key).values_list("enabled", flat=True).first()
    value = spec.default if row is None else row
    if value and spec.capability and certificate_refusal(spec.capability):
        # The code changed since the capability was certified: off until re-certified.
        value = False
    _recent[key] = (value, time.monotonic())
    return value


def flag_cache_clear():
    """Forget recently read values (after this process changed a flag)."""
    _recent.clear()


def flag_list():
    """Every catalogued flag with its effective value, for the operator admin."""
    rows = dict(Flag.objects.values_list("key", "enabled"))
    return [
        {"spec": spec, "enabled": rows.get(key, spec.default), "overridden": key in rows}
        for key, spec in sorted(CATALOGUE.items())
    ]
