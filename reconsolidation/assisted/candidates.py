"""Blocks of differently worded beliefs, and which of their groupings are locally admitted.
Pure functions of ``SourceView``s.

A block is the beliefs that agree on everything a deterministic merge needs
but their words (``planning.equivalence_key`` without the words). Within a
block a pair is admitted only when ``admission_rules.exclusion`` finds
nothing that must keep it apart and its subject is not single-valued; a
group a model proposes stands only when every pair in it is admitted.
Exclusions are local and final: no provider verdict can reverse them.
"""

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations

from reconsolidation.planning import SINGLE_VALUED_SUBJECTS, SourceView, statement_words

from .admission_rules import exclusion

# The most beliefs of one block compared pairwise, and offered in one request.
BLOCK_MEMBERS = 16
REQUEST_ITEMS = 48


@dataclass(frozen=True)
class Item:
    """One belief as a request shows it: an ephemeral label, the view it was read at, its
    statement and the owner's own messages it came from (each already allowed to leave)."""

    label: str
    view: SourceView
    statement: str
    # The owner's own messages it came from, as they may leave.
    excerpts: tuple[str, ...]

    @property
    def words(self) -> tuple[str, ...]:
        return statement_words(self.view.statement)


def block_key(
    view: SourceView,
) -> tuple[str, str, str, str, str, datetime | None, datetime | None]:
    return (
        view.subject,
        view.type,
        view.polarity,
        view.scope,
        view.sensitivity,
        view.valid_from,
        view.valid_until,
    )


def blocks(views: Iterable[SourceView]) -> list[list[SourceView]]:
    """[[view, ...], ...]: the blocks of ``views`` holding at least two wordings, each at most
    ``BLOCK_MEMBERS`` beliefs (oldest first), in the order of their oldest belief."""
    grouped: dict[
        tuple[str, str, str, str, str, datetime | None, datetime | None], list[SourceView]
    ] = {}
    for view in sorted(views, key=lambda v: v.pk):
        if statement_words(view.statement):
            grouped.setdefault(block_key(view), []).append(view)
    return [
        members[:BLOCK_MEMBERS]
        for members in grouped.values()
        if len({statement_words(v.statement) for v in members[:BLOCK_MEMBERS]}) > 1
    ]


def admitted_pairs(members: Sequence[SourceView]) -> tuple[frozenset[frozenset[int]], Counter[str]]:
    """(frozenset of admitted {pk, pk} pairs, Counter of exclusion reasons) for one block."""
    admitted: set[frozenset[int]] = set()
    excluded: Counter[str] = Counter()
    for first, second in combinations(members, 2):
        if statement_words(first.statement) == statement_words(second.statement):
            # Already one claim to the deterministic planner.
            admitted.add(frozenset((first.pk, second.pk)))
            continue
        # On a subject that holds one value at a time, two wordings are two values: a
        # contradiction for a notice to point at, never a merge.
        reason = (
            "single_valued"
            if first.subject in SINGLE_VALUED_SUBJECTS
            else exclusion(first.statement, second.statement)
        )
        if reason:
            excluded[reason] += 1
        else:
            admitted.add(frozenset((first.pk, second.pk)))
    return frozenset(admitted), excluded


def worth_asking(
    members: Sequence[SourceView],
    admitted: Iterable[frozenset[int]],
    merged: Mapping[int, set[int]] | None = None,
) -> list[SourceView]:
    """The members of a block that share an admitted pair of different wordings not merged
    together already: the only ones a model could merge that nothing has. ``merged`` maps a
    belief to the active merges holding it."""
    merged = merged or {}
    by_pk = {view.pk: view for view in members}
    wanted: set[int] = set()
    for pair in admitted:
        first, second = (by_pk[pk] for pk in pair)
        if statement_words(first.statement) == statement_words(second.statement):
            continue
        if merged.get(first.pk, set()) & merged.get(second.pk, set()):
            continue
        wanted |= pair
    return [view for view in members if view.pk in wanted]


def offered_group(
    block: str, labels: Sequence[str], items: Mapping[str, Item], block_of: Mapping[str, str]
) -> tuple[tuple[Item, ...], str]:
    """(the items ``labels`` name in the order of their beliefs, "") when every one was
    offered in ``block``; else ((), why not: ``unknown_item`` or ``other_block``)."""
    if not all(label in items for label in labels):
        return (), "unknown_item"
    if any(block_of[label] != block for label in labels):
        return (), "other_block"
    return tuple(sorted((items[label] for label in labels), key=lambda i: i.view.pk)), ""


def admitted_groups(
    proposed: Iterable[tuple[str, Sequence[str]]],
    items: Mapping[str, Item],
    block_of: Mapping[str, str],
    admitted: Collection[frozenset[int]],
) -> tuple[list[tuple[Item, ...]], Counter[str]]:
    """The proposed groups that stand, as tuples of items, and Counter of why others did not.

    ``proposed`` is [(block label, (item labels...))], ``items`` {label: Item},
    ``block_of`` {item label: block label}, ``admitted`` the admitted {pk, pk}
    pairs. A group stands when all its items were offered, in the block it
    names, every pair in it is admitted, it adds a wording the deterministic
    planner would not merge, and it shares no belief with a group before it.
    """
    standing: list[tuple[Item, ...]] = []
    dropped: Counter[str] = Counter()
    taken: set[int] = set()
    for block, labels in proposed:
        group, reason = offered_group(block, labels, items, block_of)
        if reason:
            dropped[reason] += 1
            continue
        if any(
            frozenset((a.view.pk, b.view.pk)) not in admitted for a, b in combinations(group, 2)
        ):
            dropped["excluded_pair"] += 1
            continue
        if len({item.words for item in group}) < 2:
            dropped["not_new"] += 1
            continue
        if taken & {item.view.pk for item in group}:
            dropped["overlap"] += 1
            continue
        taken |= {item.view.pk for item in group}
        standing.append(group)
    return standing, dropped
