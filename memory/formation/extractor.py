"""The deterministic v2 extractor (``formation@2``): grammars over the owner's own messages.

Only messages the owner wrote (``user.message.created`` by the principal) are
read. Each text part is cut into sentences, and each sentence into clauses at
first-person conjunctions ("..., and I ..."), so that unrelated statements never
share one proposal or one conflict subject. A clause yields proposals for
ownership (with coordinated possessives and retractions), preferences, user
attributes, relationships, decisions, outcomes and notable experiences.

Precision comes first: questions, hypotheticals, wishes, quoted and reported
speech, and other people's possessions produce nothing. Statements reuse the
message's own words for every name and number, so that a proposal never names
what its source does not. The extractor is deterministic and bounded: it
stops after ``MAX_PROPOSALS`` proposals.
"""

import re
import unicodedata
from dataclasses import dataclass, field, replace

from memory.enums import (
    AuthorKind,
    BeliefType,
    EventType,
    Polarity,
    Portability,
    Sensitivity,
)
from memory.text import normalise_statement

from . import subjects as S
from .candidates import (
    POLICY_DETERMINISTIC,
    ExtractionResult,
    MemoryCandidate,
    TemporalHint,
)
from .gates import classify_sensitivity
from .temporal import find_temporal

MAX_PROPOSALS = 256
# Parts longer than this are read only up to it: a memory worth keeping is
# stated in ordinary sentences, not deep inside a pasted document.
MAX_PART_CHARS = 65_536
MAX_SENTENCE_CHARS = 1000
MAX_VALUE_WORDS = 8

# -- text preparation ----------------------------------------------------------------

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")
_CODE_RE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)
_QUOTE_RE = re.compile(r"\"[^\"\n]{0,2000}\"")
_QUOTE_MARK = " \u27e6q\u27e7 "
_BLOCKQUOTE_RE = re.compile(r"^\s*>.*$", re.M)
_CONTRACTION_RE = re.compile(
    r"\b(?:(?P<pro>i|you|we|they|he|she|it|that|there|what|who)'(?P<tail>m|re|ve|ll|d|s)"
    r"|(?P<neg>ca|wo|sha|ai|[a-z]+)n't"
    r"|(?P<bare>im|ive|dont|doesnt|didnt|cant|isnt|wasnt|arent|havent|hasnt|wouldnt|"
    r"couldnt|shouldnt|wont))\b",
    re.I,
)
_TAILS = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would", "s": "is"}
_NEGATIONS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_BARE = {
    "im": "I am",
    "ive": "I have",
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "cant": "cannot",
    "isnt": "is not",
    "wasnt": "was not",
    "arent": "are not",
    "havent": "have not",
    "hasnt": "has not",
    "wouldnt": "would not",
    "couldnt": "could not",
    "shouldnt": "should not",
    "wont": "will not",
}
_LOWER_I_RE = re.compile(r"(?<![\w'.-])i(?![\w'.-])")


def _expand(match):
    if match.group("pro"):
        pronoun = match.group("pro")
        pronoun = "I" if pronoun.lower() == "i" else pronoun
        return f"{pronoun} {_TAILS[match.group('tail').lower()]}"
    if match.group("neg") is not None:
        stem = match.group("neg")
        if stem.lower() == "ca":
            return "cannot"
        return f"{_NEGATIONS.get(stem.lower(), stem)} not"
    return _BARE[match.group("bare").lower()]


