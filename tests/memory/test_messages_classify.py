"""``manage.py messages_classify`` labels messages again after the classifier changed: in
batches, for every owner or one, printing counts and never text, and telling each owner
whose labels changed."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import OperatorAction
from common.principal import principal_context
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Belief, Event
from memory.services.erasure import event_erase

from .helpers import conversation, remember

SENSITIVE = "My therapist says the anxiety will ease by spring."
ORDINARY = "I bought a blue bike for the spring."


def classify(*args):
    out = StringIO()
    call_command("messages_classify", *args, stdout=out)
    return out.getvalue().strip()


def summary(read, changed, raised, owners):
    return (
        f"messages_classify: {read} message(s) read, {changed} label(s) changed, "
        f"{raised} memory label(s) raised for {owners} owner(s)"
    )


def stale(principal, event, label):
    """The label an older classifier gave ``event``."""
    with principal_context(principal):
        Event.objects.filter(pk=event.pk).update(sensitivity=label)


def labels(principal):
    with principal_context(principal):
        events = Event.objects.filter(owner=principal, event_type__in=MESSAGE_EVENT_TYPES).order_by(
            "pk"
        )
        return list(events.values_list("sensitivity", flat=True))


def relabelled(principal):
    return list(
        OperatorAction.objects.filter(
            principal=principal, action=OperatorAction.Action.OWNER_CONTENT_CHANGED
        ).values_list("target", "via")
    )


@pytest.fixture
def stale_labels(owner, other_owner):
    _, (sensitive, ordinary, erased) = conversation(owner, SENSITIVE, ORDINARY, "I voted early.")
    event_erase(principal=owner, event_id=erased.public_id)
    _, (theirs,) = conversation(other_owner, SENSITIVE)
    stale(owner, sensitive, "normal")
    stale(owner, ordinary, "sensitive")
    stale(other_owner, theirs, "personal")


def test_it_labels_every_owners_messages_again_and_says_only_how_many(
    owner, other_owner, stale_labels
):
    printed = classify("--batch", "1")

    assert printed == summary(3, 3, 0, 2)
    assert labels(owner) == ["sensitive", "normal", "normal"]
    assert labels(other_owner) == ["sensitive"]
    assert relabelled(owner) == relabelled(other_owner) == [("messages_classify", "shell")]


def test_a_second_run_changes_and_records_nothing(owner, other_owner, stale_labels):
    classify()

    assert classify() == summary(3, 0, 0, 0)
    assert len(relabelled(owner)) == 1


def test_it_can_label_one_owners_messages(owner, other_owner, stale_labels):
    printed = classify("--owner", owner.username)

    assert printed == summary(2, 2, 0, 1)
    assert labels(owner) == ["sensitive", "normal", "normal"]
    assert labels(other_owner) == ["personal"]
    assert relabelled(other_owner) == []


def test_a_classifier_that_changed_relabels_what_it_reads_otherwise(owner, monkeypatch):
    _, (message,) = conversation(owner, "I ride my bike on Sundays.")
    monkeypatch.setattr(
        "memory.services.message_labels.classify_sensitivity",
        lambda text: "sensitive" if "bike" in text else "normal",
    )

    classify()

    with principal_context(owner):
        assert Event.objects.get(pk=message.pk).sensitivity == "sensitive"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--owner", "nobody"], "No principal named 'nobody'."),
        (["--batch", "0"], "--batch must be at least 1"),
    ],
)
def test_bad_options_are_refused(db, args, message):
    with pytest.raises(CommandError, match=message):
        classify(*args)


def test_it_raises_memories_an_older_classifier_labelled_lower(owner):
    belief = remember(owner, "User was diagnosed with type 2 diabetes.")
    with principal_context(owner):
        Belief.objects.filter(pk=belief.pk).update(sensitivity="normal")

    printed = classify()

    assert printed == summary(0, 0, 1, 1)
    with principal_context(owner):
        assert Belief.objects.get(pk=belief.pk).sensitivity == "sensitive"
    assert relabelled(owner) == [("messages_classify", "shell")]
