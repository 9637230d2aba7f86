"""Other people's facts: what the owner says of a relative, a friend or a colleague.

"My daughter is allergic to peanuts" is about the daughter: it forms "User's daughter is
allergic to peanuts." under the subject of that person (``person:daughter``; with a name,
``person:ana``), never anything of the owner's. The statement keeps the owner's words for the
person and the predicate whole, its times, numbers and places included. A clause read here is
the person's own: the sentence was cut where the person's verb began (``text.clauses``), so
nothing the owner says of themselves in it comes along.

Precision first, for what lasts: a question, wish or hedge forms nothing (its clause is
skipped before this), and neither do a negation, a possessive of the person ("my sister's
car"), a late, former or imaginary relative, several people under one word ("my kids"), what
is under way or passes ("is visiting", "has a cold this week", "was upset"), what they said or
suggested, a dated event of theirs (kept as the event: ``family``), or a predicate naming the
owner or the assistant ("my dad sold my BMW" is the owner's news).
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .relationships import KIN_BLOCKERS, KIN_MODIFIERS, KIN_WORDS, kin_phrase
from .vocabulary import is_name

# The verbs a person's predicate may open with: the forms of be and have, a third person's
# present ("works", "teaches") and past tenses ("opened", "bought").
_VERB = (
    r"(?P<verb>is|are|was|were|has|have|had|"
    r"got|bought|sold|ran|won|made|took|went|left|gave|became|began|came|drove|wrote|grew|"
    r"built|found|kept|lost|met|paid|rode|sang|spent|swam|taught|told|brought|"
    r"[a-z]{2,}(?:ed|es|s))"
)
_PERSON_FACT_RE = re.compile(
    r"^(?:[^,]{0,40},\s+)?(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?P<kin>{KIN_WORDS})"
    r"(?:,?\s+(?-i:(?P<name>[A-Z][\w'-]+))(?:,)?)?"
    r"\s+(?P<adv>(?:(?:just|still|also|finally|recently|now|already)\s+){0,2})"
    + _VERB
    + r"\s+(?P<rest>.+?)\s*[.!]*$",
    re.I,
)
# "Maeve, my stepdaughter, just turned twelve."
_NAME_APPOSITIVE_RE = re.compile(
    r"^(?-i:(?P<name>[A-Z][\w'-]+)),\s+(?:my|our)\s+"
    + KIN_BLOCKERS
    + KIN_MODIFIERS
    + rf"(?P<kin>{KIN_WORDS}),\s+"
    r"(?P<adv>(?:(?:just|still|also|finally|recently|now|already)\s+){0,2})"
    + _VERB
    + r"\s+(?P<rest>.+?)\s*[.!]*$",
    re.I,
)
_POSSESSIVE_KIN_RE = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN_WORDS})'s\b", re.I)
# Words of a predicate that make it something other than a lasting fact about the person:
# negation and doubt; the owner or the assistant in it ("sold my BMW": the owner's news);
# what is under way or planned ("is visiting", "is going to"); what passes this week; and
# what they said or suggested.
_NOT_A_FACT_RE = re.compile(
    r"\b(?:not|never|no longer|nothing|nobody|anything|anyone|you|your|me|my|mine|myself|"
    r"I|us|our|maybe|perhaps|probably|possibly|apparently|supposedly|going to|gonna|"
    r"today|tonight|tomorrow|this (?:week|morning|afternoon|evening)|right now|"
    r"at the moment)\b",
    re.I,
)
# What they said, thought or suggested is theirs to hold, not a fact about them.
_SAYING = frozenset(
    "says said thinks thought believes told asks asked recommended suggested mentioned texted "
    "called calls invited".split()
)
# A person's progressive is under way, not lasting ("is visiting", "is having surgery"),
# but for the few that describe what they do these years ("is studying marine biology").
_ONGOING = frozenset(
    "studying learning working training living teaching writing building raising running "
    "restoring collecting".split()
)
# A bare present of an event with no date ("My daughter starts school") is a plan whose time
# the owner left out; with a date, the family events grammar keeps it as an event.
_EVENT_PRESENT = frozenset(
    "starts turns retires graduates flies leaves arrives begins finishes moves gets".split()
)
# Nouns ending in s that are no verb ("my kids", "my parents"): the kin word ate them already,
# and these would open a predicate wrongly.
_NOT_VERBS = frozenset({"kids", "parents", "siblings", "friends", "cousins", "this", "his"})
# How a person feels or is today ("is so happy", "was sick") passes.
_PASSING = frozenset(
    "happy sad upset excited tired sick ill angry mad annoyed stressed worried nervous busy "
    "okay ok fine great good bored home away asleep awake late early here there back".split()
)
_BE = frozenset({"is", "are", "was", "were"})
_INTENSIFIERS = frozenset({"so", "very", "really", "super", "a", "bit", "little", "pretty"})


def _fact(match: re.Match[str], clause: Clause, reader: MessageReader) -> None:
    kin = match.group("kin").lower()
    key = S.KIN[kin]
    if key in {"children", "siblings", "parents", "grandchildren"} or (
        kin.endswith("s") and kin != key
    ):
        # "My kids are at school": several people under one word, no one person's fact.
        return
    verb, rest = match.group("verb"), match.group("rest").strip().rstrip(",;:")
    if verb.lower() in _NOT_VERBS | _EVENT_PRESENT | _SAYING:
        return
    if _NOT_A_FACT_RE.search(rest):
        return
    words = [w.lower().strip(".,!") for w in rest.split()]
    first = next((w for w in words if w not in _INTENSIFIERS), "")
    if verb.lower() in _BE and (
        first in _PASSING or (first.endswith("ing") and first not in _ONGOING)
    ):
        return
    name = match.group("name")
    if name is not None and not is_name(name):
        name = None
    subject = S.subject_key("person", name if name else key)
    if subject is None:
        return
    adverbs = [w for w in match.group("adv").split() if w.lower() != "just"]
    predicate = " ".join([*adverbs, verb, rest])
    who = kin_phrase(match) + (f" {name}" if name else "")
    reader.add(
        Proposal(
            type=BeliefType.FACT,
            subject=subject,
            statement=f"User's {who} {predicate}.",
            confidence=0.6,
            temporal=hint(clause.temporal, match.start("verb")),
        )
    )


def read_people(clause: Clause, reader: MessageReader) -> None:
    """Another person's fact, when the clause is that person's: "My brother Tom works at a
    bakery", "Maeve, my stepdaughter, just turned twelve"."""
    if _POSSESSIVE_KIN_RE.search(clause.text):
        # "My sister's car is red": the car's fact, not the sister's.
        return
    if any(p.subject.startswith("event:") for p in reader.positives[clause.first_proposal :]):
        # A relative's dated event ("My dad retires in December") is kept as that event.
        return
    for pattern in (_PERSON_FACT_RE, _NAME_APPOSITIVE_RE):
        match = next(iter(clause.find(pattern)), None)
        if match:
            _fact(match, clause, reader)
            return


triggers({_PERSON_FACT_RE: " ".join(S.KIN), _NAME_APPOSITIVE_RE: " ".join(S.KIN)})