def _prepare(text):
    """Normalised working text, with code, quotes and block quotes masked; None if unusable."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = text[:MAX_PART_CHARS]
    if len(_CONTROL_RE.findall(text)) > max(2, len(text) // 50):
        # Binary-looking input: nothing in it is a statement about a person.
        return None
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u02bc", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u201e", '"')
    text = _CONTROL_RE.sub(" ", text)
    text = _CODE_RE.sub(_QUOTE_MARK, text)
    text = _BLOCKQUOTE_RE.sub(_QUOTE_MARK, text)
    # A quotation is someone's words, the owner's or not; its sentence is skipped.
    text = _QUOTE_RE.sub(_QUOTE_MARK, text)
    text = _CONTRACTION_RE.sub(_expand, text)
    return _LOWER_I_RE.sub("I", text)


_BOUNDARY_RE = re.compile(r"[.!?]+(?=[\s\"')\]]|$)|\n+|;|\s[\u2013\u2014-]{1,2}\s|[\u2022\u00b7]")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st prof jr sr vs etc e.g i.e approx inc ltd co no mt ft".split()
)


def _sentences(text):
    """(sentence, is_question) pairs; abbreviations and initials do not end a sentence."""
    start = 0
    for match in _BOUNDARY_RE.finditer(text):
        mark = match.group(0)
        if mark[0] == ".":
            before = text[start : match.start()].rsplit(None, 1)
            word = before[-1].lower() if before else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        sentence = text[start : match.start()].strip()
        if sentence:
            yield sentence, "?" in mark
        start = match.end()
    tail = text[start:].strip()
    if tail:
        yield tail, False


_QUESTION_START_RE = re.compile(
    r"^(?:do|does|did|should|can|could|would|will|is|are|was|were|what|which|how|why|where|"
    r"when|who|whom|whose|shall|may|might|am|have|has|had|any idea|wonder)\b",
    re.I,
)
# Whole sentences that state no fact about the owner: conditions and
# suppositions, fiction, and what someone else said or thinks.
_SKIP_SENTENCE_RE = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|imagining|hypothetically|pretend|pretending|"
    r"assuming|in case|let us say|lets say|say I|what if|whether|as though|"
    r"said|says|say|saying|told|tells|tell|telling|asked|asks|claimed|claims|mentioned|"
    r"mentions|wrote|writes|texted|announced|insisted|replied|explained|according to|"
    r"thinks|believes|heard|apparently|supposedly|allegedly|rumou?r|"
    r"my character|the character|in the story|in this story|in the game|in my dream|"
    r"dreamt|dreamed|role-?play)\b",
    re.I,
)
# Clause markers of wishes, possibilities, intentions and hedges. "would
# like/prefer/rather" are removed first: they state a present preference.
_WISH_RE = re.compile(
    r"\b(?:would|could|might|(?-i:may)|maybe|perhaps|should|ought|wish|wished|hope|hoped|hoping|"
    r"want|wanted|wants|wanna|gonna|will|someday|one day|dream|dreaming|considering|"
    r"thinking about|thinking of|tempted|probably|possibly|likely|if)\b",
    re.I,
)
_PRESENT_PREFERENCE_RE = re.compile(r"\bwould\s+(?:like|prefer|rather)\b", re.I)
_CLAUSE_SPLIT_RE = re.compile(
    r"\s*,?\s*\b(?:and|but|so|while|whereas|although|though|because|since|plus|also|or|"
    r"then|yet)\s+(?=(?:I|we)\s)|,\s+(?=(?:I|we)\s)",
    re.I,
)
# "(I) just wanted to let you know I got the job": the owner's own preface to
# what they tell, dropped so that its wish ("wanted") does not hide the news.
_TELLING_LEAD_RE = re.compile(
    r"^(?:(?:just|so|hey|oh|also|and|but|I|wanted|want|to|really|had|have|needed|need|gotta|"
    r"got|quickly|finally|must|thought|would|like|love|am|was|so|excited|happy|glad|thrilled)"
    r"\s+)*(?:tell|told|let)\s+(?:you|ya|u)\s+(?:know\s+)?(?:that\s+)?(?=(?:I|we)\s)",
    re.I,
)
_FIRST_PERSON_RE = re.compile(
    r"\b(?:I|we|my|our|me|please|call|use|keep|answer|respond|reply|write)\b", re.I
)

# -- shared vocabulary -------------------------------------------------------------

_ADV = (
    r"(?:(?:just|recently|finally|also|now|still|already|actually|officially|really|"
    r"definitely|absolutely|totally|honestly|personally|generally|usually|always|much|"
    r"strongly|truly|do|even|both|all|currently|proudly|happily)\s+){0,3}"
)
_WHO = r"\b(?P<who>I|we)\s+"
_NAME_STOP = frozenset(
    """
    i the a an and but or so my our your his her their he she they we you it this that these
    those is was are were has have had do does did will would can could should just also
    today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday january
    february march april may june july august september october november december mr mrs ms
    dr lol haha yes no oh ok okay thanks hi hey hello please sorry well anyway actually
    because when where who what why how if then now here there god mom mum dad jr sr not
    """.split()
)
_BOUNDARY_WORDS = frozenset(
    """
    and or but with from for to in on at by of that which who whom whose since because so as
    than is was are were be been being has have had do does did it i we my our the a an this
    these those yesterday today tomorrow tonight last next ago until till now again too also
    though named called when while where if into onto over under after before during about
    like just still already very really not no never anymore more back home away off up down
    out there here its their his her your him them me us monday tuesday wednesday thursday
    friday saturday sunday january february march april june july august september october
    november december weekend week month year owns has loves likes bought sold gets got keeps
    needs wants drives rides
    """.split()
)
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
_DETERMINERS = frozenset("a an the my our another".split())
_MODIFIERS = S.DROPPED_MODIFIERS | S.PAST_OR_WISHED
_PRONOUN_VALUES = frozenset(
    """
    you your yours yourself he she him her his hers they them it its this that these those
    there here something anything everything nothing someone somebody anyone anybody everyone
    everybody what which who how why whatever u ur i we one ones
    """.split()
)
_OWN_PRONOUNS = {"my": "their", "me": "them", "myself": "themselves", "mine": "theirs"}
_OWN_PRONOUNS |= {"our": "their", "us": "them", "ourselves": "themselves", "ours": "theirs"}
_VALUE_CUT_RE = re.compile(
    r"\s*(?:[,:()\[\]]|\u27e6q\u27e7|\s(?:because|since|as|when|whenever|while|but|so|although|"
    r"though|which|who|whom|where|if|unless|until|till|and then|and also|whereas|except|"
    r"especially|like|lol|haha|lmao|just because|even though|instead|not|in hopes|"
    # "that" starts a clause ("the book that I read") unless it points at a
    # thing ("that world").
    r"that(?=\s+(?:I|we|you|he|she|they|it|is|was|are|were|the|a|an|my|our|there|this|what|"
    r"how|has|had|would|will|can|could|should|really|just|so)\b|\s*$)|"
    r"in order|hoping|trying to|so I|and that|ago|and (?:it|they|things|everything|everyone|"
    r"people|he|she|we|felt|was|were|had|got|then|now|so)|"
    r"(?:a few|a couple of|several|many|some|\w+)\s+"
    r"(?:minutes|hours|days|weeks|weekends|months|years)\s+ago|"
    r"to\s+(?:show|help|make|teach|see|get|keep|give|celebrate|remember|raise|support|"
    r"learn|find|bring|spread|express|create|honou?r|relax|practi[cs]e|improve|stay|build))\b)",
    re.I,
)
_FILLER_RE = re.compile(
    r"(?:^|\s+)(?:a lot|a ton|so much|very much|too|as well|though|anyway|anymore|any more|now|"
    r"these days|nowadays|lately|recently|the most|most|best|more|again|already|yet|today|"
    r"tonight|tomorrow|right now|at the moment|currently|for now|really|honestly|actually|"
    r"please|thanks|thank you|lol|haha|ever|honestly|personally|myself|by myself|overall|"
    r"early|late|quickly|together|alone|online|instead|even|even more|for a while|"
    r"in the (?:past|last) (?:few |couple of )?(?:days?|weeks?|months?|years?)|"
    r"in general|generally|usually|always|all the time|every day|every time|haha+|:\)|!+|"
    r"soon|later|someday|next (?:week|weekend|month|year|time|summer|winter|spring|fall|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:week|weekend|month|"
    r"year|morning|afternoon|evening|summer|winter|spring|fall)|from now on|"
    r"(?:in|on|by|last|since)\s+(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|\d{4}|week|weekend|month|year|night)|"
    r"in (?:a|an|one|two|three|four|a few|a couple of|\d+) (?:days?|weeks?|weekends?|months?|"
    r"years?)|(?:a|an|one|two|three|four|a few|a couple of|\d+) (?:days?|weeks?|weekends?|"
    r"months?|years?) (?:later|from now|away)|about|around|roughly|almost|nearly|over|just|"
    r"to|for|with|at|in|on|of|from|and|or|the|a|an|every (?:day|week|morning|evening|night|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))$",
    re.I,
)
_TOKEN_RE = re.compile(r"[^\W_][\w+&\-]*(?:'s)?|\u27e6q\u27e7|[^\w\s]")


@dataclass
class _Proposal:
    type: str
    subject: str
    statement: str
    polarity: str = Polarity.POSITIVE
    confidence: float = 0.6
    temporal: TemporalHint = field(default_factory=TemporalHint)
    # The words that name an owned thing, to drop it when the message retracts it.
    tokens: frozenset = frozenset()


@dataclass
class _NounPhrase:
    words: list
    kind: str | None
    quantity: str = ""
    name: str = ""
    end: int = 0
    blocked: bool = False

    @property
    def text(self):
        return " ".join(self.words)


def _is_name(token):
    return (
        len(token) > 1
        and token[0].isupper()
        and token.replace("-", "").replace("'", "").isalpha()
        and token.lower() not in _NAME_STOP
        and not token.isupper()
    )


def _is_capitalised(token):
    return token[:1].isupper() or (token[:1].islower() and any(c.isupper() for c in token[1:]))


def _noun_phrase(text, *, allow_unknown=False, determiner_required=False):
    """The owned thing a phrase starts with: "a new Apple Watch and ..." -> Apple Watch.

    The thing ends at its last lexicon word, capitalised word or model code
    ("BMW X3", "iPhone 15 Pro"); describing words ("new", colours) are dropped,
    and words that put it in the past or in a wish ("old", "dream") block it.
    """
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN_RE.finditer(text[:160])]
    i = 0
    quantity = ""
    determiner = ""
    if i < len(tokens) and tokens[i][0].lower() in _DETERMINERS:
        determiner = tokens[i][0].lower()
        i += 1
    if i < len(tokens) and (tokens[i][0].lower() in _QUANTITIES or tokens[i][0].isdigit()):
        token = tokens[i][0]
        if not token.isdigit() or (i + 1 < len(tokens) and tokens[i + 1][0][:1].islower()):
            quantity = token
            i += 1
    if determiner_required and not (determiner or quantity):
        return None
    blocked = False
    while i < len(tokens) and tokens[i][0].lower() in _MODIFIERS:
        blocked = blocked or tokens[i][0].lower() in S.PAST_OR_WISHED
        i += 1
    window = []
    while i < len(tokens) and len(window) < 6:
        token = tokens[i][0]
        lowered = token.lower()
        if not (token[0].isalnum()) or lowered in _BOUNDARY_WORDS:
            break
        if lowered.endswith("'s"):
            if not S.word_kind(token[:-2]):
                # Someone else's thing ("my sister's car", "John's bike").
                return None
            window.append((token[:-2], tokens[i][1], tokens[i][2] - 2))
            break
        window.append(tokens[i])
        i += 1
    if not window or window[0][0].lower() in S.KIN:
        # "my colleague owns three cats": a person, whose things are not the owner's.
        return None
    end = -1
    for index, (token, _, _) in enumerate(window):
        # A name continues with capitals and model codes ("Tesla Model 3"); an
        # unknown brand can only start one where a verb allows it ("a Rolex").
        continues = index == end + 1 and (_is_capitalised(token) or _model_code(token))
        starts_unknown = index == 0 and allow_unknown and _is_capitalised(token)
        if S.word_kind(token) or (continues if end >= 0 else starts_unknown):
            end = index
    if end < 0:
        return None
    words = [token for token, _, _ in window[: end + 1]]
    kind = S.entity_kind(words)
    if kind is None:
        if not allow_unknown or not all(_is_capitalised(w) or _model_code(w) for w in words):
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
    if kind == "pet" and head < len(words) - 1 and all(_is_name(w) for w in words[head + 1 :]):
        name = " ".join(words[head + 1 :])
        words = words[: head + 1]
    elif kind != "item" and not _is_capitalised(words[head]):
        # After a common noun only a model code continues the name ("laptop
        # Pro"); a capitalised word there ("my guitar Lucille") names it.
        kept = head + 1
        while kept < len(words) and _model_code(words[kept]):
            kept += 1
        words = words[:kept]
    return _NounPhrase(
        words=words, kind=kind, quantity=quantity, name=name, end=window[end][2], blocked=blocked
    )


def _model_code(token):
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


def _noun_phrases(text, **options):
    """The coordinated things a phrase starts with ("an Apple Watch and a BMW X3"), and
    the offset where they end.

    A brand name the lexicon does not know, coordinated after a product it does ("a
    MacBook Air and a Dell XPS"), is a product of the same kind.
    """
    phrases = []
    offset = 0
    while len(phrases) < 8:
        phrase = _noun_phrase(text[offset:], **options)
        sibling = phrases[-1].kind if phrases else None
        if sibling in _PRODUCT_KINDS:
            if phrase is None:
                phrase = _noun_phrase(text[offset:], **{**options, "allow_unknown": True})
            if phrase is not None and phrase.kind == "item":
                phrase.kind = sibling
        if phrase is None:
            break
        phrase.end += offset
        if phrase.kind == "pet" and not phrase.name:
            named = _PET_NAME_RE.match(text[phrase.end :])
            if named and _is_name(named.group("n1") or named.group("n2")):
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


# -- value phrases -----------------------------------------------------------------


# A value starting with one of these is a verb phrase or a fragment, not a thing.
_NOT_A_VALUE_START = frozenset(
    """not out into away off up down back is was are were be been has had does did so and
    or but very too also for since with from by about to makes gives keeps helps means brings
    feels seems looks sounds gets takes""".split()
)
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})


def _value(text, *, max_words=MAX_VALUE_WORDS, demonstratives=False):
    """The phrase a verb takes, cut at the first clause marker, pronouns made third-person.

    None when the phrase refers to something only the conversation knows
    ("it", "that", "your answer") or is too long to be one claim. With
    ``demonstratives``, "that lake sunrise" (one the owner showed) becomes "the
    lake sunrise": right for what the owner did, wrong for a taste ("I like that
    idea").
    """
    cut = _VALUE_CUT_RE.search(text)
    if cut:
        text = text[: cut.start()]
    text = text.strip(" .!?;,-'\"")
    previous = None
    while previous != text:
        previous = text
        text = _FILLER_RE.sub("", text).strip(" .!?;,-")
    words = text.split()
    if not words or len(words) > max_words:
        return None
    converted = []
    for index, word in enumerate(words):
        lowered = word.lower()
        if (
            demonstratives
            and lowered in _DEMONSTRATIVES
            and index + 1 < len(words)
            and words[index + 1].lower() not in _BOUNDARY_WORDS
        ):
            # "that lake sunrise" (the one in the shared photo) is "the lake sunrise".
            converted.append("the")
        elif lowered in _OWN_PRONOUNS:
            converted.append(_OWN_PRONOUNS[lowered])
        elif lowered in _PRONOUN_VALUES or not any(c.isalnum() for c in word):
            return None
        else:
            converted.append(word)
    if converted[0].lower() in _NOT_A_VALUE_START:
        return None
    return " ".join(converted)


def _strip_temporal(text, matches, offset):
    """``text`` (which starts at ``offset`` of its clause) cut before its first time phrase."""
    for match in matches:
        if match.start >= offset and match.start - offset < len(text):
            return text[: match.start - offset]
    return text


# -- the grammars ----------------------------------------------------------------

_OWN_RE = re.compile(
    _WHO + _ADV + r"(?P<verb>have got|have|got|own|bought|purchased|picked up|adopted|rescued|"
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
    _WHO + _ADV + r"(?:have\s+)?(?P<verb>sold|gave away|given away|got rid of|gotten rid of|"
    r"traded in|traded|swapped|donated|scrapped|returned|replaced|sold off|gave up)\s+",
    re.I,
)
_GAVE_RE = re.compile(_WHO + _ADV + r"(?:have\s+)?(?:gave|given)\s+(?=(?:my|our|the)\s)", re.I)
_NO_LONGER_RE = re.compile(
    _WHO + r"(?P<how>no longer|do not|did not|used to)\s+(?:have|own|drive|ride|have got)\s+",
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

_KIN_WORDS = "|".join(sorted((re.escape(k) for k in S.KIN), key=len, reverse=True))
_KIN_MODIFIERS = (
    r"(?:(?P<mod>little|big|older|younger|baby|twin|best|eldest|oldest|youngest|elder)\s+|"
    r"(?:lovely|wonderful|amazing|beloved|dear|two|three|four)\s+)?"
)
_KIN_BLOCKERS = r"(?!(?:late|ex|former|future|deceased|dead|imaginary)\b)"
_NAME = r"(?-i:(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?))"
_KIN_NAMED_RE = re.compile(
    r"\b(?:my|our)\s+" + _KIN_BLOCKERS + _KIN_MODIFIERS + rf"(?P<kin>{_KIN_WORDS})"
    r"(?:'s\s+name\s+is|\s+is\s+(?:called|named)|,|\s+)\s*" + _NAME,
    re.I,
)
_NAME_IS_KIN_RE = re.compile(
    r"^"
    + _NAME
    + r"\s+is\s+(?:my|our)\s+"
    + _KIN_BLOCKERS
    + _KIN_MODIFIERS
    + rf"(?P<kin>{_KIN_WORDS})\b",
    re.I,
)
_HAVE_KIN_RE = re.compile(
    _WHO
    + _ADV
    + r"(?:have got|have|got)\s+(?P<q>a|an|one|two|three|four|five|six|\d)\s+"
    + _KIN_MODIFIERS
    + rf"(?P<kin>{_KIN_WORDS})\b"
    r"(?:\s+(?:named|called)\s+" + _NAME + r")?",
    re.I,
)
_MY_KIN_RE = re.compile(
    r"\b(?:my|our)\s+" + _KIN_BLOCKERS + _KIN_MODIFIERS + rf"(?P<kin>{_KIN_WORDS})(?:'s)?\b",
    re.I,
)
_MARRIED_TO_RE = re.compile(
    r"\bI\s+am\s+" + _ADV + r"(?P<rel>married|engaged)\s+to\s+" + _NAME, re.I
)
_MARITAL_RE = re.compile(
    r"\bI\s+(?:am|got)\s+" + _ADV + r"(?P<status>married|single|divorced|engaged|widowed|"
    r"separated)\b(?!\s+to\b)",
    re.I,
)


def _capitalised_words(most):
    """Up to ``most`` capitalised words with the small words names have inside ("Bank of
    America"); case-sensitive even inside case-insensitive expressions."""
    return (
        r"(?-i:[A-Z][\w.'&-]*(?:\s+(?:(?:of|de|del|da|do|la|le|upon|on|the|and|&)\s+)?"
        rf"[A-Z0-9][\w.'&-]*){{0,{most - 1}}})"
    )


_CAP_SEQUENCE = _capitalised_words(4)
_PLACE = r"(?P<place>(?:the\s+)?" + _CAP_SEQUENCE + r")"
_MY_NAME_RE = re.compile(
    r"\b(?:my\s+name\s+is|I\s+am\s+called|I\s+am\s+named)\s+" + _NAME + r"(?![\w'-])", re.I
)
_GO_BY_RE = re.compile(
    r"(?:\bI\s+go\s+by|\b(?:people|everyone|friends)\s+call\s+me|^(?:please\s+)?call\s+me)\s+"
    + _NAME,
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
    r"(?:yo|y/o)\b|\bI\s+" + _ADV + r"turned\s+(?P<n3>\d{1,3})\b",
    re.I,
)
_RESIDENCE_RE = re.compile(
    _WHO + _ADV + r"(?:have\s+)?(?P<verb>live|lived|am living|are living|been living|reside|"
    r"am based|are based|moved|relocated|have moved)\s+(?:in|to|out to)\s+" + _PLACE,
    re.I,
)
_ORIGIN_RE = re.compile(
    r"\bI\s+(?:am\s+" + _ADV + r"(?:originally\s+)?from|(?:grew up|was raised)\s+in|was\s+born"
    r"\s+(?:and\s+raised\s+)?in)\s+(?:(?P<year>(?:19|20)\d\d)\b|" + _PLACE + r")",
    re.I,
)
_WORK_AT_RE = re.compile(
    _WHO + _ADV + r"(?:work|am working|have been working|have worked)\s+(?P<prep>at|for)\s+"
    r"(?:(?P<org>(?:the\s+)?" + _capitalised_words(5) + r")"
    r"|(?P<det>a|an)\s+(?P<generic>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}))",
    re.I,
)
_ROLE_RE = re.compile(
    r"\bI\s+(?:am|work\s+as|am\s+working\s+as|have\s+been\s+working\s+as|work\s+full-time\s+as|"
    r"work\s+part-time\s+as)\s+" + _ADV + r"(?P<det>a|an)\s+(?P<rest>.+)",
    re.I,
)
_ROLE_STATE_RE = re.compile(
    r"\bI\s+am\s+" + _ADV + r"(?P<state>retired|unemployed|self-employed|semi-retired)\b", re.I
)
_DIET_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+"
    + _ADV
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
_LANGUAGE_RE = re.compile(
    r"\bI\s+" + _ADV + r"(?P<verb>speak|am fluent in|am learning|have been learning|am studying)"
    r"\s+(?P<rest>.+)",
    re.I,
)
_NATIVE_RE = re.compile(r"\bI\s+am\s+a\s+native\s+(?P<lang>[A-Za-z]+)\s+speaker\b", re.I)
_LEARNING_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+" + _ADV + r"(?P<verb>learning|studying)\s+(?P<rest>.+)", re.I
)
_PLAY_RE = re.compile(
    r"\bI\s+" + _ADV + r"(?P<verb>play|practice|practise)\s+(?P<the>the\s+)?(?P<what>[a-z]+"
    r"(?:\s+(?:games|ball))?)\b",
    re.I,
)
_SPORTS = frozenset(
    """tennis soccer football basketball baseball volleyball golf chess hockey rugby cricket
    badminton squash poker softball lacrosse pickleball handball bridge yoga pilates
    karate judo taekwondo""".split()
)
_DURATION_ACTIVITY_RE = re.compile(
    r"\bI\s+have\s+been\s+(?P<ing>[a-z]+ing)\b(?P<rest>[^,;]*)", re.I
)
_IDLE_ING = frozenset(
    """feeling thinking wondering trying going doing having getting looking meaning waiting
    hoping dealing struggling being saying telling asking seeing hearing coming living working
    keeping making taking putting staying sitting sleeping eating talking texting planning
    considering using needing wanting""".split()
)
_ACTIVITY_RE = re.compile(
    r"\bI\s+(?:am|have\s+been)\s+" + _ADV + r"(?P<verb>working on|looking into|researching|"
    r"training for|saving up for|saving for|preparing for|trying out|volunteering at|"
    r"volunteering with|volunteering for|writing|reading|building|renovating|organizing|"
    r"organising|teaching|coaching|practicing|practising|recording|attending|involved in|"
    r"involved with)\s+(?P<rest>.+)",
    re.I,
)
_FAVORITE_RE = re.compile(
    r"\b(?:my|our)\s+(?:all-time\s+|absolute\s+|new\s+)?(?P<fav>favou?rite|fave)\s+"
    r"(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|has to be|would be)\s+(?P<rest>.+)",
    re.I,
)
_PREFERENCE_RE = re.compile(
    _WHO + _ADV + r"(?P<verb>prefer|like|love|enjoy|adore|dislike|hate|detest|loathe|"
    r"cannot stand|can not stand|do not like|do not enjoy|do not love|am not a fan of|"
    r"are not fans of|am not into|am (?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan of|"
    r"are (?:big\s+|huge\s+)?fans of|am (?:really\s+|so\s+|very\s+)?into|are into|"
    r"(?:am|are) (?:really\s+|so\s+|very\s+|super\s+)?(?:passionate about|interested in|"
    r"obsessed with|crazy about)|"
    r"would prefer|would much prefer|would rather(?: have)?|would like|want|need)\s+(?P<rest>.+)",
    re.I,
)
_HABIT_RE = re.compile(
    _WHO + _ADV + r"(?:use|write in|code with|indent with|work in|measure in|think in)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_CONTRAST_RE = re.compile(r"\s+(?:over|to|rather than|instead of|more than|than)\s+", re.I)
_IMPERATIVE_RE = re.compile(
    r"^(?:please\s+)?(?:always\s+|just\s+|only\s+)?(?:(?P<keep>keep|make)\s+(?:your\s+|the\s+|"
    r"all\s+|my\s+)?(?P<noun>answers|responses|replies|explanations|it)\s+(?P<adj>short|brief|"
    r"concise|detailed|simple|technical|long|succinct|terse|thorough)"
    r"|(?P<verb>use|give me|answer in|answer with|respond in|respond with|reply in|reply with|"
    r"write in|format (?:answers|responses|it) (?:as|in)|switch to|stick to|stick with)\s+"
    r"(?P<rest>.+))",
    re.I,
)
_DECISION_RE = re.compile(
    _WHO + _ADV + r"(?:have\s+)?(?:finally\s+)?decided\s+(?P<how>not\s+to|to|against|on)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_CHOICE_RE = re.compile(
    _WHO + _ADV + r"(?:have\s+)?(?P<verb>chosen|chose|picked(?!\s+up)|opted for|settled on)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_PLAN_RE = re.compile(
    _WHO + _ADV + r"(?:(?:am|are)\s+(?:planning|intending|aiming)|plan|intend|aim)\s+to\s+"
    r"(?P<rest>.+)",
    re.I,
)
_OUTCOME_RE = re.compile(
    _WHO + _ADV + r"(?:have\s+)?(?P<verb>passed|failed|won|aced|finished|completed|"
    r"graduated(?:\s+from)?|earned|landed|launched|published|released|qualified for|"
    r"got promoted(?:\s+to)?|got a promotion|got hired(?:\s+(?:at|by))?|"
    r"got accepted(?:\s+(?:to|into|at))?|got into(?=\s+(?:[\w-]+\s+){0,3}(?:school|college|"
    r"university|program|programme|course|team|club|academy|conservatory)\b)|"
    r"got (?:the|a|my)\s+(?:new\s+|dream\s+)?job"
    r"(?:\s+(?:at|as))?|quit|retired from|beat|achieved)\b\s*(?P<rest>.*)",
    re.I,
)
# Verbs that name a notable outcome or experience only with a fitting object:
# "I passed my driving test", not "I passed the wrong argument".
_OBJECT_REQUIRED = {
    verb: re.compile(pattern, re.I)
    for verbs, pattern in (
        (
            ("passed", "failed", "aced"),
            r"\b(?:exams?|tests?|interview|bar|certification|course|class|audition|quiz|"
            r"assessment|probation|screening|finals|midterms?|boards|licen[cs]e|thesis|"
            r"defen[cs]e|physical|checkride|module|semester|grade)\b",
        ),
        (
            ("ran",),
            r"\b(?:race|marathon|half|5k|10k|ultra|triathlon|relay|campaign|business|company|"
            r"shop|store|restaurant|workshop|event|club|charity|miles?|km|fundraiser)\b",
        ),
        (
            ("opened",),
            r"\b(?:store|shop|studio|restaurant|business|bakery|caf[eé]|bar|gallery|clinic|"
            r"practice|salon|boutique|company|school|daycare|office)\b",
        ),
        (("started",), r"^(?!the\b)"),
    )
    for verb in verbs
}
# Work-of-the-day objects: true, but not memories about the person.
_ROUTINE = frozenset(
    """server tests script build code function bug bugs error errors ticket branch container
    query migration deploy deployment commit file files program process service database
    command terminal vm pipeline task tasks update upgrade install installation argument
    parameter variable docs documentation pr issue issues suite ci email emails message
    messages meeting call calls typo""".split()
)
# "the second option", "the first one": a choice among things only the
# conversation shows.
_ORDINAL_REFERENCE_RE = re.compile(
    r"^(?:the\s+)?(?:first|second|third|last|other|former|latter|previous|next|same|"
    r"new|old|\w+er)\s+(?:one|ones|option|options|approach|version|choice|solution|answer|"
    r"idea|suggestion|method|way)\b",
    re.I,
)
# "I love the colours" praises something shown in the conversation, not a taste.
_SHOWN_THING_RE = re.compile(
    r"^(?:all\s+)?the\s+(?:way|look|looks|colou?rs?|vibes?|idea|thought|feeling|energy|"
    r"details?|texture|design|style|shot|pic|picture|photo|view|atmosphere|mood|message|"
    r"sound|smell|name)\b",
    re.I,
)
_OUTCOMES_WITHOUT_OBJECT = frozenset(
    {"graduated", "got promoted", "got a promotion", "got hired", "got accepted", "quit"}
)
_EVENT_RE = re.compile(
    _WHO + _ADV + r"(?:have\s+|had\s+)?(?P<verb>attended|visited|went to|went on|traveled to|"
    r"travelled to|made|developed|created|designed|founded|opened|"
    r"took part in|participated in|competed in|volunteered(?:\s+(?:at|for|with))?|"
    r"signed up for|enrolled in|joined|started|ran|hiked|climbed|painted|wrote|"
    r"performed(?:\s+(?:at|in))?|hosted|organized|organised|gave a talk(?:\s+(?:at|on|about))?|"
    r"gave a presentation(?:\s+(?:at|on|about))?|celebrated|took up|donated to|tried out|"
    r"took(?=\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,2}(?:class|classes|course|trip|"
    r"vacation|holiday|workshop|lessons?)\b)|went(?=\s+[a-z]+ing\b))\s+(?P<rest>.+)",
    re.I,
)
# Errands and routines: true, but not worth remembering.
_MUNDANE = frozenset(
    """bed sleep store shop bathroom toilet work school office class lunch dinner breakfast
    supermarket mall grocery groceries kitchen home house room car bank gym doctor dentist
    meeting call walk nap shower laundry dishes job""".split()
)
# Objects that make an experience say nothing ("I made a mistake", "I made it").
_VAGUE = frozenset(
    """mistake mistakes decision choice difference progress sense effort point sure time day
    friends peace money changes change call calls plan plans way living mess fun""".split()
)


def _hint(matches, near=0):
    """The time phrase of a clause that belongs to a claim starting at ``near``.

    The first phrase within or after the claim, else the closest one before it
    ("Until Friday, I prefer dark mode").
    """
    for match in matches:
        if match.end > near:
            return match.hint
    return matches[-1].hint if matches else TemporalHint()


_CLAUSE_WORD_RE = re.compile(r"[a-z]+")


class _Clause:
    """One clause being read, with what the grammars found so far."""

    def __init__(self, text, context):
        self.text = text
        self.context = context
        self._temporal = None
        self.words = frozenset(_CLAUSE_WORD_RE.findall(text.lower()))

    def find(self, pattern):
        """``pattern``'s matches, skipping the search when none of its trigger words occur."""
        triggers = _TRIGGERS.get(id(pattern))
        if triggers is not None and triggers.isdisjoint(self.words):
            return ()
        return pattern.finditer(self.text)

    @property
    def temporal(self):
        if self._temporal is None:
            self._temporal = find_temporal(self.text, self.context.occurred_at)
        return self._temporal

    def value(self, start, **options):
        rest = _strip_temporal(self.text[start:], self.temporal, start)
        return _value(rest, **options)


@dataclass
class _Tally:
    """Proposals read so far in one extraction, duplicates included."""

    proposed: int = 0

    @property
    def exhausted(self):
        return self.proposed >= MAX_PROPOSALS


class _MessageReader:
    """The proposals of one message, before retractions remove what they retract."""

    def __init__(self, occurred_at, owned, tally):
        self.occurred_at = occurred_at
        self.owned = owned
        self.tally = tally
        self.positives = []
        self.negatives = []
        self.retracted_mentions = []

    def add(self, proposal):
        if proposal.subject and not self.tally.exhausted:
            self.tally.proposed += 1
            self.positives.append(proposal)

    def add_negative(self, proposal):
        if proposal.subject and not self.tally.exhausted:
            self.tally.proposed += 1
            self.negatives.append(proposal)

    def proposals(self):
        """Negatives, then the positives the message did not itself retract, deduplicated."""
        retracted = {p.subject for p in self.negatives}
        seen = set()
        kept = []
        for proposal in self.negatives + self.positives:
            if proposal.polarity == Polarity.POSITIVE and (
                proposal.subject in retracted
                or any(m and m <= proposal.tokens for m in self.retracted_mentions)
            ):
                continue
            key = (proposal.subject, proposal.polarity)
            if key in seen:
                continue
            seen.add(key)
            kept.append(proposal)
        return kept


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
    if not _is_capitalised(head) and head.lower() not in S.PLURAL_NOUNS:
        # "two cats" and "a cat" are one subject.
        words[-1] = S.singular(head.lower())
    return S.subject_key(phrase.kind, " ".join(words))


def _owned(clause, phrase, confidence, near):
    subject = _ownership_subject(phrase)
    if subject is None or phrase.blocked:
        return None
    tokens = S.entity_tokens(phrase.text + " " + phrase.name)
    return _Proposal(
        type=BeliefType.OWNERSHIP,
        subject=subject,
        statement=_ownership_statement(phrase),
        confidence=confidence,
        temporal=_hint(clause.temporal, near),
        tokens=frozenset(tokens),
    )


def _read_ownership(clause, reader):
    text = clause.text
    for match in clause.find(_OWN_RE):
        verb = match.group("verb").lower()
        phrases, _ = _noun_phrases(
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
            phrases, _ = _noun_phrases(text[joint.end() :], determiner_required=True)
            for phrase in phrases:
                if phrase.kind == "home":
                    continue
                proposal = _owned(clause, phrase, 0.75, match.start())
                if proposal:
                    reader.add(proposal)
    for match in clause.find(_POSSESSIVE_RE):
        phrases, _ = _noun_phrases(text[match.end() :])
        apposed = _APPOSED_NAME_RE.search(text, 0, match.start())
        for phrase in phrases:
            if phrase.kind not in _POSSESSIVE_KINDS:
                continue
            if phrase.kind == "pet" and not phrase.name and apposed and _is_name(apposed[1]):
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
        _Proposal(
            type=BeliefType.OWNERSHIP,
            subject=subject,
            statement=statement,
            polarity=Polarity.NEGATIVE,
            confidence=0.8,
            temporal=_hint(clause.temporal, near),
        )
    )


def _read_retractions(clause, reader):
    text = clause.text
    for match in clause.find(_RETRACT_RE):
        rest = text[match.end() :]
        phrases, end = _noun_phrases(rest, allow_unknown=True)
        for phrase in phrases:
            _retract(clause, reader, phrase, match.start())
        exchange = _EXCHANGE_RE.match(rest[end:]) if phrases else None
        if exchange:
            gained, _ = _noun_phrases(rest[end + exchange.end() :], determiner_required=True)
            for phrase in gained:
                proposal = _owned(clause, phrase, 0.7, match.start())
                if proposal:
                    reader.add(proposal)
    for match in clause.find(_GAVE_RE):
        rest = text[match.end() :]
        phrases, end = _noun_phrases(rest)
        if phrases and re.match(r"\s+(?:away|to)\b", rest[end:], re.I):
            for phrase in phrases:
                _retract(clause, reader, phrase, match.start())
    for match in clause.find(_LOST_BY_OTHERS_RE):
        phrases, _ = _noun_phrases(text[match.end() :], allow_unknown=True)
        for phrase in phrases:
            reader.retracted_mentions.append(
                frozenset(S.entity_tokens(phrase.text + " " + phrase.name))
            )
    for match in clause.find(_NO_LONGER_RE):
        how = match.group("how").lower()
        if how in {"do not", "did not"} and not _ANYMORE_RE.search(text, match.end()):
            continue
        phrases, _ = _noun_phrases(text[match.end() :], allow_unknown=True)
        for phrase in phrases:
            _retract(clause, reader, phrase, match.start())
    for match in clause.find(_POSSESSIVE_RE):
        phrases, end = _noun_phrases(text[match.end() :], allow_unknown=False)
        if not phrases:
            continue
        after = text[match.end() + end :]
        gone = _LOST_THING_RE.match(after) or (
            phrases[-1].kind == "pet" and _PET_GONE_RE.match(after)
        )
        if gone:
            for phrase in phrases:
                _retract(clause, reader, phrase, match.start())


def _kin_phrase(match):
    """The relative as the owner named them, keeping a telling modifier ("best friend")."""
    kin = match.group("kin").lower()
    modifier = match.group("mod")
    return f"{modifier.lower()} {kin}" if modifier else kin


def _relationship(clause, subject, statement, start, confidence):
    return _Proposal(
        type=BeliefType.RELATIONSHIP,
        subject=subject,
        statement=statement,
        confidence=confidence,
        temporal=_hint(clause.temporal, start),
    )


_PLURAL_KIN = frozenset({"children", "siblings", "parents", "grandchildren"})


def _read_relationships(clause, reader):
    text = clause.text
    mentioned = set()

    def named(match):
        kin = match.group("kin").lower()
        if S.KIN[kin] in _PLURAL_KIN or (kin.endswith("s") and S.KIN[kin] != kin):
            # "my kids Mia and Leo": several people, no single named relative.
            return
        names = [n[:-2] if n.endswith("'s") else n for n in match.group("name").split()]
        if not _is_name(names[0]):
            return
        name = " ".join(names) if len(names) > 1 and _is_name(names[1]) else names[0]
        subject = S.subject_key("person", name)
        if subject:
            mentioned.add(S.KIN[kin])
            phrase = _kin_phrase(match)
            statement = f"User has {S.article(phrase)} {phrase} named {name}."
            reader.add(_relationship(clause, subject, statement, match.start(), 0.8))

    for match in clause.find(_KIN_NAMED_RE):
        named(match)
    match = _NAME_IS_KIN_RE.match(text)
    if match:
        named(match)
    for match in clause.find(_HAVE_KIN_RE):
        if match.group("name"):
            named(match)
            continue
        key = S.KIN[match.group("kin").lower()]
        phrase = _kin_phrase(match)
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
        if key not in S.CLOSE_KIN or key in mentioned:
            continue
        phrase = _kin_phrase(match)
        plural = (key in _PLURAL_KIN and kin not in {"child", "kid"}) or (
            kin.endswith("s") and kin != key
        )
        statement = f"User has {phrase}." if plural else f"User has {S.article(phrase)} {phrase}."
        mentioned.add(key)
        subject = S.subject_key("relationship", key)
        reader.add(_relationship(clause, subject, statement, match.start(), 0.6))
    for match in clause.find(_MARRIED_TO_RE):
        name = match.group("name").split()[0]
        subject = S.subject_key("person", name) if _is_name(name) else None
        if subject:
            statement = f"User is {match.group('rel').lower()} to {name}."
            reader.add(_relationship(clause, subject, statement, match.start(), 0.8))
    for match in clause.find(_MARITAL_RE):
        statement = f"User is {match.group('status').lower()}."
        reader.add(_attribute(clause, S.ATTR_MARITAL_STATUS, statement, match.start(), 0.75))


def _attribute(clause, subject, statement, start, confidence=0.8):
    return _Proposal(
        type=BeliefType.ATTRIBUTE,
        subject=subject,
        statement=statement,
        confidence=confidence,
        temporal=_hint(clause.temporal, start),
    )


def _place(text):
    """A place or organisation name, trimmed of trailing words that are not part of it."""
    words = text.split()
    while words and (words[-1].lower() in _BOUNDARY_WORDS or not _is_capitalised(words[-1])):
        if words[-1].lower() == "the" and len(words) == 1:
            break
        words.pop()
    if not words or all(w.lower() in _NAME_STOP for w in words):
        return None
    return " ".join(words).rstrip(".,'")


def _read_attributes(clause, reader):
    text = clause.text
    for match in clause.find(_MY_NAME_RE):
        name = match.group("name")
        if all(_is_name(w) for w in name.split()):
            reader.add(_attribute(clause, S.ATTR_NAME, f"User's name is {name}.", match.start()))
    for match in clause.find(_GO_BY_RE):
        name = match.group("name").split()[0]
        if _is_name(name):
            reader.add(_attribute(clause, S.ATTR_NAME, f"User goes by {name}.", match.start()))
    for match in clause.find(_BIRTHDAY_RE):
        statement = f"User's birthday is {match.group('date')}."
        reader.add(_attribute(clause, S.ATTR_BIRTHDAY, statement, match.start()))
    for match in clause.find(_AGE_RE):
        age = match.group("n") or match.group("n2") or match.group("n3")
        if 1 <= int(age) <= 120:
            statement = f"User is {age} years old."
            reader.add(_attribute(clause, S.ATTR_AGE, statement, match.start()))
    for match in clause.find(_RESIDENCE_RE):
        place = _place(match.group("place"))
        if place:
            statement = f"User lives in {place}."
            reader.add(_attribute(clause, S.ATTR_RESIDENCE, statement, match.start()))
    for match in clause.find(_ORIGIN_RE):
        phrase = match.group(0)
        if match.group("year"):
            statement = f"User was born in {match.group('year')}."
            reader.add(_attribute(clause, S.ATTR_BIRTH_YEAR, statement, match.start()))
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
        reader.add(_attribute(clause, S.ATTR_ORIGIN, statement, match.start()))
    for match in clause.find(_WORK_AT_RE):
        if match.group("org"):
            org = _place(match.group("org"))
        else:
            generic = _value(match.group("generic"), max_words=3)
            org = f"{match.group('det').lower()} {generic}" if generic else None
        if org:
            statement = f"User works {match.group('prep').lower()} {org}."
            reader.add(_attribute(clause, S.ATTR_EMPLOYER, statement, match.start()))
    for match in clause.find(_ROLE_RE):
        _read_role(clause, reader, match)
    for match in clause.find(_ROLE_STATE_RE):
        statement = f"User is {match.group('state').lower()}."
        reader.add(_attribute(clause, S.ATTR_OCCUPATION, statement, match.start()))
    for match in clause.find(_DIET_RE):
        statement = f"User is {match.group('diet').lower()}."
        reader.add(_attribute(clause, S.ATTR_DIET, statement, match.start()))
    for match in clause.find(_AVOID_FOOD_RE):
        food = match.group("food").lower()
        how = "does not" if match.group("how").lower().startswith("do") else "never"
        verb = match.group("verb").lower()
        verb = verb + "s" if how == "never" else verb
        statement = f"User {how} {verb} {food}."
        subject = S.subject_key("diet", food)
        reader.add(_attribute(clause, subject, statement, match.start()))
    for match in clause.find(_ALLERGY_RE):
        if match.group("rest"):
            allergen = clause.value(match.start("rest"), max_words=4)
            statement = f"User is allergic to {allergen}." if allergen else None
        else:
            allergen = match.group("what")
            statement = f"User has {S.article(allergen)} {allergen} allergy."
        subject = S.topic_subject_of("allergy", allergen) if allergen else None
        if subject and statement:
            reader.add(_attribute(clause, subject, statement, match.start()))
    _read_languages(clause, reader)
    for match in clause.find(_PLAY_RE):
        what = match.group("what").lower()
        head = what.split()[-1]
        if what in _SPORTS or S.KIND_OF_WORD.get(head) == "instrument" or what == "video games":
            the = "the " if match.group("the") else ""
            statement = f"User {match.group('verb').lower()}s {the}{what}."
            subject = S.subject_key("activity", what)
            reader.add(_attribute(clause, subject, statement, match.start(), 0.75))
    for match in clause.find(_DURATION_ACTIVITY_RE):
        ing = match.group("ing").lower()
        looks_back = [
            m for m in clause.temporal if m.hint.valid_from is not None and m.start >= match.start()
        ]
        if ing in _IDLE_ING or not looks_back:
            continue
        start = match.start("rest")
        rest_text = _strip_temporal(text[start:], clause.temporal, start)
        rest = _value(rest_text, max_words=5) if rest_text.strip(" ,.") else ""
        if rest is None:
            continue
        activity = f"{ing} {rest}".strip()
        subject = S.topic_subject_of("activity", activity)
        if subject:
            proposal = _Proposal(
                type=BeliefType.FACT,
                subject=subject,
                statement=f"User has been {activity}.",
                confidence=0.6,
                temporal=looks_back[0].hint,
            )
            reader.add(proposal)


def _read_role(clause, reader, match):
    words = []
    for token in match.group("rest").split():
        bare = token.strip(".,!;:-")
        if bare.lower() in _BOUNDARY_WORDS or not bare:
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
    reader.add(_attribute(clause, S.ATTR_OCCUPATION, f"User is {det} {role}.", match.start(), 0.75))
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
        reader.add(_attribute(clause, subject, statement, match.start(), 0.75))


_LANGUAGE_LIST_RE = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+as well as\s+)", re.I)


def _read_languages(clause, reader):
    for match in clause.find(_LANGUAGE_RE):
        verb = match.group("verb").lower()
        languages = []
        for piece in _LANGUAGE_LIST_RE.split(match.group("rest")):
            words = piece.split()
            word = words[0].strip(".,!") if words else ""
            if word.lower() not in S.LANGUAGES:
                break
            languages.append(word)
            if len(words) > 1:
                break
        for language in languages:
            if verb in {"speak", "am fluent in"}:
                statement = f"User speaks {language}."
                subject = S.subject_key("language", language)
            else:
                statement = f"User is learning {language}."
                subject = S.subject_key("learning", language)
            reader.add(_attribute(clause, subject, statement, match.start()))
    for match in clause.find(_NATIVE_RE):
        language = match.group("lang")
        if language.lower() in S.LANGUAGES:
            statement = f"User is a native {language} speaker."
            subject = S.subject_key("language", language)
            reader.add(_attribute(clause, subject, statement, match.start()))
    for match in clause.find(_LEARNING_RE):
        first = match.group("rest").split()[0].lower().strip(".,!")
        if first in S.LANGUAGES or first in {"for", "at", "with", "about"}:
            continue
        value = clause.value(match.start("rest"), max_words=6)
        subject = S.topic_subject_of("learning", value) if value else None
        if subject:
            statement = f"User is {match.group('verb').lower()} {value}."
            reader.add(_attribute(clause, subject, statement, match.start(), 0.7))


_OBJECTLESS_VERBS = frozenset(
    "hear see know say tell think talk chat meet help be do get go have hang try".split()
)
_DISLIKE_VERBS = {"dislike", "hate", "detest", "loathe", "cannot stand", "can not stand"}
_DISLIKE_VERBS |= {"do not like", "do not enjoy", "do not love", "am not a fan of"}
_DISLIKE_VERBS |= {"are not fans of", "am not into"}
_STABLE_ONLY_VERBS = {"would like", "want", "need"}


def _preference(clause, reader, value, verb, start, contrast=""):
    words = value.lower().split()
    if _ORDINAL_REFERENCE_RE.match(value) or _SHOWN_THING_RE.match(value):
        return
    if words[0] == "their":
        # "I love my Kindle" is about a possession, not a taste.
        return
    if words[0] == "to" and (len(words) < 2 or words[1] in _OBJECTLESS_VERBS) and len(words) < 3:
        # "I love to hear (that)": the thing liked was cut off.
        return
    subject = S.preference_subject(value, contrast)
    if subject is None:
        return
    stable = subject in S.STABLE_PREFERENCE_SUBJECTS
    if verb in _STABLE_ONLY_VERBS and not stable:
        return
    full = f"{value} {contrast.strip()}".strip() if contrast else value
    if verb in _DISLIKE_VERBS:
        statement = f"User dislikes {full}."
    elif stable or verb.startswith(("prefer", "would")) or "prefer" in verb:
        statement = f"User prefers {full}."
    else:
        statement = f"User likes {full}."
    confidence = 0.85 if stable else 0.7
    reader.add(
        _Proposal(
            type=BeliefType.PREFERENCE,
            subject=subject,
            statement=statement,
            confidence=confidence,
            temporal=_hint(clause.temporal, start),
        )
    )


# What cannot start the action of "prefer to X" / "would rather X": X names a thing then.
_NOT_AN_ACTION = (
    _DETERMINERS
    | _DEMONSTRATIVES
    | _PRONOUN_VALUES
    | frozenset("not something anything nothing everything some any all no".split())
)


def _preferred_action(item, verb):
    """ "to get replies in Spanish" for "prefer to get ..." or "would rather get ...", the
    phrase read like any value, so that the statement reads "User prefers to get ..."; None
    when the verb prefers no action or the item names a thing."""
    if not ("prefer" in verb or verb == "would rather"):
        return None
    words = item.split()
    if words and words[0].lower() == "to":
        words = words[1:]
    elif verb != "would rather":
        return None
    if not words or not (words[0].isalpha() and words[0].islower()):
        return None
    if words[0] in _NOT_AN_ACTION:
        return None
    value = _value(" ".join(words))
    return value and f"to {value}"


def _read_preferences(clause, reader):
    text = clause.text
    for match in clause.find(_PREFERENCE_RE):
        verb = " ".join(match.group("verb").lower().split())
        verb = re.sub(r"\b(?:big|huge|massive|great|really|so|very)\s+", "", verb)
        if verb.startswith(("am a fan", "am fan", "are fans")):
            verb = "like"
        if verb.startswith(("am ", "are ")) and not verb.startswith(("am not", "are not")):
            verb = "like"
        rest_start = match.start("rest")
        rest = _strip_temporal(text[rest_start:], clause.temporal, rest_start)
        contrast = ""
        if "prefer" in verb or verb.startswith("would rather"):
            pieces = _CONTRAST_RE.split(rest, maxsplit=1)
            if len(pieces) == 2:
                joint = _CONTRAST_RE.search(rest).group(0)
                other = _value(pieces[1], max_words=5)
                if other:
                    rest, contrast = pieces[0], joint.strip().lower() + " " + other
        items = _list_items(rest)
        if len(items) > 1:
            contrast = ""
        for item in items:
            if action := _preferred_action(item, verb):
                _preference(clause, reader, action, verb, match.start(), contrast)
                continue
            # "I love making this cake": an activity, so "this" is just "the".
            gerund = item.split(" ", 1)[0].lower().endswith("ing")
            value = _value(item, demonstratives=gerund)
            if value:
                _preference(clause, reader, value, verb, match.start(), contrast)
    for match in clause.find(_HABIT_RE):
        value = clause.value(match.start("rest"))
        if value and S.stable_preference_subject(value):
            _preference(clause, reader, value, "prefer", match.start())
    for match in clause.find(_FAVORITE_RE):
        what = match.group("what").lower()
        value = clause.value(match.start("rest"), max_words=6)
        if not value or what.split()[-1] in _PRONOUN_VALUES:
            continue
        subject = S.subject_key("topic", f"favorite {what}")
        statement = f"User's {match.group('fav').lower()} {what} is {value}."
        reader.add(
            _Proposal(
                type=BeliefType.PREFERENCE,
                subject=subject,
                statement=statement,
                confidence=0.75,
                temporal=_hint(clause.temporal, match.start()),
            )
        )
    match = _IMPERATIVE_RE.match(text)
    if match:
        if match.group("keep"):
            noun = match.group("noun").lower()
            noun = "answers" if noun == "it" else noun
            value = f"{match.group('adj').lower()} {noun}"
        else:
            value = clause.value(match.start("rest"), max_words=6)
        if value and S.stable_preference_subject(value):
            _preference(clause, reader, value, "prefer", match.start())


_LIST_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[^,]*$)", re.I)


