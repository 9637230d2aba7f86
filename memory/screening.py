"""Screening text for what memory must never keep or show: secrets, instructions aimed at
the assistant, and how sensitive a text is on its own.

Each check is a pure function of text. Memory runs them where text comes in and goes out
(labelling messages, storing the owner's own memories, recall's excerpts); formation's gates
and the providers' egress policy build on them.
"""

import re

# Secrets and sensitivity are read in modules of their own; screening offers their checks
# beside its own.
from memory.secrets import contains_secret, redact_secrets  # noqa: F401
from memory.sensitivity import classify_sensitivity  # noqa: F401

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


def looks_like_injection(text: str) -> bool:
    """Text that tries to instruct the assistant rather than tell it about the person."""
    return bool(_INJECTION_RE.search(text))
