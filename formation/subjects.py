"""Semantic subjects: the conflict keys of formed memories, and the words behind them.

A subject is ``<kind>:<normalised-entity>``. Each owned thing is its own
subject (``device:apple-watch``, ``vehicle:bmw-x3``), so a correction about one
device never supersedes another. Common preference domains have stable
subjects (``pref:answer-style``); other preferences derive a topic key from
their value, never the bare owner. Everything here is a pure function of text.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.enums import BeliefType, Polarity
from memory.text import STOPWORDS, is_valid_subject

if TYPE_CHECKING:
    from .candidates import KnownBelief

# -- lexicons ----------------------------------------------------------------------

# A word that names (or brands) a thing of a kind. Lookups are by lower-cased
# singular form; brands that are also ordinary words ("apple") are left out so
# that only the thing's own noun decides its kind.
_KINDS = {
    "device": """
        phone smartphone cellphone iphone android pixel galaxy laptop macbook chromebook
        thinkpad computer pc desktop imac mac tablet ipad kindle ereader e-reader watch
        smartwatch fitbit garmin headphone earbud airpod camera gopro drone tv television
        console playstation ps4 ps5 xbox nintendo switch monitor printer router speaker
        homepod keyboard mouse headset oculus ipod walkman projector synology nas
        remarkable kobo nook chromecast firestick roku sonos alexa
        soundbar turntable amplifier amp subwoofer hifi stereo scanner webcam
        microphone mic modem telescope microscope calculator
        """,
    "vehicle": """
        car truck pickup van minivan suv jeep motorcycle motorbike bike bicycle ebike e-bike
        scooter moped boat sailboat yacht kayak canoe rv camper campervan caravan tractor
        bmw audi tesla toyota honda ford volkswagen vw mercedes benz porsche volvo subaru
        mazda nissan hyundai kia chevy chevrolet lexus fiat skoda peugeot renault citroen
        ferrari lamborghini jaguar prius civic corolla vespa harley ducati kawasaki rivian
        polestar narrowboat barge dinghy catamaran paddleboard jetski
        motorhome trike tricycle tandem unicycle atv snowmobile golf-cart
        landrover miata jetta passat crv rav4
        camry wrangler cherokee hilux
        """,
    "pet": """
        dog puppy pup cat kitten kitty parrot budgie cockatiel canary hamster gerbil rabbit
        bunny goldfish fish turtle tortoise pig horse pony snake lizard gecko iguana ferret
        chinchilla hedgehog bird labrador retriever corgi poodle beagle husky pug dachshund
        terrier spaniel collie shepherd chihuahua greyhound whippet lurcher dalmatian
        rottweiler doberman schnauzer pomeranian bulldog sheepdog alsatian springer cockapoo
        labradoodle goldendoodle cavapoo maltipoo shih-tzu yorkie bichon akita shiba mastiff
        weimaraner vizsla axolotl tarantula rat guinea-pig cockatoo
        macaw lovebird parakeet hen rooster goat sheep alpaca llama
        donkey mule beehive
        """,
    "instrument": """
        guitar piano violin viola cello bass drum ukulele uke saxophone sax trumpet trombone
        flute clarinet harp banjo mandolin accordion harmonica synth synthesizer bagpipes
        bagpipe oboe bassoon tuba cornet euphonium harpsichord cajon djembe sitar
        tabla bouzouki didgeridoo dulcimer lute xylophone marimba glockenspiel theremin
        stratocaster telecaster
        kalimba ocarina harmonium concertina melodeon fiddle keytar
        """,
    "home": """
        house apartment flat condo townhouse cabin cottage villa bungalow farmhouse houseboat
        chalet farm ranch smallholding
        """,
    "appliance": """
        fridge refrigerator dishwasher washer dryer microwave oven roomba vacuum fryer
        espresso thermomix toaster blender kettle mixer kitchenaid nespresso instant-pot
        airfryer freezer stove cooker hob grill barbecue bbq treadmill peloton
        dehumidifier humidifier purifier heater dyson vitamix machine
        """,
}
KIND_OF_WORD = {word: kind for kind, words in _KINDS.items() for word in words.split()}
# Nouns that only come in the plural; they take no article.
PLURAL_NOUNS = frozenset("headphones earbuds airpods drums skis speakers bagpipes".split())

# Subjects of people other than the owner ("person:tom", "person:daughter"): a person has a
# relationship with the owner and facts of their own, several under one subject.
PERSON_PREFIX = "person:"
# Relatives and other people, by the word the owner uses; the value is the key
# of the unnamed relationship ("my kids" and "my children" are one subject).
KIN = {
    **{w: w for w in "sister brother wife husband partner spouse son daughter twin".split()},
    **{w: w for w in "girlfriend boyfriend cousin niece nephew aunt uncle".split()},
    **{w: w for w in "friend colleague coworker boss manager roommate flatmate".split()},
    **{w: w for w in "housemate neighbor neighbour mentor grandson granddaughter".split()},
    **{w: w for w in "stepson stepdaughter stepbrother stepsister stepmother".split()},
    **{"stepfather": "stepfather", "fiance": "fiance", "fiancee": "fiance"},
    **{"fiancé": "fiance", "fiancée": "fiance", "bff": "friend", "co-worker": "coworker"},
    **{"kid": "children", "kids": "children", "child": "children", "children": "children"},
    **{"siblings": "siblings", "sibling": "siblings", "parents": "parents"},
    **{"mother": "mother", "mom": "mother", "mum": "mother", "mama": "mother"},
    **{"father": "father", "dad": "father", "papa": "father"},
    **{"grandmother": "grandmother", "grandma": "grandmother", "granny": "grandmother"},
    **{"grandfather": "grandfather", "grandpa": "grandfather"},
    **{"grandkids": "grandchildren", "grandchildren": "grandchildren"},
    **{w: w for w in "mother-in-law father-in-law sister-in-law brother-in-law".split()},
    **{"sisters": "sister", "brothers": "brother", "sons": "son", "daughters": "daughter"},
    **{"cousins": "cousin", "friends": "friend", "grandsons": "grandson"},
    **{"granddaughters": "granddaughter", "nieces": "niece", "nephews": "nephew"},
}
# Relatives whose mere mention ("my wife", "my kids") says something lasting
# about the owner; "my mother" or "my friend" alone says nothing new.
CLOSE_KIN = frozenset(
    """sister brother wife husband partner spouse son daughter twin girlfriend boyfriend
    fiance children siblings grandchildren""".split()
)

OCCUPATIONS = frozenset(
    """
    engineer developer programmer coder designer teacher nurse doctor physician surgeon
    dentist lawyer attorney accountant architect scientist researcher professor lecturer
    student writer author journalist editor artist painter musician photographer chef cook
    baker pharmacist therapist counselor counsellor psychologist psychiatrist consultant
    analyst entrepreneur founder ceo cto cfo freelancer mechanic electrician plumber
    carpenter pilot firefighter officer soldier veteran farmer librarian translator
    paramedic veterinarian vet barista waiter waitress cashier intern tutor coach trainer
    instructor dancer singer actor actress filmmaker producer director administrator
    technician economist statistician mathematician biologist chemist physicist
    historian linguist sociologist marketer recruiter salesperson realtor banker trader
    investor broker clerk secretary receptionist assistant hairdresser stylist tailor
    attendant steward stewardess midwife optometrist optician radiographer
    sonographer physiotherapist physio chiropractor osteopath podiatrist dietitian
    nutritionist hygienist carer caregiver nanny childminder babysitter doula
    paralegal solicitor barrister judge notary auditor bookkeeper actuary
    underwriter surveyor planner builder bricklayer roofer plasterer welder machinist
    joiner glazier locksmith landscaper groundskeeper arborist forester ranger
    butcher fishmonger grocer florist jeweller jeweler cobbler potter
    sculptor illustrator animator copywriter blogger podcaster youtuber streamer
    influencer columnist reporter correspondent broadcaster presenter announcer dj
    composer conductor drummer guitarist pianist violinist cellist bassist vocalist
    choreographer comedian magician curator archivist archaeologist anthropologist
    geologist astronomer ecologist botanist zoologist meteorologist epidemiologist
    pathologist radiologist anaesthetist anesthetist cardiologist dermatologist
    neurologist oncologist pediatrician paediatrician gp psychotherapist
    cop policeman policewoman detective sergeant constable bodyguard bouncer
    airman lieutenant captain firefighter lifeguard coastguard
    chauffeur courier trucker cabbie postman postwoman
    porter janitor housekeeper caretaker concierge bartender sommelier
    brewer winemaker distiller busboy manager supervisor
    foreman director executive vp president chairman treasurer ombudsman diplomat
    ambassador politician councillor councilor senator mayor minister priest pastor vicar
    rabbi imam chaplain monk nun missionary principal headteacher headmaster
    headmistress dean provost postdoc undergrad
    apprentice trainee contractor subcontractor tradesman tradesperson
    technologist sysadmin devops tester analyst strategist
    cartographer surveyor inspector assessor adjuster appraiser auctioneer
    landlord landlady shopkeeper storekeeper merchant vendor wholesaler retailer
    dispatcher navigator astronaut
    zookeeper groomer trainer breeder farrier shepherd rancher beekeeper
    """.split()
)

# Words that describe a thing without being part of its name.
DROPPED_MODIFIERS = frozenset(
    """
    new brand-new used second-hand secondhand refurbished little big small tiny huge
    beautiful lovely trusty shiny cute sweet own rescue rescued shelter stray vintage antique
    current adorable gorgeous fancy expensive cheap nice awesome amazing great cool
    red blue black white silver grey gray green yellow orange purple pink brown gold
    """.split()
)
# Words that put a possession in the past, a wish or someone else's hands.
PAST_OR_WISHED = frozenset(
    """old former previous ex late first dream future next ideal imaginary childhood
    dead deceased""".split()
)

LANGUAGES = frozenset(
    """
    english spanish portuguese french german italian dutch swedish norwegian danish finnish
    polish czech russian ukrainian greek turkish arabic hebrew persian farsi hindi urdu
    bengali punjabi tamil mandarin cantonese chinese japanese korean vietnamese thai
    indonesian malay tagalog swahili catalan basque romanian hungarian croatian serbian
    irish welsh latin esperanto
    """.split()
)

# -- stable preference subjects -------------------------------------------------

PREF_ANSWER_STYLE = "pref:answer-style"
PREF_INTERFACE_THEME = "pref:interface-theme"
PREF_INDENTATION_STYLE = "pref:indentation-style"
PREF_UNITS = "pref:units"
STABLE_PREFERENCE_SUBJECTS = (
    PREF_ANSWER_STYLE,
    PREF_INTERFACE_THEME,
    PREF_INDENTATION_STYLE,
    PREF_UNITS,
)

_STABLE_PREFERENCES = (
    (
        PREF_INTERFACE_THEME,
        re.compile(r"\b(?:dark|light|night)[- ](?:mode|theme)s?\b|\bhigh[- ]contrast\b", re.I),
    ),
    (
        PREF_INDENTATION_STYLE,
        re.compile(r"\btabs?\b|\b(?:two|four|2|4|8)[- ]spaces?\b|\bspaces\b|\bindent", re.I),
    ),
    (
        PREF_UNITS,
        re.compile(
            r"\b(?:metric|imperial|celsius|fahrenheit|kilometers|kilometres|km|miles|"
            r"kilograms|kg|grams|grammes|lbs|pounds|ounces|centimeters|centimetres|inches|"
            r"litres|liters|millilitres|milliliters|units)\b",
            re.I,
        ),
    ),
    (
        PREF_ANSWER_STYLE,
        re.compile(
            r"\b(?:answers?|responses?|repl(?:y|ies)|explanations?|bullet[- ]?points?|"
            r"bullet(?:ed)? lists?|summar(?:y|ies)|tl;?dr)\b",
            re.I,
        ),
    ),
)

# -- attribute subjects -----------------------------------------------------------

ATTR_NAME = "attr:name"
ATTR_AGE = "attr:age"
ATTR_BIRTHDAY = "attr:birthday"
ATTR_BIRTH_YEAR = "attr:birth-year"
ATTR_RESIDENCE = "attr:residence"
ATTR_ORIGIN = "attr:origin"
ATTR_EMPLOYER = "attr:employer"
ATTR_OCCUPATION = "attr:occupation"
ATTR_DIET = "attr:diet"
ATTR_MARITAL_STATUS = "attr:marital-status"
ATTR_EDUCATION = "attr:education"

# Words of canonical statements rather than of the thing a statement is about.
_CANONICAL_WORDS = frozenset(
    """user user's owns own has have had named called no longer a an the is are was
    prefers likes dislikes decided plans chose""".split()
)

# Words that say how much or which, not what: left out of topic keys.
_TOPIC_NOISE = frozenset(
    "their not another some any every all lot lots bit little much many new really".split()
)
_NON_ALNUM_RE = re.compile(r"[^a-z0-9]+")
_TOKEN_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_SLUG_MAX = 60


def slug(text: str) -> str:
    """``text`` as a subject entity: ASCII, lower case, words joined by hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    value = _NON_ALNUM_RE.sub("-", ascii_text.lower().replace("'", "")).strip("-")
    if len(value) > _SLUG_MAX:
        value = value[:_SLUG_MAX].rsplit("-", 1)[0]
    return value


