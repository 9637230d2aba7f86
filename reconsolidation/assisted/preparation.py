"""Preparing the requests of model-assisted reconsolidation: read-only, and exactly what would
be sent.

Only current versions of live direct memories and the complete text parts of
the owner's own messages they came from are read. Each memory and each
message is decided alone by the egress policy (``providers.egress``):
what is denied, unclassified, shaped like an instruction or too long to send
whole is left out and counted, never cut or reworded; an unpinned residency
or an owner's opt-out defers the whole request before anything is
serialized. The request is serialized once; its price is reckoned on those
bytes (a token is at least a byte) and the most the reply may hold. The
admission service prepares again inside its transaction and sends only if
the bytes are the same.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count

from accounts.models import User
from accounts.selectors import model_processing_allowed
from common.principal import principal_context
from memory.enums import LIVE_BELIEF_STATUSES, AuthorKind, EventType, Portability, Sensitivity
from memory.models import Belief, BeliefSource
from memory.screening import looks_like_injection
from providers.client import request_bytes
from providers.config import ProviderConfig
from providers.egress import (
    EgressItem,
    EgressRule,
    egress_rules,
    item_may_leave,
    message_item,
    outgoing_text,
    residency_allowed,
)
from reconsolidation.models import DerivedMemory, Lineage
from reconsolidation.planning import SourceView
from reconsolidation.selectors.sources import source_views

from .candidates import REQUEST_ITEMS, Item, admitted_pairs, blocks, worth_asking
from .wire import (
    PROPOSAL_PROMPT,
    PROPOSAL_SCHEMA,
    PROPOSAL_SCHEMA_NAME,
    TOPIC_PROPOSAL_PROMPT,
    TOPIC_PROPOSAL_SCHEMA,
    TOPIC_PROPOSAL_SCHEMA_NAME,
    TOPIC_VERIFICATION_PROMPT,
    TOPIC_VERIFICATION_SCHEMA,
    TOPIC_VERIFICATION_SCHEMA_NAME,
    VERIFICATION_PROMPT,
    VERIFICATION_SCHEMA,
    VERIFICATION_SCHEMA_NAME,
    canonical,
    digest,
    proposal_content,
    verification_content,
)

POLICY_VERSION = "reconsolidation-assisted@1"
# Each stage's instructions, reply schema and schema name.
STAGES = {
    "proposal": (PROPOSAL_PROMPT, PROPOSAL_SCHEMA, PROPOSAL_SCHEMA_NAME),
    "verification": (VERIFICATION_PROMPT, VERIFICATION_SCHEMA, VERIFICATION_SCHEMA_NAME),
    "topic_proposal": (TOPIC_PROPOSAL_PROMPT, TOPIC_PROPOSAL_SCHEMA, TOPIC_PROPOSAL_SCHEMA_NAME),
    "topic_verification": (
        TOPIC_VERIFICATION_PROMPT,
        TOPIC_VERIFICATION_SCHEMA,
        TOPIC_VERIFICATION_SCHEMA_NAME,
    ),
}
# Blocks read per request at most (each of at most ``BLOCK_MEMBERS`` beliefs): those
# with nothing left to ask are passed over, so later ones are reached.
BLOCKS_READ = 120
# A message longer than this is not sent at all: never a part of one.
EXCERPT_CHARS = 4000


@dataclass(frozen=True)
class Budget:
    """The bounds of one request; a request over them is never sent."""

    input_bytes: int = 65_536
    output_tokens: int = 2_048
    usd: Decimal = Decimal("0.10")
    seconds: float = 30.0


BUDGET = Budget()

# What of a memory may leave: its statement (secrets redacted) and the owner's messages.
Leaving = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Request:
    """A prepared request: its exact bytes and what they were made from, or why none is."""

    stage: str
    # Why nothing may be sent ("" when something may): a closed code.
    deferred: str = ""
    payload: bytes = b""
    price: Decimal = Decimal(0)
    # {label: Item} offered, {item label: block or clause label}, and the admitted pairs.
    items: dict[str, Item] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    admitted: frozenset[frozenset[int]] = frozenset()
    # What was left out, by reason (a closed code).
    excluded: Counter[str] = field(default_factory=Counter)
    # A verification's binding to the proposal it verifies, and that proposal
    # request's digest.
    proposal_digest: str = ""
    proposal_request: str = ""
    binding: str = ""
    # A topic verification's {clause label: topic words}.
    topics: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        return digest(self.payload) if self.payload else ""

    def decisions(self) -> dict[str, Any]:
        """Content-free counts of what preparation decided."""
        decisions: dict[str, Any] = {
            "offered": len(self.items),
            "groups": len(set(self.groups.values())),
            "excluded": dict(sorted(self.excluded.items())),
        }
        if self.proposal_request:
            decisions["proposal_request"] = self.proposal_request
        return decisions


def deferral(principal: User, config: ProviderConfig | None, evaluation: bool) -> str:
    """Why no request may be made at all, decided before anything is read, or ""."""
    if config is None:
        return "not_configured"
    if evaluation:
        return ""
    if not model_processing_allowed(principal):
        return "opted_out"
    if not residency_allowed(config.residency):
        return "residency_unknown"
    return ""


def _memory_decision(view: SourceView, rules: Sequence[EgressRule] | None) -> str:
    """Why this memory may not leave (a closed code), or ""."""
    if view.sensitivity not in Sensitivity.values or view.portability not in Portability.values:
        return "classification_unknown"
    if not item_may_leave(
        EgressItem(sensitivity=view.sensitivity, portability=view.portability, scope=view.scope),
        rules,
    ):
        return "egress_denied"
    if looks_like_injection(view.statement):
        return "instruction_shaped"
    return ""


def _message_text(parts: Iterable[object]) -> str:
    """The complete text parts of a message, in order; captions are not the owner's words."""
    return "\n".join(
        part.get("text", "")
        for part in parts
        if isinstance(part, dict) and part.get("type") == "text" and part.get("text")
    )


