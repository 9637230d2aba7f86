"""The owner's profile: what recall answers to "What do you know about me?".

Such a question names no topic, so neither its words nor its meaning pick memories out:
by words it matches nothing ("know"), by meaning any memory about as well as any other.
Recall answers it with the profile instead: the owner's own memories, those they stated
or confirmed first, then the others they have not confirmed yet, newest first within
each.
"""

import re
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Case, IntegerField, Value, When

from memory.enums import Authority, BeliefStatus
from memory.models import Belief
from memory.reach import Reach
from memory.search import Match

if TYPE_CHECKING:
    from accounts.models import User

_KNOWING = (
    r"(know|knew|remember(ed)?|recall(ed)?|learn(ed|t)?|store[ds]?|saved?|got|kept|"
    r"collected|noted|have)"
)
_ABOUT_ME = r"(about|of|on) (me|myself)\b"
# Each names the person asking as the whole of what is asked about: "about me", not
# "about my dog"; "who am I", not "who am I meeting".
_ASKS = re.compile(
    "|".join(
        [
            rf"\b(what|everything|anything|all|things)( else)?( that)?( do| did| have| has)? "
            rf"(you|u)( all| ever| already| so far)? {_KNOWING}\b.*\b{_ABOUT_ME}",
            rf"\b(tell|show|give|remind) me( everything| all| what you know| something)? "
            rf"{_ABOUT_ME}",
            r"\bwho am i\s*(\?|$|,|\.|!|according|as far|to you|in your)",
            r"\b(describe|summari[sz]e|profile) (me|myself)\b",
            r"\b(summary|overview|picture|profile) of (me|myself|everything|what)\b",
            r"\bmy profile\s*[?.!]*$",
        ]
    )
)
_SPACES = re.compile(r"\s+")


def asks_for_profile(query: str) -> bool:
    """Whether ``query`` asks what is known about the person asking, as a whole."""
    text = _SPACES.sub(" ", query.casefold().replace("’", "'")).strip()
    return bool(_ASKS.search(text))


def profile_matches(
    principal: "User",
    *,
    statuses: list[str],
    types: list[str],
    since: datetime | None,
    limit: int,
    reach: Reach,
) -> list[Match]:
    """The profile's first ``limit`` memories that ``reach`` sees, as ``[(row id, 0.0)]``:
    stated or confirmed by the owner, then the other active ones, then those awaiting
    review; newest first within each."""
    beliefs = reach.filter(Belief.objects.filter(owner=principal, status__in=statuses))
    if types:
        beliefs = beliefs.filter(type__in=types)
    if since is not None:
        beliefs = beliefs.filter(updated_at__gte=since)
    standing = Case(
        When(authority=Authority.EXPLICIT, status=BeliefStatus.ACTIVE, then=Value(0)),
        When(status=BeliefStatus.ACTIVE, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    rows = (
        beliefs.annotate(standing=standing)
        .order_by("standing", "-updated_at", "-id")
        .values_list("id", flat=True)[:limit]
    )
    return [(row_id, 0.0) for row_id in rows]
