"""Relationships: the people in the owner's life, and their marital status.

"My sister Ana", "Tom is my brother", "I have two kids", "my husband" and "I am
married to Sam" form relationships; a late, former or imaginary relative
forms none, and neither do several people under one name ("my kids Mia and
Leo").
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from ..candidates import TemporalHint
from .attributes import attribute
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .vocabulary import ADV, NAME, WHO, is_name

# Every word of a relative, longest first, as one alternation of an expression.
KIN_WORDS = "|".join(sorted((re.escape(k) for k in S.KIN), key=len, reverse=True))
KIN_MODIFIERS = (
    r"(?:(?P<mod>little|big|older|younger|baby|twin|best|eldest|oldest|youngest|elder|"
    r"teenage|grown-up|adult|newborn|infant|toddler)\s+|"
    r"(?:lovely|wonderful|amazing|beloved|dear|two|three|four)\s+)?"
)
KIN_BLOCKERS = r"(?!(?:late|ex|former|future|deceased|dead|imaginary)\b)"
_KIN_NAMED_RE = re.compile(
    r"\b(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?P<kin>{KIN_WORDS})"
    r"(?:'s\s+name\s+is|\s+is\s+(?:called|named)|,|\s+)\s*" + NAME,
    re.I,
)
# "Maeve, my stepdaughter, just turned twelve."
_NAME_APPOSED_KIN_RE = re.compile(
    r"^" + NAME + r",\s+(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?P<kin>{KIN_WORDS}),",
    re.I,
)
_NAME_IS_KIN_RE = re.compile(
    r"^"
    + NAME
    + r"\s+is\s+(?:my|our)\s+"
    + KIN_BLOCKERS
    + KIN_MODIFIERS
    + rf"(?P<kin>{KIN_WORDS})\b",
    re.I,
)
_HAVE_KIN_RE = re.compile(
    WHO
    + ADV
    + r"(?:have got|have|got)\s+(?P<q>a|an|one|two|three|four|five|six|\d)\s+"
    + KIN_MODIFIERS
    + rf"(?P<kin>{KIN_WORDS})\b"
    r"(?:\s+(?:named|called)\s+" + NAME + r")?",
    re.I,
)
# "... a sister named Ana and a brother named Tom": each relative of a coordination.
_AND_KIN_NAMED_RE = re.compile(
    r"(?:,\s*|\s+)(?:and\s+)?(?P<q>a|an|one)\s+"
    + KIN_MODIFIERS
    + rf"(?P<kin>{KIN_WORDS})\s+(?:named|called)\s+"
    + NAME,
    re.I,
)
# "I have two kids, Sofia and Miguel", "three kids: Ines, Mateo and Clara", "two sons named
# Leo and Max": the names of several relatives of one word.
_NAMES_LIST_RE = re.compile(
    r"^(?:\s*[,:]\s*|\s+(?:named|called)\s+)"
    r"(?P<names>(?-i:[A-Z][\w'-]+)(?:\s*,\s*(?-i:[A-Z][\w'-]+))*\s*,?\s+and\s+"
    r"(?-i:[A-Z][\w'-]+))"
)
_ONE_OF = {
    "children": "child",
    "kids": "child",
    "kid": "child",
    "sons": "son",
    "daughters": "daughter",
    "sisters": "sister",
    "brothers": "brother",
    "grandchildren": "grandchild",
    "grandkids": "grandchild",
}
_MY_KIN_RE = re.compile(
    r"\b(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?P<kin>{KIN_WORDS})(?:'s)?\b",
    re.I,
)
_MARRIED_TO_RE = re.compile(r"\bI\s+am\s+" + ADV + r"(?P<rel>married|engaged)\s+to\s+" + NAME, re.I)
_MARITAL_RE = re.compile(
    r"\bI\s+(?:am|got)\s+" + ADV + r"(?P<status>married|single|divorced|engaged|widowed|"
    r"separated)\b(?!\s+to\b)",
    re.I,
)


def kin_phrase(match: re.Match[str]) -> str:
    """The relative as the owner named them, keeping a telling modifier ("best friend")."""
    kin = match.group("kin").lower()
    modifier = match.group("mod")
    return f"{modifier.lower()} {kin}" if modifier else kin


def _relationship(
    clause: Clause,
    subject: str | None,
    statement: str,
    start: int,
    confidence: float,
    *,
    mention: bool = False,
) -> Proposal | None:
    """A relationship proposal. A relative the clause only mentions ("I'm staying with my
    sister until Sunday") keeps a time the relationship began, never the clause's end:
    they do not stop being a sister when the stay does. None when the words made no valid
    ``subject``."""
    if subject is None:
        return None
    temporal = hint(clause.temporal, start)
    if mention:
        temporal = (
            TemporalHint(phrase=temporal.phrase, valid_from=temporal.valid_from)
            if temporal.valid_from
            else TemporalHint()
        )
    return Proposal(
        type=BeliefType.RELATIONSHIP,
        subject=subject,
        statement=statement,
        confidence=confidence,
        temporal=temporal,
    )


_PLURAL_KIN = frozenset({"children", "siblings", "parents", "grandchildren"})


def _each_named(clause: Clause, reader: MessageReader, match: re.Match[str]) -> None:
    """The relatives a count names, each its own relationship: "two kids, Sofia and Miguel"
    forms a child named Sofia and a child named Miguel, beside "User has two kids."."""
    kin = match.group("kin").lower()
    one = _ONE_OF.get(kin)
    listed = _NAMES_LIST_RE.match(clause.text[match.end("kin") :]) if one else None
    if one is None or listed is None or match.group("q").lower() in {"a", "an", "one"}:
        return
    names = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", listed.group("names"))
    if not all(is_name(name) for name in names):
        return
    for name in names:
        subject = S.subject_key("person", name)
        if subject:
            statement = f"User has {S.article(one)} {one} named {name}."
            reader.add(_relationship(clause, subject, statement, match.start(), 0.75))


# A relative who wishes or plans something exists ("My son wants a puppy"), whatever the wish;
# the owner's own wish about one ("I wish my husband were here") says nothing of the kind.
RELATIVE_WISHES_RE = re.compile(
    r"^(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?:{KIN_WORDS})"
    r"(?:\s+(?-i:[A-Z][\w'-]+))?\s+(?:really\s+)?(?:wants|would like|wishes|hopes|is hoping|"
    r"plans|is planning|needs|would love)\b",
    re.I,
)
_NEXT_WORD_RE = re.compile(r"\s+([\w-]+)")


def _brand(text: str, match: re.Match[str]) -> bool:
    """Whether the relative's word is a brand's: capitalised before a thing of the lexicon
    ("a Brother printer")."""
    kin = match.group("kin")
    following = _NEXT_WORD_RE.match(text, match.end("kin"))
    return (
        kin[0].isupper() and following is not None and S.word_kind(following.group(1)) is not None
    )


def read_relationships(clause: Clause, reader: MessageReader) -> None:
    text = clause.text
    mentioned = set()

    def named(match: re.Match[str], *, mention: bool = True) -> None:
        kin = match.group("kin").lower()
        if S.KIN[kin] in _PLURAL_KIN or (kin.endswith("s") and S.KIN[kin] != kin):
            # "my kids Mia and Leo": several people, no single named relative.
            return
        names = [n[:-2] if n.endswith("'s") else n for n in match.group("name").split()]
        if not is_name(names[0]):
            return
        name = " ".join(names) if len(names) > 1 and is_name(names[1]) else names[0]
        subject = S.subject_key("person", name)
        if subject:
            mentioned.add(S.KIN[kin])
            phrase = kin_phrase(match)
            statement = f"User has {S.article(phrase)} {phrase} named {name}."
            reader.add(
                _relationship(clause, subject, statement, match.start(), 0.8, mention=mention)
            )

    for match in clause.find(_KIN_NAMED_RE):
        named(match)
    name_is_kin = _NAME_IS_KIN_RE.match(text) or _NAME_APPOSED_KIN_RE.match(text)
    if name_is_kin:
        named(name_is_kin)
    for match in clause.find(_HAVE_KIN_RE):
        if _brand(text, match):
            continue
        if match.group("kin").lower() in _ONE_OF:
            _each_named(clause, reader, match)
        if match.group("name") and match.group("kin").lower() not in _ONE_OF:
            named(match, mention=False)
            end = match.end()
            while more := _AND_KIN_NAMED_RE.match(text, end):
                named(more, mention=False)
                end = more.end()
            continue
        key = S.KIN[match.group("kin").lower()]
        phrase = kin_phrase(match)
        quantity = match.group("q").lower()
        if quantity in {"a", "an", "one"}:
            statement = f"User has {S.article(phrase)} {phrase}."
        else:
            statement = f"User has {quantity} {phrase}."
        mentioned.add(key)
        subject = S.subject_key("relationship", key)
        reader.add(_relationship(clause, subject, statement, match.start(), 0.75))
    for match in clause.find(_MY_KIN_RE):
        kin = match.group("kin").lower()
        key = S.KIN[kin]
        if key not in S.CLOSE_KIN or key in mentioned or _brand(text, match):
            continue
        phrase = kin_phrase(match)
        plural = (key in _PLURAL_KIN and kin not in {"child", "kid"}) or (
            kin.endswith("s") and kin != key
        )
        statement = f"User has {phrase}." if plural else f"User has {S.article(phrase)} {phrase}."
        mentioned.add(key)
        subject = S.subject_key("relationship", key)
        reader.add(_relationship(clause, subject, statement, match.start(), 0.6, mention=True))
    for match in clause.find(_MARRIED_TO_RE):
        name = match.group("name").split()[0]
        subject = S.subject_key("person", name) if is_name(name) else None
        if subject:
            statement = f"User is {match.group('rel').lower()} to {name}."
            reader.add(_relationship(clause, subject, statement, match.start(), 0.8))
    for match in clause.find(_MARITAL_RE):
        statement = f"User is {match.group('status').lower()}."
        reader.add(attribute(clause, S.ATTR_MARITAL_STATUS, statement, match.start(), 0.75))


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _KIN_NAMED_RE: " ".join(S.KIN),
        _HAVE_KIN_RE: " ".join(S.KIN),
        _MY_KIN_RE: " ".join(S.KIN),
        _MARRIED_TO_RE: "married engaged",
        _MARITAL_RE: "married single divorced engaged widowed separated",
    }
)