def subject_key(kind: str, entity: str) -> str | None:
    """``<kind>:<slug>``, or None when the entity leaves nothing valid (e.g. no Latin letters)."""
    value = slug(entity)
    subject = f"{kind}:{value}"
    return subject if value and is_valid_subject(subject) else None


def singular(word: str) -> str:
    """A rough English singular of a lower-cased noun, enough for lexicon lookups."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=1 << 14)
def word_kind(word: str) -> str | None:
    """The kind a single word names (``"watch"`` -> ``"device"``), or None."""
    lowered = word.lower()
    return KIND_OF_WORD.get(lowered) or KIND_OF_WORD.get(singular(lowered))


def entity_kind(tokens: Sequence[str]) -> str | None:
    """The kind of an entity from its rightmost lexicon word (its head), or None."""
    for token in reversed(tokens):
        kind = word_kind(token)
        if kind:
            return kind
    return None


def is_plural(tokens: Sequence[str]) -> bool:
    """Whether an entity's head names several things or a plural-only thing ("AirPods Pro")."""
    for token in reversed(tokens):
        lowered = token.lower()
        if lowered in PLURAL_NOUNS:
            return True
        if word_kind(lowered):
            return lowered not in KIND_OF_WORD and word_kind(singular(lowered)) is not None
    return False


