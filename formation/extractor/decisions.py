"""Decisions: what the owner decided, chose or plans to do.

"I decided to quit my job", "I chose the Honda", "I am planning to move to
Porto" form decisions; a choice among what only the conversation shows ("I
picked the second option") forms none.
"""

import re

from memory.enums import BeliefType

from .. import subjects as S
from .preferences import ORDINAL_REFERENCE_RE
from .reading import Clause, MessageReader, Proposal, hint, triggers
from .vocabulary import ADV, WHO

_DECISION_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?:finally\s+)?decided\s+(?P<how>not\s+to|to|against|on)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_CHOICE_RE = re.compile(
    WHO + ADV + r"(?:have\s+)?(?P<verb>chosen|chose|picked(?!\s+up)|opted for|settled on)\s+"
    r"(?P<rest>.+)",
    re.I,
)
_PLAN_RE = re.compile(
    WHO + ADV + r"(?:(?:am|are)\s+(?:planning|intending|aiming)|plan|intend|aim)\s+to\s+"
    r"(?P<rest>.+)",
    re.I,
)


def read_decisions(clause: Clause, reader: MessageReader) -> None:
    for pattern, shape in ((_DECISION_RE, "decided"), (_CHOICE_RE, "chose"), (_PLAN_RE, "plans")):
        for match in clause.find(pattern):
            value = clause.value(match.start("rest"), max_words=10)
            if not value:
                continue
            if shape == "decided":
                how = " ".join(match.group("how").lower().split())
                statement = f"User decided {how} {value}."
            elif shape == "chose":
                if ORDINAL_REFERENCE_RE.match(value):
                    continue
                statement = f"User chose {value}."
            else:
                statement = f"User plans to {value}."
            subject = S.topic_subject_of("decision", value)
            if subject:
                reader.add(
                    Proposal(
                        type=BeliefType.DECISION,
                        subject=subject,
                        statement=statement,
                        confidence=0.7,
                        temporal=hint(clause.temporal, match.start()),
                    )
                )


# A clause must contain one of a pattern's words for the pattern to match.
triggers(
    {
        _DECISION_RE: "decided",
        _CHOICE_RE: "chosen chose picked opted settled",
        _PLAN_RE: "planning intending aiming plan intend aim",
    }
)
