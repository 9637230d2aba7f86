"""Reading who read the owner's memories: their access records, by token and by memory.

Every selector takes the principal and reads only that principal's records; on
PostgreSQL row-level security agrees.
"""

from datetime import timedelta

from django.db.models import Count, Max
from django.utils import timezone

from accounts.models import ApiToken
from accounts.selectors import api_token_list
from memory.models import AccessRecord, AccessRecordFailure


def access_record_list(*, principal, token_id=None, memory_id=None, since=None):
    """The principal's access records, newest first, with their tokens; only those of
    token ``token_id``, those that read memory ``memory_id``, those at or after
    ``since``, when given."""
    records = AccessRecord.objects.filter(owner=principal)
    if token_id is not None:
        records = records.filter(token__public_id=token_id)
    if memory_id is not None:
        records = records.filter(memory_ids__has=memory_id)
    if since is not None:
        records = records.filter(created_at__gte=since)
    return records.select_related("token").order_by("-created_at", "-id")


def access_items(record):
    """``{"memory_ids": [...], "message_ids": [...], "derived_ids": [...]}``: the public ids
    of what ``record``'s answer carried."""
    return {
        "memory_ids": record.memory_ids,
        "message_ids": record.message_ids,
        "derived_ids": record.derived_ids,
    }


def access_reads_by_token(*, principal, since):
    """{token pk: how many reads it made} of the principal's tokens since ``since``."""
    return dict(
        AccessRecord.objects.filter(owner=principal, created_at__gte=since)
        .values_list("token_id")
        .annotate(reads=Count("id"))
        .order_by()
    )


def memory_readers(*, principal, memory_id):
    """Which of the principal's tokens read memory ``memory_id``, how often and when last,
    most recent reader first: ``[{"token": ApiToken, "reads": int, "last_read_at": ...}]``."""
    rows = list(
        AccessRecord.objects.filter(owner=principal, memory_ids__has=memory_id)
        .values("token_id")
        .annotate(reads=Count("id"), last_read_at=Max("created_at"))
        .order_by("-last_read_at")
    )
    tokens = ApiToken.objects.filter(
        principal=principal, pk__in=[row["token_id"] for row in rows]
    ).in_bulk()
    return [
        {
            "token": tokens[row["token_id"]],
            "reads": row["reads"],
            "last_read_at": row["last_read_at"],
        }
        for row in rows
        if row["token_id"] in tokens
    ]


def access_record_failures(*, days=7, today=None):
    """Reads that answered without their access record: today's and the last ``days``
    days' counts, across all principals (the rows name no one)."""
    today = today or timezone.localdate()
    recent = AccessRecordFailure.objects.filter(day__gt=today - timedelta(days=days))
    counts = dict(recent.values_list("day", "count"))
    return {"today": counts.get(today, 0), "recent": sum(counts.values()), "days": days}


def access_by_token(*, principal, now=None, days=7, recent=10):
    """The principal's tokens, newest first, each with how many reads it made in the last
    ``days`` days and its ``recent`` newest access records:
    ``[{"token": ApiToken, "reads": int, "recent": [AccessRecord]}]``."""
    now = now or timezone.now()
    counts = access_reads_by_token(principal=principal, since=now - timedelta(days=days))
    records = access_record_list(principal=principal)
    return [
        {
            "token": token,
            "reads": counts.get(token.pk, 0),
            "recent": list(records.filter(token=token)[:recent]),
        }
        for token in api_token_list(principal=principal, include_revoked=True)
    ]
