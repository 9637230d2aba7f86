"""Shapes of the challenge routes' responses; the selectors' plain data, described."""

from rest_framework import serializers

from formation.models import Challenge

# Named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].
CHALLENGE_STATES = Challenge.State.choices


class ChallengeSourceOutput(serializers.Serializer):
    event_id = serializers.UUIDField()
    excerpt = serializers.CharField(allow_blank=True)


class StandingOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text="The memory's id.")
    type = serializers.CharField()
    subject = serializers.CharField(allow_blank=True)
    statement = serializers.CharField(allow_blank=True)
    polarity = serializers.CharField()
    authority = serializers.CharField()
    status = serializers.CharField()
    revision = serializers.IntegerField()
    sources = ChallengeSourceOutput(many=True)


class ProposalOutput(serializers.Serializer):
    type = serializers.CharField()
    subject = serializers.CharField()
    statement = serializers.CharField()
    polarity = serializers.CharField()
    model_proposed = serializers.BooleanField(help_text="A language model proposed it.")
    sources = ChallengeSourceOutput(many=True, help_text="The messages it was read from.")


class ChallengeOutput(serializers.Serializer):
    id = serializers.UUIDField()
    state = serializers.ChoiceField(choices=CHALLENGE_STATES)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    standing = StandingOutput(help_text="The memory that stands until the owner decides.")
    proposal = ProposalOutput(help_text="What formation read that may have changed it.")
    replacement = serializers.UUIDField(
        allow_null=True, help_text="Once replaced: the memory made of the proposal."
    )


class ChallengePageOutput(serializers.Serializer):
    results = ChallengeOutput(many=True)
