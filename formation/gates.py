"""Content gates: checks on what a proposal says, independent of who proposed it.

Each gate is a pure function of text. The formation service runs them on every
proposal it consumes, whatever extractor produced it, so a future extractor
cannot talk its way past them. Reasons are short codes, never text.
"""

import re
from collections.abc import Iterable

from memory.enums import BeliefType, Portability, Sensitivity
from memory.screening import contains_secret, looks_like_injection

from .candidates import MemoryCandidate
from .instructions import refused_family
from .needs import states_a_need
from .subjects import PERSON_PREFIX

# -- transient details -----------------------------------------------------------

_TRANSIENT_RE = re.compile(
    r"\b(?:one[- ]time|verification|confirmation|security|login|auth(?:entication)?|2fa|"
    r"two[- ]factor|otp|sms|access|door|gate|booking|tracking|reference|order)\s*"
    r"(?:code|number|pin|token|id|#)?\s*(?:is|was|=|:)?\s*[A-Z0-9-]{4,}\b"
    r"|\b(?:otp|2fa)\b"
    r"|\bcode\s*(?:is|:)\s*\d{4,}\b",
    re.IGNORECASE,
)


def is_transient(text: str) -> bool:
    """One-time codes, tracking and reference numbers: true for minutes, not worth keeping."""
    return bool(_TRANSIENT_RE.search(text))


# -- all content gates -----------------------------------------------------------


def content_rejection(candidate: MemoryCandidate, source_texts: Iterable[str]) -> str | None:
    """The first content gate ``candidate`` fails, as a reason code; None when it passes.

    The statement is checked for secrets, injection, instructions, roles and
    access (``formation.instructions``), transient details, and another person's
    fact that is no need of theirs (``formation.needs``). Sources are
    checked for injection too: a message that tries to instruct the assistant
    forms no memory at all.
    """
    statement = candidate.statement
    if contains_secret(statement):
        return "secret"
    if looks_like_injection(statement) or any(looks_like_injection(t) for t in source_texts):
        return "injection"
    if refused_family(statement):
        return "instruction"
    if is_transient(statement):
        return "transient"
    if (
        candidate.type == BeliefType.FACT
        and candidate.subject.startswith(PERSON_PREFIX)
        and not states_a_need(statement)
    ):
        return "other_person"
    if candidate.portability not in Portability.values:
        return "portability"
    if candidate.sensitivity not in Sensitivity.values:
        return "sensitivity"
    return None
