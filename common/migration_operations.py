"""Migration operations for row-level security, which Django's schema editor lacks.

Each is vendor-aware: it runs its PostgreSQL or SQLite statements and is a no-op
elsewhere, so one migration history serves both databases. The apps' own operations
(memory's search indexes and event log, say) build on ``VendorSQL``.
"""

from collections.abc import Iterable
from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import ProjectState

PRINCIPAL_SETTING = "NULLIF(current_setting('app.principal_id', true), '')::bigint"


class VendorSQL(migrations.operations.base.Operation):
    """Run ``forwards_sql()`` / ``backwards_sql()`` for the vendor in ``vendors``."""

    reversible = True
    reduces_to_sql = True
    vendors: tuple[str, ...] = ()

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        pass

    def _table(self, app_label: str, state: ProjectState, model_name: str) -> str:
        return state.apps.get_model(app_label, model_name)._meta.db_table

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raise NotImplementedError

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        raise NotImplementedError

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        vendor = schema_editor.connection.vendor
        if vendor in self.vendors:
            for statement in self.forwards_sql(vendor, schema_editor, app_label, to_state):
                schema_editor.execute(statement, params=None)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        vendor = schema_editor.connection.vendor
        if vendor in self.vendors:
            for statement in self.backwards_sql(vendor, schema_editor, app_label, from_state):
                schema_editor.execute(statement, params=None)


class EnableOwnerRowSecurity(VendorSQL):
    """ENABLE and FORCE row-level security on an owner-bearing table.

    FORCE makes the policy bind the table's owner too, which is the role the
    application connects as. With no principal set, the table reads as empty
    and refuses writes; a row whose ``owner_id`` is not the principal can be
    neither seen nor written.
    """

    vendors = ("postgresql",)

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.model_name], {})

    def describe(self) -> str:
        return f"Enable owner row-level security on {self.model_name}"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        rule = f"owner_id = {PRINCIPAL_SETTING}"
        return [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
            f"CREATE POLICY owner_isolation ON {table} USING ({rule}) WITH CHECK ({rule})",
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [
            f"DROP POLICY IF EXISTS owner_isolation ON {table}",
            f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY",
            f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY",
        ]


class AllowDiscovery(VendorSQL):
    """A read-only policy letting maintenance discovery see ``condition`` rows of every owner.

    Active only while the transaction-local setting ``app.discovery`` names
    ``purpose`` (see ``common.principal.discovery_context``). The rows it
    opens must be content-free: ids, owners, sequences and times.
    """

    vendors = ("postgresql",)

    def __init__(self, model_name: str, purpose: str, condition: str = "true") -> None:
        self.model_name = model_name
        self.purpose = purpose
        self.condition = condition

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (
            self.__class__.__qualname__,
            [self.model_name, self.purpose, self.condition],
            {},
        )

    def describe(self) -> str:
        return f"Allow {self.purpose} discovery on {self.model_name}"

    def _policy(self) -> str:
        return f"{self.purpose}_discovery"

    def forwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [
            f"CREATE POLICY {self._policy()} ON {table} FOR SELECT USING ("
            f"current_setting('app.discovery', true) = '{self.purpose}' AND ({self.condition}))"
        ]

    def backwards_sql(
        self,
        vendor: str,
        schema_editor: BaseDatabaseSchemaEditor,
        app_label: str,
        state: ProjectState,
    ) -> list[str]:
        table = schema_editor.quote_name(self._table(app_label, state, self.model_name))
        return [f"DROP POLICY IF EXISTS {self._policy()} ON {table}"]


class MoveContentTypes(migrations.RunPython):
    """Move the content types of ``models`` from app ``source`` to app ``target``, for models
    that changed app with their tables (state-only operations); backwards, back again.

    Permissions (the operators' on flags, say) and admin log entries point at content
    types: moving the rows keeps them.
    """

    def __init__(self, models: Iterable[str], *, source: str, target: str) -> None:
        self.models, self.source, self.target = tuple(models), source, target
        super().__init__(self.forwards, self.backwards)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        kwargs = {"source": self.source, "target": self.target}
        return (self.__class__.__qualname__, [self.models], kwargs)

    def describe(self) -> str:
        return f"Move the content types of {', '.join(self.models)} to {self.target}"

    def _move(self, apps: Apps, source: str, target: str) -> None:
        content_types = apps.get_model("contenttypes", "ContentType")
        moved = content_types.objects.filter(app_label=source, model__in=self.models)
        moved.update(app_label=target)

    def forwards(self, apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        self._move(apps, self.source, self.target)

    def backwards(self, apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        self._move(apps, self.target, self.source)
