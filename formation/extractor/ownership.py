"""Ownership: what the owner has, and what they no longer have.

"I have an Apple Watch and a BMW X3", "my dog Biscuit", "I adopted a cat named
Luna" form positive ownership; "I sold my BMW", "I gave the dog away", "I no
longer have a car", "my bike was stolen" and "my iPad died and I threw it out"
retract a thing: the one the owner is known to have, or, when none is known
and the words leave no doubt, the thing under the subject its positive claim
would have. Someone else's thing ("my sister's car") is never the owner's.
"""

import re

from memory.enums import BeliefType, Polarity

from .. import subjects as S
from .events import QUALIFICATION
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .things import NounPhrase, noun_phrases
from .vocabulary import ADV, BOUNDARY_WORDS, NAME, WHO, is_capitalised, is_name

_OWN_RE = re.compile(
    WHO + ADV + r"(?P<verb>have got|have|got|own|bought|purchased|picked up|adopted|rescued|"
    r"inherited|built|drive|ride)\s+",
    re.I,
)
_QUALIFICATION_RE = re.compile(QUALIFICATION, re.I)
# "My home office has an Epson projector and a Brother printer": what the owner's own rooms
# hold, things of the lexicon only.
_ROOM_HAS_RE = re.compile(
    r"\b(?:my|our)\s+(?:home\s+)?(?:office|house|home|flat|apartment|garage|kitchen|studio|"
    r"living\s+room|bedroom|desk|study)\s+(?:has|has got|is equipped with)\s+",
    re.I,
)
_OWN_VERBS_NEEDING_LEXICON = frozenset({"have", "have got", "own", "drive", "ride"})
# Things that came to the owner from someone: "my grandmother left me her sewing machine",
# "my neighbour gave me her old bike", "I was given a Wacom tablet". What is left to someone
# is an heirloom whatever it is; what is given may be a hug or a hard time, so only a thing
# of the lexicon counts.
_GIVEN_RE = re.compile(
    r"\b(?P<verb>left|bequeathed|gave|handed down|passed down|passed on)\s+(?:me|us)\s+"
    r"(?:(?P<their>his|her|their)\s+)?"
    r"|" + WHO + ADV + r"(?:was|were|got|have been|had been)\s+(?P<given>given|gifted)\s+",
    re.I,
)
_THEIR_RE = re.compile(r"(?P<joint>,|\s+and)\s+(?:his|her|their)\s+", re.I)
# "We adopted a rescue greyhound called Pip": an animal adopted under a name is a pet, known
# to the lexicon or not; how it came ("rescue", "shelter") is no part of what it is.
_ADOPTED_NAMED_RE = re.compile(
    WHO + ADV + r"(?:adopted|rescued|took in|brought home)\s+(?:a|an)\s+"
    r"(?P<words>(?:[a-z][a-z-]*\s+){1,3}?)(?:called|named)\s+" + NAME,
    re.I,
)
# "We brought home Tripod, a three-legged cat from the shelter": the name first, then what it is.
_ADOPTED_NAME_FIRST_RE = re.compile(
    WHO + ADV + r"(?:adopted|rescued|took in|brought home)\s+" + NAME + r",\s+(?:a|an)\s+"
    r"(?P<phrase>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3})",
    re.I,
)
_HOW_ADOPTED = frozenset({"rescue", "shelter", "stray", "little", "sweet", "new"})
_LEFT_TO_THE_OWNER = frozenset({"left", "bequeathed", "handed down", "passed down", "passed on"})
# What is left someone that is no thing they own ("left me a message").
_NOT_HEIRLOOMS = frozenset(
    "message voicemail note text comment review tip call reply lift ride chance".split()
)
_POSSESSIVE_RE = re.compile(r"\b(?:my|our)\s+", re.I)
# "I have two kids and a dog": a later item of the same verb, after one that
# is not a thing the owner has.
_LATER_ITEM_RE = re.compile(r"(?:,\s*|\s+)and\s+(?=(?:a|an|two|three|four|\d+)\s)", re.I)
_POSSESSIVE_KINDS = frozenset({"device", "vehicle", "pet", "instrument"})
_APPOSED_NAME_RE = re.compile(r"(?-i:\b([A-Z][\w'-]+)),\s*$")
_RETRACT_RE = re.compile(
    WHO
    + ADV
    + r"(?:have\s+"
    + ADV
    + r")?(?P<verb>sold off|sold|gave away|given away|got rid of|gotten rid of|"
    r"traded in|traded|swapped|donated|scrapped|returned|replaced|gave up|threw out|threw away|"
    r"thrown out|thrown away|recycled|rehomed|pawned)\s+",
    re.I,
)
# "I gave my Kindle to my niece", "I threw my Fitbit away".
_PARTICLE_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?P<verb>gave|given|threw|thrown)\s+(?=(?:my|our|the|it|them)\b)",
    re.I,
)
_PARTICLES = {
    "gave": ("to", "away"),
    "given": ("to", "away"),
    "threw": ("out", "away"),
    "thrown": ("out", "away"),
}
# "out the window" is where a thing went, not that it was thrown out.
_PARTICLE_AFTER_RE = re.compile(
    r"\s+(?P<particle>to|away|out(?!\s+(?:the|of|into|onto|at|across|over)\b))\b", re.I
)
_TRADED_IN_RE = re.compile(r"\s+in\b", re.I)
# Saying it is theirs no longer, in so many words; what they no longer drive
# or ride ("I don't ride my bike anymore") they may still own.
_NO_LONGER_RE = re.compile(
    WHO + r"(?P<how>no longer|do not|did not|used to)\s+"
    r"(?P<verb>have got|have|own|drive|ride)\s+",
    re.I,
)
_NO_LONGER_OWNED = frozenset({"have", "have got", "own"})
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
    r"\s+(?:(?P<gone>died|passed away|was put down|was put to sleep)|passed|ran away)\b", re.I
)
_EXCHANGE_RE = re.compile(r"^\s+(?:in\s+)?(?:for|with)\s+", re.I)

