"""What a careful model would propose from the owner's messages: the fake provider's
``careful`` formation answers (``formation.fake_answers``).

Each sentence of each message is read alone, and proposes at most one memory citing
that message only, when it is a first-person statement about the owner that says
something durable, rewritten in the third person ("I live in Lyon." -> "User lives in
Lyon.", "My name is Sam." -> "User's name is Sam."). A sentence proposes nothing when
it asks, supposes, plans or wishes; when its subject is someone else ("My sister lives
in Oslo." tells only that the owner has a sister); when it tells a passing state
("tired", "this morning"); when it holds a password-like word or names a secret; when
it speaks to the assistant; or when its message jokes ("lol jk"). Something the owner
says they sold, quit or no longer do is a negative proposal ("User no longer owns a
bike."). A proposal that contradicts a known memory is left out unless its message
says it corrects it ("actually", "not anymore", "we moved", "I changed").

Precision over recall: a sentence that is not read plainly proposes nothing. Pure
functions of the request's text.
"""

import re
from collections.abc import Iterator, Sequence
from typing import Any

from memory.stemming import stem
from memory.text import STOPWORDS

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# Where a sentence joins two statements, each with its own subject.
_CLAUSE_JOIN = re.compile(
    r"\s*;\s*|\s+[-–—]\s+|,\s*(?:and|but|so|because)\s+|\s+but\s+"
    r"|\s+and\s+(?=(?:i|i'm|i've|my|we|our|he|she|they|it)\b)",
    re.IGNORECASE,
)
_LEADING = re.compile(
    r"^(?:(?:actually|well|so|oh|btw|also|and|but|anyway|ok|okay|honestly|fun fact|"
    r"by the way|fyi|yes|yeah|no)\b[,:]?\s*)+",
    re.IGNORECASE,
)

_JOKE = re.compile(
    r"\b(?:lol|lmao|rofl|jk|j/k|just kidding|kidding|joking|haha\w*|hehe)\b|/s\b|😂|🤣|😜",
    re.IGNORECASE,
)
_INTERROGATIVE = re.compile(
    r"^(?:do|does|did|can|could|should|would|will|is|are|am|was|were|what|why|how|where|"
    r"when|who|which|shall|have|has)\b",
    re.IGNORECASE,
)
# Matched once the sentence's first letter is lowered, so that "in May" and a friend
# called Will are not modals.
_NOT_ASSERTED = re.compile(
    r"\b(?:if|unless|whether|would|could|might|may|maybe|perhaps|possibly|probably|someday|"
    r"some day|one day|eventually|thinking (?:about|of)|planning|plan to|plans to|want to|"
    r"wanna|hope to|hoping|wish|going to|gonna|should|will|shall|considering|tempted|"
    r"imagine|suppose|supposing|used to)\b|'ll\b|'d\b"
)
_TRANSIENT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|right now|at the moment|this (?:morning|"
    r"afternoon|evening|week|weekend)|tired|hungry|thirsty|sleepy|exhausted|bored|sick|"
    r"stressed|broken|busy|running late)\b",
    re.IGNORECASE,
)
_SECRET_WORD = re.compile(
    r"\b(?:passwords?|passcodes?|pin|pins|pin code|api key|api keys|apikey|card number|"
    r"credit card|security code|cvv|ssn|social security|secret|token|login)\b",
    re.IGNORECASE,
)
# A word of letters and digits mixed, as a password or key is.
_PASSWORD_LIKE = re.compile(r"(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[^\s]{5,}")
_TO_THE_ASSISTANT = re.compile(
    r"\b(?:you|your|yours|ignore|disregard|from now on|always answer|always respond|"
    r"never answer|act as|pretend|system prompt|instructions?|remember that)\b",
    re.IGNORECASE,
)
# What a clause points at rather than says.
_POINTING = re.compile(r"\b(?:he|she|they|him|her|them|it|this|there|here)\b", re.IGNORECASE)
# A message that says it corrects what the owner said before.
_CORRECTION = re.compile(
    r"\b(?:actually|not anymore|any ?more|no longer|moved|changed|switched|instead|"
    r"correction)\b",
    re.IGNORECASE,
)

