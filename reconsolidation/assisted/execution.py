"""Model-assisted reviews of a principal's bank: propose, verify locally admitted groups,
apply the verified ones through the deterministic planners.

A merge review asks which differently worded memories state one claim and
applies verified groups as merges; a topic review asks which memories of
different subjects are about one topic and applies verified topics as
summaries, laid out by the summary planner.

It runs outside any transaction, inside the caller's lease and slice
deadline, with one copy of the provider configuration for both calls. Each
call is admitted (``admission.admit``: fresh sources and policy, a durable
reservation) before it is sent, heartbeats the lease before it is sent, and
is settled with its audit after. A provider's answer is never enough: the
proposals must name locally admitted groups (``candidates``), the verifier
must answer for exactly the proposal it was given, and the verified groups
are applied as ordinary plans, one transaction per group, each rechecked
against the sources it read; the verification call is settled once they are
done.
"""

import copy
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings

from accounts.models import User
from common.selectors.flags import flag_enabled
from providers.client import Completion, ProviderError
from providers.config import ProviderConfig, provider_config
from providers.pauses import provider_pause_after, provider_paused
from reconsolidation.models import ProviderCall
from reconsolidation.planners.summaries import SummaryPlan, plan_topic_summary
from reconsolidation.planning import MergePlan, Plan
from reconsolidation.services.operations import operations_apply
from reconsolidation.services.passes import lease_acquire, lease_heartbeat, lease_release

from .admission import Refused, admit
from .calls import SendRefused, answered_before, failed_call, send, settle
from .candidates import Item, admitted_groups
from .preparation import BUDGET, Budget, Request, prepare_proposal, prepare_verification
from .topic_preparation import prepare_topic_proposal, prepare_topic_verification
from .topics import admitted_topics, topic_subject
from .wire import ReplyError, parse_proposals, parse_topics, parse_verdicts


@dataclass
class AssistedReport:
    """What a review did, content-free: closed codes and counts."""

    principal_id: int
    # Why the review ended before applying anything ("" when it got that far).
    stopped: str = ""
    calls: int = 0
    proposed: int = 0
    verified: int = 0
    refuted: int = 0
    # How many plans had each ``Outcome``; how many beliefs were left out of the request,
    # and how many proposed groups were dropped, by reason.
    outcomes: dict[str, int] = field(default_factory=dict)
    excluded: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# The least time left after a merge review for which a topic review is started.
TOPIC_MIN_SECONDS = 5


def _seconds_left(deadline: float) -> float:
    return deadline - time.monotonic()


@dataclass(frozen=True)
class _Kind:
    """What differs between a merge review and a topic review."""

    prepare_proposal: Callable[..., Request]
    # The reply's proposals: (block label, item labels) or (block label, topic, item labels).
    parse_proposal: Callable[[str], Sequence[tuple[Any, ...]]]
    # (proposed, proposal request) -> (standing groups, Counter of dropped ones)
    admitted: Callable[[Any, Request], tuple[list[Any], Counter[str]]]
    prepare_verification: Callable[..., Request]
    # The verdict's name in the verification reply.
    answer: str
    # (verification request, clause label, items, call id) -> a plan, or None
    plan: "Callable[[Request, str, list[Item], int], Plan | None]"


def _merge_plan(request: Request, clause: str, items: list[Item], call_id: int) -> MergePlan:
    return MergePlan(
        sources=tuple(item.view for item in items), assisted=True, provider_call_id=call_id
    )


def _topic_plan(
    request: Request, clause: str, items: list[Item], call_id: int
) -> SummaryPlan | None:
    return plan_topic_summary(
        topic_subject(request.topics[clause]),
        [item.view for item in items],
        assisted=True,
        provider_call_id=call_id,
    )


MERGES = _Kind(
    prepare_proposal=prepare_proposal,
    parse_proposal=parse_proposals,
    admitted=lambda proposed, request: admitted_groups(
        proposed, request.items, request.groups, request.admitted
    ),
    prepare_verification=prepare_verification,
    answer="same_claim",
    plan=_merge_plan,
)
TOPICS = _Kind(
    prepare_proposal=prepare_topic_proposal,
    parse_proposal=parse_topics,
    admitted=lambda proposed, request: admitted_topics(proposed, request.items, request.groups),
    prepare_verification=prepare_topic_verification,
    answer="same_topic",
    plan=_topic_plan,
)


