"""Recall: what an assistant asks for before it answers."""

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.utils import timezone

from common.principal import principal_context
from core.errors import validation_error
from memory.enums import LIVE_BELIEF_STATUSES, BeliefType
from memory.models import Belief
from memory.periods import Period, read_periods
from memory.reach import FULL_REACH, Reach
from memory.screening import redact_secrets
from memory.search import Match, Search, belief_search, message_search, ranked
from memory.selectors.conversation import conversation_ranked, neighbouring_turns
from memory.selectors.profile import asks_for_profile, profile_matches
from memory.selectors.recall_context import MAX_CONTEXT_TURNS, ContextTurn, context_given
from memory.selectors.recall_meaning import QueryMeaning, query_meaning, words_and_meaning
from memory.selectors.recall_rows import (
    RecallSource,
    Shown,
    belief_rows_select,
    message_rows_select,
    recall_rows,
)
from memory.text import query_terms

if TYPE_CHECKING:
    from accounts.models import User

# Reciprocal-rank fusion constant: damps the head of each list so that one
# source cannot crowd out another by its raw scores.
RRF_K = 60
BUDGET_MAX_CHARS = 200_000
_BELIEF_TYPES = frozenset(BeliefType.values)


@dataclass(frozen=True)
class RecallItem:
    kind: str  # "belief", "message" or "derived"
    id: str
    text: str
    rank: int
    score: float
    sources: tuple[RecallSource, ...] = ()
    # Beliefs only.
    type: str = ""
    subject: str = ""
    status: str = ""
    needs_review: bool = False
    confidence: float | None = None
    revision: int | None = None
    # Messages only.
    session_id: str = ""
    sequence: int | None = None
    event_type: str = ""
    occurred_at: datetime | None = None
    # Derived memories only: what kind of view it is, and whether it is only a
    # tentative inference (a hypothesis) rather than a view of what was said.
    derived_kind: str = ""
    tentative: bool = False
    # The public ids of the original memories it concerns (a notice's sides, say).
    memory_ids: tuple[str, ...] = ()
    # Messages only, when asked for: the turns around it (``recall_context.ContextTurn``).
    context: tuple[ContextTurn, ...] = ()


# Derived kinds that say what none of the messages behind them says: a tentative
# connection between memories, a warning that memories contradict each other. Merges and
# summaries restate their memories.
SAYING_MORE = ("hypothesis", "uncertainty_notice")
# Recall's own kinds; every other is a registered source's, of derived memories.
_OWN_KINDS = ("belief", "message")
# Which of two items fusion ranks alike comes first: a message (the record of what was
# said), then a memory, then a view derived from memories (every other kind).
_STANDING = {"message": 0, "belief": 1}

# Fields that only derived items carry: responses of other kinds leave them out.
DERIVED_ONLY_FIELDS = ("derived_kind", "tentative", "memory_ids")


@dataclass(frozen=True)
class RecallResult:
    items: list[RecallItem]
    terms: list[str]
    # Counts the items' text and their context turns'.
    chars: int
    # True when matches, or context turns, were left out because of the budget.
    truncated: bool = False
    included: tuple[str, ...] = field(default=())
    # True when the query asked for the owner's profile, and the items are it.
    profile: bool = False


# Further recall sources (e.g. derived memories) register here by name, so
# that ``include`` can name them without this module importing their apps.
EXTRA_SOURCES: dict[str, "ExtraSource"] = {}

# A source's search: (principal, terms, since, limit, reach) -> its search, or None.
SourceSearch = Callable[["User", Sequence[str], datetime | None, int, Reach], Search | None]
# A source's select: (principal, row ids, reach) -> SQL and parameters.
SourceSelect = Callable[["User", Sequence[int], Reach], tuple[str, Sequence[Any]]]
# A source's rows to search by meaning: (principal, since, limit, reach) -> its search of
# them (``memory.search.meaning``), or None.
SourceMeaning = Callable[["User", datetime | None, int, Reach], Search | None]


