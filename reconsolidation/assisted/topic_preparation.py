"""Preparing the requests of a topic review: read-only, and exactly what would be sent.

The proposal offers the newest live direct memories that no active summary
shows, by scope (``topics.topic_pool``), as statements alone; every memory is
decided by the egress policy as a merge review's are, and must rest on a
message of the owner's that may leave too, since the verifier is shown it.
The verification shows the locally admitted topics with every memory and
message read and decided afresh, and the topic's name as the owner's own
words, classified on its own before it leaves.
"""

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from accounts.models import User
from common.principal import principal_context
from memory.enums import LIVE_BELIEF_STATUSES
from memory.models import Belief
from providers.config import ProviderConfig
from providers.egress import EgressRule, egress_rules, item_may_leave, message_item
from reconsolidation.models import DerivedMemory, Lineage
from reconsolidation.planning import SourceView
from reconsolidation.selectors.sources import source_views

from .candidates import Item
from .preparation import (
    BUDGET,
    Budget,
    Request,
    clause_items,
    deferral,
    priced,
    sendable_items,
    stale_reason,
)
from .topics import TOPIC_ITEMS, label_decision, topic_pool
from .wire import canonical, digest, topic_proposal_content, topic_verification_content

# Unsummarised memories read per proposal, newest first, for the pool to choose from.
CANDIDATES_READ = 4 * TOPIC_ITEMS


def summarised_groups(principal: User) -> dict[int, set[int]]:
    """{summary id: set of belief ids it shows} of the principal's active summaries."""
    groups: dict[int, set[int]] = {}
    for derived_id, belief_id in Lineage.objects.filter(
        owner=principal,
        role=Lineage.Role.SOURCE,
        derived__kind=DerivedMemory.Kind.SUMMARY,
        derived__status=DerivedMemory.Status.ACTIVE,
    ).values_list("derived_id", "belief_id"):
        groups.setdefault(derived_id, set()).add(belief_id)
    return groups


def _candidates(principal: User, summarised: Collection[int]) -> list[SourceView]:
    ids = list(
        Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
        .exclude(claim_key="")
        .exclude(pk__in=summarised)
        .order_by("-id")
        .values_list("id", flat=True)[:CANDIDATES_READ]
    )
    return source_views(principal, pk__in=ids)


def prepare_topic_proposal(
    principal: User,
    *,
    config: ProviderConfig | None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
) -> Request:
    """The topic proposal request for ``principal``'s bank now, writing nothing."""
    deferred = deferral(principal, config, evaluation)
    if deferred:
        return Request(stage="topic_proposal", deferred=deferred)
    # ``deferral`` says "not_configured" without one.
    assert config is not None
    rules = None if evaluation else egress_rules()
    excluded: Counter[str] = Counter()
    with principal_context(principal):
        summarised = set().union(*summarised_groups(principal).values())
        views = _candidates(principal, summarised)
        leaving = sendable_items(principal, views, rules, excluded)
    pool = topic_pool([view for view in views if view.pk in leaving], summarised)
    items: dict[str, Item] = {}
    groups: dict[str, str] = {}
    shown: list[tuple[str, list[Item]]] = []
    for scope_members in pool.values():
        block = f"b{len(shown) + 1}"
        block_items = []
        for view in scope_members:
            label = f"m{len(items) + 1}"
            statement, excerpts = leaving[view.pk]
            items[label] = Item(label=label, view=view, statement=statement, excerpts=excerpts)
            groups[label] = block
            block_items.append(items[label])
        shown.append((block, block_items))
    if not shown:
        return Request(stage="topic_proposal", deferred="nothing_to_ask", excluded=excluded)
    return priced(
        config,
        "topic_proposal",
        topic_proposal_content(shown),
        budget,
        items=items,
        groups=groups,
        excluded=excluded,
    )


def prepare_topic_verification(
    principal: User,
    proposal: Request,
    standing: Iterable[tuple[tuple[str, ...], Sequence[Item]]],
    *,
    config: ProviderConfig | None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
) -> Request:
    """The verification request for the locally admitted ``standing`` topics of ``proposal``
    ([(topic words, (items...))]), with every memory and message read and decided afresh. A
    topic with a memory that changed or may no longer leave, a name that no longer stands
    or may not leave, or memories a summary now shows, is left out and counted."""
    deferred = deferral(principal, config, evaluation)
    if deferred:
        return Request(stage="topic_verification", deferred=deferred)
    # ``deferral`` says "not_configured" without one.
    assert config is not None
    rules = None if evaluation else egress_rules()
    excluded: Counter[str] = Counter()
    wanted = [item.view.pk for _, group in standing for item in group]
    with principal_context(principal):
        current = {view.pk: view for view in source_views(principal, pk__in=wanted)}
        leaving = sendable_items(principal, list(current.values()), rules, excluded)
        summarised = list(summarised_groups(principal).values())
    items: dict[str, Item] = {}
    groups: dict[str, str] = {}
    topics: dict[str, tuple[str, ...]] = {}
    clauses: list[tuple[str, str, list[Item]]] = []
    for words, group in standing:
        fresh = [current.get(item.view.pk) for item in group]
        name = " ".join(words)
        # None is gone: ``stale_reason`` says "source_changed" otherwise.
        read = [view for view in fresh if view is not None]
        reason = stale_reason(group, fresh, leaving) or _clause_decision(
            name, read, summarised, rules
        )
        if reason:
            excluded[reason] += 1
            continue
        clause = f"c{len(clauses) + 1}"
        topics[clause] = words
        clauses.append((clause, name, clause_items(clause, group, read, leaving, items, groups)))
    if not clauses:
        return Request(stage="topic_verification", deferred="nothing_to_verify", excluded=excluded)
    proposal_digest = digest(
        canonical(
            {
                "proposal_request": proposal.digest,
                "clauses": [
                    [clause, name, [[i.label, i.statement, list(i.excerpts)] for i in members]]
                    for clause, name, members in clauses
                ],
            }
        )
    )
    return priced(
        config,
        "topic_verification",
        topic_verification_content(proposal_digest, clauses),
        budget,
        items=items,
        groups=groups,
        topics=topics,
        excluded=excluded,
        proposal_digest=proposal_digest,
        proposal_request=proposal.digest,
    )


def _clause_decision(
    name: str,
    fresh: Sequence[SourceView],
    summarised: Iterable[set[int]],
    rules: Sequence[EgressRule] | None,
) -> str:
    """Why a topic over the ``fresh`` reads of its memories (none changed and all may leave)
    may not be verified now (a closed code), or ""."""
    if any({view.pk for view in fresh} <= shown for shown in summarised):
        return "not_new"
    reason = label_decision(name, fresh)
    if reason:
        return reason
    if not item_may_leave(message_item(name, scope=fresh[0].scope), rules):
        return "label_egress_denied"
    return ""
