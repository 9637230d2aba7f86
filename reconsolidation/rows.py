"""Writing many rows of one of reconsolidation's tables at once, without a model per row.

A full pass over a large bank writes well over a hundred thousand lineage and claim
support rows: a summary covers every belief of its subject. Building a model instance
for each, and preparing each of its values, costs more than the database takes to
store them.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connections, models, router


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[tuple[object, ...]]
) -> None:
    """Insert ``rows``, tuples of values for ``columns`` of ``model`` as the database
    stores them (ids for foreign keys, ``<name>_id`` columns), in one statement.

    On PostgreSQL each column goes as one array, unnested into rows; elsewhere the
    rows go through ``bulk_create``. Defaults are not applied: every column without a
    database default must be given.
    """
    rows = list(rows)
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            model(**dict(zip(columns, row, strict=True))) for row in rows
        )
        return
    quote = connection.ops.quote_name
    fields = [_column_field(model, column) for column in columns]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field, _ in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(column) for _, column in fields)}) "
            f"SELECT * FROM unnest({arrays})",
            [list(values) for values in zip(*rows, strict=True)],
        )


def _column_field(model: type[models.Model], name: str) -> "tuple[models.Field[Any, Any], str]":
    """The concrete field ``name`` of ``model`` and its column."""
    field = model._meta.get_field(name)
    # Every name given is a concrete field's: a reverse relation or a generic key has no column.
    assert isinstance(field, models.Field) and field.column is not None, name
    return field, field.column
