"""Property tests: arbitrary JSON at every write route and arbitrary query strings at every
read route never cause a server error.

The routes come from the OpenAPI schema, so a new route is covered without
touching this file; path parameters are filled with the ids of real rows (a
session, a message, a run, a memory, and every kind of derived memory and
operation), so the bodies reach validation rather than a 404. Hypothesis runs
derandomised, with a fixed number of examples per route and no deadline: the
same inputs every run, and a bounded time.
"""

import json
import re
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services import api_token_create
from formation.extractor import DeterministicExtractor
from formation.services import formation_consolidate
from tests.reconsolidation.banks import reconsolidated

from .conftest import client_for
from .helpers import remember, say, start_session

EXAMPLES_PER_ROUTE = 20
PROPERTY = settings(
    max_examples=EXAMPLES_PER_ROUTE,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text that a URL can carry and a JSON document can hold (no lone surrogates),
# NUL and other control characters included.
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)


def json_values(keys):
    """Any JSON, its object keys often the route's own field names."""
    names = st.sampled_from(sorted(keys)) | TEXT if keys else TEXT
    return st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=5),
        max_leaves=12,
    )


def bodies(keys):
    return st.dictionaries(
        st.sampled_from(sorted(keys)) | TEXT if keys else TEXT, json_values(keys), max_size=6
    ) | json_values(keys)


# Numbers at the edges of the integer types a database and Python care about.
EDGE_NUMBERS = ("0", "-1", "2147483648", "9223372036854775808", "18446744073709551616", "1e309")


def query_strings(names):
    name = st.sampled_from(sorted(names)) | TEXT if names else TEXT
    value = (
        TEXT
        | st.integers(min_value=-(2**70), max_value=2**70).map(str)
        | st.sampled_from(EDGE_NUMBERS)
    )
    return st.lists(st.tuples(name, value), max_size=6).map(urlencode)


@pytest.fixture
def world(owner, processing_on):
    """The schema, a client, and a real id for every path parameter."""
    api = client_for(owner)
    bank = reconsolidated(owner)
    session = start_session(api)
    message = say(api, session, "I keep bees on the roof.")
    run = api.post(f"/api/v1/sessions/{session['id']}/runs").json()
    memory = remember(api, "User keeps bees.")
    # The owner's BMW X3, which a message formation reads would retract: a challenge.
    remember(api, "User owns a BMW X3.", subject="vehicle:bmw-x3", type="ownership")
    say(api, session, "I sold the BMW X3.")
    formation_consolidate(
        principal=owner, session_id=session["id"], extractor=DeterministicExtractor()
    )
    (challenge,) = api.get("/api/v1/challenges").json()["results"]
    # Another token than the client's: pausing it leaves the client working.
    token, _ = api_token_create(principal=owner, name="paused and resumed")
    ids = {
        "session_id": session["id"],
        "event_id": message["id"],
        "run_id": run["id"],
        "memory_id": memory["id"],
        "operation_id": str(bank.operations["summary"].public_id),
        "summary_id": str(bank["summary"].public_id),
        "derived_id": str(bank["hypothesis"].public_id),
        "token_id": str(token.public_id),
        "challenge_id": challenge["id"],
    }
    schema = api.get("/api/v1/schema/?format=json").json()
    return api, schema, ids


def operations(schema, methods):
    for path, described in schema["paths"].items():
        for method, operation in described.items():
            if method in methods:
                yield path, method, operation


def concrete(path, ids):
    return re.sub(r"\{(\w+)\}", lambda match: ids[match.group(1)], path)


def body_keys(schema, operation):
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return set()
    reference = content["schema"].get("$ref", "")
    component = schema["components"]["schemas"].get(reference.rsplit("/", 1)[-1], {})
    return set(component.get("properties", {}))


def assert_no_server_error(response, method, url, sent):
    assert response.status_code < 500, (method, url, sent, response.content[:300])
    assert response["Content-Type"] == "application/json", (method, url, sent)


def sender(api, method, url):
    def send(body):
        sent = json.dumps(body)
        response = api.generic(method.upper(), url, sent, content_type="application/json")
        assert_no_server_error(response, method, url, sent)

    return send


def querier(api, url):
    def send(query):
        assert_no_server_error(api.get(f"{url}?{query}"), "get", url, query)

    return send


def check_property(inputs, send):
    PROPERTY(given(inputs)(send))()


@pytest.mark.django_db(transaction=True)
def test_arbitrary_json_at_every_write_route_is_never_a_server_error(world):
    api, schema, ids = world
    writes = list(operations(schema, {"post", "put", "patch", "delete"}))
    assert len(writes) >= 20
    for path, method, operation in writes:
        check_property(
            bodies(body_keys(schema, operation)), sender(api, method, concrete(path, ids))
        )


@pytest.mark.django_db(transaction=True)
def test_arbitrary_query_strings_at_every_read_route_are_never_a_server_error(world):
    api, schema, ids = world
    reads = [
        (path, operation)
        for path, _, operation in operations(schema, {"get"})
        if not path.endswith(("/schema/", "/docs/"))
    ]
    assert len(reads) >= 12
    for path, operation in reads:
        names = {parameter["name"] for parameter in operation.get("parameters", [])}
        check_property(
            query_strings(names | {"limit", "offset"}), querier(api, concrete(path, ids))
        )


def test_the_text_strategy_reaches_the_characters_that_break_things():
    # The properties are only as good as their inputs: NUL must be among them.
    found = set()

    @settings(max_examples=200, derandomize=True, database=None)
    @given(TEXT)
    def collect(text):
        found.update(text)

    collect()
    assert "\x00" in found
