from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule
from django_q.tasks import async_task

from common.principal import principal_context
from common.schedules import schedules_sync
from common.services.flags import flag_set
from memory.enums import BeliefStatus
from memory.models import AuditRecord, Belief, MaintenanceDue
from memory.services.expiry import belief_expiry_sweep

from .helpers import remember

SOON = timedelta(hours=1)
LATER = timedelta(days=2)


def status_of(principal, belief):
    with principal_context(principal):
        return Belief.objects.get(pk=belief.pk).status


def due_at(principal):
    row = MaintenanceDue.objects.filter(owner=principal, kind="belief_expiry").first()
    return row and row.due_at


def test_remembering_with_an_expiry_schedules_the_sweep(owner):
    now = timezone.now()
    remember(owner, "User is in Rome until Friday.", expires_at=now + LATER)
    remember(owner, "User has a cold.", expires_at=now + SOON)

    assert due_at(owner) == now + SOON


def test_the_sweep_expires_beliefs_past_their_expiry_and_nothing_else(owner):
    now = timezone.now()
    soon = remember(owner, "User has a cold.", expires_at=now + SOON)
    later = remember(owner, "User is in Rome until Friday.", expires_at=now + LATER)
    forever = remember(owner, "User likes tea.")

    expired = belief_expiry_sweep(now=now + SOON + timedelta(seconds=1))

    assert expired == 1
    assert status_of(owner, soon) == BeliefStatus.EXPIRED
    assert status_of(owner, later) == BeliefStatus.ACTIVE
    assert status_of(owner, forever) == BeliefStatus.ACTIVE
    assert due_at(owner) == now + LATER
    with principal_context(owner):
        audit = AuditRecord.objects.get(action="expired")
    assert (audit.actor, audit.revision, audit.belief_id) == ("system", 2, soon.pk)


def test_the_sweep_drops_the_due_time_when_nothing_is_left_to_expire(owner):
    remember(owner, "User has a cold.", expires_at=timezone.now() + SOON)

    belief_expiry_sweep(now=timezone.now() + LATER)

    assert due_at(owner) is None


def test_the_sweep_visits_every_due_principal_in_its_own_context(owner, other_owner):
    mine = remember(owner, "User has a cold.", expires_at=timezone.now() + SOON)
    theirs = remember(other_owner, "User has the flu.", expires_at=timezone.now() + SOON)

    assert belief_expiry_sweep(now=timezone.now() + LATER) == 2

    assert status_of(owner, mine) == status_of(other_owner, theirs) == BeliefStatus.EXPIRED


def test_the_batch_limit_bounds_a_sweep_oldest_due_first(owner, other_owner):
    now = timezone.now()
    theirs = remember(other_owner, "User has the flu.", expires_at=now + SOON)
    mine = remember(owner, "User has a cold.", expires_at=now + SOON + timedelta(minutes=1))

    assert belief_expiry_sweep(now=now + LATER, batch=1) == 1

    assert status_of(other_owner, theirs) == BeliefStatus.EXPIRED
    assert status_of(owner, mine) == BeliefStatus.ACTIVE


@pytest.mark.parametrize("batch", [0, -1])
def test_a_non_positive_batch_expires_nothing(owner, batch):
    belief = remember(owner, "User has a cold.", expires_at=timezone.now() + SOON)

    assert belief_expiry_sweep(now=timezone.now() + LATER, batch=batch) == 0
    assert status_of(owner, belief) == BeliefStatus.ACTIVE


def test_the_kill_switch_stops_the_sweep(owner):
    belief = remember(owner, "User has a cold.", expires_at=timezone.now() + SOON)
    flag_set(key="maintenance_kill_switch", enabled=True)

    assert belief_expiry_sweep(now=timezone.now() + LATER) == 0
    assert status_of(owner, belief) == BeliefStatus.ACTIVE


def test_the_sweep_runs_as_a_queued_task(owner):
    belief = remember(owner, "User has a cold.", expires_at=timezone.now() + SOON)
    MaintenanceDue.objects.filter(owner=owner).update(due_at=timezone.now() - SOON)
    with principal_context(owner):
        Belief.objects.filter(pk=belief.pk).update(expires_at=timezone.now() - SOON)

    async_task("memory.tasks.belief_expiry_sweep_task")  # synchronous under test settings

    assert status_of(owner, belief) == BeliefStatus.EXPIRED


def test_syncing_schedules_twice_leaves_one_row_per_schedule(db):
    schedules_sync()
    schedules_sync()

    schedule = Schedule.objects.get(name="memory.belief_expiry_sweep")
    assert schedule.func == "memory.tasks.belief_expiry_sweep_task"
    assert Schedule.objects.filter(name="memory.belief_expiry_sweep").count() == 1