def article(phrase: str) -> str:
    """``a`` or ``an`` for a noun phrase, by the sound of its first letter."""
    first = phrase.split(" ", 1)[0]
    if not first:
        return "a"
    if first.isupper() and len(first) > 1 and first.isalpha():
        # Initialisms are read letter by letter: "an SUV", "a BMW".
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    lowered = first.lower()
    if lowered[0] == "x" and len(lowered) > 1 and lowered[1] not in "aeiouy":
        # "an Xbox", "an X-ray": the letter is read as its name.
        return "an"
    if lowered.startswith(("uni", "use", "usu", "uk", "eu", "one")):
        return "a"
    if lowered.startswith(("hour", "honest", "heir")):
        return "an"
    if lowered[0] == "8" or lowered in {"11", "18"}:
        return "an"
    return "an" if lowered[0] in "aeiou" else "a"


def stable_preference_subject(value: str) -> str | None:
    """The stable subject of a common preference domain the value belongs to, or None."""
    for subject, pattern in _STABLE_PREFERENCES:
        if pattern.search(value):
            return subject
    return None


def topic_key(text: str, *, max_words: int = 3) -> str:
    """A deterministic topic slug from the content words of ``text``; "" when it has none."""
    words: list[str] = []
    for token in _TOKEN_RE.findall(text.lower()):
        token = token.replace("'", "")
        if token in STOPWORDS or token in _CANONICAL_WORDS or token in _TOPIC_NOISE:
            continue
        token = slug(token)
        if token and token not in words:
            words.append(token)
        if len(words) == max_words:
            break
    return "-".join(words)


