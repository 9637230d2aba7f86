"""The adapter's own limits, whatever the server answers: usage figures are believed only
within bounds, one wall-clock deadline covers the whole call however slowly the reply
arrives, and a server's Retry-After is read."""

import json

import pytest

from providers.client import ProviderError, complete
from tests.fake_provider import DEADLINE
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
