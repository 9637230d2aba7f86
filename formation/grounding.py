"""Lexical grounding: a model's proposal stands only on words its cited messages say.

A proposal is grounded when every content word of its subject's entity, every
name (a capitalised word that does not start a sentence) and every number in
its statement appear in the text of the messages it cites. Grounding does not
make a proposal true; it keeps a model from adding people, places, products or
figures that nobody mentioned. Pure functions of text.
"""

import re

from memory.text import STOPWORDS, words

# The owner is named "User" in every statement, and never in their own words.
_OWNER_WORDS = frozenset({"user", "user's", "users"})
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)(\S+)")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# Inflections that the cited text may use for the same word ("cats" for "cat").
_MIN_STEM = 4


def _said(word, said):
    if word in said or f"{word}s" in said or f"{word}es" in said:
        return True
    if word.endswith("s") and word[:-1] in said:
        return True
    if len(word) < _MIN_STEM:
        return False
    return any(
        other.startswith(word) or word.startswith(other)
        for other in said
        if len(other) >= _MIN_STEM
    )


def _names(statement):
    starts = {match.start(1) for match in _SENTENCE_START.finditer(statement)}
    return [
        match.group(0) for match in _CAPITALISED.finditer(statement) if match.start() not in starts
    ]


def grounding_failure(*, subject, statement, cited_texts):
    """Why the proposal is not grounded in ``cited_texts`` (a reason code), or ""."""
    text = "\n".join(cited_texts)
    said = set(words(text))
    entity = subject.split(":", 1)[-1]
    entity_words = [
        word for word in re.split(r"[^a-z0-9]+", entity.lower()) if word and word not in STOPWORDS
    ]
    if not entity_words or not all(_said(word, said) for word in entity_words):
        return "ungrounded_subject"
    for name in _names(statement):
        name_words = [w for w in words(name) if w not in _OWNER_WORDS]
        if not all(_said(word, said) for word in name_words):
            return "ungrounded_claim"
    numbers = set(_NUMBER.findall(text))
    if any(number not in numbers for number in _NUMBER.findall(statement)):
        return "ungrounded_claim"
    return ""
