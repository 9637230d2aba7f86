"""The OpenAPI schema describes the API, and a fuzzer against a live server agrees."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from accounts.services import api_token_create
from common.services.flags import flag_set
from core.errors import HTTP_STATUS_BY_CODE
from tests.conftest import PROXIED_HTTPS
from tests.reconsolidation.banks import reconsolidated

from .helpers import remember, say, start_session

SCHEMATHESIS = Path(sys.executable).with_name("st")


def test_the_schema_is_valid_and_generated_without_warnings(db):
    # Every route, those behind the reconsolidation surface included.
    flag_set(key="reconsolidation_surface", enabled=True)
    out = StringIO()

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out
    )

    assert '"openapi": "3' in out.getvalue()


def test_every_operation_documents_its_error_responses(client, db):
    flag_set(key="reconsolidation_surface", enabled=True)
    schema = client.get("/api/v1/schema/?format=json").json()

    operations = [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]
    assert len(operations) >= 36
    always = {"401", "403", "404", "405", "406", "413", "429", "500"}
    for path, method, operation in operations:
        documented = set(operation["responses"])
        assert always <= documented, (method, path, always - documented)
        for status in documented - {"200", "201", "202"}:
            body = operation["responses"][status]["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/Error"}, (method, path, status)
        if "requestBody" in operation:
            assert {"400", "415"} <= documented, (method, path)
    codes = schema["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    assert set(schema["components"]["schemas"][codes["$ref"].split("/")[-1]]["enum"]) == set(
        HTTP_STATUS_BY_CODE
    )


def test_the_docs_page_is_served_without_any_download(client, db):
    response = client.get("/api/v1/docs/")

    assert response.status_code == 200
    assert b"redoc" in response.content.lower()
    assert b"cdn" not in response.content.lower()


def fuzz(live_server, secret, *options, examples, config=None):
    """Schemathesis against the live server's schema; the completed process."""
    return subprocess.run(
        [
            str(SCHEMATHESIS),
            *(["--config-file", str(config)] if config else []),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--header",
            f"Authorization: Bearer {secret}",
            "--header",
            "X-Forwarded-Proto: https",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,"
            "response_headers_conformance,response_schema_conformance",
            *options,
            "--max-examples",
            str(examples),
            "--workers",
            "1",
            "--seed",
            "7",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=django_settings.BASE_DIR,
    )


@pytest.fixture
def unthrottled(settings):
    # Every request of a fuzzing run must reach the views, not the throttle.
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "principal": "1000000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.mark.django_db(transaction=True)
def test_a_bounded_fuzzing_run_against_a_live_server_finds_nothing(live_server, owner, unthrottled):
    _, secret = api_token_create(principal=owner, name="fuzzer")
    from rest_framework.test import APIClient

    api = APIClient(**PROXIED_HTTPS)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    session = start_session(api)
    message = say(api, session, "I just got an Apple Watch.")
    remember(api, "User owns an Apple Watch.", source_event_ids=[message["id"]])

    result = fuzz(
        live_server,
        secret,
        # Erasing the fuzzer's own account would end the run early.
        "--exclude-operation-id",
        "account_erasure_confirm",
        examples=os.environ.get("REVERIE_FUZZ_EXAMPLES", "8"),
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


@pytest.mark.django_db(transaction=True)
def test_a_bounded_fuzzing_run_over_the_reconsolidation_routes_finds_nothing(
    live_server, owner, unthrottled, tmp_path
):
    flag_set(key="reconsolidation_surface", enabled=True)
    bank = reconsolidated(owner)
    _, secret = api_token_create(principal=owner, name="fuzzer")
    # Real ids, so that the run reaches the views behind the lookups: the merge for the
    # operation routes, a derived memory of the kind each route acts on.
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        f"""
[parameters]
operation_id = "{bank.operations["summary"].public_id}"
derived_id = "{bank["merged"].public_id}"
summary_id = "{bank["summary"].public_id}"

[[operations]]
include-name = "POST /api/v1/derived/{{derived_id}}/promote"
parameters = {{ derived_id = "{bank["hypothesis"].public_id}" }}

[[operations]]
include-name = "DELETE /api/v1/derived/{{derived_id}}"
parameters = {{ derived_id = "{bank["uncertainty_notice"].public_id}" }}
"""
    )

    result = fuzz(
        live_server,
        secret,
        "--include-path-regex",
        "^/api/v1/(operations|derived|summaries)",
        examples=os.environ.get("REVERIE_FUZZ_EXAMPLES_RECONSOLIDATION", "25"),
        config=config,
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Selected: 12/" in result.stdout and "Tested: 12" in result.stdout
    assert "Missing test data" not in result.stdout, result.stdout[-3000:]
