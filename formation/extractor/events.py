"""Outcomes and experiences: what the owner achieved, and notable things they did.

"I passed my driving test" and "I got promoted" form outcomes; "I ran my first
marathon", "I visited Kyoto" and "I joined a choir" form experiences. Errands
("I went to the store") and the day's work ("I finished the tests") form
neither.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .vocabulary import ADV, WHO

# Qualifications one earns, not things one owns ("I got my PhD").
QUALIFICATION = (
    r"(?:PhD|doctorate|MBA|MSc|BSc|BA|MA|LLM|MD|degree|diploma|master'?s|bachelor'?s|"
    r"certificate|certification|licen[cs]e|black belt)\b"
)
_OUTCOME_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?P<verb>passed|failed|won|aced|finished|completed|"
    r"graduated(?:\s+from)?|earned|landed|launched|published|released|qualified for|"
    r"got promoted(?:\s+to)?|got a promotion|got hired(?:\s+(?:at|by))?|"
    r"got accepted(?:\s+(?:to|into|at))?|got into(?=\s+(?:[\w-]+\s+){0,3}(?:school|college|"
    r"university|program|programme|course|team|club|academy|conservatory)\b)|"
    r"got (?:the|a|my)\s+(?:[\w-]+\s+){0,2}?job(?!\s+done\b)"
    r"(?:\s+(?:at|as))?|quit|retired from|beat|achieved|"
    # "I left my job at the bank", "walked out of my job": quitting it, in other words.
    r"(?:left|walked out of|resigned from)(?=\s+(?:my|our)\s+(?:[\w-]+\s+)?job\b)|"
    # Losing one's job, however it is said.
    r"lost(?=\s+(?:my|our)\s+(?:[\w-]+\s+)?job\b)|(?:got|was|have been)\s+(?:laid off|fired|"
    r"made redundant)(?:\s+(?:from|at|by))?|"
    # A place or a post won: "I got the apprenticeship at the shipyard".
    r"got(?=\s+(?:the|a|an|my)\s+(?:[\w-]+\s+){0,2}(?:apprenticeship|internship|"
    r"scholarship|fellowship|residency|bursary|grant|job offer|offer|promotion|tenure|"
    r"lead role|leading role|part|place)\b)|"
    # "I got my PhD in mathematics", "came third in the Lakeland 50": a qualification
    # gained, a place won.
    r"(?:got|received|was awarded)(?=\s+(?:my|a|an|the)\s+(?:[\w-]+\s+){0,2}"
    + QUALIFICATION
    + r")|"
    r"came\s+(?:first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th))(?=\s+in\b)|"
    # Money raised for a cause: "raised £2,300 for the hospice".
    r"raised(?=\s+(?:over\s+|more than\s+|almost\s+|nearly\s+)?[£$€]\s?\d))"
    r"\b\s*(?P<rest>.*)",
    re.I,
)
# Verbs that name a notable outcome or experience only with a fitting object:
# "I passed my driving test", not "I passed the wrong argument".
_OBJECT_REQUIRED = {
    verb: re.compile(pattern, re.I)
    for verbs, pattern in (
        (
            ("passed", "failed", "aced"),
            r"\b(?:exams?|tests?|interviews?|bar|certification|course|class|audition|quiz|"
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
    query migration deploy deployment commit file files process service database
    command terminal vm pipeline task tasks update upgrade install installation argument
    parameter variable docs documentation pr issue issues suite ci email emails message
    messages meeting call calls typo homework chores report reports slides
    spreadsheet""".split()
)
# An outcome's words may run longer than an event's: where and how well is the outcome ("came
# third in the Lakeland 50 with a time of 9:47").
_OUTCOME_WORDS = 10
_MANNER_RE = re.compile(r"\s(?:with|by|to)\s", re.I)
_AMOUNT_RE = re.compile(r"^(?:over\s+|more than\s+|almost\s+|nearly\s+)?[£$€]\s?[\d,.]+\s*")
_QUITTING = {"left": "quit", "walked out of": "quit", "resigned from": "quit"}
_DURATION_RE = re.compile(
    r"\bin\s+(?:(?:under|less than|just over|just under|about|around|over)\s+)?"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*"
    r"(?:days?|weeks?|months?|hours?|minutes?|mins?|seconds?|years?)\b",
    re.I,
)
_PREPOSITION_RE = re.compile(r"\s(?:at|in|on|for|with|from|of|to|by|about|near)\s")
_WITHOUT_OBJECT_RE = re.compile(
    r"^(?:graduated|got promoted|got a promotion|got hired|got accepted|quit|got .*\bjob|"
    r"(?:got|was|have been) (?:laid off|fired|made redundant))$"
)
_EVENT_RE = re.compile(
    WHO + ADV + r"(?:have\s+|had\s+)?(?P<verb>attended|visited|went to|went on|traveled to|"
    r"travelled to|made|developed|created|designed|founded|opened|got back from|came back from|"
    # A film, show or book watched or read by its title: "I just watched Little Women".
    r"(?:watched|read|finished reading|finished watching)(?=\s+(?-i:[A-Z]))|"
    # An outing with the owner's people: "I took the kids to the museum".
    r"took(?=\s+(?:the|my|our)\s+(?:[\w-]+\s+)?(?:kids|children|family|son|daughter|mom|mum|"
    r"dad|parents|wife|husband|partner|girlfriend|boyfriend|grandkids|students|team)\s+to\s)|"
    r"took part in|participated in|competed in|volunteered(?:\s+(?:at|for|with))?|"
    r"signed up for|enrolled in|joined|started|ran|hiked|climbed|painted|wrote|applied to|"
    r"applied for|"
    r"performed(?:\s+(?:at|in))?|hosted|organized|organised|gave a talk(?:\s+(?:at|on|about))?|"
    r"gave a presentation(?:\s+(?:at|on|about))?|celebrated|took up|donated to|tried out|"
    r"took(?=\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,2}(?:class|classes|course|trip|"
    r"vacation|holiday|workshop|lessons?)\b)|went(?=\s+[a-z]+ing\b)|"
    # "We had a picnic", "I had a housewarming party": an occasion the owner held.
    r"had(?=\s+(?:a|an|our|my)\s+(?:[\w-]+\s+){0,2}(?:picnic|party|barbecue|bbq|reunion|"
    r"housewarming|celebration|road trip|getaway|staycation|ceremony)\b))\s+(?P<rest>.+)",
    re.I,
)
_THE_DAYS_ROUND = frozenset(
    "work school class lunch dinner breakfast homework chores day shift early today".split()
)
_ERRANDS = frozenset("vet doctors hospital clinic dentist practice appointment station".split())
_MEMBERSHIP = frozenset({"joined", "signed up for", "enrolled in"})
_NEW_ROLE_RE = re.compile(r"(?:working|work)\s+as\b", re.I)
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


