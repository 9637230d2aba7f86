"""The OpenAPI schema describes the API, and a fuzzer against a live server agrees."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from accounts.services import api_token_create
from memory.errors import HTTP_STATUS_BY_CODE

from .helpers import remember, say, start_session

SCHEMATHESIS = Path(sys.executable).with_name("st")


def test_the_schema_is_valid_and_generated_without_warnings(db):
    out = StringIO()

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out
    )

    assert '"openapi": "3' in out.getvalue()


def test_every_operation_documents_its_error_responses(client, db):
    schema = client.get("/api/v1/schema/?format=json").json()

    operations = [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]
    assert len(operations) >= 24
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


@pytest.mark.django_db(transaction=True)
def test_a_bounded_fuzzing_run_against_a_live_server_finds_nothing(live_server, owner, settings):
    # Every request of the run must reach the views, not the throttle.
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "principal": "1000000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    _, secret = api_token_create(principal=owner, name="fuzzer")
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    session = start_session(api)
    message = say(api, session, "I just got an Apple Watch.")
    remember(api, "User owns an Apple Watch.", source_event_ids=[message["id"]])

    result = subprocess.run(
        [
            str(SCHEMATHESIS),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--header",
            f"Authorization: Bearer {secret}",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,"
            "response_headers_conformance,response_schema_conformance",
            # Erasing the fuzzer's own account would end the run early.
            "--exclude-operation-id",
            "account_erasure_confirm",
            "--max-examples",
            os.environ.get("REVERIE_FUZZ_EXAMPLES", "8"),
            "--workers",
            "1",
            "--seed",
            "7",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=settings.BASE_DIR,
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
