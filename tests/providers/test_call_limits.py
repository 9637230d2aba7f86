"""The adapter's own limits, whatever the server answers: usage figures are believed only
within bounds, one wall-clock deadline covers the whole call however slowly the reply
arrives, and a server's Retry-After is read."""

import json
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from providers.client import (
    MAX_RETRY_AFTER,
    ProviderError,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
    complete,
)
from tests.fake_provider import DEADLINE, SHORT_DEADLINE
from tests.providers.test_client import complete_against, payload


def completion_reporting(usage):
    reply = {"model": "x", "choices": [{"message": {"content": "{}"}}], "usage": usage}
    return lambda: (200, json.dumps(reply).encode(), {})


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": 10**18, "completion_tokens": 120},
        {"prompt_tokens": 900, "completion_tokens": 10**18},
        {"prompt_tokens": -1, "completion_tokens": 120},
        {"prompt_tokens": 900, "completion_tokens": 1.5},
        {"prompt_tokens": "900", "completion_tokens": 120},
        {"prompt_tokens": True, "completion_tokens": 120},
    ],
    ids=["huge-input", "huge-output", "negative", "fraction", "text", "boolean"],
)
def test_a_usage_figure_out_of_bounds_is_a_provider_error(config, usage):
    with pytest.raises(ProviderError) as refused:
        complete_against(config, completion_reporting(usage))
    assert refused.value.error_class == "absurd_usage"


def test_the_fakes_absurd_usage_is_refused_by_the_adapter(config, fake_provider):
    fake_provider.set("absurd_usage")

    with pytest.raises(ProviderError) as refused:
        complete(config, payload=payload(config), timeout=DEADLINE)
    assert refused.value.error_class == "absurd_usage"


def test_usage_within_bounds_is_believed(config):
    completion = complete_against(
        config, completion_reporting({"prompt_tokens": 0, "completion_tokens": 4096})
    )

    assert (completion.input_tokens, completion.output_tokens) == (0, 4096)


def test_a_reply_dripping_byte_by_byte_cannot_outlive_the_deadline(config, fake_provider):
    # Each byte comes well within a read timeout of the deadline's length, so only a
    # deadline over the whole call stops it; the whole reply would take minutes.
    fake_provider.delay = 0.5
    fake_provider.set("drip")
    started = time.monotonic()

    with pytest.raises(ProviderTimeout):
        complete(config, payload=payload(config), timeout=SHORT_DEADLINE)
    # Generous: a call that read the drip to its end would take minutes.
    assert time.monotonic() - started < 15


def refusing(status, retry_after):
    return lambda: (status, b'{"error": "later"}', {"Retry-After": retry_after})


def test_retry_after_in_seconds_is_read_from_a_429(config):
    with pytest.raises(ProviderRateLimited) as refused:
        complete_against(config, refusing(429, "120"))
    assert refused.value.retry_after == 120


def test_retry_after_as_an_http_date_is_read_from_a_503(config):
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=600), usegmt=True)

    with pytest.raises(ProviderUnavailable) as refused:
        complete_against(config, refusing(503, later))
    # The date has a resolution of a second, and the call takes a moment.
    assert 500 < refused.value.retry_after <= 600


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("999999999", MAX_RETRY_AFTER), ("-5", None), ("soon", None), ("1.5", None)],
)
def test_retry_after_is_bounded_and_nonsense_is_ignored(config, header, seconds):
    with pytest.raises(ProviderRateLimited) as refused:
        complete_against(config, refusing(429, header))
    assert refused.value.retry_after == seconds
