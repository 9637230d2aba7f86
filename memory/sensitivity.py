"""How sensitive a text is on its own: rules, not a trained model.

A text is sensitive when it tells of someone's health (mental health and eating
disorders included), sexuality or gender identity, religion, politics, finances
or criminal record; personal when it tells of family, home, work or age; normal
otherwise. Each rule is written against the labelled corpus shipped beside this
module (``corpora/sensitivity.jsonl``): the positives, and the near misses that
share their words ("retail therapy", "technical debt", "the church on the corner
serves great coffee", "I'm depressed the match got cancelled").

``CLASSIFIER_VERSION`` is a digest of the rules themselves, so that any change to
them changes it and the labels an older classifier gave are computed again
(``memory.services.sensitivity_labels``).
"""

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from memory.enums import Sensitivity, most_restrictive

CORPUS_PATH = Path(__file__).parent / "corpora" / "sensitivity.jsonl"

_FAITHS = (
    r"(?:muslim|christian|jewish|jew|hindu|buddhist|sikh|catholic|protestant|mormon|"
    r"evangelical|quaker)"
)
_WORSHIP = r"(?:church|mosque|synagogue|temple|mass|gurdwara|shul)"
_HEALTH_TERMS = (
    r"diagnos\w*|diabet\w*|cancer|tumou?rs?|chemo\w*|radiotherapy|insulin|metformin|hiv|"
    r"asthma\w*|epilep\w*|seizures?|dementia|alzheimer\w*|parkinson'?s|multiple sclerosis|"
    r"cardiac arrest|heart attack|had a (?:mild |minor |major )?stroke|pregnan\w*|"
    r"miscarri\w*|ivf|infertil\w*|fertility treatment|abortion|surgery|surgeries|"
    r"operated on|hospitali[sz]\w*|admitted to (?:the )?hospital|in hospital|"
    r"medications?|meds|prescri(?:bed|ptions?)|chronic (?:pain|illness|fatigue|condition)|"
    r"illness|disease|disabilit\w*|disabled|wheelchair|rehab|addict\w*|alcoholi\w*|sober|"
    r"sobriety|overdos\w*|migraines?|allerg(?:y|ies|ic)|blood pressure|cholesterol|"
    r"arthritis|crohn'?s|coeliac|celiac|herpes|hepatitis|stds?|stis?|"
    r"(?:gluten|lactose|dairy|wheat|food|fructose|histamine)[- ]intoleran(?:t|ce|ces)|"
    r"intoleran(?:t|ce) to (?:gluten|lactose|dairy|wheat)"
)

