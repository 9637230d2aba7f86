"""The excerpt a memory keeps of a message: the clause that supports it, never the message.

A message often says several things ("I drive a Honda Civic and the password
for my email is hunter2."); a memory formed from one of them keeps only the
clause that shares the most words with its statement, so whatever else the
message said (a password, an instruction to the assistant) does not ride
along into recall. Secret-shaped spans left inside the clause are masked, and
clauses that read as instructions to the assistant are never chosen.
"""

import re
from collections.abc import Iterator

from memory.screening import looks_like_injection, redact_secrets
from memory.text import content_words

EXCERPT_MAX_CHARS = 500

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# Where one statement hands over to the next within a sentence.
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|,?\s+(?:and|but|while|whereas|although|though|plus)\s+|\s+[-–—]\s+",
    re.IGNORECASE,
)
# Words compared by their first letters, so that "drive" meets "drives" and
# "prefer" meets "preferred" without a stemmer.
_STEM = 5


def _stems(text: str) -> set[str]:
    return {word[:_STEM] for word in content_words(text) if len(word) > 2}


def clauses(text: str | None) -> Iterator[str]:
    """The clauses of ``text``, in order: sentences cut at conjunctions and semicolons."""
    for sentence in _SENTENCE_END.split(text or ""):
        for clause in _CLAUSE_BREAK.split(sentence):
            if clause := clause.strip():
                yield clause


def excerpt_for(text: str, statement: str) -> str:
    """The clause of ``text`` that best supports ``statement``, masked and bounded.

    The clause sharing most words with the statement wins, the earliest on a
    tie; with no word shared, the first clause that is not an instruction.
    Empty when every clause is one.
    """
    wanted = _stems(statement)
    best, best_score = "", -1
    for clause in clauses(text):
        if looks_like_injection(clause):
            continue
        score = len(wanted & _stems(clause))
        if score > best_score:
            best, best_score = clause, score
    return redact_secrets(best)[:EXCERPT_MAX_CHARS]