def _list_items(text):
    """A list of three or more ("hiking, swimming and reading") as items; else the text whole."""
    head = _VALUE_CUT_RE.sub(lambda m: m.group(0) if m.group(0).strip() == "," else "\x00", text)
    head = head.split("\x00", 1)[0]
    if head.count(",") >= 1:
        items = [i for i in _LIST_SPLIT_RE.split(head) if i.strip()]
        if len(items) >= 3 and all(len(i.split()) <= 4 for i in items):
            return items
    return [text]


def _read_decisions(clause, reader):
    for pattern, shape in ((_DECISION_RE, "decided"), (_CHOICE_RE, "chose"), (_PLAN_RE, "plans")):
        for match in clause.find(pattern):
            value = clause.value(match.start("rest"), max_words=10)
            if not value:
                continue
            if shape == "decided":
                how = " ".join(match.group("how").lower().split())
                statement = f"User decided {how} {value}."
            elif shape == "chose":
                if _ORDINAL_REFERENCE_RE.match(value):
                    continue
                statement = f"User chose {value}."
            else:
                statement = f"User plans to {value}."
            subject = S.topic_subject_of("decision", value)
            if subject:
                reader.add(
                    _Proposal(
                        type=BeliefType.DECISION,
                        subject=subject,
                        statement=statement,
                        confidence=0.7,
                        temporal=_hint(clause.temporal, match.start()),
                    )
                )


