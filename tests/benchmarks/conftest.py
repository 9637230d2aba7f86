"""A load fixture, as ``manage.py seed_load`` writes it, on the test database."""

import json

import pytest
from django.db import connection

from accounts.services import api_token_create
from tests.factories import UserFactory
from tests.memory.helpers import remember

STATEMENTS = (
    "Maria prefers green tea in the morning.",
    "The garden shed holds the bicycle pump.",
    "Maria walks the dog along the river.",
)


@pytest.fixture
def fixture_file(db, tmp_path):
    """A load fixture as seed_load writes it, for two principals of the test database."""
    principals = []
    for index in range(2):
        user = UserFactory(username=f"load-{index}")
        beliefs = [remember(user, statement) for statement in STATEMENTS]
        _, secret = api_token_create(principal=user, name="load benchmark")
        principals.append(
            {
                "username": user.username,
                "token": secret,
                "session_id": "",
                "memory_ids": [str(belief.public_id) for belief in beliefs],
                "events": 0,
                "statements": [],
            }
        )
    path = tmp_path / "load_fixture.json"
    path.write_text(
        json.dumps(
            {
                "database": connection.settings_dict["NAME"],
                "postgresql": "",
                "leakproof": True,
                "seed": 7,
                "beliefs_per_principal": len(STATEMENTS),
                "messages_per_principal": 0,
                "principals": principals,
                "vocabulary": ["maria", "tea", "garden", "bicycle", "river", "dog"],
            }
        )
    )
    return path
