"""Memory's migration operations: full-text indexes and their statistics, the append-only
event log and the triggers SQLite needs kept. Row security's are the shared layer's
(``common.migration_operations``).
"""

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.backends.utils import CursorWrapper
from django.db.migrations.state import ProjectState

from common.migration_operations import VendorSQL

# Rows a statement changed, as the trigger reads them, and whether they are counted in
# (1) or out (-1): ``("new_rows", 1)``.
_Changes = Sequence[tuple[str, int]]


class AddFullTextIndex(VendorSQL):
    """Index ``text_column`` of a model for owner-scoped full-text search.

    PostgreSQL: a stored ``search_vector`` column generated from the text, and
    a GIN index over (owner_id, search_vector) restricted by ``pg_condition``
    (btree_gin lets one index answer both the owner filter and the match).
    The index has no pending list (``fastupdate = off``): writes pay for the
    index update at once instead of recall paying for scanning unmerged
    entries.
    SQLite: an external-content FTS5 table ``<table>_fts`` kept in step by
    triggers, with the Porter stemmer as PostgreSQL's english configuration has.
    """

    vendors = ("postgresql", "sqlite")

    def __init__(self, model_name: str, text_column: str, pg_condition: str) -> None:
        self.model_name = model_name
        self.text_column = text_column
        self.pg_condition = pg_condition

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (
            self.__class__.__qualname__,
            [self.model_name, self.text_column, self.pg_condition],
            {},
        )

    def describe(self) -> str:
        return f"Add full-text index on {self.model_name}.{self.text_column}"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raw_table = self._table(app_label, state, self.model_name)
        table = schema_editor.quote_name(raw_table)
        column = schema_editor.quote_name(self.text_column)
        if vendor == "postgresql":
            index = schema_editor.quote_name(f"{raw_table}_search")
            return [
                "CREATE EXTENSION IF NOT EXISTS btree_gin",
                f"ALTER TABLE {table} ADD COLUMN search_vector tsvector "
                f"GENERATED ALWAYS AS (to_tsvector('english', {column})) STORED",
                f"CREATE INDEX {index} ON {table} USING gin (owner_id, search_vector) "
                f"WITH (fastupdate = off) WHERE {self.pg_condition}",
            ]
        fts = schema_editor.quote_name(f"{raw_table}_fts")
        trigger = f"{raw_table}_fts"
        return [
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5({column}, content={table}, "
            f"content_rowid='id', tokenize='porter unicode61')",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_ai AFTER INSERT ON {table} BEGIN "
            f"INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column}); END",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_ad AFTER DELETE ON {table} BEGIN "
            f"INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column}); "
            "END",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_au AFTER UPDATE OF {column} ON {table} BEGIN "
            f"INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column}); "
            f"INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column}); END",
            f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raw_table = self._table(app_label, state, self.model_name)
        table = schema_editor.quote_name(raw_table)
        if vendor == "postgresql":
            index = schema_editor.quote_name(f"{raw_table}_search")
            return [
                f"DROP INDEX IF EXISTS {index}",
                f"ALTER TABLE {table} DROP COLUMN IF EXISTS search_vector",
            ]
        trigger = f"{raw_table}_fts"
        return [
            *(f"DROP TRIGGER IF EXISTS {trigger}_{suffix}" for suffix in ("ai", "ad", "au")),
            f"DROP TABLE IF EXISTS {schema_editor.quote_name(trigger)}",
        ]


# Columns an event keeps for life; erasure may only blank parts and text.
_EVENT_IMMUTABLE_COLUMNS = (
    "owner_id",
    "public_id",
    "session_id",
    "sequence",
    "event_type",
    "author_kind",
    "author_name",
    "payload",
    "external_id",
    "derivation_key",
    "occurred_at",
    "created_at",
)
_APPEND_ONLY_MESSAGE = "memory_event is append-only: only erasure may change an event"


class MakeEventLogAppendOnly(VendorSQL):
    """A trigger refusing every UPDATE of an event except erasure.

    Erasure sets ``redacted_at`` and blanks ``parts`` and ``text`` in one
    statement, once. Anything else, from any code path, is refused by the
    database, so the log stays the trustworthy record formation replays.
    """

    vendors = ("postgresql", "sqlite")

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [], {})

    def describe(self) -> str:
        return "Make the event log append-only"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = self._table(app_label, state, "event")
        changed = " OR ".join(f"NEW.{c} IS DISTINCT FROM OLD.{c}" for c in _EVENT_IMMUTABLE_COLUMNS)
        if vendor == "postgresql":
            forbidden = (
                f"{changed} OR OLD.redacted_at IS NOT NULL OR ("
                "(NEW.text, NEW.parts) IS DISTINCT FROM (OLD.text, OLD.parts) AND NOT ("
                "NEW.text = '' AND NEW.parts = '[]'::jsonb AND NEW.redacted_at IS NOT NULL))"
            )
            return [
                f"CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN IF {forbidden} THEN RAISE EXCEPTION '{_APPEND_ONLY_MESSAGE}' "
                "USING ERRCODE = 'integrity_constraint_violation'; END IF; RETURN NEW; END $$",
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()",
            ]
        changed = changed.replace("IS DISTINCT FROM", "IS NOT")
        forbidden = (
            f"{changed} OR OLD.redacted_at IS NOT NULL OR ("
            "(NEW.text IS NOT OLD.text OR NEW.parts IS NOT OLD.parts) AND NOT ("
            "NEW.text = '' AND NEW.parts = '[]' AND NEW.redacted_at IS NOT NULL))"
        )
        return [
            f"CREATE TRIGGER IF NOT EXISTS {table}_append_only BEFORE UPDATE ON {table} "
            f"WHEN {forbidden} "
            f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY_MESSAGE}'); END",
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = self._table(app_label, state, "event")
        statements = [
            f"DROP TRIGGER IF EXISTS {table}_append_only"
            + (f" ON {table}" if vendor == "postgresql" else "")
        ]
        if vendor == "postgresql":
            statements.append(f"DROP FUNCTION IF EXISTS {table}_append_only()")
        return statements


# Every SQLite trigger of the project, by the operation that creates it as it is now.
# SQLite alters a table by rebuilding it, which silently drops its triggers. The
# message index is the one with authors: triggers writing text alone into its FTS5
# table would leave new messages' authors out and mis-delete on erasure, and it is
# made afresh (dropped, created, rebuilt from the table), whatever was left of it.
_SQLITE_TRIGGER_OPERATIONS = (
    lambda: AddFullTextIndex("belief", "statement", pg_condition=""),
    lambda: IndexMessageAuthors(pg_condition=""),
    MakeEventLogAppendOnly,
)


class RestoreSQLiteTriggers(VendorSQL):
    """Re-create the SQLite triggers that a table rebuild dropped.

    Every migration that alters ``memory_belief`` or ``memory_event`` must end
    with this operation; a test checks that the triggers exist.
    """

    vendors = ("sqlite",)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [], {})

    def describe(self) -> str:
        return "Restore the SQLite triggers of beliefs and events"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        statements = []
        for make in _SQLITE_TRIGGER_OPERATIONS:
            statements += make().forwards_sql(vendor, schema_editor, app_label, state)
        return statements

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return []


