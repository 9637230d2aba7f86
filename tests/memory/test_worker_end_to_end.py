"""The real django-q2 cluster, as `make run` starts it, doing maintenance work."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django_q.tasks import async_task

from common.principal import principal_context
from memory.enums import BeliefStatus
from memory.models import Belief, MaintenanceDue

from .helpers import remember

ROOT = Path(settings.BASE_DIR)


def database_url():
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        user = db["USER"]
        return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return f"sqlite:///{db['NAME']}"


@pytest.fixture
def cluster():
    """A qcluster process on the test database; stopped with SIGTERM, as run.sh does."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "SECRET_KEY": "test-only-secret-key",
        "Q_WORKERS": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield process
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


@pytest.mark.django_db(transaction=True)
def test_the_cluster_runs_a_queued_expiry_sweep(owner, cluster):
    belief = remember(owner, "User has a cold.", expires_at=timezone.now() + timedelta(hours=1))
    past = timezone.now() - timedelta(minutes=1)
    MaintenanceDue.objects.filter(owner=owner).update(due_at=past)
    with principal_context(owner):
        Belief.objects.filter(pk=belief.pk).update(expires_at=past)

    async_task("memory.tasks.belief_expiry_sweep_task", sync=False)

    def expired():
        with principal_context(owner):
            return Belief.objects.get(pk=belief.pk).status == BeliefStatus.EXPIRED

    assert wait_for(expired), "the cluster did not expire the belief"