def _notable(verb, value):
    """Whether "User {verb} {value}" says something about the person, not their day's work."""
    required = _OBJECT_REQUIRED.get(verb.split(" ", 1)[0])
    if required is not None and not required.search(value):
        return False
    words = set(re.findall(r"[a-z0-9]+", value.lower()))
    return not (words & _ROUTINE or words & _VAGUE)


def _read_outcomes(clause, reader):
    for match in clause.find(_OUTCOME_RE):
        verb = " ".join(match.group("verb").lower().split())
        rest = match.group("rest")
        value = (
            clause.value(match.start("rest"), max_words=8, demonstratives=True)
            if rest.strip()
            else ""
        )
        base = re.sub(r"\s+(?:to|at|by|into|from|as)$", "", verb)
        if value is None or (not value and base not in _OUTCOMES_WITHOUT_OBJECT):
            continue
        if value and not _notable(verb, value):
            continue
        statement = f"User {verb} {value}." if value else f"User {base}."
        subject = S.topic_subject_of("outcome", value or base)
        if subject:
            reader.add(
                _Proposal(
                    type=BeliefType.OUTCOME,
                    subject=subject,
                    statement=statement,
                    confidence=0.7,
                    temporal=_hint(clause.temporal, match.start()),
                )
            )


def _read_activities(clause, reader):
    for match in clause.find(_ACTIVITY_RE):
        value = clause.value(match.start("rest"), max_words=8)
        subject = S.topic_subject_of("activity", value) if value else None
        if subject:
            verb = match.group("verb").lower()
            reader.add(
                _Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=f"User is {verb} {value}.",
                    confidence=0.6,
                    temporal=_hint(clause.temporal, match.start()),
                )
            )


