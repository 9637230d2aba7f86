"""Shapes of the API's requests and responses.

Input serializers check shapes and types only and refuse unknown fields; the
services own every rule about what is allowed. Output serializers read model
rows the selectors already scoped to the principal.

Each input serializer names the shape of its validated data (a ``TypedDict``), which
``ApiView.input`` returns and the services receive.
"""

import threading
from datetime import datetime
from typing import Any, Generic, NotRequired, TypedDict, TypeVar, cast
from uuid import UUID

from django.utils.functional import cached_property
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict

from core.errors import HTTP_STATUS_BY_CODE
from memory.enums import (
    LIVE_BELIEF_STATUS_CHOICES,
    MESSAGE_EVENT_TYPE_CHOICES,
    SCOPE_PATTERN,
    BeliefType,
    PartType,
    Polarity,
    Portability,
    Sensitivity,
)
from memory.models import Belief
from memory.selectors.recall import recall_includes
from memory.selectors.recall_context import AFTER, BEFORE, MAX_CONTEXT_TURNS
from memory.services.sessions import AUTHOR_NAME_MAX_CHARS, EXTERNAL_ID_MAX_CHARS
from memory.text import SUBJECT_MAX_CHARS, SUBJECT_PATTERN

_Data = TypeVar("_Data")


def subject_field() -> serializers.RegexField:
    return serializers.RegexField(
        SUBJECT_PATTERN,
        max_length=SUBJECT_MAX_CHARS,
        required=False,
        allow_null=True,
        default=None,
        help_text="The conflict key: '<kind>:<entity>', e.g. 'device:apple-watch'.",
    )


def scope_field() -> serializers.RegexField:
    return serializers.RegexField(
        SCOPE_PATTERN,
        required=False,
        help_text=(
            "'principal' (every assistant of the owner) or 'assistant:<slug>'; by default "
            "the token's own scope (the principal's for a token of full reach)."
        ),
    )


# ``_Data`` is the shape of the validated data. (Said here, not in the docstring: the API
# schema describes each input by the docstring its serializer inherits.)
class StrictSerializer(serializers.Serializer, Generic[_Data]):
    """Refuses fields it does not know, so a typo is an error rather than ignored."""

    def to_internal_value(self, data: Any) -> _Data:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(dict.fromkeys(unknown, ["Unknown field."]))
        return super().to_internal_value(data)


class DocumentedChoiceField(serializers.ChoiceField):
    """A value the schema lists the allowed choices of, passed on as given: the selector
    or service it goes to checks it, so that the rule has one home and one error."""

    def to_internal_value(self, data: Any) -> Any:
        return data


class DocumentedIntegerField(serializers.IntegerField):
    """An integer the schema documents as at least ``minimum`` (and at most ``maximum``),
    bounded by the selector or service it goes to, so that the rule has one home and one
    error."""

    def __init__(self, *, minimum: int, maximum: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Read by the schema only: set after ``__init__``, they add no validator.
        self.min_value = minimum
        self.max_value = maximum


# -- errors --------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(HTTP_STATUS_BY_CODE))
    message = serializers.CharField()
    details = serializers.DictField()
    request_id = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


# -- sessions, events, runs ----------------------------------------------------


class SessionCreateData(TypedDict):
    scope: NotRequired[str]
    external_id: NotRequired[str | None]


class SessionCreateInput(StrictSerializer[SessionCreateData]):
    scope = scope_field()
    external_id = serializers.CharField(
        required=False, allow_null=True, max_length=EXTERNAL_ID_MAX_CHARS
    )


class SessionOutput(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    external_id = serializers.CharField(allow_null=True)
    scope = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_activity_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    erased_at = serializers.DateTimeField(allow_null=True)
    last_sequence = serializers.IntegerField()


class PartData(TypedDict):
    type: str
    text: str


class PartInput(StrictSerializer[PartData]):
    type = serializers.ChoiceField(choices=PartType.choices, default=PartType.TEXT)
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)


class EventAppendData(TypedDict):
    type: str
    parts: list[PartData]
    author_name: str
    external_id: NotRequired[str | None]
    occurred_at: NotRequired[datetime | None]


class EventAppendInput(StrictSerializer[EventAppendData]):
    type = serializers.ChoiceField(choices=MESSAGE_EVENT_TYPE_CHOICES)
    parts = PartInput(many=True)
    author_name = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=AUTHOR_NAME_MAX_CHARS
    )
    external_id = serializers.CharField(
        required=False, allow_null=True, max_length=EXTERNAL_ID_MAX_CHARS
    )
    occurred_at = serializers.DateTimeField(required=False, allow_null=True)


class PartOutput(serializers.Serializer):
    type = serializers.CharField()
    text = serializers.CharField()