class _Review:
    def __init__(
        self,
        principal: User,
        kind: _Kind,
        *,
        holder: str,
        deadline: float,
        config: ProviderConfig | None,
        evaluation: bool,
        budget: Budget,
        qualifying: bool = False,
    ) -> None:
        self.principal = principal
        self.kind = kind
        self.holder = holder
        self.deadline = deadline
        # One resolution of the provider for both calls: a configuration change
        # midway cannot send the verification somewhere else.
        self.config = copy.deepcopy(config)
        self.evaluation = evaluation
        self.qualifying = qualifying
        self.budget = budget
        self.report = AssistedReport(principal_id=principal.pk)
        # (call, decisions) of every call admitted, to settle any a fault leaves open.
        self.admitted: list[tuple[ProviderCall, dict[str, Any]]] = []

    @property
    def provider(self) -> ProviderConfig:
        """The provider calls go to: only a request prepared with one is ever sent."""
        assert self.config is not None
        return self.config

    def _call(
        self, request: Request, prepare: Callable[[], Request]
    ) -> tuple[ProviderCall, Completion]:
        """Admit, send and parse ``request``; return (call, completion) or raise _Stop. A call
        that fails is settled here; a successful one is left for the caller to settle."""
        if provider_paused(self.provider):
            # The server asked for time (Retry-After): nothing is reserved or sent before.
            raise _Stop("retry_after")
        try:
            call = admit(
                self.principal,
                prepare=prepare,
                expected=request,
                holder=self.holder,
                evaluation=self.evaluation,
                qualifying=self.qualifying,
            )
        except Refused as refusal:
            raise _Stop(refusal.error_class) from None
        self.report.calls += 1
        decisions = request.decisions()
        self.admitted.append((call, decisions))
        left = _seconds_left(self.deadline)
        if left < 1 or not lease_heartbeat(self.principal, self.holder):
            settle(
                call,
                state=ProviderCall.State.CANCELLED,
                error_class="deadline" if left < 1 else "lease_lost",
                decisions=decisions,
            )
            raise _Stop("deadline" if left < 1 else "lease_lost")
        try:
            completion = send(
                call,
                request.payload,
                self.provider,
                timeout=min(
                    left, self.budget.seconds, settings.REVERIE_PROVIDER["timeout_seconds"]
                ),
            )
        except SendRefused as refusal:
            raise _Stop(refusal.error_class) from None
        except ProviderError as error:
            failed_call(call, error, decisions)
            provider_pause_after(self.provider, error)
            raise _Stop(error.error_class) from None
        return call, completion

    def _cost(
        self, call: ProviderCall, completion: Completion, decisions: dict[str, Any]
    ) -> Decimal:
        """The call's cost if its usage is known and within the budget; else settle it (the
        reservation kept when usage is unknown) and raise _Stop."""
        if completion.input_tokens is None or completion.output_tokens is None:
            settle(
                call,
                state=ProviderCall.State.UNCERTAIN,
                completion=completion,
                error_class="usage_missing",
                decisions=decisions,
            )
            raise _Stop("usage_missing")
        cost = self.provider.cost(completion.input_tokens, completion.output_tokens)
        if completion.output_tokens > self.budget.output_tokens or cost > self.budget.usd:
            self._settled(call, cost, completion, "over_budget", decisions)
            raise _Stop("over_budget")
        return cost

    def _settled(
        self,
        call: ProviderCall,
        cost: Decimal,
        completion: Completion,
        validation: str,
        decisions: dict[str, Any],
    ) -> None:
        settle(
            call,
            state=ProviderCall.State.SETTLED,
            cost=cost,
            completion=completion,
            validation=validation,
            decisions=decisions,
        )

    def _prepare(self, prepare: Callable[..., Request], *args: Any) -> Callable[[], Request]:
        def prepared() -> Request:
            return prepare(
                self.principal,
                *args,
                config=self.config,
                evaluation=self.evaluation,
                budget=self.budget,
            )

        return prepared

    def propose(self) -> tuple[Request, list[Any]]:
        """The locally admitted groups the model proposed and the prepared proposal request."""
        prepare = self._prepare(self.kind.prepare_proposal)
        request = prepare()
        self.report.excluded = dict(sorted(request.excluded.items()))
        if request.deferred:
            raise _Stop(request.deferred)
        if answered_before(self.principal, request):
            # Nothing it was asked about has changed since it was answered.
            raise _Stop("unchanged")
        call, completion = self._call(request, prepare)
        decisions = request.decisions()
        cost = self._cost(call, completion, decisions)
        try:
            proposed = self.kind.parse_proposal(completion.content)
        except ReplyError as error:
            self._settled(call, cost, completion, error.error_class, decisions)
            raise _Stop(error.error_class) from None
        standing, dropped = self.kind.admitted(proposed, request)
        self.report.proposed = len(proposed)
        self.report.dropped = dict(sorted(dropped.items()))
        self._settled(
            call,
            cost,
            completion,
            "accepted",
            {
                **decisions,
                "proposed": len(proposed),
                "admitted": len(standing),
                "dropped": self.report.dropped,
            },
        )
        if not standing:
            raise _Stop("nothing_admitted")
        return request, standing

    def verify_and_apply(self, proposal: Request, standing: list[Any]) -> None:
        prepare = self._prepare(self.kind.prepare_verification, proposal, standing)
        request = prepare()
        if request.deferred:
            raise _Stop(request.deferred)
        call, completion = self._call(request, prepare)
        decisions = request.decisions()
        cost = self._cost(call, completion, decisions)
        clauses: dict[str, list[Item]] = {}
        for label, clause in request.groups.items():
            clauses.setdefault(clause, []).append(request.items[label])
        try:
            echoed, verdicts = parse_verdicts(completion.content, answer=self.kind.answer)
            if echoed != request.proposal_digest:
                raise ReplyError("other_proposal")
            if set(verdicts) != set(clauses):
                raise ReplyError("other_clauses")
        except ReplyError as error:
            self._settled(call, cost, completion, error.error_class, decisions)
            raise _Stop(error.error_class) from None
        verified = [
            clause for clause in sorted(clauses, key=lambda c: int(c[1:])) if verdicts[clause]
        ]
        made = [self.kind.plan(request, clause, clauses[clause], call.pk) for clause in verified]
        plans = [plan for plan in made if plan is not None]
        self.report.verified = len(verified)
        self.report.refuted = len(clauses) - len(verified)
        # One transaction per group, each rechecking its own sources: a group whose memory
        # changed meanwhile leaves the others applied. The call is settled, with what became
        # of every group, once they are all done; a worker that dies before leaves it to
        # recovery, which keeps its whole reservation.
        outcomes: Counter[str] = Counter()
        for plan in plans:
            outcomes.update(operations_apply(principal=self.principal, plans=[plan]))
        self._settled(
            call,
            cost,
            completion,
            "accepted",
            {
                **decisions,
                "verified": self.report.verified,
                "refuted": self.report.refuted,
                "outcomes": dict(sorted(outcomes.items())),
            },
        )
        self.report.outcomes = dict(sorted(outcomes.items()))


