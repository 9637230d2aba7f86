"""The formation service and the dry-run path (``extraction_decide``) decide every proposal
alike wherever no stored state is involved: both run ``formation.checks``."""

from collections import Counter
from datetime import datetime, timedelta

from django.utils import timezone

from formation.candidates import TemporalHint
from formation.extraction import extraction_decide
from formation.services import formation_consolidate
from memory.enums import EventType
from tests.formation.formation_helpers import ScriptedExtractor, candidate, user_messages
from tests.memory.helpers import conversation, say


def proposals(request):
    mine = user_messages(request)[0]
    theirs = next(m for m in request.messages if m.event_type != EventType.USER_MESSAGE)
    now = timezone.now()
    return [
        candidate(mine, "device:kindle", "User owns a kindle."),
        candidate(mine, "device:kindle", "user owns a KINDLE"),
        candidate(mine, "device:tablet", "User owns a tablet " + "very " * 600 + "much."),
        candidate(mine, "device:phone", "User owns a phone.", scope="assistant:other"),
        candidate(mine, "device:laptop", "User owns a laptop.", source_ids=()),
        candidate(theirs, "device:radio", "User owns a radio."),
        candidate(
            mine,
            "place:rome",
            "User is in Rome.",
            type="attribute",
            temporal=TemporalHint(phrase="now", valid_until=datetime(2030, 1, 1)),
        ),
        candidate(
            mine,
            "place:oslo",
            "User is in Oslo.",
            type="attribute",
            temporal=TemporalHint(
                phrase="for a week", valid_from=now, valid_until=now - timedelta(days=1)
            ),
        ),
        candidate(
            mine,
            "place:paris",
            "User is in Paris.",
            type="attribute",
            temporal=TemporalHint(phrase="until yesterday", expires_at=now - timedelta(days=1)),
        ),
        candidate(mine, "account:bank", "User's password is hunter2."),
    ]


def test_the_service_and_the_dry_run_give_the_same_reasons(owner):
    session, _ = conversation(owner, "I own a kindle, my password is hunter2.")
    say(owner, session, "Nice, a kindle!", event_type=EventType.ASSISTANT_MESSAGE)
    extractor = ScriptedExtractor(proposals)

    audit = formation_consolidate(
        principal=owner, session_id=session.public_id, extractor=extractor
    )
    (request,) = extractor.requests
    dry = extraction_decide(request, extractor=ScriptedExtractor(proposals))

    reasons = Counter(d.reason for d in dry.decisions if not d.accepted)
    assert dict(reasons) == audit.rejection_reasons
    assert len(dry.accepted) == audit.committed_count == 1
    assert set(reasons) == {
        "duplicate",
        "malformed",
        "scope",
        "provenance",
        "already_expired",
        "secret",
    }
