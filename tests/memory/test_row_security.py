"""Ownership enforced by PostgreSQL itself, beneath the application's own filters."""

import pytest
from django.apps import apps
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.services import api_token_create
from common.models import OwnedModel
from common.principal import current_principal_id, principal_context
from formation.models import (
    Challenge,
    ChallengeSource,
    ConsolidationWatermark,
    ExtractionAudit,
    FormationAudit,
    FormationRetry,
)
from memory.models import Belief, IdempotencyRecord
from memory.services.access_log import access_record
from memory.services.beliefs import belief_delete
from memory.services.sessions import run_complete, run_create
from memory.services.vectors import vectors_embed_principal
from reconsolidation.models import DerivedMemory
from reconsolidation.services.owner_actions import derived_reject
from reconsolidation.services.passes import reconsolidation_pass
from reconsolidation.services.undo import operation_undo

from .helpers import conversation, remember

pytestmark = pytest.mark.postgres

# Content-free tables that maintenance and operators read across principals.
CONTENT_FREE_TABLES = {
    "memory_maintenancedue",
    "memory_beliefstatuscount",
    "memory_searchstatistics",
    "memory_labelsclassified",
    "memory_vectorstate",
}


def owned_models():
    return [model for model in apps.get_models() if issubclass(model, OwnedModel)]


def populate(principal):
    """One row, at least, in every owner-bearing table."""
    session, (message,) = conversation(principal, f"{principal.username} owns a red kayak.")
    run = run_create(principal=principal, session_id=session.public_id)
    run_complete(principal=principal, run_id=run.public_id)
    kayak = remember(principal, f"{principal.username} owns a red kayak.", sources=[message])
    # An assistant's read of it, with what it returned.
    token, _ = api_token_create(principal=principal, name="assistant")
    access_record(
        principal=principal,
        token=token,
        route="api:memory",
        request_id="r",
        memories=[kayak.public_id],
    )
    erased = remember(principal, f"{principal.username} hides a key.", sources=[message])
    belief_delete(principal=principal, belief_id=erased.public_id, expected_revision=1)
    # Two statements of one claim, merged by a reconsolidation pass, and three
    # claims of one subject, summarised by it (claims with their supports).
    remember(principal, f"{principal.username} owns a blue canoe.", subject="vehicle:canoe")
    remember(principal, f"{principal.username} owns the blue canoe", subject="vehicle:canoe")
    for statement in ("owns a Kindle", "reads on the Kindle", "lent the Kindle out"):
        remember(principal, f"{principal.username} {statement}.", subject="device:kindle")
    reconsolidation_pass(principal=principal)
    remember(principal, f"{principal.username} prefers metric units.", subject="pref:units")
    remember(principal, f"{principal.username} prefers imperial units.", subject="pref:units")
    reconsolidation_pass(principal=principal)
    with principal_context(principal):
        notice = DerivedMemory.objects.get(kind="uncertainty_notice")
    # Rejecting the notice leaves a suppression fingerprint.
    derived_reject(principal=principal, derived_id=notice.public_id, expected_revision=1)
    # The memories' vectors, as the maintenance sweep stores them.
    vectors_embed_principal(principal=principal)
    with principal_context(principal):
        merged = DerivedMemory.objects.get(kind="merged")
        # Undoing the merge writes its receipt and reserves the receipt's key.
        operation_undo(
            principal=principal,
            operation_id=merged.operation.public_id,
            expected_revision=1,
            idempotency_key="r",
        )
        now = timezone.now()
        formation = FormationAudit.objects.create(
            owner=principal,
            session=session,
            policy_version="formation@2",
            outcome="committed",
            from_sequence=1,
            to_sequence=1,
            started_at=now,
        )
        ExtractionAudit.objects.create(owner=principal, formation=formation, provider="none")
        ConsolidationWatermark.objects.create(owner=principal, session=session, sequence=1)
        FormationRetry.objects.create(
            owner=principal, session=session, attempts=1, next_attempt_at=now
        )
        IdempotencyRecord.objects.create(
            owner=principal, key="k", fingerprint="f", status_code=201, resource_id="x"
        )
        # A proposal waiting for the owner's decision on the kayak.
        challenge = Challenge.objects.create(
            owner=principal,
            standing=kayak,
            type="ownership",
            subject="vehicle:red-kayak",
            statement=f"{principal.username} no longer owns a red kayak.",
            polarity="negative",
            fingerprint="f",
        )
        ChallengeSource.objects.create(owner=principal, challenge=challenge, event=message)
    return session


def count_rows(table):
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT count(*) FROM "{table}"')
        return cursor.fetchone()[0]