def _excerpts(
    principal: User,
    views: Sequence[SourceView],
    rules: Sequence[EgressRule] | None,
    excluded: Counter[str],
) -> dict[int, tuple[str, ...]]:
    """{belief pk: (redacted message texts...)} of the owner's own messages behind each belief
    that may leave; every other message is counted by why it stays."""
    found: dict[int, list[str]] = {}
    rows = (
        BeliefSource.objects.filter(owner=principal, belief_id__in=[v.pk for v in views])
        .order_by("event__occurred_at", "event_id")
        .values_list(
            "belief_id",
            "event__author_kind",
            "event__event_type",
            "event__parts",
            "event__redacted_at",
        )
    )
    scope = {view.pk: view.scope for view in views}
    for belief_id, author, event_type, parts, redacted_at in rows:
        text = _message_text(parts or [])
        if (
            author != AuthorKind.PRINCIPAL
            or event_type != EventType.USER_MESSAGE
            or redacted_at is not None
            or not text
        ):
            excluded["message_not_owners"] += 1
        elif len(text) > EXCERPT_CHARS:
            excluded["message_too_long"] += 1
        elif looks_like_injection(text):
            excluded["message_instruction_shaped"] += 1
        elif not item_may_leave(message_item(text, scope=scope[belief_id]), rules):
            excluded["message_egress_denied"] += 1
        else:
            found.setdefault(belief_id, []).append(outgoing_text(text))
    return {pk: tuple(dict.fromkeys(texts)) for pk, texts in found.items()}


def sendable_items(
    principal: User,
    views: Iterable[SourceView],
    rules: Sequence[EgressRule] | None,
    excluded: Counter[str],
) -> dict[int, Leaving]:
    """{pk: (redacted statement, excerpts)} of the views that may leave, each with at least
    one message of the owner's behind it."""
    allowed: list[SourceView] = []
    for view in views:
        reason = _memory_decision(view, rules)
        if reason:
            excluded[reason] += 1
        else:
            allowed.append(view)
    excerpts = _excerpts(principal, allowed, rules, excluded)
    leaving: dict[int, Leaving] = {}
    for view in allowed:
        if view.pk not in excerpts:
            excluded["no_owner_message"] += 1
            continue
        leaving[view.pk] = (outgoing_text(view.statement), excerpts[view.pk])
    return leaving


