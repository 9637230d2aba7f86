"""A real qcluster worker killed with SIGKILL in the middle of a consolidation's transaction
loses nothing and leaves nothing half-written: the prefix stays pending, and the next worker
forms it exactly once.

The worker is stopped inside its write transaction without a hook in the code: the test holds
a row lock on the owner's status count, which the consolidation updates after it has inserted
its audit, memories and sources, waits until PostgreSQL shows the worker blocked on it, and
kills the cluster's whole process group.
"""

import os
import signal
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django_q.tasks import async_task

from common.principal import principal_context
from formation.models import ConsolidationWatermark, FormationAudit
from formation.services import formation_sweep
from memory.models import Belief, BeliefStatusCount
from memory.services.sessions import session_close
from tests.memory.helpers import conversation
from tests.memory.test_worker_end_to_end import database_url, wait_for

from .formation_helpers import later

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BLOCKED_ON_THE_COUNT = """
    SELECT pid FROM pg_stat_activity
    WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE "memory_beliefstatuscount"%%'
"""


def start_cluster():
    """A qcluster in a process group of its own, so that one signal reaches every process."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "SECRET_KEY": "test-only-secret-key",
        "Q_WORKERS": "1",
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def blocked_backends():
    with connection.cursor() as cursor:
        cursor.execute(BLOCKED_ON_THE_COUNT)
        return [pid for (pid,) in cursor.fetchall()]


def has_written(pid):
    with connection.cursor() as cursor:
        cursor.execute("SELECT backend_xid IS NOT NULL FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0]


def backend_alive(pid):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is not None


def formed(owner, session):
    with principal_context(owner):
        return {
            "memories": list(
                Belief.objects.filter(owner=owner).values_list("statement", flat=True)
            ),
            "watermark": ConsolidationWatermark.objects.filter(session=session).exists(),
            "audits": list(
                FormationAudit.objects.filter(session=session).values_list(
                    "outcome", "returned_count", "committed_count", "rejected_count"
                )
            ),
            "provisional": BeliefStatusCount.objects.get(owner=owner, status="provisional").count,
        }


def test_a_worker_killed_inside_the_commit_loses_nothing_and_the_next_forms_it_once(owner):
    session, _ = conversation(owner, "I just got an Apple Watch.")
    session_close(principal=owner, session_id=session.public_id)
    BeliefStatusCount.objects.create(owner=owner, status="provisional", count=0)
    cluster = start_cluster()
    # The lock is held on a connection of its own: the task must be committed to the broker
    # table while the count stays locked.
    holder = psycopg.connect(database_url())
    try:
        holder.execute(
            "SELECT count FROM memory_beliefstatuscount WHERE owner_id = %s AND status = %s "
            "FOR UPDATE",
            [owner.pk, "provisional"],
        )
        async_task("formation.tasks.formation_sweep_task", sync=False)
        assert wait_for(blocked_backends, timeout=60), "the worker never reached the count"
        (worker_backend,) = blocked_backends()
        # It has written (an audit, a memory, its sources) in the transaction it holds open.
        assert has_written(worker_backend)
        os.killpg(cluster.pid, signal.SIGKILL)
        cluster.wait(timeout=30)
        holder.rollback()
        # The orphaned backend gets the row, finds its client gone and rolls back.
        assert wait_for(lambda: not backend_alive(worker_backend), timeout=60)
    finally:
        holder.close()
        if cluster.poll() is None:
            os.killpg(cluster.pid, signal.SIGKILL)

    assert formed(owner, session) == {
        "memories": [],
        "watermark": False,
        "audits": [],
        "provisional": 0,
    }

    audits = formation_sweep(now=later(), extractor=None)
    assert formation_sweep(now=later(), extractor=None) == []

    assert [audit.outcome for audit in audits] == ["committed"]
    after = formed(owner, session)
    assert after["memories"] == ["User owns an Apple Watch."]
    assert after["watermark"] is True
    ((outcome, returned, committed, rejected),) = after["audits"]
    assert (outcome, committed) == ("committed", 1)
    assert returned == committed + rejected
    assert after["provisional"] == 1
