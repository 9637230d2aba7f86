"""Words that belong to Reverie's insides, not to the owner's pages.

Owner pages say what a memory is, where it came from, how sure Reverie is and what the
owner can do; the technical fields stay under a page's "Details" disclosure. A test reads
every owner page and fails if its visible text (the Details left out) holds one of these.
"""

import re

INTERNAL_TERMS = (
    "authority",
    "polarity",
    "portability",
    "revision",
    "public id",
    "principal",
    "belief",
    "uncertainty notice",
    "uncertainty_notice",
    "policy",
    "subject key",
    "idempotency",
    "receipt id",
)
# A subject key ("device:apple-watch"), a policy version ("formation@2") or a receipt's
# key ("review-undo-ba85d1c0").
INTERNAL_PATTERNS = (
    re.compile(r"\b[a-z]+:[a-z0-9]+(?:-[a-z0-9]+)+\b"),
    re.compile(r"\b[a-z_]+@\d+\b"),
    re.compile(r"\b[a-z]+-[a-z]+-[0-9a-f]{8,}\b"),
)


def internal_words(text: str) -> list[str]:
    """The internal terms and patterns found in ``text`` (visible text of a page)."""
    lowered = text.lower()
    found = [term for term in INTERNAL_TERMS if term in lowered]
    found += [match.group(0) for pattern in INTERNAL_PATTERNS for match in pattern.finditer(text)]
    return found