class EventOutput(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    session_id = serializers.UUIDField(source="session.public_id")
    sequence = serializers.IntegerField()
    type = serializers.CharField(source="event_type")
    author_kind = serializers.CharField()
    author_name = serializers.CharField()
    parts = PartOutput(many=True)
    payload = serializers.DictField()
    external_id = serializers.CharField(allow_null=True)
    sensitivity = serializers.CharField(
        help_text="normal, personal or sensitive: read from the text when it was appended; "
        "a token kept from sensitive things never reads a sensitive message."
    )
    occurred_at = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    redacted_at = serializers.DateTimeField(allow_null=True)


class RunFailData(TypedDict):
    error_code: str


class RunFailInput(StrictSerializer[RunFailData]):
    error_code = serializers.CharField(required=False, default="", allow_blank=True)


class RunOutput(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    session_id = serializers.UUIDField(source="session.public_id")
    status = serializers.CharField()
    error_code = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


# -- memories --------------------------------------------------------------------


class MemoryRememberData(TypedDict):
    statement: str
    type: str
    subject: str | None
    polarity: str
    confidence: NotRequired[float]
    scope: NotRequired[str]
    portability: str
    sensitivity: str
    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None
    source_event_ids: list[UUID]


class MemoryRememberInput(StrictSerializer[MemoryRememberData]):
    statement = serializers.CharField()
    type = serializers.ChoiceField(choices=BeliefType.choices, default=BeliefType.FACT)
    subject = subject_field()
    polarity = serializers.ChoiceField(choices=Polarity.choices, default=Polarity.POSITIVE)
    confidence = serializers.FloatField(required=False, min_value=0, max_value=1)
    scope = scope_field()
    portability = serializers.ChoiceField(choices=Portability.choices, default=Portability.PORTABLE)
    sensitivity = serializers.ChoiceField(choices=Sensitivity.choices, default=Sensitivity.NORMAL)
    valid_from = serializers.DateTimeField(required=False, allow_null=True, default=None)
    valid_until = serializers.DateTimeField(required=False, allow_null=True, default=None)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    source_event_ids = serializers.ListField(
        child=serializers.UUIDField(), required=False, default=list
    )


class RevisionData(TypedDict):
    expected_revision: int


class RevisionInput(StrictSerializer[RevisionData]):
    expected_revision = serializers.IntegerField(min_value=1)


class MemoryCorrectData(TypedDict):
    expected_revision: int
    statement: str
    subject: str | None
    polarity: NotRequired[str]
    sensitivity: NotRequired[str]
    valid_from: datetime | None
    valid_until: datetime | None
    expires_at: datetime | None


class MemoryCorrectInput(StrictSerializer[MemoryCorrectData]):
    expected_revision = serializers.IntegerField(min_value=1)
    statement = serializers.CharField()
    subject = subject_field()
    polarity = serializers.ChoiceField(choices=Polarity.choices, required=False)
    sensitivity = serializers.ChoiceField(choices=Sensitivity.choices, required=False)
    valid_from = serializers.DateTimeField(required=False, allow_null=True, default=None)
    valid_until = serializers.DateTimeField(required=False, allow_null=True, default=None)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class SourceOutput(serializers.Serializer):
    event_id = serializers.UUIDField(source="event.public_id")
    session_id = serializers.UUIDField(source="event.session.public_id")
    sequence = serializers.IntegerField(source="event.sequence")
    excerpt = serializers.CharField()


class MemoryOutput(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    type = serializers.CharField()
    subject = serializers.CharField()
    statement = serializers.CharField()
    polarity = serializers.CharField()
    authority = serializers.CharField()
    status = serializers.CharField()
    needs_review = serializers.BooleanField()
    confidence = serializers.FloatField()
    scope = serializers.CharField()
    portability = serializers.CharField()
    sensitivity = serializers.CharField()
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_until = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    supersedes = serializers.SerializerMethodField()
    superseded_by = serializers.SerializerMethodField()
    revision = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    sources = SourceOutput(many=True, source="sources.all")

    @extend_schema_field(serializers.UUIDField(allow_null=True))
    def get_supersedes(self, belief: Belief) -> UUID | None:
        # No query for a memory that supersedes none: the id is on the row.
        return belief.supersedes.public_id if belief.supersedes is not None else None

    @extend_schema_field(serializers.UUIDField(allow_null=True))
    def get_superseded_by(self, belief: Belief) -> UUID | None:
        # The reverse side of ``supersedes``: missing (not None) on a memory none supersedes.
        successor: Belief | None = getattr(belief, "superseded_by", None)
        return successor.public_id if successor is not None else None


DERIVED_KINDS = ["merged", "summary", "hypothesis", "uncertainty_notice"]


class DerivedOutput(serializers.Serializer):
    """A memory derived from originals (a merge, summary, hypothesis or uncertainty notice).

    Never evidence and never an original: it is read at ``/derived/{id}``, not
    at ``/memories/{id}``. A restricted one withholds its text.
    """

    id = serializers.UUIDField()
    derived_kind = serializers.ChoiceField(choices=DERIVED_KINDS)
    status = serializers.ChoiceField(
        choices=["active", "invalidated", "undone", "expired", "promoted", "rejected", "deleted"]
    )
    tentative = serializers.BooleanField(help_text="An inference (a hypothesis), not evidence.")
    review_state = serializers.ChoiceField(choices=["unreviewed", "reviewed"])
    restricted = serializers.BooleanField(
        help_text="Hidden from recall and reads by its owner; its text is withheld."
    )
    statement = serializers.CharField(allow_blank=True)
    subject = serializers.CharField(allow_blank=True)
    subject_label = serializers.CharField(
        allow_blank=True, help_text="The subject as the owner's memories write it."
    )
    type = serializers.CharField()
    polarity = serializers.CharField()
    authority = serializers.CharField()
    scope = serializers.CharField()
    sensitivity = serializers.CharField()
    portability = serializers.CharField()
    confidence = serializers.FloatField()
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_until = serializers.DateTimeField(allow_null=True)
    evidence_at = serializers.DateTimeField(
        allow_null=True, help_text="The newest evidence of its sources, never its own time."
    )
    expires_at = serializers.DateTimeField(allow_null=True)
    revision = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    operation_id = serializers.UUIDField(allow_null=True)
    memory_ids = serializers.ListField(
        child=serializers.UUIDField(), help_text="The original memories it concerns."
    )
    omitted_memory_ids = serializers.ListField(
        child=serializers.UUIDField(),
        help_text="Summaries only: originals it read but left out (over its claim cap).",
    )


class MemoryPageOutput(serializers.Serializer):
    results = MemoryOutput(many=True)
    next_changed_since = serializers.CharField(allow_null=True)
    derived = DerivedOutput(
        many=True,
        required=False,
        help_text="With include=derived only: the derived memories, newest change first.",
    )


class ChangeOutput(serializers.Serializer):
    memory_id = serializers.UUIDField(source="belief.public_id")
    action = serializers.CharField()
    actor = serializers.CharField()
    revision = serializers.IntegerField(allow_null=True)
    from_status = serializers.CharField()
    to_status = serializers.CharField()
    at = serializers.DateTimeField(source="created_at")


class HistoryOutput(serializers.Serializer):
    memory_id = serializers.UUIDField(source="belief.public_id")
    versions = MemoryOutput(many=True)
    changes = ChangeOutput(many=True)


# -- recall -----------------------------------------------------------------------


# Recall's options read from JSON; ``memory.selectors.recall`` checks their values, so
# the choices are whatever JSON values the caller sent.
class RecallData(TypedDict):
    query: str
    types: NotRequired[list[object]]
    statuses: NotRequired[list[object]]
    since: datetime | None
    include: list[object]
    limit: NotRequired[int]
    budget_chars: NotRequired[int]
    context_turns: NotRequired[int]


class RecallInput(StrictSerializer[RecallData]):
    query = serializers.CharField(required=False, default="", allow_blank=True, max_length=2000)
    types = serializers.ListField(
        child=DocumentedChoiceField(choices=BeliefType.choices), required=False
    )
    statuses = serializers.ListField(
        child=DocumentedChoiceField(choices=LIVE_BELIEF_STATUS_CHOICES),
        required=False,
    )
    since = serializers.DateTimeField(required=False, allow_null=True, default=None)
    include = serializers.ListField(
        child=DocumentedChoiceField(choices=()), required=False, default=list
    )
    limit = DocumentedIntegerField(required=False, minimum=1)
    budget_chars = DocumentedIntegerField(required=False, minimum=1)
    context_turns = DocumentedIntegerField(
        required=False,
        minimum=0,
        maximum=MAX_CONTEXT_TURNS,
        help_text=(
            "Give each message item up to this many turns before and after it in its "
            "conversation, as its context (0 by default)."
        ),
    )

    # Per thread: the fields built for the registered recall sources they were built for.
    _built = threading.local()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        include = fields["include"]
        # Declared above as a list of DocumentedChoiceField.
        choices = cast(DocumentedChoiceField, cast(serializers.ListField, include).child)
        # Read when asked: apps register their recall sources once they are ready.
        choices.choices = recall_includes()
        return fields

    @cached_property
    def fields(self) -> BindingDict:
        # Recall is called on every turn of every assistant, and DRF builds every field
        # anew for each serializer it makes: half of reading recall's input. These fields
        # keep nothing from one validation to the next and read nothing of the serializer
        # they are bound to (no context, no instance), so each thread builds them once,
        # and again only when the registered recall sources change.
        includes = tuple(recall_includes())
        built = getattr(self._built, "fields", None)
        if built is None or built[0] != includes:
            fields = BindingDict(self)
            for name, field in self.get_fields().items():
                fields[name] = field
            built = self._built.fields = (includes, fields)
        return built[1]


class RecallSourceOutput(serializers.Serializer):
    event_id = serializers.UUIDField()
    session_id = serializers.UUIDField()
    sequence = serializers.IntegerField()
    event_type = serializers.CharField()
    occurred_at = serializers.DateTimeField()
    excerpt = serializers.CharField()


CONTEXT_POSITIONS = [(BEFORE, BEFORE), (AFTER, AFTER)]


class RecallContextOutput(serializers.Serializer):
    id = serializers.UUIDField()
    text = serializers.CharField()
    sequence = serializers.IntegerField()
    event_type = serializers.CharField()
    occurred_at = serializers.DateTimeField()
    position = serializers.ChoiceField(
        choices=CONTEXT_POSITIONS, help_text="Whether the turn came before or after the message."
    )


class RecallItemOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["belief", "message", "derived"])
    id = serializers.UUIDField()
    text = serializers.CharField()
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    sources = RecallSourceOutput(many=True)
    type = serializers.CharField(allow_blank=True)
    subject = serializers.CharField(allow_blank=True)
    status = serializers.CharField(allow_blank=True)
    needs_review = serializers.BooleanField()
    confidence = serializers.FloatField(allow_null=True)
    revision = serializers.IntegerField(allow_null=True)
    session_id = serializers.CharField(allow_blank=True)
    sequence = serializers.IntegerField(allow_null=True)
    event_type = serializers.CharField(allow_blank=True)
    occurred_at = serializers.DateTimeField(allow_null=True)
    derived_kind = serializers.ChoiceField(
        choices=DERIVED_KINDS,
        required=False,
        help_text="Derived items only: the kind of view.",
    )
    tentative = serializers.BooleanField(
        required=False, help_text="Derived items only: an inference (a hypothesis), not evidence."
    )
    memory_ids = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        help_text="Derived items only: the original memories it concerns.",
    )
    # A field named as the serializer's own ``context``: DRF moves declared fields off the
    # class, which django-stubs cannot see.
    context = RecallContextOutput(  # type: ignore[assignment]
        many=True,
        required=False,
        help_text=(
            "Message items only, with context_turns: the turns around the message in its "
            "conversation, in the order they were said. Context, not a match: it is given "
            "in what the budget leaves, nearest turns first."
        ),
    )


class RecallOutput(serializers.Serializer):
    items = RecallItemOutput(many=True)
    terms = serializers.ListField(child=serializers.CharField())
    chars = serializers.IntegerField(
        help_text="Characters of the items' text and their context, within budget_chars."
    )
    truncated = serializers.BooleanField(
        help_text="Whether matches or context turns were left out for the budget."
    )
    profile = serializers.BooleanField(
        help_text=(
            "Whether the query asked what is known about the owner as a whole: the items are "
            "then the owner's profile, memories they stated or confirmed first."
        )
    )


# -- account ----------------------------------------------------------------------


class ErasureRequestOutput(serializers.Serializer):
    token = serializers.CharField()
    expires_at = serializers.DateTimeField()


class ErasureConfirmData(TypedDict):
    token: str


class ErasureConfirmInput(StrictSerializer[ErasureConfirmData]):
    token = serializers.CharField()


class ErasureOutput(serializers.Serializer):
    erased = serializers.DictField(child=serializers.IntegerField())


# -- tokens -----------------------------------------------------------------------


class TokenOutput(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    name = serializers.CharField()
    prefix = serializers.CharField()
    scope = serializers.CharField()
    # DRF moves declared fields off the class; the stubs see Field.read_only.
    read_only = serializers.BooleanField()  # type: ignore[assignment]
    include_sensitive = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    paused_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


# -- access records -----------------------------------------------------------------


class AccessRecordOutput(serializers.Serializer):
    """One read made with one of the owner's tokens: what its answer carried, by id."""

    id = serializers.UUIDField()
    token_id = serializers.UUIDField()
    token_name = serializers.CharField()
    route = serializers.CharField(help_text="The route's name, e.g. 'api:recall'.")
    request_id = serializers.CharField()
    at = serializers.DateTimeField()
    memory_ids = serializers.ListField(child=serializers.UUIDField())
    message_ids = serializers.ListField(child=serializers.UUIDField())
    derived_ids = serializers.ListField(child=serializers.UUIDField())
