"""Provider-assisted ("hybrid") extraction: a language model may add grounded proposals.

The deterministic extractor always runs and its candidates are always kept.
One strict-schema call to the configured provider may add proposals, over the
owner's own messages and at most 100 known memories, when the owner has not
opted out and the egress policy allows each item sent; everything else
(including every failure of the call) falls back to the deterministic result.
A model proposal is added only when it cites messages that were sent and is
grounded in one clause of them (``formation.grounding``): a clause that asks, supposes
or plans grounds nothing that would retract or replace a memory the owner has. The
formation service then applies every check it applies to any proposal.

Budget of one attempt: one call, 65,536 input bytes (a larger request is never
sent), 16,384 reported input tokens, 4,096 output tokens, $0.25, 60 s and 256
proposals. The attempt's facts go to the extraction audit, never its text.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings

from accounts.selectors import model_processing_allowed
from memory.enums import AuthorKind, EventType, Polarity
from memory.screening import looks_like_injection
from memory.text import claim_fingerprint, normalise_statement
from providers import ledger
from providers.client import Completion, ProviderError, complete, request_bytes
from providers.config import ProviderConfig, provider_config
from providers.egress import (
    EgressItem,
    EgressRule,
    egress_rules,
    item_may_leave,
    message_item,
    outgoing_text,
    residency_allowed,
)
from providers.pauses import provider_pause_after, provider_paused

from .candidates import (
    POLICY_PROVIDER_ASSISTED,
    PROPOSER_MODEL,
    ExtractionMessage,
    ExtractionRequest,
    ExtractionResult,
    MemoryCandidate,
    MemoryCandidateExtractor,
)
from .grounding import grounding_failure
from .model_proposals import (
    SCHEMA,
    SCHEMA_NAME,
    SYSTEM_PROMPT,
    ProposalError,
    has_unsafe_characters,
    parse_proposals,
    user_content,
)

PROVIDER = "openai-compatible"
KNOWN_VIEW = 100
BLOCKED = "[BLOCKED]"
# Failures in which the provider answered with an error status: nothing was
# generated, so nothing is charged. A timeout or a usage not believed keeps its
# reservation.
NOT_BILLED = frozenset({"rate_limited", "unavailable", "refused"})
# A proposal's own confidence is not asked for: a model's is not trusted.
MODEL_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Budget:
    input_bytes: int = 65_536
    input_tokens: int = 16_384
    output_tokens: int = 4_096
    usd: Decimal = Decimal("0.25")
    seconds: float = 60.0
    proposals: int = 256


BUDGET = Budget()


class _Fallback(Exception):
    """The attempt ends here; the deterministic result stands."""

    def __init__(self, error_class: str) -> None:
        super().__init__(error_class)
        self.error_class = error_class


@dataclass
class _Attempt:
    usage: dict[str, Any]
    model: str = ""
    returned: int = 0
    # What the call is charged: its reservation until the reported usage is known.
    cost: Decimal = Decimal(0)


def _owner_message(message: ExtractionMessage) -> bool:
    return (
        message.author_kind == AuthorKind.PRINCIPAL and message.event_type == EventType.USER_MESSAGE
    )


def _trusted_messages(
    request: ExtractionRequest, rules: Sequence[EgressRule] | None
) -> list[tuple[str, str]]:
    """(id, redacted text) of the owner's own messages that the policy lets leave (all of
    them when ``rules`` is None: an evaluation run)."""
    sent: list[tuple[str, str]] = []
    for message in request.messages:
        if not _owner_message(message):
            continue
        if not item_may_leave(message_item(message.text, scope=request.scope), rules):
            continue
        sent.append((message.id, outgoing_text(message.text)))
    return sent


def _known_view(
    request: ExtractionRequest, rules: Sequence[EgressRule] | None
) -> list[tuple[str, str, str]]:
    view: list[tuple[str, str, str]] = []
    for belief in request.known:
        item = EgressItem(
            sensitivity=str(belief.sensitivity),
            portability=str(belief.portability),
            scope=belief.scope,
        )
        if not item_may_leave(item, rules):
            continue
        statement = belief.statement
        if looks_like_injection(statement):
            statement = BLOCKED
        view.append((belief.subject, str(belief.type), outgoing_text(statement)))
        if len(view) == KNOWN_VIEW:
            break
    return view


class HybridExtractor:
    """Deterministic candidates, plus grounded model proposals when everything allows a call."""

    policy_version = POLICY_PROVIDER_ASSISTED

    def __init__(
        self,
        deterministic: MemoryCandidateExtractor,
        *,
        config: ProviderConfig | None = None,
        budget: Budget = BUDGET,
        evaluation: bool = False,
    ) -> None:
        self.deterministic = deterministic
        self.config = config if config is not None else provider_config()
        self.budget = budget
        # The evaluation runner, started by the machine administrator on an imported
        # dataset with no owner behind it: the one caller the owner's choice and the
        # egress policy do not bind. Its calls count against the global cap.
        self.evaluation = evaluation

    def extract(self, request: ExtractionRequest) -> ExtractionResult:
        base = self.deterministic.extract(request)
        if not any(_owner_message(message) for message in request.messages):
            # Nothing the owner said: nothing to ask, and nothing to audit.
            return base
        attempt = _Attempt(usage={})
        try:
            proposals, sent = self._propose(request, attempt)
        except _Fallback as fallback:
            return ExtractionResult(
                candidates=base.candidates,
                policy_version=base.policy_version,
                provider=PROVIDER,
                fallback=True,
                error_class=fallback.error_class,
                usage=attempt.usage,
                model=attempt.model,
                returned_count=attempt.returned,
            )
        added, dropped = self._grounded(request, proposals, sent, base.candidates)
        return ExtractionResult(
            candidates=base.candidates + tuple(added),
            policy_version=POLICY_PROVIDER_ASSISTED,
            provider=PROVIDER,
            usage=attempt.usage,
            model=attempt.model,
            returned_count=attempt.returned,
            dropped=dropped,
        )

    def _propose(
        self, request: ExtractionRequest, attempt: _Attempt
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The model's parsed proposals and the messages sent, or _Fallback."""
        config = self.config
        if config is None:
            raise _Fallback("not_configured")
        rules = self._rules(request, config)
        sent = dict(_trusted_messages(request, rules))
        if not sent:
            raise _Fallback("egress_denied")
        payload = request_bytes(
            config,
            system=SYSTEM_PROMPT,
            user=user_content(sent.items(), _known_view(request, rules)),
            schema=SCHEMA,
            max_output_tokens=self.budget.output_tokens,
            schema_name=SCHEMA_NAME,
        )
        attempt.usage["input_bytes"] = len(payload)
        if len(payload) > self.budget.input_bytes:
            raise _Fallback("input_too_large")
        if provider_paused(config):
            # The server asked for time (Retry-After) and it has not passed.
            raise _Fallback("retry_after")
        most = min(
            config.cost(self.budget.input_tokens, self.budget.output_tokens),
            self.budget.usd,
        )
        try:
            reservation = ledger.reserve(
                principal=None if self.evaluation else request.principal, usd=most
            )
        except ledger.SpendRefused as refusal:
            raise _Fallback(refusal.error_class) from None
        # Until a believable usage is known, the call is charged the most it may have cost;
        # whatever happens next, the reservation is settled at that or at the usage.
        attempt.cost = Decimal(most)
        try:
            completion = self._call(config, payload, attempt)
            return self._accepted(config, completion, attempt), sent
        finally:
            ledger.settle(reservation, usd=attempt.cost)

    def _rules(self, request: ExtractionRequest, config: ProviderConfig) -> list[EgressRule] | None:
        """The egress rules that apply (None: an evaluation run), or _Fallback when the owner
        or the residency pin allows nothing at all."""
        if self.evaluation:
            return None
        if request.principal is None or not model_processing_allowed(request.principal):
            raise _Fallback("opted_out")
        if not residency_allowed(config.residency):
            raise _Fallback("egress_denied")
        return egress_rules()

    def _call(self, config: ProviderConfig, payload: bytes, attempt: _Attempt) -> Completion:
        started = time.monotonic()
        try:
            return complete(
                config,
                payload=payload,
                timeout=min(self.budget.seconds, settings.REVERIE_PROVIDER["timeout_seconds"]),
            )
        except ProviderError as error:
            if error.error_class in NOT_BILLED:
                attempt.cost = Decimal(0)
            provider_pause_after(config, error)
            raise _Fallback(error.error_class) from None
        finally:
            attempt.usage["duration_ms"] = int((time.monotonic() - started) * 1000)

    def _accepted(
        self, config: ProviderConfig, completion: Completion, attempt: _Attempt
    ) -> list[dict[str, Any]]:
        """The completion's proposals, if its usage is known and within the budget and its
        content is exactly the schema; else _Fallback."""
        attempt.model = completion.model
        if completion.input_tokens is None or completion.output_tokens is None:
            raise _Fallback("usage_missing")
        attempt.cost = config.cost(completion.input_tokens, completion.output_tokens)
        attempt.usage.update(
            input_tokens=completion.input_tokens,
            output_tokens=completion.output_tokens,
            cost_usd=str(attempt.cost.quantize(Decimal("0.000001"))),
        )
        if (
            completion.input_tokens > self.budget.input_tokens
            or completion.output_tokens > self.budget.output_tokens
            or attempt.cost > self.budget.usd
        ):
            raise _Fallback("over_budget")
        try:
            proposals = parse_proposals(completion.content, max_proposals=self.budget.proposals)
        except ProposalError as error:
            raise _Fallback(error.error_class) from None
        attempt.returned = len(proposals)
        return proposals

    def _grounded(
        self,
        request: ExtractionRequest,
        proposals: list[dict[str, Any]],
        sent: dict[str, str],
        deterministic: Sequence[MemoryCandidate],
    ) -> tuple[list[MemoryCandidate], dict[str, int]]:
        """The model proposals to add, and {"reason": count} of those left out."""
        known = {claim_fingerprint(c.subject, c.statement) for c in deterministic}
        held: dict[str, set[str]] = {}
        for belief in request.known:
            held.setdefault(belief.subject, set()).add(normalise_statement(belief.statement))
        added: list[MemoryCandidate] = []
        dropped: dict[str, int] = {}
        for proposal in proposals:
            reason = ""
            sources = tuple(dict.fromkeys(proposal["source_ids"]))
            if has_unsafe_characters(proposal):
                # Refused here, alone: stored, it could fail the whole consolidation.
                reason = "unsafe_characters"
            elif not all(source in sent for source in sources):
                # Only messages the call was given may be cited: never the
                # assistant's, another participant's, or an invented one.
                reason = "foreign_source"
            else:
                reason = grounding_failure(
                    subject=proposal["subject"],
                    statement=proposal["statement"],
                    cited_texts=[sent[source] for source in sources],
                    negative=proposal["polarity"] == Polarity.NEGATIVE,
                    replaces=bool(
                        held.get(proposal["subject"], set())
                        - {normalise_statement(proposal["statement"])}
                    ),
                )
            fingerprint = claim_fingerprint(proposal["subject"], proposal["statement"])
            if not reason and fingerprint in known:
                reason = "duplicate"
            if reason:
                dropped[reason] = dropped.get(reason, 0) + 1
                continue
            known.add(fingerprint)
            added.append(
                MemoryCandidate(
                    type=proposal["type"],
                    subject=proposal["subject"],
                    statement=proposal["statement"],
                    source_ids=sources,
                    polarity=proposal["polarity"],
                    confidence=MODEL_CONFIDENCE,
                    scope=request.scope,
                    proposer=PROPOSER_MODEL,
                )
            )
        return added, dict(sorted(dropped.items()))
