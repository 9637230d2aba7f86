"""When the sensitivity classifier changes, the labels it gave are computed again: the
maintenance sweep visits every owner the current classifier has not labelled yet, gives
their messages the classifier's label and raises (never lowers) their memories' labels."""

import pytest

from common.principal import principal_context
from common.services.flags import flag_set
from memory.enums import MESSAGE_EVENT_TYPES, AuditAction
from memory.maintenance import run_once, schedules
from memory.models import AuditRecord, Belief, Event, LabelsClassified
from memory.sensitivity import CLASSIFIER_VERSION
from memory.services.sensitivity_labels import sensitivity_labels_sweep

from .helpers import conversation, remember

DIABETES = "User was diagnosed with type 2 diabetes."
ORDINARY = "I bought a blue bike for the spring."


def as_an_older_classifier_left_them(principal, events=(), beliefs=(), classifier="0ld"):
    """Labels the classifier before the current one gave: ``events``/``beliefs`` are
    (row, label) pairs."""
    with principal_context(principal):
        for event, label in events:
            Event.objects.filter(pk=event.pk).update(sensitivity=label)
        for belief, label in beliefs:
            Belief.objects.filter(pk=belief.pk).update(sensitivity=label, portability="portable")
    LabelsClassified.objects.update_or_create(
        owner=principal, defaults={"classifier": classifier, "classified_at": "2025-01-01T00:00Z"}
    )


def rows(principal, model, *fields):
    """The principal's rows of ``model``; of events, their messages."""
    with principal_context(principal):
        found = model.objects.filter(owner=principal)
        if model is Event:
            found = found.filter(event_type__in=MESSAGE_EVENT_TYPES)
        return list(found.order_by("pk").values_list(*fields))


@pytest.fixture
def stale(owner):
    _, (said, plain) = conversation(owner, "I was diagnosed with diabetes.", ORDINARY)
    diagnosis = remember(owner, DIABETES)
    chosen = remember(owner, "User likes green tea.", sensitivity="sensitive")
    as_an_older_classifier_left_them(
        owner,
        events=[(said, "normal"), (plain, "sensitive")],
        beliefs=[(diagnosis, "normal")],
    )
    return {"diagnosis": diagnosis, "chosen": chosen}


def test_the_sweep_labels_again_what_an_older_classifier_labelled(owner, stale):
    assert sensitivity_labels_sweep() == 1

    assert rows(owner, Event, "sensitivity") == [("sensitive",), ("normal",)]
    assert rows(owner, Belief, "statement", "sensitivity", "portability", "revision") == [
        (DIABETES, "sensitive", "local", 2),
        ("User likes green tea.", "sensitive", "portable", 1),
    ]
    with principal_context(owner):
        (record,) = AuditRecord.objects.filter(action=AuditAction.RECLASSIFIED)
    assert (record.belief_id, record.actor, record.revision, record.details) == (
        stale["diagnosis"].pk,
        "system",
        2,
        {"sensitivity": ["normal", "sensitive"]},
    )
    assert LabelsClassified.objects.get(owner=owner).classifier == CLASSIFIER_VERSION


def test_an_owner_labelled_by_the_current_classifier_is_not_visited_again(owner, stale):
    sensitivity_labels_sweep()
    with principal_context(owner):
        Event.objects.filter(owner=owner).update(sensitivity="personal")

    assert sensitivity_labels_sweep() == 0
    assert rows(owner, Event, "sensitivity") == [("personal",), ("personal",)]


def test_a_new_classifier_makes_every_owner_due_again(owner, other_owner, monkeypatch):
    _, (mine,) = conversation(owner, "I ride my bike on Sundays.")
    _, (theirs,) = conversation(other_owner, "I ride my bike on Sundays.")
    kept = remember(owner, "User rides a bike on Sundays.")
    assert sensitivity_labels_sweep() == 2

    def bikes_are_sensitive(text):
        return "sensitive" if "bike" in text else "normal"

    monkeypatch.setattr("memory.services.sensitivity_labels.CLASSIFIER_VERSION", "next")
    monkeypatch.setattr("memory.services.message_labels.classify_sensitivity", bikes_are_sensitive)
    monkeypatch.setattr("memory.sensitivity.classify_sensitivity", bikes_are_sensitive)

    assert sensitivity_labels_sweep(batch=1) == 1
    assert rows(owner, Event, "sensitivity") == [("sensitive",)]
    assert rows(other_owner, Event, "sensitivity") == [("normal",)]
    assert rows(owner, Belief, "pk", "sensitivity") == [(kept.pk, "sensitive")]
    assert sensitivity_labels_sweep() == 1
    assert rows(other_owner, Event, "sensitivity") == [("sensitive",)]
    assert sensitivity_labels_sweep() == 0


def test_what_was_built_on_a_raised_memory_is_told(owner, stale, monkeypatch):
    told = []
    monkeypatch.setattr("memory.changes._listeners", [lambda **change: told.append(change)])

    sensitivity_labels_sweep()

    assert told == [{"owner_id": owner.pk, "belief_ids": [stale["diagnosis"].pk], "erased": False}]


def test_the_kill_switch_stops_the_sweep(owner, stale):
    flag_set(key="maintenance_kill_switch", enabled=True, actor=None)

    assert sensitivity_labels_sweep() == 0
    assert rows(owner, Belief, "sensitivity")[0] == ("normal",)


def test_the_sweep_is_scheduled_and_runs_by_hand(owner, stale):
    assert "memory.sensitivity_labels" in [spec["name"] for spec in schedules()]

    assert "labels: 1 owner(s) labelled by the current classifier" in run_once()
