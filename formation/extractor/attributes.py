"""Attributes of the owner: name, birthday, age, residence, origin, work, diet, allergies.

"My name is Ana", "I am 34 years old", "I live in Lisbon", "I grew up in Ohio",
"I work at Google", "I am a nurse at St Mary's Hospital" (two), "I am vegan",
"I do not eat pork" and "I am allergic to peanuts" form attributes of the owner.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .values import value_phrase
from .vocabulary import ADV, BOUNDARY_WORDS, NAME, NAME_STOP, WHO, is_capitalised, is_name


def _capitalised_words(most: int) -> str:
    """Up to ``most`` capitalised words with the small words names have inside ("Bank of
    America"); case-sensitive even inside case-insensitive expressions."""
    return (
        r"(?-i:[A-Z][\w.'&-]*(?:\s+(?:(?:of|de|del|da|do|la|le|upon|on|the|and|&)\s+)?"
        rf"[A-Z0-9][\w.'&-]*){{0,{most - 1}}})"
    )


_CAP_SEQUENCE = _capitalised_words(4)
# "rural Ohio", "northern Portugal": a region's word before the name is part of the place.
_PLACE = (
    r"(?P<place>(?:the\s+)?(?:(?:rural|northern|southern|eastern|western|central|upstate|"
    r"downstate|coastal|suburban|inner-city|north|south|east|west)\s+)?" + _CAP_SEQUENCE + r")"
)
_MY_NAME_RE = re.compile(
    r"\b(?:my\s+name\s+is|I\s+am\s+called|I\s+am\s+named)\s+" + NAME + r"(?![\w'-])", re.I
)
_GO_BY_RE = re.compile(
    r"(?:\bI\s+go\s+by|\b(?:people|everyone|friends)\s+call\s+me|^(?:please\s+)?call\s+me)\s+"
    + NAME,
    re.I,
)
_MONTH_NAME = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)"
)
_BIRTHDAY_RE = re.compile(
    r"\bmy\s+birthday\s+is\s+(?:on\s+)?(?:the\s+)?(?P<date>"
    + _MONTH_NAME
    + r"\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    + _MONTH_NAME
    + r")\b",
    re.I,
)
_AGE_RE = re.compile(
    r"\bI\s+am\s+(?P<n>\d{1,3})\s*(?:years?|yrs?)[ -]old\b|\bI\s+am\s+(?P<n2>\d{1,3})\s*"
    r"(?:yo|y/o)\b|\bI\s+" + ADV + r"turned\s+(?P<n3>\d{1,3})\b"
    # "I'm 52, divorced": a bare number the clause ends on, or a list goes on from.
    r"|^I\s+am\s+(?P<n4>\d{1,3})\s*(?:$|,)",
    re.I,
)
_RESIDENCE_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?P<verb>live|lived|am living|are living|been living|reside|"
    r"am based|are based|moved|relocated|have moved)\s+(?:back\s+)?"
    r"(?:in|to|out to|(?P<near>(?:just\s+)?(?:outside|near|outside of|close to)))\s+" + _PLACE,
    re.I,
)
_ORIGIN_RE = re.compile(
    r"\bI\s+(?:am\s+" + ADV + r"(?:originally\s+)?from|(?:grew up|was raised)\s+in|was\s+born"
    r"\s+(?:and\s+raised\s+)?in)\s+(?:(?P<year>(?:19|20)\d\d)\b|" + _PLACE + r")",
    re.I,
)
_WORK_AT_RE = re.compile(
    WHO + ADV + r"(?:work|am working|have been working|have worked)\s+(?P<prep>at|for)\s+"
    r"(?:(?P<org>(?:the\s+)?" + _capitalised_words(5) + r")"
    r"|(?P<det>a|an)\s+(?P<generic>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}))",
    re.I,
)
_ROLE_RE = re.compile(
    r"\bI\s+(?:am|work\s+as|am\s+working\s+as|have\s+been\s+working\s+as|work\s+full-time\s+as|"
    r"work\s+part-time\s+as|(?:started|began|started\s+a\s+new\s+job)\s+(?:working\s+)?as|"
    r"became|have\s+become|have\s+been|got\s+a\s+job\s+as|am\s+now|now\s+work\s+as)\s+"
    + ADV
    + r"(?P<det>a|an)\s+(?P<rest>.+)",
    re.I,
)
_ROLE_STATE_RE = re.compile(
    r"\bI\s+am\s+" + ADV + r"(?P<state>retired|unemployed|self-employed|semi-retired)\b", re.I
)
_DIET_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+"
    + ADV
    + r"(?:a\s+)?(?:strict\s+)?(?P<diet>vegetarian|vegan|pescatarian|"
    r"pescetarian|lactose intolerant|kosher|halal|teetotal|teetotaler)\b(?!\s+(?:restaurant|"
    r"recipe|place|food|dish|option|menu))",
    re.I,
)
_AVOID_FOOD_RE = re.compile(
    r"\bI\s+(?P<how>do\s+not|never)\s+(?P<verb>eat|drink)\s+(?P<food>meat|pork|beef|fish|"
    r"dairy|gluten|alcohol|eggs|seafood|sugar|caffeine|coffee|shellfish|red meat)\b",
    re.I,
)
_ALLERGY_RE = re.compile(
    r"\bI\s+am\s+(?:severely\s+|very\s+|deathly\s+|mildly\s+)?allergic\s+to\s+(?P<rest>.+)"
    r"|\bI\s+have\s+(?:an?\s+)?(?:severe\s+|mild\s+)?(?P<what>[a-z]+(?:\s[a-z]+)?)\s+allergy\b",
    re.I,
)


