"""What a careful model would answer reconsolidation's requests: the fake provider's
``careful`` answers (``reconsolidation.assisted.fake_answers``).

Two memories state one claim when they say the same content words, whatever their
order or inflection: their Porter stems as sets, once lower-cased, stripped of
punctuation, articles and function words, are equal; and they agree on negation ("not",
"no", "never", "n't", "no longer" in both or neither), on every number and on every
name. "User's dog is named Pepper." and "User has a dog named Pepper." are one claim;
"User likes coffee." and "User hates coffee.", "User has 2 cats." and "User has 3
cats.", "User drinks coffee." and "User does not drink coffee." are not.

A topic is an entity that at least three memories of a block are about: the part of
each memory's subject after ":" when the request carries subjects, else a name the
memories share. The verifier re-checks each clause by the same rules. Pure functions of
the request's text.
"""

import re
from collections.abc import Iterable

from memory.stemming import stem

# A topic holds this many memories at least and at most, a merge at most this many.
TOPIC_MEMBERS = (3, 12)
MERGE_MEMBERS = 16

_FUNCTION_WORDS = frozenset(
    """a an the user user's is are was were be been being am has have had do does did of to in
    on at for with by from as and or but that this these those it its their them they his her
    he she which who whom whose so than then there here very just also named called""".split()
)
_NEGATION = re.compile(r"\b(?:not|no|never|no longer)\b|n't\b")
_NEGATION_WORDS = frozenset({"not", "no", "never", "longer"})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*")


def _names(statement: str, *, first_word: bool = False) -> frozenset:
    """The names of ``statement``: its capitalised words, "User" aside. A capitalised first
    word may only open the sentence ("Green tea is ..."): it counts with ``first_word``,
    unless it is a function word; its stem counts among the content words anyway."""
    text = statement.strip()
    rest = text if first_word else (text.split(None, 1)[1] if " " in text else "")
    return frozenset(
        name.lower()
        for name in _NAME.findall(rest)
        if name.split()[0] not in ("User", "I") and name.lower() not in _FUNCTION_WORDS
    )


def claim_key(statement: str) -> tuple:
    """What two statements of one claim share: content stems as a set, negation, numbers
    and names."""
    text = statement.replace("’", "'")
    lower = text.lower()
    contents = frozenset(
        stem(piece)
        for word in re.findall(r"[a-z0-9']+", lower)
        for piece in [re.sub(r"'s$|n't$|'$", "", word)]
        if piece
        and piece not in _FUNCTION_WORDS
        and piece not in _NEGATION_WORDS
        and not piece.isdigit()
        # What a contraction leaves ("doesn't" -> "does"): the negation speaks for it.
        and piece not in ("does", "did", "do", "is", "was", "are", "were", "ca", "wo")
    )
    return (
        contents,
        bool(_NEGATION.search(lower)),
        frozenset(_NUMBER.findall(text)),
        _names(text),
    )


def same_claim(statements: Iterable[str]) -> bool:
    """Whether every one of ``statements`` states the same claim."""
    return len({claim_key(statement) for statement in statements}) == 1


def claim_groups(memories: list[dict]) -> list[list[str]]:
    """The ids of the memories of one block grouped by claim, groups of two or more."""
    groups: dict[tuple, list[str]] = {}
    for memory in memories:
        groups.setdefault(claim_key(memory["statement"]), []).append(memory["id"])
    return [ids[:MERGE_MEMBERS] for ids in groups.values() if len(ids) > 1]


def _entities(memory: dict) -> frozenset:
    """What a memory is about: its subject's entity when the request carries it, else the
    names of its statement."""
    subject = memory.get("subject")
    if isinstance(subject, str) and ":" in subject:
        return frozenset({subject.split(":", 1)[1].replace("-", " ").lower()})
    return _names(memory.get("statement", ""), first_word=True)


def _entity_name(entity: str, memories: list[dict]) -> str:
    """``entity`` as a memory writes it, for the topic's name."""
    for memory in memories:
        found = re.search(re.escape(entity), memory.get("statement", ""), re.IGNORECASE)
        if found:
            return found.group(0)
    return entity


def entity_topics(memories: list[dict]) -> list[tuple[str, list[str]]]:
    """Topics of one block: (entity, ids) of each entity at least three memories are about,
    most shared first, each memory in one topic."""
    by_entity: dict[str, list[str]] = {}
    for memory in memories:
        for entity in _entities(memory):
            by_entity.setdefault(entity, []).append(memory["id"])
    low, high = TOPIC_MEMBERS
    topics, taken = [], set()
    for entity, ids in sorted(by_entity.items(), key=lambda item: (-len(item[1]), item[0])):
        ids = [i for i in ids if i not in taken][:high]
        if len(ids) >= low:
            topics.append((_entity_name(entity, memories)[:40], ids))
            taken |= set(ids)
    return topics


def same_topic(topic: str, memories: list[dict]) -> bool:
    """Whether every one of ``memories`` is about the entity ``topic`` names."""
    entity = topic.lower().strip()
    return len(memories) >= TOPIC_MEMBERS[0] and all(
        entity in _entities(memory) for memory in memories
    )
