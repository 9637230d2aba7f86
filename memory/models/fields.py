"""Model fields the database backends do not share."""

import json
import uuid

from django.db import models
from django.db.models import Lookup


class PublicIdsField(models.Field):
    """A list of public ids (UUIDs) in one column: ``uuid[]`` on PostgreSQL, a JSON array
    of the ids' hex digits on SQLite (as Django stores a UUID there). Python sees a list
    of id strings, in the order written.

    ``<field>__has=<id>`` keeps the rows whose list holds that id.
    """

    description = "A list of public ids"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", list)
        super().__init__(*args, **kwargs)

    def db_type(self, connection):
        return "uuid[]" if connection.vendor == "postgresql" else "text"

    def from_db_value(self, value, expression, connection):
        if value is None:
            return None
        if isinstance(value, str):
            value = json.loads(value)
        return [str(uuid.UUID(str(item))) for item in value]

    def to_python(self, value):
        if value is None or isinstance(value, list):
            return value
        return self.from_db_value(value, None, None)

    def get_db_prep_value(self, value, connection, prepared=False):
        if value is None:
            return None
        ids = [item if isinstance(item, uuid.UUID) else uuid.UUID(str(item)) for item in value]
        if connection.vendor == "postgresql":
            return ids
        return json.dumps([item.hex for item in ids])


@PublicIdsField.register_lookup
class PublicIdsHave(Lookup):
    lookup_name = "has"
    prepare_rhs = False

    def get_db_prep_lookup(self, value, connection):
        value = value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
        return "%s", [value if connection.vendor == "postgresql" else value.hex]

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return (
            f"EXISTS (SELECT 1 FROM json_each({lhs}) WHERE json_each.value = {rhs})",
            (*lhs_params, *rhs_params),
        )

    def as_postgresql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        # Containment, which a GIN index over the column answers.
        return f"{lhs} @> ARRAY[{rhs}]::uuid[]", (*lhs_params, *rhs_params)
