"""The scheduled tick: off until certified, fair across principals, bounded by budgets,
deadlines and the kill switch."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_q.models import Schedule
from django_q.tasks import async_task

from common.principal import principal_context
from common.schedules import schedules_sync
from common.selectors.flags import flag_enabled
from common.services.flags import flag_set
from core.errors import ReverieError
from evaluation import certificates
from memory.models import Belief
from memory.services.beliefs import belief_delete
from reconsolidation.models import BudgetReservation, Cursor, DerivedMemory, Lease
from reconsolidation.services import scheduling
from reconsolidation.services.passes import lease_acquire
from reconsolidation.services.scheduling import principals_due, reconsolidation_tick
from reconsolidation.tasks import reconsolidation_tick_task
from tests.factories import UserFactory
from tests.memory.helpers import remember

HOLDER = "this-worker"


@pytest.fixture(autouse=True)
def small_slices(settings):
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        "pass_interval_seconds": 0,
        "slice_beliefs": 50,
    }


def duplicates(owner, subject="device:kindle"):
    return [
        remember(owner, statement, subject=subject, type="ownership")
        for statement in ("User owns a Kindle.", "user owns kindle")
    ]


def banks(*names):
    principals = [UserFactory(username=name) for name in names]
    for principal in principals:
        duplicates(principal)
    return principals


def passed(report):
    return [entry["principal_id"] for entry in report.passes]


def merged(owner):
    with principal_context(owner):
        return DerivedMemory.objects.filter(owner=owner, kind="merged", status="active").count()


def last_passed(principal, at):
    Cursor.objects.update_or_create(principal=principal, defaults={"last_pass_at": at})


def test_the_flag_is_off_by_default_and_the_tick_does_nothing(owner):
    duplicates(owner)

    report = reconsolidation_tick(holder=HOLDER)

    assert flag_enabled("reconsolidation") is False
    assert (report.stopped, report.passes) == ("off", [])
    assert merged(owner) == 0
    assert not Cursor.objects.exists()
    assert not BudgetReservation.objects.exists()


def test_switching_it_on_without_a_certificate_is_refused_and_says_how(db):
    flag_set(key="reconsolidation_surface", enabled=True)

    with pytest.raises(ReverieError) as refusal:
        flag_set(key="reconsolidation", enabled=True)

    assert refusal.value.code == "conflict"
    assert "needs an evaluation certificate" in refusal.value.message
    assert "manage.py certify --results DIR/results.json --capability reconsolidation" in (
        refusal.value.message
    )
    assert flag_enabled("reconsolidation") is False


def test_a_certificate_of_other_code_does_not_switch_it_on(db, monkeypatch, processing_on):
    assert flag_enabled("reconsolidation") is True

    monkeypatch.setattr(certificates, "code_digest", lambda parts=(): "f" * 64)

    assert flag_enabled("reconsolidation") is False
    assert reconsolidation_tick(holder=HOLDER).stopped == "off"


def test_the_tick_passes_over_never_passed_principals_first_then_the_oldest_pass(
    processing_on,
):
    older, newer, fresh = banks("older", "newer", "fresh")
    now = timezone.now()
    last_passed(older, now - timedelta(hours=2))
    last_passed(newer, now - timedelta(hours=1))

    report = reconsolidation_tick(holder=HOLDER)

    assert passed(report) == [fresh.pk, older.pk, newer.pk]
    assert report.stopped == ""
    assert [merged(p) for p in (older, newer, fresh)] == [1, 1, 1]


def test_one_principal_per_tick_comes_round_to_everyone_before_anyone_twice(processing_on):
    principals = banks("first", "second", "third")

    turns = [passed(reconsolidation_tick(holder=HOLDER, limit=1)) for _ in range(4)]

    ids = [p.pk for p in principals]
    assert sorted(turn for (turn,) in turns[:3]) == ids
    assert turns[3] == turns[0]


def test_a_principal_passed_recently_waits_for_its_interval(settings, processing_on):
    (owner,) = banks("owner")
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        "pass_interval_seconds": 600,
    }
    reconsolidation_tick(holder=HOLDER)

    assert principals_due(10, holder=HOLDER) == []
    later = timezone.now() + timedelta(minutes=11)
    assert principals_due(10, now=later, holder=HOLDER) == [owner]


def test_a_principal_in_the_middle_of_a_full_scan_stays_due(settings, processing_on):
    (owner,) = banks("owner")
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        "pass_interval_seconds": 600,
    }
    Cursor.objects.create(principal=owner, last_pass_at=timezone.now(), scanned_key="abc")

    assert principals_due(10, holder=HOLDER) == [owner]


def test_a_principal_leased_by_another_worker_is_skipped(processing_on):
    leased, free = banks("leased", "free")
    assert lease_acquire(leased, "other-worker")

    report = reconsolidation_tick(holder=HOLDER)

    assert passed(report) == [free.pk]
    assert merged(leased) == 0
    # Once the other worker's lease has expired, the bank is due again.
    Lease.objects.filter(principal=leased).update(expires_at=timezone.now() - timedelta(1))
    assert principals_due(10, holder=HOLDER) == [leased, free]


def test_principals_without_live_memories_are_not_due(owner, other_owner):
    duplicates(owner)
    belief = remember(other_owner, "User owns a bike.", subject="vehicle:bike")
    belief_delete(
        principal=other_owner, belief_id=belief.public_id, expected_revision=belief.revision
    )

    assert principals_due(10, holder=HOLDER) == [owner]


def test_the_kill_switch_stops_the_tick_before_it_starts(processing_on):
    banks("first", "second")
    flag_set(key="maintenance_kill_switch", enabled=True)

    report = reconsolidation_tick(holder=HOLDER)

    assert (report.stopped, report.passes) == ("kill_switch", [])
    assert not BudgetReservation.objects.exists()


def test_the_kill_switch_turned_on_between_principals_stops_the_next(monkeypatch, processing_on):
    first, second, third = banks("first", "second", "third")
    real_pass = scheduling.reconsolidation_pass

    def pass_then_kill(**kwargs):
        report = real_pass(**kwargs)
        flag_set(key="maintenance_kill_switch", enabled=True)
        return report

    monkeypatch.setattr(scheduling, "reconsolidation_pass", pass_then_kill)

    report = reconsolidation_tick(holder=HOLDER)

    assert (passed(report), report.stopped) == ([first.pk], "kill_switch")
    assert [merged(p) for p in (first, second, third)] == [1, 0, 0]


def test_the_deadline_ends_the_tick_between_principals(monkeypatch, processing_on):
    first, _ = banks("first", "second")
    ticks = iter(range(0, 1000, 10))  # every reading of the clock is ten seconds later

    class Clock:
        @staticmethod
        def monotonic():
            return next(ticks)

    monkeypatch.setattr(scheduling, "time", Clock)

    report = reconsolidation_tick(holder=HOLDER, deadline_seconds=15)

    assert (passed(report), report.stopped) == ([first.pk], "deadline")


def test_each_pass_reserves_a_slice_and_settles_with_what_it_read(processing_on):
    owner, other = banks("owner", "other")

    report = reconsolidation_tick(holder=HOLDER)

    reservations = {
        r.principal_id: (r.units, r.state, r.used) for r in BudgetReservation.objects.all()
    }
    assert reservations == {
        entry["principal_id"]: (50, "settled", entry["read"]) for entry in report.passes
    }
    assert {entry["read"] for entry in report.passes} == {2}


def test_a_principal_over_its_share_is_skipped_and_the_others_passed(settings, processing_on):
    spent, thrifty = banks("spent", "thrifty")
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        "budget_units_per_principal_per_day": 60,
    }
    BudgetReservation.objects.create(principal=spent, units=20, created_at=timezone.now())

    report = reconsolidation_tick(holder=HOLDER)

    assert passed(report) == [thrifty.pk]
    assert report.skipped == {spent.pk: "budget"}
    assert merged(spent) == 0
    # Skipped, it keeps its place at the front of the line.
    assert principals_due(10, holder=HOLDER)[0] == spent


def test_an_exhausted_shared_budget_ends_the_tick(settings, processing_on):
    first, second = banks("first", "second")
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        # One slice's reservation fits; after it settles, not another.
        "budget_units_per_day": 51,
    }

    report = reconsolidation_tick(holder=HOLDER)

    assert (passed(report), report.stopped) == ([first.pk], "budget_exhausted")
    assert merged(second) == 0


def test_a_failing_pass_keeps_its_full_reservation_and_the_tick_goes_on(monkeypatch, processing_on):
    broken, healthy = banks("broken", "healthy")
    real_pass = scheduling.reconsolidation_pass

    def failing_for_broken(*, principal, **kwargs):
        if principal.pk == broken.pk:
            raise RuntimeError("simulated failure")
        return real_pass(principal=principal, **kwargs)

    monkeypatch.setattr(scheduling, "reconsolidation_pass", failing_for_broken)

    report = reconsolidation_tick(holder=HOLDER)

    assert passed(report) == [healthy.pk]
    assert report.skipped == {broken.pk: "failed"}
    reservation = BudgetReservation.objects.get(principal=broken)
    assert (reservation.state, reservation.used) == ("reserved", None)


@pytest.mark.postgres
def test_finding_due_principals_reads_no_owner_bearing_row(owner, other_owner):
    duplicates(owner)
    duplicates(other_owner)

    # No principal is set: row-level security hides every belief from this transaction.
    assert not Belief.objects.exists()
    assert principals_due(10, holder=HOLDER) == [owner, other_owner]


def test_the_tick_is_a_scheduled_task_in_the_maintenance_slot(db):
    schedules_sync()
    schedules_sync()

    schedule = Schedule.objects.get(name="reconsolidation.tick")
    assert schedule.func == "reconsolidation.tasks.reconsolidation_tick_task"
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == (Schedule.MINUTES, 1, -1)
    assert reconsolidation_tick_task() == {
        "stopped": "off",
        "passes": [],
        "skipped": {},
        "recovered_calls": 0,
    }


def test_the_queued_task_runs_the_tick(processing_on):
    (owner,) = banks("owner")

    async_task("reconsolidation.tasks.reconsolidation_tick_task")  # synchronous under test settings

    assert merged(owner) == 1


def test_run_maintenance_once_runs_the_tick_too(processing_on):
    (owner,) = banks("owner")
    out = StringIO()

    call_command("run_maintenance", "--once", stdout=out)

    assert "reconsolidation: 1 principal(s) passed, 2 memory(ies) read" in out.getvalue()
    assert merged(owner) == 1


def test_run_maintenance_once_says_when_reconsolidation_is_off(db):
    out = StringIO()

    call_command("run_maintenance", "--once", stdout=out)

    assert "reconsolidation: nothing done (off)" in out.getvalue()
