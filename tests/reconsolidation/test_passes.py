"""A bounded pass over one principal's bank: lease, cursors, kill switch, by-hand command."""

import gc
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from common.principal import principal_context
from common.services.flags import flag_set
from memory.services.beliefs import belief_reject
from reconsolidation.models import Cursor, DerivedMemory, Lease, Operation
from reconsolidation.services import passes
from reconsolidation.services.passes import (
    lease_acquire,
    lease_heartbeat,
    reconsolidation_pass,
)
from reconsolidation.services.undo import operation_undo
from tests.memory.helpers import remember


def duplicates(owner, subject, *statements):
    return [remember(owner, s, subject=subject, type="ownership") for s in statements]


def merged(owner):
    with principal_context(owner):
        return list(
            DerivedMemory.objects.filter(owner=owner, status="active").values_list(
                "subject", flat=True
            )
        )


def test_a_pass_merges_the_equivalent_memories_of_its_principal_only(owner, other_owner):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    duplicates(owner, "device:pixel", "User owns a Pixel.")
    duplicates(other_owner, "device:kindle", "User owns a Kindle.", "user owns the kindle")

    report = reconsolidation_pass(principal=owner)

    assert (report.leased, report.planned, report.outcomes) == (True, 1, {"applied": 1})
    assert merged(owner) == ["device:kindle"]
    assert merged(other_owner) == []
    assert not Lease.objects.exists()  # released


def test_a_pass_plans_and_applies_with_the_cycle_collector_paused_and_resumes_it(
    owner, monkeypatch
):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    seen = []
    real_apply = passes.operations_apply

    def recording_apply(**kwargs):
        seen.append(gc.isenabled())
        return real_apply(**kwargs)

    monkeypatch.setattr(passes, "operations_apply", recording_apply)
    assert gc.isenabled()

    report = reconsolidation_pass(principal=owner)

    assert report.outcomes == {"applied": 1}
    assert seen == [False]
    assert gc.isenabled()


def test_a_second_pass_reads_only_what_changed_and_finds_nothing_new(owner):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    reconsolidation_pass(principal=owner)

    report = reconsolidation_pass(principal=owner, slice_size=10)

    assert report.outcomes in ({}, {"already_applied": 1})
    assert len(merged(owner)) == 1


def test_slices_are_bounded_and_the_full_scan_wraps_around(owner):
    for index in range(5):
        duplicates(owner, f"device:gadget-{index}", f"User owns gadget {index}.")
    cursor = Cursor.objects.create(principal=owner, changed_at=timezone.now())

    reports = [reconsolidation_pass(principal=owner, slice_size=2) for _ in range(3)]

    cursor.refresh_from_db()
    assert [r.read for r in reports] == [2, 2, 1]
    assert [r.full_scan_completed for r in reports] == [False, False, True]
    assert (cursor.scanned_key, cursor.full_scans) == ("", 1)


def test_a_bank_leased_by_another_worker_is_left_alone(owner):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    assert lease_acquire(owner, "other-worker")

    report = reconsolidation_pass(principal=owner, holder="this-worker")

    assert (report.leased, report.stopped) == (False, "leased_elsewhere")
    assert merged(owner) == []


def test_an_expired_lease_is_taken_over(owner):
    Lease.objects.create(
        principal=owner,
        holder="crashed-worker",
        expires_at=timezone.now() - timedelta(seconds=1),
        heartbeat_at=timezone.now() - timedelta(minutes=5),
    )

    assert lease_acquire(owner, "this-worker")
    assert Lease.objects.get(principal=owner).holder == "this-worker"


def test_the_heartbeat_extends_the_lease_at_most_every_thirty_seconds(owner):
    now = timezone.now()
    lease_acquire(owner, "me", now=now)
    first = Lease.objects.get().expires_at

    assert lease_heartbeat(owner, "me", now=now + timedelta(seconds=10))
    assert Lease.objects.get().expires_at == first
    assert lease_heartbeat(owner, "me", now=now + timedelta(seconds=31))
    assert Lease.objects.get().expires_at > first
    assert not lease_heartbeat(owner, "someone-else")


def test_the_kill_switch_stops_a_pass_before_it_starts(owner):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    flag_set(key="maintenance_kill_switch", enabled=True)

    report = reconsolidation_pass(principal=owner)

    assert (report.leased, report.stopped) == (False, "kill_switch")
    assert merged(owner) == []


def test_the_command_runs_one_pass_and_says_what_it_did(owner, processing_on):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    out = StringIO()

    call_command("reconsolidate", "--owner", owner.username, "--once", stdout=out)

    assert "planned 1 operations; outcomes: 1 applied" in out.getvalue()
    assert f"manage.py operations --owner {owner.username}" in out.getvalue()
    with pytest.raises(CommandError, match="no principal 'nobody'"):
        call_command("reconsolidate", "--owner", "nobody", "--once")