class IndexMessageAuthors(VendorSQL):
    """Index each message's author name with its text, weighted below the text.

    Replaces the message index of ``AddFullTextIndex("event", "text", ...)``:
    PostgreSQL's generated ``search_vector`` becomes the text at weight A and
    the author's name at weight B (the search counts B at 0.4 of A); SQLite's
    FTS5 table gets an ``author_name`` column, which the search ranks at 0.4 of
    the text with ``bm25`` column weights. So "What did Caroline say about
    pottery?" can match Caroline's messages, and a message that says "Caroline"
    still outranks one that is merely hers.
    """

    vendors = ("postgresql", "sqlite")

    def __init__(self, pg_condition: str) -> None:
        self.pg_condition = pg_condition

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.pg_condition], {})

    def describe(self) -> str:
        return "Index message authors with message text"

    def _previous(self) -> AddFullTextIndex:
        return AddFullTextIndex("event", "text", self.pg_condition)

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        previous = self._previous()
        drop = previous.backwards_sql(vendor, schema_editor, app_label, state)
        raw_table = self._table(app_label, state, "event")
        table = schema_editor.quote_name(raw_table)
        if vendor == "postgresql":
            index = schema_editor.quote_name(f"{raw_table}_search")
            vector = (
                "setweight(to_tsvector('english', text), 'A') || "
                "setweight(to_tsvector('english', author_name), 'B')"
            )
            return [
                *drop,
                f"ALTER TABLE {table} ADD COLUMN search_vector tsvector "
                f"GENERATED ALWAYS AS ({vector}) STORED",
                f"CREATE INDEX {index} ON {table} USING gin (owner_id, search_vector) "
                f"WITH (fastupdate = off) WHERE {self.pg_condition}",
            ]
        fts = schema_editor.quote_name(f"{raw_table}_fts")
        trigger = f"{raw_table}_fts"
        columns = "text, author_name"
        new = "new.text, new.author_name"
        old = "old.text, old.author_name"
        return [
            *drop,
            f"CREATE VIRTUAL TABLE {fts} USING fts5({columns}, content={table}, "
            f"content_rowid='id', tokenize='porter unicode61')",
            f"CREATE TRIGGER {trigger}_ai AFTER INSERT ON {table} BEGIN "
            f"INSERT INTO {fts}(rowid, {columns}) VALUES (new.id, {new}); END",
            f"CREATE TRIGGER {trigger}_ad AFTER DELETE ON {table} BEGIN "
            f"INSERT INTO {fts}({fts}, rowid, {columns}) VALUES ('delete', old.id, {old}); END",
            f"CREATE TRIGGER {trigger}_au AFTER UPDATE OF text ON {table} BEGIN "
            f"INSERT INTO {fts}({fts}, rowid, {columns}) VALUES ('delete', old.id, {old}); "
            f"INSERT INTO {fts}(rowid, {columns}) VALUES (new.id, {new}); END",
            f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        previous = self._previous()
        return [
            *previous.backwards_sql(vendor, schema_editor, app_label, state),
            *previous.forwards_sql(vendor, schema_editor, app_label, state),
        ]


# A row's length for BM25: its number of tokens, stop words included (the
# position of its last lexeme; each lexeme's positions are sorted), as FTS5
# counts them. ``TOKEN_COUNT`` aggregates it over ``unnest(search_vector)``
# aliased {0}; ``SEARCH_LENGTH`` is it for the tsvector {0}.
TOKEN_COUNT = "coalesce(max({0}.positions[cardinality({0}.positions)]), 0)"
SEARCH_LENGTH = f"(SELECT {TOKEN_COUNT.format('u')} FROM unnest({{0}}) u)"


class KeepSearchStatistics(VendorSQL):
    """Keep a searchable table's BM25 statistics in step with it on PostgreSQL.

    ``memory_searchstatistics`` holds each owner's number of searchable rows
    (those ``pg_condition``, the GIN index's condition, selects) and their
    total length; ``memory_searchterm`` the number of those rows holding each
    lexeme. Statement-level triggers with transition tables add what a
    statement made searchable and subtract what it took away, in its
    transaction: an update does both, so erasure and a belief leaving the live
    statuses are counted when they happen, and a lexeme no live row of the
    owner holds any more is deleted with the last row that held it. A bulk
    insert costs one upsert per owner and lexeme, not per row.

    Decrements only update existing rows: when an account is deleted its
    statistics may go before its rows, and must not come back.
    """

    vendors = ("postgresql",)

    def __init__(
        self, model_name: str, collection: str, pg_condition: str, columns: Iterable[str]
    ) -> None:
        self.model_name = model_name
        self.collection = collection
        self.pg_condition = pg_condition
        # The columns the indexed text and the condition read: rows an update
        # left alike in all of them (a revision, a timestamp) are not counted.
        self.columns = tuple(columns)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (
            self.__class__.__qualname__,
            [self.model_name, self.collection, self.pg_condition, list(self.columns)],
            {},
        )

    def describe(self) -> str:
        return f"Keep search statistics of {self.model_name}"

    def _changed(self, side: str) -> str:
        """The updated rows (``side``: their new or old version) in which one of the columns
        changed; PostgreSQL allows no column list on a trigger with transition tables."""
        new = ", ".join(f"n.{column}" for column in self.columns)
        old = ", ".join(f"o.{column}" for column in self.columns)
        return (
            f"(SELECT {side[0]}.* FROM new_rows n JOIN old_rows o ON o.id = n.id "
            f"WHERE ({new}) IS DISTINCT FROM ({old})) {side}_changed"
        )

    def _changes(self, changes: _Changes, columns: str) -> str:
        return " UNION ALL ".join(
            f"SELECT owner_id, {sign} AS sign, {columns} FROM {source} WHERE {self.pg_condition}"
            for source, sign in changes
        )

    def _statements(self, stats: str, terms: str, changes: _Changes) -> str:
        collection = f"'{self.collection}'"
        totals = (
            "SELECT owner_id, sum(sign) AS documents, sum(sign * length) AS length FROM ("
            + self._changes(changes, f"{SEARCH_LENGTH.format('search_vector')} AS length")
            + ") d GROUP BY owner_id"
        )
        lexemes = (
            "SELECT owner_id, lexeme, sum(sign) AS documents FROM ("
            + self._changes(changes, "unnest(tsvector_to_array(search_vector)) AS lexeme")
            + ") d GROUP BY owner_id, lexeme"
        )
        statements = [
            # Growth: insert or add, in (owner, lexeme) order so that concurrent
            # writers take the row locks in one order.
            f"INSERT INTO {stats} AS s (owner_id, collection, documents, length) "
            f"SELECT owner_id, {collection}, documents, length FROM ({totals}) t "
            "WHERE documents > 0 OR (documents = 0 AND length > 0) ORDER BY owner_id "
            "ON CONFLICT (owner_id, collection) DO UPDATE SET "
            "documents = s.documents + EXCLUDED.documents, length = s.length + EXCLUDED.length",
            f"INSERT INTO {terms} AS s (owner_id, collection, lexeme, documents) "
            f"SELECT owner_id, {collection}, lexeme, documents FROM ({lexemes}) t "
            "WHERE documents > 0 ORDER BY owner_id, lexeme "
            "ON CONFLICT (owner_id, collection, lexeme) DO UPDATE SET "
            "documents = s.documents + EXCLUDED.documents",
        ]
        if any(sign < 0 for _, sign in changes):
            statements += [
                f"UPDATE {stats} s SET documents = s.documents + t.documents, "
                f"length = s.length + t.length FROM ({totals}) t "
                f"WHERE s.owner_id = t.owner_id AND s.collection = {collection} "
                "AND (t.documents < 0 OR (t.documents = 0 AND t.length < 0))",
                f"UPDATE {terms} s SET documents = s.documents + t.documents "
                f"FROM ({lexemes}) t WHERE s.owner_id = t.owner_id "
                f"AND s.collection = {collection} AND s.lexeme = t.lexeme AND t.documents < 0",
                f"DELETE FROM {terms} s USING ({lexemes}) t WHERE s.owner_id = t.owner_id "
                f"AND s.collection = {collection} AND s.lexeme = t.lexeme AND s.documents <= 0",
            ]
        return "; ".join(statements) + ";"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raw_table = self._table(app_label, state, self.model_name)
        table = schema_editor.quote_name(raw_table)
        stats = schema_editor.quote_name(self._table("memory", state, "searchstatistics"))
        terms = schema_editor.quote_name(self._table("memory", state, "searchterm"))
        function = f"{raw_table}_search_statistics"
        body = (
            "BEGIN IF TG_OP = 'INSERT' THEN "
            + self._statements(stats, terms, [("new_rows", 1)])
            + " ELSIF TG_OP = 'DELETE' THEN "
            + self._statements(stats, terms, [("old_rows", -1)])
            + " ELSE "
            + self._statements(
                stats, terms, [(self._changed("new"), 1), (self._changed("old"), -1)]
            )
            + " END IF; RETURN NULL; END"
        )
        transitions = {
            "INSERT": "NEW TABLE AS new_rows",
            "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
            "DELETE": "OLD TABLE AS old_rows",
        }
        return [
            f"CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$ {body} $$",
            *(
                f"CREATE TRIGGER {function}_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {transition} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
                for event, transition in transitions.items()
            ),
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raw_table = self._table(app_label, state, self.model_name)
        table = schema_editor.quote_name(raw_table)
        function = f"{raw_table}_search_statistics"
        return [
            *(
                f"DROP TRIGGER IF EXISTS {function}_{event} ON {table}"
                for event in ("insert", "update", "delete")
            ),
            f"DROP FUNCTION IF EXISTS {function}()",
        ]


class IndexIdsHeld(VendorSQL):
    """A GIN index over a ``PublicIdsField`` column on PostgreSQL: it answers
    ``<field>__has=<id>`` (array containment) without reading every row of the owner.
    SQLite has no such index; its lookup reads the owner's rows."""

    vendors = ("postgresql",)

    def __init__(self, model_name: str, field_name: str) -> None:
        self.model_name = model_name
        self.field_name = field_name

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.model_name, self.field_name], {})

    def describe(self) -> str:
        return f"Index the ids held in {self.model_name}.{self.field_name}"

    def _index(self, schema_editor: BaseDatabaseSchemaEditor, table: str) -> str:
        return schema_editor.quote_name(f"{table}_{self.field_name}_gin")

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = self._table(app_label, state, self.model_name)
        index, column = self._index(schema_editor, table), schema_editor.quote_name(self.field_name)
        return [f"CREATE INDEX {index} ON {schema_editor.quote_name(table)} USING gin ({column})"]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = self._table(app_label, state, self.model_name)
        return [f"DROP INDEX IF EXISTS {self._index(schema_editor, table)}"]