@dataclass(frozen=True)
class ExtraSource:
    """A recall source an app registers, each on its own tables: its candidates are searched
    in the statement that searches recall's own (``memory.search.ranked``), and the rows
    they match are read in the statement that reads recall's own with their sources
    (``memory.selectors.recall_rows``). Its items carry the sources of the memories they
    rest on, and ``reach`` (memory.reach) is applied to both."""

    # The source's full-text search, of at most ``limit`` rows; None adds nothing.
    search: SourceSearch
    # A select of the rows ``row_ids`` as ``recall_rows.ITEM_COLUMNS``, a row for each
    # memory it rests on.
    select: SourceSelect
    # Its rows with vectors (``memory.services.vectors.vectors_register``) to search by
    # meaning; None when it has none.
    meaning: SourceMeaning | None = None


def register_recall_source(
    name: str,
    *,
    search: SourceSearch,
    select: SourceSelect,
    meaning: SourceMeaning | None = None,
) -> None:
    EXTRA_SOURCES[name] = ExtraSource(search=search, select=select, meaning=meaning)


# ``include`` names recall's own optional source by this name.
MESSAGES = "messages"


def recall_includes() -> list[str]:
    """What ``include`` may name: original messages, then each registered source."""
    return [MESSAGES, *EXTRA_SOURCES]


def _check_datetime(value: object, name: str) -> datetime | None:
    if value is not None and (not isinstance(value, datetime) or timezone.is_naive(value)):
        raise validation_error(f"{name} must be a datetime with a timezone.", field=name)
    return value