# -- what retracts a thing nobody said the owner has --------------------------------
#
# A retraction of a thing the owner is known to have takes that thing's subject.
# One of a thing not known stands on its own, under the subject the positive
# claim would have had ("I own a Toyota Corolla" and "I sold my Toyota Corolla"
# share ``vehicle:toyota-corolla``), when nothing in it leaves room for doubt:
#
# - the verb says the owner parted with it for good. "returned" (often what was
#   borrowed or rented), "gave up" (often a pastime: "I gave up my guitar"),
#   "replaced", "traded" or "swapped" without what took its place ("I replaced
#   my phone screen"), giving it "to" anyone but a person or a charity ("to the
#   mechanic"), no longer driving or riding it, and a pet that "ran away" (it
#   may come back) retract only what is known. "Lost" (usually found again) and
#   "broke" (still owned) retract nothing;
# - the thing was the owner's: "my" or "our", named by "I no longer have", or
#   "it" standing for the one thing the sentence said was theirs before;
# - it is a thing of the lexicon, ending where the phrase ends ("my Tesla
#   shares", "my dog's bed" are not the Tesla or the dog), and not one that was
#   never theirs ("my dream car") or a generic one past ("my old car" went when a
#   new one came);
# - a generic thing ("my car") is not what a known thing of the same kind may
#   be called, and the sentence does not go on to get another ("... and bought
#   a new one").
_PARTED = frozenset(
    {
        *("sold", "sold off", "gave away", "given away", "got rid of", "gotten rid of"),
        *("traded in", "donated", "scrapped", "recycled", "rehomed", "pawned"),
        *("threw out", "threw away", "thrown out", "thrown away"),
    }
)
_EXCHANGED = frozenset({"traded", "swapped", "replaced"})
_STANDALONE_KINDS = frozenset({"device", "vehicle", "pet", "instrument", "appliance"})
# Past words that still name the thing the owner had until now.
_FORMER = frozenset({"old", "former", "previous"})
_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten few couple several years months weeks "
    "days".split()
)
# Words that may follow a whole thing: a preposition, a time, a manner.
_AFTER_THING = (
    BOUNDARY_WORDS
    | _NUMBER_WORDS
    | frozenset(
        "any through via recently finally eventually earlier online privately cheaply".split()
    )
)
# ... and, where the sentence goes on about the thing, a verb ("My iPhone kept
# crashing, so I sold it").
_VERB_AFTER_THING = frozenset("kept broke went began fell ran took made cost quit".split())
_NEXT_WORD_RE = re.compile(r"\s*(?P<word>'s\b|[^\W_][\w'-]*)")
_PRONOUN_RE = re.compile(r"(?P<pronoun>it|them)\b", re.I)
# "I sold both my cars", "I gave away all of my guitars".
_ALL_OF_RE = re.compile(r"(?:both|all)\s+(?:of\s+)?(?=(?:my|our|the)\s)", re.I)
_ANTECEDENT_RE = re.compile(
    r"\b(?P<my>my|our)\s+|"
    + WHO
    + ADV
    + r"(?:had|have|owned|own|bought|got|purchased|adopted|inherited|picked up)\s+",
    re.I,
)
_RECIPIENT_RE = re.compile(r"\s*(?:(?:my|our|a|an|his|her|their)\s+)?(?P<who>[\w'-]+)", re.I)
_RECIPIENTS = frozenset("charity him her them someone somebody".split())


