"""The turns around a recalled message, given with it as its context.

A message recalled alone may not say enough: the answer to "Did you go camping?" is the
turn after it. With ``context_turns`` = N, each recalled message carries up to N turns
before it and N after it in its conversation, in a list of its own, each marked
"before" or "after", so that an assistant tells what matched from what stands around it.

The rules, each kept here:

- A context turn is one recall could have shown as a message: the turns are read under
  the message search's own conditions (``conversation.turns_around``), so an erased,
  fenced or hidden sensitive message, or one older than ``since``, never stands beside
  one. Turns are sought as neighbours are: each within ``NEIGHBOUR_REACH`` sequence
  numbers of the one nearer the message, so that a run or formation event between two
  turns does not separate them.
- Context never changes which items are recalled, nor their order: it takes only the
  character budget the items left. The nearest turns are given first, across every item
  (each item's first turn on each side, best item first, before anyone's second), and a
  turn is given only if the turn between it and its message was: a turn that does not
  fit ends its side, and the result says it was ``truncated``.
- Each message is given once: a turn recalled as an item, or already given as another
  item's context, is not repeated (it still counts towards the N of its side).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connection

from memory.selectors.conversation import NEIGHBOUR_REACH, turns_around
from memory.selectors.recall_rows import public_id_text, sqlite_moment

if TYPE_CHECKING:
    from memory.search import Search
    from memory.selectors.recall import RecallItem

MAX_CONTEXT_TURNS = 3
BEFORE, AFTER = "before", "after"

_COLUMNS = ("a.public_id", "a.text", "a.sequence", "a.event_type", "a.occurred_at")


@dataclass(frozen=True)
class ContextTurn:
    """A turn of a recalled message's conversation, given as its context."""

    id: str
    text: str
    sequence: int
    event_type: str
    occurred_at: datetime
    position: str  # BEFORE or AFTER the message


def _turn(values: Sequence[Any], position: str) -> ContextTurn:
    public_id, text, sequence, event_type, occurred_at = values
    if connection.vendor == "sqlite":
        occurred_at = sqlite_moment(occurred_at)
    return ContextTurn(
        id=public_id_text(public_id),
        text=text,
        sequence=sequence,
        event_type=event_type,
        occurred_at=occurred_at,
        position=position,
    )


def _sides(rows: Sequence[Sequence[Any]], count: int) -> dict[tuple[int, str], list[ContextTurn]]:
    """{(event id, position): [turns, nearest first]}: up to ``count`` a side, each within
    ``NEIGHBOUR_REACH`` sequence numbers of the one before it."""
    found: dict[tuple[int, str], list[tuple[int, Sequence[Any]]]] = {}
    for event_id, _, offset, *values in rows:
        position = BEFORE if offset < 0 else AFTER
        found.setdefault((event_id, position), []).append((abs(offset), values))
    sides = {}
    for key, turns in found.items():
        chain: list[ContextTurn] = []
        reached = 0
        for distance, turn in sorted(turns, key=lambda turn: turn[0]):
            if len(chain) == count or distance - reached > NEIGHBOUR_REACH:
                break
            chain.append(_turn(turn, key[1]))
            reached = distance
        sides[key] = chain
    return sides


def context_given(
    items: Sequence["RecallItem"],
    *,
    owner_id: int,
    row_ids: Mapping[str, int],
    search: "Search",
    count: int,
    room: int,
) -> tuple[dict[str, list[ContextTurn]], int, bool]:
    """The context of each message of ``items`` (recalled, best first): ``(contexts, chars,
    truncated)``, where ``contexts`` is ``{item id: [ContextTurn] in the order said}``,
    ``chars`` their length within ``room`` characters, and ``truncated`` whether a turn was
    left out for want of room. ``row_ids`` maps a message's public id to its row id;
    ``search`` is the message search that found them; one statement."""
    messages = [item for item in items if item.kind == "message"]
    if not count or not messages:
        return {}, 0, False
    rows = turns_around(
        owner_id,
        [row_ids[item.id] for item in messages],
        search,
        count * NEIGHBOUR_REACH,
        _COLUMNS,
    )
    sides = _sides(rows, count)
    given = {item.id for item in items}
    contexts: dict[str, list[ContextTurn]] = {item.id: [] for item in messages}
    ended: set[tuple[str, str]] = set()
    chars, truncated = 0, False
    for place in range(count):
        for item in messages:
            for position in (BEFORE, AFTER):
                side = sides.get((row_ids[item.id], position), [])
                if place >= len(side) or (item.id, position) in ended:
                    continue
                turn = side[place]
                if turn.id in given:
                    continue
                if chars + len(turn.text) > room:
                    truncated = True
                    ended.add((item.id, position))
                    continue
                chars += len(turn.text)
                given.add(turn.id)
                contexts[item.id].append(turn)
    return (
        {
            item_id: sorted(turns, key=lambda turn: turn.sequence)
            for item_id, turns in contexts.items()
        },
        chars,
        truncated,
    )
