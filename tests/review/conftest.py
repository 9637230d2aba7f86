import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.memory.helpers import conversation, remember

# Text that only the other owner has; no page of the owner may ever show it.
THEIR_SECRET = "The safe code is 4711-OTHER."


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def theirs(other_owner):
    """Another owner's conversation and memory, both holding ``THEIR_SECRET``."""
    session, (message,) = conversation(other_owner, f"Remember this: {THEIR_SECRET}")
    belief = remember(other_owner, THEIR_SECRET, sources=[message])
    return {"session": session, "message": message, "belief": belief}


@pytest.fixture
def screenshots():
    """``shoot(page, name)``: a full-page PNG of the screen in ``REVERIE_SCREENSHOTS_DIR``
    (default ``var/screenshots``)."""
    folder = Path(
        os.environ.get("REVERIE_SCREENSHOTS_DIR") or settings.BASE_DIR / "var/screenshots"
    )
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(page, name):
        page.screenshot(path=folder / f"{name}.png", full_page=True)

    return shoot