class AccessRecordWrite(VendorSQL):
    """``memory_access_record_write(...)`` on PostgreSQL: insert one access record, or say
    why not (``memory.services.access_log``).

    Every token read writes its record in its own transaction. The function's exception
    block is a savepoint kept on the server: a failed insert rolls back only itself and
    the transaction carrying the read stays usable, without the two round trips of a
    savepoint set and released by the client. It returns the record's id, or NULL and
    the SQLSTATE of the failure (a code, never a message, which may quote the values).
    A change to the table's columns changes this function too (in a new operation: this
    one stays as migration 0017 ran it; ``AccessRecordWriteFromText`` replaced it).
    """

    vendors = ("postgresql",)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [], {})

    def describe(self) -> str:
        return "Create memory_access_record_write()"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return [_access_record_write_create("uuid[]")]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return [_access_record_write_drop("uuid[]")]


class AccessRecordWriteFromText(VendorSQL):
    """``memory_access_record_write(...)`` again, taking each list of ids as the text of an
    array (``{id,id}``) and reading it as ``uuid[]`` inside its exception block.

    Every token read pays for what it takes to send the ids, recall above all: one text
    value per list costs a fraction of a list of ``UUID`` objects, each adapted apart.
    A value that is not a list of ids fails inside the block, so that it too is refused
    without breaking the read's transaction. Replaces ``AccessRecordWrite``'s function.
    """

    vendors = ("postgresql",)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [], {})

    def describe(self) -> str:
        return "Replace memory_access_record_write() by one that takes the ids as text"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return [_access_record_write_drop("uuid[]"), _access_record_write_create("text")]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return [_access_record_write_drop("text"), _access_record_write_create("uuid[]")]


