"""Ownership: what the owner has, and what they no longer have.

"I have an Apple Watch and a BMW X3", "my dog Biscuit", "I adopted a cat named
Luna" form positive ownership; "I sold my BMW", "I gave the dog away", "I no
longer have a car" and "my bike was stolen" retract a thing the owner is known
to have. Someone else's thing ("my sister's car") is never the owner's.
"""

import re

from memory.enums import BeliefType, Polarity

from .. import subjects as S
from .reading import Proposal, hint, triggers
from .things import noun_phrases
from .vocabulary import ADV, WHO, is_capitalised, is_name

_OWN_RE = re.compile(
    WHO + ADV + r"(?P<verb>have got|have|got|own|bought|purchased|picked up|adopted|rescued|"
    r"inherited|built|drive|ride)\s+",
    re.I,
)
_OWN_VERBS_NEEDING_LEXICON = frozenset({"have", "have got", "own", "drive", "ride"})
_POSSESSIVE_RE = re.compile(r"\b(?:my|our)\s+", re.I)
# "I have two kids and a dog": a later item of the same verb, after one that
# is not a thing the owner has.
_LATER_ITEM_RE = re.compile(r"(?:,\s*|\s+)and\s+(?=(?:a|an|two|three|four|\d+)\s)", re.I)
_POSSESSIVE_KINDS = frozenset({"device", "vehicle", "pet", "instrument"})
_APPOSED_NAME_RE = re.compile(r"(?-i:\b([A-Z][\w'-]+)),\s*$")
_RETRACT_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?P<verb>sold|gave away|given away|got rid of|gotten rid of|"
    r"traded in|traded|swapped|donated|scrapped|returned|replaced|sold off|gave up)\s+",
    re.I,
)
_GAVE_RE = re.compile(WHO + ADV + r"(?:have\s+)?(?:gave|given)\s+(?=(?:my|our|the)\s)", re.I)
_NO_LONGER_RE = re.compile(
    WHO + r"(?P<how>no longer|do not|did not|used to)\s+(?:have|own|drive|ride|have got)\s+",
    re.I,
)
# Someone else parting with the owner's thing ("my dad sold my BMW") says the
# owner no longer has it; such a possessive is never a positive claim.
_LOST_BY_OTHERS_RE = re.compile(
    r"\b(?:sold|gave away|got rid of|traded in|traded|donated|scrapped|returned|stole|"
    r"crashed|wrecked|totaled|totalled)\s+(?:my|our)\s+",
    re.I,
)
_ANYMORE_RE = re.compile(r"\b(?:anymore|any more|any longer)\b", re.I)
_LOST_THING_RE = re.compile(
    r"\s+(?:was|got|has been|were|have been)\s+(?:stolen|totaled|totalled|written off|"
    r"repossessed|sold|given away)\b",
    re.I,
)
_PET_GONE_RE = re.compile(
    r"\s+(?:died|passed away|passed|was put down|was put to sleep|ran away)\b", re.I
)
_EXCHANGE_RE = re.compile(r"^\s+(?:for|with)\s+", re.I)


def _ownership_statement(phrase):
    thing = phrase.text
    if phrase.kind == "pet":
        if phrase.quantity:
            return f"User has {phrase.quantity} {thing}."
        if S.is_plural(phrase.words):
            return f"User has {thing}."
        if phrase.name:
            return f"User has {S.article(thing)} {thing} named {phrase.name}."
        return f"User has {S.article(thing)} {thing}."
    if phrase.quantity:
        return f"User owns {phrase.quantity} {thing}."
    if S.is_plural(phrase.words):
        return f"User owns {thing}."
    return f"User owns {S.article(thing)} {thing}."


def _ownership_subject(phrase):
    if phrase.kind == "pet" and phrase.name:
        return S.subject_key("pet", phrase.name)
    words = list(phrase.words)
    head = words[-1]
    if not is_capitalised(head) and head.lower() not in S.PLURAL_NOUNS:
        # "two cats" and "a cat" are one subject.
        words[-1] = S.singular(head.lower())
    return S.subject_key(phrase.kind, " ".join(words))


def _owned(clause, phrase, confidence, near):
    subject = _ownership_subject(phrase)
    if subject is None or phrase.blocked:
        return None
    tokens = S.entity_tokens(phrase.text + " " + phrase.name)
    return Proposal(
        type=BeliefType.OWNERSHIP,
        subject=subject,
        statement=_ownership_statement(phrase),
        confidence=confidence,
        temporal=hint(clause.temporal, near),
        tokens=frozenset(tokens),
    )