def _run(
    kind: _Kind,
    principal: User,
    holder: str,
    deadline_seconds: float,
    config: ProviderConfig | None,
    evaluation: bool,
    budget: Budget,
    qualifying: bool,
) -> AssistedReport:
    review = _Review(
        principal,
        kind,
        holder=holder,
        deadline=time.monotonic() + deadline_seconds,
        config=config if config is not None else provider_config(),
        evaluation=evaluation,
        budget=budget,
        qualifying=qualifying,
    )
    try:
        proposal, standing = review.propose()
        review.verify_and_apply(proposal, standing)
    except _Stop as stop:
        review.report.stopped = stop.reason
    except Exception:
        # A fault midway: a call it left open keeps its whole reservation, settled now
        # rather than at the next recovery (a settled call is left as it is).
        for call, decisions in review.admitted:
            settle(
                call,
                state=ProviderCall.State.UNCERTAIN,
                error_class="internal_error",
                decisions=decisions,
            )
        raise
    return review.report


def assisted_review(
    principal: User,
    *,
    holder: str,
    deadline_seconds: float,
    config: ProviderConfig | None = None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
    qualifying: bool = False,
) -> AssistedReport:
    """Run one model-assisted merge review of ``principal``'s bank under ``holder``'s lease,
    within ``deadline_seconds``; return an ``AssistedReport``. ``evaluation``: the machine
    administrator's evaluation run (throwaway principals, global cap only).
    ``qualifying``: provider qualification, live in every way but the capability's flag."""
    return _run(MERGES, principal, holder, deadline_seconds, config, evaluation, budget, qualifying)


def topic_review(
    principal: User,
    *,
    holder: str,
    deadline_seconds: float,
    config: ProviderConfig | None = None,
    evaluation: bool = False,
    budget: Budget = BUDGET,
    qualifying: bool = False,
) -> AssistedReport:
    """Run one model-assisted topic review of ``principal``'s bank, as ``assisted_review``
    does a merge review."""
    return _run(TOPICS, principal, holder, deadline_seconds, config, evaluation, budget, qualifying)


def assisted_pass(
    *, principal: User, holder: str, deadline_seconds: float
) -> dict[str, AssistedReport] | None:
    """The model-assisted step of a principal's turn in the maintenance slot, under its own
    lease: None while the capability is off or the kill switch on, else the reports of a
    merge review and, with time left, a topic review ({"merges": ..., "topics": ...})."""
    if flag_enabled("maintenance_kill_switch") or not flag_enabled("reconsolidation_provider"):
        return None
    if not lease_acquire(principal, holder):
        return {"merges": AssistedReport(principal_id=principal.pk, stopped="leased_elsewhere")}
    deadline = time.monotonic() + deadline_seconds
    try:
        reports = {
            "merges": assisted_review(principal, holder=holder, deadline_seconds=deadline_seconds)
        }
        left = _seconds_left(deadline)
        if left >= TOPIC_MIN_SECONDS:
            reports["topics"] = topic_review(principal, holder=holder, deadline_seconds=left)
        return reports
    finally:
        lease_release(principal, holder)
