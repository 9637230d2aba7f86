"""Preferences: tastes, favourites, and how the owner wants to be answered.

"I love hiking", "I prefer tea over coffee", "my favourite band is Muse",
"I use tabs" and "please keep answers short" form preferences. Praise for
something the conversation shows ("I love the colours") and a choice among
options only the conversation lists ("the second one") form none.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .text import WISH_RE
from .values import list_items, strip_temporal, value_phrase
from .vocabulary import ADV, DEMONSTRATIVES, DETERMINERS, PRONOUN_VALUES, WHO

_FAVORITE_RE = re.compile(
    r"\b(?:my|our)\s+(?:all-time\s+|absolute\s+|new\s+)?(?P<fav>favou?rite|fave)\s+"
    r"(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|has to be|would be)\s+(?P<rest>.+)",
    re.I,
)
_SET_TO_RE = re.compile(
    WHO + ADV + r"(?:switch|switched|set|change|changed)\s+(?:[\w']+\s+){1,5}?(?:to|in|into)\s+"
    r"(?P<rest>.+)$",
    re.I,
)
_FAVORITE_INVERTED_RE = re.compile(
    r"^(?P<rest>(?:[\w'-]+\s+){0,4}?[\w'-]+)\s+(?:is|are)\s+(?:my|our)\s+(?:all-time\s+|"
    r"absolute\s+)?(?P<fav>favou?rite|fave)\s+(?P<what>[a-z]+(?:\s+[a-z]+)?)\s*[.!]*$",
    re.I,
)
_PREFERENCE_RE = re.compile(
    WHO + ADV + r"(?P<verb>prefer|like|love|enjoy|adore|dislike|hate|detest|loathe|"
    r"cannot stand|can not stand|do not like|do not enjoy|do not love|am not a fan of|"
    r"(?:have\s+)?never\s+(?:really\s+)?liked|"
    r"are not fans of|am not (?:really\s+)?into|"
    r"am (?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan of|"
    r"are (?:big\s+|huge\s+)?fans of|am (?:really\s+|so\s+|very\s+)?into|are into|"
    r"(?:am|are) (?:really\s+|so\s+|very\s+|super\s+)?(?:passionate about|interested in|"
    r"obsessed with|crazy about)|"
    r"would prefer|would much prefer|would rather(?: have)?|would like|want|need)\s+(?P<rest>.+)",
    re.I,
)
_HABIT_RE = re.compile(
    WHO + ADV + r"(?:use|write in|code with|indent with|work in|measure in|think in)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_CONTRAST_RE = re.compile(r"\s+(?:over|to|rather than|instead of|more than|than)\s+", re.I)
# "I'd like you to use Celsius", "I want you to answer in bullet points".
_ASKED_RE = re.compile(
    r"you\s+to\s+(?:always\s+)?(?:use|give me|answer in|answer with|respond in|reply in|"
    r"write in|stick to|switch to)\s+",
    re.I,
)
_IMPERATIVE_RE = re.compile(
    r"^(?:please\s+)?(?:always\s+|just\s+|only\s+)?(?:(?P<keep>keep|make)\s+(?:your\s+|the\s+|"
    r"all\s+|my\s+)?(?P<noun>answers|responses|replies|explanations|it)\s+(?P<adj>short|brief|"
    r"concise|detailed|simple|technical|long|succinct|terse|thorough)"
    r"|(?P<verb>use|give me|answer in|answer with|respond in|respond with|reply in|reply with|"
    r"write in|format (?:answers|responses|it) (?:as|in)|switch to|stick to|stick with)\s+"
    r"(?P<rest>.+))",
    re.I,
)
# "the second option", "the first one": a choice among things only the
# conversation shows.
ORDINAL_REFERENCE_RE = re.compile(
    r"^(?:the\s+)?(?:first|second|third|last|other|former|latter|previous|next|same|"
    r"new|old|\w+er)\s+(?:one|ones|option|options|approach|version|choice|solution|answer|"
    r"idea|suggestion|method|way)\b",
    re.I,
)
# "I love the colours" praises something shown in the conversation, not a taste.
_SHOWN_THING_RE = re.compile(
    r"^(?:all\s+)?the\s+(?:way|look|looks|colou?rs?|vibes?|idea|thought|feeling|energy|"
    r"details?|texture|design|style|shot|pic|picture|photo|view|atmosphere|mood|message|"
    r"sound|smell|name)\b(?!\s+of\b)",
    re.I,
)


_OBJECTLESS_VERBS = frozenset(
    "hear see know say tell think talk chat meet help be do get go have hang try".split()
)
_DISLIKE_VERBS = {"dislike", "hate", "detest", "loathe", "cannot stand", "can not stand"}
_DISLIKE_VERBS |= {"do not like", "do not enjoy", "do not love", "am not a fan of"}
_DISLIKE_VERBS |= {"are not fans of", "am not into", "never liked", "have never liked"}
_STABLE_ONLY_VERBS = {"would like", "want", "need"}


def _preference(
    clause: Clause,
    reader: MessageReader,
    value: str,
    verb: str,
    start: int,
    contrast: str = "",
) -> None:
    words = value.lower().split()
    if ORDINAL_REFERENCE_RE.match(value) or _SHOWN_THING_RE.match(value):
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
        Proposal(
            type=BeliefType.PREFERENCE,
            subject=subject,
            statement=statement,
            confidence=confidence,
            temporal=hint(clause.temporal, start),
        )
    )


# What cannot start the action of "prefer to X" / "would rather X": X names a thing then.
_NOT_AN_ACTION = (
    DETERMINERS
    | DEMONSTRATIVES
    | PRONOUN_VALUES
    | frozenset("not something anything nothing everything some any all no".split())
)


def _preferred_action(item: str, verb: str) -> str | None:
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
    value = value_phrase(" ".join(words))
    return value and f"to {value}"


def read_preferences(clause: Clause, reader: MessageReader) -> None:
    text = clause.text
    for match in clause.find(_PREFERENCE_RE):
        verb = " ".join(match.group("verb").lower().split())
        verb = re.sub(r"\b(?:big|huge|massive|great|really|so|very)\s+", "", verb)
        if verb.startswith(("am a fan", "am fan", "are fans")):
            verb = "like"
        if verb.startswith(("am ", "are ")) and not verb.startswith(("am not", "are not")):
            verb = "like"
        rest_start = match.start("rest")
        if asked := _ASKED_RE.match(text, rest_start):
            # "I'd like you to use Celsius": what the assistant is asked to use is preferred,
            # and only a preference of the stable kinds is read so.
            value = clause.value(asked.end())
            if value and S.stable_preference_subject(value):
                _preference(clause, reader, value, "prefer", match.start())
            continue
        rest = strip_temporal(text[rest_start:], clause.temporal, rest_start)
        contrast = ""
        if "prefer" in verb or verb.startswith("would rather"):
            joint_found = _CONTRAST_RE.search(rest)
            pieces = _CONTRAST_RE.split(rest, maxsplit=1)
            if joint_found is not None and len(pieces) == 2:
                joint = joint_found.group(0)
                other = value_phrase(pieces[1], max_words=5)
                if other:
                    rest, contrast = pieces[0], joint.strip().lower() + " " + other
        items = list_items(rest)
        if len(items) > 1:
            contrast = ""
        for item in items:
            if action := _preferred_action(item, verb):
                _preference(clause, reader, action, verb, match.start(), contrast)
                continue
            # "I love making this cake": an activity, so "this" is just "the".
            gerund = item.split(" ", 1)[0].lower().endswith("ing")
            value = value_phrase(item, demonstratives=gerund)
            if value:
                _preference(clause, reader, value, verb, match.start(), contrast)
    for match in clause.find(_HABIT_RE):
        value = clause.value(match.start("rest"))
        if value and S.stable_preference_subject(value):
            _preference(clause, reader, value, "prefer", match.start())
    favorites = [(m, clause.value(m.start("rest"), max_words=6)) for m in clause.find(_FAVORITE_RE)]
    inverted = _FAVORITE_INVERTED_RE.match(text)
    if inverted and not favorites:
        # "Ethiopian food is my favorite cuisine": the same taste, said the other way round.
        favorites.append((inverted, value_phrase(inverted.group("rest"), max_words=6)))
    for match, value in favorites:
        what = match.group("what").lower()
        if not value or what.split()[-1] in PRONOUN_VALUES:
            continue
        subject = S.subject_key("topic", f"favorite {what}")
        if subject is None:
            continue
        statement = f"User's {match.group('fav').lower()} {what} is {value}."
        reader.add(
            Proposal(
                type=BeliefType.PREFERENCE,
                subject=subject,
                statement=statement,
                confidence=0.75,
                temporal=hint(clause.temporal, match.start()),
            )
        )
    for match in clause.find(_SET_TO_RE):
        # "I always switch every app I use to dark mode": a setting the owner keeps.
        value = clause.value(match.start("rest"), max_words=4)
        if value and S.stable_preference_subject(value):
            _preference(clause, reader, value, "prefer", match.start())
    imperative = _IMPERATIVE_RE.match(text)
    if imperative:
        if imperative.group("keep"):
            noun = imperative.group("noun").lower()
            noun = "answers" if noun == "it" else noun
            value = f"{imperative.group('adj').lower()} {noun}"
        else:
            value = clause.value(imperative.start("rest"), max_words=6)
        if value and S.stable_preference_subject(value):
            _preference(clause, reader, value, "prefer", imperative.start())


_WISHED_PREFERENCE_RE = re.compile(r"^(?:I|we)\s+(?:would\s+like|want|need)\s+(?P<rest>.+)$", re.I)


def read_wished_preferences(clause: Clause, reader: MessageReader) -> None:
    """ "I want short answers" states a present preference, although "want" is a wish."""
    match = _WISHED_PREFERENCE_RE.match(clause.text)
    if not match or WISH_RE.search(clause.text, match.start("rest")):
        return
    start = match.start("rest")
    # "I'd like you to use Celsius": what the assistant is asked to use is what is preferred.
    asked = _ASKED_RE.match(clause.text, start)
    value = clause.value(asked.end() if asked else start)
    if value and S.stable_preference_subject(value):
        _preference(clause, reader, value, "prefer", 0)


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _PREFERENCE_RE: (
            "prefer like liked love enjoy adore dislike hate detest loathe stand fan fans into "
            "passionate interested obsessed crazy rather want need"
        ),
        _HABIT_RE: "use write code indent work measure think",
        _FAVORITE_RE: "favorite favourite fave",
        _FAVORITE_INVERTED_RE: "favorite favourite fave",
        _SET_TO_RE: "switch switched set change changed",
    }
)
