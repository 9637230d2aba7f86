"""The Porter stemmer, as recall's full-text indexes apply it, for comparing words in Python.

SQLite's FTS5 tables are built with the ``porter`` tokenizer and PostgreSQL's with
the english configuration; a rule that says "the same word" where recall would
(grounding a proposal in a message, for one) stems with this. It follows Martin
Porter's reference implementation, which FTS5 ports: "preferred" and "prefers"
meet "prefer", "lives" and "living" meet "live", "cats" meets "cat". Words of
fewer than three letters, and words holding anything but ASCII letters, are
left as they are.
"""

import re
from collections.abc import Iterable
from functools import lru_cache

_ASCII_WORD = re.compile(r"[a-z]+")
_VOWELS = frozenset("aeiou")


def _consonant(word: str, i: int) -> bool:
    if word[i] in _VOWELS:
        return False
    if word[i] == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """Porter's m: how many vowel-consonant sequences ``stem`` has."""
    count, i, n = 0, 0, len(stem)
    while i < n and _consonant(stem, i):
        i += 1
    while i < n:
        while i < n and not _consonant(stem, i):
            i += 1
        if i == n:
            break
        count += 1
        while i < n and _consonant(stem, i):
            i += 1
    return count


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Consonant, vowel, consonant at the end, the last not w, x or y ("hop", not "snow")."""
    if len(word) < 3:
        return False
    n = len(word)
    return (
        _consonant(word, n - 3)
        and not _consonant(word, n - 2)
        and _consonant(word, n - 1)
        and word[-1] not in "wxy"
    )


def _replace(word: str, suffix: str, replacement: str, minimum: int) -> str | None:
    """``word`` with ``suffix`` replaced when what precedes it has a measure above
    ``minimum``; None when ``word`` does not end in ``suffix``."""
    if not word.endswith(suffix):
        return None
    stem = word[: len(word) - len(suffix)]
    return stem + replacement if _measure(stem) > minimum else word


def _step1a(word: str) -> str:
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ies"):
        return word[:-2]
    if word.endswith("ss"):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def _step1b(word: str) -> str:
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            word = word[: -len(suffix)]
            break
    else:
        return word
    if word.endswith(("at", "bl", "iz")):
        return word + "e"
    if _double_consonant(word) and word[-1] not in "lsz":
        return word[:-1]
    if _measure(word) == 1 and _cvc(word):
        return word + "e"
    return word


def _step1c(word: str) -> str:
    if word.endswith("y") and _has_vowel(word[:-1]):
        return word[:-1] + "i"
    return word


_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)
_STEP4 = (
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
)


def _longest(word: str, table: Iterable[str | tuple[str, str]]) -> tuple[str, str] | None:
    """The rule of ``table`` whose suffix is the longest that ``word`` ends in, or None."""
    best: tuple[str, str] | None = None
    for rule in table:
        suffix = rule[0] if isinstance(rule, tuple) else rule
        if word.endswith(suffix) and (best is None or len(suffix) > len(best[0])):
            best = rule if isinstance(rule, tuple) else (rule, "")
    return best


def _step2(word: str) -> str:
    rule = _longest(word, _STEP2)
    # The rule's suffix is one the word ends in: _replace gives a word.
    return word if rule is None else _replace(word, *rule, 0) or word


def _step3(word: str) -> str:
    rule = _longest(word, _STEP3)
    return word if rule is None else _replace(word, *rule, 0) or word


def _step4(word: str) -> str:
    rule = _longest(word, _STEP4)
    if rule is None:
        return word
    suffix = rule[0]
    stem = word[: -len(suffix)]
    if suffix == "ion" and not stem.endswith(("s", "t")):
        return word
    return stem if _measure(stem) > 1 else word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


# Every comparison of a pass stems the same few thousand words over and over.
@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The Porter stem of one lower-case word."""
    if len(word) < 3 or not _ASCII_WORD.fullmatch(word):
        return word
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5):
        word = step(word)
    return word