def attribute(
    clause: Clause, subject: str | None, statement: str, start: int, confidence: float = 0.8
) -> Proposal | None:
    """An attribute proposal; None when the words made no valid ``subject``."""
    if subject is None:
        return None
    return Proposal(
        type=BeliefType.ATTRIBUTE,
        subject=subject,
        statement=statement,
        confidence=confidence,
        temporal=hint(clause.temporal, start),
    )


def _place(text: str) -> str | None:
    """A place or organisation name, trimmed of trailing words that are not part of it."""
    words = text.split()
    while words and (words[-1].lower() in BOUNDARY_WORDS or not is_capitalised(words[-1])):
        if words[-1].lower() == "the" and len(words) == 1:
            break
        words.pop()
    if not words or all(w.lower() in NAME_STOP for w in words):
        return None
    return " ".join(words).rstrip(".,'")


def read_attributes(clause: Clause, reader: MessageReader) -> None:
    for match in clause.find(_MY_NAME_RE):
        name = match.group("name")
        if all(is_name(w) for w in name.split()):
            reader.add(attribute(clause, S.ATTR_NAME, f"User's name is {name}.", match.start()))
    for match in clause.find(_GO_BY_RE):
        name = match.group("name").split()[0]
        if is_name(name):
            reader.add(attribute(clause, S.ATTR_NAME, f"User goes by {name}.", match.start()))
    for match in clause.find(_BIRTHDAY_RE):
        statement = f"User's birthday is {match.group('date')}."
        reader.add(attribute(clause, S.ATTR_BIRTHDAY, statement, match.start()))
    for match in clause.find(_AGE_RE):
        age = match.group("n") or match.group("n2") or match.group("n3") or match.group("n4")
        if 1 <= int(age) <= 120:
            statement = f"User is {age} years old."
            reader.add(attribute(clause, S.ATTR_AGE, statement, match.start()))
    for match in clause.find(_RESIDENCE_RE):
        place = _place(match.group("place"))
        if place:
            # "I live just outside Galway": where they live is near the place, not in it.
            where = " ".join(match.group("near").lower().split()) if match.group("near") else "in"
            statement = f"User lives {where} {place}."
            reader.add(attribute(clause, S.ATTR_RESIDENCE, statement, match.start()))
    for match in clause.find(_ORIGIN_RE):
        phrase = match.group(0)
        if match.group("year"):
            statement = f"User was born in {match.group('year')}."
            reader.add(attribute(clause, S.ATTR_BIRTH_YEAR, statement, match.start()))
            continue
        place = _place(match.group("place"))
        if not place:
            continue
        if re.search(r"grew up|raised", phrase, re.I):
            statement = f"User grew up in {place}."
        elif re.search(r"born", phrase, re.I):
            statement = f"User was born in {place}."
        else:
            statement = f"User is from {place}."
        reader.add(attribute(clause, S.ATTR_ORIGIN, statement, match.start()))
    for match in clause.find(_WORK_AT_RE):
        if match.group("org"):
            org = _place(match.group("org"))
        else:
            generic = value_phrase(match.group("generic"), max_words=3)
            org = f"{match.group('det').lower()} {generic}" if generic else None
        if org:
            statement = f"User works {match.group('prep').lower()} {org}."
            reader.add(attribute(clause, S.ATTR_EMPLOYER, statement, match.start()))
    for match in clause.find(_ROLE_RE):
        _read_role(clause, reader, match)
    for match in clause.find(_ROLE_STATE_RE):
        statement = f"User is {match.group('state').lower()}."
        reader.add(attribute(clause, S.ATTR_OCCUPATION, statement, match.start()))
    for match in clause.find(_DIET_RE):
        statement = f"User is {match.group('diet').lower()}."
        reader.add(attribute(clause, S.ATTR_DIET, statement, match.start()))
    for match in clause.find(_AVOID_FOOD_RE):
        food = match.group("food").lower()
        how = "does not" if match.group("how").lower().startswith("do") else "never"
        verb = match.group("verb").lower()
        verb = verb + "s" if how == "never" else verb
        statement = f"User {how} {verb} {food}."
        subject = S.subject_key("diet", food)
        reader.add(attribute(clause, subject, statement, match.start()))
    for match in clause.find(_ALLERGY_RE):
        if match.group("rest"):
            allergen = clause.value(match.start("rest"), max_words=4)
            allergy = f"User is allergic to {allergen}." if allergen else None
        else:
            allergen = match.group("what")
            allergy = f"User has {S.article(allergen)} {allergen} allergy."
        subject = S.topic_subject_of("allergy", allergen) if allergen else None
        if subject and allergy:
            reader.add(attribute(clause, subject, allergy, match.start()))


