"""What Reverie keeps, by itself, of a person other than the owner: their needs.

Formation keeps the owner's relationships ("User has a daughter named Mia.") and, of the
people in them, only what the owner's plans must respect for that person's sake: an allergy
or intolerance, a diet, a condition that decides what they eat, and how they hear, see or get
about. The rest of what the owner says of someone ("my brother works at a bakery", "my friend
has a Tesla") is about a person who is not the owner and never agreed to be remembered; the
owner may still save it as a memory of their own. One rule for every proposer: the grammar
reads only needs (``formation.extractor.people``) and the content gates refuse any other fact
of a person (``formation.gates``), whatever a model proposes.
"""

import re

# A need, as the person's predicate opens: "is allergic to", "has a nut allergy", "has been
# diabetic", "is vegan", "uses a wheelchair", "keeps kosher".
NEED_RE = re.compile(
    r"^(?:is|are|has|have)\s+(?:been\s+)?(?:(?:severely|very|deathly|mildly|strictly|a|an)\s+)*"
    r"(?:allergic\s+to\s|(?:lactose|gluten)[\s-]intolerant\b|intolerant\s+(?:to|of)\s|"
    r"vegetarian\b|vegan\b|pescatarian\b|pescetarian\b|coeliac\b|celiac\b|diabetic\b|"
    r"(?:type\s+[12]\s+)?diabetes\b|teetotal\b|kosher\b|halal\b|"
    r"deaf\b|blind\b|hard\s+of\s+hearing\b|in\s+a\s+wheelchair\b|"
    r"(?:[a-z]+\s+){0,2}(?:allergy|intolerance)\b)"
    r"|^uses?\s+a\s+wheelchair\b"
    r"|^keeps?\s+(?:kosher|halal)\b",
    re.I,
)
# "User's daughter Mia is allergic to peanuts.": the person's words, then the predicate.
_PERSON_STATEMENT_RE = re.compile(
    r"^User's\s+(?:[\w'-]+\s+){1,4}?(?P<predicate>(?:is|are|has|have|uses|use|keeps|keep)\b.*)$"
)


def states_a_need(statement: str) -> bool:
    """Whether ``statement`` (a fact of another person, "User's <who> <predicate>.") states
    one of that person's needs."""
    match = _PERSON_STATEMENT_RE.match(statement.strip())
    return bool(match and NEED_RE.match(match.group("predicate")))
