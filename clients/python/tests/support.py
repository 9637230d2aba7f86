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