def topic_subject_of(kind: str, text: str) -> str | None:
    """``<kind>:<topic key of text>``, or None when the text has no content words."""
    key = topic_key(text)
    return subject_key(kind, key) if key else None


_CONTRAST_TAIL_RE = re.compile(r"\s(?:in|at|on|for|during|when|with)\s", re.I)


def preference_subject(value: str, contrast: str = "") -> str | None:
    """The conflict key of a preference: a stable domain, else a topic of the value.

    "tea over coffee" and "coffee over tea" share a topic, so that reversing a
    comparison is a conflict rather than a second, unrelated preference.
    """
    stable = stable_preference_subject(f"{value} {contrast}")
    if stable:
        return stable
    if contrast:
        # What the value is preferred over, not when: "over coffee in the mornings" is coffee.
        other = _CONTRAST_TAIL_RE.split(contrast, maxsplit=1)[0]
        keys = sorted(
            k for k in (topic_key(value, max_words=2), topic_key(other, max_words=2)) if k
        )
        joined = "-".join(keys)
        return subject_key("topic", joined) if joined else None
    return topic_subject_of("topic", value)


def entity_tokens(text: str) -> set[str]:
    """The lower-cased words that name a thing, without canonical statement words."""
    return {
        singular(t.lower())
        for t in _TOKEN_RE.findall(text)
        if t.lower() not in _CANONICAL_WORDS and t.lower() not in STOPWORDS
    }