def _read_events(clause, reader):
    for match in clause.find(_EVENT_RE):
        verb = " ".join(match.group("verb").lower().split())
        value = clause.value(match.start("rest"), max_words=8, demonstratives=True)
        if not value:
            continue
        key_words = S.topic_key(value).split("-")
        if not key_words[0] or (len(key_words) == 1 and key_words[0] in _MUNDANE):
            continue
        if not _notable(verb, value):
            continue
        subject = S.topic_subject_of("event", value)
        if subject:
            reader.add(
                _Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=f"User {verb} {value}.",
                    confidence=0.6,
                    temporal=_hint(clause.temporal, match.start()),
                )
            )


def _words(text):
    return frozenset(text.split())


# Words one of which a clause must contain for a grammar to possibly match;
# checking a set is much cheaper than running the expression.
_TRIGGERS = {
    _OWN_RE: _words(
        "have got own bought purchased picked adopted rescued inherited built drive ride"
    ),
    _POSSESSIVE_RE: _words("my our"),
    _RETRACT_RE: _words("sold gave given rid traded swapped donated scrapped returned replaced"),
    _GAVE_RE: _words("gave given"),
    _NO_LONGER_RE: _words("longer not used"),
    _LOST_BY_OTHERS_RE: _words(
        "sold gave rid traded donated scrapped returned stole crashed wrecked totaled totalled"
    ),
    _KIN_NAMED_RE: _words(" ".join(S.KIN)),
    _HAVE_KIN_RE: _words(" ".join(S.KIN)),
    _MY_KIN_RE: _words(" ".join(S.KIN)),
    _MARRIED_TO_RE: _words("married engaged"),
    _MARITAL_RE: _words("married single divorced engaged widowed separated"),
    _MY_NAME_RE: _words("name called named"),
    _BIRTHDAY_RE: _words("birthday"),
    _GO_BY_RE: _words("go call"),
    _AGE_RE: _words("old yo y turned years year yrs yr"),
    _RESIDENCE_RE: _words("live lived living reside based moved relocated"),
    _ORIGIN_RE: _words("from grew raised born"),
    _WORK_AT_RE: _words("work working worked"),
    _ROLE_RE: _words("a an"),
    _ROLE_STATE_RE: _words("retired unemployed self semi"),
    _DIET_RE: _words(
        "vegetarian vegan pescatarian pescetarian lactose kosher halal teetotal teetotaler"
    ),
    _AVOID_FOOD_RE: _words("eat drink"),
    _ALLERGY_RE: _words("allergic allergy"),
    _LANGUAGE_RE: _words("speak fluent learning studying"),
    _NATIVE_RE: _words("native"),
    _LEARNING_RE: _words("learning studying"),
    _PLAY_RE: _words("play practice practise"),
    _DURATION_ACTIVITY_RE: _words("been"),
    _PREFERENCE_RE: _words(
        "prefer like love enjoy adore dislike hate detest loathe stand fan fans into passionate "
        "interested obsessed crazy rather want need"
    ),
    _HABIT_RE: _words("use write code indent work measure think"),
    _FAVORITE_RE: _words("favorite favourite fave"),
    _DECISION_RE: _words("decided"),
    _CHOICE_RE: _words("chosen chose picked opted settled"),
    _PLAN_RE: _words("planning intending aiming plan intend aim"),
    _OUTCOME_RE: _words(
        "passed failed won aced finished completed graduated earned landed launched published "
        "released qualified promoted promotion hired accepted into job quit retired beat achieved"
    ),
    _ACTIVITY_RE: _words(
        "working looking researching training saving preparing trying volunteering writing "
        "reading building renovating organizing organising teaching coaching practicing "
        "practising recording attending involved"
    ),
    _EVENT_RE: _words(
        "attended visited went traveled travelled made developed created designed founded opened "
        "took participated competed volunteered signed enrolled joined started ran hiked climbed "
        "painted wrote performed hosted organized organised gave celebrated donated tried"
    ),
}

