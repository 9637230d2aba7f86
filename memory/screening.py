"""Screening text for what memory must never keep or show: secrets, instructions aimed at
the assistant, and how sensitive a text is on its own.

Each check is a pure function of text. Memory runs them where text comes in and goes out
(labelling messages, storing the owner's own memories, recall's excerpts); formation's gates
and the providers' egress policy build on them.
"""

import re

from memory.enums import Sensitivity

# Secrets are read in a module of their own (``memory.secrets``); screening offers its checks.
from memory.secrets import contains_secret, redact_secrets  # noqa: F401

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


# -- sensitivity -----------------------------------------------------------------

_SENSITIVE_RE = re.compile(
    r"\b(?:diagnos\w*|depress\w*|anxiety|adhd|autis\w*|cancer|diabet\w*|hiv|asthma|"
    r"epilep\w*|bipolar|schizo\w*|therap(?:y|ist)|medication|prescri\w*|pregnan\w*|"
    r"miscarriage|surgery|disabilit\w*|chronic|illness|disease|rehab|addict\w*|sober|"
    r"religio\w*|church|mosque|synagogue|temple|atheis\w*|muslim|christian|jewish|hindu|"
    r"buddhis\w*|gay|lesbian|bisexual|transgender|queer|sexual\w*|politic\w*|vote[sd]?|"
    r"democrat\w*|republican\w*|immigration status|undocumented|criminal record|"
    r"arrest\w*|convict\w*|debt|bankrupt\w*|salary|income|divorc\w*)\b",
    re.IGNORECASE,
)
_PERSONAL_RE = re.compile(
    r"\b(?:address|lives? (?:at|in|on)|(?:phone|mobile|cell) (?:number|no)|birthday|born|age|"
    r"years old|wife|husband|"
    r"partner|girlfriend|boyfriend|son|daughter|mother|father|mom|dad|sister|brother|"
    r"family|job|work(?:s|ed)? (?:at|for)|employer)\b",
    re.IGNORECASE,
)


def classify_sensitivity(text):
    """The sensitivity a text implies on its own: sensitive topics, personal details, or normal."""
    if _SENSITIVE_RE.search(text):
        return Sensitivity.SENSITIVE
    if _PERSONAL_RE.search(text):
        return Sensitivity.PERSONAL
    return Sensitivity.NORMAL
