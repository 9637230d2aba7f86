"""Family events: what is coming for the owner's relatives, and when.

"My daughter Maya starts school in September", "my brother Tom is getting
married next June" and "my wife's surgery is on March 3rd" each form a fact
("User's daughter Maya starts school in September.") besides the relationship
the relationships grammar reads. Its hint ends (``valid_until``) with the day or
period named: what is said of something coming holds until it has happened.
Nothing expires, since that it happened stays worth knowing.

Only relatives: a friend's or a colleague's plans are theirs, not the owner's
life. Only an event (a start, a move, a wedding, surgery, a birthday...) with
the day it is coming: a past one ("got married last June"), an undated one
("starts school") or a denied one ("is not getting married") forms none.
"""

import re
from collections.abc import Iterable

from memory.enums import BeliefType

from .. import subjects as S
from .reading import Clause, MessageReader, Proposal, triggers
from .relationships import KIN_BLOCKERS, KIN_MODIFIERS, kin_phrase
from .vocabulary import PRONOUN_VALUES, is_name

# People the owner may call by a kin word whose plans are their own.
_NOT_FAMILY = frozenset(
    "friend colleague coworker boss manager roommate flatmate housemate neighbor neighbour "
    "mentor".split()
)
_FAMILY = sorted((k for k, v in S.KIN.items() if v not in _NOT_FAMILY), key=len, reverse=True)
_RELATIVE_RE = re.compile(
    r"\b(?:my|our)\s+"
    + KIN_BLOCKERS
    + KIN_MODIFIERS
    + rf"(?P<kin>{'|'.join(re.escape(k) for k in _FAMILY)})\b"
    r"(?:\s+(?-i:(?P<name>[A-Z][\w-]+)(?:\s+(?P<surname>[A-Z][\w-]+))?))?"
    r"(?P<possessive>'s)?",
    re.I,
)
_EVENT_NOUNS = (
    r"(?:surgery|operation|procedure|wedding|baby|recital|concert|performance|exams?|finals|"
    r"tests?|interview|graduation|party|tournament|competition|race|marathon|audition|"
    r"ceremony|birthday|anniversary|appointment|check-?up|scan|funeral|christening|baptism|"
    r"mitzvah|retirement|flight|trip|move|show|play|premiere|debut|due\s+date|first\s+day|"
    r"big\s+day)"
)
_NUMBER = (
    r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|a\s+hundred)\b"
)
# Where going is an event: a named place, or somewhere one starts, stays or
# gathers; "going to the park" is an errand.
_DESTINATION = (
    r"(?:(?-i:[A-Z])|(?:(?:a|an|the|his|her|their|my|our)\s+)?(?:[\w-]+\s+)?(?:school|"
    r"college|university|uni|camp|kindergarten|preschool|daycare|nursery|rehab|hospital|"
    r"wedding|funeral|festival|conference|retreat)\b)"
)
_JOURNEY = r"(?:trip|cruise|vacation|holiday|tour|retreat|honeymoon|exchange|deployment|mission)"
# What happens to a relative, in the present, progressive or future: "starts",
# "is starting", "will start", "is going to start".
_EVENT_RE = re.compile(
    r"\s+(?:(?:is|are)\s+(?:(?:going|about|set|scheduled|due)\s+to\s+)?|will\s+)?"
    r"(?:start(?:s|ing)?|begin(?:s|ning)?|finish(?:es|ing)?|graduat(?:e|es|ing)|"
    r"marr(?:y|ies|ying)|get(?:s|ting)?\s+(?:married|engaged|divorced|baptized|baptised|"
    r"christened)|mov(?:e|es|ing)|turn(?:s|ing)?\s+" + _NUMBER + r"|"
    r"ha(?:ve|s|ving)\s+(?=(?:[\w'-]+\s+){0,3}?" + _EVENT_NOUNS + r"\b)|"
    r"giv(?:e|es|ing)\s+birth|retir(?:e|es|ing)|leav(?:e|es|ing)\s+for|fl(?:y|ies|ying)|"
    r"arriv(?:e|es|ing)|com(?:e|es|ing)\s+(?:home|back|over|to\s+(?:visit|stay))|"
    r"visit(?:s|ing)?|return(?:s|ing)?|"
    r"go(?:es|ing)?\s+(?:(?:off|back|away)\s+)?(?:to|into)\s+(?=" + _DESTINATION + r")|"
    r"go(?:es|ing)?\s+(?:abroad|home|away|on\s+(?:a|an|the|his|her|their)\s+(?:[\w-]+\s+)?"
    + _JOURNEY
    + r")|"
    r"head(?:s|ing)?\s+(?:to|off|back|home|out)|travel(?:s|ling|ing)?|compet(?:e|es|ing)|"
    r"perform(?:s|ing)?|"
    r"(?:tak(?:e|es|ing)|sit(?:s|ting)?)\s+(?=(?:[\w'-]+\s+){0,3}?(?:exams?|tests?|finals|"
    r"bar|sats|gcses|boards)\b)|"
    r"undergo(?:es|ing)?|due|expect(?:s|ing)?\s+(?:a\s+baby|twins|a\s+(?:boy|girl|child))|"
    r"celebrat(?:e|es|ing))\b",
    re.I,
)
# "my wife's surgery is on March 3rd": an event of the relative, and its day.
_EVENT_OF_RE = re.compile(
    r"\s+(?P<noun>(?:[a-z-]+\s+){0,3}?" + _EVENT_NOUNS + r"(?:\s+of\s+[a-z]+)?)"
    r"\s+(?:is|are|will\s+be)\s+(?:(?:scheduled|set|planned|booked)\s+for\s+)?",
    re.I,
)
# What would make the words up to the date more than one plain event.
_BREAK_RE = re.compile(
    r"[,;:()]|\b(?:because|since|but|so|although|though|which|who|whom|where|if|unless|when|"
    r"whenever|while|and|or|then|not|never|no)\b",
    re.I,
)
_THEIR_OWN = frozenset({"his", "her", "their"})
_OWNER_WORDS = {"my": "User's", "our": "User's", "me": "User", "us": "User"}
_LEAD_WORDS = frozenset("on in at this next later the tomorrow today tonight".split())