# (category, pattern). Patterns are matched case-insensitively.
RULES = (
    ("health", rf"\b(?:{_HEALTH_TERMS})\b"),
    (
        "mental_health",
        r"\b(?:depression|depressive|antidepressants?|sertraline|fluoxetine|citalopram|"
        r"escitalopram|prozac|zoloft|lexapro|ssris?|clinically depressed|"
        r"(?:been|feel|feels|feeling|felt|became|get|gets|got)\s+(?:really\s+|so\s+|very\s+)?"
        r"depressed|anxiety|panic attacks?|adhd|autis\w*|asperger\w*|bipolar|ptsd|"
        r"post-traumatic|schizo\w*|psychiatr\w*|(?:see|sees|seeing|saw) (?:a |my )?psychologist|"
        r"suicid\w*|self[- ]harm\w*|mental (?:health|illness|breakdown)|nervous breakdown)\b"
        # "Depressed" alone, unless a trivial cause follows ("depressed the match got
        # cancelled", "depressed about the weather"): everyday hyperbole.
        r"|\bdepressed\b(?!\s+(?:that|about|the|because|when|over)\b)"
        r"|(?<!retail )\btherap(?:y|ies|ist|ists)\b"
        # "A bit OCD about the spice rack" is tidiness, not a diagnosis.
        r"|(?<!bit )(?<!so )(?<!little )(?<!totally )\bocd\b",
    ),
    (
        "eating_disorder",
        r"\b(?:anorexi\w*|bulimi\w*|binge[- ]eat\w*|eating disorders?|purging)\b",
    ),
    (
        "sexuality",
        r"\b(?:gay|lesbians?|bisexual\w*|pansexual\w*|asexual\w*|homosexual\w*|transgender|"
        r"trans(?=\s+(?:woman|women|man|men|person|people|kid|teen|girl|boy|partner)\b)|"
        r"(?:am|is|are|i['’]m)\s+trans\b(?!-)|non-?binary|queer|sexuality|sexually|"
        r"sexual orientation|sex life|same-sex|"
        r"(?:came|comes|coming|come) out (?:to (?:my|his|her|their|our)\b|as\b))",
    ),
    (
        "religion",
        r"\b(?:religio\w*|atheis\w*|agnostic|buddhis\w*|islam\w*|hinduism|judaism|christianity|"
        r"sikhism|"
        rf"(?:am|is|are|was|were|i['’]m|raised|born|became|become|converted to|devout|"
        rf"practi[cs]ing|lapsed|an?)\s+(?:an?\s+)?(?:devout\s+|practi[cs]ing\s+|lapsed\s+)?"
        rf"{_FAITHS}|{_FAITHS}\s+(?:faith|family|upbringing|community|values|prayers?)|"
        r"(?:my|our|his|her|their) faith|"
        # Going to "the" mosque is a habit of faith; having gone to "the" temple in Kyoto
        # may be a holiday.
        rf"(?:go|goes|going)\s+to\s+(?:the\s+|(?:my|our|his|her|their)\s+)?(?:local\s+)?"
        rf"{_WORSHIP}|went\s+to\s+(?:(?:my|our|his|her|their)\s+(?:local\s+)?)?{_WORSHIP}|"
        rf"at\s+{_WORSHIP}|"
        rf"from\s+{_WORSHIP}|join(?:s|ed|ing)?\s+(?:a\s+|the\s+|our\s+)?(?:local\s+)?{_WORSHIP}|"
        rf"attend\w*\s+(?:the\s+|a\s+|(?:my|our|his|her|their)\s+)?(?:local\s+)?{_WORSHIP}|"
        r"(?:my|our|his|her|their)\s+(?:local\s+)?(?:church|mosque|synagogue|temple|parish|"
        r"congregation|pastor|priest|rabbi|imam|vicar)|"
        r"keeps? kosher|(?:eats? only|only eats?) halal|"
        r"prays?\s+(?:every|daily|five times)|prayer (?:group|meeting|mat|times)|"
        r"bible study|bapti[sz]\w*|bar mitzvah|bat mitzvah|"
        r"(?:fasting|fasts?) (?:for|during) ramadan|"
        r"observ\w* (?:ramadan|lent|shabbat|the sabbath))\b",
    ),
    (
        "politics",
        r"\b(?:political\w*|politically|(?:my|his|her|their|our) politics|left-wing|"
        r"right-wing|democrats?|republicans?|tor(?:y|ies)|"
        r"(?:labou?r|conservative|green|liberal democrat|libertarian|communist|socialist|"
        r"reform|independence) party|lib ?dems?|"
        r"registered voter|registered to vote|polling station|postal vote|absentee ballot|"
        r"trade unions?|union (?:member\w*|rep)|joined (?:the|a) union|canvass\w*)\b"
        # A vote in an election, not on pizza toppings, to move a meeting or for a
        # contest's winner.
        r"|\bvot(?:e|ed|es|ing)\b(?!\s+(?:on|to|in favou?r of)\b)"
        r"(?!\s+for\s+(?:the|a|an|our|my|their|which|what)\s+(?:best|next|new|winner|name|"
        r"logo|team|colou?rs?|date|venue|restaurant|place|movie|film|song|costume|cake|pizza)"
        r"\b)",
    ),
    (
        "finances",
        r"(?<!technical )(?<!tech )\bdebts?\b|\b(?:in debt|indebted|bankrupt\w*|insolven\w*|"
        r"salary|salaries|(?:my|his|her|their|our) (?:income|wages?|pay ?check|paycheque|"
        r"savings)|earns? (?:about |around |over |under )?[£$€]?\d|"
        r"(?:student|car|payday|personal|home|bank|business|mortgage) loans?|"
        r"(?:took|take|takes|taking) out (?:a|another) (?:\w+ )?loan|"
        r"credit (?:score|rating|history|card debt)|overdra(?:ft|wn)|"
        r"behind on (?:the |my |our |his |her |their )?(?:rent|mortgage|payments?|bills?)|"
        r"arrears|foreclos\w*|repossess\w*|(?:my|our|his|her|their) mortgage|"
        r"debt collect\w*|on (?:welfare|benefits)|food bank)\b",
    ),
    (
        "criminal",
        r"(?<!cardiac )\barrest(?:ed|s)?\b(?!\s+development)"
        r"|\b(?:convicted|convictions? (?:for|of)|(?:criminal|prior|previous) convictions?|"
        r"convicts?|prison\w*|jail\w*|imprison\w*|incarcerat\w*|parole\w*|criminal record|"
        r"pleaded (?:not )?guilty|pled guilty|sentenced|served time|felon\w*|"
        r"misdemeanou?r\w*|dui|dwi|police caution|"
        r"charged with (?:\w+ ){0,2}?(?:theft|assault|shoplifting|fraud|possession|murder|"
        r"burglary|drink|drunk|battery|robbery|vandalism|a crime|an offen[cs]e))\b"
        r"|\bprobation\b(?!\s+period)(?!\s+at (?:work|my|the|his|her|their)\b)",
    ),
    # Matters the classifier held sensitive before these categories were named.
    ("other", r"\b(?:immigration status|undocumented|divorc\w*)\b"),
)

