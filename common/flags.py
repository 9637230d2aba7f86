"""The catalogue of feature flags and kill switches.

A flag's value is its row in ``Flag`` when an operator has set one, otherwise
its default from ``settings.REVERIE_FLAG_DEFAULTS``. Kill switches are flags
whose *enabled* state stops work.
"""

from dataclasses import dataclass

from django.conf import settings
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class FlagSpec:
    key: str
    kind: str  # "surface", "processing" or "kill_switch"
    description: str
    # A default-off capability that may only be on while an evaluation
    # certificate of its current code exists (``REVERIE_CAPABILITIES``).
    capability: str = ""
    # Flags that must be effectively on for this one to be: a capability whose
    # output the owner could not inspect must not run.
    requires: tuple[str, ...] = ()

    @property
    def default(self) -> bool:
        return settings.REVERIE_FLAG_DEFAULTS[self.key]


CATALOGUE = {
    spec.key: spec
    for spec in (
        FlagSpec(
            "memory_api",
            "surface",
            "The memory API for assistant runtimes (/api/v1/). Off: its routes answer 404.",
        ),
        FlagSpec(
            "reconsolidation_surface",
            "surface",
            "The owner's view of reconsolidation: the operations, derived-memory and summary "
            "routes of the API and the Synthesis and Operations pages of the review site. "
            "Off: they answer 404, and derived memories leave recall. Inspection and undo "
            "do not depend on the reconsolidation flag.",
        ),
        FlagSpec(
            "formation",
            "processing",
            "Forms memories from conversations once they go quiet. Off: nothing is formed; "
            "pending conversations are picked up when it is on again.",
        ),
        FlagSpec(
            "formation_provider",
            "processing",
            "Lets formation ask the configured language-model provider for more proposals, "
            "grounded in the owner's own messages and decided by the same checks. Needs a "
            "certificate from `manage.py qualify_provider formation` for the configured "
            "provider, model, prices and egress rules and the current code, and formation on; "
            "owners who opted out and items the "
            "egress policy does not allow are never sent. Off: no request leaves the machine.",
            capability="formation_provider",
            requires=("formation",),
        ),
        FlagSpec(
            "reconsolidation",
            "processing",
            "Reconsolidates each principal's memories in the background (merges, summaries, "
            "hypotheses, notices), one principal at a time within shared budgets, and lets "
            "derived memories reach recall. Needs an evaluation certificate of its current "
            "code and reconsolidation_surface on; the kill switch stops it. Off: no new "
            "passes and no derived recall; what passes did stays, inspectable and undoable.",
            capability="reconsolidation",
            requires=("reconsolidation_surface",),
        ),
        FlagSpec(
            "reconsolidation_provider",
            "processing",
            "Lets reconsolidation ask the configured language-model provider which differently "
            "worded memories state one claim, and a second call to verify each proposed group; "
            "only groups that local rules admit and the verifier confirms are merged, through "
            "the same checks as any merge. Needs a certificate from `manage.py "
            "qualify_provider reconsolidation` for the configured provider, model, prices and "
            "egress rules, the current code and a current "
            "formation_provider certificate, and reconsolidation on; owners who opted out and "
            "items the egress policy does not allow are never sent. Off: no request leaves "
            "the machine and merges it verified leave recall; the owner keeps their history.",
            capability="reconsolidation_provider",
            requires=("reconsolidation",),
        ),
        FlagSpec(
            "maintenance_kill_switch",
            "kill_switch",
            "On: background maintenance (expiry, formation, reconsolidation) starts no new work.",
        ),
    )
}


def certificate_refusal(capability: str) -> str | None:
    """Why ``capability`` may not be on now, or None; asked of the app configured in
    ``REVERIE_CERTIFICATE_CHECK`` (the evaluation app), which ``memory`` does not import."""
    refusal: str | None = import_string(settings.REVERIE_CERTIFICATE_CHECK)(capability)
    return refusal
