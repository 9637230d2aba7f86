"""Activities: what the owner plays and practises, and what they are doing these days.

"I play tennis", "I play the cello", "I have been painting since 2019" and "I
am training for a marathon" form activities; an idle "I have been feeling"
or a day's work forms none.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .attributes import attribute
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .values import strip_temporal, value_phrase
from .vocabulary import ADV

_PLAY_RE = re.compile(
    r"\bI\s+" + ADV + r"(?P<verb>play|practice|practise)\s+(?P<the>the\s+)?(?P<what>[a-z]+"
    r"(?:\s+(?:games|ball))?)\b",
    re.I,
)
_SPORTS = frozenset(
    """tennis soccer football basketball baseball volleyball golf chess hockey rugby cricket
    badminton squash poker softball lacrosse pickleball handball bridge yoga pilates
    karate judo taekwondo""".split()
)
_DURATION_ACTIVITY_RE = re.compile(
    r"\bI\s+have\s+been\s+(?P<ing>[a-z]+ing)\b(?P<rest>[^,;]*)", re.I
)
_IDLE_ING = frozenset(
    """feeling thinking wondering trying going doing having getting looking meaning waiting
    hoping dealing struggling being saying telling asking seeing hearing coming living working
    keeping making taking putting staying sitting sleeping eating talking texting planning
    considering using needing wanting""".split()
)
# What passes with the day or the mood ("I've been crying", "I've been relaxing").
_PASSING_ING = frozenset(
    """crying laughing stressing worrying panicking freaking resting relaxing chilling hanging
    sitting lying waiting procrastinating""".split()
)
_LATELY_RE = re.compile(
    r"\b(?:lately|recently|these days|nowadays|this year|for a while|for ages|a lot|"
    r"(?:since\s+)?we\s+(?:last\s+)?(?:talked|chatted|spoke)(?:\s+last)?)\b",
    re.I,
)
_PREPOSITION_LEAD_RE = re.compile(r"\s*(about|on|with|at|for|in|into)\s+", re.I)
_ACTIVITY_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+" + ADV + r"(?P<verb>working on|looking into|researching|"
    r"training for|saving up for|saving for|preparing for|trying out|volunteering at|"
    r"volunteering with|volunteering for|writing|reading|building|renovating|organizing|"
    r"organising|teaching|coaching|practicing|practising|recording|attending|involved in|"
    r"involved with)\s+(?P<rest>.+)",
    re.I,
)


def read_pastimes(clause: Clause, reader: MessageReader) -> None:
    """What the owner plays ("I play tennis"), and what they have been doing since a time
    they name ("I have been painting since 2019")."""
    text = clause.text
    for match in clause.find(_PLAY_RE):
        what = match.group("what").lower()
        head = what.split()[-1]
        if what in _SPORTS or S.KIND_OF_WORD.get(head) == "instrument" or what == "video games":
            the = "the " if match.group("the") else ""
            statement = f"User {match.group('verb').lower()}s {the}{what}."
            subject = S.subject_key("activity", what)
            reader.add(attribute(clause, subject, statement, match.start(), 0.75))
    for match in clause.find(_DURATION_ACTIVITY_RE):
        ing = match.group("ing").lower()
        looks_back = [
            m for m in clause.temporal if m.hint.valid_from is not None and m.start >= match.start()
        ]
        if ing in _IDLE_ING or ing in _PASSING_ING:
            continue
        if not looks_back and not any(
            _LATELY_RE.search(part) for part in (text, *clause.before[-1:])
        ):
            # "I have been blogging about politics lately" is what they do these days; a bare
            # "I have been cooking" may be this afternoon.
            continue
        start = match.start("rest")
        rest_text = _LATELY_RE.sub("", strip_temporal(text[start:], clause.temporal, start))
        preposition = _PREPOSITION_LEAD_RE.match(rest_text)
        if preposition:
            # "blogging about politics": the preposition belongs to the activity.
            tail = value_phrase(rest_text[preposition.end() :], max_words=5)
            rest = f"{preposition.group(1).lower()} {tail}" if tail else None
        else:
            rest = value_phrase(rest_text, max_words=5) if rest_text.strip(" ,.") else ""
        if rest is None:
            continue
        activity = f"{ing} {rest}".strip()
        subject = S.topic_subject_of("activity", activity)
        if subject:
            proposal = Proposal(
                type=BeliefType.FACT,
                subject=subject,
                statement=f"User has been {activity}.",
                confidence=0.6,
                temporal=looks_back[0].hint if looks_back else hint(clause.temporal, match.start()),
            )
            reader.add(proposal)


def read_activities(clause: Clause, reader: MessageReader) -> None:
    for match in clause.find(_ACTIVITY_RE):
        value = clause.value(match.start("rest"), max_words=8)
        subject = S.topic_subject_of("activity", value) if value else None
        if subject:
            verb = match.group("verb").lower()
            reader.add(
                Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=f"User is {verb} {value}.",
                    confidence=0.6,
                    temporal=hint(clause.temporal, match.start()),
                )
            )


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _PLAY_RE: "play practice practise",
        _DURATION_ACTIVITY_RE: "been",
        _ACTIVITY_RE: (
            "working looking researching training saving preparing trying volunteering writing "
            "reading building renovating organizing organising teaching coaching practicing "
            "practising recording attending involved"
        ),
    }
)
