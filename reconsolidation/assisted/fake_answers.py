"""How the fake provider (``providers.fake``) answers reconsolidation's requests.

Merge proposals group the memories of a block that share most of their words
(``merges`` scripts them), topic proposals group the memories of a block that
share a word under that word (``topics`` scripts them), and the verifier agrees
with every clause. Behaviours of the verifier's requests:

- ``disagree``: the verifier finds no clause the same claim.
- ``other_digest``: the verifier answers for another proposal.
- ``other_clauses``: the verifier leaves a clause out.

and of every request of reconsolidation's:

- ``yes_to_everything``: the proposer calls each block one claim, and one topic
  under the first word of its first memory that is no filler (unless scripted);
  the verifier agrees with every clause. Only local rules stand in its way.
- ``careful``: what a careful model would answer
  (``reconsolidation.assisted.fake_careful``): merges only of memories that say the
  same content words, negation, numbers and names; topics only of at least three
  memories about one entity, named by it; the verifier re-checks each clause by the
  same rules and answers false where they do not hold.
- ``silent``: the proposer proposes no merges and no topics (unless scripted).

The default grouping by shared words is the careless reader; ``careful`` the reader a
provider should be.

The behaviours every request shares (``malformed``, ``schema``, ``no_usage`` and
the others) are the fake's own.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from providers.fake import FakeAnswers, FakeRequest

from .fake_careful import claim_groups, entity_topics, same_claim, same_topic
from .wire import (
    PROPOSAL_SCHEMA_NAME,
    TOPIC_PROPOSAL_SCHEMA_NAME,
    TOPIC_VERIFICATION_SCHEMA_NAME,
    VERIFICATION_SCHEMA_NAME,
)

YES_TO_EVERYTHING = "yes_to_everything"
CAREFUL = "careful"
SILENT = "silent"
_FILLER = frozenset({"user", "user's", "has", "have", "had", "is", "are", "was", "the", "and"})


def _words(text: str) -> set[str]:
    return {
        word
        for word in re.findall(r"[a-z0-9']+", text.lower())
        if len(word) > 2 and word not in _FILLER
    }


def _similar_groups(memories: Iterable[dict[str, Any]]) -> list[list[str]]:
    """Memories of one block grouped greedily by shared words: what a careless model would
    call one claim."""
    groups: list[dict[str, Any]] = []
    for memory in memories:
        words = _words(memory["statement"])
        for group in groups:
            other = group["words"]
            if words and len(words & other) / len(words | other) >= 0.5:
                group["ids"].append(memory["id"])
                break
        else:
            groups.append({"words": words, "ids": [memory["id"]]})
    return [group["ids"] for group in groups if len(group["ids"]) > 1]


def _shared_word_groups(memories: Iterable[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Topics of one block: the memories sharing a word, under that word, most shared first,
    each memory in one topic: what a careless model would call a topic."""
    by_word: dict[str, list[str]] = {}
    for memory in memories:
        for word in _words(memory["statement"]):
            if len(word) > 3:
                by_word.setdefault(word, []).append(memory["id"])
    topics: list[tuple[str, list[str]]] = []
    taken: set[str] = set()
    for word, ids in sorted(by_word.items(), key=lambda entry: (-len(entry[1]), entry[0])):
        free = [i for i in ids if i not in taken][:12]
        if len(free) >= 3:
            topics.append((word, free))
            taken |= set(free)
    return topics


def _first_word(memories: Sequence[dict[str, Any]]) -> str:
    for word in re.findall(r"[a-z0-9']+", memories[0]["statement"].lower()):
        if len(word) > 3 and word not in _FILLER:
            return word
    return "things"


