"""The rows recall shows: what its search matched, of every kind, with their sources, read in
one statement.

Each kind describes its matched rows as a select of ``ITEM_COLUMNS`` (memory's own below; an
app's recall source registers its own, on its own tables). The statement unites them and
joins each row to its sources: the sources of the belief it names in ``belief_id`` (a
belief's own, or those of a belief a derived memory rests on), else the message it names in
``event_id`` (a message is its own source).
"""

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from django.db import connection

from memory.reach import Reach

if TYPE_CHECKING:
    from django.db.backends.sqlite3.operations import DatabaseOperations as SQLiteOperations


class ItemRow(NamedTuple):
    """A matched row as each kind's select gives it (``ITEM_COLUMNS``)."""

    id: int
    public_id: str
    text: str
    type: str
    subject: str
    status: str
    needs_review: bool
    confidence: float | None
    revision: int | None
    # Derived memories': what kind of view it is, and whether it is only tentative.
    derived_kind: str
    tentative: bool
    scope: str
    sensitivity: str
    # The belief whose sources are the item's, and the message that is its own source.
    belief_id: int | None
    event_id: int | None


# What each kind's select returns, in this order; a kind without one of them gives an
# empty value or a typed NULL (``NO_*``), so that the selects unite on both databases.
ITEM_COLUMNS = ItemRow._fields
NO_ID = "CAST(NULL AS bigint)"
NO_NUMBER = "CAST(NULL AS double precision)"
NO_INTEGER = "CAST(NULL AS integer)"

# A message's own source quotes its text: it has no source row of a belief. The message a
# source names is chosen by a CASE, not the COALESCE it amounts to: under row security
# PostgreSQL lets only a condition it knows cannot leak reach an index, and it counts
# COALESCE as one that might, so it read every message of the owner for each row.
# ``{text}`` follows each public id: on PostgreSQL a cast that reads it as text in the API's
# form, where reading a UUID and writing it back cost recall more Python than any other of
# its columns (SQLite keeps the hex, which ``public_id_text`` writes out).
_STATEMENT = (
    f"WITH r(branch, {', '.join(ITEM_COLUMNS)}) AS ({{selects}}) "
    "SELECT r.branch, "
    + ", ".join(
        f"r.{name}{{text}}" if name == "public_id" else f"r.{name}" for name in ITEM_COLUMNS
    )
    + ", b.public_id{text}, COALESCE(s.excerpt, r.text), e.public_id{text}, es.public_id{text}, "
    "e.sequence, e.event_type, e.occurred_at, es.scope, e.sensitivity FROM r "
    "LEFT JOIN memory_belief b ON b.id = r.belief_id AND b.owner_id = %s "
    "LEFT JOIN memory_beliefsource s ON s.belief_id = r.belief_id AND s.owner_id = %s "
    "LEFT JOIN memory_event e ON e.id = CASE WHEN s.event_id IS NOT NULL THEN s.event_id "
    "ELSE r.event_id END AND e.owner_id = %s "
    "LEFT JOIN memory_session es ON es.id = e.session_id "
    # Sources oldest first, as each item lists them.
    "ORDER BY r.branch, e.occurred_at, s.id"
)
_WIDTH = 1 + len(ITEM_COLUMNS)
_BELIEF_ID = 1 + ITEM_COLUMNS.index("belief_id")


def ids_in(column: str, ids: Collection[int]) -> tuple[str, list[Any]]:
    """A condition that ``column`` is one of ``ids``, with its parameters."""
    if connection.vendor == "postgresql":
        # One array parameter: the statement's text, and so its prepared plan, does
        # not change with how many rows matched.
        return f"{column} = ANY(%s::bigint[])", [list(ids)]
    return f"{column} IN ({', '.join('%s' for _ in ids)})", list(ids)


def belief_rows_select(*, owner_id: int, ids: Collection[int]) -> tuple[str, list[Any]]:
    """The select of the beliefs ``ids`` for ``recall_rows``."""
    condition, params = ids_in("a.id", ids)
    return (
        "SELECT a.id, a.public_id, a.statement, a.type, a.subject, a.status, a.needs_review, "
        f"a.confidence, a.revision, '', false, a.scope, a.sensitivity, a.id, {NO_ID} "
        f"FROM memory_belief a WHERE a.owner_id = %s AND {condition}",
        [owner_id, *params],
    )


