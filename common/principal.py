"""The database principal: whose rows the current transaction may see.

On PostgreSQL every owner-bearing table is under FORCE row-level security whose
policies compare ``owner_id`` with the transaction-local setting
``app.principal_id``. ``principal_context`` is the one place that sets it, for
requests (middleware), tasks and commands alike.

The setting is transaction-local (``set_config(..., true)``): a session-wide
value would survive into the next request on a reused connection. So the
context opens an atomic block, and restores the enclosing value on the way out
so that nested contexts behave like a stack. On SQLite, which has no row-level
security, only the application's own owner filters apply and no transaction is
opened for reads.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

if TYPE_CHECKING:
    from accounts.models import User

_current_principal_id: ContextVar[int | None] = ContextVar("reverie_principal_id", default=None)


def current_principal_id() -> int | None:
    """The id set by the innermost ``principal_context``, or None."""
    return _current_principal_id.get()


def _set_database_principal(connection: BaseDatabaseWrapper, value: str) -> None:
    _set_transaction_setting(connection, "app.principal_id", value)


def _set_transaction_setting(connection: BaseDatabaseWrapper, name: str, value: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, %s, true)", [name, value])


@contextmanager
def principal_context(principal: "User | None", *, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Scope the database to ``principal`` (a user or None) for the block."""
    principal_id = None if principal is None else principal.pk
    connection = connections[using]
    previous_id = _current_principal_id.get()
    token = _current_principal_id.set(principal_id)
    if connection.vendor == "postgresql" and (
        principal_id is not None and previous_id == principal_id and connection.in_atomic_block
    ):
        # Already this principal's transaction (a service called from a
        # request, say): nothing to set, nothing to restore, no savepoint.
        try:
            yield
        finally:
            _current_principal_id.reset(token)
        return
    try:
        if connection.vendor != "postgresql":
            yield
            return
        opens_transaction = not connection.in_atomic_block
        with transaction.atomic(using=using):
            # A transaction starts with no principal, which the policies read
            # as nobody; only a nested block has an enclosing value to replace.
            if principal_id is not None or not opens_transaction:
                _set_database_principal(
                    connection, "" if principal_id is None else str(principal_id)
                )
            yield
            # A transaction this block opened ends here and takes its setting
            # with it. Inside an enclosing transaction the enclosing principal
            # comes back by hand on a clean exit; on an exception the
            # savepoint's rollback restores it.
            if not opens_transaction and not connection.needs_rollback:
                _set_database_principal(connection, "" if previous_id is None else str(previous_id))
    finally:
        _current_principal_id.reset(token)


@contextmanager
def principal_transaction(
    principal: "User | None", *, using: str = DEFAULT_DB_ALIAS
) -> Iterator[None]:
    """``principal_context`` in an atomic block: for services that write.

    Outside any transaction, the block is the transaction: on PostgreSQL the
    context already opens one, and a savepoint inside it would only cost two
    round trips. Inside an enclosing transaction it is a savepoint, so that a
    caller that catches the block's exception keeps a usable transaction.
    """
    outermost = not connections[using].in_atomic_block
    with (
        principal_context(principal, using=using),
        transaction.atomic(using=using, savepoint=not outermost),
    ):
        yield


def principal_activate(
    principal: "User", *, already_set: bool = False, using: str = DEFAULT_DB_ALIAS
) -> None:
    """Make ``principal`` the principal of the transaction already open.

    For authentication that happens inside a request: the request middleware
    has opened the transaction (with no principal, for a token-authenticated
    request) and restores the setting when the request ends. ``already_set``:
    the statement that found the principal set it (``principal_setting``).
    """
    connection = connections[using]
    if connection.vendor == "postgresql":
        if not connection.in_atomic_block:
            raise RuntimeError("principal_activate needs an open transaction")
        if not already_set:
            _set_database_principal(connection, str(principal.pk))
    _current_principal_id.set(principal.pk)


def principal_setting(principal_id: str, *, when: str) -> str:
    """PostgreSQL: an expression for the select list of the statement that finds a principal,
    which makes the principal whose id is ``principal_id`` (SQL) the transaction's on the row
    found, if that row meets ``when`` (SQL), and keeps the setting as it was otherwise.

    It saves the round trip of setting it apart, on every authenticated request. ``when``
    must hold exactly when the caller then calls ``principal_activate(principal,
    already_set=True)``: a principal is never set for a row the caller refuses.
    """
    return (
        f"set_config('app.principal_id', CASE WHEN {when} THEN ({principal_id})::text "
        "ELSE coalesce(current_setting('app.principal_id', true), '') END, true)"
    )


@contextmanager
def discovery_context(purpose: str, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Let background work find due work across owners, through content-free rows only.

    On PostgreSQL this opens the read-only discovery policies for ``purpose``
    (``common.migration_operations.AllowDiscovery``) for the block; no
    principal is set, so every other owner-bearing row stays invisible. The
    work found is then done inside each owner's own ``principal_context``.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(using=using):
        _set_transaction_setting(connection, "app.discovery", purpose)
        yield
        if not connection.needs_rollback:
            _set_transaction_setting(connection, "app.discovery", "")
