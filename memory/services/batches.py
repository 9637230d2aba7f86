"""Deleting rows a batch at a time, however many there are."""

from typing import Any

from django.db.models import QuerySet

# Rows deleted per statement. The cascade collector names each deleted row in
# its queries, and PostgreSQL takes at most 65,535 parameters in one: a bank of
# 100,000 memories deleted at once could not be erased.
PURGE_BATCH = 10_000


def delete_in_batches(rows: QuerySet[Any]) -> int:
    """Delete the rows of the QuerySet ``rows``, ``PURGE_BATCH`` to a statement; return how
    many rows went, with those they cascaded to."""
    total = 0
    while batch := list(rows.values_list("pk", flat=True)[:PURGE_BATCH]):
        count, _ = rows.filter(pk__in=batch).delete()
        total += count
    return total
