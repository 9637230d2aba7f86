"""A model's proposal that holds a secret is refused like any other, however the model
worded it, and nothing of it is kept."""

from common.principal import principal_context
from formation.candidates import PROPOSER_MODEL
from formation.services import formation_consolidate
from memory.models import Belief
from tests.memory.helpers import conversation

from .formation_helpers import ScriptedExtractor, candidate

ECHOES = (
    "User uses the same password everywhere, it is Sunshine2024.",
    "User's login is alice99 / Sunshine2024!",
    "User's bank PIN is 4821.",
)


def test_a_model_proposal_holding_a_secret_is_refused(owner):
    session, (message,) = conversation(
        owner, "I log in everywhere with Sunshine2024, and the bank wants 4821."
    )
    extractor = ScriptedExtractor(
        lambda request: [
            candidate(message, "fact:login", echo, type="fact", proposer=PROPOSER_MODEL)
            for echo in ECHOES
        ]
    )

    audit = formation_consolidate(
        principal=owner, session_id=session.public_id, extractor=extractor
    )

    assert audit.rejection_reasons == {"secret": len(ECHOES)}
    with principal_context(owner):
        assert not Belief.objects.filter(owner=owner).exists()


def test_a_model_proposal_about_a_redacted_secret_is_refused(owner):
    # What the model was sent had the password redacted; it may say so, but not keep it.
    session, (message,) = conversation(owner, "The password for my email is hunter2.")
    extractor = ScriptedExtractor(
        lambda request: [
            candidate(
                message,
                "fact:email",
                "User's email password is [redacted].",
                type="fact",
                proposer=PROPOSER_MODEL,
            )
        ]
    )

    audit = formation_consolidate(
        principal=owner, session_id=session.public_id, extractor=extractor
    )

    assert audit.rejection_reasons == {"secret": 1}
