"""Each input serializer's validated data has the shape its TypedDict declares: the keys
the services receive, present always or only when sent."""

import inspect

import pytest
from rest_framework.fields import empty

from memory.api import serializers

SHAPES = {
    serializers.SessionCreateInput: serializers.SessionCreateData,
    serializers.PartInput: serializers.PartData,
    serializers.EventAppendInput: serializers.EventAppendData,
    serializers.RunFailInput: serializers.RunFailData,
    serializers.MemoryRememberInput: serializers.MemoryRememberData,
    serializers.RevisionInput: serializers.RevisionData,
    serializers.MemoryCorrectInput: serializers.MemoryCorrectData,
    serializers.RecallInput: serializers.RecallData,
    serializers.ErasureConfirmInput: serializers.ErasureConfirmData,
}


def test_every_input_serializer_has_its_shape_listed():
    inputs = {
        value
        for value in vars(serializers).values()
        if inspect.isclass(value)
        and issubclass(value, serializers.StrictSerializer)
        and value is not serializers.StrictSerializer
    }

    assert inputs == set(SHAPES)


@pytest.mark.parametrize("serializer_class", SHAPES, ids=lambda cls: cls.__name__)
def test_the_validated_data_has_the_declared_keys(serializer_class):
    shape = SHAPES[serializer_class]
    fields = serializer_class().fields
    # Validated data holds a field whenever the caller must send it or it has a default.
    always = {
        name for name, field in fields.items() if field.required or field.default is not empty
    }

    assert set(fields) == shape.__required_keys__ | shape.__optional_keys__
    assert always == shape.__required_keys__


def test_validated_data_leaves_out_what_was_not_sent(db):
    data = serializers.MemoryRememberInput(data={"statement": "I live in Oslo."})
    data.is_valid(raise_exception=True)

    assert set(data.validated_data) == serializers.MemoryRememberData.__required_keys__