def message_rows_select(*, owner_id: int, ids: Collection[int]) -> tuple[str, list[Any]]:
    """The select of the messages ``ids`` for ``recall_rows``."""
    condition, params = ids_in("a.id", ids)
    return (
        f"SELECT a.id, a.public_id, a.text, '', '', '', false, {NO_NUMBER}, {NO_INTEGER}, '', "
        f"false, m.scope, a.sensitivity, {NO_ID}, a.id "
        "FROM memory_event a JOIN memory_session m ON m.id = a.session_id "
        f"WHERE a.owner_id = %s AND {condition}",
        [owner_id, *params],
    )


@dataclass(frozen=True)
class RecallSource:
    event_id: str
    session_id: str
    sequence: int
    event_type: str
    occurred_at: datetime
    excerpt: str


@dataclass(frozen=True)
class Shown:
    """A matched row that ``reach`` sees: its ``ItemRow``, its sources that ``reach`` sees
    (``{message id: RecallSource}``, oldest first, each message once) and the public ids of
    the beliefs it rests on (``{belief id: public id}``)."""

    row: ItemRow
    sources: dict[str, RecallSource]
    memory_ids: dict[int, str]


def public_id_text(value: uuid.UUID | str) -> str:
    """A public id read by raw SQL, as the API writes it: PostgreSQL gives a UUID, SQLite
    its hex."""
    return str(value if isinstance(value, uuid.UUID) else uuid.UUID(value))


def _item_row(values: Sequence[Any], *, sqlite: bool) -> ItemRow:
    row = ItemRow._make(values)
    if not sqlite:
        return row
    # SQLite gives booleans as integers.
    return row._replace(
        public_id=public_id_text(row.public_id),
        needs_review=bool(row.needs_review),
        tentative=bool(row.tentative),
    )


def sqlite_moment(value: str) -> datetime:
    """A datetime read by raw SQL from SQLite, which gives it as text without its zone."""
    # Only SQLite's operations have this reading of a datetime; it gives None only for
    # None, and the columns read with it are never NULL.
    operations = cast("SQLiteOperations", connection.ops)
    return cast(datetime, operations.convert_datetimefield_value(value, None, connection))


def recall_rows(
    selects: Sequence[tuple[str, Sequence[Any]]], *, owner_id: int, reach: Reach
) -> list[dict[int, Shown]]:
    """For each of ``selects`` (SQL and parameters, of ``ITEM_COLUMNS``), its rows that
    ``reach`` sees, as ``{row id: Shown}``; all of them in one statement.

    A source shows only when ``reach`` sees its message: a memory every assistant
    sees may rest on one assistant's conversation, or on a message labelled sensitive.
    """
    shown: list[dict[int, Shown]] = [{} for _ in selects]
    if not selects:
        return shown
    sqlite = connection.vendor == "sqlite"
    sql = _STATEMENT.format(
        selects=" UNION ALL ".join(
            f"SELECT {index}, q.* FROM ({select}) q" for index, (select, _) in enumerate(selects)
        ),
        text="" if sqlite else "::text",
    )
    params = [param for _, select_params in selects for param in select_params]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, owner_id, owner_id, owner_id])
        rows = cursor.fetchall()
    unseen: set[tuple[int, int]] = set()
    for row in rows:
        branch, row_id = row[0], row[1]
        item = shown[branch].get(row_id)
        if item is None:
            if (branch, row_id) in unseen:
                continue
            values = _item_row(row[1:_WIDTH], sqlite=sqlite)
            if not reach.sees(scope=values.scope, sensitivity=values.sensitivity):
                unseen.add((branch, row_id))
                continue
            item = shown[branch][row_id] = Shown(row=values, sources={}, memory_ids={})
        belief, excerpt, event, session, sequence, event_type, occurred_at, scope, sensitivity = (
            row[_WIDTH:]
        )
        if belief is not None:
            item.memory_ids.setdefault(
                row[_BELIEF_ID], public_id_text(belief) if sqlite else belief
            )
        if event is None or not reach.sees(scope=scope, sensitivity=sensitivity):
            continue
        if sqlite:
            event, session = public_id_text(event), public_id_text(session)
            occurred_at = sqlite_moment(occurred_at)
        if event not in item.sources:
            item.sources[event] = RecallSource(
                event_id=event,
                session_id=session,
                sequence=sequence,
                event_type=event_type,
                occurred_at=occurred_at,
                excerpt=excerpt,
            )
    return shown