def _access_record_write_create(ids: str) -> str:
    """``memory_access_record_write()`` taking each list of ids as ``ids``: ``uuid[]``, or
    ``text`` read as ``uuid[]`` inside the exception block."""
    ids_value = "{}" if ids == "uuid[]" else "{}::uuid[]"
    values = ", ".join(
        ids_value.format(name) for name in ("memory_ids", "message_ids", "derived_ids")
    )
    return f"""
        CREATE FUNCTION memory_access_record_write(
            owner_id bigint, public_id uuid, token_id bigint, route varchar,
            request_id varchar, created_at timestamptz, memory_ids {ids},
            message_ids {ids}, derived_ids {ids}, OUT record_id bigint, OUT failure text
        ) LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO memory_accessrecord (owner_id, public_id, token_id, route, request_id,
                                             created_at, memory_ids, message_ids, derived_ids)
            VALUES (owner_id, public_id, token_id, route, request_id, created_at, {values})
            RETURNING id INTO record_id;
            -- The read writes nothing else that matters: its transaction need not wait
            -- for the disk. A crash may lose the last fraction of a second of records,
            -- never half of one.
            PERFORM set_config('synchronous_commit', 'off', true);
        EXCEPTION WHEN OTHERS THEN
            failure := SQLSTATE;
        END
        $$
    """


