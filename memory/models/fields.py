"""Model fields the database backends do not share."""

import json
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Lookup
from django.db.models.expressions import Expression
from django.db.models.sql.compiler import SQLCompiler

if TYPE_CHECKING:
    from django.db.models.sql.compiler import _AsSqlType

    # What a model's attribute takes (ids as UUIDs or their strings) and gives back.
    _PublicIdsFieldBase = models.Field[Iterable[uuid.UUID | str] | None, list[str]]
    # The value a lookup takes: one id, as a UUID or its string (the type checker's
    # Django plugin reads only a plain class here, not a union).
    _PublicIdsLookupBase = Lookup[object]
else:
    _PublicIdsFieldBase = models.Field
    _PublicIdsLookupBase = Lookup


class PublicIdsField(_PublicIdsFieldBase):
    """A list of public ids (UUIDs) in one column: ``uuid[]`` on PostgreSQL, a JSON array
    of the ids' hex digits on SQLite (as Django stores a UUID there). Python sees a list
    of id strings, in the order written.

    ``<field>__has=<id>`` keeps the rows whose list holds that id.
    """

    description = "A list of public ids"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("default", list)
        super().__init__(*args, **kwargs)

    def db_type(self, connection: BaseDatabaseWrapper) -> str:
        return "uuid[]" if connection.vendor == "postgresql" else "text"

    def from_db_value(
        self,
        value: str | list[uuid.UUID] | None,
        expression: Expression | None,
        connection: BaseDatabaseWrapper | None,
    ) -> list[str] | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = json.loads(value)
        return [str(uuid.UUID(str(item))) for item in value]

    def to_python(self, value: Any) -> list[str] | None:
        if value is None or isinstance(value, list):
            return value
        return self.from_db_value(value, None, None)

    def get_db_prep_value(
        self,
        value: Iterable[uuid.UUID | str] | None,
        connection: BaseDatabaseWrapper,
        prepared: bool = False,
    ) -> list[uuid.UUID] | str | None:
        if value is None:
            return None
        ids = [item if isinstance(item, uuid.UUID) else uuid.UUID(str(item)) for item in value]
        if connection.vendor == "postgresql":
            return ids
        return json.dumps([item.hex for item in ids])


@PublicIdsField.register_lookup
class PublicIdsHave(_PublicIdsLookupBase):
    lookup_name = "has"
    prepare_rhs = False

    def get_db_prep_lookup(  # type: ignore[override]  # the stubs take only str and int parameters; the driver takes a UUID as well
        self, value: uuid.UUID | str, connection: BaseDatabaseWrapper
    ) -> tuple[str, list[uuid.UUID | str]]:
        value = value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
        return "%s", [value if connection.vendor == "postgresql" else value.hex]

    def as_sql(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper) -> "_AsSqlType":
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return (
            f"EXISTS (SELECT 1 FROM json_each({lhs}) WHERE json_each.value = {rhs})",
            (*lhs_params, *rhs_params),
        )

    def as_postgresql(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper) -> "_AsSqlType":
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        # Containment, which a GIN index over the column answers.
        return f"{lhs} @> ARRAY[{rhs}]::uuid[]", (*lhs_params, *rhs_params)
