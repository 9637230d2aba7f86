"""Shapes of the reconsolidation routes' requests and responses.

Outputs read the plain data the selectors return; the API speaks of
"memories" where the records say "beliefs". Nothing here decides anything.
"""

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from memory.api.serializers import DerivedOutput, MemoryOutput, StrictSerializer
from reconsolidation.models import Operation

# Named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].
OPERATION_KINDS = Operation.Kind.choices
OPERATION_STATES = Operation.State.choices


class PromoteInput(StrictSerializer):
    expected_revision = serializers.IntegerField(min_value=1)
    statement = serializers.CharField(
        required=False,
        help_text="The memory to keep, in your words; the connection the hypothesis names "
        "otherwise.",
    )


class OriginalOutput(serializers.Serializer):
    """An original memory an operation or a summary read, as it is now."""

    memory_id = serializers.UUIDField(source="belief")
    read_revision = serializers.IntegerField(help_text="The revision that was read.")
    status = serializers.CharField(help_text="Its status now; 'missing' if it is gone.")
    revision = serializers.IntegerField(allow_null=True, help_text="Its revision now.")


class OperationInputOutput(OriginalOutput):
    live = serializers.BooleanField(help_text="Whether it still stands (active or provisional).")
    reason = serializers.CharField(
        allow_blank=True, help_text="Why undo would not restore it, when it is not live."
    )


class OperationDerivedOutput(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    status = serializers.CharField()
    revision = serializers.IntegerField()
    review_state = serializers.CharField()
    restricted = serializers.BooleanField()
    tentative = serializers.BooleanField()
    statement = serializers.CharField(allow_blank=True)


class ReceiptOutput(serializers.Serializer):
    key = serializers.CharField()
    action = serializers.CharField()
    created_at = serializers.DateTimeField()
    result = serializers.DictField(help_text="Ids, statuses and revisions; never memory text.")


class OperationOutput(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=OPERATION_KINDS)
    state = serializers.ChoiceField(choices=OPERATION_STATES)
    revision = serializers.IntegerField()
    policy_version = serializers.CharField()
    invalidation_reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class OperationPageOutput(serializers.Serializer):
    results = OperationOutput(many=True)
    next_changed_since = serializers.CharField(allow_null=True)


class OperationDetailOutput(OperationOutput):
    inputs = OperationInputOutput(many=True)
    outputs = OperationDerivedOutput(many=True)
    receipts = ReceiptOutput(many=True)


class RefusalOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class UndoPreviewOutput(OperationOutput):
    undoable = serializers.BooleanField()
    refusal = RefusalOutput(allow_null=True)
    expected_revision = serializers.IntegerField(
        help_text="Send this back to undo exactly what this preview shows."
    )
    restores = OperationInputOutput(many=True)
    does_not_restore = OperationInputOutput(many=True)
    sets_aside = OperationDerivedOutput(many=True)


class UndoOutput(serializers.Serializer):
    receipt = ReceiptOutput()
    replayed = serializers.BooleanField()


class DerivedControlOutput(serializers.Serializer):
    receipt = ReceiptOutput()
    replayed = serializers.BooleanField()
    derived = DerivedOutput(help_text="The derived memory as it is now.")
    memory = MemoryOutput(required=False, help_text="Promote only: the memory the owner now holds.")


class JournalOriginalOutput(OriginalOutput):
    statement = serializers.CharField(allow_blank=True, help_text="Its text now.")
    tombstone = serializers.BooleanField(help_text="Erased since: only a tombstone remains.")
    href = serializers.SerializerMethodField()

    @extend_schema_field(serializers.CharField())
    def get_href(self, original: Mapping[str, Any]) -> str:
        return reverse("api:memory", args=[original["belief"]])


class JournalClaimOutput(serializers.Serializer):
    position = serializers.IntegerField()
    statement = serializers.CharField(allow_blank=True)
    polarity = serializers.CharField()
    uncertain = serializers.BooleanField()
    supports = JournalOriginalOutput(many=True)


class SummaryJournalOutput(serializers.Serializer):
    id = serializers.UUIDField()
    operation = serializers.UUIDField(help_text="The operation that made the summary.")
    status = serializers.CharField()
    review_state = serializers.CharField()
    revision = serializers.IntegerField()
    restricted = serializers.BooleanField()
    subject = serializers.CharField(allow_blank=True)
    statement = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    claims = JournalClaimOutput(many=True)
    omitted = JournalOriginalOutput(many=True)
