"""Languages: what the owner speaks and what they are learning.

"I speak Portuguese and French", "I am a native Spanish speaker" and "I am
learning Japanese" form languages; "I am studying machine learning" forms
something else the owner is learning.
"""

import re

from .. import subjects as S
from .attributes import attribute
from .reading import Clause, MessageReader, triggers
from .vocabulary import ADV

_LANGUAGE_RE = re.compile(
    r"\bI\s+" + ADV + r"(?P<verb>speak|am fluent in|am learning|have been learning|am studying)"
    r"\s+(?P<rest>.+)",
    re.I,
)
_NATIVE_RE = re.compile(r"\bI\s+am\s+a\s+native\s+(?P<lang>[A-Za-z]+)\s+speaker\b", re.I)
_LEARNING_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+" + ADV + r"(?P<verb>learning|studying)\s+(?P<rest>.+)", re.I
)

_LANGUAGE_LIST_RE = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+as well as\s+)", re.I)


def read_languages(clause: Clause, reader: MessageReader) -> None:
    for match in clause.find(_LANGUAGE_RE):
        verb = match.group("verb").lower()
        languages = []
        for piece in _LANGUAGE_LIST_RE.split(match.group("rest")):
            words = piece.split()
            word = words[0].strip(".,!") if words else ""
            if word.lower() not in S.LANGUAGES:
                break
            languages.append(word)
            if len(words) > 1:
                break
        for language in languages:
            if verb in {"speak", "am fluent in"}:
                statement = f"User speaks {language}."
                subject = S.subject_key("language", language)
            else:
                statement = f"User is learning {language}."
                subject = S.subject_key("learning", language)
            reader.add(attribute(clause, subject, statement, match.start()))
    for match in clause.find(_NATIVE_RE):
        language = match.group("lang")
        if language.lower() in S.LANGUAGES:
            statement = f"User is a native {language} speaker."
            subject = S.subject_key("language", language)
            reader.add(attribute(clause, subject, statement, match.start()))
    for match in clause.find(_LEARNING_RE):
        first = match.group("rest").split()[0].lower().strip(".,!")
        if first in S.LANGUAGES or first in {"for", "at", "with", "about"}:
            continue
        value = clause.value(match.start("rest"), max_words=6)
        subject = S.topic_subject_of("learning", value) if value else None
        if subject:
            statement = f"User is {match.group('verb').lower()} {value}."
            reader.add(attribute(clause, subject, statement, match.start(), 0.7))


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _LANGUAGE_RE: "speak fluent learning studying",
        _NATIVE_RE: "native",
        _LEARNING_RE: "learning studying",
    }
)