def _ownership_statement(phrase: NounPhrase) -> str:
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


def _ownership_subject(phrase: NounPhrase) -> str | None:
    if phrase.kind == "pet" and phrase.name and not phrase.quantity:
        # A name is one pet's: "three cats named Tom, Ada and Kit" are named each (below).
        return S.subject_key("pet", phrase.name)
    words = list(phrase.words)
    head = words[-1]
    if not is_capitalised(head) and head.lower() not in S.PLURAL_NOUNS:
        # "two cats" and "a cat" are one subject.
        words[-1] = S.singular(head.lower())
    return S.subject_key(phrase.kind, " ".join(words))


def _owned(clause: Clause, phrase: NounPhrase, confidence: float, near: int) -> Proposal | None:
    subject = _ownership_subject(phrase)
    if subject is None or phrase.blocked or _QUALIFICATION_RE.match(phrase.text):
        # A PhD or a licence is earned, not owned (the outcomes grammar reads it).
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


def _named_pet(clause: Clause, animal: str, name: str, near: int) -> Proposal | None:
    """ "User has a greyhound named Pip.", under the pet's name; None for a word no name."""
    subject = S.subject_key("pet", name) if is_name(name) else None
    if subject is None:
        return None
    return Proposal(
        type=BeliefType.OWNERSHIP,
        subject=subject,
        statement=f"User has {S.article(animal)} {animal} named {name}.",
        confidence=0.75,
        temporal=hint(clause.temporal, near),
        tokens=frozenset(S.entity_tokens(f"{animal} {name}")),
    )


# "two greyhounds I rescued (Sprocket and Mabel)", "two dogs, Pepper and Salt", "three cats
# named Tom, Ada and Kit": the names of several pets of one kind.
_PET_NAMES_RE = re.compile(
    r"(?:\s+(?:I|we)(?:\s+[a-z]+){1,2})?(?:\s*[,:(]\s*|\s+(?:named|called)\s+)"
    r"(?P<names>(?-i:[A-Z][\w'-]+)(?:\s*,\s*(?-i:[A-Z][\w'-]+))*\s*,?\s+and\s+"
    r"(?-i:[A-Z][\w'-]+))"
)


def _each_pet_named(clause: Clause, reader: MessageReader, phrase: NounPhrase, start: int) -> None:
    """A pet named each, after "two greyhounds" and a list of names."""
    head = phrase.words[-1]
    found = re.search(rf"\b{re.escape(head)}\b", clause.text[start:], re.I)
    if found is None:
        return
    names_match = _PET_NAMES_RE.match(clause.text, start + found.end())
    if names_match is None:
        return
    names = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", names_match.group("names"))
    animal = " ".join([*phrase.words[:-1], S.singular(head.lower())])
    for name in names:
        reader.add(_named_pet(clause, animal, name, start))


_HEIRLOOM_RE = re.compile(r"^(?:a|an|the)\s+(?P<words>(?:[a-z][a-z-]*\s*){1,4})", re.I)


def _heirloom(clause: Clause, rest: str, near: int) -> Proposal | None:
    """A plain thing left to the owner ("her old sewing machine"), not in the lexicon: its
    words up to the first that ends the phrase, describing words dropped."""
    match = _HEIRLOOM_RE.match(rest)
    if match is None:
        return None
    words: list[str] = []
    for word in match.group("words").split():
        if word.lower() in BOUNDARY_WORDS:
            break
        words.append(word.lower())
    words = [w for w in words if w not in S.DROPPED_MODIFIERS | S.PAST_OR_WISHED]
    if not words or words[-1] in _NOT_HEIRLOOMS or words[0] in S.KIN:
        return None
    thing = " ".join(words)
    subject = S.subject_key("item", thing)
    if subject is None:
        return None
    return Proposal(
        type=BeliefType.OWNERSHIP,
        subject=subject,
        statement=f"User owns {S.article(thing)} {thing}.",
        confidence=0.7,
        temporal=hint(clause.temporal, near),
        tokens=frozenset(S.entity_tokens(thing)),
    )


