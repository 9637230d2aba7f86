"""Which memories a topic review may offer, and which proposed topics are locally admitted.
Pure functions of ``SourceView``s.

A topic gathers memories of different subjects that one summary should show
together, where no shared name does (``entity:`` summaries are the
deterministic planner's). The model may only propose; locally, a topic
stands when its memories were offered in one block (one scope), hold at least
``SUMMARY_MIN_CLAIMS`` distinct claims of at least two subjects, no summary
holds them all already, and its name is the owner's own words: one to four
words found together in one of its memories, with a content word among them
that every one of its memories shares (compared by their stems, as recall
compares words: "running" names "runs"), no more sensitive than the memories
themselves and not shaped like an instruction. A name found in one memory
only says nothing of the others ("hospital" over a bicycle, a doctor and a
nurse). The name is the only text a model proposes, so it is classified
on its own before it is stored or sent anywhere.
"""

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

from memory.enums import Sensitivity
from memory.screening import classify_sensitivity, looks_like_injection
from memory.stemming import stem
from memory.text import STOPWORDS, content_words
from reconsolidation.planners.hypotheses import NAMELESS_SUBJECTS
from reconsolidation.planners.summaries import SUMMARY_MIN_CLAIMS, plan_topic_summary
from reconsolidation.planning import SourceView, statement_words

from .candidates import Item, offered_group

# The most memories one topic review offers, and shows in one topic.
TOPIC_ITEMS = 48
TOPIC_MEMBERS = 12
TOPIC_WORDS = 4
TOPIC_PREFIX = "topic:"

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_SENSITIVITY_RANK = {value: rank for rank, value in enumerate(Sensitivity.values)}


def topic_pool(
    views: Iterable[SourceView], summarised: Collection[int]
) -> dict[str, list[SourceView]]:
    """{scope: [view, ...]}: the memories a topic review may offer, by scope, at most
    ``TOPIC_ITEMS`` in all, newest first within the largest scopes first.

    ``summarised`` is the set of beliefs an active summary holds: those are read
    together already. A memory without content words, or on the catch-all
    subject, names no topic.
    """
    by_scope: dict[str, list[SourceView]] = {}
    for view in views:
        if (
            view.pk not in summarised
            and view.subject not in NAMELESS_SUBJECTS
            and statement_words(view.statement)
        ):
            by_scope.setdefault(view.scope, []).append(view)
    pool: dict[str, list[SourceView]] = {}
    left = TOPIC_ITEMS
    for scope, members in sorted(by_scope.items(), key=lambda entry: (-len(entry[1]), entry[0])):
        if len(members) < SUMMARY_MIN_CLAIMS or left < SUMMARY_MIN_CLAIMS:
            continue
        newest = sorted(members, key=lambda view: -view.pk)[:left]
        pool[scope] = sorted(newest, key=lambda view: view.pk)
        left -= len(pool[scope])
    return pool


def topic_words(topic: str) -> tuple[str, ...]:
    """The words of a proposed topic name, lower case; () when it is not a name of one to
    ``TOPIC_WORDS`` words (closing punctuation aside)."""
    name = " ".join(topic.strip().strip(".!?;:,").lower().split())
    words = tuple(_WORD.findall(name))
    if not 1 <= len(words) <= TOPIC_WORDS or " ".join(words) != name:
        return ()
    return words


def topic_subject(words: Sequence[str]) -> str:
    return TOPIC_PREFIX + "-".join(words)


def _found_in(words: Sequence[str], statement: str) -> re.Match[str] | None:
    return re.search(
        r"(?<![\w-])" + r"[\s-]+".join(re.escape(word) for word in words) + r"(?![\w-])",
        statement.lower(),
    )


def _stems(text: str) -> set[str]:
    return {
        stem(piece)
        for word in content_words(text)
        for piece in word.split("'")
        if piece and piece not in STOPWORDS
    }


def label_decision(topic: str, views: Sequence[SourceView]) -> str:
    """Why ``topic`` may not name a summary of ``views`` (a closed code), or ""."""
    words = topic_words(topic)
    if not words or not statement_words(" ".join(words)):
        return "label_invalid"
    if not any(_found_in(words, view.statement) for view in views):
        return "label_ungrounded"
    label = _stems(" ".join(words))
    if not all(label & _stems(view.statement) for view in views):
        return "label_not_shared"
    if looks_like_injection(topic):
        return "label_instruction_shaped"
    unknown = -1
    ceiling = max(_SENSITIVITY_RANK.get(view.sensitivity, unknown) for view in views)
    if _SENSITIVITY_RANK[classify_sensitivity(topic)] > ceiling:
        return "label_sensitive"
    return ""


def admitted_topics(
    proposed: Iterable[tuple[str, str, Sequence[str]]],
    items: Mapping[str, Item],
    block_of: Mapping[str, str],
) -> tuple[list[tuple[tuple[str, ...], tuple[Item, ...]]], Counter[str]]:
    """The proposed topics that stand, as (topic words, items) pairs, and a Counter of why
    the others did not.

    ``proposed`` is [(block label, topic, (item labels...))], ``items``
    {label: Item} and ``block_of`` {item label: block label}. Of two topics
    sharing a memory, the first stands. Whether a summary shows them all by
    now is checked when the verification is prepared, on fresh reads.
    """
    standing: list[tuple[tuple[str, ...], tuple[Item, ...]]] = []
    dropped: Counter[str] = Counter()
    taken: set[int] = set()
    for block, topic, labels in proposed:
        group, reason = offered_group(block, labels, items, block_of)
        views = [item.view for item in group]
        reason = reason or _group_decision(topic, views)
        if not reason and taken & {view.pk for view in views}:
            reason = "overlap"
        if reason:
            dropped[reason] += 1
            continue
        taken |= {view.pk for view in views}
        standing.append((topic_words(topic), group))
    return standing, dropped


def _group_decision(topic: str, views: Sequence[SourceView]) -> str:
    if len(views) > TOPIC_MEMBERS:
        return "too_many"
    if len({view.subject for view in views}) < 2:
        # One subject's memories are that subject's own summary.
        return "one_subject"
    reason = label_decision(topic, views)
    if reason:
        return reason
    if plan_topic_summary(topic_subject(topic_words(topic)), views) is None:
        return "too_few_claims"
    return ""