def _merged(principal: User, views: Iterable[SourceView]) -> dict[int, set[int]]:
    """{belief pk: ids of the active merges holding it}: pairs merged already are not asked
    about again."""
    found: dict[int, set[int]] = {}
    for belief_id, derived_id in Lineage.objects.filter(
        owner=principal,
        belief_id__in=[view.pk for view in views],
        role=Lineage.Role.SOURCE,
        derived__kind=DerivedMemory.Kind.MERGED,
        derived__status=DerivedMemory.Status.ACTIVE,
    ).values_list("belief_id", "derived_id"):
        found.setdefault(belief_id, set()).add(derived_id)
    return found


def _block_views(principal: User) -> list[SourceView]:
    """Live beliefs of the first ``BLOCKS_READ`` blocks that hold two claim keys or more."""
    keys = list(
        Belief.objects.filter(owner=principal, status__in=LIVE_BELIEF_STATUSES)
        .exclude(claim_key="")
        .values("subject", "type", "polarity", "scope", "sensitivity")
        .annotate(keys=Count("claim_key", distinct=True))
        .filter(keys__gte=2)
        .order_by("subject", "type", "polarity", "scope", "sensitivity")[:BLOCKS_READ]
    )
    views: list[SourceView] = []
    for key in keys:
        key.pop("keys")
        views += source_views(principal, **key)
    return views


def _payload(config: ProviderConfig, stage: str, content: str, budget: Budget) -> bytes:
    system, schema, name = STAGES[stage]
    return request_bytes(
        config,
        system=system,
        user=content,
        schema=schema,
        max_output_tokens=budget.output_tokens,
        schema_name=name,
    )


def priced(
    config: ProviderConfig, stage: str, content: str, budget: Budget, **fields: Any
) -> Request:
    payload = _payload(config, stage, content, budget)
    if len(payload) > budget.input_bytes:
        return Request(stage=stage, deferred="input_too_large", **fields)
    price = config.cost(len(payload), budget.output_tokens)
    if price > budget.usd:
        return Request(stage=stage, deferred="over_budget", **fields)
    return Request(stage=stage, payload=payload, price=price, binding=config.binding, **fields)


def prepare_proposal(
    principal: User,
    *,
    config: ProviderConfig | None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
) -> Request:
    """The proposal request for ``principal``'s bank now, writing nothing. ``evaluation``:
    the machine administrator's evaluation run, which the owner's choice and the egress
    policy do not bind."""
    deferred = deferral(principal, config, evaluation)
    if deferred:
        return Request(stage="proposal", deferred=deferred)
    # ``deferral`` says "not_configured" without one.
    assert config is not None
    rules = None if evaluation else egress_rules()
    excluded: Counter[str] = Counter()
    with principal_context(principal):
        found = blocks(_block_views(principal))
        offered = [view for members in found for view in members]
        merged = _merged(principal, offered)
        askable = []
        for members in found:
            pairs, reasons = admitted_pairs(members)
            if len(worth_asking(members, pairs, merged)) > 1:
                askable.append(members)
            else:
                # Nothing left to ask of it: counted here, never read further.
                excluded.update(reasons)
        found = askable
        offered = [view for members in found for view in members]
        leaving = sendable_items(principal, offered, rules, excluded)
    items: dict[str, Item] = {}
    groups: dict[str, str] = {}
    admitted: set[frozenset[int]] = set()
    shown: list[tuple[str, list[Item]]] = []
    for members in found:
        members = [view for view in members if view.pk in leaving]
        pairs, reasons = admitted_pairs(members)
        excluded.update(reasons)
        asked = worth_asking(members, pairs, merged)
        if len(asked) < 2 or len(items) + len(asked) > REQUEST_ITEMS:
            continue
        block = f"b{len(shown) + 1}"
        block_items = []
        for view in asked:
            label = f"m{len(items) + 1}"
            statement, excerpts = leaving[view.pk]
            items[label] = Item(label=label, view=view, statement=statement, excerpts=excerpts)
            groups[label] = block
            block_items.append(items[label])
        admitted |= pairs
        shown.append((block, block_items))
    if not shown:
        return Request(stage="proposal", deferred="nothing_to_ask", excluded=excluded)
    return priced(
        config,
        "proposal",
        proposal_content(shown),
        budget,
        items=items,
        groups=groups,
        admitted=frozenset(admitted),
        excluded=excluded,
    )