def _merges(request: FakeRequest) -> dict[str, Any]:
    if "merges" in request.scripts:
        return {"merges": request.scripts["merges"]}
    if request.behaviour == SILENT:
        return {"merges": []}
    if request.behaviour == CAREFUL:
        return {
            "merges": [
                {"block": block.get("block"), "memories": ids}
                for block in request.user.get("blocks", [])
                for ids in claim_groups(block.get("memories", []))
            ]
        }
    if request.behaviour == YES_TO_EVERYTHING:
        return {
            "merges": [
                {"block": block.get("block"), "memories": [m["id"] for m in block["memories"]][:16]}
                for block in request.user.get("blocks", [])
                if len(block.get("memories", [])) > 1
            ]
        }
    merges = [
        {"block": block.get("block"), "memories": ids}
        for block in request.user.get("blocks", [])
        for ids in _similar_groups(block.get("memories", []))
    ]
    return {"merges": merges}


def _topics(request: FakeRequest) -> dict[str, Any]:
    if "topics" in request.scripts:
        return {"topics": request.scripts["topics"]}
    if request.behaviour == SILENT:
        return {"topics": []}
    if request.behaviour == CAREFUL:
        return {
            "topics": [
                {"block": block.get("block"), "topic": topic, "memories": ids}
                for block in request.user.get("blocks", [])
                for topic, ids in entity_topics(block.get("memories", []))
            ][:16]
        }
    if request.behaviour == YES_TO_EVERYTHING:
        return {
            "topics": [
                {
                    "block": block.get("block"),
                    "topic": _first_word(block["memories"]),
                    "memories": [m["id"] for m in block["memories"]][:12],
                }
                for block in request.user.get("blocks", [])
                if block.get("memories")
            ]
        }
    topics = [
        {"block": block.get("block"), "topic": word, "memories": ids}
        for block in request.user.get("blocks", [])
        for word, ids in _shared_word_groups(block.get("memories", []))
    ]
    return {"topics": topics}


def _careful_verdict(request: FakeRequest, clause: dict[str, Any]) -> bool:
    memories = clause.get("memories", [])
    if request.schema == TOPIC_VERIFICATION_SCHEMA_NAME:
        return same_topic(clause.get("topic", ""), memories)
    return len(memories) > 1 and same_claim(memory.get("statement", "") for memory in memories)


def _verdicts(request: FakeRequest) -> dict[str, Any]:
    answer = "same_topic" if request.schema == TOPIC_VERIFICATION_SCHEMA_NAME else "same_claim"
    if request.behaviour == CAREFUL:
        return {
            "proposal_digest": request.user.get("proposal_digest", ""),
            "verdicts": [
                {"clause": clause.get("clause"), answer: _careful_verdict(request, clause)}
                for clause in request.user.get("clauses", [])
            ],
        }
    clauses = [clause.get("clause") for clause in request.user.get("clauses", [])]
    if request.behaviour == "other_clauses":
        clauses = clauses[1:]
    digest = request.user.get("proposal_digest", "")
    if request.behaviour == "other_digest":
        digest = "0" * 64
    agrees = request.behaviour != "disagree"
    return {
        "proposal_digest": digest,
        "verdicts": [{"clause": clause, answer: agrees} for clause in clauses],
    }


def _answers(answer: Callable[[FakeRequest], dict[str, Any]], **fields: Any) -> FakeAnswers:
    return FakeAnswers(
        answer=answer,
        malformed="These look the same to me.",
        off_schema={"same": True},
        **fields,
    )


_VERIFIER = ("disagree", "other_digest", "other_clauses", YES_TO_EVERYTHING, CAREFUL)
_PROPOSER = (YES_TO_EVERYTHING, CAREFUL, SILENT)

# By schema name; reconsolidation registers them from its ready().
ANSWERS = {
    PROPOSAL_SCHEMA_NAME: _answers(_merges, scripts=("merges",), behaviours=_PROPOSER),
    VERIFICATION_SCHEMA_NAME: _answers(_verdicts, behaviours=_VERIFIER),
    TOPIC_PROPOSAL_SCHEMA_NAME: _answers(_topics, scripts=("topics",), behaviours=_PROPOSER),
    TOPIC_VERIFICATION_SCHEMA_NAME: _answers(_verdicts, behaviours=_VERIFIER),
}
