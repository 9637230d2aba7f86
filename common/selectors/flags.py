"""Flag values: what each flag is set to, and whether it is effectively on, and why not.

A flag is *set* by an operator's row in ``Flag`` or, without one, by its
configured default (``REVERIE_FLAG_<KEY>``). A capability is *effectively*
on only when it is set on, a certificate of its current code exists, every
flag it requires is effectively on and the maintenance kill switch is off,
however it was set: a default from the environment is held to the same
rules as a switch thrown in the admin.
"""

import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from common.flags import CATALOGUE, FlagSpec, certificate_refusal
from common.models import Flag
from core.errors import validation_error

KILL_SWITCH = "maintenance_kill_switch"

# Values read with ``max_age``: {key: (value, monotonic time read)}, per process.
_recent: dict[str, tuple[bool, float]] = {}


@dataclass(frozen=True)
class FlagState:
    spec: FlagSpec
    # The operator's setting, or None when the default applies.
    stored: bool | None
    # Whether the flag is effectively on.
    enabled: bool
    # Why it is off although it is set on ("" when it is as set).
    reason: str = ""
    # For a capability: why its certificate does not allow it ("" when one matches).
    certificate: str = ""

    @property
    def key(self) -> str:
        return self.spec.key

    @property
    def value(self) -> bool:
        """What the flag is set to: the operator's setting, else the default."""
        return self.spec.default if self.stored is None else self.stored

    @property
    def overridden(self) -> bool:
        return self.stored is not None


def _spec(key: str) -> FlagSpec:
    spec = CATALOGUE.get(key)
    if spec is None:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    return spec


def _state(
    spec: FlagSpec, stored: dict[str, bool], *, always_check_certificate: bool = False
) -> FlagState:
    value = spec.default if stored.get(spec.key) is None else stored[spec.key]
    certificate = ""
    if spec.capability and (value or always_check_certificate):
        # Digests the capability's code: only when the answer matters.
        certificate = certificate_refusal(spec.capability) or ""
    reasons: list[str] = []
    if value and spec.capability:
        if stored.get(KILL_SWITCH, CATALOGUE[KILL_SWITCH].default):
            reasons.append(f"the {KILL_SWITCH} is on")
        reasons += [
            f"{required} is off"
            for required in spec.requires
            if not _state(CATALOGUE[required], stored).enabled
        ]
        if certificate:
            reasons.append("no certificate matches its current code")
    return FlagState(
        spec=spec,
        stored=stored.get(spec.key),
        enabled=bool(value) and not reasons,
        reason="; ".join(reasons),
        certificate=certificate,
    )


def _stored(keys: Collection[str]) -> dict[str, bool]:
    return dict(Flag.objects.filter(key__in=keys).values_list("key", "enabled"))


def flag_state(key: str) -> FlagState:
    """The flag's setting and whether it is effectively on (see the module docstring)."""
    spec = _spec(key)
    keys = {key, *spec.requires, KILL_SWITCH} if spec.capability else {key}
    for required in spec.requires:
        keys.update(CATALOGUE[required].requires)
    return _state(spec, _stored(keys))


def flag_enabled(key: str, *, max_age: float = 0) -> bool:
    """Whether flag ``key`` is effectively on.

    With ``max_age`` (seconds) a value this process read that recently is
    reused: for flags checked on every request, where a change may take that
    long to reach every process. Kill switches are read fresh.
    """
    _spec(key)
    if max_age:
        recent = _recent.get(key)
        if recent is not None and time.monotonic() - recent[1] < max_age:
            return recent[0]
    value = flag_state(key).enabled
    _recent[key] = (value, time.monotonic())
    return value


# Seconds a process reuses a surface flag before reading it again: an operator's
# switch reaches every web process within this long.
SURFACE_FLAG_MAX_AGE = 5


def surfaces_enabled(keys: Iterable[str]) -> bool:
    """Whether every surface flag in ``keys`` is on, read at most every few seconds: for
    the checks every request makes."""
    return all(flag_enabled(key, max_age=SURFACE_FLAG_MAX_AGE) for key in keys)


def flag_cache_clear() -> None:
    """Forget recently read values (after this process changed a flag)."""
    _recent.clear()


def flag_list() -> list[FlagState]:
    """Every catalogued flag with its setting, effective value and reason, for the operator."""
    stored = _stored(list(CATALOGUE))
    return [
        _state(spec, stored, always_check_certificate=True) for _, spec in sorted(CATALOGUE.items())
    ]