def _subject_tokens(subject: str) -> set[str]:
    entity = subject.split(":", 1)[1] if ":" in subject else subject
    return {singular(part) for part in re.split(r"[-:]", entity) if part}


class OwnedIndex:
    """The owner's current possessions, to resolve what a retraction names.

    Built once per request from known beliefs; a belief's entity tokens are its
    subject's words plus the words its statement names the thing with, so that
    "I no longer have a dog" finds ``pet:rex`` ("User has a dog named Rex.").
    """

    def __init__(self, known: Iterable["KnownBelief"] = ()) -> None:
        self._entries: dict[str, set[str]] = {}
        for belief in known:
            # A live negative belief has already retired the positive one of its
            # subject, so only positives name something the owner still has.
            if belief.type == BeliefType.OWNERSHIP and belief.polarity == Polarity.POSITIVE:
                self.add(belief.subject, belief.statement)

    def add(self, subject: str, statement: str) -> None:
        tokens = _subject_tokens(subject) | entity_tokens(statement)
        self._entries.setdefault(subject, set()).update(tokens)

    def remove(self, subject: str) -> None:
        self._entries.pop(subject, None)

    def matches(self, mentioned: Iterable[str]) -> list[str]:
        """The owned subjects whose tokens contain every mentioned token, in order."""
        wanted = {singular(t.lower()) for t in mentioned}
        if not wanted:
            return []
        return [s for s, tokens in self._entries.items() if wanted <= tokens]

    def resolve(self, mentioned: Iterable[str]) -> str | None:
        """The one owned subject whose tokens contain every mentioned token, else None.

        Several matches are ambiguous ("I sold the car" with two cars) and
        resolve to nothing, like no match at all.
        """
        matches = self.matches(mentioned)
        return matches[0] if len(matches) == 1 else None

    def holds_kind(self, kind: str) -> bool:
        """Whether the owner has anything of ``kind`` (``"vehicle"``)."""
        return any(subject.split(":", 1)[0] == kind for subject in self._entries)


