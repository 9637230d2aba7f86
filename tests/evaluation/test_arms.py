"""The evaluation arms' replay of recorded conversations."""

import json
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from common.principal import principal_context
from evaluation.arms import replay_clock
from evaluation.locomo import load_dataset
from evaluation.services.importer import import_conversations, principal_username
from memory.models import Event

from .fixtures import tiny_dataset

pytestmark = pytest.mark.django_db


def test_the_replay_clock_is_the_newest_message_not_the_day_of_the_import():
    import_conversations(load_dataset(json.dumps(tiny_dataset()).encode()))
    alice = get_user_model().objects.get(username=principal_username("conv-a", "Alice"))
    with principal_context(alice):
        messages = Event.objects.filter(owner=alice, external_id__isnull=False)
        newest = max(messages.values_list("occurred_at", flat=True))
        # The import closes each session today: those events are not evidence.
        assert Event.objects.filter(owner=alice, occurred_at__gt=newest).exists()

    assert replay_clock(alice) == newest
    assert newest < datetime(2024, 1, 1, tzinfo=UTC)
