"""Writing many rows of one of reconsolidation's tables at once, without a model per row.

A full pass over a large bank writes well over a hundred thousand lineage and claim
support rows: a summary covers every belief of its subject. Building a model instance
for each, and preparing each of its values, costs more than the database takes to
store them.
"""

from django.db import connections, router


def rows_insert(model, columns, rows):
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
        model.objects.bulk_create(model(**dict(zip(columns, row, strict=True))) for row in rows)
        return
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(column) for column in columns]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(field.column) for field in fields)}) "
            f"SELECT * FROM unnest({arrays})",
            [list(values) for values in zip(*rows, strict=True)],
        )
