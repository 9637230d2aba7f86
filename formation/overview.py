"""Formation's figures on the operators' overview: counts, amounts and error classes across
principals, never text."""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from common.principal import discovery_context
from formation.models import ExtractionAudit, FormationAudit, FormationRetry
from providers.ledger import spent_today


def formation_totals(*, since: datetime | None = None) -> dict[str, int]:
    """Formation audit totals across principals: counts of outcomes and proposals, no content."""
    with discovery_context("overview"):
        audits = FormationAudit.objects.all()
        if since is not None:
            audits = audits.filter(created_at__gte=since)
        totals = audits.aggregate(
            consolidations=Count("id"),
            returned=Coalesce(Sum("returned_count"), 0),
            committed=Coalesce(Sum("committed_count"), 0),
            reinforced=Coalesce(Sum("reinforced_count"), 0),
            rejected=Coalesce(Sum("rejected_count"), 0),
            failed=Count("id", filter=Q(outcome=FormationAudit.Outcome.FAILED)),
            contention=Count("id", filter=Q(outcome=FormationAudit.Outcome.CONTENTION)),
        )
    return totals


# Given-up sessions the overview lists, most recent first.
GIVEN_UP_LISTED = 20


def formation_retries() -> dict[str, Any]:
    """Sessions whose consolidation failed, across principals: how many wait for a retry and
    how many were given up on until their owners retry them, and the most recent of those
    (owner, attempts, the exception's class, when): never text."""
    with discovery_context("overview"):
        counts = FormationRetry.objects.aggregate(
            retrying=Count("id", filter=Q(gave_up_at__isnull=True)),
            given_up=Count("id", filter=Q(gave_up_at__isnull=False)),
        )
        recent = list(
            FormationRetry.objects.filter(gave_up_at__isnull=False)
            .order_by("-gave_up_at", "-id")
            .values("owner__username", "attempts", "error_class", "gave_up_at")[:GIVEN_UP_LISTED]
        )
    return {**counts, "recent": recent}


def provider_usage(*, since: datetime) -> dict[str, Any]:
    """Provider-assisted formation across principals: today's committed spend against the
    global cap, and the attempts since ``since`` by outcome. Amounts, counts and error
    classes only."""
    with discovery_context("overview"):
        attempts = ExtractionAudit.objects.filter(created_at__gte=since)
        totals = attempts.aggregate(
            attempts=Count("id"),
            fallbacks=Count("id", filter=Q(fallback=True)),
            returned=Coalesce(Sum("returned_count"), 0),
        )
        by_error = dict(
            attempts.filter(fallback=True)
            .values_list("error_class")
            .annotate(count=Count("id"))
            .order_by("error_class")
        )
    return {
        **totals,
        "fallbacks_by_error": by_error,
        "spent_today_usd": spent_today(),
        "daily_cap_usd": settings.REVERIE_PROVIDER_SPEND["daily_usd_global"],
    }


def formation_overview(now: datetime) -> dict[str, dict[str, Any]]:
    """Formation's part of the operators' overview (``memory.selectors.operations``)."""
    return {
        "formation_day": formation_totals(since=now - timedelta(days=1)),
        "formation_all": formation_totals(),
        "formation_retries": formation_retries(),
        "provider_day": provider_usage(since=now - timedelta(days=1)),
    }
