"""Word lists and expression fragments that several grammars share.

``ADV`` and ``WHO`` open a first-person verb ("we just", "I really"); ``NAME``
captures a person's name, case-sensitively even inside a case-insensitive
expression.
"""

ADV = (
    r"(?:(?:just|recently|finally|also|now|still|already|actually|officially|really|"
    r"definitely|absolutely|totally|honestly|personally|generally|usually|always|much|"
    r"strongly|truly|do|even|both|all|currently|proudly|happily)\s+){0,3}"
)
WHO = r"\b(?P<who>I|we)\s+"
NAME_STOP = frozenset(
    """
    i the a an and but or so my our your his her their he she they we you it this that these
    those is was are were has have had do does did will would can could should just also
    today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday january
    february march april may june july august september october november december mr mrs ms
    dr lol haha yes no oh ok okay thanks hi hey hello please sorry well anyway actually
    because when where who what why how if then now here there god mom mum dad jr sr not
    """.split()
)
BOUNDARY_WORDS = frozenset(
    """
    and or but with from for to in on at by of that which who whom whose since because so as
    than is was are were be been being has have had do does did it i we my our the a an this
    these those yesterday today tomorrow tonight last next ago until till now again too also
    though named called when while where if into onto over under after before during about
    like just still already very really not no never anymore more back home away off up down
    out there here its their his her your him them me us monday tuesday wednesday thursday
    friday saturday sunday january february march april june july august september october
    november december weekend week month year owns has loves likes bought sold gets got keeps
    needs wants drives rides
    """.split()
)
DETERMINERS = frozenset("a an the my our another".split())
PRONOUN_VALUES = frozenset(
    """
    you your yours yourself he she him her his hers they them it its this that these those
    there here something anything everything nothing someone somebody anyone anybody everyone
    everybody what which who how why whatever u ur i we one ones
    """.split()
)
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
NAME = r"(?-i:(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?))"


def is_name(token: str) -> bool:
    """Whether ``token`` reads as a proper name ("Luna", "O'Brien"), not a capitalised word of
    the sentence ("Today", "Mom") or an acronym."""
    return (
        len(token) > 1
        and token[0].isupper()
        and token.replace("-", "").replace("'", "").isalpha()
        and token.lower() not in NAME_STOP
        and not token.isupper()
    )


def is_capitalised(token: str) -> bool:
    """Whether ``token`` is written as part of a name: "Tesla", and brands like "iPhone"."""
    return token[:1].isupper() or (token[:1].islower() and any(c.isupper() for c in token[1:]))