def _said(words: Iterable[str]) -> list[str] | None:
    """The predicate's words as a statement about the owner says them; None when one refers
    to something only the conversation knows ("it", "there")."""
    said = []
    for word in words:
        lowered = word.lower()
        if lowered in _OWNER_WORDS:
            said.append(_OWNER_WORDS[lowered])
        elif lowered in PRONOUN_VALUES and lowered not in _THEIR_OWN:
            return None
        else:
            said.append(word)
    return said


def _relative(match: re.Match[str]) -> tuple[str, str, int, bool]:
    """The relative as the owner named them ("daughter Maya", "wife"), and where the words
    after them start."""
    phrase = kin_phrase(match)
    name, end = match.group("name"), match.end("kin")
    if name and is_name(name):
        surname = match.group("surname")
        if surname and is_name(surname):
            name, end = f"{name} {surname}", match.end("surname")
        else:
            end = match.end("name")
        phrase = f"{phrase} {name}"
    else:
        name = ""
    if match.group("possessive") and end == match.start("possessive"):
        return phrase, name, end, True
    return phrase, name, end, False


def read_family_events(clause: Clause, reader: MessageReader) -> None:
    text = clause.text
    for match in clause.find(_RELATIVE_RE):
        phrase, name, end, possessive = _relative(match)
        if possessive:
            event = _EVENT_OF_RE.match(text, end + 2)
            if event is None:
                continue
            what = event.group("noun")
            said_end = event.end()
            head = f"{phrase}'s {' '.join(text[end + 2 : said_end].split())}"
        else:
            event = _EVENT_RE.match(text, end)
            if event is None:
                continue
            head, said_end = phrase, end
        dates = [d for d in clause.dates if d.start >= said_end]
        lead = [d for d in clause.dates if d.end <= match.start()]
        if dates:
            date, predicate = dates[0], text[said_end : dates[0].start]
            when = date.hint.phrase
        elif lead and not possessive:
            date, predicate = lead[-1], text[said_end:]
            when = date.hint.phrase
            if when.split()[0].lower() in _LEAD_WORDS:
                when = when[0].lower() + when[1:]
        else:
            continue
        predicate = predicate.strip(" .!?")
        if possessive and predicate:
            # The day must follow the event's "is" at once.
            continue
        if _BREAK_RE.search(predicate) or len(predicate.split()) > 10:
            continue
        said = _said(predicate.split())
        if said is None:
            continue
        statement = " ".join(["User's", head, *said, when]) + "."
        if not possessive:
            what = " ".join(said)
        who = name or S.KIN[match.group("kin").lower()]
        key = S.topic_key(f"{who} {what}", max_words=4)
        subject = S.subject_key("event", key) if key else None
        if subject:
            reader.add(
                Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=statement,
                    confidence=0.6,
                    temporal=date.hint,
                )
            )


# A clause must contain one of a pattern's words for the pattern to match.
triggers({_RELATIVE_RE: " ".join(_FAMILY)})