# Keyed by identity: hashing a compiled pattern costs more than the lookup saves.
_TRIGGERS = {id(pattern): words for pattern, words in _TRIGGERS.items()}

_GRAMMARS = (
    _read_retractions,
    _read_ownership,
    _read_relationships,
    _read_attributes,
    _read_preferences,
    _read_decisions,
    _read_outcomes,
    _read_activities,
    _read_events,
)


_SUBJECT_START_RE = re.compile(r"^(?P<who>I|we)\s", re.I)
_LEAD_SUBJECT_RE = re.compile(r"^[^,]{0,40},\s+(?P<who>I|we)\s", re.I)
# "I sold my BMW and bought a Tesla": a second verb of the same first-person
# subject starts a clause of its own.
_SHARED_SUBJECT_RE = re.compile(
    r",?\s+(?:and|but)\s+(?:then\s+|also\s+|now\s+|just\s+|recently\s+|finally\s+)?"
    r"(?=(?:have|own|bought|purchased|got|adopted|sold|traded|gave|donated|live|work|moved|"
    r"speak|play|decided|chose|picked|passed|failed|won|finished|completed|graduated|started|"
    r"joined|attended|visited|went|ran|painted|wrote|am|use|plan|am planning|no longer|had|"
    r"made|took|met|found|tried|[a-z]{3,}ed)\b)"
    # "love", "like" and the like are nouns too often ("self-acceptance and love"):
    # only a contrast ("I love hiking but hate running") starts a clause with them.
    r"|,?\s+but\s+(?=(?:love|like|prefer|enjoy|hate|dislike|adore)\b)",
    re.I,
)
# Another speaker or a wish in the first part of a clause owns its later verbs.
_EMBEDDED_SUBJECT_RE = re.compile(
    r"\b(?:you|he|she|they|it|people|someone|everyone|who|which|that|this)\b", re.I
)


