"""A database made while flags and the worker's heartbeat lived in ``memory`` moves forward
with its rows, and the operators keep their permission to set flags; and back again."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from accounts.operators import operator_grant
from common.models import Flag, Heartbeat
from tests.migrations import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

# Where main was before the shared layer was an app of its own.
BEFORE = [("memory", "0022_formation_and_providers_apps"), ("common", None)]


def test_flag_and_heartbeat_rows_are_read_in_the_shared_layer_and_back(operator):
    seen_at = timezone.now()
    try:
        apps = migrate(BEFORE)
        apps.get_model("memory", "Flag").objects.create(
            key="maintenance_kill_switch", enabled=True, updated_by_id=operator.pk
        )
        apps.get_model("memory", "Heartbeat").objects.create(name="worker", seen_at=seen_at)
        flags = ContentType.objects.get_or_create(app_label="memory", model="flag")[0]
        change_flag = Permission.objects.get_or_create(
            content_type=flags, codename="change_flag", defaults={"name": "Can change flag"}
        )[0]
        operator.user_permissions.add(change_flag)

        migrate(latest())

        flag = Flag.objects.get(key="maintenance_kill_switch")
        assert (flag.enabled, flag.updated_by) == (True, operator)
        assert Heartbeat.objects.get(name="worker").seen_at == seen_at
        assert not ContentType.objects.filter(app_label="memory", model="flag").exists()
        operator = type(operator).objects.get(pk=operator.pk)
        assert operator.has_perm("common.change_flag")

        apps = migrate(BEFORE)

        assert apps.get_model("memory", "Flag").objects.get().key == "maintenance_kill_switch"
        assert apps.get_model("memory", "Heartbeat").objects.get().name == "worker"
        assert ContentType.objects.filter(app_label="memory", model="flag").exists()
    finally:
        migrate(latest())
        # The role is declared in code; a fresh sync gives the operator its permissions back.
        operator_grant(user=operator)
