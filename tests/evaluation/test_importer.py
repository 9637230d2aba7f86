"""Importing LoCoMo-format conversations: a principal per speaker, idempotent, strict on format."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from common.principal import principal_context
from evaluation.locomo import DatasetError, load_dataset
from evaluation.services.importer import import_conversations, principal_username
from memory.models import Event, Session

from .fixtures import tiny_dataset, write_tiny_dataset

pytestmark = pytest.mark.django_db


def dataset():
    return load_dataset(json.dumps(tiny_dataset()).encode())


def events_of(username):
    principal = get_user_model().objects.get(username=username)
    with principal_context(principal):
        return list(
            Event.objects.filter(owner=principal, external_id__isnull=False)
            .order_by("session__external_id", "sequence")
            .values("external_id", "event_type", "parts", "occurred_at", "author_name")
        )


def test_each_speaker_gets_a_principal_with_a_copy_of_every_session():
    report = import_conversations(dataset())

    assert report.principals_created == 4
    assert report.sessions_created == 6  # 2 + 2 sessions of conv-a, 1 + 1 of conv-b
    assert report.events_appended == 14
    alice = events_of(principal_username("conv-a", "Alice"))
    bob = events_of(principal_username("conv-a", "Bob"))
    assert [e["external_id"] for e in alice] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2"]
    assert [e["event_type"] for e in alice] == [
        "user.message.created",
        "participant.message.created",
        "user.message.created",
        "participant.message.created",
        "user.message.created",
    ]
    assert [e["event_type"] for e in bob][:2] == [
        "participant.message.created",
        "user.message.created",
    ]
    assert alice[0]["occurred_at"].isoformat() == "2023-05-08T13:56:00+00:00"
    assert alice[1]["author_name"] == "Bob"


def test_an_image_caption_is_a_separate_part():
    import_conversations(dataset())

    dog = events_of(principal_username("conv-a", "Alice"))[1]

    assert dog["parts"] == [
        {"type": "text", "text": "Nice! I adopted a dog named Rex."},
        {"type": "caption", "text": "a photo of a brown dog on a sofa"},
    ]


def test_imported_sessions_are_closed_as_formation_boundaries():
    import_conversations(dataset())

    for principal in get_user_model().objects.filter(username__startswith="locomo-"):
        with principal_context(principal):
            sessions = Session.objects.filter(owner=principal)
            assert sessions.exists()
            assert not sessions.filter(closed_at__isnull=True).exists()


def snapshot():
    """Every imported principal's sessions and events, as (principal, kind, id) rows."""
    rows = set()
    for principal in get_user_model().objects.filter(username__startswith="locomo-"):
        with principal_context(principal):
            rows |= {
                (principal.username, "session", *row)
                for row in Session.objects.filter(owner=principal).values_list(
                    "id", "closed_at", "last_sequence"
                )
            }
            rows |= {
                (principal.username, "event", *row)
                for row in Event.objects.filter(owner=principal).values_list("id", "event_type")
            }
    return rows


def test_a_second_import_changes_nothing():
    import_conversations(dataset())
    before = snapshot()

    report = import_conversations(dataset())

    assert snapshot() == before
    assert (report.principals_created, report.sessions_created, report.events_appended) == (
        0,
        0,
        0,
    )
    assert (report.principals_existing, report.sessions_existing) == (4, 6)


def test_an_interrupted_import_resumes_without_duplicating_turns():
    import_conversations(dataset())
    alice = get_user_model().objects.get(username=principal_username("conv-a", "Alice"))
    with principal_context(alice):
        session = Session.objects.get(owner=alice, external_id="conv-a:session_2")
        # As if the import had stopped before closing this session.
        Session.objects.filter(pk=session.pk).update(closed_at=None)

    report = import_conversations(dataset())

    assert (report.sessions_created, report.events_appended) == (1, 0)
    assert [e["external_id"] for e in events_of(alice.username)].count("D2:2") == 1


def test_quirks_are_tolerated_and_counted():
    report = import_conversations(dataset())

    assert report.quirks == {
        "session dates without a session": 1,
        "evidence ids naming no turn": 1,
    }
    assert (report.questions, report.facts) == (5, 4)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"not json at all", "not JSON"),
        (b"\xff\xfe\x00binary", "not JSON"),
        (b"{}", "expected a non-empty JSON list"),
        (b"[]", "expected a non-empty JSON list"),
        (b'[{"qa": []}]', "no 'conversation' object"),
        (b'[{"conversation": {"speaker_a": "A"}}]', "speaker_a and speaker_b"),
        (b'[{"conversation": {"speaker_a": "A", "speaker_b": "B"}}]', "no sessions"),
    ],
)
def test_a_file_that_is_not_the_format_is_refused(raw, reason):
    with pytest.raises(DatasetError, match=reason):
        load_dataset(raw)


def test_the_command_refuses_a_bad_file_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"conversations": []}')

    with pytest.raises(CommandError, match="is not a LoCoMo-format dataset"):
        call_command("import_conversations", "--format", "locomo", str(bad))

    assert not get_user_model().objects.filter(username__startswith="locomo-").exists()


def test_the_command_imports_and_reports(tmp_path, capsys):
    path = write_tiny_dataset(tmp_path)

    call_command("import_conversations", "--format", "locomo", str(path))
    call_command("import_conversations", "--format", "locomo", str(path))

    out, err = capsys.readouterr()
    assert "sessions: 6 imported, 0 already there" in out
    assert "sessions: 0 imported, 6 already there" in out
    assert "tolerated: 1 session dates without a session" in out
    assert "sessions [" in err  # the progress bar
