"""A scripted extractor and shortcuts for formation tests.

The formation service must decide correctly whatever an extractor proposes,
so its tests drive it with proposals written out by hand.
"""

from datetime import timedelta

from django.utils import timezone

from formation.candidates import ExtractionResult, MemoryCandidate


class ScriptedExtractor:
    """Proposes what ``script(request)`` returns; records every request it saw."""

    policy_version = "formation@2"

    def __init__(self, script):
        self.script = script
        self.requests = []

    def extract(self, request):
        self.requests.append(request)
        return ExtractionResult(
            candidates=tuple(self.script(request)), policy_version=self.policy_version
        )


def user_messages(request):
    return [m for m in request.messages if m.event_type == "user.message.created"]


def candidate(message, subject, statement, **fields):
    """A proposal read from ``message`` (an event, or a message of an extraction request)."""
    source = str(getattr(message, "public_id", None) or message.id)
    return MemoryCandidate(
        type=fields.pop("type", "ownership"),
        subject=subject,
        statement=statement,
        source_ids=fields.pop("source_ids", (source,)),
        **fields,
    )


def later(seconds=31):
    """A moment past the default idle window, to sweep "as if" the session had gone quiet."""
    return timezone.now() + timedelta(seconds=seconds)
