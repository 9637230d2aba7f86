"""The egress policy: what may be sent to a provider, item by item. By default, nothing.

The operator allows items by rules (``REVERIE_EGRESS["allow"]``), each naming
the sensitivities, portabilities and scopes it allows, and pins the provider
residencies anything may be sent to (``REVERIE_EGRESS["residency"]``). An item
is sent only when the provider's residency is pinned and some rule allows the
item on all three counts. Sensitive items never leave: a rule naming them is a
configuration error at start-up (``providers.E001``), and no rule lets one pass.
Messages are classified by the sensitivity classifier that formation uses; a
sensitive message counts as local, as the memory formed from it would. Whatever
is sent has its secrets redacted first (``outgoing_text``), in whatever wording
or script they were written.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from core.scopes import is_valid_scope
from memory.enums import Portability, Sensitivity
from memory.screening import classify_sensitivity, redact_secrets

_DIMENSIONS = ("sensitivity", "portability", "scope")


@dataclass(frozen=True)
class EgressItem:
    sensitivity: str
    portability: str
    scope: str


class EgressRule(TypedDict):
    """One allow rule of ``REVERIE_EGRESS["allow"]``: the values it allows on each count."""

    sensitivity: list[str]
    portability: list[str]
    scope: list[str]


def message_item(text: str, *, scope: str) -> EgressItem:
    sensitivity = classify_sensitivity(text)
    portability = (
        Portability.LOCAL if sensitivity == Sensitivity.SENSITIVE else Portability.PORTABLE
    )
    return EgressItem(sensitivity=str(sensitivity), portability=str(portability), scope=scope)


def _valid_scope_pattern(value: str) -> bool:
    return value == "assistant:*" or is_valid_scope(value)


def egress_rules() -> list[EgressRule]:
    """The configured allow rules, checked; raises ImproperlyConfigured on a malformed one."""
    rules: list[EgressRule] = settings.REVERIE_EGRESS["allow"]
    if not isinstance(rules, list):
        raise ImproperlyConfigured("REVERIE_EGRESS_ALLOW must be a JSON list of rules.")
    valid: dict[str, Callable[[str], bool]] = {
        "sensitivity": lambda v: v in Sensitivity.values,
        "portability": lambda v: v in Portability.values,
        "scope": _valid_scope_pattern,
    }
    for number, rule in enumerate(rules, 1):
        if not isinstance(rule, dict) or set(rule) != set(_DIMENSIONS):
            raise ImproperlyConfigured(
                f"REVERIE_EGRESS_ALLOW rule {number} must name exactly "
                "sensitivity, portability and scope."
            )
        for dimension in _DIMENSIONS:
            values = rule[dimension]  # type: ignore[literal-required]  # one of _DIMENSIONS
            if not isinstance(values, list) or not all(
                isinstance(v, str) and valid[dimension](v) for v in values
            ):
                raise ImproperlyConfigured(
                    f"REVERIE_EGRESS_ALLOW rule {number}: {dimension} must be a list of "
                    f"known values."
                )
        if Sensitivity.SENSITIVE in rule["sensitivity"]:
            raise ImproperlyConfigured(
                f"REVERIE_EGRESS_ALLOW rule {number} allows sensitive items; sensitive text "
                "(health, sexuality, religion, politics, finances, criminal records) must never "
                "leave the machine, so no rule may name it."
            )
    return rules


def residency_allowed(residency: str) -> bool:
    return bool(residency) and residency in settings.REVERIE_EGRESS["residency"]


def _scope_matches(pattern: str, scope: str) -> bool:
    return pattern == scope or (pattern == "assistant:*" and scope.startswith("assistant:"))


def item_allowed(item: EgressItem, rules: Sequence[EgressRule]) -> bool:
    # Whatever rules are passed: the check at start-up refuses configured ones that name
    # sensitive items, and this holds for any other list too.
    if item.sensitivity == Sensitivity.SENSITIVE:
        return False
    return any(
        item.sensitivity in rule["sensitivity"]
        and item.portability in rule["portability"]
        and any(_scope_matches(pattern, item.scope) for pattern in rule["scope"])
        for rule in rules
    )


def item_may_leave(item: EgressItem, rules: Sequence[EgressRule] | None) -> bool:
    """Whether ``item`` may be sent under ``rules``; None (an evaluation run) allows every
    item but a sensitive one, which no run and no rule ever sends."""
    if rules is None:
        return item.sensitivity != Sensitivity.SENSITIVE
    return item_allowed(item, rules)


def outgoing_text(text: str) -> str:
    """``text`` as it may leave for a provider: every secret in it replaced by
    ``[redacted]``, a password in a message as much as one an older memory kept."""
    return redact_secrets(text)
