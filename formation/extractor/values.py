"""Value phrases: the words a verb takes, as a statement can reuse them.

A value is cut at the first clause marker, stripped of filler ("a lot",
"these days", time phrases), and its pronouns made third-person; a phrase
that only the conversation can resolve ("it", "your answer") is no value.
"""

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .vocabulary import BOUNDARY_WORDS, DEMONSTRATIVES, PRONOUN_VALUES

if TYPE_CHECKING:
    from ..temporal import TemporalMatch

MAX_VALUE_WORDS = 8
_OWN_PRONOUNS = {"my": "their", "me": "them", "myself": "themselves", "mine": "theirs"}
_OWN_PRONOUNS |= {"our": "their", "us": "them", "ourselves": "themselves", "ours": "theirs"}
# A comma or colon ends a value, but inside a number ("3:58", "£2,300") it is the number's.
_VALUE_CUT_RE = re.compile(
    r"\s*(?:(?<!\d)[,:]|[,:](?!\d)|[()\[\]]|\u27e6q\u27e7|\s(?:because|since|as|when|whenever|while|but|so|although|"
    r"though|which|who|whom|where|if|unless|until|till|and then|and also|whereas|except|"
    r"especially|like|lol|haha|lmao|just because|even though|instead|not|in hopes|"
    # "that" starts a clause ("the book that I read") unless it points at a
    # thing ("that world").
    r"that(?=\s+(?:I|we|you|he|she|they|it|is|was|are|were|the|a|an|my|our|there|this|what|"
    r"how|has|had|would|will|can|could|should|really|just|so)\b|\s*$)|"
    r"in order|hoping|trying to|so I|and that|ago|and (?:it|they|things|everything|everyone|"
    r"people|he|she|we|felt|was|were|had|got|then|now|so)|"
    r"(?:a few|a couple of|several|many|some|\w+)\s+"
    r"(?:minutes|hours|days|weeks|weekends|months|years)\s+ago|"
    r"to\s+(?:show|help|make|teach|see|get|keep|give|celebrate|remember|raise|support|"
    r"learn|find|bring|spread|express|create|honou?r|relax|practi[cs]e|improve|stay|build))\b)",
    re.I,
)
_FILLER_RE = re.compile(
    r"(?:^|\s+)(?:a lot|a ton|so much|very much|too|as well|though|anyway|anymore|any more|now|"
    r"these days|nowadays|lately|recently|the most|most|best|more|again|already|yet|today|"
    r"tonight|tomorrow|right now|at the moment|currently|for now|really|honestly|actually|"
    r"please|thanks|thank you|lol|haha|ever|honestly|personally|myself|by myself|overall|"
    r"early|late|quickly|together|alone|online|instead|even|even more|for a while|"
    r"in the (?:past|last) (?:few |couple of )?(?:days?|weeks?|months?|years?)|"
    r"in general|generally|usually|always|all the time|every day|every time|haha+|:\)|!+|"
    r"soon|later|someday|for good|once and for all|"
    r"over (?:the )?(?:christmas|easter|the holidays|new year|the weekend|the summer)|"
    r"next (?:week|weekend|month|year|time|summer|winter|spring|fall|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:week|weekend|month|"
    r"year|morning|afternoon|evening|summer|winter|spring|fall)|from now on|"
    r"(?:in|on|by|last|since)\s+(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|\d{4}|week|weekend|month|year|night)|"
    r"in (?:a|an|one|two|three|four|a few|a couple of|\d+) (?:days?|weeks?|weekends?|months?|"
    r"years?)|(?:a|an|one|two|three|four|a few|a couple of|\d+) (?:days?|weeks?|weekends?|"
    r"months?|years?) (?:later|from now|away)|about|around|roughly|almost|nearly|over|just|"
    r"to|for|with|at|in|on|of|from|and|or|the|a|an|every (?:day|week|morning|evening|night|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))$",
    re.I,
)


# A value starting with one of these is a verb phrase or a fragment, not a thing.
_NOT_A_VALUE_START = frozenset(
    """not out into away off up down back is was are were be been has had does did so and
    or but very too also for since with from by about to makes gives keeps helps means brings
    feels seems looks sounds gets takes""".split()
)


def value_phrase(
    text: str, *, max_words: int = MAX_VALUE_WORDS, demonstratives: bool = False
) -> str | None:
    """The phrase a verb takes, cut at the first clause marker, pronouns made third-person.

    None when the phrase refers to something only the conversation knows
    ("it", "that", "your answer") or is too long to be one claim. With
    ``demonstratives``, "that lake sunrise" (one the owner showed) becomes "the
    lake sunrise": right for what the owner did, wrong for a taste ("I like that
    idea").
    """
    cut = _VALUE_CUT_RE.search(text)
    if cut:
        text = text[: cut.start()]
    text = text.strip(" .!?;,-'\"")
    previous = None
    while previous != text:
        previous = text
        text = _FILLER_RE.sub("", text).strip(" .!?;,-")
    words = text.split()
    if not words or len(words) > max_words:
        return None
    converted = []
    for index, word in enumerate(words):
        lowered = word.lower()
        if (
            demonstratives
            and lowered in DEMONSTRATIVES
            and index + 1 < len(words)
            and words[index + 1].lower() not in BOUNDARY_WORDS
        ):
            # "that lake sunrise" (the one in the shared photo) is "the lake sunrise".
            converted.append("the")
        elif lowered in _OWN_PRONOUNS:
            converted.append(_OWN_PRONOUNS[lowered])
        elif lowered in PRONOUN_VALUES or not any(c.isalnum() for c in word):
            return None
        else:
            converted.append(word)
    if converted[0].lower() in _NOT_A_VALUE_START:
        return None
    return " ".join(converted)


def strip_temporal(text: str, matches: Sequence["TemporalMatch"], offset: int) -> str:
    """``text`` (which starts at ``offset`` of its clause) cut before its first time phrase."""
    for match in matches:
        if match.start >= offset and match.start - offset < len(text):
            return text[: match.start - offset]
    return text


_LIST_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[^,]*$)", re.I)


def list_items(text: str) -> list[str]:
    """A list of three or more ("hiking, swimming and reading") as items; else the text whole."""
    head = _VALUE_CUT_RE.sub(lambda m: m.group(0) if m.group(0).strip() == "," else "\x00", text)
    head = head.split("\x00", 1)[0]
    if head.count(",") >= 1:
        items = [i for i in _LIST_SPLIT_RE.split(head) if i.strip()]
        if len(items) >= 3 and all(len(i.split()) <= 4 for i in items):
            return items
    return [text]