def read_ownership(clause, reader):
    text = clause.text
    for match in clause.find(_OWN_RE):
        verb = match.group("verb").lower()
        phrases, _ = noun_phrases(
            text[match.end() :],
            allow_unknown=verb not in _OWN_VERBS_NEEDING_LEXICON,
            determiner_required=True,
        )
        for phrase in phrases:
            if phrase.kind == "home" and verb not in {"own", "bought", "purchased", "inherited"}:
                continue
            proposal = _owned(clause, phrase, 0.8, match.start())
            if proposal:
                reader.add(proposal)
        for joint in _LATER_ITEM_RE.finditer(text, match.end()):
            phrases, _ = noun_phrases(text[joint.end() :], determiner_required=True)
            for phrase in phrases:
                if phrase.kind == "home":
                    continue
                proposal = _owned(clause, phrase, 0.75, match.start())
                if proposal:
                    reader.add(proposal)
    for match in clause.find(_POSSESSIVE_RE):
        phrases, _ = noun_phrases(text[match.end() :])
        apposed = _APPOSED_NAME_RE.search(text, 0, match.start())
        for phrase in phrases:
            if phrase.kind not in _POSSESSIVE_KINDS:
                continue
            if phrase.kind == "pet" and not phrase.name and apposed and is_name(apposed[1]):
                # "Oscar, my guinea pig": the name comes first.
                phrase.name = apposed[1]
            proposal = _owned(clause, phrase, 0.7, match.start())
            if proposal:
                reader.add(proposal)


def _retract(clause, reader, phrase, near):
    mentioned = S.entity_tokens(phrase.text + " " + phrase.name)
    if not mentioned:
        return
    reader.retracted_mentions.append(frozenset(mentioned))
    subject = reader.owned.resolve(mentioned)
    if subject is None:
        # Nothing the owner has matches, or several things do: no proposal.
        return
    thing = phrase.text
    if phrase.kind == "pet":
        named = f" named {phrase.name}" if phrase.name else ""
        statement = f"User no longer has {S.article(thing)} {thing}{named}."
    elif S.is_plural(phrase.words) or phrase.quantity:
        statement = f"User no longer owns {thing}."
    else:
        statement = f"User no longer owns {S.article(thing)} {thing}."
    reader.add_negative(
        Proposal(
            type=BeliefType.OWNERSHIP,
            subject=subject,
            statement=statement,
            polarity=Polarity.NEGATIVE,
            confidence=0.8,
            temporal=hint(clause.temporal, near),
        )
    )


def read_retractions(clause, reader):
    text = clause.text
    for match in clause.find(_RETRACT_RE):
        rest = text[match.end() :]
        phrases, end = noun_phrases(rest, allow_unknown=True)
        for phrase in phrases:
            _retract(clause, reader, phrase, match.start())
        exchange = _EXCHANGE_RE.match(rest[end:]) if phrases else None
        if exchange:
            gained, _ = noun_phrases(rest[end + exchange.end() :], determiner_required=True)
            for phrase in gained:
                proposal = _owned(clause, phrase, 0.7, match.start())
                if proposal:
                    reader.add(proposal)
    for match in clause.find(_GAVE_RE):
        rest = text[match.end() :]
        phrases, end = noun_phrases(rest)
        if phrases and re.match(r"\s+(?:away|to)\b", rest[end:], re.I):
            for phrase in phrases:
                _retract(clause, reader, phrase, match.start())
    for match in clause.find(_LOST_BY_OTHERS_RE):
        phrases, _ = noun_phrases(text[match.end() :], allow_unknown=True)
        for phrase in phrases:
            reader.retracted_mentions.append(
                frozenset(S.entity_tokens(phrase.text + " " + phrase.name))
            )
    for match in clause.find(_NO_LONGER_RE):
        how = match.group("how").lower()
        if how in {"do not", "did not"} and not _ANYMORE_RE.search(text, match.end()):
            continue
        phrases, _ = noun_phrases(text[match.end() :], allow_unknown=True)
        for phrase in phrases:
            _retract(clause, reader, phrase, match.start())
    for match in clause.find(_POSSESSIVE_RE):
        phrases, end = noun_phrases(text[match.end() :], allow_unknown=False)
        if not phrases:
            continue
        after = text[match.end() + end :]
        gone = _LOST_THING_RE.match(after) or (
            phrases[-1].kind == "pet" and _PET_GONE_RE.match(after)
        )
        if gone:
            for phrase in phrases:
                _retract(clause, reader, phrase, match.start())


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _OWN_RE: "have got own bought purchased picked adopted rescued inherited built drive ride",
        _POSSESSIVE_RE: "my our",
        _RETRACT_RE: "sold gave given rid traded swapped donated scrapped returned replaced",
        _GAVE_RE: "gave given",
        _NO_LONGER_RE: "longer not used",
        _LOST_BY_OTHERS_RE: (
            "sold gave rid traded donated scrapped returned stole crashed wrecked totaled totalled"
        ),
    }
)
