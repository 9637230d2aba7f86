"""Relabelling messages when the sensitivity classifier changes.

A message is labelled by ``classify_sensitivity`` when it is appended, and the
label decides what a token kept from sensitive things reads. A changed
classifier leaves the labels of older messages as the old one read them until
they are labelled again here.
"""

from dataclasses import dataclass

from accounts.audit import operator_action_record
from accounts.models import OperatorAction, User
from common.principal import principal_transaction
from memory.enums import MESSAGE_EVENT_TYPES
from memory.models import Event
from memory.screening import classify_sensitivity

COMMAND = "messages_classify"


@dataclass(frozen=True)
class LabelsRefreshed:
    read: int
    changed: int


def message_labels_refresh(
    *, principal: User, batch_size: int = 1000, from_shell: bool = True
) -> LabelsRefreshed:
    """Label again every message of ``principal`` that still holds text; return how many
    were read and how many labels changed.

    A message's label is the classifier's alone, so it may go down as well as up.
    Each batch is its own short transaction, so appends and erasures of the owner
    wait for one batch at most; a run stopped halfway leaves every label it wrote
    right, and running it again finishes the rest. Run ``from_shell``, the first
    batch that changes a label records, in its transaction, that the
    administrator's shell changed the owner's content (the owner sees it on their
    account page); nothing of the text is recorded or returned.
    """
    read = changed = 0
    after = 0
    recorded = False
    while True:
        with principal_transaction(principal):
            batch = list(
                Event.objects.filter(
                    owner=principal,
                    event_type__in=MESSAGE_EVENT_TYPES,
                    redacted_at__isnull=True,
                    pk__gt=after,
                )
                .order_by("pk")
                .values_list("pk", "text", "sensitivity")[:batch_size]
            )
            if not batch:
                break
            after = batch[-1][0]
            read += len(batch)
            relabelled: dict[str, list[int]] = {}
            for pk, text, label in batch:
                if (new := classify_sensitivity(text)) != label:
                    relabelled.setdefault(str(new), []).append(pk)
            for label, ids in relabelled.items():
                # Not a message erased since it was read: erasure takes its label with
                # its text, and the event log refuses any change to it after.
                changed += Event.objects.filter(
                    owner=principal, pk__in=ids, redacted_at__isnull=True
                ).update(sensitivity=label)
            if from_shell and changed and not recorded:
                operator_action_record(
                    action=OperatorAction.Action.OWNER_CONTENT_CHANGED,
                    via=OperatorAction.Via.SHELL,
                    principal=principal,
                    target=COMMAND,
                )
                recorded = True
    return LabelsRefreshed(read=read, changed=changed)
