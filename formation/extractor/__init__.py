"""The deterministic v2 extractor (``formation@2``): grammars over the owner's own messages.

Only messages the owner wrote (``user.message.created`` by the principal) are
read. Each text part is cut into sentences, and each sentence into clauses at
first-person conjunctions ("..., and I ..."), so that unrelated statements never
share one proposal or one conflict subject. A clause yields proposals for
ownership (with coordinated possessives and retractions), preferences, user
attributes, relationships, decisions, outcomes, notable experiences, temporary
situations and the dated events of relatives.

Precision comes first: questions, hypotheticals, wishes, quoted and reported
speech, and other people's possessions produce nothing. Statements reuse the
message's own words for every name and number, so that a proposal never names
what its source does not. The extractor is deterministic and bounded: it
stops after ``MAX_PROPOSALS`` proposals.

``text`` cuts messages into clauses; each grammar is a module (``ownership``,
``relationships``, ``attributes``, ``languages``, ``activities``,
``preferences``, ``decisions``, ``events``, ``situations``, ``family``) of
functions that read one clause into a ``reading.MessageReader``; ``things``,
``values`` and ``vocabulary`` hold what the grammars share.
"""

from dataclasses import replace

from memory.enums import AuthorKind, BeliefType, EventType, Polarity, Portability, Sensitivity
from memory.screening import classify_sensitivity
from memory.text import normalise_statement

from .. import subjects as S
from ..candidates import (
    POLICY_DETERMINISTIC,
    ExtractionMessage,
    ExtractionRequest,
    ExtractionResult,
    MemoryCandidate,
)
from .activities import read_activities, read_pastimes
from .attributes import read_attributes
from .decisions import read_decisions
from .events import read_events, read_outcomes
from .family import read_family_events
from .languages import read_languages
from .ownership import read_ownership, read_retractions
from .people import read_people
from .preferences import read_preferences, read_wished_preferences
from .reading import MAX_PROPOSALS, Clause, MessageReader, Proposal, Tally
from .relationships import RELATIVE_WISHES_RE, read_relationships
from .situations import read_situations
from .text import clauses, statements, wishful

__all__ = ["MAX_PROPOSALS", "DeterministicExtractor"]

# A clause's proposals come in this order, and where two grammars propose for
# one subject the earlier grammar's proposal is the one kept.
_GRAMMARS = (
    read_retractions,
    read_ownership,
    read_relationships,
    read_attributes,
    read_languages,
    read_pastimes,
    read_preferences,
    read_decisions,
    read_outcomes,
    read_activities,
    read_events,
    read_situations,
    read_family_events,
    read_people,
)
# What the plain future states ("I'll be in Lisbon until the 14th", "my brother
# will start college in September"): a clause of it reads with these alone.
_FUTURE_GRAMMARS = (read_situations, read_family_events)


def _read_message(message: ExtractionMessage, reader: MessageReader) -> None:
    for part in message.parts:
        for sentence in statements(part):
            if reader.tally.exhausted:
                return
            found = clauses(sentence)
            for index, clause_text in enumerate(found):
                clause = Clause(clause_text, reader, before=found[:index], after=found[index + 1 :])
                if wishful(clause_text):
                    # Only a present preference survives a wish ("I want short
                    # answers"), and what is arranged survives the plain future;
                    # a relative who wishes is one the owner has ("my son wants a puppy").
                    read_wished_preferences(clause, reader)
                    if RELATIVE_WISHES_RE.match(clause_text):
                        read_relationships(clause, reader)
                    if not wishful(clause_text, future=True):
                        for grammar in _FUTURE_GRAMMARS:
                            grammar(clause, reader)
                    continue
                for grammar in _GRAMMARS:
                    grammar(clause, reader)


def _readable(message: ExtractionMessage) -> bool:
    return (
        message.event_type == EventType.USER_MESSAGE
        and message.author_kind == AuthorKind.PRINCIPAL
        and isinstance(message.parts, tuple | list)
    )


class DeterministicExtractor:
    """Grammar-based proposals from the owner's own messages (policy ``formation@2``)."""

    policy_version = POLICY_DETERMINISTIC
    max_proposals = MAX_PROPOSALS

    def extract(self, request: ExtractionRequest) -> ExtractionResult:
        """Proposals for every readable message of ``request``, in message order.

        The same claim from several messages is one proposal citing all of
        them, unless the owner changed it in between ("I have a dog" ... "I gave
        the dog away" ... "I have a dog" stays three proposals).
        """
        owned = S.OwnedIndex(request.known)
        tally = Tally()
        candidates: list[MemoryCandidate] = []
        # (type, subject, polarity, normalised statement) -> index in ``candidates``
        merged: dict[tuple[str, str, str, str], int] = {}
        scanned = 0
        for message in request.messages:
            if tally.exhausted:
                break
            if not _readable(message):
                continue
            scanned += 1
            reader = MessageReader(message.occurred_at, owned, tally)
            _read_message(message, reader)
            for proposal in reader.proposals():
                key = (
                    proposal.type,
                    proposal.subject,
                    proposal.polarity,
                    normalise_statement(proposal.statement),
                )
                if key in merged:
                    index = merged[key]
                    sources = candidates[index].source_ids
                    if message.id not in sources:
                        candidates[index] = replace(
                            candidates[index], source_ids=(*sources, message.id)
                        )
                    continue
                for stale in [k for k in merged if k[1] == proposal.subject]:
                    del merged[stale]
                merged[key] = len(candidates)
                candidates.append(_candidate(proposal, message.id, request.scope))
                if proposal.type == BeliefType.OWNERSHIP:
                    if proposal.polarity == Polarity.POSITIVE:
                        owned.add(proposal.subject, proposal.statement)
                    else:
                        owned.remove(proposal.subject)
        return ExtractionResult(
            candidates=tuple(candidates[:MAX_PROPOSALS]),
            policy_version=self.policy_version,
            usage={
                "messages": scanned,
                "proposals": tally.proposed,
                "capped": tally.exhausted,
            },
        )


def _candidate(proposal: Proposal, source_id: str, scope: str) -> MemoryCandidate:
    sensitivity = classify_sensitivity(proposal.statement)
    return MemoryCandidate(
        type=proposal.type,
        subject=proposal.subject,
        statement=proposal.statement,
        source_ids=(source_id,),
        polarity=proposal.polarity,
        confidence=proposal.confidence,
        scope=scope,
        portability=Portability.LOCAL
        if sensitivity == Sensitivity.SENSITIVE
        else Portability.PORTABLE,
        sensitivity=sensitivity,
        temporal=proposal.temporal,
    )
