"""Temporary situations: where the owner is, or what they are doing, for a stated time.

"I'm staying in Berlin for two weeks", "we're in Lisbon until the 14th", "I'll
be working from home for the next month" and "I'm on a night-shift rotation for
three weeks" each form a fact ("User is staying in Berlin.") whose hint ends
(``valid_until`` and ``expires_at``) when the stated time does, counted from the
message's time. A situation somewhere is keyed by the place, so that a later
stay there replaces it; any other by its words.

A time the message's own time does not anchor forms nothing: one that starts
later ("for two weeks in October"), recurs ("every summer") or looks back ("I
have been staying"). Neither does a situation of less than a day ("until 3",
"for an hour"): that is the day's business, not a memory.
"""

import re
from datetime import UTC, timedelta

from memory.enums import BeliefType

from .. import subjects as S
from ..temporal import TemporalMatch
from .reading import Clause, MessageReader, Proposal, triggers
from .values import value_phrase
from .vocabulary import ADV, WHO

# Verbs of staying somewhere or living some way for a while. "working" takes
# anything but "on", "at" and "for": the activity and employer grammars read
# those ("working on a novel", "working at Google").
_SITUATION_VERBS = (
    r"staying|visiting|house-?sitting|pet-?sitting|dog-?sitting|camping|backpacking|"
    r"couch-?surfing|travell?ing|touring|interning|commuting|subletting|renting|fasting|"
    r"self-isolating|isolating|quarantining|stationed|posted|deployed|"
    r"working(?!\s+(?:on|at|for)\b)"
)
# Being away, said without a place.
_AWAY = r"away|abroad|overseas|off\s+work|off\s+sick|out\s+of\s+(?:the\s+)?office|out\s+of\s+town"
_SITUATION_RE = re.compile(
    WHO
    + ADV
    + r"(?:am|are|will\s+"
    + ADV
    + r"be)\s+"
    + ADV
    + rf"(?P<rest>(?:{_AWAY}|{_SITUATION_VERBS}|in|at|on)\b.*)",
    re.I,
)
# Words that anchor a stated time elsewhere than at the message: a later
# start, a repetition, a condition. Read with the duration itself removed.
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ELSEWHERE_RE = re.compile(
    r"\b(?:next|tomorrow|tonight|later|soon|starting|beginning|every|each|once|after|before|"
    r"whenever|usually|always|often|sometimes|again)\b"
    rf"|\b(?:in|on|this|from)\s+(?:the\s+)?(?:{_MONTHS}|{_WEEKDAYS}|summer|winter|spring|"
    r"fall|autumn)\b"
    rf"|\b(?:{_MONTHS})\s+\d"
    r"|\bin\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|"
    r"a\s+couple\s+of|\d+)\s+(?:days?|weeks?|months?|years?)\b"
    r"|\b(?:19|20)\d\d\b",
    re.I,
)
# A place the situation is in: "in Berlin", "from Porto", "in the UK".
_PLACE_RE = re.compile(
    r"\b(?:in|at|from|near|around|outside)\s+(?:the\s+)?"
    r"(?P<place>(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}))",
    re.I,
)
# Less than a day is the day's business ("until 3"), not a memory.
_SHORTEST = timedelta(days=1)
# Verbs that say enough alone ("I'm travelling for a month"); the others need
# what they take ("staying" says nothing without where).
_ALONE = frozenset(
    """camping backpacking fasting isolating self-isolating quarantining travelling
    traveling touring house-sitting housesitting pet-sitting petsitting dog-sitting
    dogsitting couch-surfing couchsurfing deployed""".split()
)


def _duration(clause: Clause) -> TemporalMatch | None:
    """The one time phrase of the clause that ends the situation, counted from the message's
    time; None when there is none, several, or one that looks back."""
    matches = clause.temporal
    if len(matches) != 1:
        return None
    match = matches[0]
    if match.hint.valid_from is not None or match.hint.expires_at is None:
        return None
    occurred_at = clause.context.occurred_at
    if occurred_at.tzinfo is None:
        occurred_at = occurred_at.replace(tzinfo=UTC)
    if match.hint.expires_at - occurred_at < _SHORTEST:
        return None
    return match


def _situation(text: str) -> str | None:
    """The situation as a statement can say it ("staying with their sister in Madrid")."""
    away = re.match(_AWAY, text, re.I)
    if not away:
        said = value_phrase(text)
        if said and len(said.split()) == 1 and said.lower() not in _ALONE:
            return None
        return said
    # value_phrase refuses a phrase starting with "away" or "off": those are
    # verb particles elsewhere, the situation itself here.
    said = " ".join(away.group(0).lower().split())
    rest = text[away.end() :]
    if not rest.strip(" ,.!"):
        return said
    more = value_phrase(rest)
    return f"{said} {more}" if more else None


def _subject(situation: str) -> str | None:
    places = list(_PLACE_RE.finditer(situation))
    if places:
        return S.subject_key("situation", places[-1].group("place"))
    if re.fullmatch(_AWAY, situation, re.I):
        return S.subject_key("situation", situation)
    return S.topic_subject_of("situation", situation)


def read_situations(clause: Clause, reader: MessageReader) -> None:
    matches = list(clause.find(_SITUATION_RE))
    duration = _duration(clause) if matches else None
    if duration is None:
        return
    text = clause.text
    if _ELSEWHERE_RE.search(text[: duration.start] + " " + text[duration.end :]):
        return
    for match in matches:
        start = match.start("rest")
        end = duration.start if duration.start > start else len(text)
        situation = _situation(text[start:end])
        subject = _subject(situation) if situation else None
        if subject:
            reader.add(
                Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=f"User is {situation}.",
                    confidence=0.6,
                    temporal=duration.hint,
                )
            )


# A clause must contain one of a pattern's words for the pattern to match.
triggers({_SITUATION_RE: "am are be"})