# -- shared subjects ---------------------------------------------------------------

# Kinds whose subject names one person, animal or thing: the name is the entity
# itself. Topic kinds ("event:pottery-class") key a claim, not an entity.
_NAMED_SUBJECT_KINDS = frozenset({"person", "pet", "place", *_KINDS})
# Capitalised words that open or frame a sentence rather than name something.
_NOT_NAMES = frozenset(
    """user users i i'm i've it's the a an my our this that these those mom mum dad mr mrs
    ms dr monday tuesday wednesday thursday friday saturday sunday january february march
    april may june july august september october november december""".split()
)
# Lower-case words that may join the capitalised words of one name ("Lord of the Rings").
_NAME_JOINERS = frozenset({"of", "the", "and", "de", "la", "von", "van"})
_WORD_RE = re.compile(r"[^\W_]+(?:['+-][^\W_]*)*")


def _is_name_word(token: str) -> bool:
    return token[:1].isupper() and token.lower() not in _NOT_NAMES


def _proper_names(statement: str) -> list[str]:
    """The runs of capitalised words in ``statement`` past its first word ("Harry Potter",
    "LGBTQ+", "Lord of the Rings"), without the canonical "User"."""
    tokens = _WORD_RE.findall(statement)
    names: list[str] = []
    run: list[str] = []
    joiners: list[str] = []
    for token in tokens[1:]:
        if _is_name_word(token):
            run += joiners + [token]
            joiners = []
        elif run and token.lower() in _NAME_JOINERS:
            joiners.append(token)
        else:
            if run:
                names.append(" ".join(run))
            run, joiners = [], []
    if run:
        names.append(" ".join(run))
    return names


def _object_names(statement: str) -> list[str]:
    """The things of the kind lexicon that ``statement`` names in lower case ("guitar",
    "cat"); a capitalised one is part of a name ("Apple Watch") and named as that."""
    return [
        singular(token)
        for token in _WORD_RE.findall(statement)
        if token.islower() and word_kind(token) and token not in PLURAL_NOUNS
    ]


