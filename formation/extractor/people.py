"""Other people's needs: what the owner's plans must respect for a relative's, a friend's or a
colleague's sake.

"My daughter is allergic to peanuts" is about the daughter: it forms "User's daughter is
allergic to peanuts." under the subject of that person (``person:daughter``; with a name,
``person:ana``), never anything of the owner's. The statement keeps the owner's words for the
person and the predicate whole. A clause read here is the person's own: the sentence was cut
where the person's verb began (``text.clauses``), so nothing the owner says of themselves in it
comes along.

Of other people Reverie keeps, by itself, only the relationship (``relationships``, ``family``)
and such needs (``formation.needs``: why, and the rule every proposer is held to).

A negation or doubt ("is not allergic", "might be coeliac"), a possessive of the person ("my
sister's dog is allergic to chicken"), a late, former or imaginary relative, several people
under one word ("my kids are vegan") and a predicate naming the owner or the assistant form
nothing.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from ..needs import NEED_RE
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .relationships import KIN_BLOCKERS, KIN_MODIFIERS, KIN_WORDS, kin_phrase
from .vocabulary import is_name

# A need opens with the present of be, have, use or keep.
_VERB = r"(?P<verb>is|are|has|have|uses|use|keeps|keep)"
_ADVERBS = r"(?P<adv>(?:(?:also|still|now)\s+){0,2})"
_PERSON_FACT_RE = re.compile(
    r"^(?:[^,]{0,40},\s+)?(?:my|our)\s+" + KIN_BLOCKERS + KIN_MODIFIERS + rf"(?P<kin>{KIN_WORDS})"
    r"(?:,?\s+(?-i:(?P<name>[A-Z][\w'-]+))(?:,)?)?\s+"
    + _ADVERBS
    + _VERB
    + r"\s+(?P<rest>.+?)\s*[.!]*$",
    re.I,
)
# "Orla, my flatmate, is vegetarian."
_NAME_APPOSITIVE_RE = re.compile(
    r"^(?-i:(?P<name>[A-Z][\w'-]+)),\s+(?:my|our)\s+"
    + KIN_BLOCKERS
    + KIN_MODIFIERS
    + rf"(?P<kin>{KIN_WORDS}),\s+"
    + _ADVERBS
    + _VERB
    + r"\s+(?P<rest>.+?)\s*[.!]*$",
    re.I,
)
_POSSESSIVE_KIN_RE = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN_WORDS})'s\b", re.I)
# Negation and doubt, and the owner or the assistant in the predicate.
_NOT_A_FACT_RE = re.compile(
    r"\b(?:not|never|no longer|nothing|anything|you|your|me|my|mine|myself|I|us|our|maybe|"
    r"perhaps|probably|possibly|apparently|supposedly|might|may)\b",
    re.I,
)


def _fact(match: re.Match[str], clause: Clause, reader: MessageReader) -> None:
    kin = match.group("kin").lower()
    key = S.KIN[kin]
    if key in {"children", "siblings", "parents", "grandchildren"} or (
        kin.endswith("s") and kin != key
    ):
        # "My kids are vegan": several people under one word, no one person's need.
        return
    verb, rest = match.group("verb"), match.group("rest").strip().rstrip(",;:")
    if not NEED_RE.match(f"{verb} {rest}") or _NOT_A_FACT_RE.search(rest):
        return
    name = match.group("name")
    if name is not None and not is_name(name):
        name = None
    subject = S.subject_key("person", name if name else key)
    if subject is None:
        return
    predicate = " ".join([*match.group("adv").split(), verb, rest])
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
    """Another person's need, when the clause is that person's: "My son is allergic to sesame",
    "Orla, my flatmate, is vegetarian"."""
    if _POSSESSIVE_KIN_RE.search(clause.text):
        # "My sister's dog is allergic to chicken": the dog's need, not the sister's.
        return
    for pattern in (_PERSON_FACT_RE, _NAME_APPOSITIVE_RE):
        match = next(iter(clause.find(pattern)), None)
        if match:
            _fact(match, clause, reader)
            return


triggers({_PERSON_FACT_RE: " ".join(S.KIN), _NAME_APPOSITIVE_RE: " ".join(S.KIN)})
