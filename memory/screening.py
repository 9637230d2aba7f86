"""Screening text for what memory must never keep or show: secrets, instructions aimed at
the assistant, and how sensitive a text is on its own.

Each check is a pure function of text. Memory runs them where text comes in and goes out
(labelling messages, storing the owner's own memories, recall's excerpts); formation's gates
and the providers' egress policy build on them.
"""

import re

# The sensitivity classifier is a module of its own; screening names it with the other checks.
from memory.sensitivity import classify_sensitivity  # noqa: F401

# -- secrets ---------------------------------------------------------------------

_SECRET_PATTERNS = [
    # Provider keys and tokens with recognisable shapes.
    re.compile(r"\b(?:sk|pk|rk)[-_](?:live|test|proj)?[-_]?[A-Za-z0-9]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}"),  # JWT
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    # A long opaque token: 32+ characters mixing letters and digits.
    re.compile(r"\b(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{32,}\b"),
    # "password is ...", "pin: 1234", "api key = ...", "the password for my email is ...";
    # and "pin 1234", "cvv 123". What the secret belongs to may sit between the
    # word and "is" as a short phrase ("for my email", "to the wifi"), not as a
    # noun of its own ("password manager is great" says nothing secret).
    re.compile(
        r"\b(?:pass(?:word|code|phrase)|pwd|pin(?: code| number)?|api[ _-]?key|secret(?: key)?|"
        r"access[ _-]?token|security code|cvv|cvc)\b"
        r"(?:\s+(?:for|to|of|on|at)\s+(?:my|the|our|your|his|her|their)?\s*[\w.@-]+"
        r"(?:\s+(?:account|login|app|card|router|network|laptop|phone|box))?)?"
        r"\s*(?:is|was|=|:)\s*\S+",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:pin|passcode|cvv|cvc)\s*#?\s*\d{3,}\b", re.IGNORECASE),
    # US social security numbers.
    re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
    # IBAN.
    re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b"),
]
_CARD_RE = re.compile(r"\b(?:\d[ -]?){13,19}\b")


def _luhn_valid(digits):
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def contains_secret(text):
    """Credentials, keys, card numbers and the like, which memory must never keep."""
    if any(pattern.search(text) for pattern in _SECRET_PATTERNS):
        return True
    for match in _CARD_RE.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_valid(digits):
            return True
    return False


def redact_secrets(text):
    """``text`` with every secret-shaped span replaced by ``[redacted]``."""
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub("[redacted]", text)

    def card(match):
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_valid(digits):
            return "[redacted]"
        return match.group(0)

    return _CARD_RE.sub(card, text)


# -- prompt injection ------------------------------------------------------------

_INJECTION_RE = re.compile(
    r"(?:\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,40}\b(?:instructions?|"
    r"prompts?|rules|guidelines|polic(?:y|ies)|system|context|everything)\b"
    r"|\bsystem prompt\b|\bdeveloper mode\b|\bjailbreak|\bDAN mode\b"
    r"|\byou are (?:now|no longer)\b|\bfrom now on,? (?:you|the assistant)\b"
    r"|\bact as (?:an?|the) (?:unrestricted|unfiltered|different)\b"
    r"|\b(?:always|must) (?:obey|comply with|follow) (?:me|my|these|the following)\b"
    r"|<\|?(?:im_start|im_end|system|endoftext)\|?>|\[/?(?:INST|SYS)\]"
    r"|^\s*(?:system|assistant)\s*:)",
    re.IGNORECASE | re.MULTILINE,
)


def looks_like_injection(text):
    """Text that tries to instruct the assistant rather than tell it about the person."""
    return bool(_INJECTION_RE.search(text))
