"""What may have changed, through the synchronous client: memories alice stated herself,
and messages of hers formation read as retiring them, which it leaves to her to decide."""

import pytest
from reverie_client import (
    Challenge,
    ChallengePage,
    ConflictError,
    ForbiddenError,
    ReverieClient,
)
from support import challenge_of, sold

# One explicit memory per test: listed only, kept, replaced.
THINGS = ("Fiat Panda", "Vespa GTS", "Skoda Octavia")


@pytest.fixture(scope="module")
def challenged(service):
    """Each thing's explicit memory, and the challenge of the message that sold it."""
    with ReverieClient(service.url, token=service.token) as reverie:
        return sold(reverie, service, THINGS)


def test_the_owner_lists_and_reads_both_sides_with_their_sources(client, challenged):
    memory, message = challenged["Fiat Panda"]

    page = client.challenge_list()

    assert isinstance(page, ChallengePage)
    challenge = challenge_of(page.results, memory)
    assert isinstance(challenge, Challenge)
    assert (challenge.state, challenge.decided_at, challenge.replacement) == ("open", None, None)
    assert challenge.standing.id == memory.id
    assert (challenge.standing.statement, challenge.standing.authority) == (
        "User owns a Fiat Panda.",
        "explicit",
    )
    assert challenge.proposal.statement == "User no longer owns a Fiat Panda."
    assert (challenge.proposal.polarity, challenge.proposal.model_proposed) == ("negative", False)
    assert [(s.event_id, s.excerpt) for s in challenge.proposal.sources] == [
        (message.id, message.text)
    ]
    assert client.challenge_get(challenge.id) == challenge
    assert challenge.id in {c.id for c in client.iter_challenges(page_size=1)}
    assert challenge.id not in {c.id for c in client.challenge_list(state="kept").results}
    # Recall keeps the owner's memory meanwhile.
    assert memory.id in {item.id for item in client.recall("Fiat Panda").items}


def test_keeping_closes_it_and_a_replay_answers_the_same(client, challenged):
    memory, _ = challenged["Vespa GTS"]
    challenge = challenge_of(client.challenge_list().results, memory)

    kept = client.challenge_keep(challenge.id, idempotency_key=f"keep-{challenge.id}")
    replayed = client.challenge_keep(challenge.id, idempotency_key=f"keep-{challenge.id}")

    assert kept.state == "kept" and kept.decided_at is not None
    assert replayed == kept
    assert challenge.id not in {c.id for c in client.challenge_list().results}
    assert challenge.id in {c.id for c in client.iter_challenges(state="kept")}
    assert client.memory_get(memory.id).status == "active"
    with pytest.raises(ConflictError):
        client.challenge_replace(challenge.id)


def test_replacing_makes_the_proposal_the_owners_own_memory(client, challenged):
    memory, message = challenged["Skoda Octavia"]
    challenge = challenge_of(client.challenge_list().results, memory)

    replaced = client.challenge_replace(challenge.id)

    assert replaced.state == "replaced" and replaced.replacement is not None
    new = client.memory_get(replaced.replacement)
    assert (new.statement, new.authority, new.polarity, new.status) == (
        "User no longer owns a Skoda Octavia.",
        "explicit",
        "negative",
        "active",
    )
    assert [source.event_id for source in new.sources] == [message.id]
    assert client.memory_get(memory.id).status == "retracted"
    with pytest.raises(ConflictError):
        client.challenge_keep(challenge.id)


def test_another_owner_sees_none_of_them(other_client, challenged):
    memory, _ = challenged["Fiat Panda"]
    assert memory.id not in {c.standing.id for c in other_client.challenge_list().results}


def test_a_token_narrowed_to_one_assistant_cannot_reach_them(service, challenged):
    with (
        ReverieClient(service.url, token=service.tokens["alice-chat"]) as chat,
        pytest.raises(ForbiddenError),
    ):
        chat.challenge_list()
