from django.db import transaction

from accounts.audit import operator_action_record
from accounts.models import OperatorAction, User
from common.flags import CATALOGUE, certificate_refusal
from common.models import Flag
from common.selectors.flags import flag_cache_clear, flag_state
from core.errors import conflict, validation_error


def flag_set(*, key: str, enabled: bool, actor: User | None = None) -> Flag:
    """An operator turns a catalogued flag or kill switch on or off.

    A capability is switched on only with a certificate of its current code
    and with every flag it requires already on, so that nothing runs whose
    output its owner could not inspect. Switching a required flag off is
    always allowed: the capability then reads as off, with that reason.

    Recorded in the operator trail with the flag: through the operator admin
    when ``actor`` is given, else from the administrator's shell.
    """
    if key not in CATALOGUE:
        raise validation_error(f"Unknown flag {key!r}.", field="key")
    if not isinstance(enabled, bool):
        raise validation_error("enabled must be true or false.", field="enabled")
    spec = CATALOGUE[key]
    with transaction.atomic():
        if enabled and spec.capability:
            missing = [r for r in spec.requires if not flag_state(r).enabled]
            if missing:
                raise conflict(
                    f"{key} cannot be switched on while {' and '.join(missing)} "
                    f"{'is' if len(missing) == 1 else 'are'} off: turn "
                    f"{' and '.join(missing)} on first, then {key}.",
                    field="key",
                    requires=missing,
                )
            refusal = certificate_refusal(spec.capability)
            if refusal:
                raise conflict(refusal, field="key", capability=spec.capability)
        flag, _ = Flag.objects.update_or_create(
            key=key, defaults={"enabled": enabled, "updated_by": actor}
        )
        operator_action_record(
            action=OperatorAction.Action.FLAG_SET,
            actor=actor,
            via=OperatorAction.Via.ADMIN if actor is not None else OperatorAction.Via.SHELL,
            target=key,
            details={"enabled": enabled},
        )
    flag_cache_clear()
    return flag
