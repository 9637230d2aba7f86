"""What a statement says of what: its opening, its predicate, its sign and its object. Pure.

Two memories can share most of their words and still say opposite things
("User owns a red bicycle", "User sold the red bicycle") or different things
of one predicate ("User takes honey in their tea", "User takes milk in their
tea"). The rules that keep such pairs out of a merge, and the notices that
point at the contradicting ones, read a statement this way: its words
compared by their stems (as recall compares them); its opening, the words up
to its first content word that is not a name ("user takes", "user's
favourite"), that word being its predicate; its sign, whether a negation
("not", "never", "no longer", "-n't") turns it around; and its object, its
other content words. Predicates that contrast come from a small shipped
lexicon (``lexicons/contrasting_predicates.txt``) and from the prefixes that
turn a verb around ("distrusts", "unfollowed").
"""

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from pathlib import Path

from memory.stemming import stem
from memory.text import STOPWORDS

LEXICON = Path(__file__).resolve().parent.parent / "lexicons" / "contrasting_predicates.txt"

_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_OWNER_WORDS = frozenset({"user", "user's", "users", "user’s"})
_ARTICLES = frozenset({"a", "an", "the"})
_NEGATIONS = frozenset("not no never nor neither cannot anymore nobody nothing".split())
# "No longer" turns a claim around; "longer" alone is a content word.
_AFTER_NO = frozenset({"longer", "more"})
_TURNING_PREFIXES = ("dis", "un")

# Where a predicate stands: ("word", its stem) or ("pair", a lexicon line's number).
PredicateKey = tuple[str, str] | tuple[str, int]


def _negation(word: str) -> bool:
    return word in _NEGATIONS or word.endswith(("n't", "n’t"))


@dataclass(frozen=True)
class ClaimParts:
    opening: tuple[str, ...]
    predicate: str
    negated: bool
    # Every content word's stem, the predicate's included.
    stems: frozenset[str]
    # The content words' stems but the predicate's.
    objects: frozenset[str]
    # Each content word's own lower-case form by its stem, for the turning prefixes.
    forms: tuple[tuple[str, str], ...]


# A pass reads one statement's parts once for each rule and pair it is weighed in.
@lru_cache(maxsize=1 << 14)
def claim_parts(statement: str | None) -> ClaimParts:
    """The parts of ``statement`` (see the module)."""
    tokens = [
        (match.group(0), match.group(0).casefold().replace("’", "'"))
        for match in _WORD_RE.finditer(statement or "")
    ]
    opening: list[str] = []
    predicate, negated = "", False
    content: list[str] = []
    forms: list[tuple[str, str]] = []
    previous = ""
    for raw, word in tokens:
        turning = _negation(word) or (previous == "no" and word in _AFTER_NO)
        previous = word
        if turning:
            negated = True
            continue
        bare = word.removesuffix("'s")
        is_content = word not in STOPWORDS and word not in _OWNER_WORDS
        if is_content:
            content.append(stem(bare))
            forms.append((stem(bare), bare))
        if predicate:
            continue
        if word not in _ARTICLES:
            opening.append(word if word in _OWNER_WORDS else stem(bare))
        # A name is who or what the claim is about, never what it says of them.
        if is_content and not raw[:1].isupper():
            predicate = stem(bare)
    stems = frozenset(content)
    objects = frozenset(s for s in content if s != predicate)
    return ClaimParts(
        opening=tuple(opening) if predicate else (),
        predicate=predicate,
        negated=negated,
        stems=stems,
        objects=objects,
        forms=tuple(forms),
    )


@cache
def _poles() -> dict[str, frozenset[tuple[int, int]]]:
    """{stem: {(line, side), ...}}: the sides of the lexicon's pairs a stem stands on."""
    poles: dict[str, set[tuple[int, int]]] = {}
    for number, line in enumerate(LEXICON.read_text().splitlines()):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        sides = [part.split() for part in line.split("|")]
        if len(sides) != 2 or not all(sides):
            raise ValueError(f"{LEXICON.name}:{number + 1}: expected 'words | words'")
        for side, words in enumerate(sides):
            for word in words:
                poles.setdefault(stem(word.lower()), set()).add((number, side))
    return {word: frozenset(sides) for word, sides in poles.items()}


def _turned(form: str) -> str:
    """The stem of the verb a turning prefix turns around ("distrusts": "trust"), or ""."""
    for prefix in _TURNING_PREFIXES:
        rest = form[len(prefix) :]
        if form.startswith(prefix) and len(rest) > 3:
            return stem(rest)
    return ""


def predicate_sides(predicate: str, form: str = "") -> list[tuple[PredicateKey, int]]:
    """[(key, side), ...]: each pair of contrasting predicates ``predicate`` stands on, and
    the side; ``form`` is the word as written, for its turning prefix. A predicate stands
    on its own side of itself too, so that a negation of it can be told apart."""
    sides: list[tuple[PredicateKey, int]] = [(("word", predicate), 0)]
    sides += [(("pair", line), side) for line, side in _poles().get(predicate, ())]
    turned = _turned(form)
    if turned:
        sides.append((("word", turned), 1))
    return sides


def turns(parts: ClaimParts) -> bool:
    """Whether a statement (its ``ClaimParts``) may turn another around: it is negated, or
    its predicate is the second side of a pair ("sold", "distrusts", "volunteers") or
    carries a turning prefix. Every contradiction this module finds has such a side."""
    if parts.negated:
        return True
    if not parts.predicate:
        return False
    form = dict(parts.forms).get(parts.predicate, "")
    return any(side for _, side in predicate_sides(parts.predicate, form))


def contrast(first: ClaimParts, second: ClaimParts) -> bool:
    """Whether the content words of ``first`` and ``second`` (``ClaimParts``) hold two
    predicates that contrast, one on each side and not both in either."""
    only_first = [(s, f) for s, f in first.forms if s not in second.stems]
    only_second = [(s, f) for s, f in second.forms if s not in first.stems]
    for (a, a_form), (b, b_form) in product(only_first, only_second):
        opposite = _poles().get(b, frozenset())
        if any((line, 1 - side) in opposite for line, side in _poles().get(a, ())):
            return True
        if _turned(a_form) == b or _turned(b_form) == a:
            return True
    return False