def _string_list(values: object, name: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise validation_error(f"{name} must be a list of strings.", field=name)
    return list(dict.fromkeys(values))


def _check_options(
    *,
    types: object,
    statuses: object,
    include: object,
    limit: object,
    budget_chars: object,
    since: object,
    context_turns: object,
) -> tuple[list[str], list[str], list[str], int, int, datetime | None, int]:
    """Recall's options with their defaults, or a validation error naming the field: the
    one place their rules are kept, for the API (whose ``RecallInput`` only reads the
    JSON) and for callers in Python alike."""
    limits = settings.REVERIE_LIMITS
    limit = limits["recall_default_limit"] if limit is None else limit
    if (
        isinstance(limit, bool)
        or not isinstance(limit, int)
        or not 1 <= limit <= limits["recall_max_limit"]
    ):
        raise validation_error(
            f"limit must be between 1 and {limits['recall_max_limit']}.",
            field="limit",
            limit=limits["recall_max_limit"],
        )
    budget_chars = limits["recall_default_budget_chars"] if budget_chars is None else budget_chars
    if (
        isinstance(budget_chars, bool)
        or not isinstance(budget_chars, int)
        or not 1 <= budget_chars <= BUDGET_MAX_CHARS
    ):
        raise validation_error(
            f"budget_chars must be between 1 and {BUDGET_MAX_CHARS}.", field="budget_chars"
        )
    context_turns = 0 if context_turns is None else context_turns
    if (
        isinstance(context_turns, bool)
        or not isinstance(context_turns, int)
        or not 0 <= context_turns <= MAX_CONTEXT_TURNS
    ):
        raise validation_error(
            f"context_turns must be between 0 and {MAX_CONTEXT_TURNS}.",
            field="context_turns",
            limit=MAX_CONTEXT_TURNS,
        )
    types = _string_list(types, "types")
    if unknown := sorted(set(types) - _BELIEF_TYPES):
        raise validation_error(f"Unknown types: {', '.join(unknown)}.", field="types")
    statuses = _string_list(statuses, "statuses") or [
        str(status) for status in LIVE_BELIEF_STATUSES
    ]
    if unknown := sorted(set(statuses) - set(LIVE_BELIEF_STATUSES)):
        raise validation_error(
            f"Recall returns only active and provisional memories, not {', '.join(unknown)}.",
            field="statuses",
        )
    include = _string_list(include, "include")
    known = recall_includes()
    if unknown := sorted(set(include) - set(known)):
        raise validation_error(
            f"Unknown include: {', '.join(unknown)}.", field="include", allowed=sorted(known)
        )
    return (
        types,
        statuses,
        include,
        limit,
        budget_chars,
        _check_datetime(since, "since"),
        context_turns,
    )


def _masked(item: RecallItem) -> RecallItem:
    # Redaction gives back the very text it was given when there is nothing to mask, as
    # for nearly every item: the item is then kept as it is, not copied.
    text = redact_secrets(item.text)
    sources = tuple(_masked_source(source) for source in item.sources)
    context = tuple(_masked_turn(turn) for turn in item.context)
    if (
        text is item.text
        and all(map(operator.is_, sources, item.sources))
        and all(map(operator.is_, context, item.context))
    ):
        return item
    return replace(item, text=text, sources=sources, context=context)


def _masked_source(source: RecallSource) -> RecallSource:
    excerpt = redact_secrets(source.excerpt)
    return source if excerpt is source.excerpt else replace(source, excerpt=excerpt)


def _masked_turn(turn: ContextTurn) -> ContextTurn:
    text = redact_secrets(turn.text)
    return turn if text is turn.text else replace(turn, text=text)


def _item(kind: str, shown: Shown, score: float, rank: int = 0) -> RecallItem:
    row = shown.row
    sources = tuple(shown.sources.values())
    if kind == "message":
        (source,) = sources
        return RecallItem(
            kind=kind,
            id=row.public_id,
            text=row.text,
            rank=rank,
            score=score,
            sources=sources,
            session_id=source.session_id,
            sequence=source.sequence,
            event_type=source.event_type,
            occurred_at=source.occurred_at,
        )
    if kind == "belief":
        return RecallItem(
            kind=kind,
            id=row.public_id,
            text=row.text,
            rank=rank,
            score=score,
            sources=sources,
            type=row.type,
            subject=row.subject,
            confidence=row.confidence,
            revision=row.revision,
            status=row.status,
            needs_review=row.needs_review,
        )
    return RecallItem(
        kind=kind,
        id=row.public_id,
        text=row.text,
        rank=rank,
        score=score,
        sources=sources,
        type=row.type,
        subject=row.subject,
        confidence=row.confidence,
        revision=row.revision,
        derived_kind=row.derived_kind,
        tentative=row.tentative,
        memory_ids=tuple(shown.memory_ids[belief_id] for belief_id in sorted(shown.memory_ids)),
    )


def _select(
    principal: "User", kind: str, ids: Sequence[int], reach: Reach
) -> tuple[str, Sequence[Any]]:
    if kind == "belief":
        return belief_rows_select(owner_id=principal.pk, ids=ids)
    if kind == "message":
        return message_rows_select(owner_id=principal.pk, ids=ids)
    return EXTRA_SOURCES[kind].select(principal, ids, reach)


def recall_items(
    principal: "User", found: Sequence[tuple[str, Sequence[Match]]], reach: Reach = FULL_REACH
) -> list[list[RecallItem]]:
    """For each ``(kind, matches)`` of ``found``: the rows of that kind ("belief", "message"
    or a registered source's name) that ``matches`` (``[(row id, score)]``, best first)
    names and ``reach`` sees, as items with their sources, best first; in one statement
    for them all."""
    shown = _shown(principal, found, reach)
    return [[_item(*match) for match in matches] for matches in _matched(found, shown)]


def _shown(
    principal: "User", found: Sequence[tuple[str, Sequence[Match]]], reach: Reach
) -> dict[str, dict[int, Shown]]:
    """{kind: {row id: recall_rows.Shown}} of ``found`` (as ``recall_items`` takes it)."""
    wanted = [(kind, matches) for kind, matches in found if matches]
    shown = recall_rows(
        [
            _select(principal, kind, [row_id for row_id, _ in matches], reach)
            for kind, matches in wanted
        ],
        owner_id=principal.pk,
        reach=reach,
    )
    return {kind: rows for (kind, _), rows in zip(wanted, shown, strict=True)}


class _Matched(NamedTuple):
    """A matched row that recall may give: its kind, what ``recall_rows`` read of it and its
    score. The answer's items are built from the few it gives, with their rank."""

    kind: str
    shown: Shown
    score: float

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.shown.row.public_id


def _matched(
    found: Sequence[tuple[str, Sequence[Match]]], by_kind: Mapping[str, Mapping[int, Shown]]
) -> list[list[_Matched]]:
    matched = []
    for kind, matches in found:
        rows = by_kind.get(kind, {})
        matched.append(
            [_Matched(kind, rows[row_id], score) for row_id, score in matches if row_id in rows]
        )
    return matched


def _recent_beliefs(
    principal: "User",
    *,
    statuses: Sequence[str],
    types: Sequence[str],
    since: datetime | None,
    limit: int,
    reach: Reach,
) -> list[Match]:
    beliefs = reach.filter(Belief.objects.filter(owner=principal, status__in=statuses))
    if types:
        beliefs = beliefs.filter(type__in=types)
    if since is not None:
        beliefs = beliefs.filter(updated_at__gte=since)
    rows = beliefs.order_by("-updated_at", "-id").values_list("id", flat=True)[:limit]
    return [(row_id, 0.0) for row_id in rows]


def _searched(
    principal: "User",
    *,
    terms: Sequence[str],
    periods: Sequence[Period],
    statuses: Sequence[str],
    types: Sequence[str],
    since: datetime | None,
    messages: bool,
    extras: Sequence[ExtraSource],
    limit: int,
    reach: Reach,
) -> tuple[list[Match], list[Match] | None, list[list[Match] | None], Search | None]:
    """The matching rows (``[(row id, score)]``, best first) of beliefs, of messages (None
    unless ``messages``) and of each of ``extras`` (None for one that adds nothing),
    every source's candidates searched in one statement (memory.search.ranked);
    and the message search (None unless ``messages``). Messages said within one of
    ``periods`` rank higher (memory.selectors.conversation)."""
    searches = [belief_search(statuses=statuses, types=types, since=since, limit=limit)]
    message_query = None
    if messages:
        # Left out in the search itself, so that they take no place of a message shown.
        message_query = message_search(
            since=since, limit=limit, include_sensitive=reach.include_sensitive
        )
        searches.append(message_query)
    extra_searches = [extra.search(principal, terms, since, limit, reach) for extra in extras]
    found = ranked(
        [*searches, *(search for search in extra_searches if search is not None)],
        owner_id=principal.pk,
        terms=terms,
    )
    belief_rows = found.pop(0)
    message_rows = found.pop(0) if messages else None
    if message_rows and message_query is not None:
        turns = neighbouring_turns(
            principal.pk, [row_id for row_id, _ in message_rows], message_query, periods
        )
        message_rows = conversation_ranked(message_rows, turns.neighbours, turns.in_period)[:limit]
    return (
        belief_rows,
        message_rows,
        [None if search is None else found.pop(0) for search in extra_searches],
        message_query,
    )


def _with_meaning(
    principal: "User",
    meaning: QueryMeaning,
    *,
    beliefs: list[Match],
    extras: Sequence[tuple[ExtraSource, list[Match] | None]],
    search: Search,
    since: datetime | None,
    reach: Reach,
) -> tuple[list[Match], list[list[Match] | None]]:
    """The beliefs found by words fused with those found by meaning (``search``), and each
    extra source's rows likewise where it searches by meaning (``words_and_meaning``)."""
    searches: list[Search] = [search]
    by_words: list[list[Match]] = [beliefs]
    searched: list[bool] = []
    for extra, rows in extras:
        found = extra.meaning(principal, since, search.limit, reach) if extra.meaning else None
        searched.append(found is not None)
        if found is not None:
            searches.append(found)
            by_words.append(rows or [])
    fused = iter(words_and_meaning(principal, meaning, reach, searches=searches, by_words=by_words))
    fused_beliefs = next(fused)
    return fused_beliefs, [
        next(fused) if was_searched else rows
        for was_searched, (_, rows) in zip(searched, extras, strict=True)
    ]


def _fuse(ranked_lists: Sequence[Sequence[_Matched]]) -> list[_Matched]:
    """Reciprocal-rank fusion; with one list it keeps that list's order.

    Items of equal fused score (the first of each list, say) come in ``_STANDING``'s
    order: a memory tops its short list as readily as a message tops a far longer one, and
    is less often the turn a question is about. Then each derived item goes down after the
    memories it concerns (``_after_what_they_restate``)."""
    if len(ranked_lists) == 1:
        return list(ranked_lists[0])
    scores: dict[tuple[str, str], tuple[_Matched, float]] = {}
    for matches in ranked_lists:
        for position, match in enumerate(matches, start=1):
            best, total = scores.get(match.key, (match, 0.0))
            scores[match.key] = (best, total + 1.0 / (RRF_K + position))
    fused = sorted(scores.values(), key=lambda pair: (-pair[1], _STANDING.get(pair[0].kind, 2)))
    return _after_what_they_restate([match._replace(score=total) for match, total in fused])


def _after_what_they_restate(fused: Sequence[_Matched]) -> list[_Matched]:
    """``fused`` with each derived item moved to just after the last of the memories it
    concerns that ``fused`` holds, when one of them ranks below it.

    A derived memory is drawn from original memories (a merge or a summary restates
    them, a hypothesis or a notice reads them): where both match, the originals come
    first, and the derived item follows with what they do not say.
    """
    belief_at = {match.key[1]: at for at, match in enumerate(fused) if match.kind == "belief"}
    moved: dict[int, list[_Matched]] = {}
    ordered: list[_Matched] = []
    for at, match in enumerate(fused):
        concerns = match.shown.memory_ids.values() if match.kind not in _OWN_KINDS else ()
        last = max((belief_at.get(memory_id, -1) for memory_id in concerns), default=-1)
        if last > at:
            moved.setdefault(last, []).append(match)
            continue
        ordered.append(match)
        ordered += moved.pop(at, [])
    return ordered


def _messages_behind(matches: Iterable[_Matched]) -> dict[tuple[str, str], set[str]]:
    """The original messages each item of ``matches`` rests on, by (kind, id): a message
    on itself, a formed memory, a merge or a summary on its sources; a hypothesis or an
    uncertainty notice on none.

    Fused lists repeat themselves: a formed memory and the message it was formed
    from often both match, and a derived memory restates formed ones. Recall gives
    each original message once, directly or as the source of a memory, whichever
    ranks first, so that the repeat's place goes to something the answer does not
    hold yet. A hypothesis or a notice says what none of their messages says: it is
    given whatever else is.
    """
    return {
        match.key: {match.shown.row.public_id}
        if match.kind == "message"
        else set(match.shown.sources)
        for match in matches
        if match.shown.row.derived_kind not in SAYING_MORE
    }


@dataclass
class _Answer:
    """The items an answer gives: matches taken in rank order while they fit in ``limit``
    items and ``budget_chars`` characters, each original message once (``rests_on``:
    ``_messages_behind``)."""

    limit: int
    budget_chars: int
    rests_on: Mapping[tuple[str, str], set[str]]
    items: list[RecallItem] = field(default_factory=list)
    given: set[str] = field(default_factory=set)
    chars: int = 0
    # Whether a match was left out because of the budget.
    truncated: bool = False

    @property
    def full(self) -> bool:
        return len(self.items) == self.limit

    def take(self, matches: Iterable[_Matched]) -> None:
        for match in matches:
            if self.full:
                return
            behind = self.rests_on.get(match.key)
            if behind and behind <= self.given:
                continue
            text = match.shown.row.text
            if self.chars + len(text) > self.budget_chars:
                self.truncated = True
                continue
            self.chars += len(text)
            self.given |= behind or set()
            self.items.append(_item(*match, rank=len(self.items) + 1))


def _answer_of_one(
    principal: "User",
    found: tuple[str, list[Match]],
    reach: Reach,
    limit: int,
    budget_chars: int,
) -> tuple[_Answer, dict[str, dict[int, Shown]]]:
    """The answer from one kind's matches, with the rows read (as ``_shown`` gives them).

    Its first ``limit`` matches are the whole answer unless the budget or ``reach`` leaves
    one out, as it seldom does: the rest are read only then, in a statement of their own,
    rather than every time with the first.
    """
    kind, matches = found
    answer = _Answer(limit, budget_chars, rests_on={})
    shown: dict[str, dict[int, Shown]] = {kind: {}}
    for part in (matches[:limit], matches[limit:]):
        if answer.full or not part:
            break
        read = _shown(principal, [(kind, part)], reach)
        shown[kind].update(read.get(kind, {}))
        (matched,) = _matched([(kind, part)], read)
        answer.take(matched)
    return answer, shown


def _with_context(
    items: Sequence[RecallItem],
    *,
    principal: "User",
    shown: Mapping[int, Shown],
    search: Search,
    count: int,
    room: int,
) -> tuple[list[RecallItem], int, bool]:
    contexts, chars, truncated = context_given(
        items,
        owner_id=principal.pk,
        row_ids={row.row.public_id: row_id for row_id, row in shown.items()},
        search=search,
        count=count,
        room=room,
    )
    items = [
        replace(item, context=tuple(contexts[item.id])) if item.id in contexts else item
        for item in items
    ]
    return items, chars, truncated


def recall(
    *,
    principal: "User",
    query: object = "",
    types: object = None,
    statuses: object = None,
    since: object = None,
    include: object = (),
    limit: object = None,
    budget_chars: object = None,
    context_turns: object = 0,
    reach: Reach = FULL_REACH,
) -> RecallResult:
    """The principal's memories that best match ``query``, within a character budget.

    Only what ``reach`` sees (``memory.reach``): a token narrowed to one
    assistant, or to memories not marked sensitive, recalls nothing else.

    Returns active and provisional beliefs (status shown) and, with
    ``include=["messages"]``, original messages too, fused by reciprocal rank.
    Beliefs are found by their words and, with embeddings on, by meaning
    (``recall_meaning``), fused into one ranking first. A query asking for the
    owner's profile ("What do you know about me?") is answered with it
    (``profile``). Erased and fenced messages never appear. Without query terms
    and nothing found by meaning, the most recently changed beliefs come first.
    Items are taken in rank order while their text fits ``budget_chars``; each
    carries its sources. With
    ``context_turns``, each message also carries up to that many turns before and
    after it in its conversation, in what budget the items leave (``recall_context``).
    """
    if not isinstance(query, str):
        raise validation_error("query must be a string.", field="query")
    types, statuses, include, limit, budget_chars, since, context_turns = _check_options(
        types=types,
        statuses=statuses,
        include=include,
        limit=limit,
        budget_chars=budget_chars,
        since=since,
        context_turns=context_turns,
    )
    # The words that name a period stay query terms: a turn that names the month often
    # speaks of it, and leaving them out changed nothing measured.
    periods = read_periods(query)
    terms = query_terms(query)
    # Fetch more than ``limit`` so that items skipped for the budget can be
    # replaced by shorter ones further down.
    fetch = limit * 2
    profile = asks_for_profile(query)
    if profile:
        include = []
    extra_names = [name for name in include if name in EXTRA_SOURCES]
    extras = [EXTRA_SOURCES[name] for name in extra_names]
    # Embedded before the database is asked anything: no transaction waits on the model.
    meaning = None if profile else query_meaning(principal, query, reach)
    with principal_context(principal):
        belief_rows: list[Match] = []
        message_rows: list[Match] | None = None
        extra_rows: list[list[Match] | None] = [None for _ in extras]
        message_query: Search | None = None
        if profile:
            belief_rows = profile_matches(
                principal, statuses=statuses, types=types, since=since, limit=fetch, reach=reach
            )
        elif terms or meaning:
            if terms:
                belief_rows, message_rows, extra_rows, message_query = _searched(
                    principal,
                    terms=terms,
                    periods=periods,
                    statuses=statuses,
                    types=types,
                    since=since,
                    messages=MESSAGES in include,
                    extras=extras,
                    limit=fetch,
                    reach=reach,
                )
            if meaning is not None:
                belief_rows, extra_rows = _with_meaning(
                    principal,
                    meaning,
                    beliefs=belief_rows,
                    extras=list(zip(extras, extra_rows, strict=True)),
                    search=belief_search(statuses=statuses, types=types, since=since, limit=fetch),
                    since=since,
                    reach=reach,
                )
        if not profile and not terms and not belief_rows:
            belief_rows = _recent_beliefs(
                principal, statuses=statuses, types=types, since=since, limit=fetch, reach=reach
            )
        found: list[tuple[str, list[Match]]] = [("belief", belief_rows)]
        if message_rows is not None:
            found.append(("message", message_rows))
        found += [(name, rows or []) for name, rows in zip(extra_names, extra_rows, strict=True)]
        if len(found) == 1:
            answer, shown = _answer_of_one(principal, found[0], reach, limit, budget_chars)
        else:
            shown = _shown(principal, found, reach)
            fused = _fuse(_matched(found, shown))
            answer = _Answer(limit, budget_chars, _messages_behind(fused))
            answer.take(fused)
        items, chars, truncated = answer.items, answer.chars, answer.truncated
        if context_turns and message_query is not None:
            items, context_chars, context_truncated = _with_context(
                items,
                principal=principal,
                shown=shown.get("message", {}),
                search=message_query,
                count=context_turns,
                room=budget_chars - chars,
            )
            chars += context_chars
            truncated = truncated or context_truncated
    # What reaches an assistant never carries a secret-shaped span, whatever a
    # message said or an older memory kept; the owner's own log is untouched.
    items = [_masked(item) for item in items]
    return RecallResult(
        items=items,
        terms=terms,
        chars=chars,
        truncated=truncated,
        included=tuple(include),
        profile=profile,
    )