def test_the_command_refuses_new_processing_while_the_capability_is_off_and_names_certify(
    owner,
):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")

    with pytest.raises(CommandError) as refusal:
        call_command("reconsolidate", "--owner", owner.username, "--once")

    assert "it is switched off" in str(refusal.value)
    assert "manage.py certify --results DIR/results.json --capability reconsolidation" in str(
        refusal.value
    )
    assert merged(owner) == []


def test_the_command_refuses_a_certified_capability_while_the_surface_is_off(owner, processing_on):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    flag_set(key="reconsolidation_surface", enabled=False)

    with pytest.raises(CommandError, match="off because reconsolidation_surface is off"):
        call_command("reconsolidate", "--owner", owner.username, "--once")

    assert merged(owner) == []


def test_a_dry_run_prints_the_plans_and_writes_nothing(owner):
    first, second = duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    out = StringIO()

    call_command("reconsolidate", "--owner", owner.username, "--dry-run", stdout=out)

    printed = out.getvalue()
    assert "1 operation(s) would be applied (0 done already, 0 dismissed" in printed
    assert "1. merge: User owns a Kindle." in printed
    assert f"from {first.public_id} (revision 1): User owns a Kindle." in printed
    assert f"from {second.public_id} (revision 1): user owns kindle" in printed
    assert (Cursor.objects.count(), Lease.objects.count()) == (0, 0)
    with principal_context(owner):
        assert not Operation.objects.filter(owner=owner).exists()


def test_a_change_after_a_pass_is_planned_first_by_the_next_one(owner):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    duplicates(owner, "device:pixel", "User owns a Pixel.", "user owns the pixel")
    reconsolidation_pass(principal=owner)
    duplicates(owner, "device:kindle", "User owns the Kindle!")

    report = reconsolidation_pass(principal=owner, slice_size=1)

    assert (report.read, report.outcomes, report.full_scan_completed) == (
        3,
        {"applied": 1},
        False,
    )
    with principal_context(owner):
        kindle = DerivedMemory.objects.get(status="active", subject="device:kindle")
        assert kindle.lineage.count() == 3


def test_a_pass_records_a_contradiction_and_suppresses_neither_side(owner):
    owns = remember(owner, "User owns a BMW X3.", subject="vehicle:bmw-x3", type="ownership")
    sold = remember(
        owner,
        "User no longer owns a BMW X3.",
        subject="vehicle:bmw-x3",
        type="ownership",
        polarity="negative",
    )

    report = reconsolidation_pass(principal=owner)
    again = reconsolidation_pass(principal=owner)

    assert report.outcomes == {"applied": 1}
    assert again.outcomes == {"already_applied": 1}
    with principal_context(owner):
        (notice,) = DerivedMemory.objects.filter(owner=owner, kind="uncertainty_notice")
        # Written for people, naming the subject as the memories write it and no side.
        assert notice.statement == "Your memories about BMW X3 may contradict each other."
        assert sorted(notice.lineage.values_list("belief_id", flat=True)) == [owns.pk, sold.pk]
        for belief in (owns, sold):
            belief.refresh_from_db()
            assert (belief.status, belief.revision) == ("active", 1)


def test_resolving_a_contradiction_invalidates_its_notice(owner):
    remember(owner, "User prefers metric units.", subject="pref:units", type="preference")
    imperial = remember(
        owner, "User prefers imperial units.", subject="pref:units", type="preference"
    )
    reconsolidation_pass(principal=owner)

    belief_reject(principal=owner, belief_id=imperial.public_id, expected_revision=1)

    with principal_context(owner):
        (notice,) = DerivedMemory.objects.filter(owner=owner, kind="uncertainty_notice")
    assert notice.status == "invalidated"


def test_a_dry_run_marks_what_the_owner_dismissed_before(owner, processing_on):
    duplicates(owner, "device:kindle", "User owns a Kindle.", "user owns kindle")
    reconsolidation_pass(principal=owner)
    with principal_context(owner):
        merge = Operation.objects.get(owner=owner)
    operation_undo(principal=owner, operation_id=merge.public_id, expected_revision=1)
    Cursor.objects.all().delete()
    out = StringIO()

    call_command("reconsolidate", "--owner", owner.username, "--dry-run", stdout=out)

    assert "0 operation(s) would be applied (0 done already, 1 dismissed" in out.getvalue()
    assert "1. merge [dismissed by the owner: not applied]: User owns a Kindle." in (out.getvalue())