def _access_record_write_drop(ids: str) -> str:
    return (
        "DROP FUNCTION IF EXISTS memory_access_record_write(bigint, uuid, bigint, varchar, "
        f"varchar, timestamptz, {ids}, {ids}, {ids})"
    )


def count_search_statistics(
    cursor: CursorWrapper, *, owner_id: int, table: str, collection: str, condition: str
) -> None:
    """Count one owner's existing rows into the search statistics (PostgreSQL), for a
    migration that starts ``KeepSearchStatistics`` on a table that already has rows."""
    rows = f"FROM {table} WHERE owner_id = %s AND {condition}"
    cursor.execute(
        "INSERT INTO memory_searchstatistics (owner_id, collection, documents, length) "
        f"SELECT %s, %s, count(*), coalesce(sum({SEARCH_LENGTH.format('search_vector')}), 0) "
        f"{rows}",
        [owner_id, collection, owner_id],
    )
    cursor.execute(
        "INSERT INTO memory_searchterm (owner_id, collection, lexeme, documents) "
        "SELECT %s, %s, lexeme, count(*) FROM (SELECT "
        f"unnest(tsvector_to_array(search_vector)) AS lexeme {rows}) t GROUP BY lexeme",
        [owner_id, collection, owner_id],
    )


# The function ``StoreSearchLength``'s columns are generated with: ``SEARCH_LENGTH`` of a
# vector, immutable as a generated column requires.
SEARCH_LENGTH_FUNCTION = "memory_search_length"


