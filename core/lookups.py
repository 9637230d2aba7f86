"""Query lookups the ORM does not ship."""

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Lookup
from django.db.models.sql.compiler import SQLCompiler


class AnyOf(Lookup):
    """``IN`` for a long list of ids or keys: ``AnyOf(F("belief_id"), ids)`` in ``filter``.

    PostgreSQL receives the values as one array parameter, so that the statement is the
    same whatever their number and nothing is done per value: ``__in`` prepares each of
    thousands of values and binds it as a parameter of its own, which costs more than the
    lookup. The array is unnested into a semi-join rather than compared with ``= ANY``:
    once the statement is prepared, a generic plan knows nothing of the array's length
    and may filter every row of the owner against the whole array, where the join probes
    an index once per value. Values are given as the column stores them (integers for
    ids, strings for keys); elsewhere they are bound one by one as ``IN``.
    """

    lookup_name = "any_of"
    prepare_rhs = False

    def get_prep_lookup(self) -> list[Any]:
        return [value for value in dict.fromkeys(self.rhs) if value is not None]

    def as_sql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper
    ) -> tuple[str, tuple[Any, ...]]:
        if not self.rhs:
            raise EmptyResultSet
        lhs, lhs_params = self.process_lhs(compiler, connection)
        if connection.vendor == "postgresql":
            array = f"{self.lhs.output_field.db_type(connection)}[]"
            return f"{lhs} IN (SELECT unnest(%s::{array}))", (*lhs_params, self.rhs)
        return f"{lhs} IN ({', '.join(['%s'] * len(self.rhs))})", (*lhs_params, *self.rhs)
