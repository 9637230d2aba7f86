"""Grounding: a model's proposal stands only on what one clause of a cited message says.

A clause is a sentence of a cited message. The one that covers the most of the
proposal is its clause, and every check is against that clause alone, never the
rest of the message or another message:

- every content word of the subject's entity and of the statement (names
  whatever their case included) is a word of the clause, compared by their
  Porter stems as recall compares words; stopwords, "User" and a closed list
  of the statement templates' own words ("named", "no longer owns") aside;
- every number of the statement is a number of the clause;
- a negative proposal needs the clause to say that something ended ("sold",
  "quit", "moved out", "don't ... anymore"), not negated ("didn't sell");
- a clause that asks, supposes or plans ("should I sell the BMW?", "if I move",
  "thinking about whether", "maybe I'll") grounds neither a negative proposal
  nor one that would replace a memory the owner already has.

Grounding does not make a proposal true; it keeps a model from adding people,
places, figures or claims that the clause does not say. Pure functions of text.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from memory.stemming import stem
from memory.text import STOPWORDS, words

# Sentences: a dash or a semicolon joins what one sentence says ("I went to London
# a few years ago - it was like walking into a film").
_CLAUSE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# The statement templates' own words, which a clause need not say: the owner, the
# name a thing is given, and the negative templates' "no longer owns" for "sold".
_TEMPLATE_WORDS = frozenset({"named", "called", "own", "owns", "longer", "anymore"})
# What a negative proposal says no longer holds ("User no longer lives in Lyon" for
# "we moved out of Lyon"): the ending cue the clause must hold stands for it.
_NEGATED_STATES = frozenset(
    {"live", "lives", "work", "works", "use", "uses", "drive", "drives", "keep", "keeps"}
)
# The pieces contractions leave ("doesn't" -> "doesn"): negation, which the
# polarity and the ending cue speak for.
_CONTRACTED = frozenset(
    "don doesn didn isn aren wasn weren won wouldn can couldn shouldn hasn haven hadn ain".split()
)

_NEGATION = r"(?:\bnot\b|n't\b|\bnever\b|\bno longer\b)"
# Any form of a verb of parting or ending: after a negation ("didn't sell", "never
# quit") the clause says it did not end.
_ENDING_VERB = (
    r"(?:sell\w*|sold|give\w*|gave|get\w*|got|quit\w*|stop\w*|leav\w*|left|mov\w*|"
    r"los[et]\w*|end\w*|cancel\w*|retir\w*|drop\w*|donat\w*|return\w*|trad\w*|break\w*|"
    r"broke|split\w*|divorc\w*|replac\w*|switch\w*)"
)
_NEGATED_ENDING = re.compile(_NEGATION + r"\s+(?:\w+\s+)?" + _ENDING_VERB)
# Only words that end something whatever follows: not "left" ("left the car at my
# mum's"), "moved" ("moved the car to the garage") or "returned" ("returned from Rome").
_ENDING_CUE = re.compile(
    _NEGATION + r"|\b(?:no more|anymore|any more|none|used to|former(?:ly)?|ex-|"
    r"sold|gave|given|got rid|quit|stopped|ended|moved out|moved away|broke up|split up|"
    r"divorced|lost|passed away|died|ran away|retired|cancell?ed|traded|donated|"
    r"totall?ed|wrecked|stolen|uninstalled|unsubscribed|deleted)\b"
)
# Questions, conditions, suppositions and plans: the clause says what might be.
# Matched case-sensitively once the clause's first letter is lowered, so that "in
# May" and a friend called Will are not modals.
_NOT_ASSERTED = re.compile(
    r"\?\s*$|\b(?:if|unless|whether|in case|suppose|supposing|imagine|what if|might|maybe|"
    r"perhaps|possibly|probably|could|would|should|may|wonder\w*|thinking (?:about|of)|"
    r"think about|consider\w*|plan|plans|planning|planned to|going to|gonna|about to|"
    r"intend\w*|want to|wants to|hope to|hoping to|wish|someday|one day|eventually|"
    r"will|tempted)\b|'ll\b"
)


@dataclass(frozen=True)
class _Clause:
    text: str
    stems: frozenset[str]
    numbers: frozenset[str]


def _pieces(text: str) -> Iterator[str]:
    """Lower-case word pieces of ``text``, split at apostrophes, single letters dropped."""
    for word in words(text):
        for piece in re.split(r"['’]", word):
            if len(piece) > 1:
                yield piece


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(piece) for piece in _pieces(text))


def clauses(text: str | None) -> list[str]:
    """The clauses of ``text`` that grounding reads, with their closing punctuation."""
    return [part.strip() for part in _CLAUSE_BREAK.split(text or "") if part.strip()]


def _wanted(statement: str, *, negative: bool) -> list[str]:
    exempt = _TEMPLATE_WORDS | (_NEGATED_STATES if negative else frozenset())
    wanted: list[str] = []
    for piece in _pieces(statement):
        if piece in STOPWORDS or piece in _CONTRACTED or piece in exempt or piece.isdigit():
            continue
        stemmed = stem(piece)
        if stemmed not in wanted:
            wanted.append(stemmed)
    return wanted


def _entity_stems(subject: str) -> list[str]:
    entity = subject.split(":", 1)[-1]
    return [
        stem(word)
        for word in re.split(r"[^a-z0-9]+", entity.lower())
        if word and word not in STOPWORDS
    ]


def _best_clause(cited_texts: Iterable[str], wanted: list[str]) -> _Clause | None:
    best: _Clause | None = None
    best_score = -1
    for text in cited_texts:
        for part in clauses(text):
            clause = _Clause(part, _stems(part), frozenset(_NUMBER.findall(part)))
            score = sum(word in clause.stems for word in wanted)
            if score > best_score:
                best, best_score = clause, score
    return best


def says_an_ending(clause: str) -> bool:
    """Whether ``clause`` says something ended or is not so, rather than that it did not end."""
    text = _NEGATED_ENDING.sub(" ", clause.lower().replace("’", "'"))
    return bool(_ENDING_CUE.search(text))


def is_asserted(clause: str) -> bool:
    """Whether ``clause`` states something, rather than asking, supposing or planning it."""
    text = clause.strip().replace("’", "'")
    return not _NOT_ASSERTED.search(text[:1].lower() + text[1:])


def says_nothing_more(statement: str, other: str) -> bool:
    """Whether ``statement`` says nothing ``other`` does not: each of its content words
    and numbers is one of ``other``'s ("User has a sister named Ana." of "User's sister
    Ana lives in Lisbon.")."""
    numbers = set(_NUMBER.findall(other))
    stems = _stems(other)
    return all(word in stems for word in _wanted(statement, negative=False)) and all(
        number in numbers for number in _NUMBER.findall(statement)
    )


def grounding_failure(
    *,
    subject: str,
    statement: str,
    cited_texts: Iterable[str],
    negative: bool = False,
    replaces: bool = False,
) -> str:
    """Why the proposal is not grounded in one clause of ``cited_texts`` (a reason code), or "".

    ``negative``: the proposal says something no longer holds. ``replaces``: it would
    take the place of a memory the owner has under its subject.
    """
    entity = _entity_stems(subject)
    wanted = _wanted(statement, negative=negative)
    clause = _best_clause(cited_texts, entity + wanted)
    if clause is None or not entity or not all(word in clause.stems for word in entity):
        return "ungrounded_subject"
    if not all(word in clause.stems for word in wanted):
        return "ungrounded_claim"
    if any(number not in clause.numbers for number in _NUMBER.findall(statement)):
        return "ungrounded_claim"
    if negative and not says_an_ending(clause.text):
        return "no_ending"
    if (negative or replaces) and not is_asserted(clause.text):
        return "not_asserted"
    return ""