# The owner telling the assistant something ("I wanted to tell you I joined a
# club", "I have to say") is not reporting someone else's words.
_OWN_TELLING_RE = re.compile(
    r"\bI\s+(?:[\w']+\s+){0,4}?(?:tell|told|telling)\s+(?:you|ya|u)\b"
    r"|\bI\s+(?:have|had|must|gotta|got)\s+to\s+say\b|\b(?:needless|safe)\s+to\s+say\b",
    re.I,
)


def _clauses(sentence):
    """The clauses of a sentence that may state something; none for skipped sentences."""
    if "\u27e6q\u27e7" in sentence or '"' in sentence:
        return []
    sentence = _TELLING_LEAD_RE.sub("", sentence)
    if _SKIP_SENTENCE_RE.search(_OWN_TELLING_RE.sub(" ", sentence)):
        return []
    clauses = []
    lead = ""
    for clause in _CLAUSE_SPLIT_RE.split(sentence):
        clause = clause.strip() if clause else ""
        if not clause:
            continue
        if not _FIRST_PERSON_RE.search(clause):
            # A lead-in without a speaker ("Starting next Monday, I ...") belongs
            # to the clause it introduces.
            lead = f"{lead}{clause}, "
            continue
        clause, lead = lead + clause, ""
        subject = _SUBJECT_START_RE.match(clause) or _LEAD_SUBJECT_RE.search(clause)
        if subject is None:
            clauses.append(clause)
            continue
        pieces = _SHARED_SUBJECT_RE.split(clause)
        clauses.append(pieces[0])
        for before, piece in zip(pieces, pieces[1:], strict=False):
            if _EMBEDDED_SUBJECT_RE.search(before) or _WISH_RE.search(before):
                clauses[-1] = f"{clauses[-1]} and {piece.strip()}"
            else:
                clauses.append(f"{subject.group('who')} {piece.strip()}")
    return clauses


