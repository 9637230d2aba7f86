"""Reading who read the owner's memories: their access records, by token and by memory.

Every selector takes the principal and reads only that principal's records; on
PostgreSQL row-level security agrees.
"""

import uuid
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TypedDict

from django.db.models import Count, Max, QuerySet
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.selectors import api_token_list
from memory.models import AccessRecord, AccessRecordFailure


def access_record_list(
    *,
    principal: User,
    token_id: uuid.UUID | None = None,
    memory_id: uuid.UUID | str | None = None,
    since: datetime | None = None,
) -> QuerySet[AccessRecord]:
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


class AccessItems(TypedDict):
    """What a read's answer carried: public ids, as the record keeps them."""

    memory_ids: list[str]
    message_ids: list[str]
    derived_ids: list[str]


def access_items(record: AccessRecord) -> AccessItems:
    """``{"memory_ids": [...], "message_ids": [...], "derived_ids": [...]}``: the public ids
    of what ``record``'s answer carried."""
    return {
        "memory_ids": record.memory_ids,
        "message_ids": record.message_ids,
        "derived_ids": record.derived_ids,
    }


def access_reads_by_token(*, principal: User, since: datetime) -> dict[int, int]:
    """{token pk: how many reads it made} of the principal's tokens since ``since``."""
    return dict(
        AccessRecord.objects.filter(owner=principal, created_at__gte=since)
        .values_list("token_id")
        .annotate(reads=Count("id"))
        .order_by()
    )


class MemoryReader(TypedDict):
    """One token that read a memory: how often, and when last."""

    token: ApiToken
    reads: int
    last_read_at: datetime


def memory_readers(*, principal: User, memory_id: uuid.UUID | str) -> list[MemoryReader]:
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


class AccessRecordFailures(TypedDict):
    """Reads answered without their access record: today's and the last ``days`` days'."""

    today: int
    recent: int
    days: int


def access_record_failures(*, days: int = 7, today: date | None = None) -> AccessRecordFailures:
    """Reads that answered without their access record: today's and the last ``days``
    days' counts, across all principals (the rows name no one)."""
    today = today or timezone.localdate()
    recent = AccessRecordFailure.objects.filter(day__gt=today - timedelta(days=days))
    counts = dict(recent.values_list("day", "count"))
    return {"today": counts.get(today, 0), "recent": sum(counts.values()), "days": days}


# How many of a token's newest records the Access page gathers into its recent reads.
RECENT_RECORDS = 500


class TokenAccess(TypedDict):
    """One token with its reads of the last days and its recent groups of reads."""

    token: ApiToken
    reads: int
    last_used_at: datetime | None
    recent: list["ReadGroup"]


def access_by_token(
    *,
    principal: User,
    now: datetime | None = None,
    days: int = 7,
    recent: int = 10,
    first_routes: Collection[str] = (),
) -> list[TokenAccess]:
    """The principal's tokens, newest first, each with how many reads it made in the last
    ``days`` days, when it was last used (a request it authenticated, or a read it made,
    whichever is later) and its ``recent`` newest groups of reads (``access_read_groups``,
    those through ``first_routes`` first):
    ``[{"token": ApiToken, "reads": int, "last_used_at": datetime | None,
    "recent": [ReadGroup]}]``."""
    now = now or timezone.now()
    counts = access_reads_by_token(principal=principal, since=now - timedelta(days=days))
    last_reads = dict(
        AccessRecord.objects.filter(owner=principal)
        .values_list("token_id")
        .annotate(last=Max("created_at"))
        .order_by()
    )
    records = access_record_list(principal=principal)
    rows: list[TokenAccess] = []
    for token in api_token_list(principal=principal, include_revoked=True):
        used = [at for at in (token.last_used_at, last_reads.get(token.pk)) if at is not None]
        newest = list(records.filter(token=token)[:RECENT_RECORDS])
        rows.append(
            {
                "token": token,
                "reads": counts.get(token.pk, 0),
                "last_used_at": max(used) if used else None,
                "recent": access_read_groups(newest, first_routes=first_routes)[:recent],
            }
        )
    return rows


@dataclass
class ReadGroup:
    """Reads of one token through one route within one hour, gathered: an assistant that
    lists memories every few seconds makes one line, not a page of them."""

    route: str
    count: int
    first_at: datetime
    last_at: datetime
    memory_ids: list[str] = field(default_factory=list)
    messages: int = 0
    derived: int = 0


def access_read_groups(
    records: Iterable[AccessRecord], *, first_routes: Collection[str] = ()
) -> list[ReadGroup]:
    """``records`` (one token's, newest first) gathered by route and hour, newest first,
    the groups through ``first_routes`` (recall, say) before the others."""
    groups: dict[tuple[str, datetime], ReadGroup] = {}
    for record in records:
        key = (record.route, record.created_at.replace(minute=0, second=0, microsecond=0))
        group = groups.get(key)
        if group is None:
            group = groups[key] = ReadGroup(record.route, 0, record.created_at, record.created_at)
        group.count += 1
        group.first_at = min(group.first_at, record.created_at)
        group.last_at = max(group.last_at, record.created_at)
        group.memory_ids += [id for id in record.memory_ids if id not in group.memory_ids]
        group.messages += len(record.message_ids)
        group.derived += len(record.derived_ids)
    newest = sorted(groups.values(), key=lambda group: group.last_at, reverse=True)
    return sorted(newest, key=lambda group: group.route not in first_routes)


def access_summary(
    *, principal: User, now: datetime | None = None, days: int = 7
) -> tuple[int, int, datetime | None]:
    """For the owner's home page: ``(tokens in use, reads in the last days, last read at)``."""
    now = now or timezone.now()
    tokens = api_token_list(principal=principal).count()
    reads = AccessRecord.objects.filter(owner=principal, created_at__gte=now - timedelta(days=days))
    return tokens, reads.count(), reads.aggregate(last=Max("created_at"))["last"]
