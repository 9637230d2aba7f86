"""Helpers of the client's tests."""

import secrets

import httpx
from reverie_client import Retries, ReverieClient

# Retries that wait for next to nothing.
FAST = Retries(attempts=3, backoff=0.01, max_backoff=0.02, max_retry_after=2)


def unique(prefix: str = "t") -> str:
    """A value no other test uses: the principals are shared by the whole session."""
    return f"{prefix}-{secrets.token_hex(4)}"


def answered_by(answer, retries: Retries = FAST) -> ReverieClient:
    """A client whose requests ``answer(request)`` answers instead of a service."""
    transport = httpx.MockTransport(answer)
    return ReverieClient("http://reverie.test", token="t", transport=transport, retries=retries)


def sold(reverie: ReverieClient, service, things) -> dict:
    """For each thing, the owner's explicit "User owns a <thing>." and their message "I
    sold the <thing> last week.", which formation (run here) leaves to them as a
    challenge: ``{thing: (memory, message)}``."""
    stated = {
        thing: reverie.remember(
            f"User owns a {thing}.",
            type="ownership",
            subject="vehicle:" + thing.lower().replace(" ", "-"),
        )
        for thing in things
    }
    conversation = reverie.conversation(unique("sold"))
    said = {thing: conversation.record(f"I sold the {thing} last week.") for thing in things}
    conversation.close()
    service.run_maintenance()
    return {thing: (stated[thing], said[thing].message) for thing in things}


def challenge_of(challenges, memory):
    """The one challenge of ``memory`` among ``challenges``."""
    (found,) = [challenge for challenge in challenges if challenge.standing.id == memory.id]
    return found
