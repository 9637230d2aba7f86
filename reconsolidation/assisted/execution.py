"""One model-assisted review of a principal's bank: propose, verify locally admitted groups,
apply the verified ones through the deterministic merge path.

It runs outside any transaction, inside the caller's lease and slice
deadline, with one copy of the provider configuration for both calls. Each
call is admitted (``admission.admit``: fresh sources and policy, a durable
reservation) before it is sent, heartbeats the lease before it is sent, and
is settled with its audit after. A provider's answer is never enough: the
proposals must name locally admitted groups (``candidates``), the verifier
must answer for exactly the proposal it was given, and the verified merges
are applied as ordinary merge plans, rechecked against the sources they read
in the committing transaction, where the verification call is settled too.
"""

import copy
import time
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings

from memory.principal import principal_transaction
from memory.providers.client import ProviderError
from memory.providers.config import provider_config
from memory.selectors.flags import flag_enabled
from reconsolidation.models import ProviderCall
from reconsolidation.planning import MergePlan
from reconsolidation.services.operations import operations_apply
from reconsolidation.services.passes import lease_acquire, lease_heartbeat, lease_release

from .admission import Refused, admit
from .calls import SendRefused, failed_call, send, settle
from .candidates import admitted_groups
from .preparation import BUDGET, prepare_proposal, prepare_verification
from .wire import ReplyError, parse_proposals, parse_verdicts


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
    outcomes: dict = field(default_factory=dict)
    excluded: dict = field(default_factory=dict)
    dropped: dict = field(default_factory=dict)


