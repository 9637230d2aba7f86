"""The database cache that holds the sign-in counters when there is no Redis.

Django's ``DatabaseCache``, in a table that ``migrate`` creates (no separate
``createcachetable``), so that every web process counts the same failures.
Counting needs what Django's version does not promise:

- ``incr`` reads and writes the row under a lock in one transaction, keeping
  its expiry. Django's reads, then sets: two processes counting at once lose a
  failure, and the set starts the throttling window again.
- ``add`` over an expired row deletes it first, so that of two processes
  starting a window at once one inserts and the other finds the new row
  (Django's would let both overwrite it and both believe they started it).
- Reads never delete. Django's deletes the expired rows it reads, which on
  PostgreSQL waits for any request that holds one of them.
- Writes never cull. Django's culls a full table by evicting live rows, and
  whoever fills the table with failures must not evict the counts that stop
  them; deleting even expired rows in a request would hold them locked while
  that request waits for others. ``purge_expired`` deletes expired rows
  instead, from the worker (the ``accounts.sign_in_purge`` schedule).

On PostgreSQL these statements run in the request's transaction, so a counter
row stays locked until the sign-in that changed it has answered: sign-ins that
count on the same row (one address, one username at one address) take turns.
"""

import base64
import pickle
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.utils.timezone import now as tz_now

TABLE = "accounts_sign_in_cache"


class SignInDatabaseCache(DatabaseCache):
    # Set by DatabaseCache.__init__ from the table the cache is configured with.
    _table: str

    def _connection(self) -> BaseDatabaseWrapper:
        return connections[router.db_for_write(self.cache_model_class)]

    def _names(self, connection: BaseDatabaseWrapper) -> tuple[str, str, str, str]:
        quote = connection.ops.quote_name
        return quote(self._table), quote("cache_key"), quote("value"), quote("expires")

    @staticmethod
    def _expires(connection: BaseDatabaseWrapper, value: Any) -> datetime:
        expression = models.Expression(output_field=models.DateTimeField())
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        for converter in converters:
            value = converter(value, expression, connection)
        return value

    @staticmethod
    def _now(connection: BaseDatabaseWrapper) -> Any:
        # Expiries are stored to the second, as DatabaseCache writes them.
        return connection.ops.adapt_datetimefield_value(tz_now().replace(microsecond=0))

    def get_many(self, keys: Iterable[str], version: int | None = None) -> dict[str, Any]:
        key_map = {self.make_and_validate_key(key, version=version): key for key in keys}
        if not key_map:
            return {}
        connection = connections[router.db_for_read(self.cache_model_class)]
        table, key_column, value_column, expires_column = self._names(connection)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {key_column}, {value_column}, {expires_column} FROM {table} "
                f"WHERE {key_column} IN ({', '.join(['%s'] * len(key_map))})",
                list(key_map),
            )
            rows = cursor.fetchall()
        now = tz_now()
        return {
            key_map[key]: self._decode(connection, value)
            for key, value, expires in rows
            if self._expires(connection, expires) >= now
        }

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        made_key = self.make_and_validate_key(key, version=version)
        connection = self._connection()
        table, key_column, _, expires_column = self._names(connection)
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {table} WHERE {key_column} = %s AND {expires_column} < %s",
                [made_key, self._now(connection)],
            )
            return super().add(key, value, timeout, version)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        """Add ``delta`` to the number at ``key`` and return it; its expiry stays as it was.

        Raises ``ValueError`` when there is no such key (or it has expired), as Django's does.
        """
        made_key = self.make_and_validate_key(key, version=version)
        connection = self._connection()
        table, key_column, value_column, expires_column = self._names(connection)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            # SQLite has no row locks: its transactions begin IMMEDIATE
            # (config/settings.py), which serialises them instead.
            cursor.execute(
                f"SELECT {value_column}, {expires_column} FROM {table} "
                f"WHERE {key_column} = %s{lock}",
                [made_key],
            )
            row = cursor.fetchone()
            if row is None or self._expires(connection, row[1]) < tz_now():
                raise ValueError(f"Key '{key}' not found")
            value = self._decode(connection, row[0]) + delta
            cursor.execute(
                f"UPDATE {table} SET {value_column} = %s WHERE {key_column} = %s",
                [self._encode(value), made_key],
            )
        return value

    def _cull(self, db: str, cursor: CursorWrapper, now: datetime, num: int) -> None:
        pass

    def purge_expired(self) -> int:
        """Delete the expired rows no transaction holds; return how many were deleted.

        Never waits for a row: run outside a request, its locks last one statement.
        """
        connection = self._connection()
        table, key_column, _, expires_column = self._names(connection)
        skip_locked = (
            " FOR UPDATE SKIP LOCKED"
            if connection.features.has_select_for_update_skip_locked
            else ""
        )
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {table} WHERE {key_column} IN ("
                f"SELECT {key_column} FROM {table} WHERE {expires_column} < %s{skip_locked})",
                [self._now(connection)],
            )
            return cursor.rowcount

    def _encode(self, value: Any) -> str:
        return base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")

    @staticmethod
    def _decode(connection: BaseDatabaseWrapper, stored: Any) -> Any:
        return pickle.loads(base64.b64decode(connection.ops.process_clob(stored).encode()))
