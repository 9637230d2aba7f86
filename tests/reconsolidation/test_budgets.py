"""Shared budgets: reserve before work, settle after; unknown usage keeps the full charge."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.errors import ReverieError
from reconsolidation.models import BudgetReservation
from reconsolidation.services import budgets
from reconsolidation.services.budgets import (
    budget_prune,
    budget_remaining,
    budget_reserve,
    budget_settle,
)


@pytest.fixture(autouse=True)
def small_budgets(settings):
    settings.REVERIE_RECONSOLIDATION = {
        **settings.REVERIE_RECONSOLIDATION,
        "budget_units_per_day": 100,
        "budget_units_per_principal_per_day": 60,
    }


def test_a_reservation_within_both_budgets_is_granted_and_counted(owner):
    reservation = budget_reserve(owner, 40)

    assert (reservation.units, reservation.state) == (40, "reserved")
    assert budget_remaining() == 60
    assert budget_remaining(owner) == 20


def test_a_principal_over_its_share_is_refused_while_others_still_reserve(owner, other_owner):
    budget_reserve(owner, 40)

    assert budget_reserve(owner, 30) is None
    assert budget_reserve(other_owner, 30) is not None
    assert BudgetReservation.objects.filter(principal=owner).count() == 1


def test_the_shared_budget_binds_all_principals_together(owner, other_owner, operator):
    budget_reserve(owner, 50)
    budget_reserve(other_owner, 40)

    assert budget_reserve(operator, 20) is None
    assert budget_remaining(operator) == 10


def test_unsettled_reservations_count_in_full(owner):
    budget_reserve(owner, 50)

    assert budget_reserve(owner, 20) is None


def test_settling_with_the_usage_lowers_the_charge(owner):
    reservation = budget_reserve(owner, 50)

    budget_settle(reservation, 5)

    reservation.refresh_from_db()
    assert (reservation.state, reservation.used) == ("settled", 5)
    assert budget_remaining(owner) == 55
    assert budget_reserve(owner, 50) is not None


def test_unknown_usage_keeps_the_full_reservation(owner):
    reservation = budget_reserve(owner, 50)

    budget_settle(reservation, None)

    reservation.refresh_from_db()
    assert (reservation.state, reservation.used) == ("settled", None)
    assert budget_remaining(owner) == 10
    assert budget_reserve(owner, 20) is None


def test_an_overrun_is_charged_as_it_was(owner):
    reservation = budget_reserve(owner, 10)

    budget_settle(reservation, 45)

    assert budget_remaining(owner) == 15


def test_a_reservation_is_settled_once(owner):
    reservation = budget_reserve(owner, 10)
    budget_settle(reservation, 1)

    with pytest.raises(ReverieError) as refusal:
        budget_settle(reservation, 2)

    assert refusal.value.code == "conflict"
    reservation.refresh_from_db()
    assert reservation.used == 1


@pytest.mark.parametrize("units", [0, -3, 2.5, True, "10"])
def test_units_must_be_a_positive_whole_number(owner, units):
    with pytest.raises(ReverieError) as refusal:
        budget_reserve(owner, units)

    assert refusal.value.code == "validation_error"
    assert not BudgetReservation.objects.exists()


def test_usage_must_be_a_whole_number_or_unknown(owner):
    reservation = budget_reserve(owner, 10)

    with pytest.raises(ReverieError) as refusal:
        budget_settle(reservation, -1)

    assert refusal.value.code == "validation_error"
    reservation.refresh_from_db()
    assert reservation.state == "reserved"


def test_reservations_older_than_a_day_no_longer_count_and_are_pruned(owner):
    now = timezone.now()
    budget_reserve(owner, 60, now=now - timedelta(days=1, minutes=1))

    assert budget_remaining(owner, now=now) == 60
    assert budget_prune(now=now) == 1
    assert not BudgetReservation.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_for_the_last_units_get_one_reservation(owner, other_owner, monkeypatch):
    granted, barrier = [], threading.Barrier(2)
    read_room = budgets.budget_remaining

    def slow_read(*args, **kwargs):
        # Widen the gap between reading the room and reserving it.
        room = read_room(*args, **kwargs)
        time.sleep(0.3)
        return room

    monkeypatch.setattr(budgets, "budget_remaining", slow_read)

    def worker(principal):
        try:
            barrier.wait()
            granted.append(budget_reserve(principal, 55))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(p,)) for p in (owner, other_owner)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(r is None for r in granted) == [False, True]
    assert BudgetReservation.objects.count() == 1