_HEDGES = frozenset(
    "think guess wonder mean feel believe suppose bet hope wish want need try tried know "
    "remember forgot forget heard saw".split()
)
_MODALS = frozenset(
    "can can't cannot could will would should might may must shall won't wouldn't "
    "couldn't shouldn't".split()
)
_ADVERBS = frozenset(
    "also still really usually always often never now just mostly already sometimes "
    "rarely generally only even both all currently".split()
)
# Past forms and forms that read the same in both tenses: left as they are.
_UNCHANGED = frozenset(
    """was were had did went got made bought sold took gave came saw met left found kept knew
    thought told said began became broke brought built caught chose drove ate drank fell felt
    flew forgot grew heard held lost meant paid ran rode sang sat slept spent spoke stood swam
    taught threw understood woke won wrote adopted quit put set cut let hit hurt read cost
    shut spread""".split()
)
_IRREGULAR_PRESENT = {"have": "has", "do": "does", "go": "goes", "be": "is", "am": "is"}

# The kinds a subject is guessed from, by the nouns that name them.
_KINDS = {
    "pet": "cat cats dog dogs puppy kitten hamster parrot rabbit fish horse bird turtle "
    "tortoise guinea-pig",
    "person": "sister sisters brother brothers mother mom mum father dad parents wife "
    "husband partner son sons daughter daughters friend friends boss colleague aunt uncle "
    "cousin grandma grandmother grandfather grandpa girlfriend boyfriend kid kids child "
    "children niece nephew neighbour neighbor roommate baby fiance fiancee",
    "place": "city town flat apartment house home country village neighbourhood "
    "neighborhood street",
    "vehicle": "car cars bike bikes bicycle motorcycle motorbike scooter truck van boat",
    "device": "phone laptop computer tablet kindle iphone ipad watch camera headphones "
    "console tv printer",
    "food": "coffee tea pizza sushi meat vegetarian vegan cheese chocolate wine beer food "
    "bread pasta fish",
    "activity": "running climbing swimming yoga guitar piano chess hiking cycling painting "
    "reading football tennis knitting cooking gardening photography",
    "work": "job work nurse engineer teacher doctor developer company office career "
    "employer lawyer designer manager",
}
_KIND_OF = {word: kind for kind, nouns in _KINDS.items() for word in nouns.split()}
_TRIVIAL_RELATIONS = frozenset("mother mom mum father dad parents".split())
# What "our" may stand for and still be the owner's own household.
_HOUSEHOLD = frozenset(
    {w for w, kind in _KIND_OF.items() if kind in ("pet", "vehicle")}
    | set("kids children son daughter baby house home flat apartment garden family".split())
)
_COPULAS = frozenset("is are was were".split())
_WE_VERBS = frozenset("live have own moved rent bought got adopted are".split())
_PREFERENCE_VERBS = frozenset(
    "like likes love loves prefer prefers enjoy enjoys hate hates "
    "dislike dislikes adore adores".split()
)
_OWNING_VERBS = frozenset("own owns has have bought got adopted".split())


_NOT_NAMES = frozenset(
    """I User Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mondays Tuesdays
    Wednesdays Thursdays Fridays Saturdays Sundays January February March April May June
    July August September October November December""".split()
)


# A proposal as the fake model's reply carries it (JSON).
Proposal = dict[str, Any]


