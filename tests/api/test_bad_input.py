"""Hostile input is refused in the closed vocabulary, never a server error."""

import pytest

from common.principal import principal_context
from memory.models import Belief, Event

from .helpers import error_of, start_session

NESTED = "[" * 2000 + "]" * 2000


def refused_as_validation_error(response):
    assert response["Content-Type"] == "application/json"
    assert (response.status_code, error_of(response)) == (400, "validation_error")
    return response.json()["error"]


def test_deeply_nested_json_is_refused_and_stores_nothing(api, owner):
    session = start_session(api)
    for url in ("/api/v1/memories", f"/api/v1/sessions/{session['id']}/events"):
        error = refused_as_validation_error(
            api.generic("POST", url, NESTED, content_type="application/json")
        )
        assert error["details"] == {"max_depth": 32}
    with principal_context(owner):
        assert not Belief.objects.exists() and not Event.objects.exists()


def test_nesting_within_the_bound_is_still_read(api):
    # 31 levels inside the top-level object: a body no route accepts, but one that
    # is parsed and refused by the route's own validation, not the depth bound.
    inner = "[" * 31 + "]" * 31
    response = api.generic(
        "POST", "/api/v1/memories", f'{{"statement": {inner}}}', content_type="application/json"
    )
    assert "fields" in refused_as_validation_error(response)["details"]


@pytest.mark.parametrize(
    "query",
    [
        "offset=9223372036854775808",
        "offset=99999999999",
        "limit=1_0",
        "offset=%200",
        "offset=-1",
        "limit=" + "9" * 5000,
    ],
)
def test_integer_parameters_out_of_range_are_validation_errors(api, query):
    error = refused_as_validation_error(api.get(f"/api/v1/memories?{query}"))
    assert error["details"]["field"] in ("offset", "limit")


def test_the_largest_offset_allowed_answers_an_empty_page(api):
    response = api.get("/api/v1/memories?offset=2147483647")
    assert response.status_code == 200 and response.json()["results"] == []


def test_too_many_query_parameters_is_a_validation_error(api):
    query = "&".join(f"p{number}=1" for number in range(1001))
    error = refused_as_validation_error(api.get(f"/api/v1/memories?{query}"))
    assert error["details"] == {"reason": "TooManyFieldsSent"}


def test_a_bad_host_under_the_api_answers_in_the_closed_vocabulary(api):
    error = refused_as_validation_error(api.get("/api/v1/memories", HTTP_HOST="evil.example"))
    assert error["details"] == {"reason": "DisallowedHost"}


def test_a_bad_host_elsewhere_answers_the_plain_page(client, db):
    response = client.get("/review/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and "json" not in response["Content-Type"]


@pytest.mark.parametrize("query", ["q=%00", "status=%00", "changed_since=%00"])
def test_a_nul_byte_in_a_query_is_a_validation_error(api, query):
    refused_as_validation_error(api.get(f"/api/v1/memories?{query}"))


@pytest.mark.parametrize("url", ["/api/v1/memories", "/api/v1/export", "/api/v1/nowhere"])
def test_api_responses_are_never_stored_by_a_cache(api, url):
    assert "no-store" in api.get(url)["Cache-Control"]


def test_review_pages_are_never_stored_by_a_cache(owner, client):
    client.force_login(owner)
    assert "no-store" in client.get("/review/")["Cache-Control"]
