"""When two preferences of one subject can both hold: they speak of different axes.

"Short answers" and "answers in bullet points" are both answer style, but one
is about length and the other about format, so the owner can want both. "Short
answers" and "detailed answers" name opposite poles of one axis: the newer
one replaces (or, against what the owner stated, yields to) the older. "Concise
answers" restates "short answers". When either statement names no known axis,
nothing is assumed: they conflict, as any two claims on one subject do. Pure functions of text.
"""

import re

# axis -> {pole: pattern}; a statement's poles on an axis are those it names.
AXES = {
    "length": {
        "short": r"\b(?:short(?:er)?|brief|concise|succinct|terse|tl;?dr|to the point)\b",
        "long": r"\b(?:long(?:er)?|detailed|thorough|in[- ]depth|lengthy|comprehensive|"
        r"elaborate|verbose)\b",
    },
    "format": {
        "list": r"\b(?:bullet(?:ed)?(?:[- ]?points?)?|lists?|numbered)\b",
        "prose": r"\b(?:prose|paragraphs?|full sentences|narrative)\b",
        "table": r"\btables?\b",
    },
    "theme": {"dark": r"\b(?:dark|night)\b", "light": r"\blight\b"},
    "contrast": {"high": r"\bhigh[- ]contrast\b"},
    "units": {
        "metric": (
            r"\b(?:metric|celsius|kilomet(?:er|re)s?|km|kilograms?|kg|grams?|grammes?|"
            r"centimet(?:er|re)s?|met(?:er|re)s?|lit(?:er|re)s?|millilit(?:er|re)s?|ml)\b"
        ),
        "imperial": (
            r"\b(?:imperial|fahrenheit|miles|lbs|pounds|ounces|oz|inches|feet|cups|"
            r"tablespoons|teaspoons|fluid ounces)\b"
        ),
    },
    "indentation": {"tabs": r"\btabs?\b", "spaces": r"\bspaces?\b"},
    "indent_width": {
        "2": r"\b(?:two|2)[- ]spaces?\b",
        "4": r"\b(?:four|4)[- ]spaces?\b",
        "8": r"\b(?:eight|8)[- ]spaces?\b",
    },
}
_COMPILED = {
    axis: {pole: re.compile(pattern, re.I) for pole, pattern in poles.items()}
    for axis, poles in AXES.items()
}


def poles(statement: str) -> dict[str, frozenset[str]]:
    """{axis: frozenset of poles} that ``statement`` names."""
    named: dict[str, frozenset[str]] = {}
    for axis, patterns in _COMPILED.items():
        found = frozenset(pole for pole, pattern in patterns.items() if pattern.search(statement))
        if found:
            named[axis] = found
    return named


def relation(statement: str, other: str) -> str:
    """How two preferences of one subject stand: "restates" (the same poles of the same
    axes), "compatible" (each names an axis, and they agree on every axis both name) or
    "conflicts" (opposite poles of an axis, or an axis unknown on either side)."""
    mine, theirs = poles(statement), poles(other)
    if not mine or not theirs:
        return "conflicts"
    if any(mine[axis] != theirs[axis] for axis in mine.keys() & theirs.keys()):
        return "conflicts"
    return "restates" if mine == theirs else "compatible"