def read_ownership(clause: Clause, reader: MessageReader) -> None:
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
                if phrase.kind == "pet" and phrase.quantity:
                    _each_pet_named(clause, reader, phrase, match.end())
        for joint in _LATER_ITEM_RE.finditer(text, match.end()):
            phrases, _ = noun_phrases(text[joint.end() :], determiner_required=True)
            for phrase in phrases:
                if phrase.kind == "home":
                    continue
                proposal = _owned(clause, phrase, 0.75, match.start())
                if proposal:
                    reader.add(proposal)
    for match in clause.find(_ROOM_HAS_RE):
        phrases, _ = noun_phrases(text[match.end() :], determiner_required=True)
        for phrase in phrases:
            if phrase.kind != "home":
                reader.add(_owned(clause, phrase, 0.7, match.start()))
    for match in clause.find(_ADOPTED_NAME_FIRST_RE):
        words = match.group("phrase").lower().split()
        head = next((i for i, w in enumerate(words) if S.word_kind(w) == "pet"), None)
        if head is not None:
            described = [w for w in words[:head] if w not in _HOW_ADOPTED] + [words[head]]
            name = match.group("name").split()[0]
            reader.add(_named_pet(clause, " ".join(described), name, match.start()))
    for match in clause.find(_ADOPTED_NAMED_RE):
        words = [w.lower() for w in match.group("words").split() if w.lower() not in _HOW_ADOPTED]
        if words and S.KIND_OF_WORD.get(words[-1]) in {None, "pet"}:
            name = match.group("name").split()[0]
            reader.add(_named_pet(clause, " ".join(words), name, match.start()))
    for match in clause.find(_GIVEN_RE):
        heirloom = (match.group("verb") or "").lower() in _LEFT_TO_THE_OWNER
        rest = text[match.end() :]
        if match.group("their"):
            # "her old sewing machine": theirs until it was given, the owner's now.
            rest = _THEIR_RE.sub(r"\g<joint> a ", f"a {rest}")
        phrases, _ = noun_phrases(rest, allow_unknown=heirloom, determiner_required=True)
        for phrase in phrases:
            if phrase.kind == "home" or (
                phrase.kind == "item" and phrase.text.lower().split()[-1] in _NOT_HEIRLOOMS
            ):
                continue
            phrase.past = ()  # "her old camera" was old to them, and is the owner's now
            reader.add(_owned(clause, phrase, 0.75, match.start()))
        if heirloom and not phrases:
            reader.add(_heirloom(clause, rest, match.start()))
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


def _retract(
    clause: Clause, reader: MessageReader, phrase: NounPhrase, near: int, *, alone: bool = False
) -> None:
    """Propose that the owner no longer has ``phrase``'s thing.

    A thing the owner is known to have keeps its subject; several known things
    matching is ambiguous ("I sold the car" with two cars) and proposes nothing.
    Otherwise only a retraction that stands ``alone`` proposes, under the
    subject the positive claim would have.
    """
    mentioned = S.entity_tokens(phrase.text + " " + phrase.name)
    if not mentioned:
        return
    reader.retracted_mentions.append(frozenset(mentioned))
    matches = reader.owned.matches(mentioned)
    subject: str | None
    if len(matches) == 1:
        subject = matches[0]
    elif matches or not alone:
        return
    else:
        subject = _ownership_subject(phrase)
        if subject is None:
            return
    reader.add_negative(
        Proposal(
            type=BeliefType.OWNERSHIP,
            subject=subject,
            statement=_retraction_statement(phrase),
            polarity=Polarity.NEGATIVE,
            confidence=0.8,
            temporal=hint(clause.temporal, near),
        )
    )


def _retraction_statement(phrase: NounPhrase) -> str:
    thing = phrase.text
    if phrase.kind == "pet":
        if phrase.quantity:
            return f"User no longer has {phrase.quantity} {thing}."
        if S.is_plural(phrase.words):
            return f"User no longer has {thing}."
        named = f" named {phrase.name}" if phrase.name else ""
        return f"User no longer has {S.article(thing)} {thing}{named}."
    if S.is_plural(phrase.words) or phrase.quantity:
        return f"User no longer owns {thing}."
    return f"User no longer owns {S.article(thing)} {thing}."


