"""Messages ranked as turns of a conversation.

In dialogue the answer to a question is often the turn next to the one that shares its
words ("Did you go?" / "Yes, we went camping last weekend."). A message's score
therefore takes in those of its neighbouring turns in the same session, and a turn
next to a match may rank although it shares no word with the query.
"""

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db import connection

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

# A message's nearest matchable turns: (before, after), either None where there is none.
Neighbours = tuple[int | None, int | None]


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
) -> list[tuple[Any, ...]]:
    """Rows ``(event id, turn id, turn's sequence less the event's, *columns)``: for each of
    ``event_ids``, every other message of the same session within ``distance`` sequence
    numbers of it that ``search`` (recall's ``memory.search.message_search``) could have
    matched, ``columns`` (SQL on the turn ``a``) read with it; in no particular order.

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
        "AND a.sequence BETWEEN e.sequence - %s AND e.sequence + %s AND a.id <> e.id "
        f"WHERE {' AND '.join(where)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [distance, distance, *params])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


def neighbouring_turns(
    owner_id: int, event_ids: Collection[int], search: Search
) -> dict[int, Neighbours]:
    """{event id: (previous turn's id, next turn's id)} for each of ``event_ids``, either
    None where there is none: the nearest message of the same session before and after
    it that ``search`` (recall's ``memory.search.message_search``) could have matched."""
    nearest: dict[tuple[int, int], tuple[int, int]] = {}
    for event_id, other_id, offset in turns_around(owner_id, event_ids, search, NEIGHBOUR_REACH):
        side = 0 if offset < 0 else 1
        best = nearest.get((event_id, side))
        if best is None or abs(offset) < best[1]:
            nearest[(event_id, side)] = (other_id, abs(offset))

    def turn(event_id: int, side: int) -> int | None:
        return nearest[(event_id, side)][0] if (event_id, side) in nearest else None

    return {event_id: (turn(event_id, 0), turn(event_id, 1)) for event_id in event_ids}


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
    matches: Sequence[tuple[int, float]], turns: Mapping[int, Neighbours]
) -> list[tuple[int, float]]:
    """``matches`` (``[(event id, score)]``, best first) re-ranked with their neighbouring
    turns (``neighbouring_turns``), turns next to a match included, best first.

    Turns are ranked by their places in the search rather than by its scores, which
    each database computes over its own statistics: so both rank alike.
    """
    by_place = {
        event_id: 1.0 / (PLACE_DAMPING + place)
        for place, (event_id, _) in enumerate(matches, start=1)
    }
    ranked = _with_neighbours(by_place, turns)
    raw = _with_neighbours(dict(matches), turns)
    floor = WEAK_SHARE * max(raw.values(), default=0.0)
    # Python's sort is stable: equal scores keep the order the search gave.
    return sorted(
        ((event_id, score) for event_id, score in ranked.items() if raw[event_id] >= floor),
        key=lambda pair: -pair[1],
    )