def _read_role(clause: Clause, reader: MessageReader, match: re.Match[str]) -> None:
    words = []
    for token in match.group("rest").split():
        bare = token.strip(".,!;:-")
        if bare.lower() in BOUNDARY_WORDS or not bare:
            break
        words.append(bare)
        if bare != token or len(words) == 5:
            break
    heads = [i for i, w in enumerate(words) if S.singular(w.lower()) in S.OCCUPATIONS]
    if not heads:
        return
    role_words = words[: heads[-1] + 1]
    if any(w.lower().endswith("'s") for w in role_words):
        return
    role = " ".join(role_words)
    det = S.article(role)
    reader.add(attribute(clause, S.ATTR_OCCUPATION, f"User is {det} {role}.", match.start(), 0.75))
    after = match.group("rest")[len(" ".join(words[: heads[-1] + 1])) :]
    org_match = re.match(r"\s+(at|for|with)\s+(?P<org>(?:the\s+)?" + _CAP_SEQUENCE + ")", after)
    if org_match:
        org = _place(org_match.group("org"))
        if not org:
            return
        if role_words[-1].lower() == "student":
            statement = f"User studies at {org}."
            subject = S.ATTR_EDUCATION
        else:
            statement = f"User works {org_match.group(1).lower()} {org}."
            subject = S.ATTR_EMPLOYER
        reader.add(attribute(clause, subject, statement, match.start(), 0.75))


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _MY_NAME_RE: "name called named",
        _BIRTHDAY_RE: "birthday",
        _GO_BY_RE: "go call",
        _AGE_RE: "old yo y turned years year yrs yr am",
        _RESIDENCE_RE: "live lived living reside based moved relocated",
        _ORIGIN_RE: "from grew raised born",
        _WORK_AT_RE: "work working worked",
        _ROLE_RE: "a an",
        _ROLE_STATE_RE: "retired unemployed self semi",
        _DIET_RE: (
            "vegetarian vegan pescatarian pescetarian lactose kosher halal teetotal teetotaler"
        ),
        _AVOID_FOOD_RE: "eat drink",
        _ALLERGY_RE: "allergic allergy",
    }
)
