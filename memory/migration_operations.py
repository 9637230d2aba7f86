"""Migration operations for database features Django's schema editor lacks.

Each is vendor-aware: it runs its PostgreSQL or SQLite statements and is a
no-op elsewhere, so one migration history serves both databases.
"""

from django.db import migrations

PRINCIPAL_SETTING = "NULLIF(current_setting('app.principal_id', true), '')::bigint"


class _VendorSQL(migrations.operations.base.Operation):
    """Run ``forwards_sql()`` / ``backwards_sql()`` for the vendor in ``vendors``."""

    reversible = True
    reduces_to_sql = True
    vendors = ()

    def state_forwards(self, app_label, state):
        pass

    def _table(self, app_label, state, model_name):
        return state.apps.get_model(app_label, model_name)._meta.db_table

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        vendor = schema_editor.connection.vendor
        if vendor in self.vendors:
            for statement in self.forwards_sql(vendor, schema_editor, app_label, to_state):
                schema_editor.execute(statement, params=None)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        vendor = schema_editor.connection.vendor
        if vendor in self.vendors:
            for statement in self.backwards_sql(vendor, schema_editor, app_label, from_state):
                schema_editor.execute(statement, params=None)


class EnableOwnerRowSecurity(_VendorSQL):
    """ENABLE and FORCE row-level security on an owner-bearing table.

    FORCE makes the policy bind the table's owner too, which is the role the
    application connects as. With no principal set, the table reads as empty
    and refuses writes; a row whose ``owner_id`` is not the principal can be
    neither seen nor written.
    """

    vendors = ("postgresql",)

    def __init__(self, model_name):
        self.model_name = model_name

    def deconstruct(self):
        return (self.__class__.__qualname__, [self.model_name], {})

    def describe(self):
        return f"Enable owner row-level security on {self.model_name}"

    def forwards_sql(self, vendor, schema_editor, app_label, state):
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        rule = f"owner_id = {PRINCIPAL_SETTING}"
        return [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
            f"CREATE POLICY owner_isolation ON {table} USING ({rule}) WITH CHECK ({rule})",
        ]

    def backwards_sql(self, vendor, schema_editor, app_label, state):
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [
            f"DROP POLICY IF EXISTS owner_isolation ON {table}",
            f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY",
            f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY",
        ]


class AddFullTextIndex(_VendorSQL):
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

    def __init__(self, model_name, text_column, pg_condition):
        self.model_name = model_name
        self.text_column = text_column
        self.pg_condition = pg_condition

    def deconstruct(self):
        return (
            self.__class__.__qualname__,
            [self.model_name, self.text_column, self.pg_condition],
            {},
        )

    def describe(self):
        return f"Add full-text index on {self.model_name}.{self.text_column}"

    def forwards_sql(self, vendor, schema_editor, app_label, state):
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

    def backwards_sql(self, vendor, schema_editor, app_label, state):
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


class MakeEventLogAppendOnly(_VendorSQL):
    """A trigger refusing every UPDATE of an event except erasure.

    Erasure sets ``redacted_at`` and blanks ``parts`` and ``text`` in one
    statement, once. Anything else, from any code path, is refused by the
    database, so the log stays the trustworthy record formation replays.
    """

    vendors = ("postgresql", "sqlite")

    def deconstruct(self):
        return (self.__class__.__qualname__, [], {})

    def describe(self):
        return "Make the event log append-only"

    def forwards_sql(self, vendor, schema_editor, app_label, state):
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

    def backwards_sql(self, vendor, schema_editor, app_label, state):
        table = self._table(app_label, state, "event")
        statements = [
            f"DROP TRIGGER IF EXISTS {table}_append_only"
            + (f" ON {table}" if vendor == "postgresql" else "")
        ]
        if vendor == "postgresql":
            statements.append(f"DROP FUNCTION IF EXISTS {table}_append_only()")
        return statements


class AllowDiscovery(_VendorSQL):
    """A read-only policy letting maintenance discovery see ``condition`` rows of every owner.

    Active only while the transaction-local setting ``app.discovery`` names
    ``purpose`` (see ``memory.principal.discovery_context``). The rows it
    opens must be content-free: ids, owners, sequences and times.
    """

    vendors = ("postgresql",)

    def __init__(self, model_name, purpose, condition="true"):
        self.model_name = model_name
        self.purpose = purpose
        self.condition = condition

    def deconstruct(self):
        return (
            self.__class__.__qualname__,
            [self.model_name, self.purpose, self.condition],
            {},
        )

    def describe(self):
        return f"Allow {self.purpose} discovery on {self.model_name}"

    def _policy(self):
        return f"{self.purpose}_discovery"

    def forwards_sql(self, vendor, schema_editor, app_label, state):
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [
            f"CREATE POLICY {self._policy()} ON {table} FOR SELECT USING ("
            f"current_setting('app.discovery', true) = '{self.purpose}' AND ({self.condition}))"
        ]

    def backwards_sql(self, vendor, schema_editor, app_label, state):
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [f"DROP POLICY IF EXISTS {self._policy()} ON {table}"]


# Every SQLite trigger of the project, by the operation that creates it. SQLite
# alters a table by rebuilding it, which silently drops its triggers.
_SQLITE_TRIGGER_OPERATIONS = (
    lambda: AddFullTextIndex("belief", "statement", pg_condition=""),
    lambda: AddFullTextIndex("event", "text", pg_condition=""),
    MakeEventLogAppendOnly,
)


class RestoreSQLiteTriggers(_VendorSQL):
    """Re-create the SQLite triggers that a table rebuild dropped.

    Every migration that alters ``memory_belief`` or ``memory_event`` must end
    with this operation; a test checks that the triggers exist.
    """

    vendors = ("sqlite",)

    def deconstruct(self):
        return (self.__class__.__qualname__, [], {})

    def describe(self):
        return "Restore the SQLite triggers of beliefs and events"

    def forwards_sql(self, vendor, schema_editor, app_label, state):
        statements = []
        for make in _SQLITE_TRIGGER_OPERATIONS:
            statements += make().forwards_sql(vendor, schema_editor, app_label, state)
        return statements

    def backwards_sql(self, vendor, schema_editor, app_label, state):
        return []


class IndexMessageAuthors(_VendorSQL):
    """Index each message's author name with its text, weighted below the text.

    Replaces the message index of ``AddFullTextIndex("event", "text", ...)``:
    PostgreSQL's generated ``search_vector`` becomes the text at weight A and
    the author's name at weight B (``ts_rank`` counts B at 0.4 of A); SQLite's
    FTS5 table gets an ``author_name`` column, which the search ranks at 0.4 of
    the text with ``bm25`` column weights. So "What did Caroline say about
    pottery?" can match Caroline's messages, and a message that says "Caroline"
    still outranks one that is merely hers.
    """

    vendors = ("postgresql", "sqlite")

    def __init__(self, pg_condition):
        self.pg_condition = pg_condition

    def deconstruct(self):
        return (self.__class__.__qualname__, [self.pg_condition], {})

    def describe(self):
        return "Index message authors with message text"

    def _previous(self):
        return AddFullTextIndex("event", "text", self.pg_condition)

    def forwards_sql(self, vendor, schema_editor, app_label, state):
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

    def backwards_sql(self, vendor, schema_editor, app_label, state):
        previous = self._previous()
        return [
            *previous.backwards_sql(vendor, schema_editor, app_label, state),
            *previous.forwards_sql(vendor, schema_editor, app_label, state),
        ]
