"""Loading a LoCoMo-format dataset into Reverie, as an assistant runtime would send it.

Each (conversation, speaker) becomes one principal with its own copy of every
session: sessions have one owner, and each speaker's memories must form from
that speaker's point of view. Importing is idempotent: sessions carry the
dataset's session key and events the turn's ``dia_id`` as external ids, and a
session already imported and closed is left alone.
"""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from accounts.models import User
from common.principal import principal_context
from evaluation.locomo import Dataset, DialogSession
from memory.enums import EventType
from memory.models import Event, Session
from memory.services.sessions import (
    AUTHOR_NAME_MAX_CHARS,
    event_append,
    session_close,
    session_create,
)

USERNAME_PREFIX = "locomo-"


@dataclass
class ImportReport:
    principals_created: int = 0
    principals_existing: int = 0
    sessions_created: int = 0
    sessions_existing: int = 0
    events_appended: int = 0
    questions: int = 0
    facts: int = 0
    quirks: Counter[str] = field(default_factory=Counter)


def principal_username(sample_id: str, speaker: str) -> str:
    """The username of the principal playing ``speaker`` in conversation ``sample_id``."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{sample_id}-{speaker}".lower()).strip("-")
    return f"{USERNAME_PREFIX}{slug}"[:150]


def session_key(sample_id: str, number: int) -> str:
    return f"{sample_id}:session_{number}"


def import_principal(sample_id: str, speaker: str, report: ImportReport | None = None) -> User:
    """The principal for ``speaker`` of ``sample_id``, created on first import."""
    with transaction.atomic():
        principal, created = User.objects.get_or_create(
            username=principal_username(sample_id, speaker)
        )
        if created:
            principal.set_unusable_password()
            principal.save(update_fields=["password"])
    if report is not None:
        if created:
            report.principals_created += 1
        else:
            report.principals_existing += 1
    return principal


def import_conversations(
    dataset: Dataset, *, progress: Callable[[int, int], None] | None = None
) -> ImportReport:
    """Import every conversation of ``dataset`` (a parsed ``Dataset``); return the report.

    ``progress(done, total)`` is called after each session copy.
    """
    report = ImportReport(quirks=Counter(dataset.quirks))
    total = sum(2 * len(conversation.sessions) for conversation in dataset.conversations)
    done = 0
    for conversation in dataset.conversations:
        report.questions += len(conversation.questions)
        report.facts += len(conversation.facts)
        for speaker in conversation.speakers:
            principal = import_principal(conversation.sample_id, speaker, report)
            for dialog in conversation.sessions:
                _import_session(principal, conversation.sample_id, speaker, dialog, report)
                done += 1
                if progress is not None:
                    progress(done, total)
    return report


def _import_session(
    principal: User, sample_id: str, speaker: str, dialog: DialogSession, report: ImportReport
) -> None:
    key = session_key(sample_id, dialog.number)
    with principal_context(principal):
        closed = Session.objects.filter(
            owner=principal, external_id=key, closed_at__isnull=False
        ).exists()
    if closed:
        report.sessions_existing += 1
        return
    session = session_create(principal=principal, external_id=key, started_at=dialog.started_at)
    report.sessions_created += 1
    with principal_context(principal):
        # An import that stopped halfway resumes after the turns it already appended.
        appended = set(
            Event.objects.filter(owner=principal, session=session)
            .exclude(external_id=None)
            .values_list("external_id", flat=True)
        )
    for turn in dialog.turns:
        if turn.dia_id in appended:
            continue
        parts = [{"type": "text", "text": turn.text}] if turn.text.strip() else []
        if turn.caption:
            parts.append({"type": "caption", "text": turn.caption})
        event_append(
            principal=principal,
            session_id=session.public_id,
            event_type=EventType.USER_MESSAGE
            if turn.speaker == speaker
            else EventType.PARTICIPANT_MESSAGE,
            parts=parts,
            author_name=turn.speaker[:AUTHOR_NAME_MAX_CHARS],
            external_id=turn.dia_id,
            occurred_at=dialog.started_at,
        )
        appended.add(turn.dia_id)
        report.events_appended += 1
    # Closing is an immediate formation boundary.
    session_close(principal=principal, session_id=session.public_id)
