"""The fake provider knows no app's requests: it answers those of the JSON schemas the apps
registered, and refuses the others by name rather than guess."""

import json
from dataclasses import replace

import httpx
import pytest

from formation.model_proposals import SCHEMA, SCHEMA_NAME, SYSTEM_PROMPT, user_content
from providers.client import ProviderRefused, complete, request_bytes
from providers.fake import FakeAnswers, behaviours, fake_answers_register
from tests.fake_provider import DEADLINE


def payload(config, schema_name=SCHEMA_NAME):
    return request_bytes(
        config,
        system=SYSTEM_PROMPT,
        user=user_content([("e1", "I adopted a cat named Miso.")], []),
        schema=SCHEMA,
        max_output_tokens=4096,
        schema_name=schema_name,
    )


def test_a_request_of_a_schema_no_app_registered_is_refused_naming_it(config, fake_provider):
    reply = httpx.post(
        f"{fake_provider.base_url}/chat/completions",
        content=payload(config, schema_name="weather_report"),
        timeout=DEADLINE,
    )

    assert reply.status_code == 400
    assert "'weather_report'" in reply.json()["error"]["message"]
    assert fake_provider.requests == 1


def test_the_client_reads_that_refusal_as_refused(config, fake_provider):
    with pytest.raises(ProviderRefused):
        complete(config, payload=payload(config, schema_name="weather_report"), timeout=DEADLINE)


def test_the_apps_register_their_answers_and_behaviours():
    assert {"valid", "slow", "no_usage", "ungrounded", "disagree"} <= set(behaviours())


def test_a_behaviour_of_one_app_is_answered_as_valid_on_the_requests_of_another(
    config, fake_provider
):
    fake_provider.set("disagree")

    completion = complete(config, payload=payload(config), timeout=DEADLINE)

    (proposal,) = json.loads(completion.content)["proposals"]
    assert proposal["statement"] == "User adopted a cat named Miso."


def test_a_shared_behaviour_applies_to_every_registered_schema(config, fake_provider):
    fake_provider.set("no_usage")

    completion = complete(config, payload=payload(config), timeout=DEADLINE)

    assert completion.input_tokens is None and completion.output_tokens is None


@pytest.mark.parametrize(
    "scripts", [{"behaviour": "sulk"}, {"behaviour": "valid", "forecasts": []}]
)
def test_it_refuses_to_be_set_to_what_no_app_registered(fake_provider, scripts):
    with pytest.raises(ValueError):
        fake_provider.set(**scripts)


def test_an_app_cannot_take_a_shared_behaviour_or_another_apps_schema():
    answers = FakeAnswers(answer=lambda request: {}, malformed="", off_schema={})

    with pytest.raises(ValueError):
        fake_answers_register("weather_report", replace(answers, behaviours=("slow",)))
    with pytest.raises(ValueError):
        fake_answers_register(SCHEMA_NAME, answers)