def stale_reason(
    group: Sequence[Item], fresh: Sequence[SourceView | None], leaving: Mapping[int, Leaving]
) -> str:
    """Why the proposal's ``group`` of items may not be verified now (a closed code), or "".
    ``fresh`` are its memories read again (None where gone), ``leaving`` what may leave."""
    if any(
        view is None or view.revision != item.view.revision
        for view, item in zip(fresh, group, strict=True)
    ):
        return "source_changed"
    if any(view.pk not in leaving for view in fresh if view is not None):
        return "no_longer_sendable"
    return ""


def clause_items(
    clause: str,
    group: Sequence[Item],
    fresh: Sequence[SourceView],
    leaving: Mapping[int, Leaving],
    items: MutableMapping[str, Item],
    groups: MutableMapping[str, str],
) -> list[Item]:
    """The items of ``group`` as a verification sends them under ``clause``, at their fresh
    reads and with their fresh messages, each also recorded in ``items`` and ``groups``."""
    made: list[Item] = []
    for view, item in zip(fresh, group, strict=True):
        statement, excerpts = leaving[view.pk]
        items[item.label] = Item(
            label=item.label, view=view, statement=statement, excerpts=excerpts
        )
        groups[item.label] = clause
        made.append(items[item.label])
    return made


def prepare_verification(
    principal: User,
    proposal: Request,
    standing: Iterable[Sequence[Item]],
    *,
    config: ProviderConfig | None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
) -> Request:
    """The verification request for the locally admitted ``standing`` groups of ``proposal``
    (tuples of its items), with every memory and message read and decided afresh. A group
    with a memory that changed or may no longer leave is left out and counted."""
    deferred = deferral(principal, config, evaluation)
    if deferred:
        return Request(stage="verification", deferred=deferred)
    # ``deferral`` says "not_configured" without one.
    assert config is not None
    rules = None if evaluation else egress_rules()
    excluded: Counter[str] = Counter()
    wanted = {item.view.pk: item for group in standing for item in group}
    with principal_context(principal):
        current = {view.pk: view for view in source_views(principal, pk__in=list(wanted))}
        leaving = sendable_items(principal, list(current.values()), rules, excluded)
    items: dict[str, Item] = {}
    groups: dict[str, str] = {}
    clauses: list[tuple[str, list[Item]]] = []
    for group in standing:
        fresh = [current.get(item.view.pk) for item in group]
        reason = stale_reason(group, fresh, leaving)
        if reason:
            excluded[reason] += 1
            continue
        clause = f"c{len(clauses) + 1}"
        # None is gone: ``stale_reason`` says "source_changed" otherwise.
        read = [view for view in fresh if view is not None]
        clauses.append((clause, clause_items(clause, group, read, leaving, items, groups)))
    if not clauses:
        return Request(stage="verification", deferred="nothing_to_verify", excluded=excluded)
    proposal_digest = digest(
        canonical(
            {
                "proposal_request": proposal.digest,
                "clauses": [
                    [clause, [[i.label, i.statement, list(i.excerpts)] for i in clause_items]]
                    for clause, clause_items in clauses
                ],
            }
        )
    )
    return priced(
        config,
        "verification",
        verification_content(proposal_digest, clauses),
        budget,
        items=items,
        groups=groups,
        admitted=proposal.admitted,
        excluded=excluded,
        proposal_digest=proposal_digest,
        proposal_request=proposal.digest,
    )