# A sensitive word that names a cause, a film's or a book's subject, or a
# charity, says nothing of the person: "a marathon for diabetes research", "a
# documentary about cancer in whales".
_NEUTRAL_AFTER = re.compile(
    r"\s+(?:research|awareness|charit(?:y|ies)|foundation|fundrais\w*|society|association|"
    r"documentar(?:y|ies)|podcasts?|jobs?|work|careers?|services|professionals?|workers?|"
    r"sector|field)\b",
    re.IGNORECASE,
)
_NEUTRAL_BEFORE = re.compile(
    r"\b(?:(?:documentar(?:y|ies)|books?|articles?|podcasts?|lectures?|talks?|films?|papers?|"
    r"studies|study)\s+(?:about|on|into|of)|(?:awareness|research|charity|race|run|walk|"
    r"fundraiser|money) for|(?:career|careers|working|work|jobs?) in)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)

_PERSONAL = (
    r"\b(?:address|lives? (?:at|in|on)|(?:phone|mobile|cell) (?:number|no)|birthday|born|age|"
    r"years old|wife|husband|"
    r"partner|girlfriend|boyfriend|son|daughter|mother|father|mom|dad|sister|brother|"
    r"family|job|work(?:s|ed)? (?:at|for)|employer)\b"
)

_COMPILED = tuple((category, re.compile(pattern, re.IGNORECASE)) for category, pattern in RULES)
_PERSONAL_RE = re.compile(_PERSONAL, re.IGNORECASE)

CLASSIFIER_VERSION = hashlib.sha256(
    json.dumps(
        [RULES, _NEUTRAL_AFTER.pattern, _NEUTRAL_BEFORE.pattern, _PERSONAL], sort_keys=True
    ).encode()
).hexdigest()[:12]


def _neutral(text: str, match: re.Match[str]) -> bool:
    return bool(
        _NEUTRAL_AFTER.match(text, match.end())
        or _NEUTRAL_BEFORE.search(text[max(0, match.start() - 60) : match.start()])
    )


def sensitive_categories(text: str) -> set[str]:
    """The sensitive categories ``text`` tells of (``RULES``), each by a match that is not
    a cause's or a title's name."""
    return {
        category
        for category, pattern in _COMPILED
        if any(not _neutral(text, match) for match in pattern.finditer(text))
    }


def classify_sensitivity(text: str) -> Sensitivity:
    """The sensitivity a text implies on its own: sensitive topics, personal details, or normal."""
    if sensitive_categories(text):
        return Sensitivity.SENSITIVE
    if _PERSONAL_RE.search(text):
        return Sensitivity.PERSONAL
    return Sensitivity.NORMAL


def sensitivity_raised(asked: object, text: str) -> Sensitivity:
    """The label a memory stating ``text`` is stored with when ``asked`` was asked for: the
    classifier may raise what was asked, never lower it."""
    return Sensitivity(most_restrictive(Sensitivity, [str(asked), classify_sensitivity(text)]))


def labelled_corpus() -> list[dict[str, Any]]:
    """The shipped corpus the rules are written against: ``{"text", "sensitive",
    "category", "note"}`` rows."""
    with CORPUS_PATH.open(encoding="utf-8") as corpus:
        return [json.loads(line) for line in corpus if line.strip()]
