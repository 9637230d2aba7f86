"""Owned things as a phrase names them: "a new Apple Watch and a BMW X3".

A thing is a run of lexicon words, capitalised words and model codes; the
kind (device, vehicle, pet, instrument, home, item) comes from the subject
lexicon. Coordinated things are read together, and a pet keeps its name.
"""

import re
from dataclasses import dataclass

from .. import subjects as S
from .vocabulary import BOUNDARY_WORDS, DETERMINERS, is_capitalised, is_name

_MODEL_WORDS = frozenset(
    "pro max mini plus ultra air se lite xl sport series gt gti rs amg hybrid electric".split()
)
# A thing's noun followed by one of these names something else ("my phone
# number", "my piano teacher"), not the thing.
_NOT_THE_THING = frozenset(
    """
    number numbers call calls bill bills plan plans password pin code account contract payment
    payments loan lease insurance allergy allergies sitter walker food toy toys show ride
    rides trip wash park parking repair repairs accident crash mechanic dealer dealership
    rental lesson lessons teacher teachers class classes store shop brand app settings
    notifications appointment recital concert tournament tutor breeder groomer vet painting
    paintings drawing drawings picture pictures photo photos pic pics sketch portrait poster
    figurine costume mug shirt t-shirt sweater plush stuffed ornament sticker stickers
    video videos movie game games emoji meme
    """.split()
)
_QUANTITIES = frozenset(
    "two three four five six seven eight nine ten several some multiple".split()
)
_MODIFIERS = S.DROPPED_MODIFIERS | S.PAST_OR_WISHED
_TOKEN_RE = re.compile(r"[^\W_][\w+&\-]*(?:'s)?|\u27e6q\u27e7|[^\w\s]")


@dataclass
class NounPhrase:
    """A thing as the message names it, and where in the phrase its name ends."""

    words: list[str]
    kind: str
    quantity: str = ""
    name: str = ""
    end: int = 0
    # The determiner the phrase opened with ("my", "a"), and the words that put
    # the thing in the past or in a wish ("old", "dream").
    determiner: str = ""
    past: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def blocked(self) -> bool:
        """Whether the thing is one the owner had or wishes for, not one they have."""
        return bool(self.past)


def _noun_phrase(
    text: str, *, allow_unknown: bool = False, determiner_required: bool = False
) -> NounPhrase | None:
    """The owned thing a phrase starts with: "a new Apple Watch and ..." -> Apple Watch.

    The thing ends at its last lexicon word, capitalised word or model code
    ("BMW X3", "iPhone 15 Pro"); describing words ("new", colours) are dropped,
    and words that put it in the past or in a wish ("old", "dream") block it.
    """
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN_RE.finditer(text[:160])]
    i = 0
    quantity = ""
    determiner = ""
    if i < len(tokens) and tokens[i][0].lower() in DETERMINERS:
        determiner = tokens[i][0].lower()
        i += 1
    if i < len(tokens) and (tokens[i][0].lower() in _QUANTITIES or tokens[i][0].isdigit()):
        token = tokens[i][0]
        if not token.isdigit() or (i + 1 < len(tokens) and tokens[i + 1][0][:1].islower()):
            quantity = token
            i += 1
    if determiner_required and not (determiner or quantity):
        return None
    past: list[str] = []
    while i < len(tokens) and tokens[i][0].lower() in _MODIFIERS:
        if tokens[i][0].lower() in S.PAST_OR_WISHED:
            past.append(tokens[i][0].lower())
        i += 1
    window: list[tuple[str, int, int]] = []
    while i < len(tokens) and len(window) < 6:
        token = tokens[i][0]
        lowered = token.lower()
        if not (token[0].isalnum()) or lowered in BOUNDARY_WORDS:
            break
        if lowered.endswith("'s"):
            if not S.word_kind(token[:-2]):
                # Someone else's thing ("my sister's car", "John's bike").
                return None
            window.append((token[:-2], tokens[i][1], tokens[i][2] - 2))
            break
        window.append(tokens[i])
        i += 1
    if not window or (
        window[0][0].lower() in S.KIN
        and not (window[0][0][0].isupper() and len(window) > 1 and S.word_kind(window[1][0]))
    ):
        # "my colleague owns three cats": a person, whose things are not the owner's; but a
        # capitalised one before a thing is its brand ("a Brother printer").
        return None
    end = -1
    for index, (token, _, _) in enumerate(window):
        # A name continues with capitals and model codes ("Tesla Model 3"); an
        # unknown brand can only start one where a verb allows it ("a Rolex").
        continues = index == end + 1 and (is_capitalised(token) or _model_code(token))
        starts_unknown = index == 0 and allow_unknown and is_capitalised(token)
        if S.word_kind(token) or (continues if end >= 0 else starts_unknown):
            end = index
    if end < 0:
        return None
    words = [token for token, _, _ in window[: end + 1]]
    kind = S.entity_kind(words)
    if kind is None:
        if not allow_unknown or not all(is_capitalised(w) or _model_code(w) for w in words):
            return None
        if end + 1 < len(window):
            # "a Pfizer booster": a capitalised word describing something unnamed.
            return None
        kind = "item"
    after = window[end + 1][0].lower() if end + 1 < len(window) else ""
    if after in _NOT_THE_THING:
        return None
    name = ""
    head = max(i for i, w in enumerate(words) if S.word_kind(w)) if kind != "item" else -1
    if kind == "pet" and head < len(words) - 1 and all(is_name(w) for w in words[head + 1 :]):
        name = " ".join(words[head + 1 :])
        words = words[: head + 1]
    elif kind != "item" and not is_capitalised(words[head]):
        # After a common noun only a model code continues the name ("laptop
        # Pro"); a capitalised word there ("my guitar Lucille") names it.
        kept = head + 1
        while kept < len(words) and _model_code(words[kept]):
            kept += 1
        words = words[:kept]
    return NounPhrase(
        words=words,
        kind=kind,
        quantity=quantity,
        name=name,
        end=window[end][2],
        determiner=determiner,
        past=tuple(past),
    )


