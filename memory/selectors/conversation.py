"""Messages ranked as turns of a conversation.

In dialogue the answer to a question is often the turn next to the one that shares its
words ("Did you go?" / "Yes, we went camping last weekend."). A message's score
therefore takes in those of its neighbouring turns in the same session, and a turn
next to a match may rank although it shares no word with the query.

Where the question names a period ("in June", "on 13 October, 2023"), the turns said
within it rank higher: what is asked about by its date was said in (or just after) it,
while the turn rarely names the month itself.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from django.db import connection

from memory.periods import Period
from memory.search import Search

# How much a neighbouring turn's score counts towards a message's own.
NEIGHBOUR_WEIGHT = 0.5
# How far (in sequence numbers) a neighbouring turn is looked for: events that are not
# messages (a run completing, a formation request) may sit between two turns.
NEIGHBOUR_REACH = 3
# A match at place p of the search counts 1 / (PLACE_DAMPING + p): the head of the
# list counts most, as in reciprocal-rank fusion, but more steeply.
PLACE_DAMPING = 2
# Turns whose BM25, their neighbours' counted in, is under this share of the best turn's
# are left out: they add words to the answer, not evidence.
WEAK_SHARE = 0.25

# How much more a turn said within a period the question names counts: its score, its
# neighbours' counted in, is multiplied by 1 + this.
PERIOD_WEIGHT = 3.0

# A message's nearest matchable turns: (before, after), either None where there is none.
Neighbours = tuple[int | None, int | None]


@dataclass(frozen=True)
class Turns:
    """What ``neighbouring_turns`` finds."""

    # {event id: its nearest matchable turns}, for each event asked about.
    neighbours: dict[int, Neighbours]
    # Of those events and their nearest turns, the ones said within a period asked about.
    in_period: frozenset[int] = frozenset()


def _in(column: str, values: Collection[int]) -> tuple[str, list[object]]:
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [list(values)]
    return f"{column} IN ({', '.join('%s' for _ in values)})", list(values)


def turns_around(
    owner_id: int,
    event_ids: Collection[int],
    search: Search,
    distance: int,
    columns: Sequence[str] = (),
    itself: bool = False,
) -> list[tuple[Any, ...]]:
    """Rows ``(event id, turn id, turn's sequence less the event's, *columns)``: for each of
    ``event_ids``, every other message of the same session within ``distance`` sequence
    numbers of it that ``search`` (recall's ``memory.search.message_search``) could have
    matched, ``columns`` (SQL on the turn ``a``) read with it; in no particular order.
    With ``itself``, each event is also its own turn at distance 0 (when ``search`` could
    have matched it, as it did if it is one of the search's matches).

    The turns are held to the search's own conditions, not to a copy of them: what
    recall could not show as a message never stands beside one."""
    if not event_ids:
        return []
    matched, matched_params = _in("e.id", event_ids)
    where = ["e.owner_id = %s", matched, "a.owner_id = %s", search.collection.searchable]
    where += search.where
    params = [owner_id, *matched_params, owner_id, *search.params]
    sql = (
        f"SELECT {', '.join(['e.id', 'a.id', 'a.sequence - e.sequence', *columns])} "
        "FROM memory_event e JOIN memory_event a ON a.session_id = e.session_id "
        "AND a.sequence BETWEEN e.sequence - %s AND e.sequence + %s"
        f"{'' if itself else ' AND a.id <> e.id'} "
        f"WHERE {' AND '.join(where)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [distance, distance, *params])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


def _utc_day(moment: datetime) -> date:
    # A principal has no time zone of their own: a turn's day is its day in UTC, the zone
    # times are kept in (SQLite's cursor gives them back naive).
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).date()


def neighbouring_turns(
    owner_id: int,
    event_ids: Collection[int],
    search: Search,
    periods: Sequence[Period] = (),
) -> Turns:
    """For each of ``event_ids``: the nearest message of the same session before and after
    it that ``search`` (recall's ``memory.search.message_search``) could have matched,
    either None where there is none; and, where ``periods`` are given, which of the events
    and those turns were said within one of them (in the same statement)."""
    nearest: dict[tuple[int, int], tuple[int, int]] = {}
    said: dict[int, date] = {}
    rows = turns_around(
        owner_id,
        event_ids,
        search,
        NEIGHBOUR_REACH,
        columns=("a.occurred_at",) if periods else (),
        itself=bool(periods),
    )
    for event_id, other_id, offset, *columns in rows:
        if columns:
            said[other_id] = _utc_day(columns[0])
        if offset == 0:
            continue
        side = 0 if offset < 0 else 1
        best = nearest.get((event_id, side))
        if best is None or abs(offset) < best[1]:
            nearest[(event_id, side)] = (other_id, abs(offset))

    def turn(event_id: int, side: int) -> int | None:
        return nearest[(event_id, side)][0] if (event_id, side) in nearest else None

    neighbours = {event_id: (turn(event_id, 0), turn(event_id, 1)) for event_id in event_ids}
    return Turns(
        neighbours=neighbours,
        in_period=frozenset(
            turn_id for turn_id, day in said.items() if any(p.holds(day) for p in periods)
        ),
    )


def _with_neighbours(
    scores: Mapping[int, float], turns: Mapping[int, Neighbours]
) -> dict[int, float]:
    """Each turn's score plus ``NEIGHBOUR_WEIGHT`` of each neighbour's (0 for a turn that did
    not match), for the matched turns and the unmatched turns next to them."""
    combined: dict[int, float] = {}
    for event_id, score in scores.items():
        combined[event_id] = combined.get(event_id, 0.0) + score
        for other in turns.get(event_id, ()):
            if other is not None:
                combined[other] = combined.get(other, 0.0) + NEIGHBOUR_WEIGHT * score
    return combined


def conversation_ranked(
    matches: Sequence[tuple[int, float]],
    turns: Mapping[int, Neighbours],
    in_period: Collection[int] = (),
) -> list[tuple[int, float]]:
    """``matches`` (``[(event id, score)]``, best first) re-ranked with their neighbouring
    turns (``neighbouring_turns``), turns next to a match included, best first; the turns
    of ``in_period`` (said within a period the question names) count ``1 + PERIOD_WEIGHT``
    times as much.

    Turns are ranked by their places in the search rather than by its scores, which
    each database computes over its own statistics: so both rank alike. Only turns
    found here are ranked: a period reorders them and brings in none.
    """
    by_place = {
        event_id: 1.0 / (PLACE_DAMPING + place)
        for place, (event_id, _) in enumerate(matches, start=1)
    }
    ranked = _with_neighbours(by_place, turns)
    for event_id in ranked.keys() & set(in_period):
        ranked[event_id] *= 1.0 + PERIOD_WEIGHT
    raw = _with_neighbours(dict(matches), turns)
    floor = WEAK_SHARE * max(raw.values(), default=0.0)
    # Python's sort is stable: equal scores keep the order the search gave.
    return sorted(
        ((event_id, score) for event_id, score in ranked.items() if raw[event_id] >= floor),
        key=lambda pair: -pair[1],
    )
