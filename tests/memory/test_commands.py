from io import StringIO

from django.core.management import call_command
from django_q.models import Schedule

from accounts.services import api_token_authenticate
from common.principal import principal_context
from memory.demo import OPERATOR, OWNER
from memory.models import Belief, Event
from memory.selectors.recall import recall


def test_the_demo_seed_can_run_twice_and_adds_nothing_the_second_time(db):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)

    from django.contrib.auth import authenticate

    owner = authenticate(username=OWNER[0], password=OWNER[1])
    operator = authenticate(username=OPERATOR[0], password=OPERATOR[1])
    assert owner is not None and not owner.is_staff
    assert operator is not None and operator.is_staff
    with principal_context(owner):
        assert Belief.objects.filter(status="active").count() == 10
        assert Event.objects.filter(event_type="user.message.created").count() == 8
        assert Event.objects.filter(event_type="run.completed").count() == 2
    assert "demo / demo-owner-password" in out.getvalue()
    tokens = [line.split()[-1] for line in out.getvalue().splitlines() if "API token" in line]
    assert len(tokens) == 2
    assert api_token_authenticate(tokens[0]) is None  # the second run replaced it
    assert api_token_authenticate(tokens[1])[0] == owner
    assert sorted(i.text for i in recall(principal=owner, query="watch").items) == [
        "User owns an Apple Watch.",
        "User runs with the Apple Watch.",
    ]


def test_sync_schedules_is_idempotent(db):
    call_command("sync_schedules", stdout=StringIO())
    call_command("sync_schedules", stdout=StringIO())

    assert sorted(Schedule.objects.values_list("name", flat=True)) == [
        "accounts.sign_in_purge",
        "memory.access_purge",
        "memory.belief_expiry_sweep",
        "memory.formation_sweep",
        "memory.idempotency_purge",
        "memory.sensitivity_labels",
        "memory.vectors_sweep",
        "memory.worker_heartbeat",
        "reconsolidation.tick",
    ]
    formation = Schedule.objects.get(name="memory.formation_sweep")
    assert (formation.schedule_type, formation.cron) == (Schedule.CRON, "* * * * * */30")


def test_the_models_and_migrations_agree(db):
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)

    assert "No changes detected" in out.getvalue()
