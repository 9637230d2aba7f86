"""Subject keys as people read them: ``person:maya`` is "Maya", ``vehicle:bmw-x3`` "BMW X3".

Derived text is read by the owner and by assistants, so it names a subject
the way the owner's own memories write it. A key is lower case by design; the
words it names are looked for in the given texts (case aside, spaces or
hyphens between them), and their first appearance there gives the casing.
Without one, a person's name is capitalised and anything else stays as the
key spells it. Pure.
"""

import re
from collections.abc import Iterable

# Kinds whose entity is a name: capitalised when no text shows how it is written.
_NAMED_KINDS = frozenset({"person", "pet", "place", "city", "country", "org", "company"})


def _entity_words(subject: str) -> list[str]:
    _, _, entity = subject.partition(":")
    return [word for word in re.split(r"[-:]", entity) if word]


def subject_label(subject: str, texts: Iterable[str | None] = ()) -> str:
    """The subject of key ``subject`` as the owner writes it in ``texts``; "" for no subject."""
    if not subject:
        return ""
    kind = subject.partition(":")[0]
    words = _entity_words(subject)
    if not words:
        return subject
    pattern = re.compile(
        r"(?<![\w-])" + r"[\s-]+".join(re.escape(word) for word in words) + r"(?![\w-])",
        re.IGNORECASE,
    )
    for text in texts:
        found = pattern.search(text or "")
        if found:
            return found.group(0)
    if kind in _NAMED_KINDS:
        return " ".join(word.capitalize() for word in words)
    return " ".join(words)