def _third_person(verb: str) -> str:
    """The simple present of ``verb`` for "User" ("live" -> "lives"); a past form stays."""
    lower = verb.lower()
    if lower in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[lower]
    if lower.endswith("ed") or lower in _UNCHANGED:
        return verb
    if lower.endswith(("ss", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(lower) > 2 and lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _owner_words(text: str) -> str:
    """``text`` with the owner's own words in the third person."""
    text = re.sub(r"\b(?:my|mine|our)\b", "User's", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI'm\b", "User is", text)
    text = re.sub(r"\bI've\b", "User has", text)
    text = re.sub(r"\bmyself\b", "themselves", text, flags=re.IGNORECASE)
    return re.sub(r"\b(?:I|me)\b", "User", text)


def _article(phrase: str) -> str:
    return "an" if phrase[:1].lower() in "aeiou" else "a"


def _sentence(text: str) -> str:
    return text.strip().rstrip(".!").strip()


def _names(clause: str) -> list[str]:
    """The capitalised names of ``clause`` (what follows its subject), "I" aside."""
    found = re.findall(r"\b([A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*)", clause)
    return [name for name in found if name not in _NOT_NAMES]


def _slug(words: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", words.lower()))


def _subject(clause: str, *, kind: str | None = None) -> str:
    """``<kind>:<slug>`` of the clause's main name or noun, in its own words: the name a
    noun of a kind gives ("a cat named Miso" -> ``pet:miso``), a place one lives in, moves
    to or comes from, another name, else the first noun of a kind, else the last word."""
    lower = clause.lower()
    nouns = [word for word in re.findall(r"[a-z]+", lower) if word in _KIND_OF]
    names = _names(clause)
    for name in names:
        given = re.search(r"\b([a-z]+)\s+(?:(?:named|called)\s+)?" + re.escape(name), clause)
        if given and given[1] in _KIND_OF:
            return f"{kind or _KIND_OF[given[1]]}:{_slug(name)}"
    for name in names:
        if re.search(r"\b(?:in|to|from|near)\s+(?:the\s+)?" + re.escape(name), clause):
            return f"{kind or 'place'}:{_slug(name)}"
    if names:
        return f"{kind or (_KIND_OF[nouns[0]] if nouns else 'fact')}:{_slug(names[0])}"
    if nouns:
        return f"{kind or _KIND_OF[nouns[0]]}:{nouns[0]}"
    content = [
        word
        for word in re.findall(r"[a-z]+", lower)
        if word not in STOPWORDS and word not in ("user", "family") and len(word) > 2
    ]
    return f"{kind or 'fact'}:{content[-1]}" if content else ""


def _type(verb: str, clause: str) -> str:
    verb = verb.lower()
    if verb in _PREFERENCE_VERBS:
        return "preference"
    kind = _subject(clause).split(":")[0]
    if kind == "person":
        return "relationship"
    if verb in _OWNING_VERBS and kind in ("pet", "vehicle", "device"):
        return "ownership"
    if verb in ("decided", "chose", "picked"):
        return "decision"
    if verb in ("am", "is", "'m"):
        return "attribute"
    return "fact"


def _proposal(
    type_: str, subject: str, statement: str, polarity: str = "positive"
) -> Proposal | None:
    if not subject or subject.endswith(":"):
        return None
    return {"type": type_, "subject": subject, "statement": statement, "polarity": polarity}


def _retraction(clause: str) -> Proposal | None:
    """A negative proposal when the clause says something the owner had is no longer so."""
    match = re.match(
        r"^(?:I|we)\s+(?:sold|gave away|got rid of|donated|traded in|traded)\s+"
        r"(?:(?:my|our|the)\s+)?(?P<thing>.+)$",
        clause,
        re.IGNORECASE,
    )
    if match:
        thing = match["thing"]
        statement = f"User no longer owns {_article(thing)} {_owner_words(thing)}."
        return _proposal("ownership", _subject(thing), statement, "negative")
    match = re.match(
        r"^(?:I|we)\s+moved\s+(?:out of|away from)\s+(?P<place>.+)$", clause, re.IGNORECASE
    )
    if match:
        place = match["place"]
        statement = f"User no longer lives in {_owner_words(place)}."
        return _proposal("fact", _subject(place, kind="place"), statement, "negative")
    match = re.match(
        r"^I\s+(?:no longer\s+(?P<verb>\w+)|(?:don't|do not|dont)\s+(?P<also>\w+))"
        r"\s+(?P<rest>.+?)(?P<more>\s+any\s?more)?$",
        clause,
        re.IGNORECASE,
    )
    if match and (match["verb"] or match["more"]):
        verb = match["verb"] or match["also"]
        rest = _owner_words(match["rest"])
        statement = f"User no longer {_third_person(verb)} {rest}."
        return _proposal(_type(verb, rest), _subject(rest), statement, "negative")
    match = re.match(
        r"^(?:I'm|I am)\s+(?:no longer\s+(?P<what>.+)|not\s+(?P<also>.+?)\s+any\s?more)$",
        clause,
        re.IGNORECASE,
    )
    if match:
        what = _owner_words(match["what"] or match["also"])
        return _proposal("attribute", _subject(what), f"User is no longer {what}.", "negative")
    match = re.match(r"^I\s+(?P<verb>quit|stopped|gave up)\s+(?P<what>.+)$", clause, re.IGNORECASE)
    if match:
        what = _owner_words(match["what"])
        statement = f"User {match['verb'].lower()} {what}."
        return _proposal("fact", _subject(what), statement, "negative")
    return None


def _about_someone(possessive: str, clause: str) -> Proposal | None:
    """What "My sister Ana lives in Oslo." says of the owner: that they have a sister
    named Ana; "My name is Sam.": the owner's own attribute."""
    words = clause.split()
    if "'s" in words[0]:
        return None
    noun: list[str] = []
    while words and len(noun) < 3 and words[0][:1].islower() and words[0] not in _COPULAS:
        noun.append(words.pop(0))
        if _KIND_OF.get(noun[-1]) in ("person", "pet"):
            break
    name = words.pop(0) if words and re.fullmatch(r"[A-Z][a-zA-Z]+", words[0]) else ""
    if not noun:
        return None
    head = noun[-1]
    kind = _KIND_OF.get(head)
    if possessive == "our" and head not in _HOUSEHOLD:
        return None
    said = " ".join(noun)
    if kind in ("person", "pet"):
        if head in _TRIVIAL_RELATIONS and not name:
            return None
        named = f" named {name}" if name else ""
        owned = said if head.endswith("s") else f"{_article(said)} {said}"
        type_ = "relationship" if kind == "person" else "ownership"
        return _proposal(type_, f"{kind}:{_slug(name or head)}", f"User has {owned}{named}.")
    if name or len(words) < 2 or words[0] not in ("is", "are"):
        return None
    verb, rest = words[0], " ".join(words[1:])
    if _POINTING.search(rest):
        return None
    statement = f"User's {said} {verb} {_owner_words(rest)}."
    subject = _subject(rest) if _names(rest) else f"{kind or 'fact'}:{_slug(said)}"
    return _proposal("attribute", subject, statement)


def _about_the_owner(clause: str) -> Proposal | None:
    """The owner's own statement, in the third person, or None."""
    match = re.match(r"^(?P<who>I'm|I've|I am|I have|I)\s+(?P<rest>.+)$", clause)
    if match is None:
        return None
    who, rest = match["who"], match["rest"]
    if _POINTING.search(rest) or re.search(r"\bI\b", rest):
        return None
    if who in ("I'm", "I am"):
        return _proposal("attribute", _subject(rest), f"User is {_owner_words(rest)}.")
    if who in ("I've", "I have"):
        return _proposal(_type("has", rest), _subject(rest), f"User has {_owner_words(rest)}.")
    words = rest.split()
    adverbs: list[str] = []
    while words and words[0].lower() in _ADVERBS:
        adverbs.append(words.pop(0))
    if len(words) < 2:
        return None
    verb, tail = words[0], " ".join(words[1:])
    if verb.lower() in ("do", "don't"):
        # "I don't like olives.": a standing refusal, not a retraction.
        negated = words[2:] if verb.lower() == "do" and words[1].lower() == "not" else words[1:]
        if verb.lower() == "do" and words[1].lower() != "not":
            return None
        if len(negated) < 2 or negated[0].lower() in _HEDGES | _MODALS:
            return None
        tail = " ".join(negated[1:])
        said = " ".join([*adverbs, "does not", negated[0], _owner_words(tail)])
        return _proposal(_type(negated[0], tail), _subject(tail), f"User {said}.")
    if verb.lower() in ("didn't", "doesn't", "did"):
        return None
    if verb.lower() in _HEDGES or verb.lower() in _MODALS or not verb.isalpha():
        return None
    said = " ".join([*adverbs, _third_person(verb), _owner_words(tail)])
    return _proposal(_type(verb, tail), _subject(tail), f"User {said}.")


def _about_the_household(clause: str) -> Proposal | None:
    """ "We live in Lyon." as "User and their family live in Lyon.": only a few verbs of
    a household are clearly about the owner's own."""
    match = re.match(r"^we(?P<contracted>'re|'ve)?\s+(?P<rest>.+)$", clause, re.IGNORECASE)
    if match is None:
        return None
    if match["contracted"]:
        verb = {"'re": "are", "'ve": "have"}[match["contracted"].lower()]
        rest = match["rest"]
    else:
        verb, _, rest = match["rest"].partition(" ")
        if verb.lower() not in _WE_VERBS:
            return None
    if not rest or _POINTING.search(rest):
        return None
    statement = f"User and their family {verb.lower()} {_owner_words(rest)}."
    return _proposal(_type(verb, rest), _subject(rest), statement)


def _clause_proposal(clause: str) -> Proposal | None:
    clause = _sentence(_LEADING.sub("", clause.strip()))
    if not clause:
        return None
    if retraction := _retraction(clause):
        return retraction
    possessive = re.match(r"^(?P<p>my|our)\s+(?P<rest>.+)$", clause, re.IGNORECASE)
    if possessive:
        return _about_someone(possessive["p"].lower(), possessive["rest"])
    if re.match(r"^we\b", clause, re.IGNORECASE):
        return _about_the_household(clause)
    return _about_the_owner(clause)


def _refused(sentence: str) -> bool:
    """Whether ``sentence`` is one a careful reader proposes nothing from."""
    text = sentence.strip().replace("’", "'")
    if not text or text.endswith("?") or _INTERROGATIVE.match(text):
        return True
    if _NOT_ASSERTED.search(text[:1].lower() + text[1:]):
        return True
    return any(
        pattern.search(text)
        for pattern in (_TRANSIENT, _SECRET_WORD, _PASSWORD_LIKE, _TO_THE_ASSISTANT)
    )


def _read(text: str) -> Iterator[Proposal]:
    """(sentence, proposal) of each sentence of a message that a careful reader proposes."""
    if _JOKE.search(text):
        return
    for sentence in _SENTENCE_END.split(text):
        if _refused(sentence):
            continue
        for clause in _CLAUSE_JOIN.split(sentence.strip().replace("’", "'")):
            if proposal := _clause_proposal(clause):
                yield proposal


_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)
_NEGATION_WORDS = frozenset({"not", "never", "no", "longer", "doesn", "don", "didn", "isn"})
# The slots that hold one value at a time: a new value contradicts the old one. Only
# the owner's own ("User lives in"), not someone's the statement mentions.
_OWNER = r"^User(?: and their family)?(?: (?:still|now|also|currently))? "
_SLOTS = (
    ("live", re.compile(_OWNER + r"lives? in (?P<value>.+)$")),
    ("work", re.compile(_OWNER + r"works? (?:at|for) (?P<value>.+)$")),
    ("job", re.compile(_OWNER + r"(?:works? as|is an?) (?P<value>.+)$")),
    ("born", re.compile(_OWNER + r"was born (?:in|on) (?P<value>.+)$")),
    ("age", re.compile(_OWNER + r"is (?P<value>\d+) years old")),
    ("spouse", re.compile(_OWNER + r"is married to (?P<value>.+)$")),
    ("own", re.compile(r"^User's (?P<slot>[a-z ]+?) (?:is|are) (?P<value>.+)$")),
)


def _stems(text: str) -> frozenset[str]:
    return frozenset(
        stem(word)
        for word in re.findall(r"[a-z0-9]+", text.lower())
        if word not in STOPWORDS and word not in _NEGATION_WORDS and word != "family"
    )


def _slot(statement: str) -> tuple[tuple[str, str | None] | None, frozenset[str]]:
    for key, pattern in _SLOTS:
        if match := pattern.search(statement.rstrip(".")):
            slot = match.groupdict().get("slot")
            return (key, slot), _stems(match["value"])
    return None, frozenset()


def _contradicts(statement: str, memory: dict[str, Any]) -> bool:
    """Whether ``statement`` says the opposite of a known memory, or another value of a
    slot that holds one."""
    known = memory.get("statement", "")
    if _stems(statement) == _stems(known):
        return bool(_NEGATION.search(statement)) != bool(_NEGATION.search(known))
    slot, value = _slot(statement)
    known_slot, known_value = _slot(known)
    return slot is not None and slot == known_slot and not value & known_value


def _repeats(statement: str, memory: dict[str, Any]) -> bool:
    known = memory.get("statement", "")
    return _stems(statement) == _stems(known) and bool(_NEGATION.search(statement)) == bool(
        _NEGATION.search(known)
    )


def careful_proposals(
    events: Sequence[dict[str, Any]], known: Sequence[dict[str, Any]]
) -> list[Proposal]:
    """What a careful model proposes from ``events`` ([{"id", "text"}]) given the owner's
    ``known`` memories ([{"subject", "type", "statement"}])."""
    proposals: list[Proposal] = []
    for event in events:
        text = event.get("text", "")
        corrects = bool(_CORRECTION.search(text))
        for proposal in _read(text):
            statement = proposal["statement"]
            if any(_repeats(statement, memory) for memory in known):
                continue
            positive = proposal["polarity"] == "positive"
            if positive and not corrects and any(_contradicts(statement, m) for m in known):
                continue
            proposals.append({**proposal, "source_ids": [event["id"]]})
    return proposals
