"""What an ``Idempotency-Key`` may be, checked in one place for the API, the reconsolidation
routes, the review site's actions and the commands."""

import pytest

from core.errors import ReverieError
from memory.services.idempotency import IDEMPOTENCY_KEY_MAX_CHARS, idempotency_key_check


@pytest.mark.parametrize("key", ["k", "!~", "review-0f3a", "a" * IDEMPOTENCY_KEY_MAX_CHARS])
def test_a_key_of_printable_ascii_within_the_limit_is_accepted(key):
    assert idempotency_key_check(key) == key


@pytest.mark.parametrize(
    "key",
    ["", "a b", "clé", "tab\there", "k\n", "a" * (IDEMPOTENCY_KEY_MAX_CHARS + 1), 7, None],
)
def test_any_other_key_is_a_validation_error(key):
    with pytest.raises(ReverieError) as refused:
        idempotency_key_check(key)

    assert (refused.value.code, refused.value.details) == (
        "validation_error",
        {"field": "Idempotency-Key"},
    )