def test_the_database_role_is_neither_superuser_nor_bypassrls(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (False, False)


def test_every_owner_bearing_table_is_under_forced_row_security(db):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, "
            "  EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid) "
            "FROM pg_class c JOIN information_schema.columns col "
            "  ON col.table_name = c.relname AND col.column_name = 'owner_id' "
            "WHERE c.relkind = 'r' AND col.table_schema = current_schema()"
        )
        tables = {name: flags for name, *flags in cursor.fetchall()}

    assert {m._meta.db_table for m in owned_models()} == set(tables) - CONTENT_FREE_TABLES
    for table in set(tables) - CONTENT_FREE_TABLES:
        assert tables[table] == [True, True, True], table


def test_without_a_principal_every_owner_bearing_table_reads_as_empty(owner):
    populate(owner)

    for model in owned_models():
        table = model._meta.db_table
        with principal_context(owner):
            assert count_rows(table) > 0, table
        assert model.objects.count() == 0, table
        assert count_rows(table) == 0, table


def test_a_principal_cannot_read_another_principals_rows(owner, other_owner):
    populate(owner)
    populate(other_owner)

    with principal_context(owner):
        for model in owned_models():
            owners = set(model.objects.values_list("owner_id", flat=True))
            assert owners == {owner.pk}, model.__name__
            with connection.cursor() as cursor:
                cursor.execute(f'SELECT DISTINCT owner_id FROM "{model._meta.db_table}"')
                assert cursor.fetchall() == [(owner.pk,)], model.__name__


def test_a_principal_cannot_change_or_delete_another_principals_rows(owner, other_owner):
    populate(other_owner)
    with principal_context(other_owner):
        theirs = Belief.objects.filter(status="active").order_by("id").first()

    with principal_context(owner):
        assert Belief.objects.filter(pk=theirs.pk).update(statement="hijacked") == 0
        assert Belief.objects.filter(pk=theirs.pk).delete()[0] == 0
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE memory_belief SET statement = 'hijacked' WHERE id = %s", [theirs.pk]
            )
            assert cursor.rowcount == 0
            cursor.execute("DELETE FROM memory_belief WHERE id = %s", [theirs.pk])
            assert cursor.rowcount == 0

    with principal_context(other_owner):
        assert Belief.objects.get(pk=theirs.pk).statement == theirs.statement


def test_a_forged_owner_on_insert_is_refused_and_nothing_is_written(owner, other_owner):
    with principal_context(owner):
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            Belief.objects.create(
                owner=other_owner,
                type="fact",
                subject="topic:forged",
                statement="Forged.",
                authority="explicit",
                status="active",
                confidence=1,
            )
        assert Belief.objects.count() == 0
    with principal_context(other_owner):
        assert Belief.objects.count() == 0


def test_moving_a_row_to_another_owner_is_refused(owner, other_owner):
    belief = remember(owner, "User owns a red kayak.")

    with principal_context(owner):
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            Belief.objects.filter(pk=belief.pk).update(owner=other_owner)
        assert Belief.objects.get(pk=belief.pk).owner_id == owner.pk


def test_writes_without_a_principal_are_refused(owner):
    with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
        Belief.objects.create(
            owner=owner,
            type="fact",
            subject="topic:x",
            statement="Written without a principal.",
            authority="explicit",
            status="active",
            confidence=1,
        )


def test_nested_contexts_restore_the_enclosing_principal(owner, other_owner):
    remember(owner, "Mine.")
    remember(other_owner, "Theirs.")

    with principal_context(owner):
        with principal_context(other_owner):
            assert [b.statement for b in Belief.objects.all()] == ["Theirs."]
            assert current_principal_id() == other_owner.pk
        assert [b.statement for b in Belief.objects.all()] == ["Mine."]
        assert current_principal_id() == owner.pk
    assert Belief.objects.count() == 0
    assert current_principal_id() is None


def test_a_failed_inner_context_leaves_the_enclosing_principal_in_place(owner, other_owner):
    remember(owner, "Mine.")

    with principal_context(owner):
        with pytest.raises(RuntimeError), principal_context(other_owner):
            raise RuntimeError("boom")
        assert [b.statement for b in Belief.objects.all()] == ["Mine."]


@pytest.mark.django_db(transaction=True)
def test_the_principal_does_not_outlive_its_transaction(owner):
    remember(owner, "Mine.")

    with principal_context(owner):
        assert Belief.objects.count() == 1

    # Same connection, next transaction: the setting is gone.
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.principal_id', true)")
        assert cursor.fetchone()[0] in ("", None)
    assert Belief.objects.count() == 0


def test_the_database_is_provisioned_so_recall_can_use_its_indexes(db):
    from django.core.checks import run_checks

    warnings = run_checks(databases=["default"], tags=["database"])

    assert [w.id for w in warnings if w.id.startswith("memory.")] == []
