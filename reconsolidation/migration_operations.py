"""Reconsolidation's migration operations: the full-text index derived memories are found by."""

from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import ProjectState

from common.migration_operations import VendorSQL
from memory.migration_operations import AddFullTextIndex


class AddDerivedFullTextIndex(VendorSQL):
    """Index what a derived memory is found by, for owner-scoped full-text search.

    That is its statement, or, for an uncertainty notice, whose statement is
    the same sentence for every subject, the entity its subject names
    ("person:maria-lopez" is found by "maria lopez").
    PostgreSQL: a generated ``search_vector`` with a GIN index over (owner_id,
    search_vector) for active, unrestricted rows, as ``AddFullTextIndex``.
    SQLite: a contentless FTS5 table ``<table>_fts`` kept by triggers, since the
    indexed text is an expression, not a column.
    """

    vendors = ("postgresql", "sqlite")
    notice = "uncertainty_notice"

    def __init__(self, model_name: str, pg_condition: str) -> None:
        self.model_name = model_name
        self.pg_condition = pg_condition

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.model_name, self.pg_condition], {})

    def describe(self) -> str:
        return f"Add full-text index on what a {self.model_name} is found by"

    def _text(self, vendor: str, row: str = "") -> str:
        find = "strpos" if vendor == "postgresql" else "instr"
        subject, statement = f"{row}subject", f"{row}statement"
        entity = (
            f"replace(replace(substr({subject}, {find}({subject}, ':') + 1), '-', ' '), ':', ' ')"
        )
        return f"CASE WHEN {row}kind = '{self.notice}' THEN {entity} ELSE {statement} END"

    def forwards_sql(
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
                "CREATE EXTENSION IF NOT EXISTS btree_gin",
                f"ALTER TABLE {table} ADD COLUMN search_vector tsvector "
                f"GENERATED ALWAYS AS (to_tsvector('english', {self._text(vendor)})) STORED",
                f"CREATE INDEX {index} ON {table} USING gin (owner_id, search_vector) "
                f"WITH (fastupdate = off) WHERE {self.pg_condition}",
            ]
        fts = schema_editor.quote_name(f"{raw_table}_fts")
        trigger = f"{raw_table}_fts"
        new, old = self._text(vendor, "new."), self._text(vendor, "old.")
        delete = f"INSERT INTO {fts}({fts}, rowid, text) VALUES ('delete', old.id, {old});"
        insert = f"INSERT INTO {fts}(rowid, text) VALUES (new.id, {new});"
        return [
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5(text, content='', "
            "tokenize='porter unicode61')",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_ai AFTER INSERT ON {table} BEGIN {insert} END",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_ad AFTER DELETE ON {table} BEGIN {delete} END",
            f"CREATE TRIGGER IF NOT EXISTS {trigger}_au AFTER UPDATE OF kind, subject, statement "
            f"ON {table} BEGIN {delete} {insert} END",
            f"INSERT INTO {fts}(rowid, text) SELECT id, {self._text(vendor)} FROM {table}",
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        # The same column, index, FTS5 table and trigger names as AddFullTextIndex's.
        plain = AddFullTextIndex(self.model_name, "statement", self.pg_condition)
        sql: list[str] = plain.backwards_sql(vendor, schema_editor, app_label, state)
        return sql
