"""Querysets compiled to SQL once and run many times with new values.

Building a queryset and compiling it costs more CPU than PostgreSQL spends running a
lookup by a unique key, and the statements that every request makes (finding the API
token) pay it each time. A ``CompiledLookup`` compiles its queryset once per thread and
database connection (Django's connections are per thread) and then only swaps the values
in, so the SQL, the select list and the instances built are exactly the ORM's.
"""

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet

# Django's own (the ORM builds related instances with it); django-stubs leaves it out.
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]

_M = TypeVar("_M", bound=Model)


class _Slot(str):
    """A value that marks where a parameter goes in the compiled statement."""


class CompiledLookup(Generic[_M]):
    """``build(*slots)`` returns the queryset, with ``slots`` (one per value passed to
    ``first``) where the values go; ``first(*values)`` then returns the first model
    instance it finds for those values, its ``select_related`` relations populated, or
    None. Annotations are computed by the database but not set on the instance."""

    def __init__(self, build: Callable[..., QuerySet[_M]], *, values: int) -> None:
        self._build = build
        self._values = values
        self._local = threading.local()

    def first(self, *values: object, using: str = "default") -> _M | None:
        if len(values) != self._values:
            raise TypeError(f"expected {self._values} values, got {len(values)}")
        statement = self._statement(using)
        params = list(statement.params)
        for index, value in zip(statement.slots, values, strict=True):
            params[index] = value
        with connections[using].cursor() as cursor:
            cursor.execute(statement.sql, params)
            row = cursor.fetchone()
        return None if row is None else statement.instance(row)

    def _statement(self, using: str) -> "_Statement[_M]":
        compiled: dict[str, _Statement[_M]] = self._local.__dict__.setdefault("statements", {})
        if using not in compiled:
            compiled[using] = _Statement(self._build, self._values, using)
        return compiled[using]


class _Statement(Generic[_M]):
    def __init__(self, build: Callable[..., QuerySet[_M]], values: int, using: str) -> None:
        slots = [_Slot(f"\x00compiled-lookup-slot-{index}") for index in range(values)]
        queryset = build(*slots)[:1]
        compiler = queryset.query.get_compiler(using=using)
        self.sql, params = compiler.as_sql()
        self.params = tuple(params)
        # Each slot once: a value used twice in the queryset would be swapped in
        # only where it was first found.
        if any(self.params.count(slot) != 1 for slot in slots):
            raise ValueError("each value must appear exactly once in the statement")
        self.slots = [self.params.index(slot) for slot in slots]
        self._compiler = compiler
        # The backend's conversions (SQLite's datetimes, say), as the ORM applies them.
        self._converters = compiler.get_converters(
            [column[0] for column in compiler.select[: compiler.col_count]]
        )
        self._model = queryset.model
        self._db = using
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        self._model_columns = slice(fields[0], fields[-1] + 1)
        self._attnames = [column[0].target.attname for column in select[self._model_columns]]
        self._related = get_related_populators(klass_info, select, using)

    def instance(self, row: tuple[Any, ...]) -> _M:
        if self._converters:
            row = next(self._compiler.apply_converters([row], self._converters))
        instance = self._model.from_db(self._db, self._attnames, row[self._model_columns])
        for populator in self._related:
            populator.populate(row, instance)
        return instance