def _ends_thing(after: str, *, verb: bool = False) -> bool:
    """Whether the words after a thing leave it whole: not "my Tesla shares", "my dog's bed".

    With ``verb``, a verb may follow it ("my iPhone kept crashing").
    """
    following = _NEXT_WORD_RE.match(after)
    if following is None:
        return True
    word = following.group("word").lower()
    if verb and (word in _VERB_AFTER_THING or _past_tense(word)):
        return True
    return word in _AFTER_THING or word.isdigit()


def _past_tense(word: str) -> bool:
    # "crashed", "stopped"; not "bed", "shed" or "feed".
    return len(word) > 4 and word.endswith("ed") and not word.endswith("eed")


def _owned_by_it(after: str) -> bool:
    """Whether a thing is named only as the owner of another ("my dog's bed")."""
    return after.startswith("'s")


def _specific(phrase: NounPhrase) -> bool:
    """Whether the thing has a name, a brand or a model ("my Corolla", "an iPhone 12")."""
    return bool(phrase.name) or any(
        is_capitalised(word) or any(c.isdigit() for c in word) for word in phrase.words
    )


def _stands_alone(
    clause: Clause, reader: MessageReader, phrase: NounPhrase, after: str, *, whole: bool = False
) -> bool:
    """Whether a retraction of a thing not known to be the owner's may stand on its own.

    ``after`` is the clause after the thing; ``whole`` says the thing is known
    to end there (a pronoun or a verb follows it). The rules are those of the
    comment above ``_PARTED``.
    """
    if phrase.kind not in _STANDALONE_KINDS or set(phrase.past) - _FORMER:
        return False
    if not whole and not _ends_thing(after):
        return False
    if not _specific(phrase) and (phrase.past or reader.owned.holds_kind(phrase.kind)):
        return False
    later = " ".join((after, *clause.after))
    head = re.escape(phrase.words[-1])
    return not re.search(
        rf"\b(?:a|an|another)\s+(?:[\w-]+\s+){{0,2}}?(?:ones?|{head}s?)\b", later, re.I
    )


def _owners(phrase: NounPhrase) -> bool:
    return phrase.determiner in {"my", "our"}


def _antecedent(clause: Clause, start: int, pronoun: str) -> NounPhrase | None:
    """The one thing the sentence named before ``it`` or ``them`` at ``start``, or None.

    Only the owner's things count: "my ..." and what the owner had or bought.
    """
    text = " . ".join((*clause.before, clause.text[:start]))
    found: dict[str | None, NounPhrase] = {}
    for match in _ANTECEDENT_RE.finditer(text):
        phrases, _ = noun_phrases(
            text[match.end() :],
            allow_unknown=not match.group("my"),
            determiner_required=not match.group("my"),
        )
        for phrase in phrases:
            if match.group("my"):
                phrase.determiner = match.group("my").lower()
            if not _ends_thing(text[match.end() + phrase.end :], verb=True):
                continue
            found.setdefault(_ownership_subject(phrase), phrase)
    if len(found) != 1:
        return None
    phrase = next(iter(found.values()))
    several = bool(phrase.quantity) or S.is_plural(phrase.words)
    return phrase if several == (pronoun.lower() == "them") else None


def _object(
    clause: Clause, match: re.Match[str], **options: bool
) -> tuple[list[NounPhrase], int, bool]:
    """The things a verb at ``match`` parts with, and where they end in the clause's rest.

    The things are found where the verb's object is, or for ``it`` and ``them``
    earlier in the sentence; the latter end with the pronoun and are marked
    with ``pronoun`` True.
    """
    rest = clause.text[match.end() :]
    pronoun = _PRONOUN_RE.match(rest)
    if pronoun:
        phrase = _antecedent(clause, match.start(), pronoun.group("pronoun"))
        return ([phrase] if phrase else []), pronoun.end(), True
    every = _ALL_OF_RE.match(rest)
    skipped = every.end() if every else 0
    phrases, end = noun_phrases(rest[skipped:], **options)
    for phrase in phrases:
        phrase.end += skipped
    return phrases, end + skipped, False


def _recipient(after: str) -> bool:
    """Whether a thing given "to" someone went to a person or a charity, not a mechanic."""
    named = _RECIPIENT_RE.match(after)
    if named is None:
        return False
    who = named.group("who")
    return who.lower() in S.KIN or who.lower() in _RECIPIENTS or is_name(who)