# Chat drops the subject ("Just finished my first marathon!"); a sentence that
# opens with one of these past-tense verbs is the speaker's own report.
_SUBJECT_DROP_RE = re.compile(
    r"^(?:(?:just|finally|recently|also|then|so|and)\s+)*(?:bought|got|joined|finished|"
    r"started|went|visited|attended|adopted|passed|won|completed|picked up|ran|painted|wrote|"
    r"made|tried|took|launched|published|decided|moved|graduated|quit|sold|volunteered|"
    r"signed up)\b",
    re.I,
)


def _read_message(message, reader):
    for part in message.parts:
        text = _prepare(part)
        if text is None:
            continue
        for sentence, is_question in _sentences(text):
            if reader.tally.exhausted:
                return
            if _SUBJECT_DROP_RE.match(sentence):
                sentence = f"I {sentence[0].lower()}{sentence[1:]}"
            if (
                is_question
                or len(sentence) > MAX_SENTENCE_CHARS
                or _QUESTION_START_RE.match(sentence)
                or not _FIRST_PERSON_RE.search(sentence)
            ):
                continue
            for clause_text in _clauses(sentence):
                wishful = _WISH_RE.search(_PRESENT_PREFERENCE_RE.sub(" ", clause_text))
                clause = _Clause(clause_text, reader)
                if wishful:
                    # Only a present preference survives a wish: "I want short answers".
                    _read_wished_preferences(clause, reader)
                    continue
                for grammar in _GRAMMARS:
                    grammar(clause, reader)


_WISHED_PREFERENCE_RE = re.compile(r"^(?:I|we)\s+(?:would\s+like|want|need)\s+(?P<rest>.+)$", re.I)


def _read_wished_preferences(clause, reader):
    """ "I want short answers" states a present preference, although "want" is a wish."""
    match = _WISHED_PREFERENCE_RE.match(clause.text)
    if not match or _WISH_RE.search(clause.text, match.start("rest")):
        return
    value = clause.value(match.start("rest"))
    if value and S.stable_preference_subject(value):
        _preference(clause, reader, value, "prefer", 0)


def _readable(message):
    return (
        message.event_type == EventType.USER_MESSAGE
        and message.author_kind == AuthorKind.PRINCIPAL
        and isinstance(message.parts, tuple | list)
    )


class DeterministicExtractor:
    """Grammar-based proposals from the owner's own messages (policy ``formation@2``)."""

    policy_version = POLICY_DETERMINISTIC
    max_proposals = MAX_PROPOSALS

    def extract(self, request):
        """Proposals for every readable message of ``request``, in message order.

        The same claim from several messages is one proposal citing all of
        them, unless the owner changed it in between ("I have a dog" ... "I gave
        the dog away" ... "I have a dog" stays three proposals).
        """
        owned = S.OwnedIndex(request.known)
        tally = _Tally()
        candidates = []
        merged = {}
        scanned = 0
        for message in request.messages:
            if tally.exhausted:
                break
            if not _readable(message):
                continue
            scanned += 1
            reader = _MessageReader(message.occurred_at, owned, tally)
            _read_message(message, reader)
            for proposal in reader.proposals():
                key = (proposal.type, proposal.subject, proposal.polarity)
                key += (normalise_statement(proposal.statement),)
                if key in merged:
                    index = merged[key]
                    sources = candidates[index].source_ids
                    if message.id not in sources:
                        candidates[index] = replace(
                            candidates[index], source_ids=(*sources, message.id)
                        )
                    continue
                for stale in [k for k in merged if k[1] == proposal.subject]:
                    del merged[stale]
                merged[key] = len(candidates)
                candidates.append(_candidate(proposal, message.id, request.scope))
                if proposal.type == BeliefType.OWNERSHIP:
                    if proposal.polarity == Polarity.POSITIVE:
                        owned.add(proposal.subject, proposal.statement)
                    else:
                        owned.remove(proposal.subject)
        return ExtractionResult(
            candidates=tuple(candidates[:MAX_PROPOSALS]),
            policy_version=self.policy_version,
            usage={
                "messages": scanned,
                "proposals": tally.proposed,
                "capped": tally.exhausted,
            },
        )


def _candidate(proposal, source_id, scope):
    sensitivity = classify_sensitivity(proposal.statement)
    return MemoryCandidate(
        type=proposal.type,
        subject=proposal.subject,
        statement=proposal.statement,
        source_ids=(source_id,),
        polarity=proposal.polarity,
        confidence=proposal.confidence,
        scope=scope,
        portability=Portability.LOCAL
        if sensitivity == Sensitivity.SENSITIVE
        else Portability.PORTABLE,
        sensitivity=sensitivity,
        temporal=proposal.temporal,
    )
