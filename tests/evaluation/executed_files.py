"""Run a provider capability once in this process and print, as JSON, every project file
whose code ran while it worked: what a code digest must cover, observed rather than inferred
from imports.

``python -m tests.evaluation.executed_files PART DIRECTORY`` (PART: formation_provider or
reconsolidation_provider) migrates a fresh SQLite database in DIRECTORY, prepares an owner's
memories against the loopback fake provider, then records the file of every Python function
called while the capability runs and its memories are deleted (so that what apps hooked into
erasure runs too). The test that runs it lives beside it (test_code_closure.py).
"""

import json
import os
import sys
from pathlib import Path

HOLDER = "executed-files"


def _configure(directory):
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(directory) / 'db.sqlite3'}"
    os.environ["DEBUG"] = "1"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _point_at(fake):
    from django.conf import settings

    from tests.fake_provider import ALLOW

    settings.REVERIE_PROVIDER = {
        **settings.REVERIE_PROVIDER,
        "base_url": fake.base_url,
        "model": "fake-1",
        "api_key": "test-key",
        "input_price": 0.15,
        "output_price": 0.60,
        "residency": "local",
        "timeout_seconds": 30.0,
    }
    settings.REVERIE_EGRESS = {"residency": ["local"], "allow": ALLOW}


def _owner():
    from tests.factories import UserFactory

    return UserFactory(username="owner")


def _delete_all(owner):
    from common.principal import principal_context
    from memory.enums import BeliefStatus
    from memory.models import Belief
    from memory.services.beliefs import belief_delete

    live = [BeliefStatus.PROVISIONAL, BeliefStatus.ACTIVE]
    with principal_context(owner):
        beliefs = list(Belief.objects.filter(owner=owner, status__in=live))
    assert beliefs, "nothing to delete"
    for belief in beliefs:
        belief_delete(
            principal=owner, belief_id=belief.public_id, expected_revision=belief.revision
        )


def formation_provider(fake):
    """Consolidate a conversation with the model's help, then delete what it formed."""
    from formation.extractor import DeterministicExtractor
    from formation.hybrid import HybridExtractor
    from formation.services import formation_consolidate
    from tests.memory.helpers import conversation

    owner = _owner()
    session, (_, portuguese) = conversation(
        owner, "I own a Kindle.", "I started learning Portuguese in 2024."
    )
    fake.set(
        "valid",
        proposals=[
            {
                "type": "fact",
                "subject": "fact:portuguese",
                "statement": "User started learning Portuguese in 2024.",
                "polarity": "positive",
                "source_ids": [str(portuguese.public_id)],
            }
        ],
    )

    def run():
        extractor = HybridExtractor(DeterministicExtractor(), evaluation=True)
        formation = formation_consolidate(
            principal=owner, session_id=session.public_id, extractor=extractor
        )
        assert formation.committed_count >= 2, formation.committed_count
        _delete_all(owner)

    return run


def reconsolidation_provider(fake):
    """A merge review and a topic review with the model's help, then delete the sources of
    what they derived."""
    from reconsolidation.assisted.execution import assisted_review, topic_review
    from reconsolidation.models import DerivedMemory
    from reconsolidation.services.passes import lease_acquire
    from tests.memory.helpers import conversation, remember

    owner = _owner()
    for statement, message in (
        ("User has a dog called Pepper.", "I have a dog called Pepper."),
        ("User's dog is named Pepper.", "My dog is named Pepper."),
    ):
        _, (event,) = conversation(owner, message)
        remember(owner, statement, subject="pet:pepper", sources=[event])

    def run():
        for review in (assisted_review, topic_review):
            assert lease_acquire(owner, HOLDER)
            review(owner, holder=HOLDER, deadline_seconds=30, evaluation=True)
        assert DerivedMemory.objects.filter(owner=owner, status="active").exists()
        _delete_all(owner)

    return run


# What prepares each capability's run, by part; each returns the run itself.
PREPARE = {
    "formation_provider": formation_provider,
    "reconsolidation_provider": reconsolidation_provider,
}


def executed(part, directory):
    _configure(directory)
    from django.conf import settings

    from providers.fake import FakeProvider

    base = Path(settings.BASE_DIR).resolve()
    skipped = [base / "tests", base / ".venv"]
    files = set()

    def profile(frame, event, arg):
        if event == "call":
            files.add(frame.f_code.co_filename)

    with FakeProvider() as fake:
        _point_at(fake)
        run = PREPARE[part](fake)
        # This thread only: the fake provider answers from its own.
        sys.setprofile(profile)
        try:
            run()
        finally:
            sys.setprofile(None)
    project = set()
    for name in files:
        path = Path(name).resolve()
        if path.is_relative_to(base) and not any(path.is_relative_to(s) for s in skipped):
            project.add(str(path.relative_to(base)))
    return sorted(project)


if __name__ == "__main__":
    print(json.dumps(executed(sys.argv[1], sys.argv[2])))
