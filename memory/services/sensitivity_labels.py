"""Labels computed again when the sensitivity classifier changes.

Every message and memory is labelled by the classifier when it is written, so
labels go stale only when the rules change (``memory.sensitivity``). Each
principal records which classifier last labelled all of theirs
(``LabelsClassified``); the maintenance sweep labels again the principals whose
record is missing or names another classifier. Messages take the classifier's
label; a memory's label is only raised, since it may be the owner's own choice.
"""

from dataclasses import dataclass

from django.utils import timezone

from accounts.audit import operator_action_record
from accounts.models import OperatorAction, User
from common.principal import principal_transaction
from common.selectors.flags import flag_enabled
from memory.changes import beliefs_relabelled
from memory.enums import Actor, AuditAction, BeliefStatus, Portability, Sensitivity
from memory.models import Belief, LabelsClassified
from memory.sensitivity import CLASSIFIER_VERSION, sensitivity_raised

from .message_labels import COMMAND, message_labels_refresh
from .records import audit

# Principals labelled again per sweep; a sweep reads each one's whole log.
PRINCIPALS_PER_SWEEP = 10


@dataclass(frozen=True)
class LabelsRecomputed:
    messages_read: int
    messages_changed: int
    memories_raised: int


def _memories_raise(principal: User, *, batch_size: int, from_shell: bool) -> int:
    """Raise the label of every memory of ``principal`` whose words the classifier now
    reads as more sensitive; return how many. Batches as ``message_labels_refresh``."""
    raised = 0
    after = 0
    while True:
        with principal_transaction(principal):
            batch = list(
                Belief.objects.filter(owner=principal, pk__gt=after)
                .exclude(status=BeliefStatus.DELETED)
                .order_by("pk")
                .values_list("pk", "statement", "sensitivity")[:batch_size]
            )
            if not batch:
                break
            after = batch[-1][0]
            due = [pk for pk, text, label in batch if sensitivity_raised(label, text) != label]
            changed = []
            # Locked, then read again: the owner may have corrected or deleted it meanwhile.
            for belief in Belief.objects.select_for_update().filter(pk__in=due).order_by("pk"):
                label = sensitivity_raised(belief.sensitivity, belief.statement)
                if belief.status == BeliefStatus.DELETED or label == belief.sensitivity:
                    continue
                before = belief.sensitivity
                belief.sensitivity = label
                if label == Sensitivity.SENSITIVE:
                    belief.portability = Portability.LOCAL
                belief.revision += 1
                belief.save(update_fields=["sensitivity", "portability", "revision", "updated_at"])
                audit(
                    belief,
                    AuditAction.RECLASSIFIED,
                    actor=Actor.SYSTEM,
                    from_status=belief.status,
                    details={"sensitivity": [str(before), str(label)]},
                )
                changed.append(belief.pk)
            if changed:
                beliefs_relabelled(owner_id=principal.pk, belief_ids=changed)
                if from_shell and not raised:
                    operator_action_record(
                        action=OperatorAction.Action.OWNER_CONTENT_CHANGED,
                        via=OperatorAction.Via.SHELL,
                        principal=principal,
                        target=COMMAND,
                    )
            raised += len(changed)
    return raised


def sensitivity_labels_recompute(
    *, principal: User, batch_size: int = 1000, from_shell: bool = False
) -> LabelsRecomputed:
    """Label every message and memory of ``principal`` again by the current classifier,
    then record that it did. ``from_shell`` tells the owner's operator trail, as
    ``message_labels_refresh`` does."""
    started = timezone.now()
    messages = message_labels_refresh(
        principal=principal, batch_size=batch_size, from_shell=from_shell
    )
    # One mark in the operator trail per run, whichever changed first.
    raised = _memories_raise(
        principal, batch_size=batch_size, from_shell=from_shell and not messages.changed
    )
    LabelsClassified.objects.update_or_create(
        owner=principal, defaults={"classifier": CLASSIFIER_VERSION, "classified_at": started}
    )
    return LabelsRecomputed(
        messages_read=messages.read, messages_changed=messages.changed, memories_raised=raised
    )


def sensitivity_labels_sweep(*, batch: int = PRINCIPALS_PER_SWEEP) -> int:
    """Label again the principals the current classifier has not labelled yet, up to
    ``batch`` of them; return how many. Discovery reads only content-free rows."""
    if flag_enabled("maintenance_kill_switch") or batch <= 0:
        return 0
    current = LabelsClassified.objects.filter(classifier=CLASSIFIER_VERSION).values("owner_id")
    due = User.objects.exclude(pk__in=current).order_by("pk")[:batch]
    count = 0
    for principal in due:
        sensitivity_labels_recompute(principal=principal)
        count += 1
    return count
