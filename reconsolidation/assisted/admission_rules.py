"""Which differently worded beliefs a model may even be asked to merge. Pure functions of text.

A model can judge that "User's dog is called Pepper" and "User has a dog named
Pepper" say one thing; it must never get the chance to merge claims that
differ in what a false merge would lose. So a pair is a candidate only when
everything but the wording already agrees (subject, type, polarity, scope,
sensitivity, validity window: the block) and the words a meaning hangs on
agree too: the same names and numbers, the same negations, qualifiers,
stances and tense markers, the same names in the same order ("Noor visited
Tariq" is not "Tariq visited Noor"), and the same tense; no two predicates
that contrast ("owns" and "sold", "trusts" and "distrusts", "works" and
"volunteers"); and one opening says the same of one object ("takes honey in
their tea" is not "takes milk in their tea"). A pair that fails is a local
exclusion: the provider never sees it as a candidate and no verdict of its
can merge it.
"""

import re
from collections.abc import Iterable

from memory.text import STOPWORDS, words
from reconsolidation.planners.claim_parts import ClaimParts, claim_parts, contrast

_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# The owner, as every statement names them: an anchor of order when it is an
# actor ("User visited Tariq"), not when it is a possessive ("User's dog").
_OWNER = "user"
_OWNER_WORDS = frozenset({"user", "user's", "users", "user’s"})
_ACTOR = re.compile(r"\buser\b(?!['’]s)", re.IGNORECASE)
_NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve twenty thirty "
    "hundred thousand million first second third fourth fifth once twice thrice half "
    "dozen couple both single double triple".split()
)
# Words that turn a claim into another claim: negations, qualifiers of
# frequency, certainty and extent, modality, and the markers of time.
_MARKERS = frozenset(
    "not no never none nobody nothing nowhere neither nor without n't cannot can't don't "
    "doesn't didn't won't isn't aren't wasn't weren't hasn't haven't hadn't "
    "sometimes often always usually rarely seldom occasionally mostly mainly barely hardly "
    "maybe perhaps probably possibly likely unlikely might may could would should must will "
    "shall can almost nearly only just still yet anymore longer again ever "
    "former formerly previously ex used was were had did been ago soon next last "
    "currently now today tomorrow yesterday new old "
    "very more most less least too".split()
)
# Stances: "likes" and "hates" are the whole claim.
_STANCES = frozenset(
    "like likes liked love loves loved hate hates hated dislike dislikes disliked prefer "
    "prefers preferred enjoy enjoys enjoyed avoid avoids avoided want wants wanted need "
    "needs needed fear fears feared miss misses missed regret regrets regretted".split()
)
_PAST_MARKERS = frozenset({"was", "were", "had", "did", "used", "ago", "formerly", "previously"})
# Content words shared, at least, for the pair to be worth asking about.
MIN_OVERLAP = 0.34

# Names, numbers, number words, qualifiers, stances, and whether it speaks of the past.
Anchors = tuple[
    tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], bool
]


def _names(statement: str) -> list[str]:
    return [
        match.group(0).casefold()
        for match in _CAPITALISED.finditer(statement)
        if match.group(0).casefold() not in STOPWORDS | _OWNER_WORDS
    ]


def _order(statement: str) -> tuple[str, ...]:
    """Names and the owner as an actor, in the order the statement says them."""
    names = set(_names(statement))
    spans = [
        (match.start(), match.group(0).casefold())
        for match in _CAPITALISED.finditer(statement)
        if match.group(0).casefold() in names
    ] + [(match.start(), _OWNER) for match in _ACTOR.finditer(statement)]
    return tuple(token for _, token in sorted(spans))


def _past(tokens: Iterable[str]) -> bool:
    return any(
        token in _PAST_MARKERS or (len(token) > 4 and token.endswith("ed")) for token in tokens
    )


def anchors(statement: str) -> Anchors:
    """What must agree between two wordings of one claim, in a comparable form."""
    tokens = words(statement)
    return (
        tuple(sorted(_names(statement))),
        tuple(sorted(_NUMBER.findall(statement))),
        tuple(sorted(t for t in tokens if t in _NUMBER_WORDS)),
        tuple(sorted(t for t in tokens if t in _MARKERS)),
        tuple(sorted(t for t in tokens if t in _STANCES)),
        _past(tokens),
    )


def _same_order(first: str, second: str) -> bool:
    """Whether the names and actors both statements have come in the same order in each: the
    owner may be an actor in one wording and a possessor in the other ("User has a dog
    called Pepper", "User's dog is called Pepper"), never swap places with a name."""
    a, b = _order(first), _order(second)
    common = set(a) & set(b)
    return [t for t in a if t in common] == [t for t in b if t in common]


def _content(statement: str) -> set[str]:
    return {word for word in words(statement) if word not in STOPWORDS | _OWNER_WORDS}


def overlap(first: str, second: str) -> float:
    """Jaccard overlap of the two statements' content words."""
    a, b = _content(first), _content(second)
    return len(a & b) / len(a | b) if a | b else 0.0


def _other_objects(first: ClaimParts, second: ClaimParts) -> bool:
    """Whether two statements that open alike ("User takes") go on to different objects:
    each holds a content word the other lacks."""
    return (
        bool(first.opening)
        and first.opening == second.opening
        and bool(first.objects - second.objects)
        and bool(second.objects - first.objects)
    )


def exclusion(first: str, second: str) -> str:
    """Why two differently worded statements of one block may not be merged by a model
    (a closed reason code), or "" when a model may be asked."""
    if anchors(first) != anchors(second):
        return "anchors_differ"
    if not _same_order(first, second):
        return "order_differs"
    first_parts, second_parts = claim_parts(first), claim_parts(second)
    if contrast(first_parts, second_parts):
        return "contrasting_predicates"
    if _other_objects(first_parts, second_parts):
        return "objects_differ"
    if overlap(first, second) < MIN_OVERLAP:
        return "unrelated"
    return ""