def _model_code(token: str) -> bool:
    return any(c.isdigit() for c in token) or token.lower() in _MODEL_WORDS


_COORDINATION_RE = re.compile(
    r"^\s*(?:,\s*(?:and\s+|as well as\s+)?|\s+and\s+|\s+as well as\s+|\s*&\s*)", re.I
)
_PET_NAME_RE = re.compile(
    r"^(?:\s*,\s*(?P<n1>[A-Z][\w'-]+)\s*(?=,|$)|(?:'s\s+name\s+is|\s+(?:is|was)\s+(?:called|"
    r"named)|\s+(?:named|called))\s+(?P<n2>[A-Z][\w'-]+))"
)


# Kinds of thing a coordinated brand name takes from the thing before it.
_PRODUCT_KINDS = frozenset({"device", "vehicle", "instrument"})


def noun_phrases(text: str, **options: bool) -> tuple[list[NounPhrase], int]:
    """The coordinated things a phrase starts with ("an Apple Watch and a BMW X3"), and
    the offset where they end.

    A brand name the lexicon does not know, coordinated after a product it does ("a
    MacBook Air and a Dell XPS"), is a product of the same kind.
    """
    phrases: list[NounPhrase] = []
    offset = 0
    while len(phrases) < 8:
        phrase = _noun_phrase(text[offset:], **options)
        sibling = phrases[-1].kind if phrases else None
        if sibling is not None and sibling in _PRODUCT_KINDS:
            if phrase is None:
                phrase = _noun_phrase(text[offset:], **{**options, "allow_unknown": True})
            if phrase is not None and phrase.kind == "item":
                phrase.kind = sibling
        if phrase is None:
            break
        if phrases and not phrase.determiner:
            # "my BMW and Vespa": the later thing shares the first one's determiner.
            phrase.determiner = phrases[-1].determiner
        phrase.end += offset
        if phrase.kind == "pet" and not phrase.name:
            named = _PET_NAME_RE.match(text[phrase.end :])
            if named and is_name(named.group("n1") or named.group("n2")):
                phrase.name = named.group("n1") or named.group("n2")
                phrase.end += named.end()
        phrases.append(phrase)
        joint = _COORDINATION_RE.match(text[phrase.end :])
        if not joint:
            break
        offset = phrase.end + joint.end()
        options = {**options, "determiner_required": False}
    end = phrases[-1].end if phrases else 0
    return phrases, end