def _notable(verb: str, value: str) -> bool:
    """Whether "User {verb} {value}" says something about the person, not their day's work."""
    required = _OBJECT_REQUIRED.get(verb.split(" ", 1)[0])
    if required is not None and not required.search(value):
        return False
    # The words before the first preposition name what was done: "the tests for the server"
    # is routine, "my job at the call centre" is not, whatever its place is called.
    head = _PREPOSITION_RE.split(value.lower(), maxsplit=1)[0]
    words = set(re.findall(r"[a-z0-9]+", head))
    return not (words & _ROUTINE or words & _VAGUE)


def read_outcomes(clause: Clause, reader: MessageReader) -> None:
    for match in clause.find(_OUTCOME_RE):
        verb = " ".join(match.group("verb").lower().split())
        verb = _QUITTING.get(verb, verb)
        rest = match.group("rest")
        value = (
            clause.value(match.start("rest"), max_words=_OUTCOME_WORDS, demonstratives=True)
            if rest.strip()
            else ""
        )
        base = re.sub(r"\s+(?:to|at|by|into|from|as)$", "", verb)
        if value is None and not clause.value_text(match.start("rest")).strip(" .!,"):
            # "I got laid off last month": nothing after the verb but its time.
            value = ""
        if base.endswith(" job") and (value is None or value.startswith("to ")):
            # "I got a temp job to cover expenses": the job is the outcome, the why is not.
            value = ""
        if value is None or (not value and not _WITHOUT_OBJECT_RE.match(base)):
            continue
        # The outcome's key is what was achieved, not how well or how: "came third in the
        # Lakeland 50" whatever the time, "raised ... for the hospice" whatever the sum.
        subject_value = _MANNER_RE.split(
            _DURATION_RE.sub("", _AMOUNT_RE.sub("", value)), maxsplit=1
        )[0].strip()
        duration = _DURATION_RE.search(rest)
        if value and duration and rest[: duration.start()].rstrip(" ,").endswith(value.split()[-1]):
            # "finished the Camino in 31 days": how long it took is part of the outcome, not
            # a time of the message (which cut it off the value).
            value = f"{value} {duration.group(0)}"
        if value and (not _notable(verb, value) or S.topic_key(value) in _THE_DAYS_ROUND):
            # "I finished work early", "I finished lunch": the day's round, no outcome.
            continue
        base = re.sub(r"\b(?:my|our)\b", "their", base)
        statement = f"User {verb} {value}." if value else f"User {base}."
        subject = S.topic_subject_of("outcome", subject_value or base)
        if subject:
            reader.add(
                Proposal(
                    type=BeliefType.OUTCOME,
                    subject=subject,
                    statement=statement,
                    confidence=0.7,
                    temporal=hint(clause.temporal, match.start()),
                )
            )


def read_events(clause: Clause, reader: MessageReader) -> None:
    for match in clause.find(_EVENT_RE):
        verb = " ".join(match.group("verb").lower().split())
        if _NEW_ROLE_RE.match(match.group("rest")):
            # "started working as a carpenter": what they do now (attributes), no event.
            continue
        value = clause.value(match.start("rest"), max_words=8, demonstratives=True)
        if not value:
            continue
        key_words = S.topic_key(value).split("-")
        if not key_words[0] or (
            len(key_words) == 1 and key_words[0] in _MUNDANE and verb not in _MEMBERSHIP
        ):
            # "I went to the gym" is an errand; "I joined a gym" is not.
            continue
        if not _notable(verb, value):
            continue
        if verb == "took" and value.split()[-1].lower() in _MUNDANE | _ERRANDS:
            # "I took the kids to school" is the day's round, not an outing.
            continue
        subject = S.topic_subject_of("event", value)
        if subject:
            reader.add(
                Proposal(
                    type=BeliefType.FACT,
                    subject=subject,
                    statement=f"User {verb} {value}.",
                    confidence=0.6,
                    temporal=hint(clause.temporal, match.start()),
                )
            )


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _OUTCOME_RE: (
            "passed failed won aced finished completed graduated earned landed launched published "
            "released qualified promoted promotion hired accepted into job quit retired beat "
            "achieved got received awarded came left walked resigned raised lost laid fired "
            "redundant"
        ),
        _EVENT_RE: (
            "attended visited went traveled travelled made developed created designed founded "
            "opened took participated competed volunteered signed enrolled joined started ran "
            "hiked climbed painted wrote performed hosted organized organised gave celebrated "
            "donated tried had got came watched read finished applied"
        ),
    }
)