# Kinds whose subject is a topic key: the content words of what the memory is
# about ("event:pottery-class"), which may name a thing, an activity or a project
# that memories of other subjects name too.
_TOPIC_SUBJECT_KINDS = frozenset({"event", "activity", "topic", "outcome", "decision"})
# Words that name no one thing, so that sharing one says nothing about what two
# memories are about: generic nouns (each "trip" or "class" is another one),
# occasions (each "conference" or "party" is another one), common verbs and
# their -ing forms, and words of quality, quantity or time.
# Roles (KIN, OCCUPATIONS) are left out too: "my friend" is no one in particular.
_NOT_OBJECT_NAMES = frozenset(
    """
    thing things stuff time times day days week weekend month year years way ways lot lots
    bit kind sort type part place places trip trips event events class classes group groups
    project projects job jobs work idea ideas plan plans option options opportunity
    opportunities experience experiences moment moments memory memories life lives people
    person folks fam family world worlds piece pieces line lines one ones something
    anything everything session sessions activity activities hobby hobbies goal goals
    area areas side sides end start level step steps thought thoughts feeling feelings
    conference conferences workshop workshops meeting meetings party parties festival
    festivals concert concerts show shows convention conventions fair fairs parade parades
    tour tours course courses lesson lessons race races match matches tournament
    tournaments competition competitions ceremony ceremonies celebration celebrations
    wedding weddings visit visits vacation vacations holiday holidays journey journeys
    adventure adventures outing outings
    make making made help helping find finding get getting got go going went do doing done
    have having take taking took give giving try trying look looking see seeing watch
    watching play playing keep keeping feel feeling spend spending turn turning put putting
    come coming bring bringing use using hit hitting push pushing break breaking run running
    build building improve improving create creating explore exploring discover discovering
    learn learning talk talking care caring support supporting share sharing enjoy enjoying
    love loving like liking want wanting need needing plan planning decide deciding think
    thinking know knowing meet meeting visit visiting attend attending join joining finish
    finishing launch launching open opening organize organizing organise organising
    participate participating develop developing celebrate celebrating check checking stay
    staying set setting hang hanging catch catching sink sinking curl curling escape
    escaping experiment experimenting lose losing lost win winning won begin beginning
    started starting finished tried sign signing say saying tell telling ask asking
    become becoming seem seeming let letting show showing call calling move moving live
    living believe believing hold holding happen happening provide providing continue
    continuing change changing lead leading understand understanding follow following
    stop stopping add adding grow growing offer offering remember remembering consider
    considering appear appearing buy buying wait waiting serve serving die dying send
    sending expect expecting pass passing sell selling decided
    new old good great nice cool amazing awesome favorite favourite best better big small
    little different same other another more most much many few several first second third
    fourth fifth last next whole real really pretty super very fun funny lovely beautiful
    special local online usual regular weekly daily nearby full short long huge tiny entire
    certain various main major free easy hard true wonderful fantastic incredible perfect
    happy sad busy fine okay ok sure able general personal positive negative extra
    """.split()
)


def _topic_names(subject: str | None, statement: str) -> list[str]:
    """The words of ``statement`` that its topic subject is made of and that name one thing
    ("pottery" for ``event:pottery-class``), a hyphenated word kept whole ("dairy-free").

    A word is taken as written, without guessing its singular ("books" is not
    "book": a rough singular would also turn "movies" into "movy"); a thing of
    the kind lexicon is named by ``_object_names`` already. A capitalised word is
    a proper name's, and those are ``_proper_names``."""
    kind, _, entity = (subject or "").partition(":")
    if kind not in _TOPIC_SUBJECT_KINDS or not entity:
        return []
    parts = set(entity.split("-"))
    names: list[str] = []
    for token in _WORD_RE.findall(statement):
        word = token.lower()
        if (
            not token.islower()
            or len(word) < 3
            or not all(piece in parts for piece in slug(word).split("-"))
            or word in STOPWORDS
            or word in _NOT_OBJECT_NAMES
            or word in KIN
            or singular(word) in KIN
            or singular(word) in OCCUPATIONS
            or word_kind(word)
        ):
            continue
        names.append(word)
    return names


def shared_subjects(subject: str | None, statement: str | None) -> tuple[str, ...]:
    """The entities a memory is about or names, as ``entity:<name>`` keys, sorted.

    A memory's own subject is its conflict key and stays its own
    ("event:pottery-class"); these keys are what memories of several subjects
    have in common, so that what the owner said about one person, place or
    thing in different sessions can be read together. Identity is the name and
    nothing more: the same normalised proper name ("Oscar", "LGBTQ+") or
    object name ("guitar") is one entity, so two people called Sam are one
    entity, and "she", "my sister" or "the dog" resolve to no one.
    """
    kind, _, entity = (subject or "").partition(":")
    names = (
        _proper_names(statement or "")
        + _object_names(statement or "")
        + _topic_names(subject, statement or "")
    )
    if kind in _NAMED_SUBJECT_KINDS and entity:
        names.append(entity)
    keys = {key for name in names if (key := subject_key("entity", name)) is not None}
    return tuple(sorted(keys))