class _Stop(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _seconds_left(deadline):
    return deadline - time.monotonic()


class _Review:
    def __init__(self, principal, *, holder, deadline, config, evaluation, budget):
        self.principal = principal
        self.holder = holder
        self.deadline = deadline
        # One resolution of the provider for both calls: a configuration change
        # midway cannot send the verification somewhere else.
        self.config = copy.deepcopy(config)
        self.evaluation = evaluation
        self.budget = budget
        self.report = AssistedReport(principal_id=principal.pk)

    def _call(self, request, prepare):
        """Admit, send and parse ``request``; return (call, completion) or raise _Stop. A call
        that fails is settled here; a successful one is left for the caller to settle."""
        try:
            call = admit(
                self.principal,
                prepare=prepare,
                expected=request,
                holder=self.holder,
                evaluation=self.evaluation,
            )
        except Refused as refusal:
            raise _Stop(refusal.error_class) from None
        self.report.calls += 1
        decisions = request.decisions()
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
                self.config,
                timeout=min(
                    left, self.budget.seconds, settings.REVERIE_PROVIDER["timeout_seconds"]
                ),
            )
        except SendRefused as refusal:
            raise _Stop(refusal.error_class) from None
        except ProviderError as error:
            failed_call(call, error, decisions)
            raise _Stop(error.error_class) from None
        return call, completion

    def _cost(self, call, completion, decisions):
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
        cost = self.config.cost(completion.input_tokens, completion.output_tokens)
        if completion.output_tokens > self.budget.output_tokens or cost > self.budget.usd:
            settle(
                call,
                state=ProviderCall.State.SETTLED,
                cost=cost,
                completion=completion,
                validation="over_budget",
                decisions=decisions,
            )
            raise _Stop("over_budget")
        return cost

    def propose(self):
        """The locally admitted groups the model proposed, as tuples of items, and the
        prepared proposal request."""

        def prepare():
            return prepare_proposal(
                self.principal,
                config=self.config,
                evaluation=self.evaluation,
                budget=self.budget,
            )

        request = prepare()
        self.report.excluded = dict(sorted(request.excluded.items()))
        if request.deferred:
            raise _Stop(request.deferred)
        call, completion = self._call(request, prepare)
        decisions = request.decisions()
        cost = self._cost(call, completion, decisions)
        try:
            proposed = parse_proposals(completion.content)
        except ReplyError as error:
            settle(
                call,
                state=ProviderCall.State.SETTLED,
                cost=cost,
                completion=completion,
                validation=error.error_class,
                decisions=decisions,
            )
            raise _Stop(error.error_class) from None
        standing, dropped = admitted_groups(
            proposed, request.items, request.groups, request.admitted
        )
        self.report.proposed = len(proposed)
        self.report.dropped = dict(sorted(dropped.items()))
        settle(
            call,
            state=ProviderCall.State.SETTLED,
            cost=cost,
            completion=completion,
            validation="accepted",
            decisions={
                **decisions,
                "proposed": len(proposed),
                "admitted": len(standing),
                "dropped": self.report.dropped,
            },
        )
        if not standing:
            raise _Stop("nothing_admitted")
        return request, standing

    def verify_and_apply(self, proposal, standing):
        def prepare():
            return prepare_verification(
                self.principal,
                proposal,
                standing,
                config=self.config,
                evaluation=self.evaluation,
                budget=self.budget,
            )

        request = prepare()
        if request.deferred:
            raise _Stop(request.deferred)
        call, completion = self._call(request, prepare)
        decisions = request.decisions()
        cost = self._cost(call, completion, decisions)
        clauses = {}
        for label, clause in request.groups.items():
            clauses.setdefault(clause, []).append(request.items[label])
        try:
            echoed, verdicts = parse_verdicts(completion.content)
            if echoed != request.proposal_digest:
                raise ReplyError("other_proposal")
            if set(verdicts) != set(clauses):
                raise ReplyError("other_clauses")
        except ReplyError as error:
            settle(
                call,
                state=ProviderCall.State.SETTLED,
                cost=cost,
                completion=completion,
                validation=error.error_class,
                decisions=decisions,
            )
            raise _Stop(error.error_class) from None
        plans = [
            MergePlan(
                sources=tuple(item.view for item in clauses[clause]),
                assisted=True,
                provider_call_id=call.pk,
            )
            for clause in sorted(clauses, key=lambda c: int(c[1:]))
            if verdicts[clause]
        ]
        self.report.verified = len(plans)
        self.report.refuted = len(clauses) - len(plans)
        # The verified merges and the call's settlement commit together.
        with principal_transaction(self.principal):
            outcomes = Counter(operations_apply(principal=self.principal, plans=plans))
            settle(
                call,
                state=ProviderCall.State.SETTLED,
                cost=cost,
                completion=completion,
                validation="accepted",
                decisions={
                    **decisions,
                    "verified": self.report.verified,
                    "refuted": self.report.refuted,
                    "outcomes": dict(sorted(outcomes.items())),
                },
            )
        self.report.outcomes = dict(sorted(outcomes.items()))


def assisted_review(
    principal, *, holder, deadline_seconds, config=None, evaluation=False, budget=BUDGET
):
    """Run one model-assisted review of ``principal``'s bank under ``holder``'s lease, within
    ``deadline_seconds``; return an ``AssistedReport``. ``evaluation``: the machine
    administrator's evaluation run (throwaway principals, global cap only)."""
    review = _Review(
        principal,
        holder=holder,
        deadline=time.monotonic() + deadline_seconds,
        config=config if config is not None else provider_config(),
        evaluation=evaluation,
        budget=budget,
    )
    try:
        proposal, standing = review.propose()
        review.verify_and_apply(proposal, standing)
    except _Stop as stop:
        review.report.stopped = stop.reason
    return review.report


def assisted_pass(*, principal, holder, deadline_seconds):
    """The model-assisted step of a principal's turn in the maintenance slot, under its own
    lease: None while the capability is off or the kill switch on, else the review's
    ``AssistedReport``."""
    if flag_enabled("maintenance_kill_switch") or not flag_enabled("reconsolidation_provider"):
        return None
    if not lease_acquire(principal, holder):
        return AssistedReport(principal_id=principal.pk, stopped="leased_elsewhere")
    try:
        return assisted_review(principal, holder=holder, deadline_seconds=deadline_seconds)
    finally:
        lease_release(principal, holder)