def read_retractions(clause: Clause, reader: MessageReader) -> None:
    text = clause.text
    for match in clause.find(_RETRACT_RE):
        verb = " ".join(match.group("verb").lower().split())
        rest = text[match.end() :]
        phrases, end, pronoun = _object(clause, match, allow_unknown=True)
        exchange = _EXCHANGE_RE.match(rest[end:]) if phrases else None
        # "I traded my Civic in" is a trade-in, with or without what came for it.
        traded_in = verb == "traded" and _TRADED_IN_RE.match(rest[end:])
        parted = verb in _PARTED or (verb in _EXCHANGED and exchange) or traded_in
        for phrase in phrases:
            if not pronoun and _owned_by_it(rest[phrase.end :]):
                continue
            alone = bool(parted) and (pronoun or _owners(phrase))
            after = rest[end:] if pronoun else rest[phrase.end :]
            alone = alone and _stands_alone(clause, reader, phrase, after, whole=pronoun)
            _retract(clause, reader, phrase, match.start(), alone=alone)
        if exchange:
            _gained(clause, reader, rest[end + exchange.end() :], match.start())
    for match in clause.find(_PARTICLE_RE):
        verb = match.group("verb").lower()
        rest = text[match.end() :]
        phrases, end, pronoun = _object(clause, match)
        particle = _PARTICLE_AFTER_RE.match(rest[end:]) if phrases else None
        if particle is None or particle.group("particle").lower() not in _PARTICLES[verb]:
            continue
        beyond = rest[end + particle.end() :]
        given = particle.group("particle").lower() != "to" or _recipient(beyond)
        for phrase in phrases:
            alone = given and (pronoun or _owners(phrase))
            alone = alone and _stands_alone(clause, reader, phrase, beyond, whole=True)
            _retract(clause, reader, phrase, match.start(), alone=alone)
    for match in clause.find(_LOST_BY_OTHERS_RE):
        rest = text[match.end() :]
        phrases, _ = noun_phrases(rest, allow_unknown=True)
        for phrase in phrases:
            if _owned_by_it(rest[phrase.end :]):
                continue
            reader.retracted_mentions.append(
                frozenset(S.entity_tokens(phrase.text + " " + phrase.name))
            )
    for match in clause.find(_NO_LONGER_RE):
        how = match.group("how").lower()
        if how in {"do not", "did not"} and not _ANYMORE_RE.search(text, match.end()):
            continue
        owned = " ".join(match.group("verb").lower().split()) in _NO_LONGER_OWNED
        rest = text[match.end() :]
        phrases, _ = noun_phrases(rest, allow_unknown=True)
        for phrase in phrases:
            if _owned_by_it(rest[phrase.end :]):
                continue
            alone = owned and _stands_alone(clause, reader, phrase, rest[phrase.end :])
            _retract(clause, reader, phrase, match.start(), alone=alone)
    for match in clause.find(_POSSESSIVE_RE):
        phrases, end = noun_phrases(text[match.end() :], allow_unknown=False)
        if not phrases:
            continue
        after = text[match.end() + end :]
        lost = _LOST_THING_RE.match(after)
        pet_gone = phrases[-1].kind == "pet" and _PET_GONE_RE.match(after)
        if lost or pet_gone:
            # A pet that "ran away" may come back.
            final = bool(lost) or bool(pet_gone and pet_gone.group("gone"))
            for phrase in phrases:
                alone = final and _stands_alone(clause, reader, phrase, after, whole=True)
                _retract(clause, reader, phrase, match.start(), alone=alone)


def _gained(clause: Clause, reader: MessageReader, text: str, near: int) -> None:
    """What the owner got in exchange ("... for a Tesla")."""
    phrases, _ = noun_phrases(text, determiner_required=True)
    for phrase in phrases:
        proposal = _owned(clause, phrase, 0.7, near)
        if proposal:
            reader.add(proposal)


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _OWN_RE: "have got own bought purchased picked adopted rescued inherited built drive ride",
        _POSSESSIVE_RE: "my our",
        _GIVEN_RE: "left bequeathed gave handed passed given gifted",
        _ADOPTED_NAMED_RE: "adopted rescued took brought",
        _ADOPTED_NAME_FIRST_RE: "adopted rescued took brought",
        _ROOM_HAS_RE: "has equipped",
        _RETRACT_RE: (
            "sold gave given rid traded swapped donated scrapped returned replaced threw thrown "
            "recycled rehomed pawned"
        ),
        _PARTICLE_RE: "gave given threw thrown",
        _NO_LONGER_RE: "longer not used",
        _LOST_BY_OTHERS_RE: (
            "sold gave rid traded donated scrapped returned stole crashed wrecked totaled totalled"
        ),
    }
)