class StoreSearchLength(VendorSQL):
    """Store each searchable row's length for BM25 beside its ``search_vector``, on PostgreSQL.

    Recall divides each candidate's score by its length; worked out from the vector at
    query time (every lexeme of every candidate unnested), it cost more than the rest of
    the scoring together. ``search_length`` is generated from the very expression that
    generates the table's ``search_vector``, read from the catalog when the column is
    added; a migration that changes a vector must add the length again (a test holds
    each table's length to its vector).
    """

    vendors = ("postgresql",)

    def __init__(self, model_names: Sequence[str]) -> None:
        self.model_names = list(model_names)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.model_names], {})

    def describe(self) -> str:
        return f"Store the search length of {', '.join(self.model_names)}"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        function = (
            f"CREATE OR REPLACE FUNCTION {SEARCH_LENGTH_FUNCTION}(vector tsvector) "
            "RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE "
            f"AS $$ SELECT {SEARCH_LENGTH.format('vector')} $$"
        )
        columns = []
        for model_name in self.model_names:
            table = self._table(app_label, state, model_name)
            # The vector's generation expression as PostgreSQL holds it, so that the
            # length is of exactly the vector the rows are searched by.
            columns.append(
                "DO $$ BEGIN EXECUTE format("
                "'ALTER TABLE %I ADD COLUMN search_length integer "
                f"GENERATED ALWAYS AS ({SEARCH_LENGTH_FUNCTION}(%s)) STORED', "
                f"'{table}', (SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d "
                "JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum "
                f"WHERE d.adrelid = '{table}'::regclass AND a.attname = 'search_vector')); "
                "END $$"
            )
        return [function, *columns]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        return [
            *(
                f"ALTER TABLE {schema_editor.quote_name(self._table(app_label, state, name))} "
                "DROP COLUMN search_length"
                for name in self.model_names
            ),
            f"DROP FUNCTION {SEARCH_LENGTH_FUNCTION}(tsvector)",
        ]
