"""A database made while formation and the spend ledger lived in ``memory`` moves forward with
every row: the models change app, the tables (and so the rows) stay, and back again."""

from datetime import date

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from common.principal import principal_context
from formation.models import ConsolidationWatermark, ExtractionAudit, FormationAudit, FormationRetry
from memory.models import Belief
from providers.models import ProviderSpend
from tests.migrations import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

# Where main was before formation and providers were apps of their own.
BEFORE = [("memory", "0021_message_sensitivity"), ("formation", None), ("providers", None)]
MOVED = ("consolidationwatermark", "formationaudit", "extractionaudit", "formationretry")


def rows_written_before(apps, principal):
    """One row of each moved model, and a memory that a formation formed, as the code before
    the move wrote them; returns what a reader should find afterwards."""
    model = lambda name: apps.get_model("memory", name)  # noqa: E731
    now = timezone.now()
    with principal_context(principal):
        session = model("Session").objects.create(
            owner_id=principal.pk, external_id="chat-1", last_activity_at=now
        )
        audit = model("FormationAudit").objects.create(
            owner_id=principal.pk,
            session=session,
            policy_version="formation@4",
            outcome="committed",
            from_sequence=1,
            to_sequence=3,
            committed_count=1,
            rejection_reasons={"secret": 2},
            started_at=now,
        )
        extraction = model("ExtractionAudit").objects.create(
            owner_id=principal.pk, formation=audit, provider="fake", usage={"input_tokens": 12}
        )
        model("FormationRetry").objects.create(
            owner_id=principal.pk,
            session=session,
            attempts=2,
            next_attempt_at=now,
            error_class="OperationalError",
        )
        model("ConsolidationWatermark").objects.create(
            owner_id=principal.pk, session=session, sequence=3
        )
        belief = model("Belief").objects.create(
            owner_id=principal.pk,
            type="fact",
            subject="pet:miso",
            statement="User has a cat named Miso.",
            authority="inferred",
            status="active",
            confidence=0.55,
            formation=audit,
        )
    model("ProviderSpend").objects.create(day=date(2026, 12, 1), committed_micros=250_000, calls=3)
    ContentType.objects.get_or_create(app_label="memory", model="formationaudit")
    return {
        "audit": audit.public_id,
        "extraction": extraction.public_id,
        "belief": belief.public_id,
    }


def test_formation_and_spend_rows_are_read_in_their_new_apps_and_back(owner):
    try:
        written = rows_written_before(migrate(BEFORE), owner)

        migrate(latest())

        with principal_context(owner):
            audit = FormationAudit.objects.get(public_id=written["audit"])
            assert (audit.outcome, audit.committed_count) == ("committed", 1)
            assert audit.rejection_reasons == {"secret": 2}
            assert audit.session.external_id == "chat-1"
            assert Belief.objects.get(public_id=written["belief"]).formation == audit
            extraction = ExtractionAudit.objects.get(public_id=written["extraction"])
            assert (extraction.formation, extraction.usage) == (audit, {"input_tokens": 12})
            retry = FormationRetry.objects.get(session=audit.session)
            assert (retry.attempts, retry.error_class) == (2, "OperationalError")
            assert ConsolidationWatermark.objects.get(session=audit.session).sequence == 3
        spend = ProviderSpend.objects.get(day=date(2026, 12, 1), principal=None)
        assert (spend.committed_micros, spend.calls) == (250_000, 3)
        assert not ContentType.objects.filter(app_label="memory", model__in=MOVED).exists()
        assert ContentType.objects.filter(app_label="formation", model="formationaudit").exists()

        apps = migrate(BEFORE)

        with principal_context(owner):
            before = apps.get_model("memory", "FormationAudit").objects.get(
                public_id=written["audit"]
            )
            assert before.beliefs.get().public_id == written["belief"]
        assert apps.get_model("memory", "ProviderSpend").objects.get().calls == 3
        assert ContentType.objects.filter(app_label="memory", model="formationaudit").exists()
    finally:
        migrate(latest())
